"""General remedies for `bilingual`'s paraphrase and crosslingual misses, screened on the dev splits only.

    python bench/third_reading_trial.py                       # every candidate's grid
    python bench/third_reading_trial.py --only article-pool   # one candidate
    python bench/third_reading_trial.py --moved               # list our questions each value moves

Every answerable dev question of our set and of the external sets' dev halves is ranked exactly
as served (recursive chunks, `bilingual`, expansion on, the fitted values, steps 1 to 6, a Banglish
question read in Bangla script) except for the one change a candidate makes to the fused score;
the change is made inside `BilingualRetriever.fused`, so the other language's place (step 3) and
the re-ordering of step 6 see it too. Rows as `screen_weak.py` gives them: MRR@10 per set and the
three-set mean, then recall@3 / MRR@10 on our dev slices, starred outside the served figure's
95% interval; the first value of every grid is the served ranking.

Candidates (none needs a word of the question written into a table):

- ``article-pool``: every chunk's fused score plus b × the best fused score of its article (the
  article's max-pooled score), so a chunk of the article the question is most about rises above a
  like section of another; ``topic-pool`` pools an article with its twin in the other language
  (our articles' ids are the language and the topic, en-pin and bn-pin).
- ``heading-cosine``: the encoder's cosine with the chunk's heading path alone (``passage: `` +
  the headings), or with the heading path and the chunk's first sentence (``heading-lead``),
  centred per language and min–max scaled like the chunk's own, added at weight g; the other
  language's chunks read the mean of the typed and the translated question, as served.
- ``bm25-rank``: a reciprocal-rank bonus from the BM25 side, r × k / (k + rank) for BM25's first
  `depth` chunks (20 unless given), on top of the fused score (rank fusion beside score fusion:
  BM25's first few keep a share however far the encoder puts them); ``rank-weight`` the same at
  depth 3 with another fusion weight w.
- ``bm25-top``: a flat bonus f for BM25's first d chunks, whatever their order among them (with
  `own`, only for chunks in the question's language).
- ``heading-boost``: the BM25 side over an index where each chunk's heading path is written n
  times (the title and section headings weighted above the text).

Nothing is fitted or written here, and test questions are never read.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from fit_fusion import default_sets  # noqa: E402
from raglab.encoder import PASSAGE  # noqa: E402
from raglab.retrieval.bilingual import WINDOW, BilingualRetriever, bridged, centred  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.retrieval.prebuilt import bm25_of  # noqa: E402
from raglab.retrieval.ranking import top_n  # noqa: E402
from raglab.retrieval.semantic import fusion_weight, reading  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from raglab.text.limits import index_heading  # noqa: E402
from screen_candidates import Set  # noqa: E402
from screen_weak import SLICES, Screen, bounds, rank_set, read_banglish  # noqa: E402

ORIGINAL_FUSED = BilingualRetriever.fused


def full_rank(s: Set, query, fused: dict[int, float]) -> list[int]:
    """The ten best exactly as `BilingualRetriever.search` gives them (steps 3, 5 and 6)."""
    cos, lex = s.memo["parts"]
    hits = s.r.ranked(fused, query, WINDOW, s.r.place_choice(cos, lex))
    return [h.index for h in s.r.bangla_sections(hits, cos, lex, query)][:10]


def scaled(scores: dict[int, float]) -> dict[int, float]:
    lo, hi = min(scores.values()), max(scores.values())
    return {i: (scores[i] - lo) / (hi - lo) if hi > lo else 0.0 for i in sorted(scores)}


def first_sentence(text: str) -> str:
    body = text.strip().split("\n")
    line = next((x for x in body if x.strip()), "")
    return re.split(r"(?<=[.?!।])\s", line.strip(), maxsplit=1)[0]


def patched(adjust):
    """A change that rewrites `fused` as `adjust(s, query, fused, cos, lex)` for every weight."""
    def change(s, q, query, cos, lex):
        s.memo["query"] = query

        def fused(cosines, lexical, weight=None):
            return adjust(s, s.memo["query"], ORIGINAL_FUSED(s.r, cosines, lexical, weight), cosines, lexical)
        s.r.fused = fused
        return s.r.fused(cos, lex)
    return change


def restore(s: Set) -> None:
    s.r.__dict__.pop("fused", None)
    s.r.weight = fusion_weight()


def served(s, q, query, cos, lex):
    restore(s)
    return s.r.fused(cos, lex)


def pooled(b: float, topic: bool, section: bool = False):
    def key(s, i):
        doc = s.r.docs[i]
        if section:
            return doc + "\n" + "\n".join(s.chunks[i].heading)
        return doc.split("-", 1)[1] if topic and s.r.two_languages and "-" in doc else doc

    def adjust(s, query, fused, cos, lex):
        best: dict[str, float] = {}
        for i in sorted(fused):
            k = key(s, i)
            best[k] = max(best.get(k, fused[i]), fused[i])
        return {i: fused[i] + b * best[key(s, i)] for i in sorted(fused)}
    return adjust


def article_pool(b):
    return served if not b else patched(pooled(b, False))


def topic_pool(b):
    return served if not b else patched(pooled(b, True))


def section_pool(b):
    return served if not b else patched(pooled(b, False, True))


def heading_matrix(s: Set, lead: bool):
    key = ("headings", lead)
    if key not in s.memo:
        texts = []
        for c in s.chunks:
            head = " \n".join(index_heading(c.heading))
            texts.append(PASSAGE + (head + " \n" + first_sentence(c.text) if lead else head))
        s.memo[key] = s.r.semantic.cache.get(texts, progress=True)
    return s.memo[key]


def heading_cos(g: float, lead: bool):
    def adjust(s, query, fused, cos, lex):
        matrix = heading_matrix(s, lead)
        typed = s.text_cosines(reading(query.text), matrix)
        other = s.r.translation(query)
        if other is not None:
            typed = bridged(typed, s.text_cosines(reading(other), matrix), s.r.langs, query.lang)
        h = scaled(centred(typed, s.r.langs))
        return {i: fused[i] + g * h[i] for i in sorted(fused)}
    return served if not g else patched(adjust)


def bm25_rank(values):
    r, k, depth = values if len(values) == 3 else (*values, 20)

    def adjust(s, query, fused, cos, lex):
        ranks = {h.index: n for n, h in enumerate(top_n(lex, depth), 1)} if lex else {}
        return {i: fused[i] + (r * k / (k + ranks[i]) if i in ranks else 0.0) for i in sorted(fused)}
    return served if not r else patched(adjust)


def bm25_top(values):
    """A flat bonus f for BM25's first d chunks (for chunks in the question's own language only,
    with `own`): a place among BM25's first few counts, not the order within them."""
    f, d, own = values

    def adjust(s, query, fused, cos, lex):
        top = {h.index for h in top_n(lex, d)} if lex else set()
        return {i: fused[i] + (f if i in top and (not own or s.r.langs[i] == query.lang) else 0.0)
                for i in sorted(fused)}
    return served if not f else patched(adjust)


def rank_weight(values):
    """`bm25-rank` at depth 3 and k 1 with the fusion's cosine weight w instead of the fitted one."""
    r, w = values
    inner = bm25_rank((r, 1, 3)) if r else served

    def change(s, q, query, cos, lex):
        inner(s, q, query, cos, lex)
        s.r.weight = w
        return s.r.fused(cos, lex)
    return change


def heading_boost(n):
    def adjust(s, query, fused, cos, lex):
        key = ("boost", n)
        if key not in s.memo:
            s.memo[key] = bm25_of([" \n".join(index_heading(c.heading) * n) + " \n" + c.text for c in s.chunks])
        bm = s.memo[key]
        boosted = bm.scores(*weighted_terms(bm, analyze(s.r.lexical_text(query))))
        return ORIGINAL_FUSED(s.r, cos, boosted)
    return served if n == 1 else patched(adjust)


CANDIDATES = {
    "article-pool": (article_pool, "b", [0, 0.05, 0.1, 0.2, 0.3]),
    "topic-pool": (topic_pool, "b", [0, 0.05, 0.1, 0.2]),
    "section-pool": (section_pool, "b", [0, 0.05, 0.1, 0.2, 0.3]),
    "heading-cosine": (lambda g: heading_cos(g, False), "g", [0, 0.05, 0.1, 0.2]),
    "heading-lead": (lambda g: heading_cos(g, True), "g", [0, 0.05, 0.1, 0.2]),
    "bm25-rank": (bm25_rank, "(r, k)", [(0, 0), (0.05, 1), (0.1, 1), (0.15, 1), (0.2, 1),
                                         (0.1, 0.5), (0.2, 0.5), (0.05, 5), (0.1, 5),
                                         (0.15, 1, 1), (0.15, 1, 3), (0.15, 1, 5), (0.15, 1, 10)]),
    "bm25-top": (bm25_top, "(f, d, own)", [(0, 0, False), (0.05, 3, False), (0.08, 3, False), (0.1, 3, False),
                                           (0.05, 5, False), (0.08, 3, True), (0.1, 3, True), (0.05, 2, False),
                                           (0.08, 2, False)]),
    "rank-weight": (rank_weight, "(r, w)", [(0, 0.85), (0.1, 0.85), (0.1, 0.88), (0.1, 0.9), (0.15, 0.88), (0.15, 0.9),
                                            (0.15, 0.92), (0, 0.9)]),
    "heading-boost": (heading_boost, "n", [1, 2, 3]),
}


def served_screen(forget_parts: bool = False) -> Screen:
    """Every default set (ours, the external dev halves) ranked as served, steps 3 to 6, in a
    Screen with its rows and our slices' intervals: what each trial's candidates are held to.
    `forget_parts`: each set's memo of the chunk parts starts empty (this trial re-reads them)."""
    sets = []
    for name, corpus_dir, questions in default_sets():
        print(f"ranking {name} ...", file=sys.stderr, flush=True)
        sets.append(read_banglish(Set(name, corpus_dir, questions, "recursive")))
    if forget_parts:
        for s in sets:
            s.memo["parts"] = None
    screen = Screen.__new__(Screen)
    screen.sets = sets
    screen.ours = next(s for s in sets if s.name == "ours")
    screen.base = {s.name: rank_set(s, served, full_rank) for s in sets}
    screen.members = {name: [n for n, (q, *_rest) in enumerate(screen.ours.items) if member(q)]
                      for name, member in SLICES.items()}
    screen.ci = {name: tuple(bounds([screen.base["ours"][n][k] for n in idx]) for k in (1, 0))
                 for name, idx in screen.members.items()}
    return screen


def print_rows(screen: Screen, candidates: dict, only, moved: bool, undo, also_moved=None) -> None:
    """One table row per candidate and value (`candidates`: name -> (make, label, grid)), each
    change undone on every set after its row (`undo`); with `moved`, the dev questions each
    value past the grid's first moves (and `also_moved(change)`, when given)."""
    for name in only or candidates:
        make, label, grid = candidates[name]
        for value in grid:
            change = make(value)
            cells, ours = screen.row(change, full_rank)
            for s in screen.sets:
                undo(s)
            print(f"| {name} | {label} {value} | {cells} |", flush=True)
            if moved and value != grid[0]:
                print(f"    {screen.moved(ours)}", flush=True)
                if also_moved:
                    also_moved(change)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=list(CANDIDATES), help="screen only these candidates")
    parser.add_argument("--moved", action="store_true", help="list our dev questions each value moves")
    args = parser.parse_args()
    screen = served_screen(forget_parts=True)

    def externals_moved(change) -> None:
        for s in screen.sets[1:]:
            after = rank_set(s, change, full_rank)
            restore(s)
            moved = [f"{q.id} {round(1 / b[0]) if b[0] else '>10'} → {round(1 / a[0]) if a[0] else '>10'}"
                     for (q, *_rest), b, a in zip(s.items, screen.base[s.name], after) if a != b]
            print(f"    {s.name}: {'; '.join(moved) or 'nothing moves'}", flush=True)

    print(screen.header())
    print_rows(screen, CANDIDATES, args.only, args.moved, restore, externals_moved)


if __name__ == "__main__":
    main()
