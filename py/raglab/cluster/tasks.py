"""`raglab compare` and `raglab ask --questions` with their work on a Dask cluster.

Both first make sure every vector the job reads exists: the chunks of each chunker that
a semantic retriever indexes, and the questions, are encoded on the workers through the
client's cache (`encode.fill`; chunk vectors are saved, question vectors only
remembered), then sent to the workers with the job, so a worker never encodes what
another has encoded and never writes a cache file.

- compare: one task per (chunker, retriever) group of configurations, which builds that
  index on a worker and evaluates every configuration over it
  (`evaluation.engine.evaluate_configs`); the client merges the results in the serial
  order, so the report is byte for byte the serial one.
- ask: batches of consecutive questions; a worker builds the pipeline once per job and
  answers its batches; the client prints the JSON lines in the questions' order.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from typing import Callable

from raglab.cluster.connect import check_workers, collect, scatter, threads
from raglab.cluster.encode import fill, vectors_of
from raglab.cluster.worker import worker_cache
from raglab.corpus.chunking import chunk_corpus, index_text
from raglab.encoder.native import PASSAGE, QUERY
from raglab.encoder.vectors import native_cache
from raglab.evaluation.engine import evaluate_configs
from raglab.pipeline import Config, Pipeline
from raglab.retrieval.registry import ENCODER_RETRIEVERS
from raglab.schema import ask_json, dumps, empty_question
from raglab.text.analyzer import normalize

MAX_QUESTIONS = 64  # questions per `ask` task


def ship_vectors(client, docs, chunkers: list[str], questions: list[str], prefix: str):
    """(model digest, future of {key: vector}) for what the semantic retrievers over these
    chunkers read for these questions, encoding on the cluster what the cache lacks;
    (None, None) when no chunker needs them."""
    if not chunkers:
        return None, None
    cache = native_cache()
    passages = list(dict.fromkeys(PASSAGE + index_text(c) for name in chunkers for c in chunk_corpus(docs, name)))
    asked = list(dict.fromkeys(QUERY + normalize(q) for q in questions if q.strip()))
    fill(client, cache, passages, keep=True, prefix=prefix)
    fill(client, cache, asked, keep=False, prefix=prefix)
    return cache.encoder.digest, scatter(client, vectors_of(cache, passages + asked))


def groups(configs: list[Config]) -> list[list[Config]]:
    """Consecutive configurations that share a chunker and a retriever (one index each)."""
    out: list[list[Config]] = []
    for c in configs:
        if out and (out[-1][0].chunker, out[-1][0].retriever) == (c.chunker, c.retriever):
            out[-1].append(c)
        else:
            out.append([c])
    return out


def evaluate_group(docs, asked, configs, k: int, min_coverage: float, digest, known) -> dict:
    """On a worker: one group's index and every configuration over it."""
    if known is not None:
        worker_cache(digest, known)
    return evaluate_configs(docs, asked, configs, k, min_coverage)


def evaluator(client) -> Callable:
    """An `evaluator` for `evaluation.engine.run` that runs the groups on the cluster."""

    def evaluate(docs, asked, configs, k, min_coverage, progress=None) -> dict:
        semantic = list(dict.fromkeys(c.chunker for c in configs if c.retriever in ENCODER_RETRIEVERS))
        digest, known = ship_vectors(client, docs, semantic, [q.question for q in asked], "raglab compare: ")
        check_workers(client, digest)
        docs_f, asked_f = scatter(client, docs), scatter(client, asked)
        parts = groups(configs)
        got: dict[int, dict] = {}
        finished = [0]

        def arrived(index: int, part: dict) -> None:
            got[index] = part
            finished[0] += len(parts[index])
            if progress:
                progress(finished[0], len(configs), f"{parts[index][0].chunker}+{parts[index][0].retriever} on the cluster")

        tasks = ((i, lambda g=g: client.submit(evaluate_group, docs_f, asked_f, g, k, min_coverage,
                                               digest if g[0].retriever in ENCODER_RETRIEVERS else None,
                                               known if g[0].retriever in ENCODER_RETRIEVERS else None, pure=False))
                 for i, g in enumerate(parts))
        collect(client, tasks, arrived)
        merged: dict = {"results": {}, "label_ids": {}}
        for i in range(len(parts)):  # serial order: the report's dicts keep their key order
            for name in merged:
                for key, value in got[i][name].items():
                    merged[name].setdefault(key, value)
        return merged

    return evaluate


_PIPES: dict = {}
_PIPES_LOCK = threading.Lock()


def answer_batch(job: str, docs, config: Config, questions: list[str], first: int, digest, known) -> list[str]:
    """On a worker: the JSON lines of questions `first`, `first` + 1, … (numbered from 1),
    from a pipeline built once per job and worker."""
    if known is not None:
        worker_cache(digest, known)
    with _PIPES_LOCK:
        pipe = _PIPES.get(job)
        if pipe is None:
            _PIPES.clear()  # one job's index in memory at a time
            pipe = _PIPES[job] = Pipeline(docs, config)
    return [dumps(ask_json(pipe.ask(q)) if q.strip() else empty_question(n))
            for n, q in enumerate(questions, first)]


def ask_lines(client, docs, config: Config, questions: list[str], emit: Callable[[str], None]) -> None:
    """`emit` each JSON line of `raglab ask --questions`, in the questions' order: answered on
    the cluster, a line is emitted as soon as every line before it has arrived."""
    semantic = [config.chunker] if config.retriever in ENCODER_RETRIEVERS else []
    digest, known = ship_vectors(client, docs, semantic, questions, "raglab ask: ")
    check_workers(client, digest)
    docs_f = scatter(client, docs)
    size = max(1, min(MAX_QUESTIONS, math.ceil(len(questions) / (4 * threads(client)))))
    tasks = ((s, lambda s=s: client.submit(answer_batch, docs_f.key, docs_f, config, questions[s:s + size], s + 1,
                                           digest, known, pure=False)) for s in range(0, len(questions), size))
    ready: dict[int, list[str]] = {}
    at = [0]
    shown = [time.monotonic()]

    def arrived(start: int, lines: list[str]) -> None:
        ready[start] = lines
        while at[0] in ready:
            for line in ready.pop(at[0]):
                emit(line)
            at[0] += size
        if time.monotonic() - shown[0] >= 1 or at[0] >= len(questions):
            shown[0] = time.monotonic()
            print(f"raglab ask: {min(at[0], len(questions)):,}/{len(questions):,} questions answered and printed",
                  file=sys.stderr, flush=True)

    collect(client, tasks, arrived)
