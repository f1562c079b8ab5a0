"""The answerer's candidates: the question as it reads it, and every unit of the article around
the top chunks with the features the sentence model scores.

The retrieved chunks say where to look; a candidate is a whole unit of the *article*
(`units.py`: a sentence, a list item, a table row read with its header) that shares a character
with a top-k chunk, with its offsets in the article. A question word the index does not hold
("agnet") is first read as the closest index word(s) (`respell.py`), and the expansion aliases
count with the words that say the same (`synonyms.py`: "taka" is "Tk").
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, fields, replace
from typing import Callable

from raglab.answer.facts import asks_two
from raglab.answer.results import Quote
from raglab.answer.sentences import COL, Question, Text, echo_types, features, lang_of, prefix_index, set_context
from raglab.answer.units import Unit, introduced, introduces, may_introduce, units_around
from raglab.corpus.chunking import Chunk
from raglab.question.asking import aside, asks_limit, asks_more, case_words, periods_of
from raglab.question.modality import asks_need, negated, negated_loosely
from raglab.question.persons import house_names
from raglab.question.respell import respell, spoken_filler, type_read, typed_question
from raglab.question.synonyms import SAME_WORDS, with_same_words
from raglab.text.analyzer import analyze, asked_lang, scoped, tokens, words
from raglab.text.answertypes import accepts, asked_sentences, asks_to_verify, question_types, verifying_words
from raglab.text.contrasts import asked_halves, halves_of
from raglab.text.limits import index_heading
from raglab.text.numbers import number_values, numbers

MAX_WORDS = 60  # an answer never quotes more words than this (two units at most)
DETAIL_SHARE = 0.2  # of a question's idf mass, in words a later unit of the section adds (`detail_after`)
# Question-and-chunk readings a computation remembers at most (`_units_read`; an evaluation drops
# them at each chunker, `analyzer.forget_scoped`): about ten kilobytes each, so at most some 100 MB,
# which the page, running comparisons too, can hold; below a chunker's count (questions x chunks) it would thrash.
MEMO_LIMIT = 10_000
# The words that ask (how much, how long, কত, কয়বার, কোথায়, and their Banglish spellings): no
# answer states them ("Tk 25,000 a day" answers "how much"), so as question terms they only
# dilute every unit's coverage, and, being rare in the articles, they weigh the most ("much"
# a fifth of "How much does it cost to add money from a linked bank account?"). The question
# words that are stopwords ("what", "how", "many") are dropped by the analyzer already.
ASKING = frozenset(t for w in ("much", "long", "soon", "often", "কত", "কতো", "কয়", "কতদিন", "কতক্ষণ", "কতবার",
                               "কয়বার", "কয়দিন", "কয়জন", "কোথায়", "কখন", "কবে", "koto", "koy", "koybar", "kotodin",
                               "kotokkhon", "kothay", "kokhon", "kobe") for t in analyze(w))
# The words of courtesy a letter wraps its question in ("Assalamu alaikum.", "Dear sir,", "Kindly
# advise.", "মাননীয় …", "অনুগ্রহ করে …"): like the words that ask, they name nothing to look for, but
# counted as question terms the help centre never holds, they weighed as an unanswerable question's
# words and held a polite customer's right answers below the threshold. Retrieval still reads them.
COURTESY = frozenset(t for w in ("kindly", "dear", "sir", "madam", "hello", "respected", "thank", "thanks", "regards",
                                 "greetings", "assalamu", "alaikum", "assalamualaikum", "salam", "salaam", "plz", "pls",
                                 "dhonnobad", "মাননীয়", "অনুগ্রহ", "দয়া", "ধন্যবাদ", "আসসালামু", "আলাইকুম",
                                 "আসসালামুয়ালাইকুম", "সালাম", "স্যার", "জনাব", "জানাবেন") for t in analyze(w))


@dataclass(frozen=True)
class Candidate:
    unit: Unit
    quote: Quote
    terms: frozenset
    found: frozenset  # question terms present in the unit
    features: list
    rank: int  # of the chunk it was found through
    base: int  # offset of the unit's text source in the article (0 when the article was at hand)
    prev_at: int | None = None  # article offsets of the units before and after it in its block
    next_at: int | None = None
    in_heading: frozenset = frozenset()  # question terms in its section's heading path
    items: tuple = ()  # the quotes of the list or table an introducing unit ("You also need:") announces
    halves: tuple = ()  # per contrast pair, the halves it names (`contrasts.halves_of`)


@functools.lru_cache(maxsize=50_000)
def text_info(text: str) -> Text:
    order = tuple((t.term, t.start, t.end) for t in tokens(text))
    seq = [t for t, _, _ in order]
    return Text(frozenset(seq), order, frozenset(zip(seq, seq[1:])), prefix_index(seq), negated(text, order))


@functools.lru_cache(maxsize=50_000)
def heading_terms(heading: tuple[str, ...]) -> frozenset[str]:
    return frozenset(analyze(" ".join(index_heading(heading))))


def _mass(terms, weights: dict[str, float]) -> float:
    """Sum of the terms' weights; math.fsum is correctly rounded, so the order cannot matter."""
    return math.fsum([weights[t] for t in terms])


def _present(text_terms: set[str] | frozenset[str], weights: dict[str, float], aliases: dict,
             info: Text | None = None, q_negated: frozenset = frozenset()) -> set[str]:
    """The question terms present in a text: literally, or through one of their aliases; with the
    text's `info`, not one it states only negated ("যাচাই না হওয়া": unverified is not verified)
    unless the question has a negation near it too (`q_negated`)."""
    neg = info.negated if info is not None else frozenset()
    found = {t for t in text_terms & weights.keys() if t not in neg or t in q_negated}
    for t, alts in aliases.items():
        if t in weights and t not in found:
            for alt in alts:
                if text_terms.issuperset(alt) and (alt[-1] not in neg or t in q_negated):
                    found.add(t)
                    break
    return found


def question_info(question: str, question_terms: list[str], idf: Callable[[str], float], aliases: dict,
                  unknown: list[str] | tuple[str, ...] = (), closest=None, reading: str = "") -> Question:
    """The question as the features read it. Its language is that of `reading`, the text its
    terms come from, when given: a Banglish question's cue text holds the typed Latin words and
    their Bangla reading together, and by its letters reads as English, though its terms, its
    retrieval and the customer's language are Bangla (the answer in the question's language,
    `language.py`, and the confidence's `same_lang` were read the wrong way round for it)."""
    # A question of asking words alone ("how much?") names nothing to look for: no weights, so no candidate, and the
    # answerer abstains rather than quote "a much higher limit". Nor does "is it real?" after a story (`verifying_words`).
    told = verifying_words(reading or question) | spoken_filler(question)
    weights = {t: idf(t) for t in question_terms if t not in ASKING and t not in COURTESY and t not in told}  # in question order, the first occurrence's place
    total = _mass(weights, weights)
    unmatched = _mass(sorted(set(unknown) & weights.keys()), weights) / total if total > 0 else 0.0
    # The question with its misspelt cue words read right ("বয়শ": an age, "maximim": the upper
    # end of a range), for every reading of what it asks; its own words are what the terms hold.
    typed = typed_question(question, closest)
    qtype = type_read(question, typed)  # respelt once
    # The asking sentences' terms, read as `question_terms` are: in the reading (a Banglish
    # question's cue text is its typed words and their reading, two sentences that both ask) and respelt.
    asking = respell(analyze(" ".join(asked_sentences(reading or question))), closest, SAME_WORDS.keys())[0]
    return Question(weights, total, aliases, qtype, frozenset(numbers(question)),
                    tuple(sorted({p for p in zip(question_terms, question_terms[1:]) if not ASKING.intersection(p)})),
                    typed, unmatched,
                    echo_types(typed, qtype), asked_lang(question, lang_of(question)) if reading in ("", question) else lang_of(reading), tuple(question_types(typed)),
                    asks_limit(typed), periods_of(typed), upper=asks_more(typed, qtype), need=asks_need(typed),
                    negated=negated_loosely(question, tuple((t.term, t.start, t.end) for t in tokens(question))),
                    contrast=asked_halves(typed),
                    asked=frozenset(t for t in asking if t in weights), amounts=frozenset(number_values(question)),
                    unknown=frozenset(set(unknown) & weights.keys()))


def read_question(question: str, question_terms: list[str], idf: Callable[[str], float], aliases: dict | None,
                  closest=None, reading: str = "") -> Question:
    """The question as the answerer reads it: its misspelt words respelt, the expansion aliases
    with the words that say the same (`synonyms.py`: "taka" is "Tk"), in the language of
    `reading` (see `question_info`).

    A comparison reads each question again under every configuration, each retriever with
    its own index (so its own `idf` and `closest`). Within one `with memo():` block
    (`analyzer.scoped`) the reading is remembered with every answer `idf` and `closest` gave
    while it was made, and handed out again only when they give the same answers now: the
    reading is a function of the question, those answers and nothing else."""
    remembered = scoped("read questions")
    if remembered is None:
        return _read_question(question, question_terms, idf, aliases, closest, reading)
    key = (question, tuple(question_terms), _hashable(aliases or {}), closest is None, reading)
    got = remembered.get(key)
    if got is not None:
        q, idfs, near = got
        if all(idf(t) == v for t, v in idfs) and all(closest(t) == v for t, v in near):
            return q
    idfs, near = {}, {}

    def idf_asked(term: str) -> float:
        got = idfs[term] = idf(term)
        return got

    def closest_asked(term: str):
        got = near[term] = closest(term)
        return got

    q = _read_question(question, question_terms, idf_asked, aliases, closest_asked if closest else None, reading)
    if len(remembered) >= MEMO_LIMIT:  # bounded: the page runs comparisons too
        remembered.clear()
    remembered[key] = (q, tuple(idfs.items()), tuple(near.items()))
    return q


def _read_question(question: str, question_terms: list[str], idf: Callable[[str], float], aliases: dict | None,
                   closest=None, reading: str = "") -> Question:
    terms, unknown = respell(question_terms, closest, SAME_WORDS.keys())
    return question_info(question, terms, idf, with_same_words(aliases or {}), unknown, closest, reading)


def _neighbours(units: tuple[Unit, ...], i: int) -> tuple[int | None, int | None]:
    """Indices of the units before and after units[i] in its block (other rows for a cell)."""
    u = units[i]
    prev = nxt = None
    j = i - 1
    while j >= 0 and units[j].block == u.block:
        if units[j].start != u.start:
            prev = j
            break
        j -= 1
    j = i + 1
    while j < len(units) and units[j].block == u.block:
        if units[j].start != u.start:
            nxt = j
            break
        j += 1
    return prev, nxt


def units_of(chunk: Chunk, docs: dict | None):
    """(the chunk's Document or None, the text its units are cut from, that text's offset in
    the article, the units around the chunk): the article's when `docs` holds it, else the
    chunk's own text."""
    doc = docs.get(chunk.doc) if docs else None
    text, base = (doc.text, 0) if doc is not None else (chunk.text, chunk.start)
    return doc, text, base, units_around(text, chunk.start - base, chunk.end - base)


def heading_of(unit: Unit, chunk: Chunk, doc) -> tuple[str, ...]:
    """The heading path of the section `unit` is in (the chunk's own without the article)."""
    return doc.section_at(unit.start).heading if doc is not None else chunk.heading


def score_candidates(q: Question, chunks: list[Chunk], scores: list[float] | None = None,
                     docs: dict | None = None) -> list[Candidate]:
    """Every candidate unit around `chunks` (best first) with its features, in chunk order.
    `docs` maps an article id to its Document; without it a chunk's own text stands in."""
    if not q.weights or q.total <= 0:
        return []
    if q.qtype == "person" and docs:
        q = replace(q, house=house_names(docs))
    top = scores[0] if scores else 0.0
    out: list[Candidate] = []
    prev_of: list[int | None] = []
    next_of: list[int | None] = []
    cover: dict[int, float] = {}
    keys: dict[tuple, int] = {}
    seen: set = set()
    remembered, asked = scoped("candidates"), None
    if remembered is not None:  # the question's number in this computation: its key hashed once here
        questions, seen_as = scoped("candidate questions"), scoped("candidate question objects")
        assert questions is not None and seen_as is not None  # scoped together with `remembered`
        # `read_question` hands out one Question object again and again: its number by identity
        # (the entry holds the object, so its id is not reused while remembered).
        known = seen_as.get(id(q))
        if known is not None and known[0] is q:
            asked = known[1]
        else:
            asked = questions.setdefault(_question_key(q), len(questions))
            if len(seen_as) >= MEMO_LIMIT:
                seen_as.clear()
            seen_as[id(q)] = (q, asked)
    for rank, chunk in enumerate(chunks):
        ratio = scores[rank] / top if scores and top > 0 else 1.0
        for key, read in _units_read(q, chunk, docs, remembered, asked):
            if key in seen:
                continue
            seen.add(key)
            if read is None:
                continue
            c, neighbours = read
            row = list(c.features)
            row[COL["rank"]], row[COL["score_ratio"]] = 1.0 / (rank + 1), ratio
            for near, slot in zip(neighbours, (prev_of, next_of)):
                if near is None:
                    slot.append(None)
                    continue
                nkey, share = near
                if nkey not in keys:
                    keys[nkey] = len(keys)
                    cover[keys[nkey]] = share
                slot.append(keys[nkey])
            out.append(Candidate(c.unit, c.quote, c.terms, c.found, row, rank, c.base, c.prev_at, c.next_at, c.in_heading, c.items, c.halves))  # `replace`, without its cost per call
    set_context([c.features for c in out], prev_of, next_of, cover)
    return out


def _units_read(q: Question, chunk: Chunk, docs: dict | None, remembered: dict | None, asked: int | None) -> list[tuple]:
    """Per unit around `chunk`, in order: (its key, None when it is no candidate, else (the
    candidate at rank 0 and score ratio 1, the (key, coverage) of the units before and after
    it)). None of it depends on the chunk's rank or score, and a comparison asks each question
    under every retriever of a chunker, mostly over the same chunks: within one `with memo():`
    block it is read once per question and chunk (`remembered`, `analyzer.scoped`; `asked`: the
    question's number there)."""
    if remembered is None:
        return _read_units(q, chunk, docs)
    doc = docs.get(chunk.doc) if docs else None
    key = (asked, chunk.id, chunk.doc, chunk.start, chunk.end, chunk.heading, chunk.text, id(doc))
    got = remembered.get(key)
    if got is None or got[0] is not doc:  # holding the Document keeps its id from being reused
        if len(remembered) >= MEMO_LIMIT:  # bounded: the page runs comparisons too
            remembered.clear()
        got = remembered[key] = (doc, _read_units(q, chunk, docs))
    return got[1]


def _question_key(q: Question) -> tuple:
    """Everything a Question holds, hashable (its dicts as their items in order)."""
    return tuple(_hashable(getattr(q, f.name)) for f in fields(q))


def _hashable(value):
    if isinstance(value, dict):
        return tuple((k, _hashable(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


def _read_units(q: Question, chunk: Chunk, docs: dict | None) -> list[tuple]:
    mass = lambda terms: _mass(terms, q.weights)  # noqa: E731
    doc, text, base, units = units_of(chunk, docs)
    cs, ce = chunk.start - base, chunk.end - base
    detail = not accepts(q.qtype) and not asks_two(q.text)  # an opening's `first` may yield to a later detail
    case = frozenset(t for w in case_words(q.text) for t in analyze(w))  # and to the weekday case asked
    out: list[tuple] = []
    for i, u in enumerate(units):
        if not (u.start < ce and cs < u.end):
            continue
        key = (chunk.doc, base + u.start, base + u.end, u.focus_start)
        info = text_info(u.text)
        if not info.terms:
            out.append((key, None))
            continue
        items: tuple[Quote, ...] = ()
        if may_introduce(u, info.terms):  # never quoted without the list it announces
            items = _listed(chunk, introduced(text, u.end), base)
            if not items and introduces(u) or items and word_count(u.text) + word_count(" ".join(x.text for x in items)) > MAX_WORDS:
                out.append((key, None))
                continue
        heading = heading_of(u, chunk, doc)
        in_heading = _present(heading_terms(heading), q.weights, q.aliases)
        found = _present(info.terms, q.weights, q.aliases, info, q.negated)
        lead = _present(text_info(u.lead).terms, q.weights, q.aliases, text_info(u.lead), q.negated) if u.lead else set()
        inside = (min(u.end, ce) - max(u.start, cs)) / (u.end - u.start)
        first = (i == 0 or units[i - 1].block != u.block) and not aside(u.text)  # a "Note:" opens no section's rule
        if first and detail and (q.asked or detail_after(q, units, i, found, in_heading, doc, mass)):
            # The opening states the section's topic; the question asks a detail it states later. A
            # story question (one that tells first and asks after) names the topic in its story, so
            # the section that restates it is no sign of the answer: its opening has no bonus at all.
            # A how-to question too: its story tells the way taken or the case met ("I paid …, what
            # now?"), so a way's first step ("Open the app and tap Loans.") is no sign of the answer.
            first = False
        if first and case - info.terms and any((case - info.terms) & text_info(v.text).terms for v in _rest_of_block(units, i)):
            first = False  # the opening states the rule; a later sentence of its paragraph names the case asked
        row = features(q, found, in_heading, mass, u.text, info, 0, 1.0, first, u.kind, inside, lead, bool(items),
                       " ".join(heading) if q.contrast else "", u.lead)
        quote = Quote(chunk.id, chunk.doc, base + u.start, base + u.end, u.text,
                      "row" if u.kind == "row" else "sentence")
        p, n = _neighbours(units, i)
        neighbours: list[tuple | None] = []
        for j in (p, n):
            if j is None:
                neighbours.append(None)
                continue
            ni = text_info(units[j].text)
            neighbours.append(((chunk.doc, base + units[j].start, base + units[j].end, units[j].focus_start),
                               mass(_present(ni.terms, q.weights, q.aliases, ni, q.negated)) / q.total))
        out.append((key, (Candidate(u, quote, info.terms, frozenset(found), row, 0, base,
                                    None if p is None else base + units[p].start, None if n is None else base + units[n].start,
                                    frozenset(in_heading), items, halves_of(u.text, " ".join(heading))), neighbours)))
    return out


def _rest_of_block(units: tuple[Unit, ...], i: int) -> list[Unit]:
    """The units after `units[i]` in its paragraph, list or table."""
    out = []
    for v in units[i + 1:]:
        if v.block != units[i].block:
            break
        out.append(v)
    return out


def detail_after(q: Question, units: tuple[Unit, ...], i: int, found: set, in_heading: set, doc, mass) -> bool:
    """Whether a unit after `units[i]` (an opening) in its section holds DETAIL_SHARE of the
    question's idf mass or more in words that neither the opening nor the section's heading
    holds, for a question asking no typed value and no two facts (`detail`): the section opens on
    its topic and the question asks a detail it states later. The section's units are read from
    the article (`doc`), or, without it, the chunk's units after it."""
    u = units[i]
    if doc is not None:
        sec = doc.section_at(u.start)
        rest = [v for v in units_around(doc.text, sec.start, sec.end) if v.start > u.start]
    else:
        rest = list(units[i + 1:])
    later: set = set()
    for v in rest:
        info = text_info(v.text)
        later |= _present(info.terms, q.weights, q.aliases, info, q.negated)
    return mass(later - found - in_heading) / q.total >= DETAIL_SHARE


def _listed(chunk: Chunk, units: tuple[Unit, ...], base: int) -> tuple[Quote, ...]:
    """One quote per item or row of an announced list or table (the cells of a row read as one)."""
    out: list[Quote] = []
    for u in units:
        if out and u.kind == "row" and out[-1].start == base + u.start:
            out[-1] = replace(out[-1], text=f"{out[-1].text}; {u.cell}")
            continue
        out.append(Quote(chunk.id, chunk.doc, base + u.start, base + u.end, u.text, "row" if u.kind == "row" else "sentence"))
    return tuple(out)


def heading_match(q: Question, heading: str) -> tuple[float, float]:
    """How closely one heading restates the question: the share of the question's idf mass it
    holds, its terms found as `heading_cover` finds them in a heading path (through the aliases
    too), then the share of the heading's own terms that are the question's (of two headings
    holding as much of the question, the one saying less else)."""
    terms = heading_terms((heading,)) if heading else frozenset()
    if not terms or q.total <= 0:
        return 0.0, 0.0
    found = _present(terms, q.weights, q.aliases)
    return _mass(found, q.weights) / q.total, len(terms & found) / len(terms)


def asking_terms(q: Question) -> frozenset:
    """The question's terms in what it asks, when it tells something first: its asking sentences
    (`Question.asked`), or the last clause of a question of one sentence ("My son is 16 and wants
    his own account for school, can he open one?", "ভুল number এ recharge হয়ে গেছে, টাকা ফেরত
    পাব?"); empty when it only asks; when it only asks whether its story is so (`answertypes.asks_to_verify`: "…. is it
    real?"), all it tells: its words the index knows (the ones it lacks, who told it, are the telling's, as in any story)."""
    if q.asked:
        return q.asked
    if asks_to_verify(q.text):
        return frozenset(q.weights) - q.unknown
    head, comma, clause = q.text.rstrip(" ?!।\uff1f").rpartition(",")
    return frozenset(analyze(clause)) & q.weights.keys() if comma and head.strip() else frozenset()


def missing_share(q: Question, chunks: list[Chunk], cands: list[Candidate]) -> tuple[float, float]:
    """Share of the question's idf mass that no candidate unit and no heading holds, read over the
    question less its story's unknown words: when it tells a story before it asks ("My cousin in
    Dubai sent me money yesterday. Can I …?", `asking_terms`), the words of the telling that the
    index lacks (the cousin, Dubai, yesterday) say who asks, not what; counted, they weighed as an
    unanswerable question's words do and held the right answers to such questions down. The asked
    words all count, and so do the story's words the index knows (held by nothing retrieved, they
    were as often the sign of a wrong answer: tried on dev, counting them out ranked worse).
    Returns that share and the share of the question's mass kept (what the confidence reads the
    chosen unit's coverage over). `unmatched` stays the whole question's: read over the kept mass
    too, it answered as many on dev with the committed weights, and re-fitted its weight turned
    negative and moved TyDi's threshold a step up."""
    seen: set = set()
    for c in cands:
        seen |= c.found
    for chunk in chunks:
        seen |= _present(heading_terms(chunk.heading), q.weights, q.aliases)
    if q.total <= 0:
        return 1.0, 1.0
    unseen = set(q.weights) - seen
    asked = asking_terms(q)
    told = (unseen - asked) & q.unknown if asked else set()
    kept = q.total - _mass(told, q.weights)
    if kept <= 0:
        return 1.0, 1.0
    return _mass(unseen - told, q.weights) / kept, kept / q.total


def word_count(text: str) -> int:
    return len(words(text))
