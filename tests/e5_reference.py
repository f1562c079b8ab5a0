"""Float64 numpy forward passes of multilingual-e5-small over raglab's model file.

`Reference` is written from the model's definition (BERT encoder, post-layer-norm, exact
GELU, mean pooling, L2 normalisation), independently of the C kernel. `Int8Reference` is
the kernel's arithmetic: the same pass with the input of each of the six weight products
quantised to int8 in blocks of 32 exactly as the kernel does it in float32 (`q8`); the
block sums, scales and everything else stay float64. The tests hold the kernel to
`Int8Reference` per component and to `Reference` by cosine.
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


def q8(x: np.ndarray) -> np.ndarray:
    """Each row in blocks of 32 as the kernel quantises it, in float32: m = max |x|, d = m / 127,
    q = x * (127 / m) rounded to the nearest integer, ties to even (m = 0: all zero); q * d."""
    n, c = x.shape
    b = x.astype(np.float32).reshape(n, c // 32, 32)
    m = np.abs(b).max(axis=2, keepdims=True)
    safe = np.where(m > 0, m, np.float32(1))
    d = np.where(m > 0, m / np.float32(127), np.float32(0))
    q = np.where(m > 0, np.rint(b * (np.float32(127) / safe)), np.float32(0))
    return (q.astype(np.float64) * d.astype(np.float64)).reshape(n, c)


class Int8Reference(Reference):
    """The float64 reference with the input of every 4-bit weight product quantised as the kernel does."""

    def activations(self, a: np.ndarray) -> np.ndarray:
        return q8(a)


def small_model(seed: int = 5, h: int = 64, layers: int = 2, heads: int = 2, ff: int = 128,
                vocab: int = 50, positions: int = 40) -> bytes:
    """A model file of random weights in raglab's format (no tokenizer section), small enough
    that float32 and float64 passes quantise every activation alike: the kernel then meets
    `Int8Reference` to float32 rounding, which the real model's depth does not allow."""
    import hashlib

    rng = np.random.default_rng(seed)

    def q4(rows: int, cols: int) -> bytes:
        n = rows * cols // 32
        blocks = np.zeros(n, dtype=Q4_BLOCK)
        blocks["d"] = rng.uniform(0.02, 0.12, n).astype(np.float16)
        blocks["q"] = rng.integers(0, 256, (n, 16), dtype=np.uint8)
        return blocks.tobytes()

    def f32(count: int, centre: float = 0.0, spread: float = 0.1) -> bytes:
        return (centre + rng.uniform(-spread, spread, count)).astype("<f4").tobytes()

    weights = [q4(vocab, h), f32(positions * h), f32(h), f32(h, 1.0), f32(h)]
    for _ in range(layers):
        for _name in ("q", "k", "v", "ao"):
            weights += [q4(h, h), f32(h)]
        weights += [f32(h, 1.0), f32(h), q4(ff, h), f32(ff), q4(h, ff), f32(h), f32(h, 1.0), f32(h)]
    body = b"".join(weights)
    head = b"RLE5" + struct.pack("<7If4I", 1, h, layers, heads, ff, vocab, positions, 1e-12, 96, 0, 96, len(body)) + bytes(12)
    return head + hashlib.sha256(body).digest() + body
