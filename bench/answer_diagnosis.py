"""Where the served answerer loses each answerable question of a split, one reason per question.

    .venv/bin/python bench/answer_diagnosis.py                 # dev, the served default
    .venv/bin/python bench/answer_diagnosis.py --split test --json
    .venv/bin/python bench/answer_diagnosis.py --goldens FILE   # another question file's dev split
    .venv/bin/python bench/answer_diagnosis.py --corpus goldens/external/covid-qa-faq/corpus \
        --goldens goldens/external/covid-qa-faq/questions.jsonl   # an external set, with its own articles

Every question is answered at threshold 0 (the records `raglab compare` scores) and sorted
into the first class that fits it:

- right: the answer states the reference fact (`metrics.holds_fact`) and the confidence
  reaches the served threshold;
- right but abstained: it would state the fact, but the confidence is below the threshold;
- retrieval miss: no candidate unit around the top-k chunks overlaps an evidence passage;
- wrong unit chosen: an evidence unit is a candidate, but no quote shown is one;
- right unit, fact not held: a quote is evidence, yet the shown answer does not hold the
  fact (the other fact of a two-fact question, a reference in the other language, a short
  answer that picks another value).

The last three are split by whether the answer would be shown (answered) or withheld.
Unanswerable questions are counted as abstained or answered.

`--order` counts the two-fact questions (`facts.asks_two`) answered with two quotes and two
short answers by the order they give the two halves in: as asked, the half asked second first
(either the quotes or the bold values), or not known (`facts.unit_half` tells the two quotes' halves apart).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.answer.answerer import compose  # noqa: E402
from raglab.answer.facts import asks_two, unit_half, value_half  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index, evaluate  # noqa: E402
from raglab.evaluation.metrics import holds_fact  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402

CLASSES = ("right", "right but abstained", "retrieval miss", "wrong unit chosen", "right unit, fact not held")


def is_evidence(quote, evidence) -> bool:
    """The evidence rule of the fit (`fit_answerer.positive`): half of the shorter span shared."""
    for e in evidence:
        if e.doc == quote.doc:
            shared = min(quote.end, e.end) - max(quote.start, e.start)
            if shared > 0 and 2 * shared >= min(quote.end - quote.start, e.end - e.start):
                return True
    return False


def diagnose(split: str, goldens: str = os.path.join(ROOT, "goldens", "questions.jsonl"),
             corpus: str = os.path.join(ROOT, "corpus")) -> list[dict]:
    config = Config()
    docs = load_corpus(corpus)
    questions = [q for q in load_goldens(goldens, docs) if q.split == split]
    pipe = Pipeline(docs, config)
    records = evaluate(pipe, questions, coverage_index(pipe.chunks, questions, 0.5), config.k, 0.5)
    out = []
    for q, r in zip(questions, records):
        said = r["answer"] is not None and r["confidence"] >= config.threshold
        row = {"id": q.id, "lang": q.lang, "kind": q.kind, "answered": said, "confidence": r["confidence"]}
        if not q.answerable:
            out.append({**row, "class": "unanswerable"})
            continue
        hits = pipe.search(q.question)
        top = [pipe.chunks[h.index] for h in hits]
        a = pipe.assess(q.question, top, [h.score for h in hits])
        reachable = a is not None and any(is_evidence(c.quote, q.evidence) for _, c in a.order)
        shown = compose(a, pipe.docs) if a is not None else None
        chosen = shown is not None and any(is_evidence(x, q.evidence) for x in shown.quotes)
        if shown is not None and asks_two(a.q.text):
            row["order"] = asked_order(a, shown)
        if r["shown"] is not None and holds_fact(r["shown"], q.answer, evidence=q.evidence):
            cls = "right" if said else "right but abstained"
        elif not reachable:
            cls = "retrieval miss"
        else:
            cls = "right unit, fact not held" if chosen else "wrong unit chosen"
        out.append({**row, "class": cls})
    return out


def asked_order(a, shown) -> str | None:
    """For a two-fact answer with two quotes and two short answers: "asked" when both come in the
    order the question asks its halves, "reversed" when the half asked second comes first in the
    quotes or in bold, "unknown" when no quote's half is known (`facts.unit_half`); None for
    other answers. A bold value's half is its kind's (`facts.value_half`), else its quote's."""
    if len(shown.quotes) != 2 or len(shown.short_answers) != 2:
        return None
    cands = [next((c for _, c in a.order if c.quote == x), None) for x in shown.quotes]
    halves = [None if c is None else unit_half(a.q.text, c) for c in cands]
    if halves[0] == halves[1]:
        return "unknown"
    quoted = halves[0] != 1 and halves[1] != 0
    at = [next((i for i, x in enumerate(shown.quotes) if x.chunk == s.chunk and x.start <= s.start < x.end), None)
          for s in shown.short_answers]
    kinds = [value_half(a.q.text, s.text) for s in shown.short_answers]
    if None in kinds or kinds[0] == kinds[1]:
        kinds = [None, None] if None in at or at[0] == at[1] else [at[0] if quoted else 1 - at[0], at[1] if quoted else 1 - at[1]]
    bold = None in kinds or kinds[0] < kinds[1]
    return "asked" if quoted and bold else "reversed"


def table(rows: list[dict]) -> list[tuple[str, int, int]]:
    """(class, answered, abstained) in `CLASSES` order, then the unanswerable questions."""
    got = []
    for cls in CLASSES + ("unanswerable",):
        mine = [r for r in rows if r["class"] == cls]
        got.append((cls, sum(1 for r in mine if r["answered"]), sum(1 for r in mine if not r["answered"])))
    return got


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", default="dev", choices=("dev", "test"))
    p.add_argument("--json", action="store_true", help="one row per question")
    p.add_argument("--goldens", default=os.path.join(ROOT, "goldens", "questions.jsonl"),
                   help="golden JSON Lines file (default: the bundled set)")
    p.add_argument("--corpus", default=os.path.join(ROOT, "corpus"),
                   help="folder of <id>.md articles the goldens cite (default: the bundled help centre)")
    p.add_argument("--order", action="store_true", help="count two-fact answers by the order of their halves")
    args = p.parse_args(argv)
    rows = diagnose(args.split, args.goldens, args.corpus)
    if args.order:
        got = [r["order"] for r in rows if r.get("order")]
        print(f"two-fact answers with two quotes and two short answers, {args.split}: {len(got)}; "
              + ", ".join(f"{k} {got.count(k)}" for k in ("asked", "reversed", "unknown")))
        return 0
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    print(f"{Config().label}, k = {Config().k}, threshold {Config().threshold:.2f}, {args.split} split")
    print(f"{'class':28s} {'answered':>8s} {'abstained':>9s}")
    for cls, yes, no in table(rows):
        print(f"{cls:28s} {yes:8d} {no:9d}")
    kinds = sorted({r["kind"] for r in rows})
    print("\nby kind: " + "; ".join(
        f"{k}: " + ", ".join(f"{c} {n}" for c in CLASSES if (n := sum(1 for r in rows if r["kind"] == k and r["class"] == c)))
        for k in kinds if k != "unanswerable"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
