"""The asked answer type as the answerer infers it, against the goldens' labelled `answer_type`.

    .venv/bin/python bench/answer_type_confusion.py                  # dev: accuracy and confusion matrix
    .venv/bin/python bench/answer_type_confusion.py --show 40        # ... and the first 40 misread questions
    .venv/bin/python bench/answer_type_confusion.py --lang banglish --show 0
    .venv/bin/python bench/answer_type_confusion.py --json           # one row per question
    .venv/bin/python bench/answer_type_confusion.py --goldens goldens/external/tydiqa-en/questions.jsonl \\
        --corpus goldens/external/tydiqa-en/corpus                   # an external set (inferred types only)

The inferred type is the one the answerer reads (`respell.question_type_of` on the pipeline's
cue text: a Banglish question's typed words and their Bangla reading, misspelt cue words respelt
through the served configuration's index), not `question_type` of the raw text.

Languages: "en", "bn" (Bangla script) and "banglish" (a question labelled Bangla typed without a
Bangla letter).

Vocabulary: the goldens label with the answerer's own names (`answertypes.TYPES`, which the
golden loader enforces), so the map is the identity on those names, with one exception: the
goldens never use "entity" (a named thing: "what is the name of ..."); a question of that kind is
labelled "other", so an inferred "entity" agrees with a golden "other" (`GOLDEN_OF`). Questions
without a label (the external sets have none) are left out of the matrix; for them the script
lists the inferred types only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.question.respell import question_type_of  # noqa: E402
from raglab.text.answertypes import TYPES  # noqa: E402
from raglab.text.banglish import has_bangla_letter  # noqa: E402

LANGS = ("en", "bn", "banglish")
# Inferred type -> the golden label it counts as (identity for every other name).
GOLDEN_OF = {"entity": "other"}


def language(q) -> str:
    return q.lang if q.lang == "en" or has_bangla_letter(q.question) else "banglish"


def rows_of(split: str, goldens: str, corpus: str) -> list[dict]:
    """One row per question of the split: id, language, question, golden and inferred type."""
    docs = load_corpus(corpus)
    pipe = Pipeline(docs, Config())
    out = []
    for q in load_goldens(goldens, docs):
        if q.split != split:
            continue
        got = question_type_of(pipe.cues(q.question), pipe.closest)
        out.append({"id": q.id, "lang": language(q), "kind": q.kind, "question": q.question,
                    "golden": q.answer_type, "inferred": got,
                    "agree": None if q.answer_type is None else GOLDEN_OF.get(got, got) == q.answer_type})
    return out


def matrix(rows: list[dict]) -> dict[tuple[str, str], int]:
    """(golden, inferred) -> count over the labelled rows."""
    got: dict[tuple[str, str], int] = {}
    for r in rows:
        if r["golden"] is not None:
            key = (r["golden"], r["inferred"])
            got[key] = got.get(key, 0) + 1
    return got


def render(rows: list[dict], title: str) -> list[str]:
    labelled = [r for r in rows if r["golden"] is not None]
    lines = [f"{title}: {len(rows)} questions"]
    if not labelled:
        counts = {}
        for r in rows:
            counts[r["inferred"]] = counts.get(r["inferred"], 0) + 1
        return lines + ["  no answer_type labels; inferred: "
                        + ", ".join(f"{t} {counts[t]}" for t in TYPES if t in counts)]
    agree = len([r for r in labelled if r["agree"]])
    lines[0] += f", {len(labelled)} labelled, type accuracy {agree}/{len(labelled)} = {agree / len(labelled):.3f}"
    m = matrix(labelled)
    golden = [t for t in TYPES if any(g == t for g, _ in m)]
    inferred = [t for t in TYPES if any(i == t for _, i in m)]
    short = {t: t[:5] for t in TYPES}
    lines.append("  golden \\ inferred " + " ".join(f"{short[t]:>5s}" for t in inferred) + "   n  right")
    for g in golden:
        cells = [m.get((g, i), 0) for i in inferred]
        n = 0
        for c in cells:
            n += c
        right = 0
        for i, c in zip(inferred, cells):
            right += c if GOLDEN_OF.get(i, i) == g else 0
        lines.append(f"  {g:17s} " + " ".join(f"{c:5d}" if c else "    ." for c in cells) + f" {n:3d} {right:6d}")
    return lines


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", default="dev", choices=("dev", "test"),
                   help="questions to read (default dev; choose on dev only)")
    p.add_argument("--goldens", default=os.path.join(ROOT, "goldens", "questions.jsonl"),
                   help="golden JSON Lines file (default: the bundled set)")
    p.add_argument("--corpus", default=None,
                   help="folder of the goldens' articles (default: the bundled help centre, or the "
                        "'corpus' folder beside --goldens when there is one)")
    p.add_argument("--lang", choices=LANGS, action="append", help="only this language (repeatable)")
    p.add_argument("--show", type=int, default=20, metavar="N", help="list the first N misread questions (default 20)")
    p.add_argument("--json", action="store_true", help="one row per question, as JSON")
    args = p.parse_args(argv)
    corpus = args.corpus
    if corpus is None:
        beside = os.path.join(os.path.dirname(os.path.abspath(args.goldens)), "corpus")
        corpus = beside if os.path.isdir(beside) else os.path.join(ROOT, "corpus")
    rows = rows_of(args.split, args.goldens, corpus)
    if args.lang:
        rows = [r for r in rows if r["lang"] in args.lang]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    out = render(rows, f"{args.split}, all languages")
    for lang in LANGS:
        mine = [r for r in rows if r["lang"] == lang]
        if mine:
            out += [""] + render(mine, f"{args.split}, {lang}")
    wrong = [r for r in rows if r["agree"] is False]
    if wrong and args.show > 0:
        out += ["", f"misread ({len(wrong)}; golden -> inferred):"]
        for r in wrong[:args.show]:
            out.append(f"  {r['id']:>8s} {r['lang']:8s} {r['golden']:>9s} -> {r['inferred']:9s} {r['question']}")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
