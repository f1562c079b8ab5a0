"""Trials for questions worded unlike the article (paraphrases, long stories), dev splits only.

    .venv/bin/python bench/paraphrase_trials.py

For every answerable dev question of our set and the external sets' dev halves it computes,
once, what `bilingual` computes (cosines as typed, of the asking sentences alone and
translated; the BM25 side) and a few query-level signals, then ranks each question under
each trial and prints MRR@10 per set and, on ours, per slice (bench/slice_intervals.py's,
and the story questions q650 on, written about the articles the set covered least):

- `whole`: the encoder reads the whole question only, at the fitted fusion weight;
- `asking s`: a question told as a story is also read as its asking sentences alone
  (`asking` below), mixed into the cosine at share s (not served: see docs/pipeline.md,
  "Paraphrases and story questions");
- `peak hi→lo`: a per-question fusion weight that falls from hi to lo as BM25's best score
  stands clear of its second (``1 − second / best``): a question whose words single out a
  chunk is trusted to its words, one whose words spread to the encoder;
- `cover lo→hi`: a weight that rises with the share of the question's idf mass no chunk
  holds (words the help centre does not use);
- `top d`: the cosines min–max scaled between the d-th best and the best (0 below)
  instead of over every chunk;
- `bm25 asking s`: the BM25 side also scores the asking sentences, at s of their weight.

It changes nothing in the package; test splits are never read.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

import fitting  # noqa: E402
from fit_fusion import default_sets  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.evaluation.metrics import gains, reciprocal_rank  # noqa: E402
from raglab.retrieval.bilingual import BilingualRetriever, bridged, centred, demoted  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from raglab.text.answertypes import asking_sentences  # noqa: E402

SLICES = (
    ("all", lambda q: True),
    ("paraphrase", lambda q: q.kind == "paraphrase"),
    ("Bangla", lambda q: q.lang == "bn"),
    ("xl en→bn", lambda q: q.kind == "crosslingual" and q.lang == "en"),
    ("xl bn→en", lambda q: q.kind == "crosslingual" and q.lang == "bn"),
    ("typo", lambda q: q.kind == "typo"),
    ("q650+", lambda q: q.id >= "q650"),
)



def asking(text: str) -> str | None:
    """The asking sentences of a question told as a story, for the encoder to read alone; None
    for a question of one sentence, one that asks nothing with a question mark, or one whose
    every sentence asks."""
    asks = asking_sentences(text)
    joined = " ".join(asks)
    return joined if asks and joined != " ".join(text.split()) else None


def mixed(whole: dict[int, float], asked: dict[int, float], share: float) -> dict[int, float]:
    """``(1 - share) * whole + share * asked`` for every chunk."""
    return {i: (1.0 - share) * whole[i] + share * asked[i] for i in sorted(whole)}

def signals(served: BilingualRetriever, query, lexical: dict[int, float]) -> dict[str, float]:
    top = sorted(lexical.values(), reverse=True)
    best = top[0] if top else 0.0
    second = top[1] if len(top) > 1 else 0.0
    peak = 1.0 - second / best if best > 0 else 0.0
    terms = analyze(query.text)
    total = found = 0.0
    for t in terms:
        idf = served.bm25.idf(t)
        total += idf
        if t in served.bm25.df:
            found += idf
    missing = 1.0 - found / total if total > 0 else 1.0
    return {"peak": peak, "missing": missing, "words": float(len(query.text.split()))}


def gather(corpus_dir: str, goldens_path: str):
    docs = load_corpus(corpus_dir)
    questions = [q for q in load_goldens(goldens_path, docs) if q.split == "dev" and q.answerable]
    chunks = chunk_corpus(docs, "recursive")
    cover = coverage_index(chunks, questions, 0.5)
    served = BilingualRetriever(chunks, chunker="recursive")
    rows = []
    for q, query in zip(questions, fitting.served_queries(docs, questions)):
        lex = served.lexical_scores(query)
        other = served.translation(query)
        translated = None if other is None else served.semantic.text_scores(other)

        def bridge(typed):
            return typed if translated is None else bridged(typed, translated, served.langs, query.lang)

        cos = bridge(served.semantic.scores(query))
        asks = asking_sentences(query.text) if asking(query.text) is not None else []
        asked = bridge(served.semantic.text_scores(" ".join(asks))) if asks else None
        sig = signals(served, query, lex)
        sig["lex_ask"] = served.bm25.scores(*weighted_terms(served.bm25, analyze(" ".join(asks)))) if asks else None
        rows.append((q, query, cos, lex, asked, sig, cover[q.id]))
    return served, rows


DEPTH = [None]  # set by main for the `top d` trials: how the cosines are scaled


def fused_top(served, cosines, lex, weight, depth):
    """`served.fused` with the cosines scaled between the `depth`-th best and the best
    (below the `depth`-th: 0), instead of between the worst and the best."""
    c = centred(cosines, served.langs)
    ordered = sorted(c.values(), reverse=True)
    hi, lo = ordered[0], ordered[min(depth, len(ordered)) - 1]
    span = hi - lo
    top = max(lex.values()) if lex else 0.0
    out = {}
    for i in sorted(c):
        x = max(0.0, (c[i] - lo) / span) if span > 0 else 0.0
        b = lex.get(i, 0.0) / top if top > 0 else 0.0
        out[i] = weight * x + (1.0 - weight) * b
    return demoted(out, served.opening, served.opening_penalty)


LEX_SHARE = [0.0]  # set by main for the `bm25 asking` trials


def mrr_of(served, row, weight: float, cos=None) -> float:
    q, query, cosines, lex, _, sig, found = row
    extra = sig["lex_ask"]
    if LEX_SHARE[0] and extra:
        lex = {i: lex.get(i, 0.0) + LEX_SHARE[0] * extra.get(i, 0.0) for i in sorted(set(lex) | set(extra))}
    c = cosines if cos is None else cos
    choice = served.place_choice(c, lex)
    scores = served.fused(c, lex, weight) if DEPTH[0] is None else fused_top(served, c, lex, weight, DEPTH[0])
    ranked = [h.index for h in served.ranked(scores, query, 10, choice)]
    return reciprocal_rank(gains([found.get(i, frozenset()) for i in ranked]), 10)


def report(name: str, data, weight_of, cos_of=None) -> list[float]:
    out = []
    line = f"| {name} |"
    for set_name, (served, rows) in data.items():
        rr = [mrr_of(served, r, weight_of(r), None if cos_of is None else cos_of(r)) for r in rows]
        out.append(sum(rr) / len(rr))
        line += f" {out[-1]:.3f} |"
        if set_name == "ours":
            for _, member in SLICES[1:]:
                sel = [x for x, r in zip(rr, rows) if member(r[0])]
                line += f" {sum(sel) / len(sel):.3f} |"
    line += f" {sum(out) / len(out):.3f} |"
    print(line, flush=True)
    return out


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    data = {}
    for name, corpus_dir, questions in default_sets():
        print(f"gathering {name} ...", file=sys.stderr, flush=True)
        data[name] = gather(corpus_dir, questions)
    w0 = data["ours"][0].weight
    print("| trial | ours | " + " | ".join(s for s, _ in SLICES[1:]) + " | " + " | ".join(list(data)[1:]) + " | mean |")
    print("|---|" + "---:|" * (len(data) + len(SLICES)))

    def with_asking(share):
        return lambda r: r[2] if r[4] is None else mixed(r[2], r[4], share)

    report("whole", data, lambda r: w0)
    for share in (0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75):
        report(f"asking {share}", data, lambda r: w0, with_asking(share))
    for hi in (0.85, 0.9, 0.95):
        for lo in (0.5, 0.6, 0.7, 0.8):
            report(f"peak {hi}→{lo}", data, lambda r, hi=hi, lo=lo: hi - (hi - lo) * r[5]["peak"])
    for lo in (0.6, 0.7, 0.75):
        report(f"asking 0.2 + peak {w0}→{lo}", data, lambda r, lo=lo: w0 - (w0 - lo) * r[5]["peak"], with_asking(0.2))
    for lo in (0.7, 0.8, 0.85):
        for hi in (0.9, 0.95, 1.0):
            report(f"cover {lo}→{hi}", data, lambda r, hi=hi, lo=lo: lo + (hi - lo) * r[5]["missing"])
    for depth in (10, 20, 50, 100):
        DEPTH[0] = depth
        for w in (0.5, 0.6, 0.7, 0.85):
            report(f"top {depth}, weight {w}", data, lambda r, w=w: w)
    DEPTH[0] = None
    for share in (0.25, 0.5, 1.0):
        LEX_SHARE[0] = share
        report(f"bm25 asking {share} + asking 0.2", data, lambda r: w0, with_asking(0.2))
    LEX_SHARE[0] = 0.0

if __name__ == "__main__":
    main()
