"""A confidence by the kind of thing asked: per-kind weights, and what tells a right quote to a
question asking no value, on dev, out of fold.

    .venv/bin/python bench/asked_kind_confidence.py             # each candidate's out-of-fold and in-sample figures
    .venv/bin/python bench/asked_kind_confidence.py --repeat    # ... and out of fold over five shuffles of the folds

The answers are `confidence_trials.rows` (the served answerer, every answer at threshold 0). Each
candidate is the served signals (`CONFIDENCE_FEATURES`) with inputs added or split by the kind the
question asks (a value, how-to, yes/no, other); the confidence is fitted five times out of fold and
once in sample, and read by the risk rule (`evaluation.stats.tune`), the AURC and the answers shown
(right) at the served 0.75, as in `untyped_confidence.py`; `best` is the most answers (right) any
threshold shows within the risk budget, without the rule's 0.05 grid.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import confidence_trials as ct  # noqa: E402
from fitting import fit_logistic  # noqa: E402
from raglab.answer.sentences import COL, CONFIDENCE_FEATURES, dot, fresh_spans, logistic, numbers_of, spans_of  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.evaluation.stats import RISK_BUDGET  # noqa: E402
from raglab.text.answertypes import accepts  # noqa: E402
from untyped_confidence import figures, group, in_sample  # noqa: E402

BASE = list(CONFIDENCE_FEATURES)


def twin_of(doc: str) -> str:
    """The article's other-language twin (en-x and bn-x)."""
    return ("bn-" + doc[3:]) if doc.startswith("en-") else ("en-" + doc[3:]) if doc.startswith("bn-") else ""


def ordinal(docs, doc: str, at: int) -> int:
    secs = docs[doc].sections
    return secs.index(docs[doc].section_at(at))


def twin(a, docs) -> dict[str, float]:
    """Whether the other language's article agrees: the best candidate from the chosen article's twin
    lies in the section of the same place (the help centre's articles are translations, section for
    section), and the probability of the twin's candidates in that section."""
    best = a.order[0][1]
    other = twin_of(best.quote.doc)
    if other not in docs:
        return {"twin_seen": 0.0, "twin_agree": 0.0, "twin_mass": 0.0}
    at = ordinal(docs, best.quote.doc, best.quote.start)
    theirs = [(c, p) for (_, c), p in zip(a.order, a.probs) if c.quote.doc == other]
    agree = 1.0 if theirs and ordinal(docs, other, theirs[0][0].quote.start) == at else 0.0
    mass = 0.0
    for c, p in theirs:
        if ordinal(docs, other, c.quote.start) == at:
            mass += p
    return {"twin_seen": 1.0 if theirs else 0.0, "twin_agree": agree, "twin_mass": min(1.0, mass)}


# The value a question asking no value names ("Is there a fee to add money from a card?", "কোনো
# সীমা আছে?"): a unit stating one answers its predicate, as `typed` reads it for a value asked.
NAMED = ((re.compile(r"(?<![a-z])(?:fee|fees|charge|charges|cost|costs|price|commission)(?![a-z])|চার্জ|ফি(?![\u0980-\u09ff])|খরচ|মাশুল"),
          ("amount", "percent")),
         (re.compile(r"(?<![a-z])(?:limit|limits|maximum|minimum|max|min)(?![a-z])|সীমা|লিমিট|সর্বোচ্চ|সর্বনিম্ন|ন্যূনতম"),
          ("amount", "count")),
         (re.compile(r"(?<![a-z])(?:age|old|older|years? old|year-old)(?![a-z])|বয়স"), ("age",)),
         (re.compile(r"(?<![a-z])(?:interest|profit|rate)(?![a-z])|সুদ|মুনাফা|হার(?![\u0980-\u09ff])"), ("percent",)))


def named_value(a) -> float:
    """1 when a question asking no value names a kind of value and the best unit states one it does not."""
    if accepts(a.q.qtype):
        return 0.0
    text = a.q.text.lower()
    wanted = tuple(t for pattern, types in NAMED if pattern.search(text) for t in types)
    if not wanted:
        return 0.0
    unit = a.order[0][1].unit.text
    return 1.0 if fresh_spans(spans_of(unit), unit, wanted, a.q.numbers) else 0.0


def top_agrees(a, ans) -> float:
    """`top_doc`, or the top chunk's article states a number of the short answer (or, with none,
    of the chosen unit) in a candidate: an overview article ("Fees and limits at a glance") quoted
    for a fact its topic's own article states too agrees with the ranking."""
    best = a.order[0][1]
    top = next((c.quote.doc for _, c in a.order if c.rank == 0), best.quote.doc)
    if top == best.quote.doc:
        return 1.0
    said = frozenset()
    for x in ans.short_answers:
        said |= numbers_of(x.text)
    said = said or (numbers_of(best.unit.text) - a.q.numbers)
    if not said:
        return 0.0
    return 1.0 if any(c.quote.doc == top and said & numbers_of(c.unit.text) for _, c in a.order) else 0.0


def extra(r, docs=None) -> dict[str, float]:
    """The candidate inputs of one answer."""
    a, f = r["a"], r["feats"]
    best = a.order[0][1]
    fe = best.features
    g = group(a.q.qtype)
    value = 1.0 if g == "value" else 0.0
    out = {f"kind_{k}": 1.0 if g == k else 0.0 for k in ("procedure", "yesno", "other")}
    for n in BASE:  # the served inputs, split by whether a value is asked
        out[n + "@value"] = f[n] * value
        out[n + "@none"] = f[n] * (1.0 - value)
        out[n + "@yesno"] = f[n] * (1.0 if g == "yesno" else 0.0)
        out[n + "@rest"] = f[n] * (1.0 if g in ("procedure", "other") else 0.0)
    # the best unit's logit over the best unit of any other chunk (the chunk ranking agrees by a margin)
    other = next((z for z, c in a.order[1:] if c.rank != best.rank), a.order[0][0] - 4.0)
    lead = min(a.order[0][0] - other, 4.0) / 4.0
    first = fe[COL["first"]]
    out.update({
        "echo_none": fe[COL["echo"]] * (1.0 - value),  # a stated value's kind answered (the age a rule names)
        "heading_first_none": (1.0 - value) * first * (1.0 if fe[COL["heading_cover"]] >= 0.5 else 0.0),
        "chunk_lead": lead,
        "chunk_lead_none": lead * (1.0 - value),
        "top_best_none": (1.0 - value) * (1.0 if best.rank == 0 else 0.0),
        "need_none": (1.0 - value) * fe[COL["need"]],
        "ask_cover_none": (1.0 - value) * fe[COL["ask_cover"]],
        "named_value": named_value(a),
        "top_agrees": top_agrees(a, r["ans"]),
        "told_none": (1.0 - value) * max(fe[COL["imperative"]], fe[COL["advice"]], fe[COL["negation"]], fe[COL["steps"]]),
    })
    if docs is not None:
        t = twin(a, docs)
        out.update(t)
        out.update({k + "_none": v * (1.0 - value) for k, v in t.items()})
    return out


def within(recs, conf) -> tuple[int, int]:
    """The most answers (right) any threshold shows with risk <= RISK_BUDGET: the rule without its
    0.05 grid, which alone moves a figure by a quarter when one wrong answer crosses the budget."""
    said = sorted(((c, r["label"]) for r, c in zip(recs, conf) if r["answered"]), key=lambda x: -x[0])
    best, right = (0, 0), 0
    for i, (c, y) in enumerate(said):
        right += y
        if (i + 1 == len(said) or said[i + 1][0] < c) and (i + 1 - right) <= RISK_BUDGET * (i + 1) + 1e-12:
            best = max(best, (i + 1, right))
    return best


def most_within(recs, conf) -> str:
    return f"best {within(recs, conf)}"


def repeated(recs, names, seeds=5, folds=5) -> str:
    """Out of fold over `seeds` shuffles of the folds (one fold split alone moves the figures by
    a few answers): the mean AURC, and the mean answers shown (right) at the served 0.75."""
    idx = [i for i, r in enumerate(recs) if r["answered"]]
    aurcs, shown, right, most = [], [], [], []
    for seed in range(seeds):
        order = list(idx)
        random.Random(seed).shuffle(order)
        fold = {i: k % folds for k, i in enumerate(order)}
        conf = [0.0] * len(recs)
        for f in range(folds):
            train = [i for i in idx if fold[i] != f]
            w = fit_logistic([[recs[i]["feats"][n] for n in names] for i in train], [recs[i]["label"] for i in train], l2=1.0)
            for i in idx:
                if fold[i] == f:
                    conf[i] = logistic(dot(w, [recs[i]["feats"][n] for n in names]))
        aurcs.append(ct.aurc(recs, conf))
        most.append(within(recs, conf))
        out = [r["label"] for r, c in zip(recs, conf) if r["answered"] and c >= 0.75]
        shown.append(len(out))
        right.append(sum(out))
    return (f"repeated: AURC {math.fsum(aurcs) / seeds:.4f}; at 0.75 ({math.fsum(shown) / seeds:.1f}, "
            f"{math.fsum(right) / seeds:.1f}); the most within the budget "
            f"({math.fsum(n for n, _ in most) / seeds:.1f}, {math.fsum(k for _, k in most) / seeds:.1f})")


def trials():
    split = [n + s for n in BASE for s in ("@value", "@none")]
    split3 = [n + s for n in BASE for s in ("@value", "@yesno", "@rest")]
    inter = ["coverage@none", "probability@none", "logit@none", "typed@none"]
    typed_split = [n for n in BASE if n != "typed"] + ["typed@value", "typed@none"]
    return [("served signals", BASE),
            ("+ a constant per kind asked", BASE + ["kind_procedure", "kind_yesno", "kind_other"]),
            ("typed split by value asked or not", typed_split),
            ("a weight set per value asked or not", split),
            ("+ coverage, probability, logit, typed x no value", BASE + inter),
            ("+ every input x no value", BASE + [n + "@none" for n in BASE]),
            ("a weight set per value, yes/no, other", split3),
            ("+ the stated value's kind answered, no value", BASE + ["echo_none"]),
            ("a weight set per value asked or not + the stated value kind answered", split + ["echo_none"]),
            ("+ first under a heading asking it, no value", BASE + ["heading_first_none"]),
            ("+ lead over other chunks' best", BASE + ["chunk_lead"]),
            ("+ lead over other chunks' best, no value", BASE + ["chunk_lead_none"]),
            ("+ top chunk's unit, no value", BASE + ["top_best_none"]),
            ("+ says what is needed, no value", BASE + ["need_none"]),
            ("+ asking sentence covered, no value", BASE + ["ask_cover_none"]),
            ("+ tells, says no or a step, no value", BASE + ["told_none"]),
            ("+ the twin article's best unit in the same section", BASE + ["twin_agree"]),
            ("+ the twin article's probability in the same section", BASE + ["twin_mass"]),
            ("+ the twin article's best unit in the same section, no value", BASE + ["twin_agree_none"]),
            ("+ the twin article's probability in the same section, no value", BASE + ["twin_mass_none"]),
            ("+ the twin article seen and its probability in the same section", BASE + ["twin_seen", "twin_mass"]),
            ("a weight set per value asked or not + the twin probability", split + ["twin_mass"]),
            ("+ a value of the kind a question asking none names", BASE + ["named_value"]),
            ("the top chunk's article, or a number of the answer stated there, for top_doc",
             [n if n != "top_doc" else "top_agrees" for n in BASE]),
            ("+ constants per kind and lead, no value", BASE + ["kind_procedure", "kind_yesno", "kind_other", "chunk_lead_none"])]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="Example: .venv/bin/python bench/asked_kind_confidence.py  (dev only; about 30 s)")
    p.add_argument("--only", help="the trials to run, their names separated by ';'")
    p.add_argument("--repeat", action="store_true", help="also out of fold over five shuffles of the folds (slower)")
    args = p.parse_args()
    recs = ct.rows("dev")
    docs = {d.id: d for d in load_corpus(os.path.join(ROOT, "corpus"))}
    for r in recs:
        if r["answered"]:
            r["feats"].update(extra(r, docs))
    only = set(args.only.split(";")) if args.only else None
    print("candidate | out of fold: threshold: holds / answered / risk, AURC; at 0.75 (shown, right) | in sample, the same")
    for name, names in trials():
        if only is None or name in only:
            print(f"{name:48s}", end="")
            for conf in (ct.oof(recs, names), in_sample(recs, names)):
                print(" |", figures(recs, conf), most_within(recs, conf), end="")
            print(" |", repeated(recs, names) if args.repeat else "", flush=True)


if __name__ == "__main__":
    main()
