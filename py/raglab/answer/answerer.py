"""The extractive answerer: quote the article's best unit(s) around the top chunks, with a short
answer, cite, or abstain.

The retrieved chunks say where to look; the quote is always a whole unit of the *article*
(`units.py`: a sentence, a list item, a table row read with its header), whatever the
chunker cut, with its offsets in the article so that highlighting and citations land.
Every unit that shares a character with a top-k chunk is a candidate (`candidates.py`); a small learned
model (`sentences.py`) scores each one from features such as the idf-weighted coverage of
the question's terms, its neighbours and whether it holds a value of the type the question
asks for (`answertypes.py`). The best unit is quoted with its short answer (`short.py`). A
second unit is added when it speaks of the half of a two-fact question the first leaves out
(minimum and maximum, fee and limit; for a table cell, the cell of its row whose column names
that half, the two quoted as one row; two units and their values are put in the order asked,
`shorts.asked_order`), or when the model finds it nearly as likely, never
more than two units or `MAX_WORDS` words. A unit that announces a list or a table ("To open a
merchant account, you need:") is never quoted without it: it is quoted with every item of it
when they fit in `MAX_WORDS` words together, and is no candidate otherwise. Of two close
units (`language.py`), the one in the question's language is quoted. The answer's confidence
is a calibrated probability that the shown answer states the fact; below `threshold` the
answerer abstains.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from raglab.answer import howto
from raglab.answer.candidates import MAX_WORDS, Candidate, heading_of, missing_share, read_question, score_candidates, word_count
from raglab.answer.facts import answers_later, asks_a_value, asks_no_value, asks_two, half_words_first, held, missing_half, most_of_half, named_row, other_kind, restates, states_asked, states_one_case
from raglab.answer.faq import faq_lead, from_the_first_step, heading_asks, heading_lead, section_reading, tells_the_way, twins, without_bare_reply, without_twin
from raglab.answer.howto import ASIDE_MARGIN, another_case, case_before_rule, rule_before_aside, shorter_than_asked, the_advice_first, the_named_way, the_next_step_first, the_place_first, the_plain_case_first, the_side_first, the_steps, the_unit_first, the_value_first, the_way_first, with_steps
from raglab.answer.language import LANG_MARGIN, every_period_first, in_asked_language, in_own_language, own_twin, the_example_first, with_whole_example
from raglab.answer.neighbours import leans_back, leans_elsewhere, unit_before, with_sentence_after, with_sentence_before
from raglab.answer.results import Answer, Quote
from raglab.answer.sentences import COL, Model, Question, confidence, confidence_features, dot, lang_of, model, numbers_of, softmax, speaks_to
from raglab.answer.shorts import asked_order, best_sentence, phrase_half, shorts
from raglab.answer.units import DASH
from raglab.corpus.chunking import Chunk
from raglab.question.asking import aside, limit_beside_price
from raglab.question.durations import no_deadline
from raglab.question.modality import counts_time, names_nothing_needed, states_need
from raglab.question.subjects import VALUE_TYPES, other_subject
from raglab.retrieval.ranking import rounded
from raglab.text.answertypes import accepts, question_type
from raglab.text.contrasts import by_value, left_out, named, names_another_half

NOT_FOUND = "Not found in the help centre."
LEAN_BACK = True  # quote the sentence a leaning quote opens on (`neighbours.with_sentence_before`)


def ranked(q: Question, cands: list[Candidate], m: Model | None = None) -> list[tuple[float, Candidate]]:
    """(logit, candidate), best first; ties go to the better-ranked chunk, then article order."""
    m = m or model()
    scored = [(rounded(dot(m.weights, c.features)), c) for c in cands]
    scored.sort(key=lambda x: (-x[0], x[1].rank, x[1].quote.start, x[1].unit.focus_start))
    return scored


def _other_fact(q: Question, best: Candidate, c: Candidate, step: int = 2) -> bool:
    """Whether `c` speaks of the half of a two-fact question that `best` leaves out: it holds a
    word of that half (`facts.missing_half`) or states a value of an asked kind `best` lacks
    (`facts.other_kind`). When the question names both halves of a contrast (cash in and cash
    out) and `best` names one, that contrast's other half is the half left out (`contrasts.left_out`),
    named by `c` (its heading speaking for it when its words name neither half): the analyzer
    drops "in", so the words of "cash in" were those of "cash out" less "out", and a unit holding
    any word of the question's head ("the daily amount limits") passed for the other fact. At
    `step` 0, the value and (when the half has words) a word both, or the limit asked beside the
    price `best` states (`asking.limit_beside_price`); at 1, a word in its own text, not only its
    heading's (a "Fees" article has "fee" there for every unit), with a value of an asked kind, or
    the value. A unit in `best`'s language stating only `best`'s values
    repeats it, unless it names a half of a contrast `best` does not (`contrasts.names_another_half`):
    a word of the other half alone is not enough, for the halves are cut at the joining word and
    one may hold any word of the question ("what fee applies when using a Bangladeshi card": the
    card's fee row again). A twin in the other language is `language.own_twin`'s to drop."""
    have, other = (held(best), best.unit.text), (held(c), c.unit.text)
    marks = missing_half(q.text, have[0], best.unit.text)
    speaks = marks is not None and any(m in other[0] for m in marks)
    says = marks is not None and any(m in c.found for m in marks)  # in its own words, not its heading's
    gap = left_out(q.text, best.halves)
    if gap is not None:  # the contrast's half decides, not the words: "in" of "cash in" is a stopword
        pair, half = gap
        marks, speaks, says = (), c.halves[pair][half], named(c.unit.text)[pair][half]
    if lang_of(c.unit.text) == lang_of(best.unit.text) and restates(best.unit.text, c.unit.text, q.numbers) \
            and not names_another_half(best.unit.text, c.unit.text):
        return False
    if step == 0:
        if limit_beside_price(q.text, best.unit.text, c.unit.text) and states_asked(q.types, q.numbers, c.unit.text):
            return True
        return other_kind(q.types, q.numbers, have, other) and (speaks or marks is None)
    if step == 1 and marks and asks_no_value(q.text, marks):  # a value answers no "what happens" ("… কী হয়?")
        return other_kind(q.types, q.numbers, have, other)
    return (says and states_asked(q.types, q.numbers, c.unit.text) if step == 1 else speaks) or other_kind(q.types, q.numbers, have, other)


def _merge(picked: list[Candidate], later: bool = False) -> list[Quote]:
    """One quote per unit; two cells of one table row become one quote of that row, their cells in
    the order the question asks their halves (`later`: the first unit answers the half asked second)."""
    if len(picked) == 2 and picked[0].quote.doc == picked[1].quote.doc and picked[0].unit.cell \
            and picked[0].quote.start == picked[1].quote.start:
        a, b = picked[::-1] if later else picked
        text = f"{a.unit.row_key}{DASH}{a.unit.cell}; {b.unit.cell}" if a.unit.row_key else f"{a.unit.cell}; {b.unit.cell}"
        return [Quote(a.quote.chunk, a.quote.doc, a.quote.start, a.quote.end, text, "row")]
    return [c.quote for c in picked]


def _adjacent(order, probs, best: Candidate):
    """(candidate, probability) of the unit right after the best one in its paragraph or list
    (else the one right before it), when that unit is a candidate too; None otherwise."""
    if best.unit.kind == "row":
        return None  # rows next to each other state other facts; each row is read with its header
    for at in (best.next_at, best.prev_at):
        if at is None:
            continue
        for (z, c), p in zip(order, probs):
            if c.quote.doc == best.quote.doc and c.quote.start == at and c.unit.kind != "row":
                return c, p
    return None


def _another_value(q: Question, best: Candidate, c: Candidate) -> bool:
    """Whether the unit next to `best` states only a value of another kind than the one question
    asks, which `best` states ("You can borrow up to Tk 20,000 as a nano loan." beside "… the loan must be
    repaid within 3 months." for how long one has to repay): beside the answer it reads as a second answer.
    So does a unit naming only another period than the one asked beside a `best` naming the asked
    one (the daily figures beside "এক মাসে মোট ২,০০,০০০ টাকা পর্যন্ত …" for the most a month)."""
    if _another_period(best, c):
        return True
    return bool(accepts(q.qtype)) and states_asked(q.types, q.numbers, best.unit.text) \
        and not states_asked(q.types, q.numbers, c.unit.text) and bool(numbers_of(c.unit.text) - q.numbers)


def _another_period(best: Candidate, c: Candidate) -> bool:
    """`c` names only another period than the one asked, which `best` names: a second answer to
    another question, beside it or as the runner-up."""
    return best.features[COL["period_match"]] > 0 and c.features[COL["period_clash"]] > 0


def _runner_up(order, probs, best: Candidate):
    """(candidate, probability) of the best other unit that says something else (not the best
    unit's text, not another cell of its row); None when there is none."""
    for (z, c), p in zip(order[1:], probs[1:]):
        if c.quote.text == best.quote.text or c.quote.start == best.quote.start:
            continue
        return c, p
    return None


@dataclass(frozen=True)
class Assessment:
    """What the answerer knows before it decides: the question, its candidates best first
    with their logits and probabilities, and the inputs of the confidence."""

    q: Question
    order: list  # (logit, Candidate), best first
    probs: list[float]
    signals: list[float]  # `sentences.confidence_features`
    other_subject: bool = False  # the chosen unit names none of the services (or prices) a value question asks about


def assess(question_terms: list[str], chunks: list[Chunk], idf: Callable[[str], float],
           aliases: dict | None = None, question: str = "", scores: list[float] | None = None,
           docs: dict | None = None, closest=None, m: Model | None = None,
           lexical_ranks: list[int] | None = None, reading: str = "") -> Assessment | None:
    """Score every candidate around `chunks`; None when there is none (see `answer`).
    `reading` is the text `question_terms` were analysed from when it is not `question` (a
    Banglish question read in Bangla): the question's language is its.
    `lexical_ranks[i]` counts the chunks the retriever's BM25 side scores above `chunks[i]`
    (`Pipeline.lexical_ranks`); without it, a chunk's place in `chunks` stands in."""
    m = m or model()
    q = read_question(question, question_terms, idf, aliases, closest, reading)
    cands = score_candidates(q, chunks, scores, docs)
    if not cands:
        return None
    missing, kept = missing_share(q, chunks, cands)  # over every unit of the chunks, the dropped ones too
    cands = [c for c in cands if not c.features[COL["contrast_clash"]]] or cands  # see `names_other_half`
    order = the_named_way(q, the_way_first(q, in_own_language(q, ranked(q, cands, m))), docs)  # a how-to: the way, its heading's
    order = heading_lead(faq_lead(order, docs), q, docs)  # an FAQ's answer opens its section, the asking one
    order = the_place_first(q, half_words_first(q, case_before_rule(q, rule_before_aside(q, order)), ASIDE_MARGIN))  # the half's fact; a place
    order = the_advice_first(q, the_value_first(q, the_side_first(q, order)))  # a yes/no question: its side; a value's rule; what to do
    order = the_next_step_first(q, the_plain_case_first(q, the_unit_first(q, order), docs))  # the asked unit; no failed case unasked; the step after the one taken
    order = every_period_first(q, the_example_first(q, order))  # the worked example of the asker's own figure; a limit for every period
    probs = softmax([z for z, _ in order])
    best = order[0][1]
    margin = order[0][0] - next((z for z, c in order[1:] if c.quote.text != best.quote.text), order[0][0] - 4.0)
    faq = section_reading(order, probs, docs, q)
    share, margin = faq or (probs[0], margin)
    typed = 1.0 if heading_asks(order, q, docs) else best.features[COL["typed"]]  # an FAQ's own question
    signals = confidence_features(best.features[COL["coverage"]] / kept, missing, share, margin,
                                  order[0][0], typed, best.features[COL["score_ratio"]],
                                  q.unmatched, lang_of(best.unit.text) == q.lang, best.quote.doc == chunks[0].doc or bool(faq) and any(
                                  c.quote.doc == chunks[0].doc and twins(q, best, c) for _, c in order),
                                  lexical_ranks[best.rank] if lexical_ranks else best.rank)
    return Assessment(q, order, probs, signals, other_subject(q, asks_two(q.text), best.unit.text, heading_of(best.unit, chunks[best.rank], (docs or {}).get(best.quote.doc))))


def the_other_fact(a: Assessment, m: Model) -> Candidate | None:
    """The unit `compose` quotes for the half of a two-fact question the best unit leaves out, or
    None. When the best unit is a table cell, the cell of its row that holds a word of that half
    (in its column's name or its value: "Fee: Free" for the fee of cash in, however unlikely the
    model finds a cell without a figure); else first a unit with a value of the asked kind the best
    one lacks and a word of that half ("দিনে কয়বার …, আর দিনে মোট কত টাকা?": the amount, not a
    sentence that only names it). Not by the row when the question names both halves of a
    contrast: cash in and cash out are two rows."""
    q, order, probs = a.q, a.order, a.probs
    best = order[0][1]
    pool = [c for (z, c), p in zip(order[1:], probs[1:]) if p >= m.second and not c.items
            and c.quote.text != best.quote.text and (c.quote.start != best.quote.start or c.unit.cell)]
    if best.unit.cell and left_out(q.text, best.halves) is None:
        marks = missing_half(q.text, held(best), best.unit.text) or ()
        row = [c for _, c in order[1:] if c.unit.cell and (c.quote.doc, c.quote.start) == (best.quote.doc, best.quote.start)
               and c.quote.text != best.quote.text and any(t in c.found for t in marks)]
        if row:
            return row[0]
    named = named_row(q, best, order)  # a table row of its article named by the half
    if named is not None:
        return named
    for step in (0, 1, 2):
        passing = [c for c in pool if _other_fact(q, best, c, step)]
        if step == 2:  # of the units naming the half left out, the one holding most of its words
            passing = most_of_half(q.text, q.weights, held(best), best.unit.text, passing)
        if passing:
            return passing[0]
    return None


def compose(a: Assessment, docs: dict | None = None, m: Model | None = None) -> Answer:
    """The answer the assessment gives: the best unit, a second one when it adds the other
    fact, the short answer(s), the citations; its confidence is `decide`'s to set, for the
    confidence reads what this shows (`signals_of`)."""
    m = m or model()
    q, order, probs = a.q, a.order, a.probs
    best = order[0][1]
    coverage = best.features[COL["coverage"]]
    two = asks_two(q.text)
    if best.items:  # a unit that announces a list is quoted with the whole list, and nothing else
        listed = {(x.doc, x.start) for x in best.items}
        inside = [c for _, c in order if (c.quote.doc, c.quote.start) in listed]
        return Answer("\n".join(x.text for x in (best.quote,) + best.items), False, [best.quote.chunk],
                      [best.quote, *best.items], coverage, 0.0, q.qtype,
                      shorts(q, inside[:2], inside[0], docs, two) if inside else [])
    second = fact = the_other_fact(a, m) if two else None  # read for the values the best unit does not state
    picked = [best]
    # A second quote announces no list, and an aside ("Note: …") beside a best unit that is none is a
    # remark on the answer, not more of it.
    best_aside = aside(best.unit.text)
    addable = lambda c: not c.items and (best_aside or not aside(c.unit.text))  # noqa: E731
    if second is None:  # the sentence next to the best one, when the model finds it likely too, and it leans on nothing unshown
        near = _adjacent(order, probs, best)
        if near is not None and near[1] >= m.adjacent * probs[0] and addable(near[0]) and not _another_value(q, best, near[0]) and not leans_elsewhere(near[0], best, order, docs):
            second = near[0]
            picked = [second, best] if second.quote.start < best.quote.start else [best, second]
            second = None
    if second is None and len(picked) == 1:  # the runner-up, when the model cannot tell it from the best
        near = _runner_up(order, probs, best)
        if near is not None and near[1] >= m.runner * probs[0] and addable(near[0]) and not _another_period(best, near[0]) and not another_case(q, best, near[0], docs):
            second = near[0]
    if second is not None:
        picked.append(second)
    # A further quote in the other language: its twin in the question's language when one states
    # the same values (for the other fact, the values it adds to the best unit's), or nothing when
    # that twin is the unit already shown.
    kinds = [t for t in q.types if t != q.qtype] + [q.qtype] if two else [q.qtype]
    known = numbers_of(best.unit.text)
    picked = [c for c in (c if c is best else own_twin(q, c, order, [best], kinds, known if c is fact else frozenset())
                          for c in picked) if c is not None]
    if len(picked) == 2 and word_count(picked[0].quote.text) + word_count(picked[1].quote.text) > MAX_WORDS:
        picked = [best]
    citations = []
    for c in picked:
        if c.quote.chunk not in citations:
            citations.append(c.quote.chunk)
    # A table row's values in the order the question asks their halves, not the columns' or the model's.
    later = two and len(picked) == 2 and any(c.unit.kind == "row" for c in picked) and answers_later(q.text, best)
    bold = shorts(q, picked, best, docs, two, later)
    if two:  # two sentences and their values in the order asked, too
        picked, bold = asked_order(q.text, picked, bold)
    quotes = _merge(picked, later)
    # One quote per line: a table row or list item has no full stop to end it.
    return Answer("\n".join(x.text for x in quotes), False, citations, quotes, coverage, 0.0, q.qtype, bold)


def answer(question_terms: list[str], chunks: list[Chunk], idf: Callable[[str], float],
           threshold: float = 0.5,
           aliases: dict[str, list[tuple[str, ...]]] | None = None, question: str = "",
           scores: list[float] | None = None, docs: dict | None = None,
           closest: Callable[[str], tuple[str, ...]] | None = None, m: Model | None = None) -> Answer:
    """Answer `question` from `chunks` (best first, with their retrieval `scores` when known).

    `question_terms` are its analysed terms; `idf` gives a term's weight (unseen terms:
    high); `aliases` (from query expansion) maps a question term to phrases that say the
    same thing, so a unit holding one of them covers that term; `docs` maps article ids to
    Documents (the quotes are their units); `closest(term)` names the index word(s) a term
    the index does not hold stands for (`Pipeline.closest`; () for none); `m` is
    the sentence model (the shipped one unless a fit passes another). Abstains below `threshold`.
    """
    m = m or model()
    a = assess(question_terms, chunks, idf, aliases, question, scores, docs, closest, m)
    return decide(a, threshold, question, docs, m)


def names_other_half(a: Assessment) -> bool:
    """Whether the chosen unit names only the other half of a contrast the question names
    (`contrasts.clashes`: "the cash out minimum" for "the minimum cash in?"). It answers another
    question however likely the model finds it, so such a unit is never quoted: `assess` drops it
    from the candidates when any other is left, and the answerer abstains when none is (the help
    centre may state no such fact at all: it names no cash-in minimum). The sentence model is fitted
    on every candidate with the same flag as a feature (`contrast_clash`)."""
    return a.order[0][1].features[COL["contrast_clash"]] > 0


def counts_another_period(a: Assessment) -> bool:
    """Whether the chosen unit names only another period than the one the question asks about
    (`period_clash`: "Up to 5 cash-outs a day." for "how many times a month …?", the daily and
    monthly figures for "সপ্তাহে সর্বোচ্চ কত?"). Its value answers another question, and the help
    centre may state none for the asked period at all (it counts nothing by the week), so the
    answerer abstains, as for the other half of a contrast: `shorts.shorts` already gave such a unit no
    short answer, yet its quote was shown at the confidence of the value it states. Only for a
    question asking a limit or an amount or count: "I opened it today. When is the first deposit
    taken?" names a day in its story, and "… taken from your wallet at once" answers it."""
    return ((a.q.limit or a.q.qtype in ("amount", "count")) and a.order[0][1].features[COL["period_clash"]] > 0
            or shorter_than_asked(a.q, a.order[0][1].unit.text))  # "within 5 working days" for "how many months"


def states_no_value(a: Assessment, composed: Answer) -> bool:
    """Whether a question asking for a figure (an amount, a count, a percentage: "How much does
    the operator charge …?", "how many billers …") gets an answer that states none: the chosen
    unit holds no value of the asked type (`typed` 0) and no quote gives a short answer. Such an answer says how to do the thing, or what it is, not the figure asked, and the help centre may
    state no figure at all (the operator's fee for a new SIM), so the answerer abstains, as for another period's figure. Not for a duration or a time: "until you ask to reopen it", "not yet
    known" and "at once" answer "how long" without a number (dev q011; COVID-QA's x0053), unless it counts a unit ("how many days", "কত মিনিট": `modality.counts_time`). A number to call or an address to write to (`contact`) is such a value too: the sentence on whom to escalate to is no answer to "the GRO's phone number?".
    Nor does a time the help centre takes answer a deadline the customer must meet (`durations.no_deadline`: "… কত দিনের মধ্যে অভিযোগ করতে হবে?" by a complaint's 7 working days)."""
    return ((a.q.qtype in (*VALUE_TYPES, "contact") or a.q.qtype == "duration" and counts_time(a.q.text)) and not composed.short_answers
            and a.order[0][1].features[COL["typed"]] <= 0) or a.q.qtype == "duration" and no_deadline(a.q.text, [x.text for x in composed.quotes])


def signals_of(a: Assessment, composed: Answer, m: Model) -> list[float]:
    """The confidence's inputs for the answer `compose` made of `a`: the assessment's signals, the
    coverage of the unit before the chosen one when it holds more of the question (`restated_before`:
    an answer often follows its question restated; docs/pipeline.md, "The sentence before the answer,
    for the confidence") and whether a question asking two things got one quote with at most one
    short answer (`half_answer`; "The minimum recharge is Tk 20 and the maximum is Tk 1,000" answers
    both halves; out of fold such answers were confident and wrong, bench/confidence_generalise.py).
    Two quotes are half an answer too when the question names a half of a contrast that neither quote
    names, whatever other half they name (a recipient who refuses, answered with the deadline and a
    sentence about the money held), unless a figure names that half by itself (`contrasts.by_value`: the smallest
    deposit listed); and when the second is the other fact's unit (`the_other_fact`), at most one
    short answer is shown and none is read from it while its half asks for a value (`facts.asks_a_value`:
    "which terms can I choose from?", answered "The profit is added at the end of the term …" at 0.92).
    `m` composed the answer (no default: a fit that read the shipped model depended on the last fit)."""
    half = len(composed.quotes) < 2 and len(composed.short_answers) < 2
    if not half and len(composed.short_answers) < 2 and asks_two(a.q.text):  # the other fact quoted without its value
        fact, best = the_other_fact(a, m), a.order[0][1]
        half = fact is not None and fact.quote in composed.quotes and asks_a_value(a.q.text, missing_half(a.q.text, held(best), best.unit.text)) \
            and not any(s.chunk == fact.quote.chunk and fact.quote.start <= s.start < fact.quote.end for s in composed.short_answers)
    if not half and a.q.contrast:  # or its quotes name no half the question asks about: "… রাজি না হন?"
        shown = {(x.doc, x.start) for x in composed.quotes}
        said = [c.halves for _, c in a.order if (c.quote.doc, c.quote.start) in shown and c.halves]
        asked = [(pair, side) for pair, side in a.q.contrast if not by_value()[pair]]
        half = any(not any(h[pair][side] for h in said) for pair, side in asked)
    best = a.order[0][1].features  # the unit before restates more of the question than the chosen one: the answer follows it
    return [*a.signals, best[COL["prev_cover"]] if best[COL["prev_gap"]] > 0 else 0.0, 1.0 if half and asks_two(a.q.text) else 0.0]


def decide(a: Assessment | None, threshold: float, question: str = "", docs: dict | None = None,
           m: Model | None = None, twin: tuple[str | None, Callable] | None = None) -> Answer:
    """The answer an assessment gives at `threshold`, or the abstention (see `answer`). The
    answer is composed before its confidence is known: the confidence reads what it shows.
    `twin` is the customer's language and the chunks of an article's twin in it (`Pipeline.twin`):
    an answer quoted from the other language shows its twin's unit when it answers alike."""
    m = m or model()
    if a is None:
        return Answer(None, True, [], answer_type=question_type(question), withheld="no-passage")
    composed = compose(a, docs, m)
    conf = confidence(m, signals_of(a, composed, m))
    coverage = a.order[0][1].features[COL["coverage"]]
    reason = withheld(a, composed, conf, threshold)
    if reason in ("no-list", "no-way"):  # what one needs, or how, asked: a unit about as likely saying it is quoted (the confidence stays)
        a, composed = the_need_stated(a, composed, docs, m, reason)
        reason = withheld(a, composed, conf, threshold)
    if reason is not None:
        return Answer(None, True, [], coverage=coverage, confidence=conf, answer_type=a.q.qtype, withheld=reason)
    # Once the confidence is known (the fit reads the unit): a quote opening "Instead," or "It" with the sentence it leans on, a step with the steps from the first.
    steps = the_steps(a.q, a.order[0][1], docs, a.order)
    shown = (with_steps(composed, steps) if steps else
             with_sentence_before(composed, a.order, docs, spare_quote(a, composed, m, docs)) if LEAN_BACK else composed)
    # A worked example's row whole; an FAQ's bare "No." only for its heading's question; no twin in a language not asked in.
    shown = without_twin(without_bare_reply(with_whole_example(from_the_first_step(shown, a.q, a.order, docs), docs), a.order, a.q, docs), a.order, a.q)
    if twin is not None:  # each quote in the customer's language when its twin's unit answers alike
        shown = in_asked_language(shown, a.q, twin[0] or a.q.lang, a.order, lambda doc: ranked(a.q, score_candidates(a.q, twin[1](doc), None, docs), m), docs)
    shown = with_sentence_after(shown, a.order, docs)  # and the one after it that turns on it ("After that, …")
    return replace(best_sentence(phrase_half(shown, a.q.text, a.order), a.q.text, a.q.qtype, a.order, leans_back), confidence=conf)  # the headline


def the_need_stated(a: Assessment, composed: Answer, docs: dict | None, m: Model, reason: str = "no-list") -> tuple[Assessment, Answer]:
    """The assessment led by the likeliest unit within `LANG_MARGIN` logits of the best that says what is needed (`states_need`; a series
    alone may name other things: "useful for visa applications, …") or, for "no-way", what to do under a way's heading (`faq.tells_the_way`), and its answer."""
    for i, (z, c) in enumerate(a.order[1:], 1):
        if a.order[0][0] - z <= LANG_MARGIN and (states_need(c.quote.text) if reason == "no-list" else tells_the_way(a.q, c, docs)):
            b = replace(a, order=[a.order[i], *a.order[:i], *a.order[i + 1:]], probs=[a.probs[i], *a.probs[:i], *a.probs[i + 1:]])
            return b, compose(b, docs, m)
    return a, composed


def spare_quote(a: Assessment, composed: Answer, m: Model, docs: dict | None) -> Quote | None:
    """The second of two quotes that the sentence before the first may take the place of, when
    the first (the best unit's) leans back (`neighbours.leans_back`): a quote the question does not
    need, neither the other fact of a two-fact question (`the_other_fact`) nor one holding a short
    answer (so the sentence after the best one or the runner-up, shown because the model found it
    likely too), while the model finds the sentence before as likely: likely enough to be quoted
    beside the best unit on its own account (`Model.adjacent`, the bar the sentence next to it
    passes) and within `LANG_MARGIN` logits of the second quote (close enough to stand for it, as
    a twin in the question's language does). Otherwise the second quote stays: "You will get an
    SMS before each deposit date as a reminder." answered "Do you remind me?" after "After that,
    the monthly deposit is taken …", and the sentence before, below the bar, does not; "The Hovevei
    Zion … settlements in Palestine" answers "Where did Zionism originate?" after "However, the
    history of Zionism began earlier …", and the sentence before scores 1.3 logits below it. None
    otherwise."""
    if len(composed.quotes) != 2 or composed.quotes[0] != a.order[0][1].quote or not leans_back(composed.quotes[0].text):
        return None
    x = composed.quotes[1]
    if any(x.holds(s) for s in composed.short_answers):
        return None
    before = unit_before(a.order[0][1], a.order, docs)
    seen = {c.quote: (z, p) for (z, c), p in zip(a.order, a.probs)}
    if before is None or seen[before.quote][1] < m.adjacent * a.probs[0] or seen[x][0] - seen[before.quote][0] > LANG_MARGIN:
        return None
    if asks_two(a.q.text) and the_other_fact(a, m) is not None:
        return None
    return x


# Why the answerer withholds an answer (`Answer.withheld`): no unit to quote at all; a rule that withholds whatever the confidence (the chosen unit shares no word with the question, names the other half of a contrast,
# counts another period, states no figure for a question asking one, only the way for a fault, names none of the services or prices a value question asks about: `question/subjects.py`, nothing needed when that is asked, no way when a way is asked: `howto`); or a low confidence.
WITHHELD = ("no-passage", "low-confidence", "no-match", "other-half", "other-period", "one-case", "no-value", "only-the-way", "other-subject", "no-list", "no-way")


def withheld(a: Assessment, composed: Answer, conf: float, threshold: float) -> str | None:
    """Why `decide` abstains (a word of `WITHHELD`), or None when it answers. The order is the
    one a user can act on first: a rule that withholds names what the help centre lacks or what
    to ask instead (no word of the question, the other half, another period, no figure: 8 of the 16 dev questions withheld below the threshold with no figure are ones the help centre
    has no figure for), whatever the confidence; "not enough confidence" says only that the
    answerer is unsure, so it is the reason only when no rule holds. Whether the answerer
    abstains does not depend on the order: only which reason it gives."""
    rule = ("no-match" if not speaks_to(a.signals) else "other-half" if names_other_half(a)
            else "other-period" if counts_another_period(a) else "one-case" if states_one_case(a.q, a.order[0][1])
            else "no-value" if states_no_value(a, composed) else "only-the-way" if howto.the_way_for_a_fault(a.q, a.order[0][1].unit.text)
            else "no-way" if howto.shows_no_way(a.q, a.order, composed)
            else "other-subject" if a.other_subject else "no-list" if a.q.need and not asks_two(a.q.text) and names_nothing_needed([x.text for x in composed.quotes]) else None)
    return rule if rule is not None else "low-confidence" if conf < threshold else None
