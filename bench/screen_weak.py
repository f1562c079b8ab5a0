"""Changes to `bilingual` aimed at its two weakest dev slices, screened on the dev splits only.

    python bench/screen_weak.py                          # every candidate's grid
    python bench/screen_weak.py --only place-weight      # one candidate (see --help for names)
    python bench/screen_weak.py --before --moved         # ranked as before the place weight;
                                                         # list what moves

The weak slices are English paraphrases and English questions whose fact only a Bangla
article states (en→bn). Every answerable dev question of our set and of the external sets'
dev halves is ranked as the served retriever ranks it (recursive chunks, `bilingual`,
expansion on, the fitted weight, margin, opening penalty and place weight; a Banglish
question read in Bangla script, as `Pipeline.read` reads it, so our figures are
`slice_intervals.py`'s), except for the one change a candidate makes. Each row gives
MRR@10 per set and the three-set mean (each set once, as the fits count them), then
recall@3 / MRR@10 on our dev slices; the first value of every grid is the served ranking.
A slice figure outside the served figure's 95% bootstrap interval (2,000 resamples over
the slice's questions, compare's seed) is starred. `--moved` lists, under each row, our
questions whose first covering chunk moves (rank before → after, ">10" outside the ten).

Candidates, by the letters of the round's brief: (a) the translated reading's share of the
other language's cosine, for every question or English ones only, or its max with the typed
one; the own-language reading as a third encoder pass; (b) a BM25 of the heading path alone
as a weighted field; BM25's k1 and b; (c) RM3-like lexical feedback; (d) rank fusion,
per-language scaling of the cosines and of BM25, a candidate pool, a cosine weight for long
questions, idf-weighted query terms; the other language's place (its margin, and the cosine
weight of the score that chooses its chunk); (e) the glossary's
Bangla wording alone on the BM25 side of a question whose own expansion is empty.
Nothing is fitted or written here, and test questions are never read.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from fit_fusion import default_sets  # noqa: E402
from raglab.corpus.chunking import index_text  # noqa: E402
from raglab.evaluation.metrics import RESAMPLES, SEED, gains, recall_at, reciprocal_rank, resamples  # noqa: E402
from raglab.evaluation.stats import interval  # noqa: E402
from raglab.retrieval.bilingual import centred, demoted  # noqa: E402
from raglab.retrieval.expansion import expand, matches  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.retrieval.prebuilt import bm25_of  # noqa: E402
from raglab.retrieval.ranking import top_n, with_other_language  # noqa: E402
from raglab.retrieval.semantic import fuse  # noqa: E402
from raglab.text.analyzer import analyze, has_bangla  # noqa: E402
from raglab.text.banglish import Reader  # noqa: E402
from raglab.text.limits import index_heading  # noqa: E402
from screen_candidates import Set, lexical_feedback, own_reading, served  # noqa: E402

SLICES = {
    "en paraphrase": lambda q: q.lang == "en" and q.kind == "paraphrase",
    "en→bn": lambda q: q.lang == "en" and q.kind == "crosslingual",
    "bn→en": lambda q: q.lang == "bn" and q.kind == "crosslingual",
    "paraphrase": lambda q: q.kind == "paraphrase",
    "Bangla": lambda q: q.lang == "bn",
    "English": lambda q: q.lang == "en",
    "typo": lambda q: q.kind == "typo",
    "direct": lambda q: q.kind == "direct",
    "all": lambda q: True,
}


def read_banglish(s: Set) -> Set:
    """`s` with every question as the pipeline reads it (a Banglish question in Bangla script)."""
    reader = Reader.of(d.text for d in s.docs)
    items = []
    for q, query, cos, lex in s.items:
        read = reader.read(q.question)
        if read != q.question:
            query = expand(read)
            cos, lex = s.r.cosines(query), s.r.lexical_scores(query)
        items.append((q, query, cos, lex))
    s.items = items
    return s


def served_rank(s: Set, query, fused: dict[int, float]) -> list[int]:
    """The ten best as served: the fused order, the other language's place chosen as served."""
    return [h.index for h in s.r.ranked(fused, query, 10, s.r.place_choice(*s.memo["parts"]))]


def rank_set(s: Set, change, rank=served_rank) -> list[tuple[float, float]]:
    """(reciprocal rank at 10, recall@3) of every question of `s` under `change` and `rank`."""
    out = []
    for q, query, cos, lex in s.items:
        s.memo["parts"] = (cos, lex)  # what a `rank` may read besides the fused scores
        ranked = rank(s, query, change(s, q, query, cos, lex))
        gain = gains([s.cover[q.id].get(i, frozenset()) for i in ranked])
        out.append((reciprocal_rank(gain, 10), recall_at(gain, q.n_facts, 3)))
    return out


def mean(xs) -> float:
    xs = list(xs)
    return math.fsum(xs) / len(xs) if xs else float("nan")


def bounds(values: list[float]) -> tuple[float, float]:
    """The served figure's 95% interval, as `slice_intervals.py` gives it."""
    got = interval(values, resamples(len(values), RESAMPLES, SEED))
    return (got[0], got[1]) if got else (-math.inf, math.inf)


class Screen:
    """The sets ranked as served once, and the served slices' intervals."""

    def __init__(self, sets: list[Set]):
        self.sets = sets
        self.ours = next(s for s in sets if s.name == "ours")
        self.base = {s.name: rank_set(s, served) for s in sets}
        self.members = {name: [n for n, (q, *_rest) in enumerate(self.ours.items) if member(q)]
                        for name, member in SLICES.items()}
        self.ci = {name: tuple(bounds([self.base["ours"][n][k] for n in idx]) for k in (1, 0))
                   for name, idx in self.members.items()}

    def row(self, change, rank=served_rank) -> tuple[str, list[tuple[float, float]]]:
        cells, means, ours = [], [], None
        for s in self.sets:
            rows = self.base[s.name] if change is served and rank is served_rank else rank_set(s, change, rank)
            ours = rows if s.name == "ours" else ours
            means.append(mean(r[0] for r in rows))
            cells.append(f"{means[-1]:.4f}")
        cells.append(f"{mean(means):.4f}")
        for name, idx in self.members.items():
            r3, rr = mean(ours[n][1] for n in idx), mean(ours[n][0] for n in idx)
            (lo3, hi3), (lor, hir) = self.ci[name]
            cells.append(f"{r3:.3f}{'' if lo3 <= r3 <= hi3 else '*'} / {rr:.3f}{'' if lor <= rr <= hir else '*'}")
        return " | ".join(cells), ours

    def header(self) -> str:
        """The table's two header lines: a column per set, their mean, and one per slice."""
        return ("| candidate | value | " + " | ".join(f"{s.name} MRR@10" for s in self.sets) + " | mean | "
                + " | ".join(f"{n} r@3 / MRR" for n in SLICES) + " |\n"
                + "|---|---:|" + "---:|" * (len(self.sets) + 1) + "---:|" * len(SLICES))

    def moved(self, ours: list[tuple[float, float]]) -> str:
        out = []
        for (q, *_rest), before, after in zip(self.ours.items, self.base["ours"], ours):
            if before != after:
                r0 = round(1 / before[0]) if before[0] else ">10"
                r1 = round(1 / after[0]) if after[0] else ">10"
                out.append(f"{q.id} ({q.lang} {q.kind}) {r0} → {r1}")
        return "; ".join(out) or "nothing moves"


# Candidates: make(value) -> change(s, q, query, cos, lex) -> fused scores, or (change, rank).
# The first value of every grid is the served ranking.

def mixed_cosines(s: Set, query, t: float, pick=None) -> dict[int, float]:
    """The other language's chunks read (1 − t) · typed + t · translated (served t = 0.5), or
    `pick(typed, translated)`; the question's own language's as typed."""
    other = s.r.translation(query)
    typed = s.r.semantic.text_scores(query.text)
    if other is None:
        return typed
    trans = s.r.semantic.text_scores(other)
    return {i: typed[i] if s.r.langs[i] == query.lang
            else (pick(typed[i], trans[i]) if pick else (1 - t) * typed[i] + t * trans[i]) for i in sorted(typed)}


def bridge_share(t, langs=("en", "bn")):
    """(a) The translated reading's share t of the other language's cosine, for questions in `langs`."""
    def change(s, q, query, cos, lex):
        if t == 0.5 or query.lang not in langs:
            return served(s, q, query, cos, lex)
        return s.r.fused(mixed_cosines(s, query, t), lex)
    return change


def bridge_max(on):
    """(a) The other language's chunks take the larger of the typed and the translated cosine."""
    def change(s, q, query, cos, lex):
        return s.r.fused(mixed_cosines(s, query, 0.5, max), lex) if on else served(s, q, query, cos, lex)
    return change


def heading_field(h):
    """(b) A BM25 over each chunk's heading path alone, added to the BM25 side at weight h."""
    def change(s, q, query, cos, lex):
        if not h:
            return served(s, q, query, cos, lex)
        if "headings" not in s.memo:
            s.memo["headings"] = bm25_of([" \n".join(index_heading(c.heading)) for c in s.chunks])
        bm = s.memo["headings"]
        head = bm.scores(*weighted_terms(bm, analyze(s.r.lexical_text(query))))
        return s.r.fused(cos, {i: lex.get(i, 0.0) + h * head.get(i, 0.0) for i in sorted(set(lex) | set(head))})
    return change


def bm25_params(values):
    """(b) BM25's k1 and b (served 1.2 and 0.75) on the BM25 side."""
    k1, b = values

    def change(s, q, query, cos, lex):
        if (k1, b) == (1.2, 0.75):
            return served(s, q, query, cos, lex)
        if ("bm25", k1, b) not in s.memo:
            s.memo["bm25", k1, b] = bm25_of([index_text(c) for c in s.chunks], k1, b)
        bm = s.memo["bm25", k1, b]
        return s.r.fused(cos, bm.scores(*weighted_terms(bm, analyze(s.r.lexical_text(query)))))
    return change


def rrf(k):
    """(d) Reciprocal rank fusion of the centred cosines' and BM25's ranks (weights w, 1 − w)."""
    def change(s, q, query, cos, lex):
        if not k:
            return served(s, q, query, cos, lex)
        c = centred(cos, s.r.langs)
        rc = {h.index: n for n, h in enumerate(top_n(c, len(c)), 1)}
        rl = {h.index: n for n, h in enumerate(top_n(lex, len(lex)), 1)} if lex else {}
        w = s.r.weight
        out = {i: w / (k + rc[i]) + ((1 - w) / (k + rl[i]) if i in rl else 0.0) for i in sorted(c)}
        return demoted(out, s.r.opening, s.r.opening_penalty * max(out.values()))
    return change


def per_language(values, langs=("en", "bn")):
    """(d) For questions in `langs`: the cosines min–max scaled within each language instead of
    centred (`cos`), BM25 divided by its best within each language instead of overall (`bm25`),
    the other language's cosine at translated share t."""
    t, cos_lang, bm25_lang = values

    def change(s, q, query, cos, lex):
        if query.lang not in langs or not s.r.two_languages or values == (0.5, False, False):
            return served(s, q, query, cos, lex)
        cos = mixed_cosines(s, query, t) if t != 0.5 else cos
        ln = s.r.langs
        if cos_lang:
            lo: dict[str, float] = {}
            hi: dict[str, float] = {}
            for i in sorted(cos):
                lo[ln[i]], hi[ln[i]] = min(lo.get(ln[i], cos[i]), cos[i]), max(hi.get(ln[i], cos[i]), cos[i])
            c = {i: (cos[i] - lo[ln[i]]) / (hi[ln[i]] - lo[ln[i]]) for i in sorted(cos)}
        else:
            c = centred(cos, ln)
        if bm25_lang and lex:
            best: dict[str, float] = {}
            for i in sorted(lex):
                best[ln[i]] = max(best.get(ln[i], 0.0), lex[i])
            top = max(best.values())
            lex = {i: lex[i] / best[ln[i]] * top for i in sorted(lex)}
        return demoted(fuse(c, lex, s.r.weight), s.r.opening, s.r.opening_penalty)
    return change


def pool(n):
    """(d) Only the n best by BM25 and the n best by centred cosine compete; the rest rank below."""
    def change(s, q, query, cos, lex):
        fused = served(s, q, query, cos, lex)
        if not n:
            return fused
        keep = {h.index for h in top_n(centred(cos, s.r.langs), n)} | {h.index for h in top_n(lex, n)}
        return {i: f if i in keep else f - 10.0 for i, f in fused.items()}
    return change


def long_weight(values):
    """(d) A question of more than n analyzed terms (chatty, situation first) fuses at cosine weight w."""
    n, w = values

    def change(s, q, query, cos, lex):
        if w is None or len(analyze(query.text)) <= n:
            return served(s, q, query, cos, lex)
        return s.r.fused(cos, lex, w)
    return change


def idf_weighted(g):
    """(d) Each BM25 query term weighted by (its idf / the question's largest idf) ** g."""
    def change(s, q, query, cos, lex):
        terms, weights = weighted_terms(s.r.bm25, analyze(s.r.lexical_text(query)))
        idf = [s.r.bm25.idf(t) for t in terms]
        if not g or not idf or max(idf) <= 0:
            return served(s, q, query, cos, lex)
        weights = [w * (max(x, 0.0) / max(idf)) ** g for w, x in zip(weights, idf)]
        return s.r.fused(cos, s.r.bm25.scores(terms, weights))
    return change


def glossary_only(on):
    """(e) An English question whose own expansion is empty but which names a glossary detail
    reads on the BM25 side only the glossary groups' Bangla wording (served: every triggered
    group's wording in both languages)."""
    def change(s, q, query, cos, lex):
        if not on or query.expansion or not query.expanded:
            return served(s, q, query, cos, lex)
        bangla = has_bangla(query.text)
        extra = [p.text for g, added in matches(query.text, both=True) if not (g.bn if bangla else g.en)
                 for p in added]
        if not extra:
            return served(s, q, query, cos, lex)
        text = query.text + " " + " ".join(extra)
        return s.r.fused(cos, s.r.bm25.scores(*weighted_terms(s.r.bm25, analyze(text))))
    return change


def margin(m):
    """The other language's place at margin m (`fit_bilingual.py` fits it)."""
    def rank(s, query, fused):
        choice = s.r.place_choice(*s.memo["parts"])
        return [h.index for h in with_other_language(top_n(fused, 10), fused, s.r.langs, query.lang, m, choice)]
    return served, (served_rank if m is None else rank)


def place_weight(wp):
    """The other language's chunk for the place chosen by a fused score of cosine weight wp."""
    def rank(s, query, fused):
        cos, lex = s.memo["parts"]
        choice = s.r.fused(cos, lex, wp)
        return [h.index for h in with_other_language(top_n(fused, 10), fused, s.r.langs, query.lang, s.r.margin, choice)]
    return served, (served_rank if wp is None else rank)


CANDIDATES = {
    "place-weight": (place_weight, "wp", [None, 0.8, 0.75, 0.7, 0.65, 0.6, 0.5]),
    "margin": (margin, "m", [None, 0.0, 0.15, 0.2, 0.225, 0.25, 0.3]),
    "bridge-share": (bridge_share, "t", [0.5, 0.25, 0.65, 0.75, 1.0]),
    "bridge-share-en": (lambda t: bridge_share(t, ("en",)), "t", [0.5, 0.65, 0.75, 1.0]),
    "bridge-max": (bridge_max, "on", [0, 1]),
    "own-reading": (own_reading, "share", [0, 0.1, 0.25, 0.5]),
    "heading-field": (heading_field, "h", [0, 0.25, 0.5, 1.0]),
    "bm25-params": (bm25_params, "(k1, b)", [(1.2, 0.75), (0.9, 0.75), (1.5, 0.75), (2.0, 0.75), (1.2, 0.5),
                                             (1.2, 0.9)]),
    "lexical-feedback": (lexical_feedback, "g", [0, 0.1, 0.2]),
    "rrf": (rrf, "k", [0, 60, 10]),
    "per-language": (per_language, "(t, cos, bm25)", [(0.5, False, False), (0.5, True, False), (0.5, False, True),
                                                      (0.5, True, True)]),
    "per-language-en": (lambda v: per_language(v, ("en",)), "(t, cos, bm25)",
                        [(0.5, False, False), (0.5, True, False), (0.5, False, True), (1.0, False, True),
                         (1.0, True, True)]),
    "pool": (pool, "n", [0, 50, 20]),
    "long-weight": (long_weight, "(n, w)", [(0, None), (10, 0.6), (10, 0.5), (14, 0.6), (14, 0.5)]),
    "idf-weighted": (idf_weighted, "g", [0, 0.5, 1.0, 2.0]),
    "glossary-only": (glossary_only, "on", [0, 1]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=list(CANDIDATES), help="screen only these candidates")
    parser.add_argument("--chunker", default="recursive", help="the chunker (served: recursive)")
    parser.add_argument("--before", action="store_true",
                        help="rank as before the place weight (the served baseline then)")
    parser.add_argument("--place-weight", type=float, help="rank at this place weight instead of the fitted one")
    parser.add_argument("--moved", action="store_true", help="list our dev questions each value moves")
    args = parser.parse_args()
    sets = []
    for name, corpus_dir, questions in default_sets():
        print(f"ranking {name} ...", file=sys.stderr, flush=True)
        s = Set(name, corpus_dir, questions, args.chunker)
        if args.before:
            s.r.place_weight = s.r.weight
        if args.place_weight is not None:
            s.r.place_weight = args.place_weight
        sets.append(read_banglish(s))
    screen = Screen(sets)
    r = sets[0].r
    print(f"{args.chunker} chunks; weight {r.weight}, margin {r.margin}, place weight {r.place_weight}\n")
    print(screen.header())
    for name in args.only or CANDIDATES:
        make, label, grid = CANDIDATES[name]
        for value in grid:
            made = make(value)
            change, rank = made if isinstance(made, tuple) else (made, served_rank)
            if value == grid[0]:
                change, rank = served, served_rank
            cells, ours = screen.row(change, rank)
            print(f"| {name} | {label} {value} | {cells} |", flush=True)
            if args.moved and value != grid[0]:
                print(f"    {screen.moved(ours)}", flush=True)


if __name__ == "__main__":
    main()
