"""Fit `bilingual`'s opening-chunk penalty per chunker on dev splits only, into data/opening.json.

    python bench/fit_opening.py            # print the tables
    python bench/fit_opening.py --write    # also write py/raglab/data/opening.json

An article's first chunk restates its title and wins places the section holding the answer
should have (see `raglab.retrieval.bilingual`, step 4). For each chunker the served-default
rule chooses between (fixed and recursive) and every penalty in 0, 0.025, …, 0.3, it ranks
each answerable dev question of our set and of the external sets' dev halves as the served
retriever ranks them (`bilingual`, expansion on, the fitted weight and margin), the opening
chunks' fused scores lowered by the penalty, and takes MRR@10 per set. The served penalty (the
table's before the fit, 0 for a chunker it does not name) is kept while its mean over the sets
(each set counts once, as for the fusion weight) comes within `SLACK` of the best mean; only when
it falls outside does the fit choose again, the smallest penalty within `SLACK` of the best (a
chunker whose best is 0 gets none). Test splits are never read.

Why the served value is kept inside the slack (hysteresis): one of our dev questions moving
from first to second place shifts the mean by 0.0013, so a penalty near the slack's edge crossed
it on changes elsewhere in the ranking, and the smallest-within rule alone flipped the served
value on a 0.0001 margin (recursive 0.025 → 0 after the section place for English questions, our
dev MRR@10 0.757 → 0.753). A re-fit now moves the penalty only when the served one falls outside
the slack, by more than such noise.

Why the smallest within `SLACK` rather than the best: the penalty has a cost the dev splits can
hardly see. On our articles an opening chunk is the title with the lead paragraph, which is
what a definitional question ("What is Nano Loan?", "ক্যাশ ইন কী?") wants, and only one dev
question has its evidence there; TyDi's and COVID-QA's pages have no lead (a section follows
the title at once), so no opening chunk. When written,
the recursive curve rose to 0.8229 at 0.1 and levelled off at 0.8241-0.8245 from 0.15 to 0.3,
where the lead paragraphs of "What is an agent?", "What is Shapla Pay?" and "What is Nano
Loan?" leave the top three; at 0.1 they stay in it.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

import fitting  # noqa: E402
from fit_fusion import default_sets  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.evaluation.metrics import gains, recall_at, reciprocal_rank  # noqa: E402
from raglab.retrieval.bilingual import OPENING_TABLE, BilingualRetriever, demoted, fitted_opening_penalty  # noqa: E402

PENALTIES = [i / 40 for i in range(13)]
# One of our dev questions moving from first to second place moves the three-set mean by 0.0013:
# gains this small do not pay for the cost described above.
SLACK = 0.002
CHUNKERS = ("fixed", "recursive")


def chosen_penalty(means: dict[float, float], served: float) -> float:
    """The penalty the rule serves, from each penalty's mean dev MRR@10 over the sets: `served`
    while its mean comes within `SLACK` of the best, else the smallest penalty that does.

    >>> chosen_penalty({0.0: 0.8139, 0.025: 0.8140, 0.1: 0.8158}, 0.025)
    0.025
    >>> chosen_penalty({0.0: 0.8139, 0.025: 0.8100, 0.1: 0.8158}, 0.025)
    0.0
    >>> chosen_penalty({0.0: 0.8100, 0.025: 0.8140, 0.1: 0.8158}, 0.0)
    0.025
    """
    top = max(means.values())
    within = [p for p in sorted(means) if means[p] >= top - SLACK - 1e-12]
    return served if served in within else within[0]


def score_set(corpus_dir: str, goldens_path: str, chunker: str, penalties: list[float]) -> dict[float, dict[str, float]]:
    """{penalty: {"mrr": …, "recall3": …, "n": …}} over the set's answerable dev questions."""
    docs = load_corpus(corpus_dir)
    questions = [q for q in load_goldens(goldens_path, docs) if q.split == "dev" and q.answerable]
    chunks = chunk_corpus(docs, chunker)
    cover = coverage_index(chunks, questions, 0.5)
    served = BilingualRetriever(chunks, opening_penalty=0.0)
    rows: dict[float, list[tuple[float, float]]] = {p: [] for p in penalties}
    for q, query in zip(questions, fitting.served_queries(docs, questions)):
        cosines, lexical = served.cosines(query), served.lexical_scores(query)
        fused, choice = served.fused(cosines, lexical), served.place_choice(cosines, lexical)
        found = cover[q.id]
        for p in penalties:
            chosen = None if choice is None else demoted(choice, served.opening, p)
            ranked = [h.index for h in served.ranked(demoted(fused, served.opening, p), query, 10, chosen)]
            gain = gains([found.get(i, frozenset()) for i in ranked])
            rows[p].append((reciprocal_rank(gain, 10), recall_at(gain, q.n_facts, 3)))
    return {p: {"mrr": round(math.fsum(r[0] for r in rs) / len(rs), 4),
                "recall3": round(math.fsum(r[1] for r in rs) / len(rs), 4), "n": len(rs)} for p, rs in rows.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"write the chosen penalties to py/raglab/data/{OPENING_TABLE}")
    args = parser.parse_args()
    sets = default_sets()
    chosen: dict[str, float] = {}
    record_sets: dict[str, dict] = {}
    for chunker in CHUNKERS:
        served = fitted_opening_penalty(chunker)
        grid = sorted(set(PENALTIES) | {served})  # a served value off the grid is scored too
        table = {}
        for name, corpus_dir, questions in sets:
            print(f"scoring {name}, {chunker} chunks ...", file=sys.stderr, flush=True)
            table[name] = score_set(corpus_dir, questions, chunker, grid)
        print(f"\n{chunker} chunks:\n")
        print("| penalty | " + " | ".join(f"{n} MRR@10" for n in table) + " | mean | ours recall@3 |")
        print("|---:|" + "---:|" * (len(table) + 2))
        means = {p: math.fsum(table[n][p]["mrr"] for n in table) / len(table) for p in grid}
        for p in grid:
            print(f"| {p:.3f} | " + " | ".join(f"{table[n][p]['mrr']:.4f}" for n in table)
                  + f" | {means[p]:.4f} | {table['ours'][p]['recall3']:.3f} |")
        top = max(means.values())
        best_p = chosen_penalty(means, served)
        best = means[best_p]
        chosen[chunker] = best_p
        record_sets[chunker] = {n: {"n": table[n][best_p]["n"], "mrr": table[n][best_p]["mrr"]} for n in table}
        how = "kept" if best_p == served else f"was {served}"
        print(f"\nchosen penalty for {chunker} chunks: {best_p} ({how}; mean dev MRR@10 {best:.4f}, best {top:.4f}, "
              f"{table['ours'][0.0]['mrr']:.4f} → {table['ours'][best_p]['mrr']:.4f} on ours)")
    if args.write:
        record = {"penalty": chosen, "fitted_by": "bench/fit_opening.py",
                  "objective": "the served penalty while within SLACK of the best mean dev MRR@10 over sets, else the smallest within it; ranked as bilingual ranks, per chunker", "sets": record_sets}
        path = fitting.write_table(OPENING_TABLE, record)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
