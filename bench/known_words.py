"""Write `py/raglab/data/known_words.json`: the words of English and Bangla common enough that a
question word spelt as one of them is taken as meant, not as a misspelling (`text.known`).

    pip install wordfreq==3.1.1     # only to run this script; raglab never imports it
    .venv/bin/python bench/known_words.py --min-zipf 3.0

The word lists are wordfreq 3.1.1's "large" English and Bangla lists (Robyn Speer et al.,
Wikipedia, subtitles, news, books, web text and more; data licence CC BY-SA 4.0, code Apache 2.0).
Each word is analysed as raglab analyses a question (`text.analyzer.analyze`: one term, the
stemmed form; a stopword as its folded surface form, since the analyzer drops it but a misspelt
word may still be read as one), the frequencies of the words that share a term are added, and
every term whose Zipf frequency (log10 of occurrences per billion words) is at least
`--min-zipf` is kept, with that frequency in tenths (an integer: the browser reads the same
numbers). Terms are grouped by frequency, each group one space-separated string, in sorted
order, so the file is small and the same on every run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.text.analyzer import STOPWORDS, _fold_bangla, analyze  # noqa: E402
from raglab.text.fuzzy import script  # noqa: E402

OUT = os.path.join(ROOT, "py", "raglab", "data", "known_words.json")
ABOUT = ("Common English and Bangla words, as raglab's analyzer reads them, with their Zipf frequency in "
         "tenths: the words a question may use that the help centre does not, which the fuzzy matching of "
         "misspelt words leaves alone (raglab.text.known). Derived by bench/known_words.py from the 'large' "
         "English and Bangla word lists of wordfreq 3.1.1 (Robyn Speer, https://github.com/rspeer/wordfreq; "
         "sources: Wikipedia, OpenSubtitles, news, books, web text, Twitter, Reddit). Data licence: Creative "
         "Commons Attribution-ShareAlike 4.0 (https://creativecommons.org/licenses/by-sa/4.0/); this file is "
         "distributed under the same licence.")


def terms_of(lang: str) -> dict[str, float]:
    """term -> summed frequency of the words of wordfreq's list that analyse to it."""
    import wordfreq

    want = "L" if lang == "en" else "B"
    out: dict[str, float] = {}
    for word, freq in sorted(wordfreq.get_frequency_dict(lang, "large").items()):
        surface = _fold_bangla(word) if want == "B" else word.lower()
        if surface in STOPWORDS:
            term = surface
        else:
            got = analyze(word)
            if len(got) != 1:
                continue
            term = got[0]
        if script(term) != want or (want == "L" and not (term.isascii() and term.isalpha())):
            continue
        out[term] = out.get(term, 0.0) + freq
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--min-zipf", type=float, default=3.0)
    args = parser.parse_args()
    table = {"about": ABOUT, "min_zipf_tenths": round(args.min_zipf * 10), "words": {}}
    for lang in ("en", "bn"):
        groups: dict[int, list[str]] = {}
        for term, freq in terms_of(lang).items():
            tenths = round((math.log10(freq) + 9) * 10)
            if tenths >= table["min_zipf_tenths"]:
                groups.setdefault(tenths, []).append(term)
        table["words"][lang] = {str(z): " ".join(sorted(groups[z])) for z in sorted(groups, reverse=True)}
        print(f"{lang}: {sum(len(g) for g in groups.values()):,} terms")
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(table, fh, ensure_ascii=False, indent=0)
        fh.write("\n")
    print(f"{OUT}: {os.path.getsize(OUT):,} bytes")


if __name__ == "__main__":
    main()
