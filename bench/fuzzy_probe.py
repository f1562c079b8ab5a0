"""How often fuzzy matching rewrites a *correct* word the index does not know.

    .venv/bin/python bench/fuzzy_probe.py            # the probe's rewrites, then the dev goldens'
    .venv/bin/python bench/fuzzy_probe.py --json

The lexical side replaces every question word the BM25 index lacks by its nearest index words
(`retrieval.lexical.alternatives`), and the answerer's coverage reads such a word as the index
word `Pipeline.closest` names. That rescues misspellings, but our help centre's vocabulary is
small, and customers' real questions are full of correct words it does not hold (relatives,
shops, places, everyday verbs): "sister" read as *system* searches for the wrong thing.

`PROBE` is a set of realistic customer questions on the help centre's topics, each written
with correctly spelt words (English and Bangla) that the bundled corpus does not use; they
are a probe, not goldens (no evidence, no split). For each question the script lists every
analysed term the index lacks and what the lexical side searches for instead, and what
`Pipeline.closest` reads it as. A rewrite of a probe word is a harm: no word here is a typo.
Then the same list for the golden dev questions (never test), where the misspelt questions'
rewrites are the ones that should stay.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.retrieval.lexical import alternatives  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402

PROBE = (
    # English: relatives, shops, places, everyday verbs and nouns
    "Can I send money to my sister in Sylhet for her wedding?",
    "My brother lives abroad, how can he send money to our mother?",
    "I want to pay my daughter's tuition at her university",
    "My grandfather cannot read, can my nephew open an account for him?",
    "How do I pay the landlord the rent every month?",
    "The grocery shop near my house says they take Shapla Pay, how do I pay them?",
    "My husband lost his phone on the bus yesterday, what should he do?",
    "Someone stole my wallet and my phone at the market",
    "Can my cousin cash out at the pharmacy next to the mosque?",
    "I borrowed money from a friend, can I return it through the app?",
    "My son's school asks for the exam fee, can I pay it here?",
    "The electricity bill came twice this month, can I get a refund?",
    "My uncle in Dubai wants to send remittance to my aunt in Comilla",
    "Is there a charge if I top up my wife's phone?",
    "My salary comes on Thursday, can I save some of it every week?",
    "The shopkeeper took money but the receipt never arrived",
    "A stranger called pretending to be from the bank and asked for the code",
    "My neighbour sent money to the wrong number by mistake, what now?",
    "How can a farmer in the village find the nearest agent?",
    "Can I buy medicine at the chemist with a QR payment?",
    # Bangla: the same kinds of words (বোন sister, ভাই brother, দোকান shop, গ্রাম village ...)
    "আমার বোনের বিয়েতে সিলেটে টাকা পাঠাতে চাই, কীভাবে পাঠাবো?",
    "ভাই বিদেশে থাকে, মায়ের কাছে টাকা পাঠাবে কীভাবে?",
    "দোকানদার টাকা নিয়েছে কিন্তু রসিদ আসেনি",
    "বাসে আমার ফোন চুরি হয়ে গেছে, এখন কী করবো?",
    "গ্রামের বাজারে এজেন্ট কোথায় পাবো?",
    "মেয়ের স্কুলের বেতন কি এখান থেকে দেওয়া যায়?",
    "বাড়িওয়ালাকে প্রতি মাসে ভাড়া দিতে চাই",
    "চাচা দুবাই থেকে রেমিট্যান্স পাঠালে কত দিনে আসবে?",
    "স্বামীর মোবাইলে রিচার্জ করলে কি চার্জ কাটে?",
    "বন্ধুর কাছ থেকে ধার নেওয়া টাকা ফেরত দিতে চাই",
    "হাসপাতালের বিল কি অ্যাপে দেওয়া যায়?",
    "দাদা পড়তে পারেন না, ভাতিজা কি তার অ্যাকাউন্ট খুলে দিতে পারবে?",
    "প্রতিবেশী ভুল করে অন্য নাম্বারে টাকা পাঠিয়েছে",
    "অচেনা লোক ফোন করে ব্যাংকের লোক সেজে কোড চাইছে",
    "বেতনের টাকা থেকে প্রতি সপ্তাহে কিছু জমাতে চাই",
    "ছেলের পরীক্ষার ফি কীভাবে দেবো?",
)


def rewrites(pipe: Pipeline, question: str) -> list[dict]:
    """Every analysed term of `question` the index lacks: what the lexical side searches for
    instead (index words, or nothing) and what the answerer's coverage reads it as."""
    bm25 = pipe._lexical_index()
    out = []
    for term in dict.fromkeys(analyze(question)):
        if term in bm25.df:
            continue
        out.append({"term": term, "searched": [w for w, _ in alternatives(bm25, term)],
                    "read": list(pipe.closest(term))})
    return out


def summary(rows: list[dict]) -> dict:
    unknown = [u for r in rows for u in r["unknown"]]
    return {"questions": len(rows), "unknown": len(unknown),
            "searched": sum(1 for u in unknown if u["searched"]),
            "read": sum(1 for u in unknown if u["read"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    docs = load_corpus(bundled_corpus_dir())
    # The served chunks with the plain BM25 retriever: the same index vocabulary as the served
    # retriever's lexical side, without loading the encoder.
    pipe = Pipeline(docs, Config(retriever="bm25"))
    probe = [{"question": q, "unknown": rewrites(pipe, q)} for q in PROBE]
    with open(os.path.join(ROOT, "goldens", "questions.jsonl"), encoding="utf-8") as fh:
        goldens = [json.loads(line) for line in fh if line.strip()]
    dev = [{"question": g["question"], "kind": g["kind"], "unknown": rewrites(pipe, g["question"])}
           for g in goldens if g["split"] == "dev"]
    typo = [r for r in dev if r["kind"] == "typo"]
    other = [r for r in dev if r["kind"] != "typo"]
    result = {"probe": summary(probe), "dev typo": summary(typo), "dev other": summary(other),
              "rows": {"probe": probe, "dev": dev}}
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
        return
    for name, rows in (("probe", probe), ("dev", dev)):
        print(f"## {name}")
        for r in rows:
            for u in r["unknown"]:
                tag = f"[{r['kind']}] " if "kind" in r else ""
                print(f"  {tag}{u['term']:<14} search {'/'.join(u['searched']) or '-':<28} read {'/'.join(u['read']) or '-'}")
    print()
    print("| set | questions | unknown terms | rewritten for search | read as an index word |")
    print("|---|---:|---:|---:|---:|")
    for name in ("probe", "dev typo", "dev other"):
        s = result[name]
        print(f"| {name} | {s['questions']} | {s['unknown']} | {s['searched']} | {s['read']} |")


if __name__ == "__main__":
    main()
