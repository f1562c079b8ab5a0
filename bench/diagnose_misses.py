"""Where `bilingual` ranks the evidence of the questions it misses, on the dev split only.

    python bench/diagnose_misses.py                    # the served chunker
    python bench/diagnose_misses.py --chunker fixed

For every answerable dev question whose first covering chunk is not in the top k, one row:
its slice, the rank of that chunk under the fused score, under the centred cosines alone,
the raw cosines alone (typed, and translated for the other language, as `bilingual` reads
them) and BM25 alone (over the bilingual expansion, as `bilingual` reads it), and, for
crosslingual questions, its rank among the other language's chunks only (what the third
place for the other language can reach), its rank under the fused score among the chunks of
its own article (the evidence chunk with the best such rank), and what the top k hold instead (`miss_class`: a
chunk of an article holding the evidence, "same article"; of that article's twin in the
other language, "twin article", our articles' ids being the language and the topic, en-pin and
bn-pin; or neither, "other article"). Then each slice's misses, and each class's, counted.
It reads what the retriever computes; nothing is tuned here, and test questions are never read.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from fitting import dev_ranking, served_queries  # noqa: E402
from raglab.pipeline import Config  # noqa: E402
from raglab.retrieval.bilingual import centred  # noqa: E402
from raglab.retrieval.ranking import top_n  # noqa: E402


def first_rank(scores: dict[int, float], relevant) -> int | None:
    """The 1-based rank of the first relevant chunk in `scores` (ranked as the retrievers rank)."""
    for rank, hit in enumerate(top_n(scores, len(scores)), 1):
        if hit.index in relevant:
            return rank
    return None


def twin(doc: str) -> str:
    """The id of an article's twin in the other language (our ids: language, then topic).

    >>> twin("bn-pin"), twin("en-cash-out")
    ('en-pin', 'bn-cash-out')
    """
    lang, _, topic = doc.partition("-")
    return ("bn-" if lang == "en" else "en-") + topic


def miss_class(top_docs: set[str], evidence_docs: set[str]) -> str:
    """What a miss's top k hold instead of the evidence (see the module docstring)."""
    if top_docs & evidence_docs:
        return "same article"
    if top_docs & {twin(d) for d in evidence_docs}:
        return "twin article"
    return "other article"


CAUSES = ("the section is cut in two and the top k hold its other half",
          "the other language's evidence held down (among that language's first two)",
          "the encoder ranks another chunk far above (BM25 1st-3rd, cosine beyond 10th)",
          "a vocabulary gap (neither side in its first ten)",
          "a neighbouring section of the evidence's article or its twin",
          "another article's like section")


def cause(cells, kind: str, top, evidence, crosslingual: bool) -> str:
    """One main cause of a miss by rules, the first that holds, in the order of `CAUSES`:
    a chunk of the top k follows or precedes a covering chunk under the same heading path;
    a crosslingual question's evidence ranks first or second among the other language's
    chunks; BM25 ranks it in its first three and the centred cosines beyond their tenth;
    neither side ranks it in its first ten; the top k hold a chunk of its article (or twin)."""
    fused, centred_rank, _raw, bm25, other, _article = cells
    if any(t.doc == e.doc and t.heading == e.heading and abs(t.start - e.start) > 0 for t in top for e in evidence):
        return CAUSES[0]
    if crosslingual and other is not None and other <= 2:
        return CAUSES[1]
    if bm25 is not None and bm25 <= 3 and centred_rank > 10:
        return CAUSES[2]
    if (bm25 is None or bm25 > 10) and centred_rank > 10:
        return CAUSES[3]
    if kind != "other article":
        return CAUSES[4]
    return CAUSES[5]


def slice_of(q) -> str:
    if q.kind == "crosslingual":
        return "crosslingual en→bn" if q.lang == "en" else "crosslingual bn→en"
    return f"{q.lang} {q.kind}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunker", default=Config().chunker)
    parser.add_argument("-k", type=int, default=Config().k)
    parser.add_argument("--causes", action="store_true", help="give each miss a cause by the rules of `cause` and count them")
    parser.add_argument("--goldens", default=None, help="another question file (e.g. a fresh probe) instead of our dev split")
    args = parser.parse_args()
    docs, questions, chunks, cover, retriever = dev_ranking(ROOT, args.chunker, args.goldens)
    langs = retriever.langs
    print("| question | slice | fused | centred cosine | raw cosine | BM25 | among the other language | in its article | top chunk | top k hold |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---|")
    misses: dict[str, int] = {}
    classes: dict[str, int] = {}
    causes: dict[str, dict[str, int]] = {}
    for q, query in zip(questions, served_queries(docs, questions)):
        relevant = cover[q.id]
        ranked = [h.index for h in retriever.search(query, max(args.k, 10))]
        if any(i in relevant for i in ranked[:args.k]):
            continue
        misses[slice_of(q)] = misses.get(slice_of(q), 0) + 1
        cos = retriever.cosines(query)  # as the retriever reads them: typed, and translated for the other language
        lexical = retriever.lexical_scores(query)
        fused = retriever.fused(cos, lexical)
        other = {i: s for i, s in fused.items() if langs[i] != query.lang}
        cells = [first_rank(fused, relevant), first_rank(centred(cos, langs), relevant), first_rank(cos, relevant),
                 first_rank(lexical, relevant) if lexical else None,
                 first_rank(other, relevant) if q.kind == "crosslingual" else None,
                 min(first_rank({i: f for i, f in fused.items() if chunks[i].doc == chunks[e].doc}, relevant)
                     for e in relevant)]
        kind = miss_class({chunks[i].doc for i in ranked[:args.k]}, {chunks[i].doc for i in relevant})
        classes[kind] = classes.get(kind, 0) + 1
        why = cause(cells, kind, [chunks[i] for i in ranked[:args.k]], [chunks[e] for e in sorted(relevant)],
                    q.kind == "crosslingual") if args.causes else None
        if why:
            causes.setdefault(why, {})[slice_of(q)] = causes.get(why, {}).get(slice_of(q), 0) + 1
        print(f"| {q.id} | {slice_of(q)} | " + " | ".join("—" if c is None else str(c) for c in cells)
              + f" | {chunks[ranked[0]].id} | {kind} |" + (f" {why} |" if why else ""))
    print("\nmisses at k = %d per slice: " % args.k + ", ".join(f"{s} {n}" for s, n in sorted(misses.items())))
    print("what the top %d hold instead: " % args.k + ", ".join(f"{c} {n}" for c, n in sorted(classes.items())))
    for why in CAUSES:
        if why in causes:
            print(f"{why}: {sum(causes[why].values())} (" + ", ".join(f"{s} {n}" for s, n in sorted(causes[why].items())) + ")")


if __name__ == "__main__":
    main()
