"""How well the answerer's confidence is calibrated: a reliability table, per split.

    .venv/bin/python bench/calibration.py                  # the served default, dev and test
    .venv/bin/python bench/calibration.py --bins 5 --json  # coarser bins, machine-readable
    .venv/bin/python bench/calibration.py --slices         # ... and the answer figures by language and kind

Every question of the split is answered at threshold 0 (`evaluation.engine.evaluate`, the
records `raglab compare` scores), and sorted into bins of confidence. Per bin: how many
questions, their mean confidence, and the share whose answer states the reference fact
(`metrics.holds_fact`; an answer to an unanswerable question never does). A calibrated
confidence has the two close in every bin; the expected calibration error (ECE) is their gap
weighted by the bin's share of questions. The served threshold and what it gives on the split
are printed below (`stats.tune`: the most answers whose dev risk, wrong among the answered, stays <= 0.10).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import KINDS, LANGS, load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index, evaluate  # noqa: E402
from raglab.evaluation.stats import summarise, tune  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402

FIGURES = ("holds", "holds_strict", "short_f1", "answer_rate", "abstention_rate", "wrong_rate")


def reliability(records: list[dict], bins: int) -> list[dict]:
    rows = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        got = [r for r in records if r["answer"] is not None and (lo <= r["confidence"] < hi or (b == bins - 1 and r["confidence"] == 1.0))]
        right = [1.0 if r["outcome"] == "right" else 0.0 for r in got]
        rows.append({"bin": f"{lo:.1f}-{hi:.1f}", "n": len(got),
                     "confidence": math.fsum(r["confidence"] for r in got) / len(got) if got else None,
                     "right": math.fsum(right) / len(got) if got else None})
    return rows


def ece(rows: list[dict]) -> float:
    n = sum(r["n"] for r in rows)
    return math.fsum(r["n"] * abs(r["confidence"] - r["right"]) for r in rows if r["n"]) / n if n else 0.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bins", type=int, default=10)
    p.add_argument("--json", action="store_true")
    p.add_argument("--slices", action="store_true", help="also the answer figures by language and question kind")
    args = p.parse_args(argv)
    config = Config()
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
    pipe = Pipeline(docs, config)
    cover = coverage_index(pipe.chunks, questions, 0.5)
    records = evaluate(pipe, questions, cover, config.k, 0.5)
    dev = [r for r in records if r["split"] == "dev"]
    tuned = tune(dev)
    out = {"config": config.label, "served_threshold": config.threshold, "tuned_on_dev": tuned["threshold"], "splits": {}}
    for split in ("dev", "test"):
        mine = [r for r in records if r["split"] == split]
        rows = reliability(mine, args.bins)
        s = summarise(mine, config.threshold)
        out["splits"][split] = {"questions": len(mine), "bins": rows, "ece": ece(rows),
                                "at_served_threshold": {k: s[k] for k in FIGURES}}
        if args.slices:
            groups = [(f"lang {x}", lambda r, x=x: r["lang"] == x) for x in LANGS] + \
                     [(f"kind {x}", lambda r, x=x: r["kind"] == x) for x in KINDS]
            out["splits"][split]["slices"] = {name: {k: summarise([r for r in mine if keep(r)], config.threshold)[k]
                                                     for k in ("n",) + FIGURES}
                                              for name, keep in groups if any(keep(r) for r in mine)}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{config.label}, served threshold {config.threshold:.2f} (the rule on dev gives {tuned['threshold']:.2f})")
    for split, got in out["splits"].items():
        print(f"\n{split} ({got['questions']} questions), ECE {got['ece']:.3f}")
        print(f"{'confidence':>11}  {'n':>4}  {'mean conf.':>10}  {'right':>6}  reliability (# = right, . = confidence)")
        for r in got["bins"]:
            if not r["n"]:
                print(f"{r['bin']:>11}  {0:>4}")
                continue
            bar = ["#" if i < round(20 * r["right"]) else " " for i in range(20)]
            mark = min(19, round(20 * r["confidence"]))
            bar[mark] = "." if bar[mark] == " " else ":"
            print(f"{r['bin']:>11}  {r['n']:>4}  {r['confidence']:>10.3f}  {r['right']:>6.3f}  |{''.join(bar)}|")
        a = got["at_served_threshold"]
        print(f"at {config.threshold:.2f}: answered {a['answer_rate']:.3f} of answerable, abstained {a['abstention_rate']:.3f} "
              f"of unanswerable, wrong {a['wrong_rate']:.3f} of all, holds fact {a['holds']:.3f} (strict "
              f"{a['holds_strict']:.3f}), short F1 {a['short_f1']:.3f}")
        for name, fig in got.get("slices", {}).items():
            shown = "  ".join(f"{k} {'n/a' if fig[k] is None else format(fig[k], '.3f')}" for k in FIGURES)
            print(f"  {name:18s} n={fig['n']:<4d} {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
