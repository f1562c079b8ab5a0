"""Three untried remedies for the paraphrase slice, as paired tests on the dev splits only.

    python bench/query_weight_trial.py                         # all
    python bench/query_weight_trial.py --only query-weight     # one (query-weight-coarse,
    python bench/query_weight_trial.py --only asking-clause    #   asking-clause, article)

- ``query-weight``: a cosine weight per question, learnt from the question's features instead of
  the one fitted weight. Earlier rounds tried hand-set schedules (a weight for long questions,
  `screen_weak.py`; by BM25's peak or the idf mass no chunk holds, `paraphrase_trials.py`; by
  lexical coverage, `paraphrase_coverage_trial.py`), each trading one set for another. Here the
  questions fall into cells by language, length (analyzed terms, three bins), whether any of
  their terms is unknown to the index, and whether they are told as a story (asking sentences
  after a story); each cell gets the weight of `GRID` that maximises the mean MRR@10 over the
  three dev sets (each set counted once, a cell of fewer than `MIN_CELL` questions keeps the
  fitted weight, ties go to the weight nearest the fitted one). In sample is an upper bound;
  the figure that counts is out of fold (`FOLDS` folds by position within each set, each fold
  ranked at the weights the other folds chose). The oracle (each question at its own best
  weight) says how much any per-question weight could give. ``query-weight-coarse``: the cells
  by language and story only.
- ``asking-clause``: a long question (more than `LONG` analyzed terms) whose asking part can be
  cut from its situation is also read by the encoder as that part alone, mixed into the cosine
  at share s (the other language's chunks bridged with the translated reading, as served).
  The asking part is the asking sentences of a story question, or, in one sentence, the clauses
  from the last one the answer-type cues say asks (`answertypes.question_types`) to the end,
  the clauses cut at commas and semicolons. Earlier rounds read the asking sentences alone for
  every story question (`paraphrase_trials.py`, share 0.2: within noise, not kept); this one
  reaches one-sentence questions too and leaves short ones alone.
- ``article``: an article-level score added to every chunk's fused score, b × the article's BM25
  over its whole text (divided by the best article's), or b × the mean fused score of its chunks
  (mean-pooling; max-pooling was tried in `third_reading_trial.py`).

Each as `paired_retrieval_trial.py` reports it: served against the candidate per set and slice,
with 95% intervals, the paired difference and the slice guard. Nothing is fitted into a table or
written, and test questions are never read.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, HERE)

from paired_retrieval_trial import compare, undo  # noqa: E402
from raglab.corpus.chunking import index_text  # noqa: E402
from raglab.retrieval.bilingual import bridged  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.retrieval.prebuilt import bm25_of  # noqa: E402
from raglab.retrieval.semantic import fusion_weight, reading  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from raglab.text.answertypes import asking_sentences, question_types  # noqa: E402
from screen_weak import rank_set  # noqa: E402
from third_reading_trial import full_rank, patched, served_screen  # noqa: E402

GRID = [0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]
FOLDS = 5
MIN_CELL = 10
LONG = 12


# --- query-weight -------------------------------------------------------------------------


def cell(s, query, coarse: bool = False) -> tuple:
    """The question's features: language, length bin, any term unknown to the index, a story
    (`coarse`: language and story only, fewer cells to fit)."""
    story = bool(asking_sentences(query.text))
    if coarse:
        return (query.lang, story)
    terms = analyze(query.text)
    n = len(terms)
    unknown = any(t not in s.r.bm25.postings for t in terms)
    return (query.lang, 0 if n <= 6 else 1 if n <= 12 else 2, unknown, story)


def at_weight(w: float):
    def change(s, q, query, cos, lex):
        undo(s)
        s.r.weight = w
        return s.r.fused(cos, lex)
    return change


def per_question(table: dict):
    """Each question ranked at the weight `table` gives it by (set name, question id)."""
    def change(s, q, query, cos, lex):
        undo(s)
        s.r.weight = table[s.name, q.id]
        return s.r.fused(cos, lex)
    return change


def choose(screen, grid_rr: dict, cells: dict, members) -> dict:
    """The weight of each cell, from the questions `members` accepts (set name, position)."""
    served_w = fusion_weight()
    sizes = {s.name: sum(1 for n in range(len(s.items)) if members(s.name, n)) for s in screen.sets}
    keys = sorted({c for (name, n), c in cells.items() if members(name, n)}, key=repr)
    out = {}
    for key in keys:
        inside = [(name, n) for (name, n), c in sorted(cells.items()) if c == key and members(name, n)]
        if len(inside) < MIN_CELL:
            out[key] = served_w
            continue
        score = {w: math.fsum(grid_rr[w][name][n] / sizes[name] for name, n in inside) for w in GRID}
        out[key] = max(GRID, key=lambda w: (round(score[w], 9), -abs(w - served_w)))
    return out


def query_weight(screen, coarse: bool = False) -> None:
    served_w = fusion_weight()
    print(f"\n# query-weight (fitted weight {served_w})\n", flush=True)
    grid_rr = {}
    for w in GRID:
        grid_rr[w] = {s.name: [r[0] for r in rank_set(s, at_weight(w), full_rank)] for s in screen.sets}
        for s in screen.sets:
            undo(s)
    cells = {(s.name, n): cell(s, query, coarse) for s in screen.sets for n, (q, query, *_r) in enumerate(s.items)}
    for s in screen.sets:
        base = [r[0] for r in screen.base[s.name]]
        best = [max(grid_rr[w][s.name][n] for w in GRID) for n in range(len(s.items))]
        line = ", ".join(f"{w} {math.fsum(grid_rr[w][s.name]) / len(base):.4f}" for w in GRID)
        print(f"{s.name}: served {math.fsum(base) / len(base):.4f}; one weight for all: {line}; "
              f"oracle per question {math.fsum(best) / len(best):.4f}")
    fitted = choose(screen, grid_rr, cells, lambda name, n: True)
    print("\nin-sample cells (lang, story)" if coarse else "\nin-sample cells (lang, length bin ≤6/≤12/more, unknown term, story)",
          ": weight, questions per set")
    for key, w in fitted.items():
        counts = {s.name: sum(1 for n in range(len(s.items)) if cells[s.name, n] == key) for s in screen.sets}
        print(f"  {key}: {w}  {counts}")
    in_sample = {(s.name, q.id): fitted[cells[s.name, n]] for s in screen.sets for n, (q, *_r) in enumerate(s.items)}
    oof = {}
    for fold in range(FOLDS):
        chosen = choose(screen, grid_rr, cells, lambda name, n, f=fold: n % FOLDS != f)
        for s in screen.sets:
            for n, (q, *_r) in enumerate(s.items):
                if n % FOLDS == fold:
                    oof[s.name, q.id] = chosen.get(cells[s.name, n], served_w)
    tag = "query-weight" + (" coarse" if coarse else "")
    compare(screen, f"{tag} in sample", per_question(in_sample), full_rank, False)
    compare(screen, f"{tag} out of fold", per_question(oof), full_rank, False)


# --- asking-clause ------------------------------------------------------------------------

CUT = re.compile(r"\s*[,;]\s*")


def asking_part(text: str) -> str | None:
    """The asking sentences of a story question; in one sentence, the clauses from the last one
    the cues say asks to the end. None when nothing asks apart from a situation."""
    asks = asking_sentences(text)
    if asks:
        part = " ".join(asks)
    else:
        clauses = [c for c in CUT.split(text.strip()) if c]
        asking = [n for n, c in enumerate(clauses) if question_types(c)]
        if len(clauses) < 2 or not asking or asking[-1] == 0:
            return None
        part = " ".join(clauses[asking[-1]:])
    return part if part != " ".join(text.split()) else None


def asking_clause(share: float, long: int = LONG):
    def change(s, q, query, cos, lex):
        undo(s)
        part = asking_part(query.text) if len(analyze(query.text)) > long else None
        if part is None:
            return s.r.fused(cos, lex)
        asked = s.text_cosines(reading(part))
        other = s.r.translation(query)
        if other is not None:
            asked = bridged(asked, s.text_cosines(reading(other)), s.r.langs, query.lang)
        mixed_cos = {i: (1.0 - share) * cos[i] + share * asked[i] for i in sorted(cos)}
        s.memo["parts"] = (mixed_cos, lex)
        return s.r.fused(mixed_cos, lex)
    return change


def asking_clause_trials(screen) -> None:
    read = [(s.name, q.id, q.kind, asking_part(query.text)) for s in screen.sets
            for q, query, *_r in s.items if len(analyze(query.text)) > LONG]
    print(f"\n# asking-clause: {len(read)} long questions, {sum(1 for r in read if r[3])} with an asking part;"
          " our paraphrases among them:", sum(1 for r in read if r[0] == "ours" and r[2] == "paraphrase" and r[3]))
    for name, qid, kind, part in read[:12]:
        print(f"  {name} {qid} {kind}: {part}")
    for share in (0.2, 0.35):
        compare(screen, f"asking-clause share {share}", asking_clause(share), full_rank, False)


# --- article-level ------------------------------------------------------------------------


def article_index(s):
    """The BM25 index over whole articles (every chunk's indexed text, in order) and each chunk's
    article's position in it."""
    if "article-bm25" not in s.memo:
        docs = sorted({c.doc for c in s.chunks})
        texts = {d: [] for d in docs}
        for c in s.chunks:
            texts[c.doc].append(index_text(c))
        s.memo["article-bm25"] = (bm25_of([" \n".join(texts[d]) for d in docs]), {d: n for n, d in enumerate(docs)})
    return s.memo["article-bm25"]


def article_bm25(b: float):
    """Every chunk's fused score plus b × its article's BM25 (the question as the BM25 side reads
    it, over whole articles, divided by the best article's): the story's words and the asked
    detail may sit in different sections of the one article the question is about."""
    def adjust(s, query, fused, cos, lex):
        index, pos = article_index(s)
        got = index.scores(*weighted_terms(index, analyze(s.r.lexical_text(query))))
        top = max(got.values()) if got else 0.0
        by = {n: v / top for n, v in got.items()} if top > 0 else {}
        return {i: fused[i] + b * by.get(pos[s.r.docs[i]], 0.0) for i in sorted(fused)}
    return patched(adjust)


def article_mean(b: float):
    """Every chunk's fused score plus b × the mean fused score of its article's chunks
    (mean-pooling; max-pooling was tried in `third_reading_trial.py`)."""
    def adjust(s, query, fused, cos, lex):
        parts: dict[str, list[float]] = {}
        for i in sorted(fused):
            parts.setdefault(s.r.docs[i], []).append(fused[i])
        mean = {d: math.fsum(v) / len(v) for d, v in parts.items()}
        return {i: fused[i] + b * mean[s.r.docs[i]] for i in sorted(fused)}
    return patched(adjust)


def article_trials(screen) -> None:
    for b in (0.05, 0.1, 0.2):
        compare(screen, f"article-bm25 b {b}", article_bm25(b), full_rank, False)
    for b in (0.1, 0.3):
        compare(screen, f"article-mean b {b}", article_mean(b), full_rank, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["query-weight", "query-weight-coarse", "asking-clause", "article"])
    args = parser.parse_args()
    screen = served_screen(forget_parts=True)
    if args.only in (None, "query-weight"):
        query_weight(screen)
    if args.only in (None, "query-weight-coarse"):
        query_weight(screen, coarse=True)
    if args.only in (None, "asking-clause"):
        asking_clause_trials(screen)
    if args.only in (None, "article"):
        article_trials(screen)


if __name__ == "__main__":
    main()
