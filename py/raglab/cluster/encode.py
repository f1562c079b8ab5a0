"""Encoding on a Dask cluster: batches of texts out, vectors back, the client's cache filled.

`encode_texts` cuts the texts into batches, keeps a few batches per worker thread in
flight (so a crash of the client loses at most those), and hands every finished batch to
the caller, in the order they finish, after checking it: the model digest the worker
used, one key per text equal to the client's own key of the text it sent, and whole,
finite, unit-length float32 vectors. `fill` is what `raglab encode` does with it: only
the texts missing from the vector cache are sent, and each finished batch is appended to
the cache at once by this process alone (workers never write a cache file), so a rerun
resumes where an interrupted one stopped.

Each text's arithmetic runs in one fixed order in the kernel whichever worker runs it,
so the vectors are the bits the in-process encoder gives (tests/test_cluster.py).
"""

from __future__ import annotations

import math
import struct
import sys
import time
from typing import Callable

from raglab.cluster.connect import ClusterError, check_workers, collect, threads
from raglab.cluster.worker import encode_batch
from raglab.encoder.vectors import VectorCache, text_key

MAX_BATCH = 16  # texts per task: ~1-3 s of work for help-centre chunks, little to lose to a dead worker
IN_FLIGHT = 2  # batches per worker thread queued at once


def batch_size(n: int, workers: int) -> int:
    """Texts per task: at most MAX_BATCH, and small enough that every thread gets several.

    >>> batch_size(2000, 2), batch_size(40, 2), batch_size(3, 4)
    (16, 5, 1)
    """
    return max(1, min(MAX_BATCH, math.ceil(n / (4 * workers))))


def check_batch(texts: list[str], reply, digest: str, dim: int) -> list[bytes]:
    """The vectors of one finished batch, once it is shown to be whole and for these texts."""
    got_digest, keys, payload = reply
    if got_digest != digest:
        raise ClusterError(f"a worker encoded with model {got_digest[:16]}…, not the client's {digest[:16]}…; "
                           "give every worker the same model file")
    width = 4 * dim
    if keys != [text_key(t) for t in texts] or len(payload) != width * len(texts):
        raise ClusterError(f"a worker sent back {len(payload) // width} vectors for {len(texts)} texts, or for "
                           "other texts; check that every worker runs the client's raglab version")
    out = []
    for i in range(len(texts)):
        vector = payload[i * width:(i + 1) * width]
        values = struct.unpack(f"<{dim}f", vector)
        norm = math.fsum(v * v for v in values)
        if not all(math.isfinite(v) for v in values) or abs(norm - 1.0) > 1e-3:
            raise ClusterError(f"a worker sent back a vector that is not a unit vector (text {i + 1} of a batch); "
                               "check that worker's kernel build (`python3 build.py setup` there)")
        out.append(vector)
    return out


def encode_texts(client, texts: list[str], digest: str, dim: int,
                 on_batch: Callable[[list[str], list[bytes]], None], progress: Callable[[int], None] | None = None,
                 size: int | None = None) -> None:
    """Encode `texts` on the cluster; `on_batch(texts, vectors)` hears each finished batch.

    `progress(done)` hears the number of texts finished so far."""
    if not texts:
        return
    size = size or batch_size(len(texts), threads(client))
    batches = [texts[i:i + size] for i in range(0, len(texts), size)]
    done = [0]

    def finished(index: int, reply) -> None:
        batch = batches[index]
        on_batch(batch, check_batch(batch, reply, digest, dim))
        done[0] += len(batch)
        if progress:
            progress(done[0])

    # A few batches per thread in flight: what a dying client loses is what is in flight.
    tasks = ((i, lambda b=b: client.submit(encode_batch, b, digest, pure=False)) for i, b in enumerate(batches))
    collect(client, tasks, finished, window=lambda: max(2, IN_FLIGHT * threads(client)))


class Reporter:
    """`raglab encode`'s progress on stderr as batches finish: the first, then at most one a
    second, and the last."""

    def __init__(self, total: int, workers: int, prefix: str = "raglab encode: ", stream=None, every: float = 1.0):
        self.total, self.workers, self.prefix = total, workers, prefix
        self.stream = stream or sys.stderr
        self.every = every
        self.start = time.monotonic()
        self.last: float | None = None

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done < self.total and self.last is not None and now - self.last < self.every:
            return
        self.last = now
        noun = "worker" if self.workers == 1 else "workers"
        self.stream.write(f"{self.prefix}encoded {done:,}/{self.total:,} texts on {self.workers} {noun}, "
                          f"{now - self.start:.0f} s\n")
        self.stream.flush()


def fill(client, cache: VectorCache, texts: list[str], keep: bool = True, prefix: str = "raglab encode: ") -> int:
    """Encode on the cluster every text of `texts` that `cache` lacks; returns how many.

    With `keep` each finished batch goes to the disk cache (passages); without, it is
    only remembered in this process (questions: they never grow the cache file)."""
    missing: dict[bytes, str] = {}
    for t in texts:
        k = text_key(t)
        if k not in cache.known and k not in missing:
            missing[k] = t
    if not missing:
        return 0
    enc = cache.encoder
    workers = check_workers(client, enc.digest)
    todo = list(missing.values())

    def keep_batch(batch: list[str], got: list[bytes]) -> None:
        cache.add({text_key(t): v for t, v in zip(batch, got)}, keep=keep)

    encode_texts(client, todo, enc.digest, enc.dim, keep_batch, Reporter(len(todo), workers, prefix))
    return len(todo)


def vectors_of(cache: VectorCache, texts: list[str]) -> dict[bytes, bytes]:
    """{key: vector} of texts the cache holds (what a worker's in-memory cache is sent)."""
    out = {}
    for t in texts:
        k = text_key(t)
        if k in cache.known:
            out[k] = cache.known[k]
    return out

