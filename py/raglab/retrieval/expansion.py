"""Query expansion from a reviewed bilingual synonym table (`data/expansions.json`).

Customers do not use the help centre's words ("withdraw" for *cash out*, "টাকা তোলা"
for ক্যাশ আউট, "secret code" for *PIN*), and a Bangla question may only be answered
by an English article. The table groups the ways of saying one concept:

- ``en`` and ``bn``: the help centre's own wording, in each language. Every such phrase
  occurs in the corpus (a test checks it), so appending it can only meet real text.
- ``also``: other ways customers say it. These only *trigger* the group.
- ``kinds``: particular kinds of the concept (a Visa card or a linked bank account for adding
  money). They trigger the group like ``also``, but the answerer reads them as themselves only
  (`aliases`): a sentence about one kind does not speak of another ("Adding money from a linked
  bank account is free" says nothing of a Visa card).

`expand` finds the groups whose phrases occur in the question and appends the
group's help-centre phrases that the question does not already contain:

- an English question gets the English phrases only: the English articles cover every
  fact, and Bangla terms would only pull in the Bangla twins;
- a Bangla (or mixed) question gets both languages, so it can reach an article that
  exists only in English.

A phrase occurs in the question when its analyzed terms occur consecutively in the
question's analyzed terms (so inflections and plurals match as the retrievers see
them). A phrase that loses words to the stopword list ("cash in" analyzes to just
``cash``) must instead occur word for word, lower-cased, or "cash out" would trigger
*cash in*. The table is data (`raglab/data/expansions.json`, read by `text.tables`); order
is the file's order, so the output is deterministic.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from raglab.retrieval.ranking import Query
from raglab.text.analyzer import WHITESPACE, analyze, has_bangla, normalize
from raglab.text.tables import read_table

TABLE = "expansions.json"
_TRIM = "\"'“”‘’()[]{}.,;:!?।॥-–—/"


@dataclass(frozen=True)
class Phrase:
    text: str
    terms: tuple[str, ...]
    surface: tuple[str, ...] | None  # set when the analyzer drops words: match word for word


@dataclass(frozen=True)
class Group:
    concept: str
    en: tuple[Phrase, ...]
    bn: tuple[Phrase, ...]
    also: tuple[Phrase, ...]
    kinds: tuple[Phrase, ...] = ()

    @property
    def phrases(self) -> tuple[Phrase, ...]:
        return self.en + self.bn + self.also + self.kinds


def surface_words(text: str) -> list[str]:
    """Lower-cased NFC words split at whitespace and hyphens, outer punctuation trimmed."""
    out: list[str] = []
    word: list[str] = []
    for ch in normalize(text).lower() + " ":
        if ch in WHITESPACE or ch in "-–—/":
            w = "".join(word).strip(_TRIM)
            if w:
                out.append(w)
            word = []
        else:
            word.append(ch)
    return out


def make_phrase(text: str) -> Phrase:
    terms = tuple(analyze(text))
    words = tuple(surface_words(text))
    return Phrase(text, terms, None if len(terms) == len(words) else words)


def parse_table(data: dict) -> list[Group]:
    """Groups from the table's JSON; raises ValueError naming the group on a bad entry."""
    groups = []
    if not isinstance(data, dict) or not isinstance(data.get("groups"), list):
        raise ValueError(f"{TABLE}: expected an object with a list 'groups'")
    for n, g in enumerate(data["groups"], 1):
        where = f"{TABLE}: group {n} ({g.get('concept', '?') if isinstance(g, dict) else '?'})"
        if not isinstance(g, dict) or not isinstance(g.get("concept"), str):
            raise ValueError(f"{where}: each group needs a string 'concept'")
        lists = {}
        for key in ("en", "bn", "also", "kinds"):
            value = g.get(key, [])
            if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
                raise ValueError(f"{where}: '{key}' must be a list of strings")
            phrases = tuple(make_phrase(p) for p in value)
            for p in phrases:
                if not p.terms:
                    raise ValueError(f"{where}: phrase {p.text!r} has no terms after analysis; remove it")
            lists[key] = phrases
        groups.append(Group(g["concept"], lists["en"], lists["bn"], lists["also"], lists["kinds"]))
    return groups


_CACHE: list[list[Group]] = []


def load_table() -> list[Group]:
    """The bundled table (parsed once per process)."""
    if not _CACHE:
        text = read_table(TABLE)
        _CACHE.append(parse_table(json.loads(text)))
    return _CACHE[0]


def _contains(seq: tuple[str, ...] | list[str], part: tuple[str, ...]) -> bool:
    n = len(part)
    if n == 0:
        return True
    first = part[0]
    for i in range(len(seq) - n + 1):
        if seq[i] == first and tuple(seq[i:i + n]) == part:
            return True
    return False


def occurs(phrase: Phrase, terms: list[str], words: list[str],
           present: frozenset[str] | None = None) -> bool:
    """Whether `phrase` occurs in a question of these terms and surface words. `present`
    (every term and word of the question) lets most phrases be ruled out by their first
    term alone."""
    if phrase.surface is not None:
        return (present is None or phrase.surface[0] in present) and _contains(words, phrase.surface)
    return (present is None or phrase.terms[0] in present) and _contains(terms, phrase.terms)


_FIRSTS: dict[int, tuple[list[Group], dict[str, list[int]]]] = {}


def _maybe_triggered(groups: list[Group], present: frozenset[str]) -> list[Group]:
    """The groups, in table order, with a phrase whose first term or word is in `present`
    (the others cannot be triggered); indexed once per table."""
    got = _FIRSTS.get(id(groups))
    if got is None or got[0] is not groups:
        firsts: dict[str, list[int]] = {}
        for n, g in enumerate(groups):
            for p in g.phrases:
                first = p.surface[0] if p.surface is not None else p.terms[0]
                row = firsts.setdefault(first, [])
                if not row or row[-1] != n:
                    row.append(n)
        got = _FIRSTS[id(groups)] = (groups, firsts)
        if len(_FIRSTS) > 8:  # tables made on the fly (tests): keep the few latest
            del _FIRSTS[next(iter(_FIRSTS))]
    index = got[1]
    hit: set[int] = set()
    for t in present:
        hit.update(index.get(t, ()))
    return [groups[n] for n in sorted(hit)]


@functools.lru_cache(maxsize=4096)
def _analysed(question: str) -> tuple[list[str], list[str], frozenset[str]]:
    """A question's terms, surface words and both as one set; remembered, because a question
    is matched against the table several times (its query, its aliases, both languages).
    Callers only read the lists."""
    terms, words = analyze(question), surface_words(question)
    return terms, words, frozenset(terms) | frozenset(words)


def matches(question: str, groups: list[Group] | None = None,
            both: bool | None = None) -> list[tuple[Group, list[Phrase]]]:
    """The groups the question triggers and, for each, the phrases expansion would append.

    `both` forces appending both languages (True) or English only (False); by default
    a question with any Bangla letter gets both, an English one English only.
    """
    groups = load_table() if groups is None else groups
    terms, words, present = _analysed(question)
    both = has_bangla(question) if both is None else both
    out = []
    seen: set[tuple[str, ...]] = set()
    for g in _maybe_triggered(groups, present):
        if not any(occurs(p, terms, words, present) for p in g.phrases):
            continue
        added = []
        for p in g.en + (g.bn if both else ()):
            if p.terms in seen or occurs(p, terms, words, present):
                continue
            seen.add(p.terms)
            added.append(p)
        out.append((g, added))
    return out


def beyond_own_language(question: str, groups: list[Group] | None = None) -> bool:
    """Whether the question names a concept its own language's articles never word (a
    triggered group with no phrase in that language: the glossary of details only the
    Bangla articles give). Only the other language's wording can meet such a detail.

    >>> beyond_own_language("Can I delete the confirmation SMS?")
    True
    >>> beyond_own_language("How do I withdraw?")
    False
    """
    bangla = has_bangla(question)
    return any(not (g.bn if bangla else g.en) for g, _ in matches(question, groups))


def aliases(question: str, groups: list[Group] | None = None) -> dict[str, list[tuple[str, ...]]]:
    """For each question term inside a triggered phrase, the help-centre phrases (as term
    tuples, both languages) that say the same thing. The answerer counts such a term as
    present in a sentence that contains one of its aliases, so "withdraw" is found in a
    sentence about "cash out", and a Bangla question's terms in an English sentence."""
    if groups is None:  # the bundled table: read once per question (a comparison asks it per configuration)
        return {t: list(row) for t, row in _table_aliases(question).items()}  # lists of the caller's own
    return _aliases(question, groups)


@functools.lru_cache(maxsize=4096)
def _table_aliases(question: str) -> dict[str, list[tuple[str, ...]]]:
    return _aliases(question, load_table())


def _aliases(question: str, groups: list[Group]) -> dict[str, list[tuple[str, ...]]]:
    terms, words, present = _analysed(question)
    out: dict[str, list[tuple[str, ...]]] = {}
    for g in _maybe_triggered(groups, present):
        triggers = [p for p in g.phrases if occurs(p, terms, words, present)]
        if not triggers:
            continue
        alts = [p.terms for p in g.en + g.bn if p.terms]
        for p in triggers:
            if p in g.kinds:  # a kind stands for itself only
                continue
            for t in p.terms:
                row = out.setdefault(t, [])
                row.extend(a for a in alts if a not in row)
    return out


@functools.lru_cache(maxsize=4096)
def expand(question: str, both: bool | None = None) -> Query:
    """The query for `question` with the help-centre phrases of every concept it mentions.

    "How do I withdraw?" gets the expansion ("cash out",). Retrievers that know about
    expansion (`hybrid`, the reranker) weigh the two parts differently; the others
    search `Query.full`, the question followed by the phrases.

    Remembered (a `Query` is frozen): one question is expanded five times, two different
    ways, on its way through `bilingual` (its encoder readings, the BM25 side, the translated
    reading), about half a millisecond each in the browser.
    """
    extra = tuple(p.text for _, added in matches(question, both=both) for p in added)
    plain = Query.plain(question)
    return Query(question, extra, plain.lang, True)
