"""Which section of the first hit's article: re-orderings inside it, as paired tests on dev only.

    python bench/article_section_trial.py --read            # where our low ranks' evidence lies
    python bench/article_section_trial.py                   # every candidate
    python bench/article_section_trial.py --only local      # one (local, rrf, twin, residual,
                                                            #   heading, continuation)

Most of our dev low ranks are another section of the evidence's own article ranked first. Step 6
of `bilingual` re-orders a Bangla question's Bangla article by the fused score at a lower cosine
weight; these candidates re-order the first hit's article's chunks among the places they hold in
the served first ten (no other article's chunk moves, as in step 6), by another key. Where the
key adds to a score, it adds to the one the served ranking orders that article by (step 6's for
a Bangla question in a Bangla article, else the fused score), so that a signal of 0 moves
nothing but step 5's asked section. An English question whose first hit is Bangla is left alone
in the gated rows (step 3 chose that chunk on a score of its own).

- ``local``: both sides min–max scaled over the article's own chunks before they are mixed at w.
  The fused score scales each side over the whole corpus, so inside one article the side whose
  scores lie closer together there (mostly the encoder: every section shares the topic) still
  decides whenever its spread over the corpus is the larger; scaled over the article, the side
  that tells its sections apart more clearly counts as much as the other at w 0.5.
- ``rrf``: inside the article, 1/(k + cosine rank) + 1/(k + BM25 rank) over its chunks.
- ``twin``: every chunk whose article has a twin in the other language (`ranking.twin_articles`)
  adds g × the fused score of its counterpart there, the twin's chunk whose vector is closest to
  its own (the same section in the other language): a question's own words meet the section in
  its own language, which BM25 reads, while the article asked may be the other language's.
- ``residual``: the cosine of the question with what sets a chunk apart from its article, the
  chunk's vector minus the article's mean vector, min–max scaled over the article and added at g:
  the topic every section shares is taken out of both.
- ``heading``: the question's encoder cosine with the chunk's heading path alone, min–max scaled
  over the article and added at g (tried before over the whole ranking, not inside an article).
- ``continuation``: the other half of the first hit's section (same article and heading path:
  the chunker cut it in two) moved up to the second place from within the first `depth` hits.

Each as `paired_retrieval_trial.py` reports it (served against the candidate per set and slice,
95% intervals, the paired difference and the slice guard). Nothing is fitted or written, and test
questions are never read.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, HERE)

from paired_retrieval_trial import compare, served_change  # noqa: E402
from raglab.retrieval.bilingual import bridged  # noqa: E402
from raglab.retrieval.ranking import rounded  # noqa: E402
from raglab.retrieval.semantic import reading  # noqa: E402
from screen_candidates import chunk_cosines  # noqa: E402
from third_reading_trial import full_rank, heading_matrix, served_screen  # noqa: E402


def reordered(order: list[int], docs: list[str], key: dict[int, float]) -> list[int]:
    """`order` with the first hit's article's chunks re-ordered among the places they hold, by
    `key` (highest first, ties to the earlier place)."""
    if not order:
        return order
    doc = docs[order[0]]
    places = [n for n, i in enumerate(order) if docs[i] == doc]
    ranked = sorted(places, key=lambda n: (-rounded(key[order[n]]), n))
    out = list(order)
    for n, m in zip(places, ranked):
        out[n] = order[m]
    return out


def article_chunks(s, doc: str) -> list[int]:
    key = ("article", doc)
    if key not in s.memo:
        s.memo[key] = [i for i, d in enumerate(s.r.docs) if d == doc]
    return s.memo[key]


def span_scaled(values: dict[int, float]) -> dict[int, float]:
    lo, hi = min(values.values()), max(values.values())
    return {i: (v - lo) / (hi - lo) if hi > lo else 0.0 for i, v in sorted(values.items())}


def base_key(s, query, order, fused) -> dict[int, float]:
    """What the served ranking orders the first article's chunks by: step 6's score for a Bangla
    question whose first hit is Bangla, else the fused score."""
    if query.lang == "bn" and s.r.langs[order[0]] == "bn":
        cos, lex = s.memo["parts"]
        return s.r.fused(cos, lex, s.r.section_weight)
    return fused


def gated(langs):
    """Whether a question and its first hit's article are in the language pairs `langs`
    ("bn>bn": a Bangla question, a Bangla article; None: every question)."""
    def ok(s, query, order) -> bool:
        return langs is None or f"{query.lang}>{s.r.langs[order[0]]}" in langs
    return ok


def inside_first(langs, reorder):
    """A candidate's ranking: the served one, handed to `reorder(s, query, fused, order)` when there
    is a first hit and the question and its article are in the pairs `langs` (`gated`)."""
    ok = gated(langs)

    def rank(s, query, fused):
        order = full_rank(s, query, fused)
        return reorder(s, query, fused, order) if order and ok(s, query, order) else order
    return rank


def local(w: float, langs=None):
    """Inside the first hit's article, both sides min–max scaled over its chunks, mixed at w."""
    def reorder(s, query, fused, order):
        cos, lex = s.memo["parts"]
        own = article_chunks(s, s.r.docs[order[0]])
        c = span_scaled({i: cos[i] for i in own})
        b = span_scaled({i: lex.get(i, 0.0) for i in own})
        return reordered(order, s.r.docs, {i: w * c[i] + (1.0 - w) * b[i] for i in own})
    return inside_first(langs, reorder)


def counterparts(s) -> dict[int, int]:
    """Each chunk of an article with a twin: the twin's chunk whose vector is closest to its own."""
    if "counterparts" not in s.memo:
        twins = s.r.twins()
        out = {}
        for i, doc in enumerate(s.r.docs):
            twin = twins.get(doc)
            if twin is None:
                continue
            near = chunk_cosines(s, i)
            out[i] = max(article_chunks(s, twin), key=lambda j: (rounded(near[j]), -j))
        s.memo["counterparts"] = out
    return s.memo["counterparts"]


def twin(g: float, langs=None):
    def reorder(s, query, fused, order):
        pair = counterparts(s)
        own = article_chunks(s, s.r.docs[order[0]])
        base = base_key(s, query, order, fused)
        return reordered(order, s.r.docs, {i: base[i] + (g * fused[pair[i]] if i in pair else 0.0) for i in own})
    return inside_first(langs, reorder)


def residual_norms(s, doc: str) -> dict[int, float]:
    """|v_i − m| for each chunk of `doc`, m its article's mean vector (unit vectors: from the
    chunks' cosines with each other)."""
    key = ("residual", doc)
    if key not in s.memo:
        own = article_chunks(s, doc)
        rows = {i: chunk_cosines(s, i) for i in own}
        mean_all = math.fsum(rows[i][j] for i in own for j in own) / (len(own) ** 2)
        s.memo[key] = {i: math.sqrt(max(1.0 - 2.0 * math.fsum(rows[i][j] for j in own) / len(own) + mean_all, 1e-12))
                       for i in own}
    return s.memo[key]


def residual(g: float, langs=None):
    def reorder(s, query, fused, order):
        cos = s.memo["parts"][0]
        doc = s.r.docs[order[0]]
        own = article_chunks(s, doc)
        mean = math.fsum(cos[i] for i in own) / len(own)
        norms = residual_norms(s, doc)
        r = span_scaled({i: (cos[i] - mean) / norms[i] for i in own})
        base = base_key(s, query, order, fused)
        return reordered(order, s.r.docs, {i: base[i] + g * r[i] for i in own})
    return inside_first(langs, reorder)


def local_ranks(k: float, langs=None):
    """Inside the first hit's article, reciprocal-rank fusion of the two sides' orders over its
    chunks, 1/(k + cosine rank) + 1/(k + BM25 rank), ties to the fused score."""
    def reorder(s, query, fused, order):
        cos, lex = s.memo["parts"]
        own = article_chunks(s, s.r.docs[order[0]])
        by_cos = {i: n for n, i in enumerate(sorted(own, key=lambda i: (-rounded(cos[i]), i)), 1)}
        by_lex = {i: n for n, i in enumerate(sorted(own, key=lambda i: (-rounded(lex.get(i, 0.0)), i)), 1)}
        return reordered(order, s.r.docs, {i: 1.0 / (k + by_cos[i]) + 1.0 / (k + by_lex[i]) + 1e-6 * fused[i] for i in own})
    return inside_first(langs, reorder)


def heading_cosines(s, query) -> dict[int, float]:
    """The question's cosine with each chunk's heading path alone (the other language's chunks
    bridged with the translated reading, as served)."""
    matrix = heading_matrix(s, False)
    got = s.text_cosines(reading(query.text), matrix)
    other = s.r.translation(query)
    return got if other is None else bridged(got, s.text_cosines(reading(other), matrix), s.r.langs, query.lang)


def heading(g: float, langs=None):
    """Inside the first hit's article, the fused score plus g × the heading path's cosine,
    min–max scaled over the article's chunks: every section of one article shares its text's
    topic, while its heading names what that section answers."""
    def reorder(s, query, fused, order):
        own = article_chunks(s, s.r.docs[order[0]])
        h = heading_cosines(s, query)
        scaled_h = span_scaled({i: h[i] for i in own})
        base = base_key(s, query, order, fused)
        return reordered(order, s.r.docs, {i: base[i] + g * scaled_h[i] for i in own})
    return inside_first(langs, reorder)


def section_of(s, i: int) -> tuple:
    return (s.r.docs[i], s.chunks[i].heading)


def continuation(place: int, depth: int | None, langs=None):
    """The other half of the first hit's section (a chunk of the same article under the same
    heading path: the chunker cut the section in two) moved up to `place` (1-based) when it ranks
    below it, among the first `depth` hits (None: anywhere, by the served fused score)."""
    def reorder(s, query, fused, order):
        first = section_of(s, order[0])
        halves = [i for i in article_chunks(s, s.r.docs[order[0]]) if i != order[0] and section_of(s, i) == first]
        if not halves:
            return order
        pool = order[:depth] if depth else order + sorted((i for i in halves if i not in order),
                                                            key=lambda i: (-rounded(fused[i]), i))
        got = [n for n, i in enumerate(pool) if i in halves]
        if not got or got[0] < place:
            return order
        half = pool[got[0]]
        return (order[:place - 1] + [half] + [i for i in order[place - 1:] if i != half])[:len(order)]
    return inside_first(langs, reorder)


SAME = ("en>en", "bn>bn", "bn>en")  # not an English question whose first hit is Bangla: step 3 chose that chunk
CANDIDATES = {
    "local": [(f"local w {w} {'+'.join(g) if g else 'all'}", local(w, g)) for w in (0.5, 0.7) for g in (None, ("en>en", "bn>bn"))],
    "rrf": [(f"local rrf k {k} en>en", local_ranks(k, ("en>en",))) for k in (1, 3)],
    "twin": [(f"twin g {g}", twin(g, SAME)) for g in (0.1, 0.2)],
    "residual": [(f"residual g {g}", residual(g, SAME)) for g in (0.02, 0.05)],
    "heading": [(f"heading g {g} {'+'.join(langs)}", heading(g, langs)) for g in (0.02, 0.05)
                for langs in (SAME, ("en>en", "bn>bn"))],
    "continuation": [(f"continuation place 2 depth {d}", continuation(2, d)) for d in (3, 10, None)],
}


def read(screen) -> None:
    """Our dev questions ranked 2nd to 10th or out, by where the evidence lies against the first hit."""
    s = screen.ours
    counts: dict[str, int] = {}
    for (q, query, cos, lex), (rr, r3) in zip(s.items, screen.base["ours"]):
        if rr == 1.0:
            continue
        s.memo["parts"] = (cos, lex)
        order = full_rank(s, query, s.r.fused(cos, lex))
        wanted = set(s.cover[q.id])
        first = s.r.docs[order[0]]
        docs = {s.r.docs[i] for i in wanted}
        where = ("first's article" if first in docs else
                 "first's twin" if s.r.twins().get(first) in docs else "elsewhere")
        cls = f"{q.lang}>{s.r.langs[order[0]]} {where}"
        counts[cls] = counts.get(cls, 0) + 1
    for cls in sorted(counts):
        print(f"{cls}: {counts[cls]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=list(CANDIDATES))
    parser.add_argument("--read", action="store_true", help="where our low ranks' evidence lies")
    args = parser.parse_args()
    screen = served_screen(forget_parts=True)
    if args.read:
        read(screen)
        return
    for name in args.only or CANDIDATES:
        for label, rank in CANDIDATES[name]:
            compare(screen, label, served_change, rank, False)


if __name__ == "__main__":
    main()
