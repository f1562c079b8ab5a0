"""Timing and memory measurement, kept apart from what is measured.

Time: `time.perf_counter` around each call; a run over a query list is repeated for a
few rounds, the libraries taking turns within each round (so a slow spell on a shared
machine hits all of them alike), and the fastest round counts.

Memory: `tracemalloc`, which sees every allocation of the Python heap and of numpy
(numpy reports its buffers to it). The token lists exist before tracing starts, so
they are not counted. "Index" is what stays allocated after the build; "peak" is the
highest point during the build, both above the starting level.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from dataclasses import dataclass
from typing import Any, Callable

from quantile import percentile


@dataclass
class QueryTiming:
    total: float  # seconds for the whole query list, fastest round
    latencies: list[float]  # seconds per query in that round
    answers: list  # what each call returned (kept for the correctness checks)

    @property
    def qps(self) -> float:
        return len(self.latencies) / self.total if self.total else float("inf")

    @property
    def mean_ms(self) -> float:
        return 1000 * self.total / len(self.latencies)

    def percentile_ms(self, p: float) -> float:
        return 1000 * percentile(self.latencies, p)

    def mean_ms_of(self, positions: range) -> float:
        return 1000 * statistics.fmean(self.latencies[i] for i in positions)


def time_build(build: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    start = time.perf_counter()
    index = build()
    return time.perf_counter() - start, index


def time_queries(run: Callable[[Any], Any], queries: list) -> QueryTiming:
    latencies, answers = [], []
    clock = time.perf_counter
    for q in queries:
        start = clock()
        answer = run(q)
        latencies.append(clock() - start)
        answers.append(answer)
    total = 0.0
    for x in latencies:
        total += x
    return QueryTiming(total, latencies, answers)


def best(timings: list[QueryTiming]) -> QueryTiming:
    return min(timings, key=lambda t: t.total)


@dataclass
class Memory:
    index_mb: float  # still allocated after the build
    peak_mb: float  # highest point during the build
    query_peak_mb: float  # highest extra point while answering the query sample


def measure_memory(build: Callable[[], Any], run: Callable[[Any, Any], Any], queries: list) -> Memory:
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        index = build()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        for q in queries:
            run(index, q)
        after, query_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del index
    gc.collect()
    mb = 1024 * 1024
    return Memory((current - base) / mb, (peak - base) / mb, (query_peak - current) / mb)
