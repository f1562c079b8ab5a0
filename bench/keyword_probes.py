"""Questions typed the way one types into a search box ("cash out fee", "ক্যাশ আউট লিমিট"), asked
of the served pipeline: one line each with the answer type read, the confidence, whether it is
answered, the short answer and the quotes. No golden question is written this way; the verdicts
(right, wrong) are read by hand against the articles, in docs/pipeline.md ("Keywords typed without
a question").

    .venv/bin/python bench/keyword_probes.py
    .venv/bin/python bench/keyword_probes.py --json > probes.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.pipeline import Pipeline  # noqa: E402
from raglab.schema import ask_json  # noqa: E402

FEES = ("cash out fee", "cashout fee", "agent cash out charge", "atm cash out fee", "send money fee", "remittance fee",
        "bill payment charges", "recharge fee", "add money from card fee", "bank to wallet fee", "wallet to bank charge",
        "merchant payment fee", "statement fee", "card fee", "education fee payment charge", "ক্যাশ আউট চার্জ",
        "সেন্ড মানি চার্জ", "রেমিট্যান্স ফি", "এটিএম চার্জ", "বিল পরিশোধ চার্জ")
OTHERS = ("cash out limit", "daily cash out limit", "send money limit", "add money limit", "recharge limit",
          "cash in limit", "ক্যাশ আউট লিমিট", "সেন্ড মানি সীমা", "helpline number", "customer care number", "hotline",
          "refund time", "remittance time", "ekyc time", "minimum age", "nano loan amount", "savings profit rate",
          "pin reset", "forgot pin", "account locked")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="one JSON object per probe: the question and what `raglab ask --json` prints")
    args = p.parse_args(argv)
    served = Pipeline(load_corpus(bundled_corpus_dir()))
    rows = []
    for question in FEES + OTHERS:
        got = ask_json(served.ask(question))
        rows.append(got)
        if not args.json:
            quotes = " / ".join(q["text"] for q in got["quotes"]).replace("\n", " ")
            short = (got["short_answer"] or {}).get("text", "")
            shown = "withheld" if got["abstained"] else "answered"
            print(f"{question:28s} {got['answer_type']:9s} {got['confidence']:.2f} {shown:8s} {short} | {quotes[:120]}")
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
