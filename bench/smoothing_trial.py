"""The neighbour smoothing of `hubness_trial.py --kept-places`, a second look on questions it was
never chosen on: the fresh probes and our later-written dev questions. Dev only.

    python bench/smoothing_trial.py                 # λ 0.15, 0.2, 0.25 against the served ranking
    python bench/smoothing_trial.py --lam 0.2       # one value
    python bench/smoothing_trial.py --lam 0.2 --moved   # and the questions it moves, per set

The candidate (`hubness_trial.kept_places`): each chunk's cosine plus λ times the mean cosine of its
article neighbours (the chunk before and after), the fused score, steps 3, 5 and 6 ranked on it,
and only the places the question's own language holds in the served ten re-filled in that order
(the other language's places as served). It was picked at λ 0.15–0.25 on our dev split and the
external dev halves; here it is also judged on the four fresh probe files (`bench/fresh_probe*.jsonl`,
their answerable questions, pooled and per file, sliced by the probes' own `kind` and language) and
on our dev questions written after q697 (`holdout_trial.py`'s later questions).

Per set and slice: n, the served figure and the candidate's (95% bootstrap intervals), and the
paired difference with its 95% paired-bootstrap interval and sign-flip p-value (the helpers of
`paired_retrieval_trial.py`). Nothing is fitted or written here; test questions are never read.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, HERE)

from hubness_trial import kept_places  # noqa: E402
from paired_retrieval_trial import delta, figure  # noqa: E402
from raglab.corpus.articles import bundled_corpus_dir  # noqa: E402
from screen_candidates import Set  # noqa: E402
from screen_weak import rank_set, read_banglish  # noqa: E402
from third_reading_trial import served, served_screen  # noqa: E402

PROBES = ("fresh_probe.jsonl", "fresh_probe_basic.jsonl", "fresh_probe_trouble.jsonl", "fresh_probe_other.jsonl")
LATER = 697  # our dev questions written after this one are the later ones

SLICES = {
    "all": lambda q: True,
    "paraphrase": lambda q: q.kind == "paraphrase",
    "en paraphrase": lambda q: q.kind == "paraphrase" and q.lang == "en",
    "bn paraphrase": lambda q: q.kind == "paraphrase" and q.lang == "bn",
    "en→bn": lambda q: q.kind == "crosslingual" and q.lang == "en",
    "bn→en": lambda q: q.kind == "crosslingual" and q.lang == "bn",
    "Bangla": lambda q: q.lang == "bn",
    "English": lambda q: q.lang == "en",
    "typo": lambda q: q.kind == "typo",
    "direct": lambda q: q.kind == "direct",
}


def later(q) -> bool:
    return q.id[1:].isdigit() and int(q.id[1:]) > LATER


def probe_sets() -> list[Set]:
    out = []
    for name in PROBES:
        print(f"ranking {name} ...", file=sys.stderr, flush=True)
        out.append(read_banglish(Set(name, bundled_corpus_dir(), os.path.join(HERE, name), "recursive")))
    return out


def table(groups: dict[str, list], base: dict, after: dict) -> None:
    """`groups`: label -> [(set, member)], pooled; base/after: set name -> rows."""
    print("| set / slice | n | figure | served | smoothed | paired difference [95%] p |")
    print("|---|---:|---|---|---|---|")
    for label, parts in groups.items():
        for k, fig in ((0, "MRR@10"), (1, "recall@3")):
            b = [r[k] for s, member in parts for (q, *_r), r in zip(s.items, base[s.name]) if member(q)]
            a = [r[k] for s, member in parts for (q, *_r), r in zip(s.items, after[s.name]) if member(q)]
            if b:
                print(f"| {label} | {len(b)} | {fig} | {figure(b)} | {figure(a)} | {delta(a, b)} |")


def moved(s: Set, base, after) -> str:
    out = []
    for (q, *_r), b, a in zip(s.items, base, after):
        if a != b:
            r0, r1 = (round(1 / x[0]) if x[0] else ">10" for x in (b, a))
            out.append(f"{q.id} ({q.lang} {q.kind}) {r0} → {r1}")
    return f"{s.name} ({len(out)}): " + ("; ".join(out) or "nothing")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lam", type=float, action="append", help="λ values (0.15, 0.2, 0.25 unless given)")
    parser.add_argument("--moved", action="store_true", help="list the questions each value moves")
    args = parser.parse_args()
    screen = served_screen()
    sets = screen.sets + probe_sets()
    ours, probes = screen.ours, sets[len(screen.sets):]
    base = {s.name: rank_set(s, served, kept_places(0)) for s in sets}
    for lam in args.lam or (0.15, 0.2, 0.25):
        after = {s.name: rank_set(s, served, kept_places(lam)) for s in sets}
        print(f"\n## kept places, λ {lam}: served → smoothed\n")
        groups = {f"ours dev {n}": [(ours, m)] for n, m in SLICES.items()}
        groups["ours dev later (after q697)"] = [(ours, later)]
        groups["ours dev later paraphrase"] = [(ours, lambda q: later(q) and q.kind == "paraphrase")]
        for s in screen.sets[1:]:
            groups[f"{s.name} dev"] = [(s, SLICES["all"])]
        groups.update({f"probes {n}": [(s, m) for s in probes] for n, m in SLICES.items()})
        groups.update({f"probe file {s.name}": [(s, SLICES["all"])] for s in probes})
        table(groups, base, after)
        if args.moved:
            for s in sets:
                print(f"\n{moved(s, base[s.name], after[s.name])}")


if __name__ == "__main__":
    main()
