"""Would a learned query adapter lift the encoder's side of `bilingual`? A trial on dev only.

    .venv/bin/python bench/query_adapter_trial.py                       # five folds by fact
    .venv/bin/python bench/query_adapter_trial.py --folds random --steps 150 --l2 100
    .venv/bin/python bench/query_adapter_trial.py --folds fresh         # fit on q001-q745, score q746 on
    .venv/bin/python bench/query_adapter_trial.py --nested              # steps and L2 chosen inside each fold

The question's e5 vector q is read as u = q + A q (A a 384 x 384 matrix, zero at the start),
fitted on dev questions by Adam on the softmax over every served (recursive) chunk's cosine
with u (temperature `--tau`), the chunks covering the question's evidence as the targets, with
an L2 penalty on A. Each held-out question is then ranked exactly as served (`Pipeline.search`:
centring, the translated reading, the BM25 side, the other language's place), with its adapted
vector in place of the typed and translated readings' vectors. Printed: recall@3 and MRR@10 by
slice, against `--steps 0` (the served ranking).

Folds: `random` (a fifth of the questions each; questions about the same fact land on both sides,
so it also measures how well the adapter remembers), `fact` (grouped by the question's first
evidence passage: no held-out question's fact was asked in training) and `fresh` (fitted on the
questions before `--fresh-from`, the later rounds held out: written about the articles the set
covered least). Nothing in the package changes; the test split is never read.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.retrieval import semantic  # noqa: E402
from raglab.retrieval.bilingual import translated  # noqa: E402
from raglab.retrieval.expansion import expand  # noqa: E402
from raglab.retrieval.semantic import reading  # noqa: E402

DIM = 384
SETTINGS = ((0, 0.0), (50, 10.0), (50, 30.0), (100, 30.0), (150, 100.0))  # (steps, L2); (0, 0) is the served ranking


def fold_key(q):
    """Questions about one fact (their first evidence passage) group together."""
    return min((e.doc[3:], e.quote[:40]) for e in q.evidence) if q.evidence else ("", q.id)


def fit(X, targets, C, steps, l2, tau, lr=0.01):
    """A for u = q + A q, by full-batch Adam on the multi-positive softmax loss."""
    A = np.zeros((DIM, DIM))
    m, v = np.zeros_like(A), np.zeros_like(A)
    for step in range(1, steps + 1):
        U = X + X @ A.T
        norm = np.linalg.norm(U, axis=1, keepdims=True)
        Un = U / norm
        logits = tau * Un @ C.T
        P = np.exp(logits - logits.max(1, keepdims=True))
        P /= P.sum(1, keepdims=True)
        T = np.zeros_like(P)
        for r, pos in enumerate(targets):
            T[r, pos] = P[r, pos] / P[r, pos].sum()
        G = tau * (P - T) @ C  # d loss / d Un
        GU = (G - (G * Un).sum(1, keepdims=True) * Un) / norm
        grad = GU.T @ X / len(X) + l2 * 1e-3 * A
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        A -= lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return A


def folds_of(questions, how: str, fresh_from: int) -> dict[str, int]:
    ordered = sorted(questions, key=lambda q: q.id)
    if how == "fresh":
        return {q.id: 0 if int(q.id[1:]) >= fresh_from else 1 for q in ordered}
    if how == "random":
        return {q.id: i % 5 for i, q in enumerate(ordered)}
    keys = sorted({fold_key(q) for q in ordered})
    group = {k: i % 5 for i, k in enumerate(keys)}
    return {q.id: group[fold_key(q)] for q in ordered}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--folds", choices=("fact", "random", "fresh"), default="fact")
    p.add_argument("--fresh-from", type=int, default=746, help="first question number held out by --folds fresh")
    p.add_argument("--steps", type=int, default=50, help="Adam steps (0: the served ranking)")
    p.add_argument("--l2", type=float, default=30.0)
    p.add_argument("--tau", type=float, default=20.0)
    p.add_argument("--nested", action="store_true", help="choose steps and L2 among SETTINGS inside each fold")
    args = p.parse_args(argv)

    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = [q for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs) if q.split == "dev"]
    pipe = Pipeline(docs, Config())
    sem = pipe.retriever.semantic
    C = np.frombuffer(sem.matrix.tobytes(), dtype=np.float32).reshape(-1, DIM).astype(np.float64)
    cover = coverage_index(pipe.chunks, questions, 0.5)

    def vector(text):
        return np.frombuffer(sem.cache.get([reading(text)], keep=False).tobytes(), dtype=np.float32).astype(np.float64)

    answerable = [q for q in questions if cover.get(q.id)]
    fold = folds_of(questions, args.folds, args.fresh_from)
    held = [0] if args.folds == "fresh" else list(range(5))
    adapted: dict[str, np.ndarray] = {}
    served = semantic.SemanticRetriever.text_scores

    def text_scores(self, text):
        A = adapted.get(reading(text))
        if A is None:
            return served(self, text)
        q = vector(text)
        u = q + A @ q
        return {i: float(np.float32(s)) for i, s in enumerate(C @ (u / np.linalg.norm(u)))}

    semantic.SemanticRetriever.text_scores = text_scores

    def adapt(A, qs):
        for q in qs:
            for text in (q.question, translated(expand(q.question))):
                if text is not None:
                    adapted[reading(text)] = A

    def fitted(train, steps, l2):
        return fit(np.stack([vector(q.question) for q in train]), [sorted(cover[q.id]) for q in train], C,
                   steps, l2, args.tau) if steps else np.zeros((DIM, DIM))

    def ranks(qs):
        """(recall@3, reciprocal rank) of each question, ranked as served with the vectors adapted now."""
        out = []
        for q in qs:
            hits = pipe.search(q.question, 10)
            out.append((1.0 if any(h.index in cover[q.id] for h in hits[:3]) else 0.0,
                        next((1.0 / r for r, h in enumerate(hits, 1) if h.index in cover[q.id]), 0.0)))
        return out

    chosen = []
    for f in held if args.steps or args.nested else ():
        train = [q for q in answerable if fold[q.id] != f]
        steps, l2 = args.steps, args.l2
        if args.nested:  # the setting chosen by inner folds of the training questions alone
            keys = sorted({fold_key(q) for q in train})
            inner = {q.id: keys.index(fold_key(q)) % 4 for q in train}
            best = None
            for setting in SETTINGS:
                got = []
                for g in range(4):
                    adapt(fitted([q for q in train if inner[q.id] != g], *setting), [q for q in train if inner[q.id] == g])
                    got += ranks([q for q in train if inner[q.id] == g])
                adapted.clear()
                score = sum(b for _, b in got) / len(got)
                if best is None or score > best[0]:
                    best = (score, setting)
            steps, l2 = best[1]
            chosen.append(best[1])
        adapt(fitted(train, steps, l2), [q for q in questions if fold[q.id] == f])
        print(f"fold {f} fitted on {len(train)} questions (steps {steps}, l2 {l2})", file=sys.stderr, flush=True)

    by: dict[str, list[tuple[float, float]]] = {}
    mine = [q for q in answerable if fold[q.id] in held]
    for q, got in zip(mine, ranks(mine)):
        for key in ("all", q.kind, f"{q.lang} {q.kind}"):
            by.setdefault(key, []).append(got)
    if chosen:
        print("settings chosen per fold:", chosen)
    print(f"folds {args.folds}, " + ("steps and L2 chosen per fold" if args.nested else f"steps {args.steps}, l2 {args.l2}")
          + f", tau {args.tau}")
    for key in sorted(by, key=lambda k: (k != "all", k)):
        got = by[key]
        print(f"{key:20s} n={len(got):3d}  recall@3 {sum(a for a, _ in got) / len(got):.3f}  "
              f"MRR@10 {sum(b for _, b in got) / len(got):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
