"""The asked section of an article the top three hold twice: the trial of `bilingual`'s step 5, dev
split only.

    python bench/asked_section_trial.py                   # recursive chunks, as served
    python bench/asked_section_trial.py --chunker fixed

A question told as a story names its article in the story, and the article's sections that
match the story best can take two of the top three while the section the asking sentence
means ranks below them. The rule tried: when two of `bilingual`'s top three (after the other
language's place) come from one article, that article's chunk that BM25 scores best on the
asking sentences alone (`answertypes.asking_sentences`; none for a question of one sentence)
is put in before the one of its chunks there that they score lowest, if it scores higher.
Two ways of making room: `insert`, the rest move down one (whatever was third leaves the
top three, another article's chunk too); `keep`, the article keeps the places it held and
its last chunk there comes fourth (another article's chunk, a second fact's or the other
language's, stays). `served` is the version served (`ranking.with_asked_section`): the
asked section takes the lowest of the article's places in the top three, if the asking
sentences score it higher than the chunk there, which comes fourth; the places above and
another article's stay. Each question is ranked as served without step 5 (the other
language's place of step 3 given), then with each rule; per slice,
recall@3 and MRR@10 before and after, the paired bootstrap of the difference
(`evaluation.stats.paired`), and every question whose top three gain or lose the evidence.
Nothing is fitted and test questions are never read.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from fitting import dev_ranking, paired_cells, recall3, reciprocal, served_queries  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.retrieval.ranking import SLOT, Hit, held_twice, rounded, top_n, with_other_language  # noqa: E402
from raglab.retrieval.ranking import with_asked_section as served_rule  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from raglab.text.answertypes import asking_sentences  # noqa: E402

RULES = ("insert", "keep", "served")


def with_asked_section(hits: list[Hit], asked: dict[int, float], docs: list[str], rule: str) -> list[Hit]:
    """`hits` (best first) with the asked section put in by `rule` (see the module docstring).
    Ties: the earlier chunk is the best, the later place the lowest.

    >>> hits = [Hit(0, 0.9), Hit(1, 0.8), Hit(5, 0.7), Hit(2, 0.6)]
    >>> docs = ["a", "a", "a", "b", "b", "c"]
    >>> [h.index for h in with_asked_section(hits, {2: 3.0, 0: 1.0}, docs, "insert")]
    [0, 2, 1, 5]
    >>> [h.index for h in with_asked_section(hits, {2: 3.0, 0: 1.0}, docs, "keep")]
    [0, 2, 5, 1]
    >>> [h.index for h in with_asked_section(hits, {2: 3.0}, ["a", "b", "a", "b", "b", "c"], "keep")]
    [0, 1, 5, 2]
    """
    found = held_twice(hits, asked, docs)
    if found is None:
        return hits
    doc, best = found
    places = [k for k in range(SLOT) if docs[hits[k].index] == doc]
    held = [hits[k].index for k in places]
    if best in held:
        return hits
    weakest = min(range(len(held)), key=lambda n: (rounded(asked.get(held[n], 0.0)), -n))
    if rounded(asked[best]) <= rounded(asked.get(held[weakest], 0.0)):
        return hits
    rest = [h for h in hits if h.index != best]
    if rule == "insert":
        at = places[weakest]
        return rest[:at] + [Hit(best, hits[at].score)] + rest[at:]
    held.insert(weakest, best)
    out = list(hits[:SLOT])
    for k, i in zip(places, held):
        out[k] = Hit(i, hits[k].score)  # scores stay with the places: they never rise down the list
    return out + [Hit(held[-1], hits[SLOT - 1].score)] + rest[SLOT:]


def first_rank(hits: list[Hit], relevant) -> int | None:
    return next((k for k, h in enumerate(hits, 1) if h.index in relevant), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunker", default="recursive")
    args = parser.parse_args()
    docs, questions, chunks, cover, r = dev_ranking(ROOT, args.chunker)
    chunk_docs = [c.doc for c in chunks]
    ranks: dict[str, list[int | None]] = {"before": []}
    ranks.update({rule: [] for rule in RULES})
    for q, query in zip(questions, served_queries(docs, questions)):
        cosines, lexical = r.cosines(query), r.lexical_scores(query)
        fused = r.fused(cosines, lexical)
        before = with_other_language(top_n(fused, 10), fused, r.langs, query.lang, r.margin, r.place_choice(cosines, lexical))
        ranks["before"].append(first_rank(before, cover[q.id]))
        asking = asking_sentences(query.text)
        asked = r.bm25.scores(*weighted_terms(r.bm25, analyze(" ".join(asking)))) if asking else {}
        for rule in RULES:
            hits = served_rule(before, asked, chunk_docs) if rule == "served" else with_asked_section(before, asked, chunk_docs, rule)
            ranks[rule].append(first_rank(hits[:10], cover[q.id]))
    groups = {"all": list(range(len(questions)))}
    for n, q in enumerate(questions):
        groups.setdefault(q.kind, []).append(n)
        groups.setdefault(q.lang, []).append(n)
    for rule in RULES:
        print(f"\n## {rule}\n\n| slice | n | recall@3 before → after | paired 95% | MRR@10 before → after | paired 95% |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, members in sorted(groups.items()):
            cells = paired_cells(ranks["before"], ranks[rule], members, (recall3, reciprocal))
            print(f"| {name} | {len(members)} | " + " | ".join(cells) + " |")
        for n, q in enumerate(questions):
            a, b = ranks["before"][n], ranks[rule][n]
            won, had = b is not None and b <= 3, a is not None and a <= 3
            if won != had:
                print(f"{'gained' if won else 'lost'} {q.id} ({q.kind}, {q.lang}): {a} → {b}")


if __name__ == "__main__":
    main()
