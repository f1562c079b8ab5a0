"""A trial for the paraphrase slice: the encoder's side of `bilingual` read per sentence.

Each served (recursive) chunk's cosine becomes a mix of its own cosine and the best cosine of
the sentences it holds (the `sentence` chunker's chunks, whose vectors the page already ships
for the Evaluate tab): alpha * chunk + (1 - alpha) * max over its sentences, for the question as
typed and for its translated reading alike, then fused and placed as served. A chunk that
covers several topics has a vector of their mean; a paraphrase may meet one sentence of it
better than the whole. Prints recall@3 and MRR@10 per alpha, by kind and language.

    .venv/bin/python bench/sentence_vectors_trial.py                      # our dev split
    .venv/bin/python bench/sentence_vectors_trial.py --corpus goldens/external/tydiqa-en/corpus \\
        --goldens goldens/external/tydiqa-en/questions.jsonl
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus, index_text  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.encoder import PASSAGE  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.evaluation.metrics import gains, recall_at, reciprocal_rank  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.retrieval.bilingual import bridged  # noqa: E402
from raglab.retrieval.semantic import reading  # noqa: E402

ALPHAS = (1.0, 0.75, 0.5, 0.25, 0.0)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", default="dev", choices=("dev", "test", "all"))
    p.add_argument("--corpus", default=os.path.join(ROOT, "corpus"))
    p.add_argument("--goldens", default=os.path.join(ROOT, "goldens", "questions.jsonl"))
    args = p.parse_args(argv)
    docs = load_corpus(args.corpus)
    qs = [q for q in load_goldens(args.goldens, docs) if q.answerable and args.split in ("all", q.split)]
    pipe = Pipeline(docs, Config())
    r = pipe.retriever
    cache = r.semantic.cache
    sentences = chunk_corpus(docs, "sentence")
    matrix = cache.get([PASSAGE + index_text(c) for c in sentences], progress=True)
    by_doc: dict[str, list[int]] = {}
    for j, s in enumerate(sentences):
        by_doc.setdefault(s.doc, []).append(j)
    members = [[j for j in by_doc.get(c.doc, []) if sentences[j].start < c.end and c.start < sentences[j].end]
               for c in pipe.chunks]
    cover = coverage_index(pipe.chunks, qs, 0.5)

    def best_sentence(text: str, chunk_cos: dict[int, float]) -> dict[int, float]:
        v = cache.get([reading(text)], keep=False)
        sc = [float(x) for x in cache.encoder.dots(v, matrix)]
        return {i: max(sc[j] for j in members[i]) if members[i] else chunk_cos[i] for i in chunk_cos}

    got: dict[float, list[tuple]] = {a: [] for a in ALPHAS}
    for q in qs:
        query = pipe.query(q.question)
        typed, other = r.semantic.scores(query), r.translation(query)
        typed_best = best_sentence(query.text, typed)
        if other is not None:
            trans = r.semantic.text_scores(other)
            trans_best = best_sentence(other, trans)
        lexical = r.lexical_scores(query)
        for a in ALPHAS:
            cos = {i: a * typed[i] + (1 - a) * typed_best[i] for i in typed}
            if other is not None:
                cos = bridged(cos, {i: a * trans[i] + (1 - a) * trans_best[i] for i in trans}, r.langs, query.lang)
            hits = r.ranked(r.fused(cos, lexical), query, 10, r.place_choice(cos, lexical))
            g = gains([cover[q.id].get(h.index, frozenset()) for h in hits])
            got[a].append((recall_at(g, q.n_facts, 3), reciprocal_rank(g, 10), q.kind, q.lang))
    for a in ALPHAS:
        rows = got[a]
        line = (f"alpha {a:.2f}: recall@3 {statistics.fmean(x[0] for x in rows):.3f} "
                f"MRR@10 {statistics.fmean(x[1] for x in rows):.3f}")
        for name, pick in [(k, lambda x, k=k: x[2] == k) for k in sorted({x[2] for x in rows})] + \
                          [(lang, lambda x, lang=lang: x[3] == lang) for lang in ("en", "bn")]:
            sel = [x for x in rows if pick(x)]
            if sel:
                line += f" | {name} {statistics.fmean(x[1] for x in sel):.3f} ({len(sel)})"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
