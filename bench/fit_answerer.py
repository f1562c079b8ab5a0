"""Fit the answerer's sentence-choice model and its confidence on the dev split, and print them.

    .venv/bin/python bench/fit_answerer.py            # fit and print the weights
    .venv/bin/python bench/fit_answerer.py --write    # ... and write py/raglab/data/sentence_model.json
    .venv/bin/python bench/fit_answerer.py --check    # exit 1 unless the committed weights are what a re-fit gives

Training data: every dev question of `goldens/questions.jsonl`, retrieved with `FIT_CONFIG`
(the lexical served default the model was fitted with; pinned, so that choosing another
served default does not silently change what a re-fit gives); the candidates are the quotable sentences of its top-k chunks
(`answer.score_candidates`). A candidate is positive when it overlaps an evidence passage of
the question by at least half of the shorter of the two; unanswerable questions contribute
negatives only. Model: L2-regularised logistic regression fitted by Newton's method, in
pure Python with `math.fsum`, so a re-fit gives the same weights to the last digit.

The confidence is a second logistic regression (Platt scaling) over each dev question's
chosen sentence (`sentences.confidence_features`: its coverage and the share of the question
missing from the retrieved chunks), labelled 1 when the chosen sentence is an evidence
sentence (never, for an unanswerable question). The test split is never read.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from raglab.analyzer import analyze
from raglab.answer import missing_share, question_info, score_candidates
from raglab.corpus import load_corpus
from raglab.goldens import load_goldens
from raglab.pipeline import Config, Pipeline
from raglab.ranking import rounded
from raglab.sentences import CONFIDENCE_FEATURES, FEATURES, confidence_features, dot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "py", "raglab", "data", "sentence_model.json")
L2 = 1.0  # on every weight but the bias
ITERATIONS = 50

# The configuration whose top-k chunks supplied the training sentences.
FIT_CONFIG = Config(chunker="recursive", retriever="hybrid-rerank", k=5, expand=True, threshold=0.45)


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


def fit_logistic(rows: list[list[float]], labels: list[int], l2: float = L2) -> list[float]:
    """Weights minimising the log loss plus l2/2 * |w without bias|^2 (column 0 is the bias)."""
    n = len(rows[0])
    w = [0.0] * n
    for _ in range(ITERATIONS):
        p = [_sigmoid(dot(w, x)) for x in rows]
        grad = [math.fsum(x[j] * (pi - y) for x, pi, y in zip(rows, p, labels)) + (l2 * w[j] if j else 0.0)
                for j in range(n)]
        hess = [[math.fsum(x[i] * x[j] * pi * (1 - pi) for x, pi in zip(rows, p)) + (l2 if i == j and i else 0.0)
                 for j in range(n)] for i in range(n)]
        hess[0][0] += 1e-9  # a bias column that separates perfectly must not make it singular
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-12:
            break
    return [rounded(x) for x in w]


def choice(weights, cands) -> int:
    return min(range(len(cands)), key=lambda i: (-rounded(dot(weights, cands[i].features)), cands[i].rank,
                                                 cands[i].quote.start))


def choice_accuracy(weights, data) -> tuple[int, int]:
    """(questions whose chosen sentence is evidence, answerable questions with candidates)."""
    right = n = 0
    for q, cands, ys, _ in data:
        if q.answerable and cands:
            n += 1
            right += ys[choice(weights, cands)]
    return right, n


def positive(quote, evidence) -> bool:
    for e in evidence:
        if e.doc == quote.doc:
            shared = min(quote.end, e.end) - max(quote.start, e.start)
            if shared > 0 and 2 * shared >= min(quote.end - quote.start, e.end - e.start):
                return True
    return False


def training_data(root: str = ROOT):
    """Per dev question: (question, candidates, labels, share of its idf mass missing from the chunks)."""
    docs = load_corpus(os.path.join(root, "corpus"))
    questions = load_goldens(os.path.join(root, "goldens", "questions.jsonl"), docs)
    pipe = Pipeline(docs, FIT_CONFIG)
    out = []
    for q in questions:
        if q.split != "dev":
            continue
        hits = pipe.search(q.question)
        chunks = [pipe.chunks[h.index] for h in hits]
        scores = [h.score for h in hits]
        info = question_info(q.question, analyze(q.question), pipe.retriever.idf, pipe.aliases(q.question))
        cands = score_candidates(info, chunks, scores)
        out.append((q, cands, [1 if positive(c.quote, q.evidence) else 0 for c in cands],
                    missing_share(info, chunks, cands)))
    return out


def fit(root: str = ROOT) -> dict:
    data = training_data(root)
    rows, labels = [], []
    for _, cands, ys, _ in data:
        for c, y in zip(cands, ys):
            rows.append(c.features)
            labels.append(y)
    weights = fit_logistic(rows, labels)
    conf_rows, conf_labels, right, reachable, answerable = [], [], 0, 0, 0
    for q, cands, ys, missing in data:
        if not cands:
            continue
        best = min(range(len(cands)), key=lambda i: (-rounded(dot(weights, cands[i].features)), cands[i].rank,
                                                     cands[i].quote.start))
        conf_rows.append(confidence_features(cands[best].features[FEATURES.index("coverage")], missing))
        conf_labels.append(ys[best])
        if q.answerable:
            answerable += 1
            reachable += 1 if any(ys) else 0
            right += ys[best]
    confidence = fit_logistic(conf_rows, conf_labels, l2=0.01)
    return {"about": "Sentence-choice model of the answerer, fitted on the dev split by bench/fit_answerer.py; "
                     "do not edit by hand",
            "features": list(FEATURES), "weights": weights,
            "confidence_features": list(CONFIDENCE_FEATURES), "confidence": confidence,
            "fit": {"questions": len(data), "candidates": len(rows), "positives": sum(labels),
                    "answerable": answerable, "evidence_retrieved": reachable, "evidence_chosen": right}}


def dumps(model: dict) -> str:
    return json.dumps(model, ensure_ascii=False, indent=2) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--write", action="store_true", help="write the weights to py/raglab/data/sentence_model.json")
    p.add_argument("--check", action="store_true", help="fail unless the committed weights equal a re-fit")
    args = p.parse_args(argv)
    print("fitting on the dev split (served default retrieval) ...", file=sys.stderr)
    model = fit()
    text = dumps(model)
    for name, w in zip(FEATURES, model["weights"]):
        print(f"{name:16s} {w: .6f}")
    for name, w in zip(CONFIDENCE_FEATURES, model["confidence"]):
        print(f"confidence.{name:9s} {w: .6f}")
    print(json.dumps(model["fit"]))
    if args.write:
        with open(MODEL, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {os.path.relpath(MODEL, ROOT)}", file=sys.stderr)
    if args.check:
        with open(MODEL, encoding="utf-8") as f:
            if f.read() != text:
                print("the committed weights differ from a re-fit; run bench/fit_answerer.py --write", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
