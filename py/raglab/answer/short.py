"""The short answer: the shortest verbatim span of the chosen sentence that answers.

For a question that asks for a typed value (an amount, a duration, ...) it is a typed span
of the sentence (`answertypes.typed_spans`) of an accepted type, one the question does not
already state, nearest to the question's own words (for a count, the one of the thing asked
about: "14 known moons"), widened by the qualifier that changes its meaning ("within 24 hours",
"up to Tk 25,000", "২৪ ঘণ্টার মধ্যে"), its order of magnitude ("196 million") and the other
values it is ranged or listed with ("from 9 am to 9 pm", "Tk 500, 1,000, 2,000 or 5,000"),
unless the question asks for one end of a range of two ("the maximum recharge": "Tk 1,000"); a
value the sentence denies ("…, not Shapla Pay") is none, and a contact comes with the one the
sentence offers beside it ("call 16789 or e-mail fraud@…"). A
question about a limit is answered by a number, never by "free", and never from a sentence that
states only a price (`asking.only_price`). A definition
question ("What is a conurbation?") gets the phrase after the copula; a where-question the
place the sentence sends its reader to ("in your transaction history", `places.places_for`), else
a name. A question about how much one can do gets no minimum (`asking.asks_upper`). Any other question
gets none: the sentence is the answer (picking a clause by the question's words measured
no better on dev). An encyclopaedic factoid question is read first for what an abbreviation
stands for, a measure when it asks about size or length, and the name its sentence opens with
for a who- or which-question (`question.factoid`).

Offsets are into the sentence text; the caller maps them into the chunk.

>>> text = "Refunds reach your wallet within 7 working days."
>>> [text[s:e] for s, e in short_spans("duration", frozenset(), {"refund"}, text, [("refund", 0, 7)])]
['within 7 working days']
"""

from __future__ import annotations

import re

from raglab.answer.sentences import spans_of
from raglab.question.asking import asks_limit, asks_upper, limit_for_price, other_day, other_end, periods_of, price_for_limit
from raglab.question.factoid import abbreviation, asks_size, demonym, expansion_of, extra_spans, how_phrase, life_event, measures, of_life, opening_name, sentence_end, share_base, superlative_name, which_one_in
from raglab.question.places import listed, places_for
from raglab.question.qualifiers import after_total, value_periods
from raglab.question.qualifiers import before as qualified_before
from raglab.question.ranges import joined, named_end_first, one_end, range_end, time_end
from raglab.text.answertypes import Span, accepts, cue_text, other_channel
from raglab.text.numbers import number_values, numbers
from raglab.text.splitter import sentences

# Words that belong to the value: "within 24 hours" is not "24 hours". Explicit ASCII
# classes (never \b or \w): the Unicode database differs between Pythons.
_BEFORE = re.compile(r"(?:^|(?<=[^A-Za-z]))(?:within|up to|at most|at least|after|only|about|over|under|"
                     r"more than|less than|minimum of|maximum of|until|by|early|late|mid|as many as|as much as|"
                     r"as high as|as low as) $", re.IGNORECASE)
_VALUES = ("amount", "percent", "count", "duration", "time", "age", "number")  # what `_widen` widens
_AFTER = re.compile("^(?:(?:এর|ের|র)? ?(?:মধ্যে(?:ই)?|ভেতরে|ভিতরে)| ?পর্যন্ত|(?:এর|ের|র)? ?পরে?(?![\u0980-\u09ff]))")
# A Bangla case ending after a value's last word belongs to the word ("৫ দিনের", "২ বছরে").
_CASE_ENDING = re.compile("(?:ের|এর|র|তে|ে|এ|য়)(?![\u0980-\u09ff])")
COUNTED_WORDS = 3  # "196 million people": the counted word within this many words after the number
# A number's order of magnitude belongs to it ("196 million", "২ লাখ").
_MAGNITUDE = re.compile(r"^ (?:million|billion|trillion|thousand|hundred|lakh|crore|লাখ|কোটি|হাজার)(?![A-Za-z\u0980-\u09ff])",
                        re.IGNORECASE)
# A value after "per" is the unit of a rate, not the answer ("Tk 18.50 per Tk 1,000").
_PER = re.compile("(?:per|every|each|out of|প্রতি|প্রতিটি) $", re.IGNORECASE)
# A caller abroad ("I'm in Dubai", "বিদেশ থেকে কল") dials the number written with its country
# code ("+880 9612 016789"), not the local hotline the sentence before names (an e-mail address
# or a USSD code is no local number).
_ABROAD = re.compile(" (?:abroad|overseas|outside (?:of )?bangladesh|(?:saudi|dubai|uae|emirates|malaysia|qatar|oman|kuwait"
                     "|bahrain|singapore|italy|london|america|usa|bidesh)[a-z]*) |বিদেশ|বাংলাদেশের বাইরে|সৌদি|দুবাই|আমিরাত"
                     "|মাল(?:য়|য়)েশিয়া|কাতার|ওমান|কু(?:য়|য়)েত|বাহরাইন|সিঙ্গাপুর|ইতালি|লন্ডন|আমেরিকা")
# A value after "not" is the one the sentence denies, not the answer.
_DENIED = re.compile(r"(?:^|(?<=[^A-Za-z]))(?:not|rather than|instead of|other than) $", re.IGNORECASE)
# Contacts offered as alternatives ("call 16789 or e-mail fraud@…", "১৬৭৮৯ নম্বরে কল করে অথবা …"): one answer.
# A question for a way to reach someone ("where do I report …", "কোথায় জানাব"), not for one kind of contact.
_ASKS_WAY = re.compile(" (?:where|how|kothay|kivabe|kibhabe) |কোথায়|কীভাবে|কিভাবে")
_OR = re.compile("(?:^|(?<=[^A-Za-z\u0980-\u09ff]))(?:or|অথবা|বা)(?=[^A-Za-z\u0980-\u09ff])", re.IGNORECASE)


# The period or unit a value is counted in: "Tk 30,000 a day", "7% a year", "Tk 18.50 per Tk
# 1,000", "Tk 50 per cash-out"; in Bangla it comes first (`question.qualifiers`): "দিনে ৩০,০০০ টাকা".
_RATE_AFTER = re.compile(r"^(?: (?:a|an) (?:day|month|year|week|transaction)| (?:per|each|every) "
                         r"(?:Tk\.? ?[0-9\u09e6-\u09ef](?:[,.]?[0-9\u09e6-\u09ef])*|(?:square |sq )?[A-Za-z][A-Za-z-]*)| in total(?= |[.,;]|$))",
                         re.IGNORECASE)


def _widen(text: str, start: int, end: int, kind: str = "number") -> tuple[int, int]:
    """The value with the words that belong to it: its qualifier ("within 24 hours", "up to
    Tk 25,000", "২৪ ঘণ্টার মধ্যে") and the period or unit it is counted in ("a day", "per Tk 1,000").
    Only a number, an amount or a time is widened: a name is no value ("founded by Tomas Lind",
    "the late Queen Ingrid": "Tomas Lind", "Queen Ingrid")."""
    if kind not in _VALUES:
        return start, end
    m = _BEFORE.search(text[max(0, start - 16):start])
    if m:
        start -= len(text[max(0, start - 16):start]) - m.start()
    start = qualified_before(text, start, kind)  # "সর্বোচ্চ", "দিনে", "usually" (`question.qualifiers`)
    m = _MAGNITUDE.match(text[end:end + 12])
    if m:
        end += m.end()
    m = _CASE_ENDING.match(text[end:end + 8]) if kind != "amount" and "\u0980" <= text[end - 1:end] <= "\u09ff" else None
    if m:  # the whole word: "২৪ ঘণ্টার", "৫ সংখ্যার", "১০ মিনিটের", not "২৪ ঘণ্টা" of it
        end += m.end()
    m = _AFTER.match(text[end:end + 10])
    if m:
        end += m.end()
    m = _RATE_AFTER.match(text[end:end + 24])
    if m:
        end = after_total(text, end + m.end())
    return start, end


def typed_spans_ranked(qtype: str, question_numbers: frozenset, question_terms: set, text: str, spans,
                       order, limit: bool = False, question: str = "") -> list[tuple[int, int]]:
    """The spans of an accepted type, best first: not the unit of a rate ("per Tk 1,000"), then
    for a count, one followed by the counted question word, then not "one", then the nearest to a
    question term in the sentence, then of the question's own type, then the first; for a
    question about a `limit`, a value without a number ("free") comes last. Footnote marks
    ("[16]") are no answer. `order` is the text's (term, start, end) tokens."""
    wanted = accepts(qtype)
    stated = question_numbers | frozenset(number_values(question))
    anchors = [(s, e) for term, s, e in order if term in question_terms]
    agent = qtype in ("person", "entity") and bool(_AGENT.search(question))
    abroad = qtype == "contact" and bool(_ABROAD.search(cue_text(question)))
    life = life_event(question) if qtype == "time" else None
    lived = [i for i, sp in enumerate(spans) if life and sp.type == "time" and of_life(text, spans, i) == life]
    asked = periods_of(question)  # a value counted in another period than the asked one comes after the others
    keyed = []
    ends = _sentence_ends(text)
    anchored = [(a, b, _sentence_of(ends, a)) for a, b in anchors]  # each question word with its sentence
    for i, (stype, s, e) in enumerate(spans):
        if stype not in wanted:
            continue
        nums = numbers(text[s:e])
        said = number_values(text[s:e])  # in words too: "তিনবার" is the question's "৩ বার"
        if nums and all(n in question_numbers for n in nums) or said and all(v in stated for v in said):
            continue  # the question's own number
        own = [t for t, a, b in order if s <= a and b <= e]
        if own and all(t in question_terms for t in own):
            continue  # the question's own words ("Shapla Pay" asked about)
        if stype != "name" and _NAME_HYPHEN.search(text[max(0, s - 2):s]):
            continue  # a number joined to a name by a hyphen is part of the name ("COVID-19", "SARS-CoV-2")
        if text[s - 1:s] == "[" and text[e:e + 1] == "]" or text[s:e] in _ERAS:
            continue  # a footnote mark ("[16]"), an era ("BCE")
        if s > 0 and e < len(text) and text[s - 1] in _QUOTE_MARKS and text[e] in _QUOTE_MARKS and stype in ("time", "number"):
            continue  # a title in quotation marks ("the previous episode, "2009""), no value
        if qtype == "place" and stype == "name" and _POSSESSIVE.search(text[s:e]):
            continue  # "in Earth's crust": the owner of a place, not the place
        if stype == "contact" and other_channel(question, text[s:e]):
            continue  # an e-mail address for "which number do I call?", or the reverse
        if abroad and stype == "contact" and text[s:e][:1].isdigit():
            continue  # the local number for a caller abroad: the other quote's, with its country code
        if _DENIED.search(text[max(0, s - 16):s]):
            continue  # the value the sentence denies ("The institution issues the receipt …, not Shapla Pay.")
        # Nearest a question word of its own sentence: a unit may run over a footnoted full stop
        # ("… metabolism.[27] Krebs was …"), and a word of the next sentence is no nearer for it.
        # A span in a sentence without any question word comes after every span in one that has one.
        distance = min((abs(a - s) if a >= e else abs(s - b) for a, b in anchors), default=0)
        here = _sentence_of(ends, s)
        same = [(a, b) for a, b, at in anchored if at == here]
        distance = min((abs(a - s) if a >= e else abs(s - b) for a, b in same), default=_OTHER_SENTENCE + distance)
        # "How many moons …": the count of the thing asked about ("14 known moons", "196 million people").
        stop = sentence_end(text, e)
        after = [t for t, a, _ in order if e <= a < stop][:COUNTED_WORDS]
        counted = 0 if qtype != "count" or own and any(t in question_terms for t in own) or \
            any(t in question_terms for t in after) else 1
        # "one" is mostly no count at all ("one of the largest", "a one-off"); "once" and "twice"
        # count times, not people ("Once a fishing village, …", "nearly twice the size"); a people
        # named as an adjective is no name ("an American film producer", `factoid.demonym`).
        word = text[s:e].lower()
        weak = 1 if word == "one" or word in ("once", "twice") and not _TIMES & question_terms \
            or stype == "name" and demonym(text, s, e) or qtype == "person" and _INITIALISM.fullmatch(text[s:e]) else 0
        per = 1 if _PER.search(text[max(0, s - 12):s]) else 0
        per += 2 if limit and stype == "amount" and not nums else 0  # a limit is a number, not "free" (`asking.asks_limit`)
        # A place is what follows "in", "at", "near", "from" ("born in Birkdale").
        off = 0 if qtype != "place" or _PLACE_BEFORE.search(text[max(0, s - 10):s]) else 1
        # "Who founded …": the agent, named after "by" ("was founded by Jess McMahon"); a place or a
        # people's adjective is no founder ("a small publisher in Leeds", "an American promotion"), and a
        # place is no one for any who-question ("Who identified melioidosis?": not "in Kuala Lumpur").
        if (agent or qtype == "person") and (_IN_PLACE.search(text[max(0, s - 40):s]) or stype == "name" and demonym(text, s, e)):
            continue
        off += 1 if (agent or qtype == "person" and _WHO.match(question)) and not _BY_BEFORE.search(text[max(0, s - 40):s]) else 0
        # "When was … born?", "When did … die?": the date the sentence gives for it ("born 6 May 1856",
        # the first or the second date of a lifespan, "(26 September 1889 – 26 May 1976)").
        off += 1 if lived and i not in lived else 0
        off += 1 if asked and (got := value_periods(text, spans, i)) and not got & asked else 0
        keyed.append(((per, off, counted, weak, distance, wanted.index(stype), s), s, e))
    keyed.sort()
    return [(s, e) for _, s, e in keyed]


# "What is a conurbation?", "What's malware?": a question that asks for a definition.
DEFINITION = re.compile(r"^\s*what(?: exactly| really| actually)?(?:'s|\u2019s| is| are| was| were) (?:an? )?[^ ?]+(?: [^ ?]+){0,3}\s*\?*\s*$", re.IGNORECASE)
# "… major manufacturing exports include chemicals, …" answers "What is Tennessee's main export?" as a copula would.
_COPULA = re.compile(r" (?:is|are|was|were|refers to|means|include|includes) ")
_CLAUSE_END = re.compile(r"(?:[;:]| \(|, (?:which|who|and|but|while|although|an?|the) | (?:that|which|who|whose|where|located|"
                         r"based|known|used) )")
_HARD_END = re.compile(r"(?:[;:]| \(|, )")
_BARE_HEAD = 3  # "a new coronavirus", "a military strategy": words of a head that names only the class
# "What political party did Hitler belong to?", "Which country is …": the answer is a name.
WHICH_NOUN = re.compile(r"^\s*(?:what|which) (?:[A-Za-z-]+ ){1,3}(?:did|does|do|is|was|are|were|has|have|had) ",
                        re.IGNORECASE)
_PLACE_BEFORE = re.compile(r"(?:^|[^A-Za-z])(?:in|at|near|from|of)(?: the)? $")


def definition_span(question_terms: set, text: str, order) -> tuple[int, int] | None:
    """What follows the copula after the defined term: "A conurbation is [a region ...]"."""
    anchors = [b for term, a, b in order if term in question_terms]
    if not anchors:
        return None
    m = _COPULA.search(text, anchors[0])
    if m is None or m.start() - anchors[0] > 80:
        return None
    start = m.end()
    end = len(text)
    first_words = re.match(r"\S+ \S+", text[start:])  # a definition keeps at least two words
    stop = _CLAUSE_END.search(text, start + (first_words.end() if first_words else 0))
    if stop and stop.group() == " that " and len(text[start:stop.start()].split()) <= _BARE_HEAD:
        # "a military strategy that aims to …": a bare head names only the class; the restrictive
        # clause is the definition, to the next comma, bracket or colon.
        stop = _HARD_END.search(text, stop.end())
    if stop:
        end = stop.start()
    end = end - 1 if text[end - 1:end] in ".।" else end
    return (start, end) if end > start else None


def short_spans(qtype: str, question_numbers: frozenset, question_terms: set, text: str, order,
                question: str = "", n: int = 1) -> list[tuple[int, int]]:
    """Up to `n` (start, end) short answers in `text` (`_chosen`), each with its English span's whole
    (`_finished`)."""
    return [_finished(question, qtype, text, s, e) for s, e in _chosen(qtype, question_numbers, question_terms, text, order,
                                                                       question, n)]


# A name's initial or abbreviation before a full stop that ends no sentence: "Charles F. Brush", "W. D. Hamilton",
# "Richard St. John Harris", "Symphony No. 3".
_INITIAL_END = re.compile(r"(?:^| )(?:[A-Z]|St|No|Mt|Dr|Jr|Sr)$")
_AFTER_INITIAL = re.compile(r"\.(?: [A-Z]\.)* (?:[A-Z][A-Za-z\u00c0-\u024f'-]*|[0-9]+)(?: [A-Z][A-Za-z\u00c0-\u024f'-]*)*")
# "When did Voltaire live?", "What years did Carl Jung live?": the whole lifespan.
_ASKS_LIFE = re.compile(r"^\s*(?:when|(?:in )?what years) did .* live\s*\?*\s*$", re.IGNORECASE)
_LIFE_DASH = re.compile("^ ?[-\u2013\u2014] ?$")
# A name goes on over the particles of other languages: "Artamène ou le Grand Cyrus", "Banca Monte dei Paschi di Siena".
_PARTICLE_NAME = re.compile("(?: (?:ou|et|de|du|des|la|le|les|von|van|der|den|di|da|dei|del|della|y|e)(?= ))+"
                            " [A-Z\u00c0-\u00de][A-Za-z\u00c0-\u024f'-]*(?: [A-Z\u00c0-\u00de][A-Za-z\u00c0-\u024f'-]*)*"
                            "(?:(?: (?:de|du|des|la|le|di|da|dei|del|della|von|van|der))+ [A-Z\u00c0-\u00de][A-Za-z\u00c0-\u024f'-]*)*")
# The kind of place a name is, before it: "the island of Taiwan", "the town of Schweidnitz".
# A settlement is named so after any article ("a fictitious town of Ohio"), a part of a land after "the" only ("a
# semi-autonomous region of Tanzania" is in Tanzania).
_CLASS_OF = re.compile("(?<![A-Za-z])(?:(?:[Tt]he|[Aa]n?) (?:[A-Za-z-]+ ){0,3}((?:island|town|village|city) of )|"
                       "[Tt]he (?:[A-Za-z-]+ ){0,3}((?:province|state|county|region|district) of ))$")
# The place a named building or venue is in: "Sala Polivalentă in Cluj-Napoca, Romania".
_IN_NAME = re.compile("(?: in| at) [A-Z\u00c0-\u00de][A-Za-z\u00c0-\u024f'-]*(?: [A-Z\u00c0-\u00de][A-Za-z\u00c0-\u024f'-]*)*")
# A person's name runs to the body they belong to: "Justice Johnson Lam of the Court of First Instance".
_OF_BODY = re.compile(" of (?:the )?[A-Z]")
# … but a ruler is named with the realm ("Emperor Xian of Han", "King Ferdinand IV of Naples").
_RULER = re.compile("(?:Emperor|Empress|King|Queen|Prince|Princess|Duke|Duchess|Earl|Count|Countess|Tsar|Czar|Sultan|Pope|"
                    "Saint|St|Lord|Lady|Archduke|Grand Duke|Caliph|Shah|Khan) ")
# The first value of a range written with a dash: "10–12 May 1968", "90–95 million", "32–37%".
_DASHED_FROM = re.compile(r"(?<![0-9A-Za-z,.\u2013-])[0-9]+(?:[,.][0-9]+)?[\u2013-]$")
# The tens of a number word: "Twenty-nine", "one hundred and fifty".
_TENS_BEFORE = re.compile(r"(?<![A-Za-z])(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-$", re.IGNORECASE)
_UNITS_BEFORE = re.compile(r"(?<![A-Za-z])(?:one|two|three|four|five|six|seven|eight|nine)[ -]$", re.IGNORECASE)
_HUNDREDS = re.compile("(?:hundred|thousand)(?![A-Za-z])", re.IGNORECASE)


def _finished(question: str, qtype: str, text: str, s: int, e: int) -> tuple[int, int]:
    """The span with what belongs to it in English, chosen after the confidence (presentation only): a
    name's initials, a dashed range's first value, a number word's tens, a place's kind ("the island of")
    and the place a named venue is in, the other date of a lifespan asked for; a person's name without the
    body they belong to; of a range of times, the end a when-question about a beginning or an end asks for."""
    if _INITIAL_END.search(text[s:e]) and (m := _AFTER_INITIAL.match(text, e)) \
            and any(a <= s and e + 1 < b for a, b in sentences(text)):
        e = m.end()
    if text[s:s + 1].isdigit() and (m := _DASHED_FROM.search(text[max(0, s - 12):s])) \
            and (qtype != "time" or len(m.group()) <= 3):  # a day ("10–12 May"), not a year of a lifespan
        s -= len(m.group())
    if (m := _TENS_BEFORE.search(text[max(0, s - 9):s]) or (
            _UNITS_BEFORE.search(text[max(0, s - 7):s]) if _HUNDREDS.match(text, s) else None)):
        s -= len(m.group())
    if text[s:s + 1].isupper() and text[e - 1:e].isalpha() and (m := _PARTICLE_NAME.match(text, e)):
        e = m.end()
    if qtype == "place" and text[s:s + 1].isupper() and (m := _CLASS_OF.search(text[max(0, s - 60):s])):
        s -= len(m.group(1) or m.group(2))
    if qtype == "place" and text[s:s + 1].isupper() and (m := _IN_NAME.match(text, e)):
        e = m.end()
        e = r.end() if (r := _REGION.match(text, e)) else e
    if qtype == "person" and (m := _OF_BODY.search(text, s, e)) and len(text[s:m.start()].split()) >= 2 \
            and not _RULER.match(text, s):
        e = m.start()
    if qtype == "time" and _ASKS_LIFE.match(question):
        times = [sp for sp in spans_of(text) if sp.type == "time"]
        for a, b in zip(times, times[1:]):
            if _LIFE_DASH.match(text[a.end:b.start]) and (a.start <= s < a.end or b.start < e <= b.end):
                s, e = a.start, b.end
    if qtype == "time":
        s, e = time_end(question, text, s, e)
    return s, e


def _chosen(qtype: str, question_numbers: frozenset, question_terms: set, text: str, order,
            question: str = "", n: int = 1) -> list[tuple[int, int]]:
    """Up to `n` (start, end) short answers in `text`, best first, never overlapping (a
    two-value question, "What are the minimum and maximum?", gets two from one sentence).
    `order` is the text's (term, start, end) tokens. What an abbreviation stands for, a measure
    for a question about size or length, and the name a sentence opens with for a who- or
    which-question come first (`factoid.py`)."""
    short = abbreviation(question)
    got = expansion_of(short, text) if short else None
    if got:
        return [got]  # no expansion in the sentence: the other readers
    if qtype in _SIZED and asks_size(question):
        sized = _measured(question_numbers, question_terms, text, order, qtype)
        if sized:
            return sized[:n]
    out = _short_spans(qtype, question_numbers, question_terms, text, order, question, n)
    if qtype == "place":  # a place with the region it lies in ("Birkdale, Southport", "Pawtucket, Rhode Island")
        out = [(s, m.end()) if (m := _REGION.match(text, e)) and _NAME_START.match(text, s) else (s, e) for s, e in out]
    if qtype in ("person", "entity") or qtype == "other" and (WHICH_NOUN.match(question) or which_one_in(question, text)):
        # The name right after the question's superlative ("the most famous of all, Notre-Dame de Paris"), else the opening one.
        first = superlative_name(question, text, [sp for sp in spans_of(text) if sp.type == "name"]) or opening_name(text, question_terms, order)
        if first is not None:
            return ([first] + [(s, e) for s, e in out if e <= first[0] or s >= first[1]])[:n]
    return out


_AGENT = re.compile(r"^\s*who (?:\S+ ){0,2}?(?:founded|created|made|invented|developed|published|painted|wrote|"
                    r"designed|built|composed|discovered|directed|produced|established|started)(?![A-Za-z])", re.IGNORECASE)
# A place: a name after "in", "at", "near", or after a place and a comma ("in Pawtucket, Rhode Island").
_IN_PLACE = re.compile("(?:^|[^A-Za-z])(?:in|at|near) (?:[A-Z][A-Za-z.'-]*(?: [A-Z][A-Za-z.'-]*)*, )?$")
_WHO = re.compile(r"^\s*who (?!(?:is|was|are|were|s|be|been|do|does|did|will|would|can|could|should|may|might|must)(?![A-Za-z]))[A-Za-z]", re.I)
_BY_BEFORE = re.compile(r"(?:^|[^A-Za-z])by (?:[A-Za-z-]+ ){0,3}$")
_POSSESSIVE = re.compile("['\u2019]s?$")
_ERAS = frozenset(["BC", "BCE", "AD", "CE"])
_NAME_HYPHEN = re.compile("[A-Z]-$")  # "COVID-19", "SARS-CoV-2", "B-52"; not "mid-1990s", "Twenty-nine"
_INITIALISM = re.compile("[A-Z]{2,6}s?")  # "FDHs", "NFL": a body or a thing, not who
_AGO = re.compile(" ago(?![A-Za-z])")
_QUOTE_MARKS = "\"\u201c\u201d\u2018\u2019'"
# The regions after a place, each after a comma: "Birkdale, Southport", "Albany, New York", "Washington, D.C."
# (a full stop only inside an abbreviation, not the sentence's: "Dublin, Ireland.").
_NAME_START = re.compile("[A-Z\u00c0-\u00de]")  # a name, not a phrase ("in your transaction history")
_REGION = re.compile(r"(?:, (?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)(?![A-Za-z]))[A-Z\u00c0-\u00de](?:[A-Za-z\u00c0-\u024f'-]|\.(?=[A-Z]))*(?: [A-Z\u00c0-\u00de](?:[A-Za-z\u00c0-\u024f'-]|\.(?=[A-Z]))*)*(?:(?<=[A-Z])\.)?)+(?![A-Za-z\u00c0-\u024f'-])(?! (?:or|and) )")
_SINCE = re.compile("(?:^|[^A-Za-z])(?:founded|established|built|born|formed|created|incorporated|opened|settled|"
                    "dates back to|since)(?: in| on)? $", re.IGNORECASE)
_SIZED = ("count", "duration", "amount", "other")
# "How many people …" answered by a share of them ("about 15% of women"), never by a fee or a rate
# ("How many times a year is profit paid?", "How many taka is the charge?").
_HOW_MANY_OF = re.compile(" how many (?!times |taka |tk |টাকা )")
_SHARE = re.compile(" of (?:the |all |its |their )?(?!(?:your|my|our|each|every|any) )(?:[a-z]+ )?"
                    "(?:[a-z]+s|women|men|children|people|population)(?![A-Za-z])")  # "15% of adults", not "1.5% of each payment"
_ASKS_OWN_AGE = re.compile(" (?:i|my|me|you|your|we|our|he|she|they|must|need|should|have to) ")  # a customer's own age, no date
_TIMES = frozenset(["time", "often"])  # "how many times", "how often": "once" and "twice" count


_OTHER_SENTENCE = 10_000  # added to the distance of a span whose sentence holds no question word


def _sentence_ends(text: str) -> list[int]:
    """Where each sentence of `text` ends (`factoid.sentence_end`), in order."""
    out, at = [], 0
    while at < len(text):
        end = sentence_end(text, at)
        out.append(end)
        at = end + 1
    return out


def _sentence_of(ends: list[int], pos: int) -> int:
    """The index of the sentence `pos` is in."""
    return next((i for i, end in enumerate(ends) if pos < end), len(ends))


def _measured(question_numbers: frozenset, question_terms: set, text: str, order, qtype: str) -> list[tuple[int, int]]:
    """The measures of length or area in `text` the question does not state, nearest to the
    question's words first; for a question typed as a duration ("How long is …"), none when
    the sentence states a duration (then "how long" asks about time)."""
    if qtype == "duration" and any(sp.type == "duration" for sp in spans_of(text)):
        return []
    return _by_nearness([(s, e) for s, e in measures(text)
                         if not (numbers(text[s:e]) and set(numbers(text[s:e])) <= question_numbers)], order, question_terms)


def _by_nearness(spans: list[tuple[int, int]], order, question_terms: set) -> list[tuple[int, int]]:
    """`spans` nearest to a question word in the text first (its `order` tokens), then the earlier."""
    anchors = [(s, e) for term, s, e in order if term in question_terms]
    return sorted(spans, key=lambda se: (min((abs(a - se[1]) if a >= se[1] else abs(se[0] - b) for a, b in anchors),
                                             default=0), se))


def with_extra(spans, text: str, qtype: str) -> list:
    """The typed spans of `text` with `factoid.extra_spans` in place of those they overlap
    ("$3 million" for the bare number 3, "181-179 BC" for 181, 179 and the name "BC"); centuries
    and years of an era only for a question asking when ("a 19th-century breed" says nothing of
    how long a horse lives), a numbered name ("US 50") only for one asking which thing."""
    kinds = ("amount", "number") + (("time",) if qtype == "time" else ("name",) if qtype == "entity" else ())
    extra = [Span(kind, a, b) for kind, a, b in extra_spans(text, kinds)]
    kept = [sp for sp in spans if all(sp.end <= x.start or sp.start >= x.end for x in extra)]
    return sorted(kept + extra, key=lambda sp: sp.start)


def _short_spans(qtype: str, question_numbers: frozenset, question_terms: set, text: str, order,
                 question: str, n: int) -> list[tuple[int, int]]:
    if qtype == "place":  # a place the sentence sends the reader to, nearest the question's words; else a name
        located = _by_nearness([(s, e) for s, e in places_for(question, text) if not _POSSESSIVE.search(text[s:e])
                                and not all(t in question_terms for t, a, b in order if s <= a and b <= e)], order, question_terms)
        if located:
            # "an agent point or a customer care centre"; two places of one list are that list once
            return sorted(dict.fromkeys(listed(text, s, e) for s, e in located[:n]))
    if accepts(qtype):
        out: list[tuple[int, int]] = []
        if price_for_limit(question, text) or limit_for_price(question, text) or other_end(question, asks_upper(question), text,
                                                                 frozenset(number_values(question))):
            return out  # a free allowance, a fee or a minimum is no limit: the sentence alone, no value in bold
        spans = with_extra([sp for sp in spans_of(text) if not other_day(question, sp.type, text[sp.start:sp.end])], text, qtype)
        at = {sp.start: i for i, sp in enumerate(spans)}
        end = range_end(question) if n == 1 else None
        ranked = typed_spans_ranked(qtype, question_numbers, question_terms, text, spans, order, asks_limit(question),
                                    question)
        for s, e in named_end_first(text, ranked, end):
            pick = one_end(text, spans, at[s], end)
            kind = spans[at[s] if pick is None else pick].type
            s, e = _widen(text, spans[pick].start, spans[pick].end, spans[pick].type) if pick is not None else \
                _widen(text, *joined(text, spans, at[s]), spans[at[s]].type)
            e += 4 if qtype == "time" and _AGO.match(text, e) else 0  # when: "10,000 years ago", a time, not a duration
            e = share_base(question, qtype, text, e) if kind == "percent" else e  # "1.85% of the amount"
            if all(e <= a or s >= b for a, b in out):
                out.append((s, e))
            if len(out) == n:
                break
        if qtype == "count" and not out and _HOW_MANY_OF.search(cue_text(question)):  # "How many people have PCS?": "about 15%"
            out = [_widen(text, s, e, "percent") for s, e in typed_spans_ranked("percent", question_numbers, question_terms,
                                                                                 text, spans, order) if _SHARE.match(text, e)][:n]
        if qtype == "age" and not out and not _ASKS_OWN_AGE.search(cue_text(question)):  # "How old is the town?": "founded in 1275"
            out = [(sp.start, sp.end) for sp in spans if sp.type == "time" and _SINCE.search(text[max(0, sp.start - 20):sp.start])][:n]
        if qtype == "contact" and len(out) == 1 and _ASKS_WAY.search(cue_text(question)):  # the other one offered with "or"
            for s, e in ranked:
                if (s >= out[0][1] and _OR.search(text[out[0][1]:s])) or (e <= out[0][0] and _OR.search(text[e:out[0][0]])):
                    return sorted(out + [(s, e)])
        if not out and which_one_in(question, text):  # "What was Max Frisch's first novel?": typed by "max", asks a name
            return typed_spans_ranked("entity", question_numbers, question_terms, text, spans_of(text), order,
                                      question=question)[:n]
        return sorted(out) if n > 1 else out
    if qtype == "other" and which_one_in(question, text):
        return typed_spans_ranked("entity", question_numbers, question_terms, text, spans_of(text), order,
                                  question=question)[:n]
    if qtype == "other" and (got := how_phrase(question, text, [(a, b) for t, a, b in order if t in question_terms])):
        return [got]  # how someone died, what a thing is made of, by what means, what it eats (`factoid.how_phrase`)
    if qtype == "other" and DEFINITION.match(question):
        got = definition_span(question_terms, text, order)
        return [got] if got else []
    if qtype == "other" and WHICH_NOUN.match(question):
        return typed_spans_ranked("entity", question_numbers, question_terms, text, spans_of(text), order,
                                  question=question)[:n]
    return []
