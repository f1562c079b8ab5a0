"""A how-to question is answered by the way a thing is done, not by how it is not done.

"How do I close my account?" was answered "Closure cannot be requested through an agent
point, …" at 0.80: the side remark holds every word of the question (its heading's and its
own), so the sentence model ranked it above "You can ask to close your account in either of
these ways:" and the steps under it. A unit that says only how the thing is not done
(`modality.restricts`: a statement whose main clause is negated; "Do not …" is an instruction)
answers whether it may be done, not how. So for a procedure question that does not ask
whether (`modality.asks_may`), `the_way_first` puts first the best unit that is no such remark
when it scores within `MARGIN` logits of the chosen one (the sentence model and its fit are
untouched: the feature `not_how` was too rare on dev to learn, see docs/pipeline.md).

Two more rules read the way and the place the same way, by promotion within a margin: `the_named_way`
quotes the steps under the heading that names the asked action ("Changing your PIN" for "How do I
change my PIN?"), and `the_place_first` a unit stating a place for a where-question whose best unit
states none ("Go to Settings and then Security.", not "Turn on Fingerprint login.").
"""

from __future__ import annotations

import functools
import re

from raglab.answer.candidates import MAX_WORDS, heading_match, word_count
from raglab.answer.language import promoted
from raglab.answer.results import Answer, Quote, requoted
from raglab.answer.sentences import COL, Question, fresh_spans, lang_of, spans_of
from raglab.answer.units import introduced
from raglab.question.asking import aside, case_words
from raglab.question.durations import asked_unit, counts_in, shorter_than
from raglab.question.modality import asks_may, asks_need, asks_should, conditional, imperative, names_condition, names_fault, reports_fault, restricts, sides_asked, still_failed, takes_side
from raglab.question.places import asks_whom, places_for
from raglab.question.stated import stated_kinds
from raglab.question.subjects import another_service
from raglab.retrieval.ranking import HOW as _HOW
from raglab.retrieval.ranking import WAY_HEADING
from raglab.text.analyzer import analyze
from raglab.text.answertypes import accepts

MARGIN = 1.0  # logits: a unit that says how, this close to a remark saying how not, is quoted instead


def not_the_way(q: Question, text: str) -> bool:
    """Whether `text` says only how the thing a how-to question asks about is not done."""
    return q.qtype == "procedure" and not asks_may(q.text) and restricts(text)


def the_way_first(q: Question, order: list, margin: float = MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of
    the best that says no "not" put first, when the best says only how the thing is not done."""
    if not order or not not_the_way(q, order[0][1].unit.text):
        return order
    return promoted(order, lambda c: not restricts(c.unit.text), margin)


# The way under the heading that names it. "How do I change my PIN?" was answered "Change your PIN in
# the app straight away." (under "If you think someone knows your PIN") 0.16 logits above "Go to
# Settings and then Change PIN." (under "Changing your PIN"): the side remark holds both words of the
# question, the step only one, and the heading that names the asked action is read as the article's
# other headings are. A help centre's heading names what its section tells one to do, so for a how-to
# question the steps and instructions of the section whose own heading holds more of the question than
# the best unit's heading are quoted when they score within `HEADING_MARGIN` logits of it. A heading
# writes the action as a gerund ("Changing", "Turning on", "Resetting") and a question as a verb; the
# analyzer keeps them apart (no English stemming), so a heading's -ing word counts for its verb here.
HEADING_MARGIN = 1.5  # logits
# How much more of the question's idf mass the other heading must hold: a word more, not a share of one
# ("If you paid the wrong shop" over "Before you confirm", 0.07 against 0.05, for "what should I look at
# before I confirm a payment?"). Both units in one language: a heading of the other language holds the
# question's words through the aliases, which cover the two languages unevenly (a Bangla question's best
# Bangla unit gave way to an English step under a heading holding 0.15 of it against 0.11).
NAMES_MORE = 0.1


def _verbs(term: str) -> tuple[str, ...]:
    """The verbs an English gerund may stand for: "changing" change, "turning" turn, "resetting" reset."""
    if len(term) < 6 or not term.endswith("ing") or not term.isascii():
        return ()
    stem = term[:-3]
    return (stem, stem + "e") + ((stem[:-1],) if stem[-1] == stem[-2] else ())


@functools.lru_cache(maxsize=4096)
def _named(heading: str) -> str:
    """`heading` with the verbs its gerunds stand for written after it (see `_verbs`)."""
    extra = [v for t in analyze(heading) for v in _verbs(t)]
    return heading + (" " + " ".join(extra) if extra else "")


# A heading that says it tells the way ("How to cash in", "Steps to open your account", "ক্যাশ ইন করবেন
# যেভাবে", "অ্যাপে অ্যাকাউন্ট খোলার ধাপ", "কীভাবে টাকা পাঠাবেন") names the way of what it names: "How do I
# open an account?" was answered "Each person can hold only one personal account per NID." (under
# "Who can open an account", holding both its words), 0.2 logits above the first step under "Steps to
# open your account", which holds no more of the question. Such a heading counts a word more, for a
# question that asks how (`_HOW`); "… এখন কী করব?" (what do I do now) after a story asks what to do
# about it, which the steps of the plain case do not say. (`ranking.WAY_HEADING`, `ranking.HOW`: retrieval reads them too.)
_MAY = re.compile("\\byou can (?!not\\b)|করতে পারেন|দিতে পারেন|নিতে পারেন", re.IGNORECASE)  # "you can <verb>": a way, unless it states a figure


def way_share(q: Question, c, docs: dict | None) -> float:
    """The share of the question's idf mass that the own heading of `c`'s section holds (0 for an article's
    opening, whose heading is the title: every section has that one), and `NAMES_MORE` more when the
    question asks how and that heading says it tells the way."""
    doc = docs.get(c.quote.doc) if docs else None
    heading: tuple[str, ...] = doc.section_at(c.quote.start).heading if doc is not None else ()
    if len(heading) < 2:
        return 0.0
    way = WAY_HEADING.search(heading[-1].strip()) is not None and _HOW.search(q.text) is not None
    return heading_match(q, _named(heading[-1]))[0] + (NAMES_MORE if way else 0.0)


def says_what_to_do(q: Question, c) -> bool:
    """Whether a unit tells the reader what to do: an instruction, a step of a list, or a unit that
    announces one (quoted with its items)."""
    return bool(c.items) or c.features[COL["steps"]] > 0 or imperative(c.unit.text)


def shows_no_way(q: Question, order: list, composed: Answer) -> bool:
    """Whether a question asking how is answered by no unit that tells what to do (an amount, who may; "you can escalate it" with no figure tells a way: `_MAY`) while one read for it does."""
    shown = {(x.doc, x.start) for x in composed.quotes}
    ways = [(c.quote.doc, c.quote.start) in shown for _, c in order if says_what_to_do(q, c)] if q.qtype == "procedure" and _HOW.search(q.text) else []
    return bool(ways) and not any(ways) and not any(_MAY.search(x.text) and not any(ch.isdigit() for ch in x.text) for x in composed.quotes)


def the_named_way(q: Question, order: list, docs: dict | None, margin: float = HEADING_MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that tells what to do (`says_what_to_do`) under a heading holding more of a how-to question than
    the best unit's heading put first (see above); otherwise `order` itself. Not for a question asking
    whether (`asks_may`) or what is needed (`asks_need`): those are answered by a rule or a list of
    things, which any section may state."""
    if not order or not docs or q.qtype != "procedure" or asks_may(q.text) or asks_need(q.text):
        return order
    best = order[0][1]
    own, lang = way_share(q, best, docs) + NAMES_MORE, lang_of(best.unit.text)
    return promoted(order, lambda c: lang_of(c.unit.text) == lang and says_what_to_do(q, c) and way_share(q, c, docs) >= own,
                    margin)


# A where-question is answered by the place one goes to, not by what one does there. "আঙুলের ছাপ দিয়ে
# অ্যাপে ঢোকার অপশন কোথায় চালু করব?" (where do I turn on fingerprint login) was shown "Turn on Fingerprint
# login." with "Fingerprint" in bold, and the step before it, "Go to Settings and then Security.", scored
# 1.1 logits below a note on whose fingerprints open the app. A place that holds only the question's
# words says no more than the question, nor does one whose head is the app itself ("in the app",
# "অ্যাপে") when the question names the app: the asker is in it already ("কোম্পানির … অ্যাপ থেকে", the
# transfer company's app, answers where a sender sends from). So when the best unit states no other
# place, the first unit within `HEADING_MARGIN` logits of it that does (a screen, a menu, a section, a path "Settings and then
# Security", an agent point, a branch) is quoted. Not for a question asking to whom: `places_for` reads
# its people and numbers already.
_THE_APP = frozenset(("app", "অ্যাপ"))
_ONLY_THE_APP = re.compile("(?:app|apps|অ্যাপ(?:ে|এ|তে|ের)?(?: থেকে)?)$", re.IGNORECASE)


def names_a_place(q: Question, text: str) -> bool:
    """Whether `text` states a place (`places_for`) other than the question's own words, or the app
    itself when the question names it."""
    own = q.weights.keys()
    in_app = bool(own & _THE_APP)
    for a, b in places_for(q.text, text):
        span = text[a:b].rstrip(" .,;:\"'")
        if not (in_app and _ONLY_THE_APP.search(span)) and not set(analyze(span)) <= own:
            return True
    return False


def the_place_first(q: Question, order: list, margin: float = HEADING_MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that states a place (`names_a_place`) put first, when a where-question's best unit states none
    (see above); otherwise `order` itself."""
    if not order or q.qtype != "place" or asks_whom(q.text) or names_a_place(q, order[0][1].unit.text):
        return order
    return promoted(order, lambda c: names_a_place(q, c.unit.text), margin)


# A yes/no question that states a value is answered by the rule for that kind of value. "can my sister
# opne her own shapla acount, shes 16" was answered "Each person can hold only one personal account per
# NID." 0.39 logits above "To open a personal account, you must be 18 or older.": the remark holds more
# of the question's words, and the `echo` feature counts its "one" as a value a bare 16 may be. The
# question states an age (`stated.stated_kinds`: an age, an amount, a count, a duration), so when the
# best unit states no other value of a kind the question states, the first unit within `MARGIN` logits
# of it that does, in the best unit's language or the question's, naming no service but the asked
# (`subjects.another_service`: the add-money limit is no cash-out's), is quoted.
def states_a_kind(q: Question, text: str, kinds: frozenset) -> bool:
    """Whether `text` states a value of one of `kinds` other than the question's own numbers."""
    return bool(fresh_spans(spans_of(text), text, kinds, q.numbers))


def the_value_first(q: Question, order: list, margin: float = MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that states a value of a kind a yes/no question states put first, when the best states none (see
    above); otherwise `order` itself."""
    kinds = stated_kinds(q.text) if order and q.qtype == "yesno" else frozenset()
    if not kinds or states_a_kind(q, order[0][1].unit.text, kinds):
        return order
    langs = (q.lang, lang_of(order[0][1].unit.text))
    return promoted(order, lambda c: lang_of(c.unit.text) in langs and not another_service(q.text, c.unit.text) and states_a_kind(q, c.unit.text, kinds), margin)


# A question asking whether one should do a thing (`modality.asks_should`: "should I …?", "is that ok?",
# "দিবো?") is answered by what to do. "একজন ফোন দিয়ে বলতেছে আমি লটারিতে পুরস্কার পাইছি, ওটিপি চাচ্ছে।
# দিবো?" was quoted the scene it tells ("… ধরনের কল ও বার্তা প্রায়ই আসে।", such calls come often) 0.07
# logits above "আসল কোনো পুরস্কারের জন্য পিন বা ওটিপি লাগে না, তাই এমন কল এলে সঙ্গে সঙ্গে কেটে দিন।"
# (cut the call): a description of the case holds the question's story as well as the advice does.
# So when the best unit is no instruction (`modality.imperative`), the first unit within `MARGIN`
# logits of it that is one, in the best unit's language or the question's, is quoted.
def the_advice_first(q: Question, order: list, margin: float = MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first instruction within `margin` logits of
    the best put first, when a yes/no question asks whether one should (see above) and the best unit
    is no instruction; otherwise `order` itself."""
    if not order or q.qtype != "yesno" or not asks_should(q.text) or imperative(order[0][1].unit.text):
        return order
    langs = (q.lang, lang_of(order[0][1].unit.text))
    return promoted(order, lambda c: lang_of(c.unit.text) in langs and imperative(c.unit.text), margin)


# A yes/no question is answered by a unit that takes the side it asks about, not by one restating it.
# "Does it cost anything to have my account blocked after my phone is stolen?" was quoted "The account
# stays blocked until you, the owner, ask to reopen it." 0.50 logits above "Blocking the account is free
# and can be undone when you are ready.", and "do i need a bank acount to open a merchant acount" the
# list's lead "To open a merchant account, you need:" over "You will also need a bank account …": a unit
# that holds the question's words but says neither yes nor no (a step, the case described, a list's
# lead or item) ranks above the one that does. So when the best unit of a yes/no question takes none of
# the sides it asks about (`modality.sides_asked`: can, need, price, will; `takes_side`), the first unit within
# `MARGIN` logits of it that takes one is quoted: of the same article (a side taken in another article is
# another service's rule: "Never share your PIN …" for "Should I attach a screenshot?"), in the best
# unit's language or the question's, holding at least `SIDE_COVERAGE` of the best unit's share of the
# question. A best unit that is an instruction is no exception: a step ("Go to "Transactions" and tap
# "Statement".") or a prohibition of another thing ("… পিন বা ওটিপি লিখবেন না।") says neither yes nor no to
# "can I download it as a PDF?" or "can I attach the screenshot?", while "You can export a statement as a PDF
# file, …" does (the instruction that says yes, "বার্তার স্ক্রিনশট থাকলে সেটিও যুক্ত করুন।", has no side-taking
# neighbour within the margin). A list's lead quoted with its items takes none (the item that names the
# thing asked is the answer, not the lead). Besides can, need and price, a question asking whether a thing
# will happen ("Will I get a message when …?", "Will the SMS tell me …?", "Do you remind me?") is answered by
# a unit saying it does ("You will receive an SMS when …", "… are always sent", "… দেখানো হয়").
SIDE_COVERAGE = 0.5


def takes_a_side(c, sides: tuple[str, ...]) -> bool:
    """Whether candidate `c` takes one of `sides` (see above): not a list's lead."""
    return not c.items and takes_side(c.unit.text, sides)


def the_side_first(q: Question, order: list, margin: float = MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that takes a side a yes/no question asks about put first, when the best takes none (see above);
    otherwise `order` itself."""
    sides = sides_asked(q.text) if order and q.qtype == "yesno" else ()
    best = order[0][1] if sides else None
    if best is None or takes_a_side(best, sides):
        return order
    langs, floor = (q.lang, lang_of(best.unit.text)), best.features[COL["coverage"]] * SIDE_COVERAGE
    # Only a unit the model scores below the best: one above it was put below by an earlier rule (an FAQ's
    # answer opens the section whose heading asks the question), which this one does not undo.
    below = {id(c) for z, c in order[1:] if z <= order[0][0]}
    return promoted(order, lambda c: id(c) in below and c.quote.doc == best.quote.doc and lang_of(c.unit.text) in langs
                    and c.features[COL["coverage"]] >= floor and takes_a_side(c, sides), margin)


# A question counting its answer in months or years is answered by a duration of at least one of them.
# "statement PDF কত মাস আগের পর্যন্ত download করা যায়?" was quoted "Older statements are sent within 5
# working days of your request." 0.49 logits above "Both must fall within the last 12 months.": five days
# is no count of months, but the duration of another thing (`question.durations`). So when every duration
# the best unit states is shorter than one asked unit, the first unit within `MARGIN` logits of it that
# states one at least as long is quoted. When none is, the answerer abstains (`answerer.counts_another_period`:
# a figure for another span than the one asked, as a day's limit is for a month's), for the help centre may
# state no such count at all ("How many months back …?" when only the delivery time is close enough).
def shorter_than_asked(q: Question, text: str) -> bool:
    """Whether a question counting its answer in months or years gets a unit `text` whose durations are
    all shorter than one of them (see above)."""
    unit = asked_unit(q.text) if q.qtype == "duration" else None
    return unit is not None and shorter_than(unit, text)


def the_unit_first(q: Question, order: list, margin: float = MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that counts in the asked unit put first, when the best states only shorter durations (see above);
    otherwise `order` itself."""
    unit = asked_unit(q.text)
    if not order or unit is None or not shorter_than_asked(q, order[0][1].unit.text):
        return order
    return promoted(order, lambda c: counts_in(unit, c.unit.text), margin)


def the_way_for_a_fault(q: Question, text: str) -> bool:
    """Whether a question reporting a fault ("I can't log in to the app", "লগইন করতে পারছি না":
    `modality.reports_fault`) gets a unit that names no failure and no figure
    (`modality.names_fault`): "You can log in to the app with your PIN or with a fingerprint." says how
    the thing is done, which the asker has tried, so the answerer abstains (`answerer.withheld`)."""
    return reports_fault(q.text) and not names_fault(text)


# The plain case before the failed one. "what e-mail do I send a complaint to?" was shown the grievance
# officer's address (under "If you are not satisfied", "সমাধানে সন্তুষ্ট না হলে") 0.1 to 0.7 logits above the
# support address the channels table gives: both are e-mail addresses and hold the question's words, and
# the escalation's sentence names the complaint besides. A unit under a heading or opening on a condition
# that something failed (`modality.conditional`) answers the asker in that case, so when the question names
# no such case (`modality.names_condition`: not satisfied, still, escalate, the GRO, আবার, মেটেনি …), the
# first unit within `MARGIN` logits of it that states a value of the asked kind at no condition is quoted.
def under_condition(c, docs: dict | None) -> bool:
    """Whether candidate `c` opens on, or sits in a section headed by, a condition that something
    failed (an article's title is every section's heading, so only a section's own heading counts)."""
    if conditional(c.unit.text):
        return True
    doc = docs.get(c.quote.doc) if docs else None
    heading: tuple[str, ...] = tuple(doc.section_at(c.quote.start).heading) if doc is not None else ()
    return len(heading) > 1 and conditional(heading[-1])


def the_plain_case_first(q: Question, order: list, docs: dict | None, margin: float = MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that states a value of the asked kind and no failed case put first, when the best states one under a
    failed case the question does not name (see above); otherwise `order` itself."""
    if not order or not accepts(q.qtype) or order[0][1].features[COL["typed"]] <= 0 or names_condition(q.text) \
            or not under_condition(order[0][1], docs):
        return order
    return promoted(order, lambda c: c.features[COL["typed"]] > 0 and not under_condition(c, docs), margin)


def another_case(q: Question, best, c, docs: dict | None) -> bool:
    """Whether `c`, shown beside `best`, would state a value of the asked kind for a failed case the
    question does not name when `best` states one at none (see above): the runner-up "Write to gro@…"
    beside "Email — Write to support@…" gives the asker of the plain case a second address to choose."""
    typed = COL["typed"]
    return bool(accepts(q.qtype)) and best.features[typed] > 0 and c.features[typed] > 0 and not names_condition(q.text) \
        and under_condition(c, docs) and not under_condition(best, docs)


# The step after the one the question has taken. "জিআরও-র কাছে ইমেইল করলাম, উত্তরও পেলাম, কিন্তু সমস্যা মেটেনি।
# এখন কার কাছে অভিযোগ করা যায়?" (I wrote to the GRO, got a reply, still not solved: whom now?) was shown the
# GRO's address 1.0 logit above "If you have been through our GRO and are still not satisfied, you may
# complain to Bangladesh Bank": the question names the GRO, and so does the address. A unit whose opening
# condition (`modality.conditional`) names the value the best unit gives (a question term said in the
# best unit's typed value: "gro" of "gro@…") is the step after it: for a question saying a step failed
# (`modality.still_failed`: not only naming the GRO, "What is the GRO's e-mail?"), it
# is quoted when it states a value of the asked kind within `HEADING_MARGIN` logits of the best (as a
# heading's steps are). The value, not any word of the best unit: "২৪ ঘণ্টা পার হওয়ার পরও টাকা ফেরত না এলে …"
# names the refund "ব্যর্থ রিচার্জের টাকা ২৪ ঘণ্টার মধ্যে … ফেরত আসে" states, not its time, which a failed
# recharge's asker wants.
def _said(q: Question, terms: frozenset[str]) -> frozenset[str]:
    """`terms` with the question terms a one-word alias says among them. One-word aliases only: the
    expansion says the GRO also as "not satisfied", which every such condition holds."""
    return terms | {t for t in q.weights if any(len(alt) == 1 and alt[0] in terms for alt in q.aliases.get(t, ()))}


def _clause(q: Question, text: str) -> frozenset[str]:
    """The terms of `text`'s opening condition and the question terms said there (none when it opens on
    no failed condition)."""
    return _said(q, frozenset(analyze(re.split("[,،।]", text, maxsplit=1)[0]))) if conditional(text) else frozenset()


def the_next_step_first(q: Question, order: list, margin: float = HEADING_MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that states a value of the asked kind on the condition that the value the best unit gives failed put
    first, when the question says a step failed (see above); otherwise `order` itself."""
    typed = COL["typed"]
    if not order or not accepts(q.qtype) or not still_failed(q.text) or order[0][1].features[typed] <= 0:
        return order
    text = order[0][1].unit.text
    gives = _said(q, frozenset(t for s in spans_of(text) for t in analyze(text[s.start:s.end]))) & frozenset(q.weights)
    return promoted(order, lambda c: c.features[typed] > 0 and bool(gives & _clause(q, c.unit.text)), margin) if gives else order


# Two more promotions within a margin, for a value question: the rule over an aside, the case asked over the rule.
ASIDE_MARGIN = 1.0  # logits: a unit stating the asked value this close to an aside ("Note: …") is quoted instead


def rule_before_aside(q: Question, order: list, margin: float = ASIDE_MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that is no aside and states a value of the asked kind put first, when the best is an aside
    (`asking.aside`: "নোট: মাসের ফ্রি ২৫,০০০ টাকা আর দৈনিক সীমার ২৫,০০০ টাকা দুটি আলাদা হিসাব।" holds
    every word of "সেন্ড মানির দৈনিক সীমা কত?" and was quoted over the rule "দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০
    টাকা …" 0.3 logits below it). An aside still answers what only it states ("do I need my PIN to
    receive money from abroad?": "নোট: প্রবাসী আয় গ্রহণ করতে আপনার পিন বা ওটিপি লাগে না।")."""
    if not order or not accepts(q.qtype) or not aside(order[0][1].unit.text):
        return order
    return promoted(order, lambda c: not aside(c.unit.text) and c.features[COL["typed"]] > 0, margin)


def case_before_rule(q: Question, order: list, margin: float = ASIDE_MARGIN) -> list:
    """`order` with the first unit within `margin` logits of the best that names the weekday the
    question asks about (`asking.case_words`) and states a value of the asked kind put first, when the
    best unit names none: "… বৃহস্পতিবার (Thursday) বিক্রির টাকা কবে আসবে?" is answered by "… so sales
    from a Thursday are settled on the following Saturday …", not the rule two sentences before it."""
    case = frozenset(t for w in case_words(q.text) for t in analyze(w))
    if not order or not case or case & order[0][1].found or not accepts(q.qtype):
        return order
    return promoted(order, lambda c: bool(case & c.found) and c.features[COL["typed"]] > 0, margin)


# The steps from the first. "How do I cash in?" was answered "Hand over the cash." and "The agent makes
# the transfer from their phone.": steps 3 and 4 of "How to cash in", the step holding the asked word.
# Asked how to do a thing, a reader needs the way from its start, and a help centre writes it as a
# numbered list: so when the best unit is a step of one, the answer is its steps from the first, as
# many whole steps as fit in `MAX_WORDS` words together, when they reach the best one; a step with its note
# ("Choose the start and end dates. Both must fall within the last 12 months.") unless fewer fit so. Likewise the ways
# a sentence announces ("You can make a complaint through any of these channels:" over a table of the
# hotline, the app and e-mail): "How can I make a complaint?" was answered by the app's row alone, so a
# row or item of an announced list or table is shown with the sentence that announces it and all of it,
# when they fit. Not for a question asking whether (`asks_may`) or what is needed (`asks_need`), nor one
# that does not ask how (`_HOW`: "… এখন কী করব?" after a story asks what to do about it, and the step it
# needs is the one after the way taken: `the_next_step_first`).
def _numbered(ch: str) -> bool:
    """Whether a list's first character numbers it ("1.", "১."): by code point, as the browser reads it too."""
    return "0" <= ch <= "9" or "\u09e6" <= ch <= "\u09ef"


def the_steps(q: Question, best, docs: dict | None, order: list) -> tuple[Quote, ...]:
    """The quotes of the numbered list's steps from the first (each with its note when as many fit so), or of an announced list or
    table with its sentence, when `best` is one's step, item or row and a how-question asks; all within its chunk (its units in `order`)."""
    doc = docs.get(best.quote.doc) if docs else None
    if (doc is None or best.unit.kind not in ("item", "row") or q.qtype != "procedure" or _HOW.search(q.text) is None
            or asks_may(q.text) or asks_need(q.text)):
        return ()
    text, block, lead = doc.text, best.unit.block, best.unit.lead
    announced = lead.rstrip().endswith(":")
    if not announced and not (best.unit.kind == "item" and _numbered(text[block:block + 1])):
        return ()
    at = text.rfind(lead, 0, block)
    head = [Quote(best.quote.chunk, best.quote.doc, at, at + len(lead), lead)] if announced else []
    units = introduced(text, block - 1)
    first, whole = _fitting(best.quote, head, units, announced), _fitting(best.quote, head, units, announced, text)
    got = whole[1] if whole[0] >= first[0] else first[1]  # each step with its note, when as many steps fit
    seen = {c.quote.start for _, c in order if c.quote.chunk == best.quote.chunk}  # cited by that chunk, so within it
    return got if all(x.start in seen for x in got) else ()


def _fitting(best: Quote, head: list[Quote], units, announced: bool, notes: str = "") -> tuple[int, tuple[Quote, ...]]:
    """(how many, the quotes of) the steps from the first that fit in `MAX_WORDS` words, a step being an
    item or row, with its item's later sentences (its note, on its line of `notes`, the article's text)."""
    steps, item = [[x] for x in head], -1
    for u in units:
        if u.kind == "sentence" and notes and item >= 0 and notes.rfind("\n", 0, u.start) < item:
            steps[-1].append(Quote(best.chunk, best.doc, u.start, u.end, u.text))
        if u.kind not in ("item", "row") or steps and steps[-1][0].start == u.start:  # a row's other cells: one quote
            continue
        item = u.start if u.kind == "item" else -1
        steps.append([Quote(best.chunk, best.doc, u.start, u.end, u.text, "row" if u.kind == "row" else "sentence")])
    words = 0
    for n, step in enumerate(steps):
        words += sum(word_count(x.text) for x in step)
        if words > MAX_WORDS:
            steps = [] if announced else steps[:n]  # an announced list whole or not at all
            break
    out = tuple(x for step in steps for x in step)
    return (len(steps), out) if any(x.start == best.start for x in out) and len(steps) > 1 else (0, ())


def with_steps(composed: Answer, steps: tuple[Quote, ...]) -> Answer:
    """`composed` quoting `steps` (`the_steps`) in place of its quotes, with the short answers that
    lie in them."""
    kept = [s for s in composed.short_answers if any(x.holds(s) for x in steps)]
    return requoted(composed, list(steps), citations=[steps[0].chunk], short_answers=kept)
