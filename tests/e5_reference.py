"""A float64 numpy forward pass of multilingual-e5-small over raglab's model file.

Written from the model's definition (BERT encoder, post-layer-norm, exact GELU, mean
pooling, L2 normalisation), independently of the C kernel: the tests hold the kernel to
it within 1e-5 per component.
"""

from __future__ import annotations

import math
import struct

import numpy as np

Q4_BLOCK = np.dtype([("d", "<f2"), ("q", "u1", (16,))])


def _q4(buf: bytes, off: int, rows: int, cols: int) -> tuple[np.ndarray, int]:
    n = rows * cols // 32
    blocks = np.frombuffer(buf, dtype=Q4_BLOCK, count=n, offset=off)
    low = (blocks["q"] & 0x0F).astype(np.float64) - 8
    high = (blocks["q"] >> 4).astype(np.float64) - 8
    w = np.concatenate([low, high], axis=1) * blocks["d"].astype(np.float64)[:, None]
    return w.reshape(rows, cols), off + n * 18


def _f32(buf: bytes, off: int, count: int) -> tuple[np.ndarray, int]:
    return np.frombuffer(buf, dtype="<f4", count=count, offset=off).astype(np.float64), off + 4 * count


class Reference:
    def __init__(self, data: bytes):
        h, nl, nh, ff, v, p, eps = struct.unpack_from("<IIIIIIf", data, 8)
        (w_off,) = struct.unpack_from("<I", data, 44)
        self.h, self.nh, self.eps = h, nh, eps
        self.word, off = _q4(data, w_off, v, h)
        self.pos, off = _f32(data, off, p * h)
        self.pos = self.pos.reshape(p, h)
        self.type, off = _f32(data, off, h)
        self.ln = []
        w, off = _f32(data, off, h)
        b, off = _f32(data, off, h)
        self.ln = (w, b)
        self.layers = []
        for _ in range(nl):
            layer = {}
            for name, rows, cols in (("q", h, h), ("k", h, h), ("v", h, h), ("ao", h, h)):
                layer[name + ".w"], off = _q4(data, off, rows, cols)
                layer[name + ".b"], off = _f32(data, off, rows)
            layer["aln.w"], off = _f32(data, off, h)
            layer["aln.b"], off = _f32(data, off, h)
            layer["fi.w"], off = _q4(data, off, ff, h)
            layer["fi.b"], off = _f32(data, off, ff)
            layer["fo.w"], off = _q4(data, off, h, ff)
            layer["fo.b"], off = _f32(data, off, h)
            layer["oln.w"], off = _f32(data, off, h)
            layer["oln.b"], off = _f32(data, off, h)
            self.layers.append(layer)

    def _norm(self, x, w, b):
        mean = x.mean(axis=1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * w + b

    def activations(self, a: np.ndarray) -> np.ndarray:
        """What enters each weight product: as computed here; a variant may quantise it."""
        return a

    def encode(self, ids: list[int]) -> np.ndarray:
        n, h, nh = len(ids), self.h, self.nh
        hd = h // nh
        x = self._norm(self.word[ids] + self.pos[:n] + self.type, *self.ln)
        try:  # scipy's erf is exact to double precision and fast; math.erf per element is slow
            from scipy.special import erf
        except ImportError:
            erf = np.vectorize(math.erf)
        for ly in self.layers:
            xa = self.activations(x)
            q = xa @ ly["q.w"].T + ly["q.b"]
            k = xa @ ly["k.w"].T + ly["k.b"]
            v = xa @ ly["v.w"].T + ly["v.b"]
            ctx = np.empty_like(x)
            for head in range(nh):
                sl = slice(head * hd, (head + 1) * hd)
                s = q[:, sl] @ k[:, sl].T / math.sqrt(hd)
                s = np.exp(s - s.max(axis=1, keepdims=True))
                ctx[:, sl] = (s / s.sum(axis=1, keepdims=True)) @ v[:, sl]
            x = self._norm(x + self.activations(ctx) @ ly["ao.w"].T + ly["ao.b"], ly["aln.w"], ly["aln.b"])
            mid = self.activations(x) @ ly["fi.w"].T + ly["fi.b"]
            mid = 0.5 * mid * (1.0 + erf(mid / math.sqrt(2.0)))
            x = self._norm(x + self.activations(mid) @ ly["fo.w"].T + ly["fo.b"], ly["oln.w"], ly["oln.b"])
        pooled = x.mean(axis=0)
        return pooled / np.linalg.norm(pooled)
