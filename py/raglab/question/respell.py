"""Misspelt question words, read as the words they stand for.

Two readers: the coverage features (`respell`: a term the index lacks counts through the
index word(s) it stands for, `Pipeline.closest`), and the answer type (`typed_question`: a word
the index lacks that is one slip away from a word of the answer-type cues is read as that word,
so "নূন্যতম বয়শ কত" asks for an age like "বয়স", and "প্রতারনার নাম্বার রিপোট করবো েকাথায়" for a
place). Without the second, a misspelt cue word makes the question untyped: no typed feature,
no short answer, and a lower confidence for a right answer. A question word ("wat") is read as
the cue word ("what") even where the index word it is as near to ("way") is what the index
reads it as: question words are stopwords, which the index never holds. A word of two letters
is too short to match fuzzily, but the one cue word of three it starts ("fe": "fee") is what a
typist who dropped a letter meant when the index knows nothing near it. Neither reader turns a
common word into another word ("fine" is no misspelling of *find*): `text.known.respellable`.

>>> typed_question("minimun age?", {"minimun": ("minimum",), "age": ("age",)}.get)
'minimum age?'
"""

from __future__ import annotations

import functools
import json
import re
from typing import Callable

from raglab.text.analyzer import STOPWORDS, analyze
from raglab.text.answertypes import question_type
from raglab.text.banglish import CUES as BANGLISH_WORDS
from raglab.text.banglish import is_banglish
from raglab.text.fuzzy import O_KAR, Fuzzy, distance, left_out
from raglab.text.known import CHEAP, protected, respellable
from raglab.text.tables import read_table

# Literal words of a cue pattern: runs of ASCII letters (three or more; "[a-z]" is a class, not
# a word) or of Bangla-block code points (two or more); an optional space ("কত ?দিন") gives the
# joined word too. A question's words: runs of the same (explicit ranges, never \\w; the danda is outside them).
_CUE_WORD = re.compile("[a-z]{3,}|[\u0980-\u09ff]{2,}")
_WORD = re.compile("[A-Za-z]+|[\u0980-\u09ff]+")
_LATIN = re.compile("[A-Za-z]+")


def _without_lookarounds(cue: str) -> str:
    """A cue pattern without its lookaround groups: a word that only keeps a cue from matching
    ("(?! ki (?:hobe|hoy) )", "what happens") is no cue word, and "hoy do i …" asks how."""
    out, i = [], 0
    while i < len(cue):
        if cue.startswith(("(?!", "(?<!", "(?=", "(?<="), i):
            depth = 0
            while i < len(cue):
                if cue[i] == "\\":
                    i += 2
                    continue
                depth += {"(": 1, ")": -1}.get(cue[i], 0)
                i += 1
                if depth == 0:
                    break
            out.append(" ")
            continue
        out.append(cue[i])
        i += 1
    return "".join(out)


# One index per value of `banglish`, built once: keyed by value, not by how a call spells it
# (`cue_words()` and `cue_words(banglish=True)` were two keys, and three keys in two slots
# rebuilt the index of every cue word, 40 ms, each time a Banglish question came between others).
@functools.lru_cache(maxsize=None)
def _cue_index(banglish: bool) -> Fuzzy:
    """`cue_words`' index for one value of `banglish`."""
    data = json.loads(read_table("answer_types.json"))
    vocabulary = set()
    for row in data["question_cues"]:
        if row["lang"] == "banglish" and not banglish:
            continue
        cue = re.sub("\\{[A-Z]+\\}", " ", _without_lookarounds(row["cue"]))
        vocabulary.update(_CUE_WORD.findall(cue))
        vocabulary.update(_CUE_WORD.findall(cue.replace(" ?", "")))
    return Fuzzy(sorted(vocabulary))


def cue_words(banglish: bool = True) -> Fuzzy:
    """The words the answer-type cues are written with (`data/answer_types.json`); those of
    the Banglish cues only when `banglish`."""
    return _cue_index(bool(banglish))


def typed_question(question: str, closest: Callable[[str], tuple[str, ...]] | None) -> str:
    """The question with each misspelt cue word put right: a word the index lacks (its term
    is not `closest(term)`) whose nearest cue word (within the fuzzy distance, `text.fuzzy`) is
    also what the index reads it as (the index word, or the stopword, `closest` names; or the
    index holds nothing near it and the cue word is one edit away: "কতোক্ষণ", a question word help
    articles never use), so that
    "acount" stays "acount" (the index reads it as "account", the cues as "amount"). The
    question itself when `closest` is None."""
    if closest is None:
        return question
    cues = cue_words()
    # In a Banglish question (`banglish.is_banglish`) a word of Banglish grammar ("kono": any,
    # "diye", "korle") is a word as typed, not a cue word's misspelling: "kono taka" read as "koto
    # taka" asked an amount of "can the agent ask for any money?", and the unit quoting a fee won
    # over the one saying he cannot. In an English question the one such word is a slip like any
    # other: "hoy do i reset my pin?" asks how. The answerer's text of a Banglish question holds
    # its Bangla reading too (`Pipeline.cues`), and text with a Bangla letter is never Banglish:
    # its Latin words say ("diye", with, read as "dine", daily, named a period).
    grammar = BANGLISH_WORDS if is_banglish(" ".join(_LATIN.findall(question))) else frozenset()
    # Nor is a word of a Banglish question a slip of a Banglish cue word: Banglish has no one
    # spelling, and a word a letter from one is another word more often than not ("porbe", will
    # be charged, is no "parbe", can; "kom", least, no "koy"; "dise", gave, no "dine", a day);
    # where it is one, its Bangla reading holds the cue. Its English words are respelt as any.
    near_cues = cue_words(banglish=not grammar)
    out, last = [], 0
    for m in _WORD.finditer(question):
        word = m.group().lower()
        if word in cues or word in grammar:
            continue
        terms = analyze(word)
        if len(terms) != 1 or terms[0] in STOPWORDS:
            continue
        read = closest(terms[0])
        if read == (terms[0],):
            continue
        near = near_cues.closest(word) or _short_cue(word, read, near_cues)
        if not near:
            continue
        if read:
            cue = _cue_for(word, read, near)
        else:  # the index knows nothing near: the nearest cue word, one slip away at most
            cue = near[0][0] if near[0][1] <= 1.0 else None
        # a common word is no cue word's misspelling (`text.known.respellable`), nor is the cue
        # word with another ending ("week", "সপ্তাহে"): read as "weeks", it named no period
        if cue and analyze(cue) != terms and _misspelt(terms[0], (analyze(cue) or [cue])[0], distance(word, cue)):
            out.append(question[last:m.start()] + cue)
            last = m.end()
    return "".join(out) + question[last:] if out else question


def _misspelt(term: str, cue: str, slip: float) -> bool:
    """Whether `term` is a misspelling of the cue word (its term `cue`), `slip` away: as
    `text.known.respellable` judges, save that a common word with another ending is the word
    typed, not the cue word ("complained", "যাবো", I'll go, are not "complain", "যাবে", it will
    go; "বিকাশ", a wallet, is no "বিকাল", afternoon, though the two share four signs), unless
    the ending is the vowel ো written out ("কতো" is "কত")."""
    if protected(term) and slip > CHEAP:
        return term + O_KAR == cue or cue + O_KAR == term
    return respellable(term, cue, slip)


def _cue_for(word: str, read: tuple[str, ...], near: list[tuple[str, float]]) -> str | None:
    """The cue word `word` stands for, of the nearest cue words `near`: the first when it is
    what the index reads `word` as (the same index word); else the one question word (a
    stopword, which the index never holds) at the nearest distance that `word` is with letters
    left out ("wat": "what", not "was"), when the index word is no nearer."""
    own = tuple(analyze(near[0][0]))
    if (own or (near[0][0],)) == read:
        return near[0][0]
    if len(read) != 1 or distance(word, read[0]) < near[0][1]:
        return None
    # At a tie, a cue word with the very letters typed, two of them swapped ("lnog": "long"), is the
    # slip, not an index word that leaves a typed letter out ("log").
    if sorted(word) == sorted(near[0][0]) and sorted(word) != sorted(read[0]):
        return near[0][0]
    dropped = [c for c, d in near if d == near[0][1] and not analyze(c) and left_out(word, c)]
    return dropped[0] if len(dropped) == 1 else None


def _short_cue(word: str, read: tuple[str, ...], cues: Fuzzy) -> list[tuple[str, float]]:
    """For a word of two letters the index knows nothing near: the one cue word of three
    letters it starts ("fe": "fee"), at distance 1; else none."""
    if len(word) != 2 or read:
        return []
    got = [w for w in cues.words if len(w) == 3 and w.startswith(word)]
    return [(got[0], 1.0)] if len(got) == 1 else []


def question_type_of(question: str, closest: Callable[[str], tuple[str, ...]] | None) -> str:
    """The answer type of the question as `typed_question` reads it; the question's own type
    when that reading finds none (a respelling never takes a type away)."""
    return type_read(question, typed_question(question, closest))


def type_read(question: str, typed: str) -> str:
    """`question_type_of` with the question's `typed_question` reading at hand."""
    got = question_type(typed)
    return got if got != "other" else question_type(question)


def respell(question_terms: list[str], closest: Callable[[str], tuple[str, ...]] | None,
            known=frozenset()) -> tuple[list[str], list[str]]:
    """(the terms with each word the index lacks replaced by the index word(s) it stands for,
    the words that stand for none). A word that stands for a stopword is dropped: one the index
    reads as a stopword ("hav"), and one the answer type reads as a question word (`_cue_for`:
    "wat" is "what" with a letter left out, though the index reads it as *way*, as near), for
    the two readings of one question must agree: "way" weighed a fifth of "wat is the cashout fe
    at agnet" and held the right answer's coverage down. A term in `known` (one
    `synonyms.SAME_WORDS` reads: "taka") is kept as it is."""
    if closest is None:
        return list(question_terms), []
    out, unknown = [], []
    for t in question_terms:
        if t in known:
            out.append(t)
            continue
        got = closest(t)
        if not got:
            unknown.append(t)
            out.append(t)
        elif not _question_word(t, got):
            out.extend(w for w in got if w not in STOPWORDS)
    return out, unknown


def _question_word(term: str, read: tuple[str, ...]) -> bool:
    """Whether the answer type reads `term`, which the index reads as `read`, as a question word
    (a stopword of the cues: "what", "which")."""
    if read == (term,):
        return False
    near = cue_words().closest(term)
    cue = _cue_for(term, read, near) if near else None
    return cue is not None and not analyze(cue)


# Spoken filler a dictated question opens or closes with ("ok so …", "please tell me …", "আচ্ছা …",
# "… একটু বলেন তো"): voice typing writes every word said, and these name nothing to look for.
_OPENING = re.compile("^[ ]*(?:(?:ok|okay|so|um+|uh+|hmm+|well|please tell me|tell me|আচ্ছা|(?:একটু )?বলেন তো)[ ,.!]+)+", re.IGNORECASE)
_CLOSING = re.compile("[ ,]+(?:(?:একটু )?বলেন তো|please)[ ?!.।]*$", re.IGNORECASE)


def spoken_filler(question: str) -> frozenset[str]:
    """The analysed words of the spoken filler a question opens or closes with that the rest of it
    does not use: like the words of courtesy, nothing an answer states, so no term to weigh.

    >>> sorted(spoken_filler("ok so which documents does a shop need")), sorted(spoken_filler("Is it ok to tap it?"))
    (['ok'], [])
    """
    head = _OPENING.match(question)
    rest = question[head.end():] if head else question
    tail = _CLOSING.search(rest)
    core = rest[:tail.start()] if tail else rest
    if not core.strip():
        return frozenset()
    said = (head.group(0) if head else "") + " " + (tail.group(0) if tail else "")
    return frozenset(analyze(said)) - frozenset(analyze(core))
