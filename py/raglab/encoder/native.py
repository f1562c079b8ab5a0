"""The multilingual encoder (e5-small): tokenizer in Python, forward pass in the C kernel.

`Encoder` turns texts into unit vectors: ``"query: "`` + question for questions,
``"passage: "`` + heading path and chunk text for chunks, as e5 was trained. The arithmetic
runs in ``py/raglab/encoder/kernel.c`` through a *backend* with two methods, ``encode_ids(ids)`` and
``dots(query, vectors, n)``; natively that is the shared library `build.py setup` compiles
(loaded with ctypes), in the browser the same file compiled to WebAssembly. Vectors are
`array('f')` of float32 values, so both sides hold the same bits.

Input longer than the model's 512-token window is cut to its first 510 pieces (plus
<s> and </s>); chunks are far shorter, and so is any question the pipeline accepts.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from array import array

from raglab.encoder import PASSAGE, QUERY  # noqa: F401  (imported from here by most callers)
from raglab.encoder.modelfile import ModelFileError, check, hidden_size, read_info, tokenizer_sections
from raglab.encoder.tokenizer import Tokenizer

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
CACHE = os.path.join(ROOT, ".cache", "encoder")
MODEL_PATH = os.path.join(CACHE, "e5-small-raglab.rle5")
LIBRARY_PATH = os.path.join(CACHE, "libencoder.so")
# Builds of the kernel for wider vector extensions (build.py KERNEL_VARIANTS): file name and
# the E5K_T_* bits of what it needs, widest first. All of them give the baseline's bits.
VARIANTS = (("libencoder-avx512.so", 3), ("libencoder-avx2.so", 1))
FIX = "run `python3 build.py setup` to rebuild it"

_ERRORS = {-1: "shorter than its header says", -2: "not a raglab model file",
           -3: "a format version (or byte order) the kernel does not read",
           -4: "dimensions that do not fit together", -5: "input out of range"}


class EncoderUnavailable(ValueError):
    """The model file or the native kernel is missing or damaged; one line says which and how
    to fix it (a ValueError, so the CLI prints it as its one-line error)."""


def read_model(path: str | None = None) -> bytes:
    """The model file's bytes, checked (size, header, digest) before anything uses them."""
    path = path or MODEL_PATH
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise EncoderUnavailable(f"{path}: model file missing; {FIX}") from None
    except OSError as exc:
        raise EncoderUnavailable(f"{path}: cannot read the model file ({exc.strerror}); {FIX}") from None
    problem = check(data)
    if problem:
        raise EncoderUnavailable(f"{path}: {problem}; {FIX}")
    return data


def _file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _load(library: str):
    """The library, loaded only if its bytes are what `build.py setup` compiled (its sha256 is
    recorded beside it): a truncated file would crash the process inside the dynamic loader."""
    import ctypes  # here, not at the top: the browser imports this module without it

    if not os.path.exists(library):
        raise EncoderUnavailable(f"{library}: native kernel missing (needs a C compiler, `cc`); {FIX}")
    try:
        with open(library + ".sha256", encoding="ascii") as fh:
            recorded = fh.read().strip()
        actual = _file_sha256(library)
    except (OSError, UnicodeDecodeError) as exc:
        raise EncoderUnavailable(f"{library}: no digest recorded by setup ({getattr(exc, 'strerror', None) or exc}); "
                                 f"{FIX}") from None
    if actual != recorded:
        raise EncoderUnavailable(f"{library}: does not match the digest setup recorded (altered or damaged); {FIX}")
    try:
        return ctypes.CDLL(library)
    except OSError as exc:
        raise EncoderUnavailable(f"{library}: cannot load the native kernel ({exc}); {FIX}") from None


def native_library(cache: str = CACHE) -> str:
    """The kernel build to load: the widest of VARIANTS present whose instruction sets this
    CPU runs, as the baseline build's e5k_cpu() reports them (a build for extensions the CPU
    lacks may crash on any call, so it is never loaded to ask); else the baseline build."""
    baseline = os.path.join(cache, os.path.basename(LIBRARY_PATH))
    found = [(os.path.join(cache, name), bits) for name, bits in VARIANTS if os.path.exists(os.path.join(cache, name))]
    if not found:
        return baseline
    try:
        cpu = _load(baseline).e5k_cpu()
    except AttributeError:
        raise EncoderUnavailable(f"{baseline}: not raglab's kernel (no e5k_cpu); {FIX}") from None
    return next((path for path, bits in found if bits & ~cpu == 0), baseline)


class NativeKernel:
    """py/raglab/encoder/kernel.c as a shared library: one state per process, one scratch buffer per call."""

    def __init__(self, model: bytes, library: str | None = None):
        import ctypes

        self.library = library or native_library()
        lib = _load(self.library)
        try:
            self._bind(lib)
        except AttributeError as exc:  # another library under the name, or an older kernel
            raise EncoderUnavailable(f"{self.library}: not raglab's kernel ({exc.args[0].split(':')[-1].strip()}); "
                                     f"{FIX}") from None
        size = lib.e5k_state_size(model, len(model))
        if size < 0:
            raise EncoderUnavailable(f"model file: {_ERRORS.get(size, size)}; {FIX}")
        self._state = ctypes.create_string_buffer(size)
        rc = lib.e5k_init(model, len(model), self._state)
        if rc:
            raise EncoderUnavailable(f"model file: {_ERRORS.get(rc, rc)}; {FIX}")
        self._lib = lib
        self.dim = lib.e5k_dim(self._state)

    @staticmethod
    def _bind(lib) -> None:
        import ctypes

        lib.e5k_state_size.argtypes = [ctypes.c_char_p, ctypes.c_int32]
        lib.e5k_init.argtypes = [ctypes.c_char_p, ctypes.c_int32, ctypes.c_void_p]
        lib.e5k_scratch_size.argtypes = [ctypes.c_void_p, ctypes.c_int32]
        lib.e5k_encode.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32,
                                   ctypes.c_void_p, ctypes.c_void_p]
        lib.e5k_dots.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32,
                                 ctypes.c_void_p]
        lib.e5k_dots.restype = None
        for name in ("e5k_dim", "e5k_scratch_size"):
            getattr(lib, name)

    def encode_ids(self, ids: list[int]) -> array:
        import ctypes

        n = len(ids)
        scratch = ctypes.create_string_buffer(self._lib.e5k_scratch_size(self._state, n))
        id_buf = array("i", ids)
        out = array("f", bytes(4 * self.dim))
        rc = self._lib.e5k_encode(self._state, id_buf.buffer_info()[0], n, scratch, out.buffer_info()[0])
        if rc:
            raise ValueError(f"encoder kernel: {_ERRORS.get(rc, rc)} ({n} tokens)")
        return out

    def dots(self, query: array, vectors: array, n: int) -> array:
        out = array("f", bytes(4 * n))
        if n:
            self._lib.e5k_dots(query.buffer_info()[0], vectors.buffer_info()[0], n, self.dim, out.buffer_info()[0])
        return out


class Encoder:
    """Texts to unit vectors. `digest` (the model file's sha256) keys every cached vector."""

    def __init__(self, model: bytes, backend, digest: str | None = None):
        # The browser hands over only the header and tokenizer sections (the weights live
        # in the kernel's memory) with the digest its worker already checked.
        self._sections = tokenizer_sections(model)
        self.backend = backend
        self.dim = hidden_size(model)
        self.digest = digest or hashlib.sha256(model).hexdigest()

    @functools.cached_property
    def tokenizer(self) -> Tokenizer:
        """Built at the first text to encode: a process whose every vector is cached (most CLI
        runs over the golden questions) never needs its tables, a tenth of a second to read."""
        return Tokenizer.from_info(read_info(self._sections))

    def ids(self, text: str) -> list[int]:
        return self.tokenizer.encode(text)

    def encode(self, text: str) -> array:
        """The vector of one text, prefix included (``QUERY + question``, ``PASSAGE + chunk``)."""
        return self.backend.encode_ids(self.ids(text))

    def dots(self, query: array, vectors: array) -> array:
        """Dot products (cosines: every vector is unit length) of one vector with many, concatenated."""
        return self.backend.dots(query, vectors, len(vectors) // self.dim)


_NATIVE: Encoder | None = None


class EncoderLoading(EncoderUnavailable):
    """In the browser: the semantic model has not been loaded (yet). The worker waits for it
    and asks again, so a semantic configuration is never answered by another one."""


def native_encoder() -> Encoder:
    """The process's encoder: natively over the model file and library that `build.py setup`
    made; in the browser the one its worker installed with `use` (raglab.encoder.wasm)."""
    global _NATIVE
    if _NATIVE is None:
        if sys.platform == "emscripten":
            raise EncoderLoading("the semantic model is not loaded yet; it loads after the page is ready")
        model = read_model()
        _NATIVE = Encoder(model, NativeKernel(model))
    return _NATIVE


def use(encoder: Encoder | None) -> None:
    """Make `encoder` the process's encoder (the browser's worker does, once its kernel is loaded)."""
    global _NATIVE
    _NATIVE = encoder


__all__ = ["Encoder", "EncoderLoading", "EncoderUnavailable", "ModelFileError", "NativeKernel", "native_encoder",
           "native_library", "read_model", "use", "QUERY", "PASSAGE"]
