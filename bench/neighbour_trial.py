"""Evidence in a neighbouring section of a retrieved article: remedies screened on the dev splits only.

    python bench/neighbour_trial.py                      # every candidate's grid
    python bench/neighbour_trial.py --only adjacent      # one candidate
    python bench/neighbour_trial.py --moved              # list our questions each value moves

The largest cause of `bilingual`'s misses at k = 3 (`diagnose_misses.py --causes`) is a top three
that holds a chunk of the evidence's article while the evidence is a neighbouring section of it.
Every answerable dev question of our set and of the external sets' dev halves is ranked as served
(the harness of `third_reading_trial.py`: steps 1 to 6, the change made inside the fused score so
that the other language's place and step 6 see it) but for one change:

- ``adjacent``: the chunks just before and after the fused first chunk in its article get b on
  top of their fused score (the section next to the one the question is most about);
  ``adjacent-top`` the same for the chunks next to each of the fused first three.
- ``heading-match``: every chunk of the fused first chunk's article gets h × the share of the
  question's idf mass (BM25's terms of the question as `bilingual` reads it) that its own section
  headings (the heading path below the title) hold: the question's words against the retrieved
  article's section headings, not against every article's (a heading field over the whole index
  cost everywhere, `third_reading_trial.py --only heading-boost`).
- ``per-section`` / ``per-article``: the ranking as served, then the first three re-filled so
  that they hold at most m chunks of one section (one article and heading path) or of one
  article; a chunk pushed out comes next, the order otherwise kept.

Rows as `third_reading_trial.py` gives them (MRR@10 per set, then recall@3 / MRR@10 on our dev
slices, starred outside the served figure's 95% interval).

With ``--answerer`` the ranking stays as served and the answerer reads more: `Pipeline.assess` is
handed the top k chunks and after them the chunks next to the first one in its article
(``top1``), next to any of the top k (``all``), either only when they rank in the first ten
(``top1-w``, ``all-w``), or, as a control, simply the next one or two of the ranking (``deep1``,
``deep2``). An added chunk is scored with its fused score, at most the k-th's, so its units carry
the rank and score ratio of a fourth or fifth chunk: the sentence model as served weighs them (it
is fitted on the top five). Each mode prints `answer_diagnosis.py`'s classes on our dev split.

Nothing is fitted or written here, and test questions are never read.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

import answer_diagnosis  # noqa: E402
from raglab.pipeline import Pipeline  # noqa: E402
from raglab.retrieval.ranking import SLOT, rounded, top_n  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from screen_candidates import Set  # noqa: E402
from third_reading_trial import full_rank, patched, restore, served, served_screen  # noqa: E402


def first(fused: dict[int, float]) -> int:
    return top_n(fused, 1)[0].index


def next_to(s: Set, i: int) -> list[int]:
    """The chunks just before and after chunk i in its article (chunks come in document order)."""
    return [j for j in (i - 1, i + 1) if 0 <= j < len(s.chunks) and s.chunks[j].doc == s.chunks[i].doc]


def adjacent(b: float, depth: int = 1):
    def adjust(s, query, fused, cos, lex):
        tops = [h.index for h in top_n(fused, depth)]
        near = {j for i in tops for j in next_to(s, i)} - set(tops)
        return {i: fused[i] + (b if i in near else 0.0) for i in sorted(fused)}
    return served if not b else patched(adjust)


def question_weights(s: Set, query) -> dict[str, float]:
    """The question's BM25 terms as `bilingual` reads them, each with its idf."""
    return {t: s.r.bm25.idf(t) for t in analyze(s.r.lexical_text(query))}


def heading_share(s: Set, i: int, weights: dict[str, float]) -> float:
    total = math.fsum(weights[t] for t in sorted(weights))
    key = ("section terms", i)
    if key not in s.memo:
        s.memo[key] = frozenset(analyze(" ".join(s.chunks[i].heading[1:])))
    held = s.memo[key]
    return math.fsum(weights[t] for t in sorted(weights) if t in held) / total if total > 0 else 0.0


def heading_match(h: float):
    def adjust(s, query, fused, cos, lex):
        doc = s.chunks[first(fused)].doc
        weights = question_weights(s, query)
        return {i: fused[i] + (h * heading_share(s, i, weights) if s.chunks[i].doc == doc else 0.0)
                for i in sorted(fused)}
    return served if not h else patched(adjust)


def capped(m: int, section: bool):
    """A ranking whose first `SLOT` hold at most m chunks of one section (or article)."""
    def key(s, i):
        c = s.chunks[i]
        return (c.doc, c.heading) if section else (c.doc,)

    def rank(s, query, fused):
        ranked = full_rank(s, query, fused)
        top, rest, count = [], [], {}
        for i in ranked:
            k = key(s, i)
            if len(top) < SLOT and count.get(k, 0) < m:
                top.append(i)
                count[k] = count.get(k, 0) + 1
            else:
                rest.append(i)
        return (top + rest)[:10]
    return rank


CANDIDATES = {
    "adjacent": (lambda b: (adjacent(b), full_rank), "b", [0, 0.02, 0.05, 0.1]),
    "adjacent-top": (lambda b: (adjacent(b, SLOT), full_rank), "b", [0.02, 0.05]),
    "heading-match": (lambda h: (heading_match(h), full_rank), "h", [0.05, 0.1, 0.2, 0.3]),
    "per-section": (lambda m: (served, capped(m, True)), "m", [1, 2]),
    "per-article": (lambda m: (served, capped(m, False)), "m", [1, 2]),
}


SERVED_ASSESS = Pipeline.assess
MODES = ("off", "top1", "top1-w", "all", "all-w", "deep1", "deep2")


def with_neighbours(pipe: Pipeline, question: str, chunks: list, scores: list[float] | None, mode: str):
    """`chunks` and `scores` and after them the chunks `mode` adds (see the module docstring)."""
    query = pipe.query(question)
    if mode.startswith("deep"):
        hits = pipe.retriever.search(query, len(chunks) + int(mode[4:]))
        return [pipe.chunks[h.index] for h in hits], [h.score for h in hits]
    fused = pipe.retriever.scores(query)
    window = {h.index for h in pipe.retriever.search(query, 10)} if mode.endswith("-w") else None
    have = {c.id for c in chunks}
    extra = []
    for c in chunks[:1] if mode.startswith("top1") else chunks:
        p = pipe.position[c.id]
        for j in (p - 1, p + 1):
            if 0 <= j < len(pipe.chunks) and pipe.chunks[j].doc == c.doc and pipe.chunks[j].id not in have \
                    and (window is None or j in window):
                have.add(pipe.chunks[j].id)
                extra.append(j)
    last = scores[-1] if scores else 0.0
    more = None if scores is None else list(scores) + [min(rounded(fused[j]), last) for j in extra]
    return list(chunks) + [pipe.chunks[j] for j in extra], more


def answerer_modes(modes) -> None:
    base = None
    for mode in modes:
        def assess(pipe, question, chunks, scores=None, m=None, mode=mode):
            if chunks and mode != "off":
                chunks, scores = with_neighbours(pipe, question, chunks, scores, mode)
            return SERVED_ASSESS(pipe, question, chunks, scores, m)
        Pipeline.assess = assess
        rows = answer_diagnosis.diagnose("dev")
        Pipeline.assess = SERVED_ASSESS
        got = {cls: (yes, no) for cls, yes, no in answer_diagnosis.table(rows)}
        held = {r["id"] for r in rows if r["class"] in answer_diagnosis.CLASSES[:2]}
        moved = " | —" if base is None else f" | +{len(held - base)} / -{len(base - held)}"
        base = held if base is None else base
        print(f"| {mode} | {got['right'][0]} | {len(held)} | " + " | ".join(
            f"{got[c][0]} + {got[c][1]}" for c in answer_diagnosis.CLASSES[2:] + ("unanswerable",)) + f"{moved} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=list(CANDIDATES), help="screen only these candidates")
    parser.add_argument("--moved", action="store_true", help="list our dev questions each value moves")
    parser.add_argument("--answerer", nargs="*", choices=MODES, default=None,
                        help="the answerer's modes instead of the retrieval candidates (all of them when none is named)")
    args = parser.parse_args()
    if args.answerer is not None:
        print("| mode | right | held at any confidence | retrieval miss | wrong unit | fact not held | unanswerable | held, gained / lost |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        answerer_modes(["off"] + [m for m in (args.answerer or MODES) if m != "off"])
        return
    screen = served_screen()
    sets = screen.sets
    print(screen.header())
    print(f"| served | — | {screen.row(served, full_rank)[0]} |", flush=True)
    for name in args.only or CANDIDATES:
        make, label, grid = CANDIDATES[name]
        for value in grid:
            change, rank = make(value)
            if change is served and rank is full_rank:
                continue
            cells, ours = screen.row(change, rank)
            for s in sets:
                restore(s)
            print(f"| {name} | {label} {value} | {cells} |", flush=True)
            if args.moved:
                print(f"    {screen.moved(ours)}", flush=True)


if __name__ == "__main__":
    main()
