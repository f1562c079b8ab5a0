"""Is the golden set big enough? Minimum detectable effect, paired p-values and Holm.

All three work on paired per-question values (configuration vs baseline, same questions):

- `mde(diffs)`: the smallest true mean difference that a two-sided paired test at
  alpha = 0.05 detects with 80% power on this many questions, by the normal approximation
  MDE = (z_0.975 + z_0.80) * sd(d) / sqrt(n) = 2.8016 * sd(d) / sqrt(n), where sd(d) is the
  sample standard deviation (n - 1) of the observed per-question differences.
- `sign_flip_p(diffs)`: the two-sided p-value of the paired permutation test. Under "no
  difference" each question's difference is as likely to have either sign, so the test
  flips signs at random (2,000 patterns, fixed seed) and counts how often the mean is at
  least as far from 0 as the observed one: p = (1 + count) / (1 + 2,000).
- `holm(ps)`: Holm-Bonferroni step-down over a family of p-values: sort ascending, the
  i-th smallest (1-based) is adjusted to max over j <= i of min(1, (m - j + 1) p_(j)); a
  difference survives at alpha when its adjusted p <= alpha. It controls the chance of any
  false "better" or "worse" across the whole family, not per comparison.

Worked example (tested): differences 1, 1, 1, 0, -1 have mean 0.4, sd 0.894 and
MDE = 2.8016 * 0.894 / sqrt(5) = 1.12: with five questions, only a difference of more than
one whole point per question could be told from noise. Holm on p = 0.01, 0.04, 0.03 gives
0.03, 0.06, 0.06: only the first survives at 0.05.

Pure standard library, deterministic: `math.fsum`, integer draws from `random.Random(seed)`.
"""

from __future__ import annotations

import math
import random

Z_ALPHA = 1.959963984540054  # two-sided alpha = 0.05: the normal's 0.975 quantile
Z_POWER = 0.8416212335729143  # power 0.80: the normal's 0.80 quantile
ALPHA = 0.05
PERMUTATIONS = 2000


def mde(diffs: list[float]) -> float | None:
    """Minimum detectable effect of the mean paired difference (see the module doc).

    None with fewer than two questions, or when every difference is the same (a zero
    spread says nothing about the spread of a real difference).
    """
    n = len(diffs)
    if n < 2:
        return None
    m = math.fsum(diffs) / n
    var = math.fsum((d - m) * (d - m) for d in diffs) / (n - 1)
    if var <= 0.0:
        return None
    return (Z_ALPHA + Z_POWER) * math.sqrt(var) / math.sqrt(n)


def sign_patterns(n: int, count: int = PERMUTATIONS, seed: int = 20240607) -> list[int]:
    """`count` random sign patterns for n questions, each an n-bit integer (bit i set = flip).

    Drawn once per report and shared by every comparison, like the bootstrap resamples.
    """
    rng = random.Random(seed)
    return [rng.getrandbits(n) if n else 0 for _ in range(count)]


def sign_flip_p(diffs: list[float], patterns: list[int]) -> float | None:
    """Two-sided p-value of the paired sign-flip permutation test for mean(diffs) = 0.

    Only non-zero differences matter (flipping a zero changes nothing); bit j of a pattern
    flips the j-th of them. Flipping a set F turns the total S into S - 2 * sum(F), and the
    flipped sums come from tables of subset sums per byte of the pattern, so a pattern
    costs a few look-ups instead of a pass over every question.
    """
    if not diffs or not patterns:
        return None
    nonzero = [d for d in diffs if d != 0.0]
    if not nonzero:
        return 1.0
    observed = math.fsum(nonzero)
    tables = []
    for g in range(0, len(nonzero), 8):
        part = nonzero[g:g + 8]
        table = [0.0] * (1 << len(part))
        for mask in range(1, len(table)):
            low = mask & -mask
            table[mask] = table[mask ^ low] + part[low.bit_length() - 1]
        tables.append(table)
    # Ties (a flipped total equal to the observed one) must count: compare with a margin far
    # below any difference of per-question scores and far above rounding.
    bar = abs(observed) - 1e-9
    extreme = 0
    for bits in patterns:
        flipped = 0.0
        for table in tables:
            flipped += table[bits & (len(table) - 1)]
            bits >>= 8
        if abs(observed - 2.0 * flipped) >= bar:
            extreme += 1
    return (1 + extreme) / (1 + len(patterns))


def holm(ps: list[float | None]) -> list[float | None]:
    """Holm-adjusted p-values in the input order (None stays None and is not counted)."""
    present = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(present)
    out: list[float | None] = [None] * len(ps)
    running = 0.0
    for rank, (p, i) in enumerate(present):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def paired_tests(diffs: dict[tuple, list[float]], patterns: list[int], alpha: float = ALPHA) -> dict[tuple, dict]:
    """For each comparison (any key) of per-question differences: the sign-flip p-value, the
    minimum detectable effect, and the Holm-adjusted p-value over the whole family, with
    `survives` = the adjusted p is at most alpha."""
    keys = list(diffs)
    ps = [sign_flip_p(diffs[key], patterns) for key in keys]
    adjusted = holm(ps)
    return {key: {"p": p, "mde": mde(diffs[key]), "p_holm": a, "survives": a is not None and a <= alpha}
            for key, p, a in zip(keys, ps, adjusted)}
