"""Which section of the first article: a trial of re-ordering an article's own chunks, dev split only.

    python bench/section_trial.py                   # recursive chunks, as served
    python bench/section_trial.py --chunker fixed
    python bench/section_trial.py --set tydiqa-en        # an external set's dev half

Of the dev questions whose evidence `bilingual` does not rank first, the most common case is
another section of the same article ranked first: the article is right, the section is
not. Every candidate here touches only that: the chunks of the first hit's article that
stand in the top ten are re-ordered among the places they hold (no other article's chunk
moves), by the fused score plus one signal:

- `weight=w`: the fused score at cosine weight `w` instead of the fitted one (within one
  article the encoder's cosines differ little and BM25's weigh the section's own words);
- `own-weight=w`: the same, only when the article is in the question's language (across
  languages BM25 reads the table's help-centre wording, which names the topic, not the
  section);
- `bangla-weight=w`: the same, only for a Bangla question in a Bangla article;
- `heading=h`: `h` times the share of the section heading's terms (idf-weighted; the
  headings below the title) that the question's BM25 text holds;
- `asking=a`: `a` times the BM25 score of the asking sentences alone
  (`answertypes.asking_sentences`; the whole question when it has one sentence), over the
  best such score;
- `opening=p`: the article's opening chunk (`bilingual.openings`) lowered by `p` more;
- `asking+opening=(a, p)`: the two together;
- `typed=t`: `t` for a chunk holding a span of a type the question asks for
  (`answertypes.question_types`, `accepts`, `typed_spans`; bare numbers and names aside):
  the asked section of a "how long" question states a duration, whatever its language.

Per candidate, per slice (language × kind, and each language), MRR@10 and recall@3 before
and after with the paired bootstrap of the difference (`evaluation.stats.paired`), and the
count of questions whose evidence moves up or down; the baseline is `bilingual` without
its step 6, which is `bangla-weight=0.6`, the one candidate served (the only one whose
Bangla MRR@10 interval lies above 0 on recursive chunks, as it does on fixed ones, while
no other slice moves). Nothing is fitted and test questions are never read.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from fit_fusion import default_sets  # noqa: E402
from fitting import dev_ranking, print_slice_tables, served_queries  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.retrieval.bilingual import BilingualRetriever  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.retrieval.ranking import Hit, sections_reordered  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from raglab.text.answertypes import accepts, asking_sentences, question_types, typed_spans  # noqa: E402

CANDIDATES = ([("weight", w) for w in (0.5, 0.6, 0.7, 0.95, 1.0)]
              + [("heading", h) for h in (0.01, 0.02, 0.04, 0.08)]
              + [("asking", a) for a in (0.02, 0.05, 0.1, 0.2)]
              + [("opening", p) for p in (0.01, 0.025, 0.05)]
              + [("asking+opening", (0.1, 0.05))]
              + [("typed", t) for t in (0.005, 0.01, 0.02, 0.04)]
              + [("own-weight", w) for w in (0.5, 0.6, 0.7, 0.75, 0.8)]
              + [("bangla-weight", w) for w in (0.5, 0.6, 0.65, 0.7, 0.75)])


LOW_SPANS = ("number", "name")  # a bare number or an English name is in nearly every section


def heading_share(bm25, heading: tuple[str, ...], terms: set[str]) -> float:
    """The idf-weighted share of the terms of the headings below the title found in `terms`."""
    own = sorted(set(analyze(" ".join(heading[1:]))))
    total = sum(bm25.idf(t) for t in own)
    return sum(bm25.idf(t) for t in own if t in terms) / total if total > 0 else 0.0


def first_rank(hits: list[Hit], relevant) -> int | None:
    return next((k for k, h in enumerate(hits, 1) if h.index in relevant), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunker", default="recursive")
    parser.add_argument("--set", default="ours", help="ours, or an external set's name (its dev half)")
    args = parser.parse_args()
    if args.set == "ours":
        docs, questions, chunks, cover, r = dev_ranking(ROOT, args.chunker)
    else:
        corpus, goldens = next((c, g) for name, c, g in default_sets() if name == args.set)
        docs = load_corpus(corpus)
        questions = [q for q in load_goldens(goldens, docs) if q.split == "dev" and q.answerable]
        chunks = chunk_corpus(docs, args.chunker)
        cover, r = coverage_index(chunks, questions, 0.5), BilingualRetriever(chunks, chunker=args.chunker)
    r.section_weight = r.weight  # the baseline is the ranking before step 6, which `bangla-weight=0.6` serves
    chunk_docs = [c.doc for c in chunks]
    held = [{s.type for s in typed_spans(c.text)} for c in chunks]
    ranks: dict[tuple, list[int | None]] = {("served", 0): []}
    ranks.update({c: [] for c in CANDIDATES})
    for q, query in zip(questions, served_queries(docs, questions)):
        cos, lexical = r.cosines(query), r.lexical_scores(query)
        fused = r.fused(cos, lexical)
        served = r.search(query, 10)
        ranks[("served", 0)].append(first_rank(served, cover[q.id]))
        terms = set(analyze(r.lexical_text(query)))
        asking = " ".join(asking_sentences(query.text)) or query.text
        said = r.bm25.scores(*weighted_terms(r.bm25, analyze(asking)))
        top = max(said.values()) if said else 0.0
        wanted = {t for qtype in question_types(query.text) for t in accepts(qtype) if t not in LOW_SPANS}
        for name, x in CANDIDATES:
            if name == "weight":
                key = r.fused(cos, lexical, x)
            elif name == "own-weight":
                key = r.fused(cos, lexical, x) if r.langs[served[0].index] == query.lang else fused
            elif name == "bangla-weight":
                key = r.fused(cos, lexical, x) if r.langs[served[0].index] == query.lang == "bn" else fused
            elif name == "heading":
                key = {h.index: fused[h.index] + x * heading_share(r.bm25, chunks[h.index].heading, terms) for h in served}
            elif name == "asking":
                key = {h.index: fused[h.index] + (x * said.get(h.index, 0.0) / top if top else 0.0) for h in served}
            elif name == "typed":
                key = {h.index: fused[h.index] + (x if wanted & held[h.index] else 0.0) for h in served}
            elif name == "opening":
                key = {h.index: fused[h.index] - (x if r.opening[h.index] else 0.0) for h in served}
            else:
                a, p = x
                key = {h.index: fused[h.index] + (a * said.get(h.index, 0.0) / top if top else 0.0)
                       - (p if r.opening[h.index] else 0.0) for h in served}
            ranks[(name, x)].append(first_rank(sections_reordered(served, chunk_docs, key), cover[q.id]))
    print_slice_tables(questions, ranks, CANDIDATES)


if __name__ == "__main__":
    main()
