"""Apply the served-default rule (docs/served-default.md, fourth version) end to end, on dev only.

    python bench/served_default.py            # prints the candidate tables (minutes)
    python bench/served_default.py --write    # also records the external figures for compare

Step 1 runs the whole grid on our dev split at k = 3; steps 2 and 3 (candidates and the
slice guard) are `raglab.evaluation.recommend`'s, as `raglab compare` applies them; then
each candidate the guard keeps runs, in its own configuration (chunker, retriever,
expansion), on each external set's dev half, and `--write` records those MRR@10 figures in
py/raglab/data/external_dev.json, which `raglab compare` reads for step 4; step 4 takes the
mean of our dev paraphrase MRR@10 and the external sets' dev MRR@10; step 5 compares the
pick's dev answer F1 at k = 3, 5 and 8. Test questions are never read.
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
from raglab import evaluation  # noqa: E402,F401
from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation import engine  # noqa: E402
from raglab.evaluation.recommend import EXTERNAL_TABLE, GUARDS  # noqa: E402
from raglab.pipeline import Config  # noqa: E402

K = 3
K_CHOICES = (3, 5, 8)
F1_MARGIN = 0.05


def external_sets() -> list[tuple[str, str, str]]:
    ext = os.path.join(ROOT, "goldens", "external")
    out = []
    for name in sorted(os.listdir(ext)):
        corpus, questions = os.path.join(ext, name, "corpus"), os.path.join(ext, name, "questions.jsonl")
        if os.path.isdir(corpus) and os.path.exists(questions):
            out.append((name, corpus, questions))
    return out


def dev_report(corpus: str, goldens: str, configs: list[Config] | None, k: int = K) -> dict:
    docs = load_corpus(corpus)
    questions = load_goldens(goldens, docs)
    return engine.run(docs, questions, configs, split="dev", k=k)


def _f(x) -> str:
    return "—" if x is None else f"{x:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help=f"record the external figures in py/raglab/data/{EXTERNAL_TABLE}")
    args = parser.parse_args()
    print("step 1: our dev split, the whole grid ...", file=sys.stderr, flush=True)
    ours = dev_report(bundled_corpus_dir(), os.path.join(ROOT, "goldens", "questions.jsonl"), None)
    rec = ours["recommendation"]
    figures = rec["figures"]
    by_config = {c["label"]: c for c in ours["configs"]}
    guarded = [Config(chunker=by_config[label]["chunker"], retriever=by_config[label]["retriever"],
                      expand=by_config[label]["expand"]) for label in rec["guarded"]]
    external: dict[str, dict[str, float]] = {}
    for name, corpus, questions in external_sets():
        print(f"step 4: {name} dev half, the guarded candidates in their own configuration ...", file=sys.stderr, flush=True)
        report = dev_report(corpus, questions, guarded)
        external[name] = {c["label"]: c["metrics"]["mrr"] for c in report["configs"]}
    if args.write:
        record = {"fitted_by": "bench/served_default.py --write", "sets": sorted(external),
                  "objective": "dev MRR@10 on each external set's dev half, each candidate in its own configuration",
                  "mrr": {label: {s: round(external[s][label], 6) for s in sorted(external)} for label in rec["guarded"]}}
        path = fitting.write_table(EXTERNAL_TABLE, record)
        print(f"wrote {path}", file=sys.stderr)
    by_label = {c["label"]: c for c in ours["configs"]}

    print(f"Step 2: best dev recall@{K} {rec['best']} {_f(figures[rec['best']]['recall'])} "
          f"[{_f(rec['best_ci'][0])}, {_f(rec['best_ci'][1])}]; {len(rec['candidates'])} candidates reach "
          f"{_f(rec['floor'])}.\n")
    names = [g[0] for g in GUARDS if g[0] in rec["guards"]]
    print("Step 3, the slice guard (dev; recall@3 for crosslingual and typo, MRR@10 for Bangla and paraphrase; "
          "lower end of the best candidate's 95% interval in the second row):\n")
    print("| candidate (dev recall@3) | " + " | ".join(f"{n} (n = {rec['guards'][n]['n']})" for n in names) + " | rejected |")
    print("|---|" + "---:|" * len(names) + "---|")
    print("| *floor (best)* | " + " | ".join(f"{_f(rec['guards'][n]['low'])} ({rec['guards'][n]['best']})" for n in names) + " | |")
    for label in rec["candidates"]:
        f = figures[label]["slice_figures"]
        bad = rec["rejected"].get(label, [])
        print(f"| {label} ({_f(figures[label]['recall'])}) | "
              + " | ".join(("~~" + _f(f.get(n)) + "~~") if n in bad else _f(f.get(n)) for n in names)
              + f" | {', '.join(bad) or 'no'} |")
    print("\nStep 4, the guarded candidates (MRR@10 on dev; external sets in each candidate's own configuration):\n")
    sets = list(external)
    print("| candidate | our paraphrase | " + " | ".join(sets) + " | mean | our dev MRR@10 | words |")
    print("|---|---:|" + "---:|" * len(sets) + "---:|---:|---:|")
    scored = []
    for label in rec["guarded"]:
        parts = [figures[label]["paraphrase_mrr"]] + [external[s][label] for s in sets]
        mean = math.fsum(parts) / len(parts)
        scored.append((round(mean, 3), round(figures[label]["mrr"], 3), -figures[label]["words"], label, parts, mean))
    scored.sort(key=lambda r: (-r[0], -r[1], -r[2]))
    for _, _, _, label, parts, mean in scored:
        mark = "**" if label == scored[0][3] else ""
        print(f"| {label} | " + " | ".join(_f(p) for p in parts) + f" | {mark}{_f(mean)}{mark} | "
              f"{_f(figures[label]['mrr'])} | {figures[label]['words']:.0f} |")
    pick = by_label[scored[0][3]]
    print(f"\nStep 4 picks {pick['label']}.\n")
    print("Step 5, k by dev answer F1 (threshold tuned on dev at each k):\n")
    print("| k | threshold | dev answer F1 | dev short-answer F1 | dev recall@k |")
    print("|---:|---:|---:|---:|---:|")
    f1 = {}
    for k in K_CHOICES:
        cfg = Config(chunker=pick["chunker"], retriever=pick["retriever"], expand=pick["expand"], k=k)
        row = dev_report(bundled_corpus_dir(), os.path.join(ROOT, "goldens", "questions.jsonl"), [cfg], k=k)["configs"][0]
        f1[k] = (row["metrics"]["f1"], row["threshold"])
        print(f"| {k} | {row['threshold']:.2f} | {_f(row['metrics']['f1'])} | {_f(row['metrics']['short_f1'])} | "
              f"{_f(row['metrics']['recall'])} |")
    k = K
    for other in K_CHOICES:
        if other != K and f1[other][0] > f1[k][0] + F1_MARGIN:
            k = other
    print(f"\nServe {pick['label']} with k = {k} and threshold {f1[k][1]:.2f}.")


if __name__ == "__main__":
    main()
