"""The encoder's backend in the browser: py/raglab/encoder/kernel.c compiled to wasm32.

Natively `encoder.NativeKernel` calls the kernel as a shared library through ctypes. In
the page the very same C file runs as a WebAssembly module that the worker instantiates
(js/kernel.js) and registers with Pyodide as the JavaScript module ``raglab_kernel``;
`WasmKernel` has the same two methods as `NativeKernel` (``encode_ids`` and ``dots``), so
`Encoder`, the vector cache and the retrievers run one code path on both sides: Python
tokenizes, ranks and rounds; the kernel only does arithmetic, with the same bits.

Data crosses as buffers: token ids as ``array('i')``, vectors as ``array('f')``; the
JavaScript side reads them in place (``getBuffer``) and returns a ``Float32Array``.
"""

from __future__ import annotations

from array import array

from raglab.encoder import native as encoder_module
from raglab.encoder import vectors


class WasmKernel:
    """`encode_ids` and `dots` through the worker's ``raglab_kernel`` module."""

    def __init__(self, js_module):
        self._js = js_module
        self.dim = int(js_module.dim())

    def encode_ids(self, ids: list[int]) -> array:
        return array("f", self._js.encode(array("i", ids)).to_bytes())

    def dots(self, query: array, vectors_: array, n: int) -> array:
        if not n:
            return array("f")
        return array("f", self._js.dots(query, vectors_[: n * self.dim]).to_bytes())


def install(header: bytes, digest: str, shipped: str) -> vectors.VectorCache:
    """Make the wasm kernel the process's encoder, with the fetched vector store as its cache.

    `header` is the model file up to its weights (header and tokenizer sections; the kernel
    holds the weights), `digest` the whole file's sha256 as the worker checked it against
    the build's manifest, `shipped` the path of the vector store in Pyodide's file system.
    """
    import raglab_kernel  # registered by the worker (js/semantic.js) before this is called

    enc = encoder_module.Encoder(header, WasmKernel(raglab_kernel), digest=digest)
    enc.tokenizer  # noqa: B018 - its tables read now, while the page loads, not at the first question
    cache = vectors.VectorCache(enc, use_disk=False, shipped=shipped)
    encoder_module.use(enc)
    vectors.use(cache)
    return cache
