"""Vectors by (model digest, text digest): the shipped file, the native disk cache, the pool.

A text's key is the sha256 of its exact encoder input (prefix included), and every store
belongs to one model file's digest, so a vector can never be paired with another model or
another text. Stores share one format: ``b"RLV1"``, u32 dimension, the model's 32-byte
sha256, then records of (32-byte text key, dimension × float32), little-endian. The shipped
store (``py/raglab/data/vectors/<model digest>.bin`` in the repository, sorted by key) holds the bundled
corpus's chunks for every chunker and the sentences of the recursive chunks, so tests and
the browser need not encode them; the cache (``.cache/encoder/``) collects the rest natively.

Missing vectors are encoded in a process pool across texts: each text's arithmetic runs
in one fixed order inside the kernel, so the pool changes the speed, never the bits.
"""

from __future__ import annotations

import hashlib
import os
import struct
import sys
from array import array

from raglab.encoder.native import CACHE, ROOT, Encoder, native_encoder

MAGIC = b"RLV1"
SHIPPED_DIR = os.path.join(ROOT, "py", "raglab", "data", "vectors")


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def read_store(path: str, digest: str, dim: int) -> dict[bytes, bytes]:
    """{text key: dim float32 bytes}; {} when the file is absent. A store for another model is an error.

    A last record cut short (a writer killed mid-append, or one still writing) is left
    out, not taken for damage: every whole record before it is sound."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return {}
    width = 32 + 4 * dim
    header = store_header(digest, dim)
    if len(data) < 40 and header.startswith(data):  # created, header not yet written
        return {}
    if data[:4] != MAGIC or len(data) < 40:
        raise ValueError(f"{path}: not a vector store; delete it and run `python3 build.py setup`")
    (got_dim,) = struct.unpack_from("<I", data, 4)
    if got_dim != dim or data[8:40].hex() != digest:
        raise ValueError(f"{path}: vectors of another model; delete it and run `python3 build.py setup`")
    end = len(data) - (len(data) - 40) % width
    return {data[i : i + 32]: data[i + 32 : i + width] for i in range(40, end, width)}


def store_header(digest: str, dim: int) -> bytes:
    return MAGIC + struct.pack("<I", dim) + bytes.fromhex(digest)


def write_store(path: str, digest: str, dim: int, records: dict[bytes, bytes]) -> None:
    """A store sorted by key: the same records give the same bytes."""
    body = b"".join(k + records[k] for k in sorted(records))
    with open(path, "wb") as fh:
        fh.write(store_header(digest, dim) + body)


def shipped_path(digest: str) -> str:
    return os.path.join(SHIPPED_DIR, f"{digest[:16]}.bin")


def cache_path(digest: str) -> str:
    # "-i8": the kernel's arithmetic (int8 activations since this name). A kernel that gives
    # other bits for the same model must name its cache anew, or vectors of the older
    # arithmetic would be served beside its own.
    return os.path.join(CACHE, f"vectors-{digest[:16]}-i8.bin")


def _worker_encode(text: str) -> bytes:
    return native_encoder().encode(text).tobytes()


def encode_all(texts: list[str], encoder: Encoder, workers: int | None = None) -> list[bytes]:
    """Vectors (float32 bytes) of texts, in order; a process pool when there are many."""
    workers = workers or min(os.cpu_count() or 1, 4)
    if (len(texts) < 8 or workers < 2 or encoder is not _native_or_none()
            or sys.platform == "emscripten"):  # no processes in the browser
        return [encoder.encode(t).tobytes() for t in texts]
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return list(pool.imap(_worker_encode, texts, chunksize=2))


def _native_or_none():
    from raglab.encoder import native as mod

    return mod._NATIVE


class VectorCache:
    """The vectors of one encoder: shipped store, then disk cache, then the kernel."""

    def __init__(self, encoder: Encoder, use_disk: bool = True, shipped: str | None = None):
        self.encoder = encoder
        self.use_disk = use_disk
        self.warned = False
        shipped = shipped or shipped_path(encoder.digest)  # the browser passes the store it fetched
        self.known = read_store(shipped, encoder.digest, encoder.dim)
        if use_disk:
            self.known.update(read_store(cache_path(encoder.digest), encoder.digest, encoder.dim))

    def get(self, texts: list[str], progress: bool = False, keep: bool = True) -> array:
        """The vectors of texts (prefixes included), concatenated in order, as one array('f').

        New vectors go to the disk cache only with `keep` (passages); a question's vector
        (``keep=False``) is remembered for this process only, so stray questions never
        grow the cache file."""
        keys = [text_key(t) for t in texts]
        missing = {}
        for k, t in zip(keys, texts):
            if k not in self.known and k not in missing:
                missing[k] = t
        todo = list(missing.items())
        for start in range(0, len(todo), 256):  # saved in batches: an interrupted run keeps its work
            batch = todo[start : start + 256]
            fresh = encode_all([t for _, t in batch], self.encoder)
            new = {k: v for (k, _), v in zip(batch, fresh)}
            self.known.update(new)
            if self.use_disk and keep:
                self._append(new)
            if progress:
                print(f"encoded {start + len(batch)}/{len(todo)} texts", file=sys.stderr, flush=True)
        out = array("f")
        for k in keys:
            out.frombytes(self.known[k])
        return out

    def add(self, new: dict[bytes, bytes], keep: bool = True) -> None:
        """Vectors encoded elsewhere (by a cluster's workers: raglab.cluster), remembered and,
        with `keep`, saved to the disk cache like `get` saves its own batches."""
        self.known.update(new)
        if self.use_disk and keep:
            self._append(new)

    def _append(self, new: dict[bytes, bytes]) -> None:
        """Whole records at the end of the cache file, or nothing: a failed write (disk full)
        is cut back to the file's earlier length and said once on stderr; the vectors stay
        known to this process, and the cache stays readable for every later one."""
        path = cache_path(self.encoder.digest)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            append_records(path, store_header(self.encoder.digest, self.encoder.dim),
                           32 + 4 * self.encoder.dim, b"".join(k + new[k] for k in sorted(new)))
        except OSError as err:
            if not self.warned:
                self.warned = True
                print(f"note: {path}: cannot save vectors to the cache ({err.strerror or err}); "
                      "they are encoded again next time", file=sys.stderr)


def append_records(path: str, header: bytes, width: int, body: bytes) -> None:
    """Append `body` (whole records of `width` bytes) to the store at `path` under an exclusive
    lock, first cutting off a partial record a killed writer left; on failure the file is cut
    back to its length before the write, so it never ends inside a record of ours."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)  # two processes appending interleave whole records only
        except ImportError:
            pass
        size = os.fstat(fd).st_size
        if size < len(header):
            size = 0  # absent, or a header cut short: start the file again
            prefix = header
        else:
            size -= (size - len(header)) % width
            prefix = b""
        os.ftruncate(fd, size)
        try:
            os.lseek(fd, size, os.SEEK_SET)
            data = memoryview(prefix + body)
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        except OSError:
            os.ftruncate(fd, size)
            raise
    finally:
        os.close(fd)


_CACHE: VectorCache | None = None


def native_cache() -> VectorCache:
    """The process's vector cache (in the browser, the one its worker installed with `use`)."""
    global _CACHE
    if _CACHE is None:
        _CACHE = VectorCache(native_encoder())
    return _CACHE


def use(cache: VectorCache | None) -> None:
    global _CACHE
    _CACHE = cache


def write_shipped(texts: list[str], progress: bool = True) -> str:
    """The shipped store for texts (encoded through the cache), sorted by key; returns its path."""
    cache = native_cache()
    flat = cache.get(texts, progress=progress)
    width = cache.encoder.dim
    records = {text_key(t): flat[i * width : (i + 1) * width].tobytes() for i, t in enumerate(texts)}
    os.makedirs(SHIPPED_DIR, exist_ok=True)
    path = shipped_path(cache.encoder.digest)
    for name in os.listdir(SHIPPED_DIR):  # a store of an older model is dead weight
        if name.endswith(".bin") and os.path.join(SHIPPED_DIR, name) != path:
            os.remove(os.path.join(SHIPPED_DIR, name))
    write_store(path, cache.encoder.digest, width, records)
    return path
