"""Does "the heading says the question" tell the evidence from the chunks ranked above it? Dev only.

    python bench/heading_cover_trial.py                  # ours, recursive chunks, as served
    python bench/heading_cover_trial.py --set covid-qa-faq
    python bench/heading_cover_trial.py --trial            # rank with each candidate term
    python bench/heading_cover_trial.py --trial --set bench/fresh_probe_basic.jsonl

For each answerable dev question whose evidence `bilingual` ranks 2nd to 10th, three readings of
each chunk's heading path (the article's title and the section headings, as the chunk records
them and the index reads them), the question's content terms found there literally or through
the expansion table's aliases (`expansion.aliases`, as the answerer's `heading_cover` finds them),
idf-weighted:

- `path`: the share of the question's mass in the whole heading path;
- `own`: the share in the chunk's own heading alone (the title for an article's opening chunk,
  the section's heading for a section);
- `said`: the share of the heading path's own terms that are the question's (a heading that
  says the question and little else).

It counts, for the evidence and for each chunk ranked above it, how often each reading is at
least `MOST` (most of the question), and over the pairs (evidence, chunk above) how often the
evidence reads higher, the same, or lower, per question language and per pair language (same,
across). The same counts for the questions whose evidence ranks first, against the chunks
ranked 2nd to 10th, say what a bonus would put at risk. Test splits are never read.
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
from fitting import bundled_corpus_dir, dev_ranking, served_queries  # noqa: E402
from raglab.answer.candidates import ASKING, COURTESY, _present  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.retrieval.bilingual import BilingualRetriever  # noqa: E402
from raglab.retrieval.expansion import aliases  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from raglab.text.limits import index_heading  # noqa: E402

MOST = 0.5
READINGS = ("path", "own", "said")


def readings(heading: tuple[str, ...], weights: dict[str, float], alias: dict) -> dict[str, float]:
    total = math.fsum(weights.values())
    path = frozenset(analyze(" ".join(index_heading(heading))))
    own = frozenset(analyze(index_heading(heading)[-1])) if heading else frozenset()
    if total <= 0:
        return {r: 0.0 for r in READINGS}
    hit_path = _present(path, weights, alias)  # as the answerer's heading_cover finds them
    hit_own = _present(own, weights, alias)
    # the heading's own terms that are the question's (literally, or inside one of its aliases)
    q_side = set(weights) | {t for alts in alias.values() for a in alts for t in a}
    return {"path": math.fsum(weights[t] for t in hit_path) / total,
            "own": math.fsum(weights[t] for t in hit_own) / total,
            "said": len(path & q_side) / len(path) if path else 0.0}


CANDIDATES = ([("path", b) for b in (0.01, 0.02, 0.04)] + [("own", b) for b in (0.01, 0.02, 0.04)]
              + [("said", b) for b in (0.01, 0.02)] + [("waive", t) for t in (0.5, 0.75, 0.99)])


def load(setname: str, chunker: str):
    if setname == "ours":
        return dev_ranking(ROOT, chunker)
    if setname.endswith(".jsonl"):  # a probe file over the bundled corpus (all its answerable questions)
        docs = load_corpus(bundled_corpus_dir())
        questions = [q for q in load_goldens(setname, docs) if q.answerable]
    else:
        corpus, goldens = next((c, g) for name, c, g in default_sets() if name == setname)
        docs = load_corpus(corpus)
        questions = [q for q in load_goldens(goldens, docs) if q.split == "dev" and q.answerable]
    chunks = chunk_corpus(docs, chunker)
    return docs, questions, chunks, coverage_index(chunks, questions, 0.5), BilingualRetriever(chunks, chunker=chunker)


def trial(setname: str, chunker: str) -> None:
    """Each candidate term added to every fused score `bilingual` computes for the question (steps
    1-6 then rank as served): `path=b` adds b x the `path` reading, `own=b` and `said=b` likewise,
    `waive=t` gives an opening chunk its penalty back when its title holds at least t of the
    question (`own`). MRR@10 and recall@3 per slice, paired bootstrap, up / down."""
    from fitting import print_slice_tables
    docs, questions, chunks, cover, r = load(setname, chunker)
    mixed = r.mixed
    bonus: dict[int, float] = {}
    r.mixed = lambda parts, weight=None: {i: s + bonus.get(i, 0.0) for i, s in mixed(parts, weight).items()}
    ranks: dict[tuple, list] = {("served", 0): []}
    ranks.update({c: [] for c in CANDIDATES})
    for q, query in zip(questions, served_queries(docs, questions)):
        weights = {t: r.idf(t) for t in analyze(query.text) if t not in ASKING and t not in COURTESY}
        alias = aliases(query.text)
        memo: dict[tuple, dict] = {}
        for c in chunks:
            if c.heading not in memo:
                memo[c.heading] = readings(c.heading, weights, alias)
        read = [memo[c.heading] for c in chunks]
        for cand in [("served", 0)] + CANDIDATES:
            name, x = cand
            bonus.clear()
            if name in READINGS:
                bonus.update({i: x * rd[name] for i, rd in enumerate(read) if rd[name] > 0})
            elif name == "waive":
                bonus.update({i: r.opening_penalty for i, rd in enumerate(read) if r.opening[i] and rd["own"] >= x})
            hits = r.search(query, 10)
            ranks[cand].append(next((k for k, h in enumerate(hits, 1) if h.index in cover[q.id]), None))
    print_slice_tables(questions, ranks, CANDIDATES, f"{setname} ")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunker", default="recursive")
    parser.add_argument("--set", default="ours", help="ours, an external set's name (its dev half), or a probe file (.jsonl)")
    parser.add_argument("--list", action="store_true", help="print each 2nd-10th question")
    parser.add_argument("--trial", action="store_true", help="rank with each candidate term (`CANDIDATES`) instead")
    args = parser.parse_args()
    if args.trial:
        trial(args.set, args.chunker)
        return
    docs, questions, chunks, cover, r = load(args.set, args.chunker)
    below: dict[str, dict] = {}
    first: dict[str, dict] = {}

    def tally(table, key, ev, other):
        row = table.setdefault(key, {"q": set(), "pairs": 0, **{f"{r}_{s}": 0 for r in READINGS for s in ("ev_most", "ot_most", "hi", "eq", "lo")}})
        row["pairs"] += 1
        for name in READINGS:
            row[f"{name}_hi"] += ev[name] > other[name] + 1e-9
            row[f"{name}_eq"] += abs(ev[name] - other[name]) <= 1e-9
            row[f"{name}_lo"] += ev[name] < other[name] - 1e-9
            row[f"{name}_ot_most"] += other[name] >= MOST
        return row

    for q, query in zip(questions, served_queries(docs, questions)):
        hits = r.search(query, 10)
        rank = next((k for k, h in enumerate(hits) if h.index in cover[q.id]), None)
        if rank is None:
            continue
        weights = {t: r.idf(t) for t in analyze(query.text) if t not in ASKING and t not in COURTESY}
        alias = aliases(query.text)
        read = {h.index: readings(chunks[h.index].heading, weights, alias) for h in hits}
        ev = read[hits[rank].index]
        table, others = (first, hits[1:]) if rank == 0 else (below, hits[:rank])
        for h in others:
            pair = "same" if r.langs[h.index] == r.langs[hits[rank].index] else "across"
            for key in ("all", f"q {q.lang}", f"pair {pair}"):
                row = tally(table, key, ev, read[h.index])
                if q.id not in row["q"]:
                    row["q"].add(q.id)
                    for name in READINGS:
                        row[f"{name}_ev_most"] += ev[name] >= MOST
        if args.list and rank > 0:
            print(f"{q.id} [{q.lang}] rank {rank + 1}: {query.text}")
            for h in hits[:rank + 1]:
                rd = read[h.index]
                print(f"   {'*' if h.index == hits[rank].index else ' '} {chunks[h.index].id:28s} path {rd['path']:.2f} own {rd['own']:.2f} said {rd['said']:.2f}  {' / '.join(chunks[h.index].heading)}")
    for title, table in (("evidence ranked 2nd-10th, against the chunks above it", below),
                         ("evidence ranked 1st, against the chunks at 2nd-10th", first)):
        print(f"\n{args.set}, {title}:\n")
        print("| group | questions | pairs | " + " | ".join(f"{r}: ev ≥ {MOST} / other ≥ {MOST} / ev > = < other" for r in READINGS) + " |")
        print("|---|---:|---:|" + "---:|" * len(READINGS))
        for key in sorted(table):
            row = table[key]
            cells = [f"{row[f'{n}_ev_most']} / {row[f'{n}_ot_most']} / {row[f'{n}_hi']} {row[f'{n}_eq']} {row[f'{n}_lo']}" for n in READINGS]
            print(f"| {key} | {len(row['q'])} | {row['pairs']} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
