"""Sentence choice: features of each candidate unit and a small linear model over them.

The answerer quotes one unit of the article (a sentence, a list item, a table row or cell;
`units.py`), or two for a two-fact question. Which one is decided by a linear score over
the features below, fitted by `bench/fit_answerer.py` as a softmax over each training
question's candidates (so only differences between a question's candidates count: no bias,
nothing that is constant within a question) (the evidence units against every other candidate of its retrieved
chunks); `data/sentence_model.json` holds the weights. Inference is a dot product per
candidate, in pure Python.

Features of a unit u found through the chunk at rank r, for a question q (terms weighted by idf):

    coverage        share of q's idf mass found in u (a term only in u's heading path counts
                    half); a term also counts as found through one of its expansion aliases
    sentence_cover  the same without the heading
    heading_cover   share of q's idf mass in the heading path of u's section
    prev_cover      sentence_cover of the unit before u in its paragraph, list or table
    next_cover      sentence_cover of the unit after it
    lead_cover      sentence_cover of the sentence that introduces u's list or table
    prev_gap        how much more of q the unit before holds than u (0 when less): u follows
                    the sentence that restates the question
    density         share of u's terms that are question terms, or words of an expansion alias
                    a question term was found through (`stated_terms`)
    novel           log(1 + u's terms that are not question terms, in any form or through an
                    alias) / 4: what u adds
    prefix_cover    coverage counting words in other forms (a shared prefix of 4 code points)
    pairs           share of q's adjacent term pairs adjacent in u too
    typed           q asks for a typed value and u holds one q does not state (1/0); for a
                    where-question a place (`places.places_for`), not any name; for a
                    who-question a name or a noun of a person, a role or a body that says no
                    question word (`persons.persons`: a Bangla unit has no names); none from a unit
                    naming only the other end of a rule than q asks (`asking.other_end`)
    typed_near      typed, and the value is within 6 words of a question word in u (or a word of
                    an alias that found one) (1/0)
    echo            q asks for no typed value but states one itself (a yes/no question: "can I
                    withdraw 40,000 taka today?", "my son is 16, can he …") and u holds another
                    value of that kind (the limit, the age the rule names) (1/0)
    q_numbers       share of q's numbers that u states too (0 when q has none)
    negation        a yes/no question and u says no, never, only or free (1/0)
    steps           a how-to question and u is a list item (1/0)
    imperative      u tells the reader what to do ("Check the balance first.", "… কেটে দিন।") and q
                    asks what to do (a how-to question) (1/0)
    advice          the same for a yes/no question ("Should I share the code?": "Never share …")
    intro           u ends with ":", or announces the list after it (`units.may_introduce`): it
                    announces what follows rather than saying it (1/0)
    rank            1 / (r + 1)
    score_ratio     the chunk's retrieval score / the top chunk's (1 when scores are missing)
    first           u opens its paragraph, and is no aside ("Note: …", `asking.aside`), nor a
                    worked example (`asking.illustrates_in`: a sentence that opens as one, a row
                    or item of a table or list of examples) of
                    another case than the question's, nor, for a question asking no typed value
                    and no two facts, an opening when q tells a story first (its story names the topic, or the way taken),
                    or of a section whose later unit holds a fifth of q's idf mass in words neither u
                    nor the heading holds (a detail asked after the topic: `candidates.detail_after`) (1/0)
    item            u is a list item (1/0)
    row             u is a table row or cell (1/0)
    inside          share of u's characters inside the chunk it was found through
    length          log(1 + number of terms of u) / 4
    period_match    u names only the period(s) q names (a day, a month, one transaction) (1/0)
    period_clash    u names only another period than q (1/0)
    row_period      period_match, and u is a table row (1/0)
    need            q asks what one needs and u says what one needs (1/0)
    contrast_clash  q names one half of a contrast (cash in / cash out, the minimum / the
                    maximum) and u names only the other (`contrasts.clashes`; its heading
                    speaks for a unit that names neither half) (1/0)
    ask_cover       share of the idf mass of q's terms in its asking sentences that u holds,
                    when q tells a story first (`answertypes.asked_sentences`; else 0): a
                    unit restating the story holds its words, the one answering holds these

The confidence of an answer is a second logistic fit (`CONFIDENCE_FEATURES`): the probability
that the shown answer states the fact, with unanswerable questions as negatives.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from operator import mul

from raglab.corpus.articles import detect_lang
from raglab.question.asking import another_row, illustrates_in, included_column, included_rate, limit_for_price, other_day, other_end, periods_of, price_for_limit
from raglab.question.modality import imperative, states_need
from raglab.question.persons import persons
from raglab.question.places import places_for
from raglab.retrieval.ranking import rounded
from raglab.text.answertypes import Span, accepts, other_channel, typed_spans
from raglab.text.contrasts import clashes
from raglab.text.numbers import another_amount, another_count, number_values, numbers
from raglab.text.tables import read_table

FEATURES = ("coverage", "sentence_cover", "heading_cover", "prev_cover", "next_cover", "prev_gap", "lead_cover",
            "density", "novel", "prefix_cover", "pairs", "typed", "typed_near", "echo", "q_numbers", "negation",
            "steps", "imperative", "advice", "intro", "rank", "score_ratio", "first", "item", "row", "inside", "length",
            "period_match", "period_clash", "row_period", "need", "contrast_clash", "ask_cover")
COL = {name: i for i, name in enumerate(FEATURES)}
# Words that answer a yes/no question in the negative ("not", "never", "না", "নেই").
NEGATIONS = frozenset(["not", "no", "never", "cannot", "can't", "only", "free", "না", "নেই", "নয়", "কখনো", "শুধু", "ফ্রি"])
_BANGLA_NO = re.compile("(?:^|[^\u0980-\u09ff])(?:না|নেই)(?:[^\u0980-\u09ff]|$)")  # না is a stopword
PREFIX = 4  # code points two words must share to count as one word in another form
NEAR_WORDS = 6  # a typed value this close to a question word is "near" it
CONFIDENCE_FEATURES = ("bias", "coverage", "missing", "probability", "margin", "logit", "typed", "score", "unmatched",
                       "same_lang", "top_doc", "lexical_rank", "restated_before", "half_answer")
CONFIDENCE_COL = {name: i for i, name in enumerate(CONFIDENCE_FEATURES)}


@dataclass(frozen=True)
class Model:
    weights: tuple[float, ...]  # one per FEATURES
    confidence: tuple[float, ...]  # one per CONFIDENCE_FEATURES
    second: float  # the least probability (within the question's candidates) a second fact's quote needs
    adjacent: float = 2.0  # the least share of the best unit's probability the unit next to it needs to be quoted with it
    runner: float = 2.0  # the same for the runner-up anywhere among the candidates (2.0: never)


def parse_model(data: dict) -> Model:
    if tuple(data.get("features", ())) != FEATURES or len(data.get("weights", ())) != len(FEATURES):
        raise ValueError("sentence_model.json: 'features' and 'weights' do not match this raglab; re-fit with "
                         "python bench/fit_answerer.py --write")
    if tuple(data.get("confidence_features", ())) != CONFIDENCE_FEATURES or \
            len(data.get("confidence", ())) != len(CONFIDENCE_FEATURES):
        raise ValueError("sentence_model.json: 'confidence' does not match this raglab; re-fit it")
    return Model(tuple(float(w) for w in data["weights"]), tuple(float(w) for w in data["confidence"]),
                 float(data.get("second", 1.0)), float(data.get("adjacent", 2.0)), float(data.get("runner", 2.0)))


@functools.lru_cache(maxsize=1)
def model() -> Model:
    return parse_model(json.loads(read_table("sentence_model.json")))


def dot(weights, values) -> float:
    return math.fsum(map(mul, weights, values))


def logistic(z: float) -> float:
    """1 / (1 + e^-z), rounded so a last-bit difference of exp between C libraries never shows."""
    if z >= 0:
        return rounded(1.0 / (1.0 + math.exp(-z)))
    e = math.exp(z)
    return rounded(e / (1.0 + e))


def softmax(logits: list[float]) -> list[float]:
    """Probabilities of the candidates of one question, rounded like `logistic`."""
    if not logits:
        return []
    top = max(logits)
    exps = [math.exp(z - top) for z in logits]
    total = math.fsum(exps)
    return [rounded(e / total) for e in exps]


@functools.lru_cache(maxsize=50_000)
def spans_of(text: str) -> tuple[Span, ...]:
    """The typed spans of a unit's text, less a name in a table row's column name ("Agent — Typical
    use: Cash in and cash out for customers", as `units` quotes a row): a label, no one's name."""
    at = text.find(" \u2014 ")
    end = text.find(": ", at + 3) if at >= 0 else -1
    return tuple(s for s in typed_spans(text) if not (s.type == "name" and 0 <= at < s.start and s.end <= end))


@functools.lru_cache(maxsize=50_000)
def lang_of(text: str) -> str:
    return detect_lang(text)


@functools.lru_cache(maxsize=50_000)
def numbers_of(text: str) -> frozenset[str]:
    return frozenset(numbers(text))


def fresh_spans(spans, text: str, wanted, question_numbers: frozenset[str]) -> list[Span]:
    """The spans of a `wanted` type whose numbers the question does not already state ("I
    need to withdraw 40,000 taka" is not answered by "Tk 40,000"), and no footnote mark ("[1]"
    after a name is no count, as `short` reads it)."""
    out = []
    for s in spans:
        if s.type in wanted and not (text[s.start - 1:s.start] == "[" and text[s.end:s.end + 1] == "]"):
            nums = numbers(text[s.start:s.end])
            if not nums or not all(n in question_numbers for n in nums):
                out.append(s)
    return out


def numbered(spans, text: str) -> list[Span]:
    """The spans, less the amounts that state no number ("Tk 25,000", not "free")."""
    return [s for s in spans if s.type != "amount" or numbers(text[s.start:s.end])]


@dataclass(frozen=True)
class Question:
    """What the features need to know about the question, computed once per question."""

    weights: dict  # term -> idf
    total: float  # idf mass
    aliases: dict
    qtype: str
    numbers: frozenset[str]
    pairs: tuple  # adjacent question terms
    text: str = ""
    unmatched: float = 0.0  # share of the idf mass in words neither the index nor a near spelling holds
    echoes: tuple = ()  # span types of the values an untyped question states itself
    lang: str = "en"  # the question's language (`articles.detect_lang`)
    types: tuple = ()  # the kinds of value it asks for, in question order (`answertypes.question_types`)
    limit: bool = False  # it asks for a limit, so only a value with a number answers it (`asks_limit`)
    periods: frozenset = frozenset()  # the periods it names (`periods_of`): a day, a month, one transaction
    negated: frozenset = frozenset()  # its terms a negation stands near (`modality.negated_loosely`)
    upper: bool = False  # it asks how much one can do, so a unit naming only a minimum answers nothing (`asks_upper`)
    need: bool = False  # it asks what one needs, which the unit saying "you will need …" answers (`asks_need`)
    contrast: tuple = ()  # (pair, half) of the contrasts it names one half of (`contrasts.asked_halves`)
    asked: frozenset = frozenset()  # its terms in the sentences that ask, when it tells a story first
    amounts: frozenset = frozenset()  # the values it states as written, in words too ("৫ হাজার" is 5000: `number_values`)
    house: frozenset = frozenset()  # for a who-question, the corpus's own names (`persons.house_names`): no one
    unknown: frozenset = frozenset()  # its terms neither the index nor a near spelling holds (`unmatched`'s)


# The values a question states, by span type, and the span types an answer about them states:
# a bare number ("my son is 16") may be answered by an age, an amount, a count or a duration.
_ECHO = {"number": ("age", "amount", "count", "duration", "percent", "number")}


def echo_types(question: str, qtype: str) -> tuple[str, ...]:
    """For a question that asks for no typed value: the span types of the values it states."""
    if accepts(qtype):
        return ()
    out: list[str] = []
    for s in spans_of(question):
        if s.type == "name":
            continue
        for t in _ECHO.get(s.type, accepts(s.type) or (s.type,)):
            if t not in out:
                out.append(t)
    return tuple(out)


def prefix_index(terms) -> dict[str, tuple[str, ...]]:
    """A text's terms of at least PREFIX code points, by their first PREFIX code points."""
    out: dict[str, list[str]] = {}
    for t in terms:
        if len(t) >= PREFIX:
            out.setdefault(t[:PREFIX], []).append(t)
    return {k: tuple(sorted(set(v))) for k, v in out.items()}


def _same_stem(a: str, b: str) -> bool:
    """Two words in other forms (licenses/licensed, eligible/eligibility, পাঠাতে/পাঠানো):
    they share a prefix of PREFIX code points that leaves at most three of the shorter."""
    n = min(len(a), len(b))
    if n < PREFIX:
        return False
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i >= PREFIX and i >= n - 3


@dataclass(frozen=True)
class Text:
    """One unit's analysis, cached per text: its terms in order, their offsets, its term
    pairs, its terms by prefix and the terms it only states negated (`modality.negated`)."""

    terms: frozenset
    order: tuple  # (term, start, end) in text order
    pairs: frozenset
    prefixes: dict
    negated: frozenset = frozenset()


def _typed_near(spans, order, question_terms) -> bool:
    """A typed span within NEAR_WORDS terms of a question term."""
    positions = [i for i, (t, _, _) in enumerate(order) if t in question_terms]
    if not positions:
        return False
    for s in spans:
        before = 0
        for i, (_, a, b) in enumerate(order):
            if a < s.start:
                before = i + 1
        for p in positions:
            if abs(p - before) <= NEAR_WORDS:
                return True
    return False


def stated_terms(q: Question, found: set, terms: frozenset) -> set[str]:
    """The unit's terms that say a question term: the question's own, and every term of an
    expansion alias through which a question term was found. A Bangla unit says "recharge" as
    "রিচার্জ"; read literally it held no question term at all, so its density was 0 and its
    alias words counted as words it adds (novel), whatever it answered."""
    said = set(found & terms)
    for t in found:
        for alt in q.aliases.get(t, ()):
            if terms.issuperset(alt):
                said.update(alt)
    return said


def features(q: Question, found: set, in_heading: set, mass, text: str, info: Text, rank: int, score_ratio: float,
             first: bool, kind: str, inside: float, lead_found: set, announces: bool = False,
             heading: str = "", lead_text: str = "") -> list[float]:
    """The feature vector of one candidate (the neighbour and gap features are filled in by
    `set_context`); `lead_text` is the sentence that introduces its list or table (`Unit.lead`)."""
    example = illustrates_in(text, lead_text)  # a worked example, or a row of a table of examples
    own = mass(found) / q.total
    near = set(found)
    for t in q.weights:
        if t not in near and any(_same_stem(t, s) and (s not in info.negated or t in q.negated)
                                 for s in info.prefixes.get(t[:PREFIX], ())):
            near.add(t)
    prefix = mass(near) / q.total
    pair_hits = 0
    for p in q.pairs:
        if p in info.pairs:
            pair_hits += 1
    pair_share = pair_hits / len(q.pairs) if q.pairs else 0.0
    head = mass(in_heading) / q.total
    cov = (mass(found) + 0.5 * mass(in_heading - found)) / q.total
    terms = info.terms
    said = stated_terms(q, found, terms)
    typed = near_typed = echo = 0.0
    if accepts(q.qtype):
        fresh = fresh_spans(spans_of(text), text, accepts(q.qtype), q.numbers)
        fresh = [sp for sp in fresh if not other_day(q.text, sp.type, text[sp.start:sp.end])]  # a weekday: only its case
        if q.limit:  # "free" is a fee, not a limit, and so is any amount of a unit that states only a price
            fresh = [] if price_for_limit(q.text, text) else numbered(fresh, text)
        elif limit_for_price(q.text, text):  # and "up to Tk 20,000" is a limit, not a fee
            fresh = []
        if other_end(q.text, q.upper, text, q.amounts):  # "the minimum cash out is Tk 50" for "how much more can I cash out?"
            fresh = []
        if q.qtype == "place":  # a place in the app, a channel or a location; not any name
            fresh = [Span("place", a, b) for a, b in places_for(q.text, text)]
        if q.qtype == "person":  # someone: a name, or a noun of a person, a role or a body (either language)
            spans = [(sp.start, sp.end) for sp in fresh]
            fresh = [Span("name", a, b) for a, b in persons(text, spans, frozenset(said | q.weights.keys()), info.order,
                                                                     q.house)]
        if q.qtype == "contact":  # an e-mail address is no number to call, nor a number an address
            fresh = [sp for sp in fresh if not other_channel(q.text, text[sp.start:sp.end])]
        if included_column(q.text, text) or another_row(q.text, text):  # "প্রণোদনাসহ মোট …": the total, not the incentive's cell; nor another case's row
            fresh = []
        fresh = [sp for sp in fresh if not included_rate(q.text, text, sp.start, sp.end)]  # nor its rate
        if another_amount(q.text, q.qtype, text):  # "100 points for Tk 10" for "how many points for Tk 50?"
            fresh = []
        if another_count(q.text, text, q.aliases, q.qtype):  # and its Tk 10 for "how much for 350 points?"
            fresh = []
        if example and (not q.numbers or q.amounts.isdisjoint(number_values(text))):
            fresh = []  # a worked example's values are its case: the asked one only when it states the question's numbers
        if fresh:
            typed = 1.0
            near_typed = 1.0 if _typed_near(fresh, info.order, said | q.weights.keys()) else 0.0
    elif q.echoes and not other_end(q.text, q.upper, text, q.amounts) and fresh_spans(spans_of(text), text, q.echoes, q.numbers):
        echo = 1.0
    qnum = 0.0
    if q.numbers:
        have = numbers_of(text)
        hit = 0
        for n in sorted(q.numbers):
            if n in have:
                hit += 1
        qnum = hit / len(q.numbers)
    density = len(said) / len(terms) if terms else 0.0
    negation = 1.0 if q.qtype == "yesno" and (terms & NEGATIONS or _BANGLA_NO.search(text)) else 0.0
    item = kind == "item"
    steps = 1.0 if q.qtype == "procedure" and item else 0.0
    told = imperative(text) if q.qtype in ("procedure", "yesno") else False
    orders = 1.0 if told and q.qtype == "procedure" else 0.0
    advice = 1.0 if told and q.qtype == "yesno" else 0.0
    lead = mass(lead_found) / q.total
    novel = 0
    for t in terms:
        if t not in near and t not in said and t not in q.weights:
            novel += 1
    # A worked example that opens its paragraph ("For example, if a relative sends you Tk 20,000 …")
    # illustrates the rule stated before it; it does not state the paragraph's point as an opening
    # sentence does, which is what `first` rewards. Unless it is the question's own case: it states
    # a number the question states ("If I pay Tk 500 …": "For example, a payment of Tk 500 …").
    example = example and not q.numbers & numbers_of(text)
    asked = mass(q.asked) if q.asked else 0.0
    named = periods_of(text) if q.periods else frozenset()
    match = 1.0 if named and named <= q.periods else 0.0  # names only the asked period(s)
    clash = 1.0 if named and not named & q.periods else 0.0  # names only another one
    row = [0.0] * len(FEATURES)
    for name, value in (("period_match", match), ("period_clash", clash), ("row_period", match if kind == "row" else 0.0),
                        ("coverage", cov), ("sentence_cover", own), ("heading_cover", head),
                        ("lead_cover", lead), ("density", density), ("prefix_cover", prefix), ("pairs", pair_share),
                        ("typed", typed), ("typed_near", near_typed), ("q_numbers", qnum),
                        ("echo", echo), ("negation", negation), ("steps", steps), ("imperative", orders), ("advice", advice), ("rank", 1.0 / (rank + 1)),
                        ("novel", math.log(1 + novel) / 4), ("intro", 1.0 if announces or text.rstrip().endswith(":") else 0.0),
                        ("score_ratio", score_ratio), ("first", 1.0 if first and not example else 0.0), ("item", 1.0 if item else 0.0),
                        ("row", 1.0 if kind == "row" else 0.0), ("inside", inside),
                        ("length", math.log(1 + len(terms)) / 4),
                        ("need", 1.0 if q.need and states_need(text) else 0.0),
                        ("contrast_clash", 1.0 if clashes(q.contrast, text, heading) else 0.0),
                        ("ask_cover", mass(found & q.asked) / asked if asked > 0 else 0.0)):
        row[COL[name]] = value
    return row


def set_context(rows: list[list[float]], prev: list[int | None], nxt: list[int | None],
                neighbour_cover: dict[int, float]) -> None:
    """Fill in the sentence coverage of the units before and after each candidate (an answer
    often follows the sentence that restates the question). `prev[i]`/`nxt[i]` index
    `neighbour_cover`."""
    for r, before, after in zip(rows, prev, nxt):
        if before is not None:
            r[COL["prev_cover"]] = neighbour_cover.get(before, 0.0)
            r[COL["prev_gap"]] = max(0.0, r[COL["prev_cover"]] - r[COL["sentence_cover"]])
        if after is not None:
            r[COL["next_cover"]] = neighbour_cover.get(after, 0.0)


def confidence_features(coverage: float, missing: float, probability: float, margin: float, logit: float,
                        typed: float, score: float, unmatched: float, same_lang: bool,
                        top_doc: bool, lexical_rank: int) -> list[float]:
    """What the confidence is computed from: the chosen unit's coverage of the question; the
    share of the question's idf mass found nowhere in the retrieved chunks (a question about
    something the help centre never mentions); the sentence model's probability for the
    chosen unit and its lead over the next one (margin, in logits, capped at 4; for the first
    unit of a section whose heading asks a question, its section's: `faq.section_reading`); its logit
    itself (/ 10: how much it looks like an answer, whatever the other candidates); whether a
    typed question got a value of its type (or the unit opens the FAQ whose heading asks the
    question best: `faq.heading_asks`); the retrieval score of the chunk it came from
    relative to the top chunk; the share of the question in words the index does not
    know even at a small edit distance; whether the unit is in the question's language (no
    unit of the question's language came close); whether it comes from the article of the
    top-ranked chunk (the chunk ranking and the sentence choice agree); and 1 / (1 + the number
    of chunks the retriever's BM25 side scores above the unit's chunk): the question's own words
    ranking that chunk first tells a right answer from a wrong one on questions the fit never
    saw, where the fused rank, the encoder's cosines and agreement across rankings do not.
    The last two, `restated_before` (the unit before's coverage) and `half_answer` (the composed
    answer's, not the assessment's), `answerer.signals_of` adds."""
    return [1.0, coverage, missing, probability, min(margin, 4.0) / 4.0, logit / 10.0, typed, score, unmatched,
            1.0 if same_lang else 0.0, 1.0 if top_doc else 0.0, 1.0 / (1.0 + lexical_rank)]


def speaks_to(signals: list[float]) -> bool:
    """Whether the chosen unit can answer at all (else the answerer abstains whatever the
    confidence): it holds some of the question's words, or it is in the other language than
    the question, whose words cannot appear in it (a Bangla question answered from an English
    article; there the confidence decides), as long as the index knows some of the question's
    words (a string of stray letters is not a question in another language)."""
    if signals[CONFIDENCE_COL["coverage"]] > 0:
        return True
    return signals[CONFIDENCE_COL["same_lang"]] == 0 and signals[CONFIDENCE_COL["unmatched"]] < 1


def confidence(m: Model, values: list[float]) -> float:
    return logistic(dot(m.confidence, values))
