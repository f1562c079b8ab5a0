"""The one percentile of the benchmarks (copied into the browser bench page too, so it
stays standard library and free of raglab imports)."""


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (p in 0..100) by the nearest-rank rule on the sorted values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]
