"""Real words are not misspellings: the guard on respelling a question word.

A question word the index lacks is read as the nearest index word (`text.fuzzy`): right for
"agnet" (agent) and "ভূল" (ভুল), wrong for a correct word the help centre never uses, which is
then read as a different word: "আজকে" (today) as আটক (detained), "she" as *see*, "bit" as
*but*. `data/known_words.json` lists the common English and Bangla words with their Zipf
frequency (log10 of occurrences per billion words, in tenths; `bench/known_words.py` derives it
from wordfreq's lists, CC BY-SA 4.0), as the analyzer reads them. A word of that list is taken
as meant unless the index word is far more common (a noisy-channel reading: a typist rarely
lands on a real word, so only a much more likely intended word outweighs the word typed):

    >>> respellable("agnet", "agent", 1.0)     # not a word: a typo
    True
    >>> respellable("she", "see", 1.0)         # a word as common as the other
    False
    >>> respellable("bit", "but", 1.0)         # "but" is only 16 times as common
    False

A slip that costs half (`text.fuzzy`: the Bangla letters and signs typed for one another,
"ভূল" for ভুল, "একাউন্ট" for অ্যাকাউন্ট) gives another spelling of the same word, never
another word, and is always allowed; so is one word with another ending ("compared" for
*compare*, "কতো" for কত: `other_ending`). A word below `MIN_ZIPF` is not protected: rare words
and frequent misspellings ("acount", "প্রনোদনা") look alike there.

Standard library only, integers only: the page reads the same table with the same result.
"""

from __future__ import annotations

import functools
import json

from raglab.text.fuzzy import MIN_LENGTH, O_KAR
from raglab.text.tables import read_table

# Zipf tenths: a word at least this common (ten per million words) is protected. Chosen on
# dev over 30 and 35, which protect frequent misspellings ("নূন্যতম" 36, "abel" 35) for nothing.
MIN_ZIPF = 40
# How much more common (Zipf tenths: 10 is ten times) the index word must be to be read in
# place of a protected word.
MARGIN = 20
CHEAP = 0.5  # a distance of cheap slips only: another spelling of the same word


@functools.lru_cache(maxsize=1)
def zipf_table() -> dict[str, int]:
    """term -> Zipf frequency in tenths, for both languages (the scripts never overlap)."""
    data = json.loads(read_table("known_words.json"))
    out: dict[str, int] = {}
    for groups in data["words"].values():
        for tenths, terms in groups.items():
            z = int(tenths)
            for term in terms.split(" "):
                out[term] = z
    return out


def zipf(term: str) -> int:
    """The Zipf frequency of an analysed term in tenths, 0 when the list lacks it."""
    return zipf_table().get(term, 0)


def protected(term: str) -> bool:
    """Whether `term` is common enough in its language to be taken as meant. A word shorter
    than the fuzzy matching's shortest ("fe") is never protected: it is only ever read as
    another word by a rule of its own (`answer.respell`: "fe" for *fee*)."""
    return len(term) >= MIN_LENGTH and zipf(term) >= MIN_ZIPF


def other_ending(a: str, b: str) -> bool:
    """Whether two words are one word with another ending: they share a start of at least
    four code points and differ past it in at most the shorter one's last ("compared",
    "compare"; "জানাব", "জানান"), or one is the other with the vowel ো written out at its end
    ("কতো", "কত"). Not "bit" and "but", "she" and "see", nor the shorter "son" and "so",
    "বাস" (bus) and "বাসা" (home), where an added letter makes another word.

    >>> other_ending("জানাব", "জানান"), other_ending("কতো", "কত"), other_ending("আজক", "আটক")
    (True, True, False)
    """
    if a + O_KAR == b or b + O_KAR == a:
        return True
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared >= 4 and shared >= min(len(a), len(b)) - 1


def respellable(term: str, index_word: str, distance: float) -> bool:
    """Whether a question's `term`, which the index lacks, may be read as `index_word`, found
    `distance` away by the fuzzy matching (see the module docstring)."""
    if distance <= CHEAP or not protected(term) or other_ending(term, index_word):
        return True
    return zipf(index_word) - zipf(term) >= MARGIN
