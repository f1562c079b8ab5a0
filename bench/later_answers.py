"""The answers the confidence trials for later questions read, computed once and cached (dev only).

    .venv/bin/python bench/later_answers.py            # a few minutes; writes .cache/later_answers.json

Two schemes, each answering every dev question with a sentence model that never saw it:

- "holdout": as `bench/holdout_trial.py` (the sentence model fitted on the dev questions written
  before q698 with the external sets; the early questions answered out of fold, five folds by
  question; the later ones, q698 on, by the fit on all the early ones), and the early ones also
  answered in sample (the served threshold is chosen on in-sample confidences);
- "rounds": each round of dev questions (`ROUNDS`, in the order they were written) answered by
  the sentence model fitted without that round.

The external sets' dev halves (COVID-QA FAQ, TyDi QA English) are answered by the holdout's
early fit, for the trials that let the confidence learn from them. Per answer the cache keeps
the confidence's signals, the chosen unit's sentence features, a few facts of the composed
answer, the question's terms as the coverage reads them (`terms_read`), the encoder side's rank
of the chosen unit's chunk (`cosine_rank`), and whether it states the fact. The test split is
never read. `new_user_records` answers the new users' questions the same way, with the served fit.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fit_answerer import FOLDS, MODEL, ROOT, assessed, fit_choice, sets  # noqa: E402
from raglab.answer.answerer import compose, counts_another_period, names_other_half, signals_of  # noqa: E402
from raglab.answer.candidates import _present, heading_terms, text_info  # noqa: E402
from raglab.answer.facts import asks_two  # noqa: E402
from raglab.answer.sentences import CONFIDENCE_FEATURES, FEATURES, PREFIX, Model, _same_stem, speaks_to  # noqa: E402
from raglab.evaluation.metrics import holds_fact  # noqa: E402
from raglab.pipeline import Config  # noqa: E402
from raglab.retrieval.bilingual import centred  # noqa: E402
from raglab.retrieval.ranking import rounded  # noqa: E402
from raglab.text.analyzer import memo  # noqa: E402
from raglab.text.numbers import numbers  # noqa: E402

CACHE = os.path.join(ROOT, ".cache", "later_answers.json")
# The rounds the dev questions were written in (docs/pipeline.md: the fresh rounds), by the
# number of their first question; the first set, written at once, is cut in two.
ROUNDS = (1, 150, 300, 450, 500, 600, 650, 698, 746, 794, 842, 890, 920, 970)
CUT = 698


def round_of(qid: str) -> int:
    n = int(qid[1:])
    return max(i for i, start in enumerate(ROUNDS) if n >= start)


def twin_id(doc: str) -> str:
    return ("bn-" + doc[3:]) if doc.startswith("en-") else ("en-" + doc[3:]) if doc.startswith("bn-") else ""


def agreement(a, ans, docs) -> dict:
    """Signals of agreement that do not depend on fitted wording: whether the numbers of the
    shown short answers are stated also by another candidate unit (another chunk's or another
    article's) or anywhere in the twin article in the other language; the logit lead of the
    chosen unit over the best candidate stating a number none of the shown values states (a
    runner-up with another value close behind)."""
    nums = sorted({n for s in ans.short_answers for n in numbers(s.text)})
    shown = {x.text for x in ans.quotes}
    best = a.order[0][1]
    out = {"has_value": 1.0 if nums else 0.0, "val_other_unit": 0.0, "val_other_doc": 0.0, "val_twin": 0.0,
           "val_margin": 1.0}
    if not nums:
        return out
    want = set(nums)
    for z, c in a.order[1:]:
        if c.quote.text in shown:
            continue
        have = set(numbers(c.unit.text))
        if want <= have:
            out["val_other_unit"] = 1.0
            if c.quote.doc != best.quote.doc:
                out["val_other_doc"] = 1.0
        elif have and not (have & want) and out["val_margin"] == 1.0:
            out["val_margin"] = min(4.0, a.order[0][0] - z) / 4.0
    twin = docs.get(twin_id(best.quote.doc))
    if twin is not None and want <= set(numbers(twin.text)):
        out["val_twin"] = 1.0
    return out


def terms_read(a, chunks) -> list:
    """Per question term, in question order: [term, idf weight, held by the chosen unit, by its
    heading only, by any candidate or top chunk's heading (else it counts as missing), in another
    form by the chosen unit (`sentences._same_stem`), in the asking sentence]; for the trials of
    a confidence input read over part of the question's terms."""
    q, best = a.q, a.order[0][1]
    seen = set()
    for _, c in a.order:
        seen |= c.found
    for chunk in chunks:
        seen |= _present(heading_terms(chunk.heading), q.weights, q.aliases)
    prefixes = text_info(best.unit.text).prefixes
    out = []
    for t, w in q.weights.items():
        near = t in best.found or any(_same_stem(t, x) for x in prefixes.get(t[:PREFIX], ()))
        out.append([t, w, t in best.found, t in best.in_heading and t not in best.found, t in seen, near, t in q.asked])
    return out


_COSINE_RANKS: dict = {}


def cosine_rank(pipe, question: str, chunk) -> int | None:
    """How many chunks (one per text) the encoder side, centred by language as fusion reads it,
    scores above `chunk`, as `Pipeline.lexical_ranks` counts the BM25 side's; None for a
    retriever without the encoder. The ranking is read once per question."""
    if not hasattr(pipe.retriever, "cosines"):
        return None
    key = (id(pipe), question)
    if key not in _COSINE_RANKS:
        _COSINE_RANKS[key] = centred(pipe.retriever.cosines(pipe.query(question)), pipe.retriever.langs)
    found, same = _COSINE_RANKS[key], pipe._same_text
    raw = found.get(pipe.position.get(chunk.id, -1), 0.0)
    mine = rounded(raw)
    return len({same[i] for i, v in found.items() if v > raw and rounded(v) > mine})


def records(exs, weights, m) -> list[dict]:
    k = Config().k
    model = Model(tuple(weights), tuple([0.0] * len(CONFIDENCE_FEATURES)), m["second"], m["adjacent"], m["runner"])
    out = []
    for e, a in zip(exs, assessed(exs, weights, k)):
        q = e["question"]
        rec = {"id": q.id, "kind": q.kind, "lang": q.lang, "answerable": q.answerable}
        if a is None or names_other_half(a) or counts_another_period(a):
            rec.update(signals=None, right=False, speaks=False)
            out.append(rec)
            continue
        ans = compose(a, e["pipe"].docs, model)
        signals = signals_of(a, ans, model)
        shown = "\n".join([s.text for s in ans.short_answers] + [ans.text])
        best = a.order[0][1]
        texts = [x.text for x in ans.quotes]
        covs = [c.features[FEATURES.index("coverage")] for _, c in a.order if c.quote.text in texts]
        second = a.order[1][1] if len(a.order) > 1 else None
        rec.update(signals=signals, speaks=speaks_to(signals),
                   right=bool(q.answerable and holds_fact(shown, q.answer, evidence=q.evidence)),
                   unit=list(best.features), quotes=len(ans.quotes), shorts=len(ans.short_answers),
                   asks_two=1.0 if asks_two(a.q.text) else 0.0, qtype=a.q.qtype,
                   shown_cover=max(covs) if covs else 0.0,
                   p2=a.probs[1] if len(a.probs) > 1 else 0.0,
                   same_doc2=1.0 if second is not None and second.quote.doc == best.quote.doc else 0.0,
                   cands=len(a.order), words=len(ans.text.split()) if ans.text else 0,
                   terms=terms_read(a, e["chunks"][:k]), total=a.q.total,
                   cosine_rank=cosine_rank(e["pipe"], q.question, e["chunks"][best.rank]),
                   **agreement(a, ans, e["pipe"].docs))
        out.append(rec)
    return out


NEW_USERS = os.path.join(ROOT, "tests", "data", "new_user_questions.jsonl")


def judged(row: dict) -> str:
    """A new user's question as it was judged by hand after its reading: "right" (the shown or
    withheld quote states the answer), "unstated" (the help centre does not say), else "wrong"."""
    said = row["after"]["judged"]
    return "right" if ("right quote" in said or "right sentence" in said or said == "right, shown") else \
        "unstated" if "rightly withheld" in said else "wrong"


def new_user_records(path: str = NEW_USERS) -> list[dict]:
    """The new users' questions (`tests/data/new_user_questions.jsonl`) answered by the served
    default and its sentence model, with what the trials read of a cached answer and the hand
    judgement of the quote. A trial changes the confidence only, not the quote, so the judgement holds."""
    from raglab.answer.answerer import withheld
    from raglab.answer.sentences import model
    from raglab.corpus.articles import load_corpus
    from raglab.pipeline import Pipeline

    pipe, served = Pipeline(load_corpus(os.path.join(ROOT, "corpus")), Config()), model()
    out = []
    with open(path, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    for row in rows:
        question = row["question"]
        hits = pipe.search(question)
        top = [pipe.chunks[h.index] for h in hits]
        a = pipe.assess(question, top, [h.score for h in hits])
        rec = {"id": f"{row['reading']}.{row['n']}", "judged": judged(row), "signals": None, "speaks": False}
        if a is not None:
            ans = compose(a, pipe.docs, served)
            best = a.order[0][1]
            rec.update(signals=signals_of(a, ans, served), speaks=withheld(a, ans, 1.0, 0.0) is None, unit=list(best.features),
                       terms=terms_read(a, top), cosine_rank=cosine_rank(pipe, question, top[best.rank]))
        out.append(rec)
    return out


def main(argv=None) -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args(argv)
    with open(MODEL, encoding="utf-8") as fh:
        m = json.load(fh)
    out = {"rounds": list(ROUNDS), "cut": CUT}
    with memo():
        data = sets()
        ours = data["served"]
        early = [e for e in ours if int(e["question"].id[1:]) < CUT]
        late = [e for e in ours if int(e["question"].id[1:]) >= CUT]
        late_ids = {id(e) for e in late}
        fold = {id(e): n % FOLDS for n, e in enumerate(early)}
        w = fit_choice(data, skip=lambda e: id(e) in late_ids)
        print("holdout fit", file=sys.stderr)
        hold = {"late": records(late, w, m), "early_in": records(early, w, m), "early_oof": [None] * len(early)}
        for f in range(FOLDS):
            wf = fit_choice(data, skip=lambda e, f=f: id(e) in late_ids or fold.get(id(e)) == f)
            idx = [i for i, e in enumerate(early) if fold[id(e)] == f]
            for i, r in zip(idx, records([early[i] for i in idx], wf, m)):
                r["fold"] = f
                hold["early_oof"][i] = r
            print(f"holdout fold {f}", file=sys.stderr)
        out["holdout"] = hold
        out["external"] = {name: records(data[name], w, m) for name in ("covid-qa-faq", "tydiqa-en")}
        rounds = []
        for r in range(len(ROUNDS)):
            exs = [e for e in ours if round_of(e["question"].id) == r]
            ids = {id(e) for e in exs}
            wr = fit_choice(data, skip=lambda e, ids=ids: id(e) in ids)
            got = records(exs, wr, m)
            for x in got:
                x["round"] = r
            rounds += got
            print(f"round {r}: {len(exs)}", file=sys.stderr)
        out["rounds_oof"] = rounds
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    with open(CACHE, "w", encoding="utf-8") as fh:
        json.dump(out, fh)
    print(f"wrote {os.path.relpath(CACHE, ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
