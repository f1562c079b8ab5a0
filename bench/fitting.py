"""Model fitting shared by the fitting scripts: logistic regression and a conditional logit
(softmax over groups), by Newton's method in pure Python, and writing a fitted table.

Every sum runs in one fixed order over Python floats (IEEE doubles on every machine), and the
results are rounded to 12 significant digits, so a re-fit gives the same weights to the last
digit anywhere.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np

from raglab.corpus.articles import bundled_corpus_dir, load_corpus
from raglab.corpus.chunking import chunk_corpus
from raglab.corpus.goldens import load_goldens
from raglab.evaluation.engine import coverage_index
from raglab.evaluation.metrics import resamples
from raglab.evaluation.stats import paired
from raglab.retrieval.bilingual import BilingualRetriever
from raglab.retrieval.expansion import expand
from raglab.retrieval.ranking import Query, rounded
from raglab.text.banglish import Reader

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "py", "raglab", "data")
L2 = 1.0  # on every weight but a bias
ITERATIONS = 30


def served_queries(docs, questions) -> list[Query]:
    """Each question's query as the served pipeline builds it (`Pipeline.query`, expansion on):
    a Banglish question read in Bangla script first, then expanded. A fit on the question as
    typed would choose values for a reading the pipeline never searches."""
    reader = Reader.of(d.text for d in docs)
    return [expand(reader.read(q.question)) for q in questions]


def dev_questions(root: str, docs, goldens: str | None = None) -> list:
    """The answerable dev questions of our golden set, or of `goldens` (a probe file written
    later, e.g. bench/fresh_probe_trouble.jsonl), read against `docs`."""
    return [q for q in load_goldens(goldens or os.path.join(root, "goldens", "questions.jsonl"), docs)
            if q.split == "dev" and q.answerable]


def dev_ranking(root: str, chunker: str, goldens: str | None = None):
    """What the dev-ranking scripts start from: the bundled corpus, the answerable dev questions
    (of our golden set, or of `goldens`, e.g. a probe file), the chunks of `chunker`, which cover
    each question's evidence, and the served `bilingual` retriever over them."""
    docs = load_corpus(bundled_corpus_dir())
    questions = dev_questions(root, docs, goldens)
    chunks = chunk_corpus(docs, chunker)
    return docs, questions, chunks, coverage_index(chunks, questions, 0.5), BilingualRetriever(chunks, chunker=chunker)


def dot(weights, values) -> float:
    return math.fsum(w * v for w, v in zip(weights, values))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, Gaussian elimination with partial pivoting (a is small and positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: (abs(m[r][col]), -r))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - math.fsum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def fit_logistic(rows: list[list[float]], labels: list[int], l2: float = L2,
                 weights: list[float] | None = None) -> list[float]:
    """Weights minimising the log loss (each row's term times its weight in `weights`, 1 when
    None) plus l2/2 * |w without bias|^2 (column 0 is the bias)."""
    n = len(rows[0])
    s = weights or [1.0] * len(rows)  # x * 1.0 is exact: unweighted fits are unchanged to the bit
    w = [0.0] * n
    for _ in range(50):
        p = [_sigmoid(dot(w, x)) for x in rows]
        grad = [math.fsum(x[j] * (pi - y) * si for x, pi, y, si in zip(rows, p, labels, s)) + (l2 * w[j] if j else 0.0)
                for j in range(n)]
        hess = [[math.fsum(x[i] * x[j] * pi * (1 - pi) * si for x, pi, si in zip(rows, p, s)) + (l2 if i == j and i else 0.0)
                 for j in range(n)] for i in range(n)]
        hess[0][0] += 1e-9  # a bias column that separates perfectly must not make it singular
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-12:
            break
    return [rounded(x) for x in w]


def fit_softmax(groups: list[tuple[list, list[int], float]], l2: float = L2, iterations: int = ITERATIONS) -> list[float]:
    """Weights of a conditional logit: per group (candidate rows, 0/1 labels, weight), minimise
    weight * cross-entropy(target, softmax(rows . w)) + l2/2 |w|^2, the target spread evenly
    over the group's positives. Newton's method.

    Every sum runs left to right in one fixed order (numpy's cumulative sum is sequential, unlike
    its pairwise `sum`; a product of two doubles is exact-rounded everywhere; exp is Python's), so
    a re-fit gives the same weights to the last digit on any machine. Each group is cut to the
    columns some of its candidates have: a term that is zero leaves a sum as it was."""
    n = len(groups[0][0][0])
    cut = []
    for rows, ys, weight in groups:
        x = np.array(rows, dtype=np.float64)
        cols = np.flatnonzero((x != 0.0).any(axis=0))
        x = x[:, cols]
        pos = sum(ys)
        target = _running(np.where(np.array(ys, dtype=bool)[:, None], x / max(pos, 1), 0.0), axis=0)
        cut.append((x, cols, np.ix_(cols, cols), target, weight))
    w = np.zeros(n)
    for _ in range(iterations):
        grad = l2 * w
        hess = np.diag(np.full(n, float(l2)))
        for x, cols, block, target, weight in cut:
            z = _running(x * w[cols], axis=1).tolist()
            top = max(z)
            e = [math.exp(v - top) for v in z]
            total = 0.0
            for v in e:
                total += v
            pv = np.array([v / total for v in e])[:, None] * x
            mean_p = _running(pv, axis=0)
            second = _running(pv[:, :, None] * x[:, None, :], axis=0)
            grad[cols] += weight * (mean_p - target)
            hess[block] += weight * (second - mean_p[:, None] * mean_p[None, :])
        step = _solve(hess.tolist(), grad.tolist())
        w = np.array([wj - sj for wj, sj in zip(w.tolist(), step)])
        if max(abs(s) for s in step) < 1e-10:
            break
    return [rounded(x) for x in w.tolist()]


def _running(a: np.ndarray, axis: int) -> np.ndarray:
    """The sum along `axis`, added one term after another from the first (cumsum's last)."""
    return np.take(np.cumsum(a, axis=axis), -1, axis=axis)


def recall3(rank: int | None) -> float:
    """1 when the evidence is in the top three (`rank` is 1-based, None when not found)."""
    return 1.0 if rank is not None and rank <= 3 else 0.0


def reciprocal(rank: int | None) -> float:
    return 1.0 / rank if rank else 0.0


def paired_cells(before: list, after: list, members: list[int], measures) -> list[str]:
    """Per measure of a rank, the slice's mean before → after and the paired bootstrap's 95%
    interval of the difference (`evaluation.stats.paired`), as table cells."""
    draws = resamples(len(members))
    cells = []
    for measure in measures:
        b = [measure(before[n]) for n in members]
        a = [measure(after[n]) for n in members]
        p = paired(a, b, draws)
        cells += [f"{sum(b) / len(b):.3f} → {sum(a) / len(a):.3f}",
                  "n/a" if p["low"] is None else f"[{p['low']:+.3f}, {p['high']:+.3f}]"]
    return cells


def print_slice_tables(questions: list, ranks: dict, candidates, title: str = "") -> None:
    """For each candidate of `ranks` (a key: per question, the evidence's 1-based rank or None), a
    Markdown table of every slice (all, each language, each language and kind) against the served
    ranking (`ranks[("served", 0)]`): MRR@10 and recall@3 before → after with their paired 95%
    intervals, and how many questions move up and down."""
    groups: dict[str, list[int]] = {"all": list(range(len(questions)))}
    for n, q in enumerate(questions):
        groups.setdefault(q.lang, []).append(n)
        groups.setdefault(f"{q.lang} {q.kind}", []).append(n)
    base = ranks[("served", 0)]
    for cand in candidates:
        print(f"\n## {title}{cand[0]}={cand[1]}\n\n| slice | n | MRR@10 before → after | paired 95% | recall@3 before → after | paired 95% | up / down |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, members in sorted(groups.items()):
            cells = paired_cells(base, ranks[cand], members, (reciprocal, recall3))
            up = sum(1 for n in members if reciprocal(ranks[cand][n]) > reciprocal(base[n]))
            down = sum(1 for n in members if reciprocal(ranks[cand][n]) < reciprocal(base[n]))
            print(f"| {name} | {len(members)} | " + " | ".join(cells) + f" | {up} / {down} |")


def write_table(name: str, record: dict) -> str:
    """Write a fitted table to py/raglab/data/`name` (sorted keys, as committed); its path."""
    path = os.path.join(DATA, name)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record, fh, ensure_ascii=False, indent=2, sort_keys=True)
        fh.write("\n")
    return path


def pav(xs: list[float], ys: list[int]) -> list[tuple[float, float]]:
    """Isotonic (non-decreasing) fit of ys on xs by pool-adjacent-violators: (upper x, value) steps."""
    pts = sorted(zip(xs, ys))
    blocks: list[list[float]] = []  # [sum y, n, last x]
    for x, y in pts:
        blocks.append([float(y), 1.0, x])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            s, n, last = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
            blocks[-1][2] = last
    return [(b[2], (b[0] + 1.0) / (b[1] + 2.0)) for b in blocks]  # a Laplace prior: no block is sure


def step_value(steps, x: float) -> float:
    """The value of the `pav` step `x` falls in (the last step's beyond them)."""
    for upper, v in steps:
        if x <= upper:
            return v
    return steps[-1][1]
