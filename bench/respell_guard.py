"""How often respelling turns a real word into another word, with and without the guard.

    .venv/bin/python bench/respell_guard.py          # as served (`text.known` guards)
    .venv/bin/python bench/respell_guard.py --off    # the guard disabled: what it was before
    .venv/bin/python bench/respell_guard.py --list   # every rewrite of a common word

For every question of a set, every analysed term the index lacks that the lexical side searches
for as other index words or the answerer's coverage reads as one (`bench/fuzzy_probe.py`'s
`rewrites`) is counted, and so is the part of them that are common words of their language
(Zipf frequency at least 4.0 in `data/known_words.json`, whatever `text.known.MIN_ZIPF` is).
The sets: `fuzzy_probe.PROBE` (correct words only), the dev golden questions (typo questions
apart: there a rewrite is mostly the rescue of a misspelling) and the dev halves of the
external English sets against their own corpora (strangers' questions, no typos planted).

**Findings** (served default's lexical index): see `docs/pipeline.md`, "Real words are not
respelled".
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, HERE)

import fuzzy_probe  # noqa: E402
from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.text import known  # noqa: E402

COMMON = 40  # Zipf tenths counted as a real word here (the least the shipped list holds), fixed so that settings compare
EXTERNAL = ("covid-qa-faq", "tydiqa-en")


def questions(path: str, split: str = "dev") -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [g for g in (json.loads(line) for line in fh if line.strip()) if g["split"] == split]


def count(pipe: Pipeline, items: list[tuple[str, str]]) -> tuple[dict, list[tuple[str, str, str]]]:
    """(counts, the common words rewritten as (term, searched, read)) over (set, question) items."""
    c = {"unknown": 0, "rewritten": 0, "common": 0}
    listed = []
    for _, q in items:
        for u in fuzzy_probe.rewrites(pipe, q, frozenset()):
            c["unknown"] += 1
            if u["searched"] or u["read"]:
                c["rewritten"] += 1
                if known.zipf(u["term"]) >= COMMON:
                    c["common"] += 1
                    listed.append((u["term"], "/".join(u["searched"]) or "-", "/".join(u["read"]) or "-"))
    return c, listed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--off", action="store_true", help="disable the guard (as before it)")
    parser.add_argument("--list", action="store_true", help="list the common words rewritten")
    args = parser.parse_args()
    if args.off:
        known.MIN_ZIPF = 10**9
    docs = load_corpus(bundled_corpus_dir())
    pipe = Pipeline(docs, Config(retriever="bm25"))  # the served index vocabulary, no encoder
    dev = questions(os.path.join(ROOT, "goldens", "questions.jsonl"))
    sets = [("probe", pipe, [("probe", q) for q in fuzzy_probe.PROBE]),
            ("dev typo", pipe, [(g["kind"], g["question"]) for g in dev if g["kind"] == "typo"]),
            ("dev other", pipe, [(g["kind"], g["question"]) for g in dev if g["kind"] != "typo"])]
    for name in EXTERNAL:
        folder = os.path.join(ROOT, "goldens", "external", name)
        ext = Pipeline(load_corpus(os.path.join(folder, "corpus")), Config(retriever="bm25"))
        sets.append((f"{name} dev", ext, [(name, g["question"]) for g in questions(os.path.join(folder, "questions.jsonl"))]))
    print("| set | questions | unknown terms | rewritten | of them common words |")
    print("|---|---:|---:|---:|---:|")
    lists = []
    for name, p, items in sets:
        c, listed = count(p, items)
        lists.append((name, listed))
        print(f"| {name} | {len(items)} | {c['unknown']} | {c['rewritten']} | {c['common']} |")
    if args.list:
        for name, listed in lists:
            print(f"\n## {name}")
            for term, searched, read in sorted(set(listed)):
                print(f"  {term:<16} search {searched:<28} read {read}")


if __name__ == "__main__":
    main()
