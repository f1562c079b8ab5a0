"""The dev questions whose evidence unit is a candidate but not quoted, side by side.

    .venv/bin/python bench/wrong_units.py                  # every wrong-unit dev question
    .venv/bin/python bench/wrong_units.py --sample 40      # every n-th of them, about 40
    .venv/bin/python bench/wrong_units.py --json           # one row per question

For each answerable dev question that `answer_diagnosis.py` files as "wrong unit chosen"
(answered as served, at threshold 0: an evidence unit is among the candidates around the top-k
chunks, no quote shown is one) it prints the question, the quoted unit and the best-placed
evidence unit (their texts, kinds, languages, logits and places in the order), and the features
on which the two differ, with each difference's share of the logit gap (weight × difference,
largest first), so a reader sees what the sentence model held against the evidence. A chosen
unit that is not the model's top logit was put first by a rule after the model (`faq_lead`,
`heading_lead`, `in_own_language`, `the_way_first`): "rule" says so. The text output ends with a
tally of the signs each pair shows (a question counts under every sign it shows): the evidence in
the other language than the quoted unit, in another article, in a lower-ranked chunk, and each
feature whose difference moves the logit gap by more than `SIGN` against the evidence ("-") or for it
("+"), so the reader sees which causes are common before reading them one by one.
Nothing is fitted or written; test questions are never read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, HERE)

from answer_diagnosis import is_evidence  # noqa: E402
from raglab.answer.answerer import compose  # noqa: E402
from raglab.answer.sentences import FEATURES, lang_of, model  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.metrics import holds_fact  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.retrieval.ranking import rounded  # noqa: E402

SIGN = 0.1  # logits: a feature difference smaller than this is no sign of the cause
SIGNS = ("first", "negation", "typed", "imperative", "steps", "intro", "echo", "period_match", "item", "row")


def signs(r: dict) -> list[str]:
    """The signs a wrong-unit pair shows (see the module's doc)."""
    c, e = r["chosen"], r["evidence"]
    out = [name for name, on in (("other language", c["lang"] != e["lang"]), ("other article", c["doc"] != e["doc"]),
                                 ("lower-ranked chunk", e["rank"] > c["rank"]), ("put first by a rule", r["rule"])) if on]
    for name, _, _, d in r["diffs"]:
        if name in SIGNS and abs(d) > SIGN:
            out.append(f"{name} {'+' if d > 0 else '-'}")
    return out


def rows(split: str = "dev") -> list[dict]:
    config = Config()
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = [q for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
                 if q.split == split and q.answerable]
    pipe = Pipeline(docs, config)
    weights = model().weights
    out = []
    for q in questions:
        hits = pipe.search(q.question)
        a = pipe.assess(q.question, [pipe.chunks[h.index] for h in hits], [h.score for h in hits])
        if a is None:
            continue
        ev = [(i, z, c) for i, (z, c) in enumerate(a.order) if is_evidence(c.quote, q.evidence)]
        if not ev:
            continue
        ans = compose(a, pipe.docs)
        if any(is_evidence(x, q.evidence) for x in ans.quotes):
            continue
        shown = "\n".join([s.text for s in ans.short_answers] + [ans.text])
        if holds_fact(shown, q.answer, evidence=q.evidence):
            continue
        z0, chosen = a.order[0]
        top = max(z for z, _ in a.order)
        i, ze, e = ev[0]
        diffs = []
        for name, w, fc, fe in zip(FEATURES, weights, chosen.features, e.features):
            if fc != fe:
                diffs.append((name, rounded(fc), rounded(fe), rounded(w * (fe - fc))))
        diffs.sort(key=lambda d: (d[3], d[0]))
        out.append({"id": q.id, "kind": q.kind, "lang": q.lang, "qtype": a.q.qtype, "question": q.question,
                    "answer": q.answer, "rule": z0 < top,
                    "chosen": {"text": chosen.unit.text, "kind": chosen.unit.kind, "lang": lang_of(chosen.unit.text),
                               "logit": z0, "rank": chosen.rank, "doc": chosen.quote.doc},
                    "evidence": {"text": e.unit.text, "kind": e.unit.kind, "lang": lang_of(e.unit.text),
                                 "logit": ze, "place": i, "of": len(a.order), "rank": e.rank, "doc": e.quote.doc},
                    "diffs": diffs})
    return out


def show(r: dict) -> None:
    c, e = r["chosen"], r["evidence"]
    print(f"== {r['id']} [{r['kind']}, {r['lang']}, asks {r['qtype']}]{' (rule)' if r['rule'] else ''}")
    print(f"Q: {r['question']}\nA: {r['answer']}")
    print(f"chosen   {c['logit']:6.2f} {c['kind']:5s} {c['lang']} r{c['rank']} {c['doc']}: {c['text'][:300]}")
    print(f"evidence {e['logit']:6.2f} {e['kind']:5s} {e['lang']} r{e['rank']} {e['doc']} "
          f"(#{e['place'] + 1}/{e['of']}): {e['text'][:300]}")
    print("  " + "; ".join(f"{n} {a:.2f}->{b:.2f} ({d:+.2f})" for n, a, b, d in r["diffs"]))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sample", type=int, default=0, help="print about this many, every n-th in question order")
    p.add_argument("--json", action="store_true", help="one JSON row per question")
    args = p.parse_args(argv)
    got = rows()
    if args.sample and len(got) > args.sample:
        step = len(got) / args.sample
        got = [got[int(i * step)] for i in range(args.sample)]
    if args.json:
        print(json.dumps(got, ensure_ascii=False, indent=1))
        return 0
    tally: dict[str, int] = {}
    for r in got:
        show(r)
        for s in signs(r):
            tally[s] = tally.get(s, 0) + 1
    print(f"\n{len(got)} questions; signs: " + ", ".join(f"{k} {n}" for k, n in sorted(tally.items(), key=lambda x: (-x[1], x[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
