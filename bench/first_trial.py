"""The sentence model's `first` (the unit opens its paragraph, list or table), read and varied: a trial on dev.

    .venv/bin/python bench/first_trial.py                      # how often the evidence and the wrong choice open
    .venv/bin/python bench/first_trial.py --variants drop,xnovel

Read: per set (our dev questions, the external sets' dev halves), for the questions with an
evidence unit among their candidates, how many have an evidence unit that opens its block, and
one that opens its section right under the heading; how many units the committed weights choose
wrongly, and how many of those open their block (or section), against the share of all
candidates that open theirs; by question type and language.

Varied: each variant rewrites the `first` column of every candidate (or adds one column) and the
whole of `fit_answerer.fit` is re-run (its out-of-fold evidence choice and confidence, as
`fit_answerer.py` without --write prints them), then `holdout_trial.run` (folds by question, L2 1:
fitted on the dev questions before q698, the later ones answered at the threshold chosen on the
earlier ones, and at 0.6 / 0.7 / 0.8). `base` is the served features.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import raglab.answer.answerer as answerer  # noqa: E402
from fit_answerer import MODEL, _fit, choice, sets  # noqa: E402
from holdout_trial import run  # noqa: E402
from raglab.answer.candidates import score_candidates  # noqa: E402
from raglab.answer.sentences import COL  # noqa: E402
from raglab.text.analyzer import memo  # noqa: E402

FIRST = COL["first"]


def under_heading(text: str, block: int) -> bool:
    """Whether the block starting at `block` opens its section: nothing but blank lines between it
    and the heading line before it (or the start of the text)."""
    before = text[:block].rstrip()
    return not before or before[before.rfind("\n") + 1:].startswith("#")


def variant(name: str, row: list[float], heads: bool, kind: str) -> list[float]:
    """The feature row of one candidate under a variant (`row` is the served one; a copy is returned)."""
    out = list(row)
    first, novel, typed = row[FIRST], row[COL["novel"]], row[COL["typed"]]
    if name == "drop":
        out[FIRST] = 0.0
    elif name == "split":  # opens its section right under the heading / opens a later block
        out[FIRST] = 0.0 if heads else first
        out.append(first if heads else 0.0)
    elif name == "headonly":
        out[FIRST] = first if heads else 0.0
    elif name == "sentence":  # a sentence that opens its paragraph; no list's first item or table's first row
        out[FIRST] = first if kind == "sentence" else 0.0
    elif name == "restate":  # no opening that holds half of the question or more
        out[FIRST] = first if row[COL["sentence_cover"]] < 0.5 else 0.0
    elif name == "adds":  # an opening that states a term or a typed value the question does not
        out[FIRST] = first if novel > 0 or typed else 0.0
    elif name == "novelonly":
        out[FIRST] = first * novel
    elif name == "xnovel":
        out.append(first * novel)
    elif name == "sentence_xnovel":
        out[FIRST] = first if kind == "sentence" else 0.0
        out.append(first * novel)
    elif name == "xintro":
        out.append(first * row[COL["intro"]])
    elif name == "xcover":
        out.append(first * row[COL["sentence_cover"]])
    elif name != "base":
        raise ValueError(f"no variant {name!r}")
    return out


def heads_of(docs, c) -> bool:
    doc = docs.get(c.quote.doc) if docs else None
    return doc is not None and under_heading(doc.text, c.unit.block)


VARIANT = ["base"]


def varied_candidates(q, chunks, scores=None, docs=None):
    """`score_candidates` under the current variant: the answers the confidence is fitted on and
    the later questions get are composed by the answerer, which scores its candidates afresh."""
    return [replace(c, features=variant(VARIANT[0], c.features, heads_of(docs, c), c.unit.kind))
            for c in score_candidates(q, chunks, scores, docs)]


def read(data, weights) -> dict:
    """Per set and slice: questions with evidence, those whose evidence opens (its block, its
    section), wrong choices, those that open, and all candidates and those that open."""
    out = {}
    for name in ("served", "covid-qa-faq", "tydiqa-en"):
        tally: dict[str, list[int]] = {}
        for e in data[name]:
            if not any(e["labels"]):
                continue
            cands, q = e["candidates"], e["question"]
            evidence = [c for c, y in zip(cands, e["labels"]) if y]
            chosen = choice(weights, cands)
            wrong = not e["labels"][chosen]
            c = cands[chosen]
            row = [1, any(x.features[FIRST] for x in evidence), any(x.features[FIRST] and heads_of(e["pipe"].docs, x) for x in evidence),
                   wrong, wrong and c.features[FIRST] == 1.0, wrong and c.features[FIRST] == 1.0 and heads_of(e["pipe"].docs, c),
                   len(cands), sum(1 for x in cands if x.features[FIRST])]
            for key in ("all", f"type {e['info'].qtype}", f"lang {q.lang}"):
                t = tally.setdefault(key, [0] * 8)
                for i, v in enumerate(row):
                    t[i] += int(v)
        out[name] = {k: dict(zip(("questions", "evidence_opens", "evidence_opens_section", "wrong", "wrong_opens",
                                  "wrong_opens_section", "candidates", "candidates_open"), v)) for k, v in sorted(tally.items())}
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variants", default="", help="comma-separated: base, drop, split, headonly, sentence, restate, "
                                                  "adds, novelonly, xnovel, sentence_xnovel, xintro, xcover")
    args = p.parse_args(argv)
    with open(MODEL, encoding="utf-8") as fh:
        m = json.load(fh)
    with memo():
        data = sets()
        if not args.variants:
            print(json.dumps(read(data, m["weights"]), indent=1))
            return 0
        served: dict[int, tuple] = {}
        for exs in data.values():
            for e in exs:
                for c in e["candidates"]:
                    served.setdefault(id(c), (list(c.features), heads_of(e["pipe"].docs, c), c.unit.kind))
        ours = data["served"]
        early = [e for e in ours if int(e["question"].id[1:]) < 698]
        late = [e for e in ours if int(e["question"].id[1:]) >= 698]
        answerer.score_candidates = varied_candidates
        for name in args.variants.split(","):
            VARIANT[0] = name
            for exs in data.values():
                for e in exs:
                    for c in e["candidates"]:
                        c.features[:] = variant(name, *served[id(c)])
            got = _fit(data)
            risk = got["fit"]["oof_confidence_risk_rule"]
            r = run(data, early, late, m, "question", 1.0)
            print(json.dumps({"variant": name, "oof_evidence_chosen": got["fit"]["oof_evidence_chosen"],
                              "in_sample": got["fit"]["evidence_chosen"],
                              "oof_risk_rule": {k: risk[k] for k in ("threshold", "holds", "answered", "risk", "aurc")},
                              "first": got["weights"][FIRST], "added": got["weights"][len(COL):],
                              "later": r["late_at_t_in"],
                              "later_curve": [(d["t"], d["answered"], d["risk"]) for d in r["late_curve"]
                                              if d["t"] in (0.6, 0.7, 0.8)]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
