"""Would the encoder's vectors choose the answer sentence better? A trial on dev, out of fold.

    .venv/bin/python bench/encoder_choice_trial.py    # encodes the external dev halves' candidate units once (minutes)

The sentence model (`answer/sentences.py`) scores each candidate unit by lexical features. This
trial adds the e5-small vectors as learned features: the element-wise product of the question's
vector ("query: " + question) and the unit's ("passage: " + unit text), 384 features weighted by
a fitted projection (so the score is q · diag(w) · s rather than the raw cosine, which rewards
units that restate the question), and the cosine itself. Candidates, labels and features are
`fit_answerer.examples`'s: our dev split retrieved as the sentence model's fit retrieves it, and
the dev halves of the external sets (COVID-QA FAQ, TyDi QA English) with BM25 over fixed chunks.
The TyDi train questions are left out: their ~39k candidate units are not encoded, and would take
most of an hour on two cores.

Each row is fitted five times (a fifth of the target set's questions held out, the other sets
always in training), as a softmax over each question's candidates with L2 0.1 on the lexical
weights' scale and `L2_PROJECTION` on the projection, by full-batch gradient descent in numpy
(a trial, not a committed fit). Printed: how many held-out questions get an evidence unit
chosen, of those that have one among their candidates.

Result when written (our dev split / TyDi dev): lexical features 73 / 140 of 121 / 195, + cosine
75 / 141, + projection and cosine (L2 1, 3, 10, 30) 75 / 139, 78 / 142, 75 / 142, 75 / 139.
At most 5 of 121 and 2 of 195, within noise, and using it would make the page load the vector
of every candidate sentence for every question: not adopted.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

import fit_answerer as fa  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.encoder import PASSAGE, QUERY  # noqa: E402
from raglab.encoder.vectors import native_cache  # noqa: E402
from raglab.text.analyzer import memo, normalize  # noqa: E402

L2_LEXICAL = 1.0
L2_PROJECTIONS = (1.0, 3.0, 10.0, 30.0)
STEPS = 400
FOLDS = 5


def groups(name: str, exs: list[dict], cache) -> list[tuple]:
    """(lexical features, labels, question vector, unit vectors) of each question with an evidence unit."""
    out = []
    for e in exs:
        if not any(e["labels"]):
            continue
        q = np.array(cache.get([QUERY + normalize(e["question"].question)], keep=False), dtype=np.float64)
        texts = [PASSAGE + c.unit.text for c in e["candidates"]]
        s = np.array(cache.get(texts), dtype=np.float64).reshape(len(texts), -1)
        out.append((np.array([c.features for c in e["candidates"]]), np.array(e["labels"], dtype=np.float64), q, s))
    print(f"{name}: {len(out)} questions with an evidence unit", file=sys.stderr)
    return out


def design(g, mode: str) -> np.ndarray:
    x, _, q, s = g
    if mode == "lexical":
        return x
    prod = s * q[None, :]
    cos = prod.sum(axis=1, keepdims=True)
    if mode == "cosine":
        return np.hstack([x, (cos - 0.8) * 10])
    return np.hstack([x, prod * 38.4, (cos - 0.8) * 10])  # the products scaled to about the features' range


def fit(train: list[tuple], mode: str, l2p: float) -> np.ndarray:
    """Softmax over each group's candidates, each group weighing `w`, by gradient descent (Adam)."""
    xs = [design(g, mode) for g, _ in train]
    ys = [g[1] / g[1].sum() for g, _ in train]
    ws = [w for _, w in train]
    d = xs[0].shape[1]
    lam = np.full(d, l2p)
    lam[:len(fa.FEATURES)] = L2_LEXICAL
    w = np.zeros(d)
    m = np.zeros(d)
    v = np.zeros(d)
    for step in range(1, STEPS + 1):
        grad = lam * w
        for x, y, weight in zip(xs, ys, ws):
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            grad -= weight * (x.T @ (y - p))
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= 0.05 * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return w


def held_out(sets: dict[str, list[tuple]], target: str, mode: str, l2p: float = 3.0) -> int:
    right = 0
    for f in range(FOLDS):
        train = []
        for name, gs in sets.items():
            mine = [g for i, g in enumerate(gs) if name != target or i % FOLDS != f]
            share = 120.0 * (1.0 if name == "ours" else 0.5) / len(mine)  # fit_answerer's set weights
            train += [(g, share) for g in mine]
        w = fit(train, mode, l2p)
        for i, g in enumerate(sets[target]):
            if i % FOLDS == f:
                right += int(g[1][int(np.argmax(design(g, mode) @ w))])
    return right


def main() -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="Example: .venv/bin/python bench/encoder_choice_trial.py  (encodes the external dev halves once: minutes)",
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    cache = native_cache()
    sets = {}
    with memo():
        docs = load_corpus(os.path.join(fa.ROOT, "corpus"))
        qs = [q for q in load_goldens(os.path.join(fa.ROOT, "goldens", "questions.jsonl"), docs) if q.split == "dev"]
        sets["ours"] = groups("ours", fa.examples(docs, qs, fa.OURS), cache)
        for name in ("covid-qa-faq", "tydiqa-en"):
            folder = os.path.join(fa.EXTERNAL_DIR, name)
            docs = load_corpus(os.path.join(folder, "corpus"))
            qs = [q for q in load_goldens(os.path.join(folder, "questions.jsonl"), docs) if q.split == "dev"]
            sets[name] = groups(name, fa.examples(docs, qs, fa.EXTERNAL), cache)
    for target in ("ours", "tydiqa-en"):
        n = len(sets[target])
        print(f"{target}: lexical {held_out(sets, target, 'lexical')}/{n}, + cosine {held_out(sets, target, 'cosine')}/{n}")
        for l2p in L2_PROJECTIONS:
            print(f"{target}: + projection, L2 {l2p:g}: {held_out(sets, target, 'projection', l2p)}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
