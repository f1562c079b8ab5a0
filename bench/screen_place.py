"""Changes to the other language's place in `bilingual` (step 3), screened on the dev splits only.

    python bench/screen_place.py                       # every candidate's grid at the fitted margin
    python bench/screen_place.py --margin 0.275        # the same at another margin
    python bench/screen_place.py --only lexical-choice
    python bench/screen_place.py --chunker fixed       # the sets in fixed chunks

Step 3 gives place 3 to the other language's best chunk by the fused score when that score
comes within the margin of the third chunk's. An English question whose answer only a Bangla
article gives is lost when that best Bangla chunk is not its evidence (the evidence is 2nd to
14th among the Bangla chunks: `bench/diagnose_misses.py`, "among the other language"), or
when its score falls outside the margin. Each candidate changes one thing about the place:

- `lexical-choice`: which chunk takes it, chosen by the fused score with BM25 weighing more
  (cosine weight w instead of the fitted one); when it is taken is unchanged.
- `translated-choice`: which chunk, chosen with the other language's cosines read more
  through the translated reading (share b of it instead of the mean, 0.5).
- `bm25-choice`: which chunk, the other language's best by BM25 over the translated reading
  when that reaches one, else as served.
- `served-bm25-choice`: the same by the BM25 side as served (both languages' phrases).
- `rrf-choice`: which chunk, by reciprocal-rank fusion (constant k) of its fused and its BM25
  rank among the other language's chunks.
- `two-places`: when the question's best cosine with a chunk of its own language is under t,
  the other language's two best take places 2 and 3.
- `place-2`: the other language's best takes place 2 instead of 3 when its fused score
  comes within d of the second chunk's.
- `margin`: the margin itself, for reference (`fit_bilingual.py` fits it).

Rows read as `screen_candidates.py`'s (its sets, columns and rule; its `SLACK`); the first
value of every grid is the served ranking. The external
sets are in one language, so no candidate moves them. Nothing is fitted or written here, and
test questions are never read.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

from fit_fusion import default_sets  # noqa: E402
from raglab.retrieval.bilingual import centred, demoted  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.retrieval.ranking import top_n, with_other_language  # noqa: E402
from raglab.retrieval.semantic import fuse  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from screen_candidates import Set, score, served, served_ranking  # noqa: E402

SLOT = 3


def placed(s: Set, q, query, fused: dict[int, float], choice: dict[int, float] | None) -> list[int]:
    """The served ranking, except that the chunk taking the place is the other language's best
    by `choice` (None: as served) whenever served would give the place to one at all."""
    hits = top_n(fused, 10)
    moved = with_other_language(hits, fused, s.r.langs, query.lang, s.r.margin, s.r.place_choice(*s.memo["parts"]))
    if choice is None or moved == hits:
        return [h.index for h in moved]
    others = {i: v for i, v in choice.items() if s.r.langs[i] != query.lang}
    best = top_n(others, 1)[0].index
    rest = [h for h in hits[SLOT - 1:] if h.index != best]
    return [h.index for h in hits[:SLOT - 1]] + [best] + [h.index for h in rest[:len(hits) - SLOT]]


def lexical_choice(w):
    def rank(s, q, query, fused):
        if w == s.r.weight or not s.r.two_languages:
            return served_ranking(s, q, query, fused)
        cos, lex = s.memo[("items", q.id)]
        return placed(s, q, query, fused, demoted(fuse(centred(cos, s.r.langs), lex, w), s.r.opening, s.r.opening_penalty))
    return rank


def translated_choice(b):
    def rank(s, q, query, fused):
        other = s.r.translation(query)
        if b == 0.5 or other is None:
            return served_ranking(s, q, query, fused)
        cos, lex = s.memo[("items", q.id)]
        typed, tr = s.r.semantic.scores(query), s.r.semantic.text_scores(other)
        mixed = {i: typed[i] if s.r.langs[i] == query.lang else (1 - b) * typed[i] + b * tr[i] for i in sorted(typed)}
        return placed(s, q, query, fused, s.r.fused(mixed, lex))
    return rank


def other_language_reach(s, lex: dict, lang: str) -> dict | None:
    """The BM25 scores of the chunks in the other language than `lang` that it reaches at all."""
    reach = {i: v for i, v in lex.items() if s.r.langs[i] != lang and v > 0}
    return reach or None


def bm25_choice(on):
    def rank(s, q, query, fused):
        other = s.r.translation(query)
        if not on or other is None:
            return served_ranking(s, q, query, fused)
        lex = s.r.bm25.scores(*weighted_terms(s.r.bm25, analyze(other)))
        return placed(s, q, query, fused, other_language_reach(s, lex, query.lang))
    return rank


def served_bm25_choice(on):
    def rank(s, q, query, fused):
        if not on or not s.r.two_languages:
            return served_ranking(s, q, query, fused)
        _, lex = s.memo[("items", q.id)]
        return placed(s, q, query, fused, other_language_reach(s, lex, query.lang))
    return rank


def rank_fused_choice(k):
    def rank(s, q, query, fused):
        if not k or not s.r.two_languages:
            return served_ranking(s, q, query, fused)
        _, lex = s.memo[("items", q.id)]
        mine = [i for i in fused if s.r.langs[i] != query.lang]
        by_fused = {h.index: r for r, h in enumerate(top_n({i: fused[i] for i in mine}, len(mine)), 1)}
        by_lex = {h.index: r for r, h in enumerate(top_n({i: lex.get(i, 0.0) for i in mine}, len(mine)), 1)}
        return placed(s, q, query, fused, {i: 1 / (k + by_fused[i]) + 1 / (k + by_lex[i]) for i in mine})
    return rank


def two_places(t):
    def rank(s, q, query, fused):
        ranked = served_ranking(s, q, query, fused)
        if not t or not s.r.two_languages:
            return ranked
        typed = s.r.semantic.scores(query)
        own = max(v for i, v in typed.items() if s.r.langs[i] == query.lang)
        if own >= t or sum(s.r.langs[i] != query.lang for i in ranked[:SLOT]) >= 2:
            return ranked
        others = [h.index for h in top_n({i: v for i, v in fused.items() if s.r.langs[i] != query.lang}, 2)]
        head = [ranked[0]] + others
        return head + [i for i in ranked[1:] if i not in head][:10 - len(head)]
    return rank


def place_2(d):
    def rank(s, q, query, fused):
        ranked = served_ranking(s, q, query, fused)
        if not d or not s.r.two_languages or len(ranked) < SLOT:
            return ranked
        i = ranked[SLOT - 1]
        if s.r.langs[i] == query.lang or any(s.r.langs[j] != query.lang for j in ranked[:SLOT - 1]):
            return ranked
        if fused[i] + d < fused[ranked[1]]:
            return ranked
        return [ranked[0], i, ranked[1]] + ranked[SLOT:]
    return rank


def margin(m):
    def rank(s, q, query, fused):
        hits = top_n(fused, 10)
        return [h.index for h in with_other_language(hits, fused, s.r.langs, query.lang, m,
                                                     s.r.place_choice(*s.memo["parts"]))]
    return rank


def grids(w: float, m: float) -> dict:
    return {
        "lexical-choice": (lexical_choice, "w", [w, 0.8, 0.75, 0.7, 0.65, 0.6, 0.5, 0.3, 0.0]),
        "translated-choice": (translated_choice, "b", [0.5, 0.75, 1.0]),
        "bm25-choice": (bm25_choice, "on", [0, 1]),
        "served-bm25-choice": (served_bm25_choice, "on", [0, 1]),
        "rrf-choice": (rank_fused_choice, "k", [0, 60, 10, 1]),
        "two-places": (two_places, "t", [0, 0.85, 0.86, 0.87, 0.88, 0.9]),
        "place-2": (place_2, "d", [0, 0.025, 0.05, 0.1]),
        "margin": (margin, "m", [m] + [x for x in (0.125, 0.15, 0.2, 0.225, 0.25, 0.275, 0.3) if x != m]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", help="screen only these candidates")
    parser.add_argument("--margin", type=float, help="rank at this margin instead of the fitted one")
    parser.add_argument("--chunker", default="recursive", help="the chunker the sets are ranked in")
    args = parser.parse_args()
    sets = []
    for name, corpus_dir, questions in default_sets():
        print(f"ranking {name} ...", file=sys.stderr, flush=True)
        s = Set(name, corpus_dir, questions, args.chunker)
        if args.margin is not None:
            s.r.margin = args.margin
        for q, query, cos, lex in s.items:
            s.memo[("items", q.id)] = (cos, lex)
        sets.append(s)
    table = grids(sets[0].r.weight, sets[0].r.margin)
    print(f"{args.chunker} chunks, margin {sets[0].r.margin}")
    print("| candidate | value | " + " | ".join(f"{s.name} MRR@10 / recall@3" for s in sets)
          + " | mean MRR@10 | crosslingual en→bn | crosslingual bn→en | typo | Bangla | paraphrase |")
    print("|---|---:|" + "---|" * len(sets) + "---:|" + "---:|" * 5)
    for name in args.only or table:
        make, label, grid = table[name]
        for value in grid:
            print(f"| {name} | {label} {value} | " + score(sets, served, rank=make(value)) + " |", flush=True)


if __name__ == "__main__":
    main()
