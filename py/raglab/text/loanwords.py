"""Loanwords: the English words the Bangla articles write in Bangla letters (স্ক্রিন, ব্যাংক),
matched by sound to the index's terms of the other script, in the coarse phonetic alphabet
of `text.banglish` (the same tables, read for loanwords as set out below). Plain string work
over code-point tables, so the browser reads them exactly as Python does natively."""

from __future__ import annotations

import functools

from raglab.text.banglish import _BANGLA_WORD, CONSONANTS, MAX_DISTANCE, READERS_KEPT, VOWEL_COST, VOWELS, distance, latin, roman, skeleton

# Loanwords. The Bangla articles write many English words in Bangla letters (স্ক্রিন, ব্যাংক,
# স্টেটমেন্ট, পিন), the words a question in the other language shares with a unit when the
# expansion table names no alias for them. Read for loanwords, the dental and the aspirated
# stops keep sounds of their own: Bangla writes an English t or d as ট or ড, an English k as ক,
# so "taken" is no থাকেন (stay), "token" no তখন (then), "talk" no তালিকা (list).
LOAN_CONSONANTS = {**CONSONANTS, "ত": "T", "থ": "T", "দ": "D", "ধ": "D", "খ": "K", "ঘ": "G", "ছ": "C",
                   "ঝ": "J", "ঠ": "T", "ঢ": "D"}
# English spellings of a sound the coarse alphabet writes otherwise, in order: sch ("school",
# "scheme": স্কুল, স্কিম), a soft c or g ("balance" ব্যালেন্স, "message" মেসেজ), -tion, "ay" and "ai" (মেইল, পে).
ENGLISH = (("sch", "sk"), ("tion", "sn"), ("sion", "sn"), ("ck", "k"), ("ce", "se"), ("ci", "si"), ("cy", "si"),
           ("ge", "je"), ("gi", "ji"), ("ay", "e"), ("ai", "e"))
LOAN_CONSONANTS_MIN = 3  # a word of fewer consonants sounds like too many words of the other language
LOAN_LONG = 5  # and one of fewer than this many is matched within one vowel slip only
_SCHWA = "'"  # the inherent vowel, marked while a word is read for loanwords (`silent_vowels`)


def english_sound(word: str) -> str:
    """An English word in the coarse alphabet, spelt as it is said: a final -re read -er, a
    silent final e dropped, a final y read as i, and ng as n, as `loan_sounds` reads ং.

    >>> english_sound("balance"), english_sound("screen"), english_sound("school")
    ('balans', 'skrin', 'skul')
    """
    word = word.lower()
    for spelt, sound in ENGLISH:
        word = word.replace(spelt, sound)
    if len(word) > 3 and word.endswith("re") and word[-3] not in VOWELS:
        word = word[:-2] + "er"  # "centre" is said as "center" (সেন্টার)
    if len(word) > 3 and word.endswith("e") and word[-2] not in VOWELS:
        word = word[:-1]
    if word.endswith("y"):
        word = word[:-1] + "i"
    return latin(word).replace("ng", "n")


def _english_word(term: str) -> bool:
    """A word of Latin letters with a vowel: no abbreviation ("sms" is no সমস্যা)."""
    return term.isascii() and term.isalpha() and any(c in VOWELS for c in term)


def loan_sounds(word: str) -> tuple[str, ...]:
    """A Bangla word in the coarse alphabet read for loanwords (`LOAN_CONSONANTS`, no inherent
    vowel)."""
    sound, _ = roman(word, LOAN_CONSONANTS, "")
    return (sound.replace("ng", "n"),)


def silent_vowels(word: str, sound: str) -> frozenset[int]:
    """Where `word`'s loanword reading `sound` (`loan_sounds`) drops an inherent vowel with no
    vowel sign beside it: the gap before its n-th consonant, for each n (n = the consonants'
    count: after the last one). Empty when the marked reading does not line up with `sound`
    consonant for consonant (a rare ন-গ, read as one "n")."""
    marked, open_end = roman(word, LOAN_CONSONANTS, _SCHWA)
    out: set[int] = set()
    consonants: list[str] = []
    schwa = vowel = False
    for ch in marked:
        if ch == _SCHWA:
            schwa = True
        elif ch in VOWELS:
            vowel = True
        elif ch == "g" and consonants[-1:] == ["n"] and not vowel and not schwa:
            continue  # ং, "ng", reads as n
        elif not consonants or ch != consonants[-1] or vowel:  # a doubled consonant reads as one
            if schwa and not vowel and consonants:
                out.add(len(consonants))
            consonants.append(ch)
            schwa = vowel = False
    if open_end and consonants:
        out.add(len(consonants))
    return frozenset(out) if "".join(consonants) == skeleton(sound) else frozenset()


def _vowel_gaps(sound: str) -> list[str]:
    """The vowels before each consonant of `sound`, and after the last."""
    out = [""]
    for ch in sound:
        if ch in VOWELS:
            out[-1] += ch
        else:
            out.append("")
    return out


class Loanwords:
    """The index terms of each script by the consonants of their sound: an English question's
    "screen" is the Bangla unit's স্ক্রিন, a Bangla question's ব্যাংক the English unit's "bank".
    Each script's side is read at the first question term of the other script: a corpus in one
    script, asked in it, never reads its terms for loanwords (about a third of a second natively
    over the English TyDi QA corpus)."""

    @classmethod
    def of(cls, terms) -> "Loanwords":
        """The loanwords of these terms; the same object for the same terms (a few kept): the
        pipelines of one corpus's chunkers and retrievers mostly index the same words, and a
        comparison asks every question of each."""
        return _loanwords_of(frozenset(terms))

    def __init__(self, terms=()) -> None:
        terms = sorted(set(terms))
        self._terms = {"bn": [t for t in terms if _BANGLA_WORD.fullmatch(t)],
                       "en": [t for t in terms if _english_word(t)]}
        self._sides: dict[str, dict] = {}
        self._alike: dict[str, tuple[str, ...]] = {}  # a question's terms recur: each read once

    def side(self, script: str) -> dict[str, list[tuple[str, str]]]:
        """The terms of `script` ("bn", "en") by skeleton, each with its sound."""
        if script not in self._sides:
            out: dict[str, list[tuple[str, str]]] = {}
            for t in self._terms[script]:
                sound = loan_sounds(t)[0] if script == "bn" else english_sound(t)
                key = skeleton(sound)
                if len(key) >= LOAN_CONSONANTS_MIN:
                    out.setdefault(key, []).append((t, sound))
            self._sides[script] = out
        return self._sides[script]

    def alike(self, term: str) -> tuple[str, ...]:
        """The other script's terms that sound like `term`: the same first sound and consonants,
        and vowels within one slip (two for a word of `LOAN_LONG` consonants: English writes
        its vowels as it pleases, "statement" স্টেটমেন্ট) where Bangla writes one
        (`_vowels_fit`), in code-point order."""
        if term not in self._alike:
            self._alike[term] = self._read_alike(term)
        return self._alike[term]

    def _read_alike(self, term: str) -> tuple[str, ...]:
        if _BANGLA_WORD.fullmatch(term):
            mine, other = loan_sounds(term)[0], "en"
        elif _english_word(term):
            mine, other = english_sound(term), "bn"
        else:
            return ()
        key = skeleton(mine)
        if len(key) < LOAN_CONSONANTS_MIN:
            return ()
        limit = MAX_DISTANCE if len(key) >= LOAN_LONG else VOWEL_COST
        out = []
        for t, sound in self.side(other).get(key, ()):
            if not _same_start(mine, sound) or distance(mine, sound) > limit:
                continue
            # the vowels last, for the few words this near: the marked reading is a second `roman`
            if (_vowels_fit(sound, mine, silent_vowels(term, mine)) if other == "en"
                    else _vowels_fit(mine, sound, silent_vowels(t, sound))):
                out.append(t)
        return tuple(out)


def _vowels_fit(english: str, bangla: str, silent: frozenset[int]) -> bool:
    """Whether the vowels of two sounds of one skeleton can be one word's, gap by gap: Bangla
    writes every vowel of an English loanword it says with a sign (ি, ে, া …), an English i
    always, and the inherent vowel stands for an o, u or a, or for nothing (ফরম "form",
    স্টেটমেন্ট "statement"); a cluster (স্ক, ন্ট) has no vowel in it. So a vowel sign faces
    an English vowel ("mask" is no মাসিক, monthly), an inherent vowel (`silent`) no English i
    (প্রবাসী, expatriate, is no "privacy"; স্টোর no "story"), and a cluster no English vowel
    ("portion" is no প্রশ্ন, question)."""
    for n, (e, b) in enumerate(zip(_vowel_gaps(english), _vowel_gaps(bangla))):
        if n in silent:
            if "i" in e:
                return False
        elif bool(e) != bool(b) and n > 0:
            return False
    return True


def _same_start(a: str, b: str) -> bool:
    """Both sounds open on a vowel, or on the same consonant (an English "calling" is no এককালীন)."""
    return a[0] == b[0] or a[0] in VOWELS and b[0] in VOWELS


@functools.lru_cache(maxsize=READERS_KEPT)
def _loanwords_of(terms: frozenset) -> Loanwords:
    return Loanwords(terms)
