"""Confidence signals from retrieval and from agreement, on dev out of fold, carried to the
external sets' dev halves (the harness of `confidence_generalise.py`).

    .venv/bin/python bench/confidence_retrieval_trial.py     # several minutes

Each of our dev questions is answered as `fit_answerer.py` fits the confidence (the served top
k, the sentence model fitted without its fold); each candidate adds signals to the eleven:

- agreement: the sentence model, with the same weights, quotes the same unit (or gives the same
  short answer) when the question is answered from another ranking's top k: BM25 alone, the
  encoder alone, the served retriever with expansion off, and the served top k + 1 without
  its first chunk;
- absolute retrieval evidence: the raw cosine of the question with the top chunk and with the
  chosen unit's chunk, and their BM25 score over the most the question's terms score in any chunk
  (`max_impact`, weights of fuzzy matches counted);
- where the chosen unit's chunk sits in the BM25 ranking and in the cosine ranking (1 / (1 + rank)).

The external sets are answered as the fit answers them (fixed chunks, BM25, expansion off); their
cosines come from the encoder over the same chunks, and the agreements that would compare their
ranking with itself (BM25 alone, expansion off) are 1.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from confidence_generalise import ALL, MODEL, Trial, answers_of, columns, evaluate, folds  # noqa: E402
from fit_answerer import labelled, served_answers, sets  # noqa: E402
from raglab.answer.answerer import compose  # noqa: E402
from raglab.answer.sentences import CONFIDENCE_FEATURES, Model  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.text.analyzer import analyze, memo  # noqa: E402

ALTERNATES = ("bm25", "semantic", "unexpanded", "drop_top")


def chosen(pipe, question, chunks, scores, m):
    """(best unit's quote text, first short answer text, index of its chunk in `chunks`) or None."""
    a = pipe.assess(question, chunks, scores, m)
    if a is None:
        return None
    best = a.order[0][1]
    ans = compose(a, pipe.docs, m)
    return best.quote.text, (ans.short_answers[0].text if ans.short_answers else None), best.rank


def ranked(pipe, question, n):
    hits = pipe.search(question, n)
    return [pipe.chunks[h.index] for h in hits], [h.score for h in hits], [h.index for h in hits]


def ranks(scores: dict[int, float], i: int) -> float:
    mine = scores.get(i, 0.0)
    return 1.0 / (1.0 + sum(1 for v in scores.values() if v > mine))


def features(e, m, k, alts, cos_of, lex_of, plain_of):
    """The candidate signals of one example answered with model `m`."""
    q, pipe = e["question"], e["pipe"]
    served = chosen(pipe, q.question, e["chunks"][:k], e["scores"][:k], m)
    f = {}
    if served is None:
        return f
    text, short, rank = served
    index = {id(c): i for i, c in enumerate(pipe.chunks)}
    top_i, mine_i = index[id(e["chunks"][0])], index[id(e["chunks"][rank])]
    for name in ALTERNATES:
        if name == "drop_top":
            other = chosen(pipe, q.question, e["chunks"][1:k + 1], e["scores"][1:k + 1], m)
        elif alts.get(name) is None:  # the served ranking itself
            other = served
        else:
            chunks, scores, _ = ranked(alts[name], q.question, k)
            other = chosen(alts[name], q.question, chunks, scores, m)
        f["unit_" + name] = 1.0 if other is not None and other[0] == text else 0.0
        f["value_" + name] = 1.0 if other is not None and (other[0] == text or (short is not None and other[1] == short)) else 0.0
    f["units_agree"] = sum(f["unit_" + n] for n in ALTERNATES) / len(ALTERNATES)
    f["values_agree"] = sum(f["value_" + n] for n in ALTERNATES) / len(ALTERNATES)
    cos, (lex, most) = cos_of(q.question), lex_of(q.question)
    f["cos_top"] = (cos[top_i] - 0.8) * 10
    f["cos_chosen"] = (cos[mine_i] - 0.8) * 10
    f["cos_max"] = (max(cos.values()) - 0.8) * 10
    f["bm25_top"] = lex.get(top_i, 0.0) / most if most else 0.0
    f["bm25_chosen"] = lex.get(mine_i, 0.0) / most if most else 0.0
    f["rank_bm25"] = ranks(lex, mine_i)
    f["rank_cos"] = ranks(cos, mine_i)
    r = round(1.0 / f["rank_bm25"] - 1)
    f["bm25_r"] = float(r)
    f["bm25_first"] = 1.0 if r == 0 else 0.0
    f["bm25_in_k"] = 1.0 if r < k else 0.0
    f["rank_bm25_log"] = 1.0 / (1.0 + math.log(1.0 + r))
    f["rank_bm25_top"] = ranks(lex, top_i)
    best_lex = max(lex.values()) if lex else 0.0
    f["bm25_rel"] = lex.get(mine_i, 0.0) / best_lex if best_lex else 0.0
    plain, plain_most = plain_of(q.question)
    f["rank_plain"] = ranks(plain, mine_i)
    f["plain_rel"] = plain.get(mine_i, 0.0) / max(plain.values()) if plain else 0.0
    return f


def scorers(pipe, semantic):
    """Per question: the cosine of every chunk and (BM25 score of every chunk, the most its terms score)."""
    r = pipe.retriever

    def cos_of(question):
        query = pipe.query(question)
        return r.cosines(query) if hasattr(r, "cosines") else semantic.scores(query)

    def lex_of(question):
        query = pipe.query(question)
        text = r.lexical_text(query) if hasattr(r, "lexical_text") else query.full
        bm25 = r.bm25
        terms, weights = weighted_terms(bm25, analyze(text))
        return bm25.scores(terms, weights), sum(w * bm25.max_impact.get(t, 0.0) for t, w in zip(terms, weights))

    def plain_of(question):
        """The question as read (no expansion) against the pipeline's own BM25 index: what the
        answer step could compute for any retriever."""
        bm25 = pipe._lexical_index()
        terms, weights = weighted_terms(bm25, analyze(pipe.read(question)))
        return bm25.scores(terms, weights), 0.0

    return cos_of, lex_of, plain_of


def collect():
    with open(MODEL, encoding="utf-8") as fh:
        m = json.load(fh)
    with memo():
        t0 = time.time()
        data = sets()
        print("sets", round(time.time() - t0), file=sys.stderr, flush=True)
        ours, fold_of, fold_weights, infos, got = folds(data)
        k = Config().k
        answers = answers_of(ours, fold_of, fold_weights, m, k)
        got["base"] = (labelled(ours, answers), list(zip(infos, answers)))
        extra = {}
        pipe0 = ours[0]["pipe"]
        docs = list(pipe0.docs.values()) if isinstance(pipe0.docs, dict) else pipe0.docs
        base = pipe0.config
        alts = {"bm25": Pipeline(docs, Config(base.chunker, "bm25", k, base.expand)),
                "semantic": Pipeline(docs, Config(base.chunker, "semantic", k, base.expand)),
                "unexpanded": Pipeline(docs, Config(base.chunker, base.retriever, k, False))}
        cos_of, lex_of, plain_of = scorers(pipe0, None)
        for e in ours:
            fm = Model(tuple(fold_weights[fold_of[e["question"].id]]), tuple([0.0] * len(CONFIDENCE_FEATURES)),
                       m["second"], m["adjacent"], m["runner"])
            extra[id(e["info"])] = features(e, fm, k, alts, cos_of, lex_of, plain_of)
        print("ours", round(time.time() - t0), file=sys.stderr, flush=True)
        full = Model(tuple(m["weights"]), tuple([0.0] * len(CONFIDENCE_FEATURES)), m["second"], m["adjacent"], m["runner"])
        for name in ("covid-qa-faq", "tydiqa-en"):
            exs = data[name]
            answers = served_answers(exs, m["weights"], m["second"], m["adjacent"], k, m["runner"])
            got["ext"][name] = (labelled(exs, answers), [(e["info"], a) for e, a in zip(exs, answers)])
            p = exs[0]["pipe"]
            pdocs = list(p.docs.values()) if isinstance(p.docs, dict) else p.docs
            sem = Pipeline(pdocs, Config(p.config.chunker, "semantic", k, p.config.expand))
            cos_of, lex_of, plain_of = scorers(p, sem.retriever)
            for e in exs:
                extra[id(e["info"])] = features(e, full, k, {"semantic": sem}, cos_of, lex_of, plain_of)
            print(name, round(time.time() - t0), file=sys.stderr, flush=True)
        got["extra"] = extra
        return got


def with_signals(extra, names):
    def add(info, answer):
        f = extra.get(id(info), {})
        return [f.get(n, 0.0) for n in names]
    return add


def main() -> int:
    got = collect()
    extra = got["extra"]
    if "--ranks" in sys.argv:
        cands = [["rank_bm25"], ["bm25_first"], ["bm25_in_k"], ["rank_bm25_log"], ["rank_bm25_top"], ["bm25_rel"],
                 ["rank_plain"], ["plain_rel"], ["rank_bm25", "bm25_chosen"], ["rank_bm25", "bm25_rel"],
                 ["rank_bm25", "rank_cos"], ["rank_plain", "rank_cos"], ["rank_bm25", "units_agree"]]
        buckets = {}
        for (lab, pair) in zip(got["base"][0], got["base"][1]):
            f = extra.get(id(pair[0]), {})
            if lab[0] is None or not lab[3]:
                continue
            b = min(int(f["bm25_r"]), 5)
            buckets.setdefault(b, [0, 0])[1 if lab[1] else 0] += 1
        print(json.dumps({"bm25 rank of the chosen chunk: [wrong, right]": {str(b): buckets[b] for b in sorted(buckets)}}))
    else:
        cands = [["units_agree"], ["values_agree"]] + [["unit_" + n] for n in ALTERNATES] + [["value_" + n] for n in ALTERNATES] + \
            [["unit_" + n for n in ALTERNATES]] + [["cos_top"], ["cos_chosen"], ["cos_max"], ["bm25_top"], ["bm25_chosen"],
                                               ["cos_top", "bm25_top"], ["rank_bm25"], ["rank_cos"], ["rank_bm25", "rank_cos"],
                                               ["units_agree", "rank_bm25", "rank_cos", "cos_top", "bm25_top"]]
    trials = [Trial("served (11 signals, L2 1)", columns(ALL))] + \
        [Trial("+ " + ", ".join(c), columns(ALL), extras=with_signals(extra, c)) for c in cands]
    ours = [extra.get(id(p[0]), {}) for p in got["base"][1]]
    summary = {n: round(sum(f.get(n, 0.0) for f in ours) / max(1, len(ours)), 3) for n in (ours[0] if ours else {})}
    print(json.dumps({"means (ours)": summary}), flush=True)
    for line in evaluate(got, trials):
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
