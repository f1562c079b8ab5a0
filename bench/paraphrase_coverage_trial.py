"""Remedies for `bilingual`'s paraphrase misses that read how much the BM25 side has to go on,
screened on the dev splits only.

    python bench/paraphrase_coverage_trial.py                          # every candidate's grid
    python bench/paraphrase_coverage_trial.py --only coverage-weight   # one candidate
    python bench/paraphrase_coverage_trial.py --moved                  # list the questions each value moves

Ranked as `third_reading_trial.py` ranks (every answerable dev question of our set and the external
sets' dev halves, recursive chunks, expansion on, the fitted values, steps 1 to 6, the change made
inside `BilingualRetriever.fused` so steps 3 and 6 see it; the same columns). The lexical coverage
of a question is the share of its own terms' idf mass (as typed, misspelt words read as BM25 reads
them, the expansion left out) that BM25's best chunk holds: 1 when that chunk holds every word the
customer used, near 0 when BM25 matched only a common word or two.

Candidates (none needs a word of the question written into a table):

- ``coverage-weight``: the fusion's cosine weight per question, ``lo + (hi − lo) · (1 − coverage)``:
  BM25 weighs more when its best chunk holds the question's words, the encoder more when it holds
  few of them (the served weight is lo = hi = the fitted one).
- ``bm25-feedback``: the encoder pulled toward the topic BM25 found: each chunk's cosine plus β
  times its cosine with BM25's best chunk (passage to passage, no new encoder input), scaled by
  the coverage with ``scaled`` (a BM25 side that matched little pulls little).
- ``own-reading``: the encoder also reads the question followed by its own language's expansion
  phrases (a third encoder input), mixed at share a into the question's own language's cosines;
  with ``gated``, only for a question whose coverage is below 0.5 (``disagree``: only when BM25's best
  chunk is not among the centred cosine's first ten); with ``used``, only the phrases
  whose every term the searched corpus holds. ``own-replace``: that reading in place of the question
  as typed (two encoder inputs, as served). ``both-reading``: the translated reading written with
  the phrases of both languages, the own language's chunks reading it at share a.
- ``covered-top``: a flat bonus f for BM25's first d chunks when its best chunk's coverage is at
  least t (t = 0: f scaled by the coverage).
- ``story-weight``: the BM25 side with the story's terms (those only in sentences that do not ask,
  `answertypes.asking_sentences`) weighted λ.
- ``place-gate``: the other language's place (step 3) only for a chunk BM25 ranks among its first
  d; ``never`` measures what the place costs and gains.
- ``story-gated``: three of the above only for a question told in more than one sentence.

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
sys.path.insert(0, HERE)

from raglab.corpus.chunking import index_text  # noqa: E402
from raglab.retrieval.bilingual import BilingualRetriever, bridged, centred  # noqa: E402
from raglab.retrieval.expansion import expand  # noqa: E402
from raglab.retrieval.lexical import alternatives, weighted_terms  # noqa: E402
from raglab.retrieval.ranking import top_n  # noqa: E402
from raglab.retrieval.semantic import fusion_weight, reading  # noqa: E402
from raglab.text.analyzer import analyze, has_bangla  # noqa: E402
from raglab.text.answertypes import asking_sentences  # noqa: E402
from screen_candidates import Set, chunk_cosines  # noqa: E402
from third_reading_trial import ORIGINAL_FUSED, print_rows, served, served_screen  # noqa: E402
from third_reading_trial import restore as restore_fused  # noqa: E402


def restore(s: Set) -> None:
    restore_fused(s)
    s.r.__dict__.pop("other_best", None)


def chunk_terms(s: Set, i: int) -> set[str]:
    key = ("terms", i)
    if key not in s.memo:
        s.memo[key] = set(analyze(index_text(s.chunks[i])))
    return s.memo[key]


def coverage(s: Set, query, lex: dict[int, float]) -> float:
    """The share of the question's own idf mass (as typed, respelt as BM25 reads it) held by
    BM25's best chunk; 0 when BM25 matches nothing."""
    if not lex:
        return 0.0
    terms, weights = weighted_terms(s.r.bm25, analyze(query.text))
    mass: dict[str, float] = {}
    for t, w in zip(terms, weights):
        mass[t] = max(mass.get(t, 0.0), w * s.r.bm25.idf(t))
    total = math.fsum(mass[t] for t in sorted(mass))
    if not total:
        return 0.0
    best = chunk_terms(s, top_n(lex, 1)[0].index)
    return math.fsum(mass[t] for t in sorted(mass) if t in best) / total


def per_query(s: Set, query, lex) -> float:
    key = ("coverage", query.text)
    if key not in s.memo:
        s.memo[key] = coverage(s, query, lex)
    return s.memo[key]


def weight_patch(rule):
    """A change whose fused score (at the served weight only) uses `rule(s, query, cos, lex)` as
    the cosine weight; the place weight and step 6's weight stay as served."""
    def change(s, q, query, cos, lex):
        s.memo["query"] = query

        def fused(cosines, lexical, weight=None):
            w = rule(s, s.memo["query"], cosines, lexical) if weight is None else weight
            return ORIGINAL_FUSED(s.r, cosines, lexical, w)
        s.r.fused = fused
        return s.r.fused(cos, lex)
    return change


def coverage_weight(values):
    lo, hi, *story = values
    if lo == hi == fusion_weight():
        return served

    def rule(s, query, cos, lex):
        if story and not asking_sentences(query.text):
            return fusion_weight()
        return lo + (hi - lo) * (1.0 - per_query(s, query, lex))
    return weight_patch(rule)


def cosine_patch(adjust):
    """A change that rewrites the cosines as `adjust(s, query, cos, lex)` before every fused score."""
    def change(s, q, query, cos, lex):
        s.memo["query"] = query

        def fused(cosines, lexical, weight=None):
            return ORIGINAL_FUSED(s.r, adjust(s, s.memo["query"], cosines, lexical), lexical, weight)
        s.r.fused = fused
        return s.r.fused(cos, lex)
    return change


def bm25_feedback(values):
    beta, scaled, *story = values
    if not beta:
        return served

    def adjust(s, query, cos, lex):
        if not lex or (story and not asking_sentences(query.text)):
            return cos
        row = chunk_cosines(s, top_n(lex, 1)[0].index)
        b = beta * (per_query(s, query, lex) if scaled else 1.0)
        return {i: c + b * row[i] for i, c in cos.items()}
    return cosine_patch(adjust)


def own_phrases(s: Set, query, used: bool) -> list[str]:
    """The table's phrases in the question's own language; with `used`, only those whose every
    term the searched corpus holds (the table is written for our help centre: on another corpus
    its phrases are words that corpus never uses)."""
    own = [p for p in expand(query.text, both=True).expansion if has_bangla(p) == (query.lang == "bn")]
    return [p for p in own if all(s.r.bm25.df.get(t) for t in analyze(p))] if used else own


def disagree(s: Set, cos: dict[int, float], lex: dict[int, float], depth: int = 10) -> bool:
    """Whether the two sides disagree: BM25's best chunk is not among the first `depth` by the
    centred cosine (the story pulled the encoder off, or BM25 met only the story's words)."""
    if not lex:
        return False
    best = top_n(lex, 1)[0].index
    return best not in {h.index for h in top_n(centred(cos, s.r.langs), depth)}


def own_reading(values):
    a, gated, used = values
    if not a:
        return served

    def adjust(s, query, cos, lex):
        own = own_phrases(s, query, used)
        if not own or (gated == "disagree" and not disagree(s, cos, lex)) \
                or (gated is True and per_query(s, query, lex) >= 0.5):
            return cos
        extra = s.text_cosines(reading(query.text + " " + " ".join(own)))
        return {i: (1 - a) * c + a * extra[i] if s.r.langs[i] == query.lang else c for i, c in cos.items()}
    return cosine_patch(adjust)


def own_replace(used):
    """The question as typed replaced, for the encoder, by the question followed by its own
    language's phrases: still two encoder inputs (that and the translated reading), the other
    language's chunks the mean of the two."""
    if used is None:
        return served

    def adjust(s, query, cos, lex):
        own = own_phrases(s, query, used)
        if not own:
            return cos
        extra = s.text_cosines(reading(query.text + " " + " ".join(own)))
        other = s.r.translation(query)
        if other is None or not s.r.two_languages:
            return extra
        return bridged(extra, s.r.semantic.text_scores(other), s.r.langs, query.lang)
    return cosine_patch(adjust)


def both_reading(a):
    """The translated reading (step 2's second encoder input) written with the table's phrases of
    both languages, the question's own first: the other language's chunks read the mean of the
    typed question and it, as served; the question's own language's (1 − a) · typed + a · it.
    Still two encoder inputs."""
    if a is None:
        return served

    def adjust(s, query, cos, lex):
        if s.r.translation(query) is None:
            return cos
        both = query.text + " " + " ".join(expand(query.text, both=True).expansion)
        typed = s.r.semantic.text_scores(query.text)
        extra = s.text_cosines(reading(both))
        return {i: (1 - a) * typed[i] + a * extra[i] if s.r.langs[i] == query.lang else (typed[i] + extra[i]) / 2.0
                for i in sorted(typed)}
    return cosine_patch(adjust)


def covered_top(values):
    """A flat bonus f for BM25's first d chunks when its best chunk holds at least t of the
    question's idf mass (with t = 0, f scaled by that share); with a fourth value, only for a
    question told as a story (more than one sentence, `asking_sentences`)."""
    f, d, t, *story = values
    if not f:
        return served

    def change(s, q, query, cos, lex):
        s.memo["query"] = query

        def fused(cosines, lexical, weight=None):
            out = ORIGINAL_FUSED(s.r, cosines, lexical, weight)
            c = per_query(s, s.memo["query"], lexical) if lexical else 0.0
            if not lexical or c < t or (story and not asking_sentences(s.memo["query"].text)):
                return out
            bonus = f * c if not t else f
            top = {h.index for h in top_n(lexical, d)}
            return {i: out[i] + (bonus if i in top else 0.0) for i in sorted(out)}
        s.r.fused = fused
        return s.r.fused(cos, lex)
    return change


def story_lexical(s: Set, query, lam: float) -> dict[int, float]:
    """The BM25 side with the terms of the question's story (its sentences that do not ask)
    weighted `lam`; the asking sentences' terms and the table's phrases keep weight 1. A
    question of one sentence reads as served."""
    asking = asking_sentences(query.text)
    text = s.r.lexical_text(query)
    if not asking:
        return s.r.lexical_scores(query)
    asked = set(analyze(" ".join(asking)))
    added = set(analyze(text[len(query.text):])) if text.startswith(query.text) else set()
    story = set(analyze(query.text)) - asked - added
    terms, weights = [], []
    for t in analyze(text):
        for word, w in alternatives(s.r.bm25, t):
            terms.append(word)
            weights.append(w * (lam if t in story else 1.0))
    return s.r.bm25.scores(terms, weights)


def story_weight(lam):
    if lam == 1:
        return served

    def change(s, q, query, cos, lex):
        restore_fused(s)
        lexical = story_lexical(s, query, lam)
        s.memo["parts"] = (cos, lexical)  # the place (step 3) and step 6 read it too
        return s.r.fused(cos, lexical)
    return change


ORIGINAL_OTHER_BEST = BilingualRetriever.other_best


def place_gate(depth):
    """The other language's place (step 3) given only to a chunk BM25 ranks among its first
    `depth` (the table's wording, or the question's own words, reach it); 0 for any chunk BM25
    scores at all; "never" takes the place away (what it costs and gains);
    "translated" gives it only to a question the table reads in the other language (step 2)."""
    if depth is None:
        return served

    def change(s, q, query, cos, lex):
        restore_fused(s)

        def other_best(scores, query, choice=None):
            best = ORIGINAL_OTHER_BEST(s.r, scores, query, choice)
            if depth == "never" or (depth == "translated" and s.r.translation(query) is None):
                return None
            if depth == "translated":
                return best
            lexical = s.memo["parts"][1]
            if best is None or not lexical or best not in lexical:
                return None
            if depth and best not in {h.index for h in top_n(lexical, depth)}:
                return None
            return best
        s.r.other_best = other_best
        return s.r.fused(cos, lex)
    return change


# The candidates above with a fourth value "story": only for a question told in more than one sentence
# (`asking_sentences`), which the external sets' questions rarely are.
STORY_GATED = {"bm25-feedback": bm25_feedback, "covered-top": covered_top, "coverage-weight": coverage_weight}

CANDIDATES = {
    "story-gated": (lambda v: STORY_GATED[v[0]](v[1]) if v else served, "candidate",
                    [None, ("bm25-feedback", (0.1, True, "story")), ("bm25-feedback", (0.2, True, "story")),
                     ("bm25-feedback", (0.1, False, "story")), ("covered-top", (0.05, 3, 0, "story")),
                     ("covered-top", (0.08, 3, 0, "story")), ("covered-top", (0.1, 1, 0.8, "story")),
                     ("coverage-weight", (0.7, 0.85, "story")), ("coverage-weight", (0.6, 0.85, "story"))]),
    "coverage-weight": (coverage_weight, "(lo, hi)", [(0.85, 0.85), (0.8, 0.85), (0.75, 0.85), (0.7, 0.85),
                                                      (0.6, 0.85), (0.8, 0.9), (0.75, 0.9), (0.7, 0.9),
                                                      (0.85, 0.9), (0.85, 0.95)]),
    "bm25-feedback": (bm25_feedback, "(β, scaled)", [(0, False), (0.1, False), (0.2, False), (0.3, False),
                                                     (0.1, True), (0.2, True), (0.3, True), (0.5, True)]),
    "own-reading": (own_reading, "(a, gated, used)", [(0, False, False), (0.25, False, False), (0.5, False, False),
                                                     (0.25, True, False), (0.5, True, False), (0.5, False, True),
                                                     (0.75, False, True), (0.5, "disagree", False),
                                                     (0.75, "disagree", False), (1.0, "disagree", False)]),
    "own-replace": (own_replace, "used", [None, False, True]),
    "both-reading": (both_reading, "a", [None, 0, 0.25, 0.5]),
    "place-gate": (place_gate, "BM25 depth", [None, 0, 100, 50, 20, 10, "never", "translated"]),
    "story-weight": (story_weight, "λ", [1, 0.75, 0.5, 0.25, 0]),
    "covered-top": (covered_top, "(f, d, t)", [(0, 0, 0), (0.05, 1, 0.6), (0.05, 1, 0.8), (0.1, 1, 0.8),
                                              (0.05, 3, 0.6), (0.05, 3, 0.8), (0.05, 2, 0.7), (0.05, 3, 0),
                                              (0.08, 3, 0), (0.05, 1, 0)]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=list(CANDIDATES), help="screen only these candidates")
    parser.add_argument("--moved", action="store_true", help="list our dev questions each value moves")
    args = parser.parse_args()
    screen = served_screen()
    print(screen.header())
    print_rows(screen, CANDIDATES, args.only, args.moved, restore)


if __name__ == "__main__":
    main()
