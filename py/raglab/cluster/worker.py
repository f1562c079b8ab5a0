"""What runs inside a Dask worker process: the model loaded once, and the checks on it.

A worker holds one encoder for its whole life (`worker_encoder`, loaded on first use under
a lock, so two threads of one worker never load it twice) and, for the jobs that read
vectors (`raglab compare` and `ask` with a semantic retriever), one in-memory vector cache
that the client fills (`worker_cache`): a worker never writes a cache file, so the
client's stays the only writer. Every task names the model digest the client encodes
with, and a worker whose own model file differs refuses it with `ModelMismatch`.

`identity` is what `connect.check_workers` asks every worker up front: a digest of its
raglab sources (workers running other code would give other results) and its model's.
"""

from __future__ import annotations

import copy
import hashlib
import os
import threading

from raglab.encoder import native, vectors

_LOCK = threading.Lock()
_CACHE: vectors.VectorCache | None = None
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # raglab/


class ModelMismatch(ValueError):
    """A worker's model file is not the client's; the message names both digests and the fix."""


def code_digest() -> str:
    """sha256 over the package's .py and .json files (relative path and bytes), in path order."""
    digest = hashlib.sha256()
    for folder, dirs, names in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".json")):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, PACKAGE).replace(os.sep, "/").encode() + b"\0")
                with open(path, "rb") as fh:
                    digest.update(hashlib.sha256(fh.read()).digest())
    return digest.hexdigest()


def where() -> str:
    """This worker's address (for messages), or "this process" outside a worker."""
    try:
        from distributed import get_worker

        return f"worker {get_worker().address}"
    except (ImportError, ValueError):
        return "this process"


def worker_encoder(digest: str | None = None) -> native.Encoder:
    """The process's encoder, loaded once; refused when `digest` (the client's) differs."""
    with _LOCK:
        enc = native.native_encoder()
    if digest is not None and enc.digest != digest:
        raise ModelMismatch(mismatch(where(), native.MODEL_PATH, enc.digest, digest))
    return enc


def mismatch(worker: str, path: str, theirs: str, ours: str) -> str:
    return (f"{worker} has another model file ({path}: sha256 {theirs[:16]}…, the client's "
            f"{ours[:16]}…); give every worker the same raglab version and model file "
            "(`python3 build.py setup` there), or leave that worker out")


def identity(need_model: bool) -> dict:
    """{"code": sources digest, "model": model digest | "model_error": why there is none}."""
    out = {"code": code_digest()}
    if need_model:
        try:
            out["model"] = worker_encoder().digest
            out["model_path"] = native.MODEL_PATH
        except native.EncoderUnavailable as err:
            out["model_error"] = str(err)
    return out


def encode_batch(texts: list[str], digest: str) -> tuple[str, list[bytes], bytes]:
    """(model digest, text keys, the vectors as one run of float32 bytes) for `texts`, in order.

    The keys are computed here from the texts this worker actually encoded, so the client
    can tell that every vector belongs to the text it sent."""
    enc = worker_encoder(digest)
    keys = [vectors.text_key(t) for t in texts]
    return enc.digest, keys, b"".join(enc.encode(t).tobytes() for t in texts)


def worker_cache(digest: str, known: dict[bytes, bytes]) -> vectors.VectorCache:
    """The process's vector cache, in memory only, holding `known` (vectors the client sent).

    Installed as the process's cache, so the semantic retrievers built in this worker read
    it. Its encoder is a copy of the process's: `vectors.encode_all` forks a process pool
    only for the process's own encoder, and a worker process may not fork (it is a daemon);
    anything not sent is encoded here, one text after another, and kept in memory."""
    global _CACHE
    enc = worker_encoder(digest)
    with _LOCK:
        if _CACHE is None or _CACHE.encoder.digest != enc.digest:
            _CACHE = vectors.VectorCache(copy.copy(enc), use_disk=False)
        _CACHE.known.update(known)
        vectors.use(_CACHE)
        return _CACHE
