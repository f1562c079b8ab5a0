"""Answer types: what kind of value a question asks for, and where a text holds such values.

Two table-driven functions over `data/answer_types.json` (cue words and span patterns in
English, Bangla and Banglish, reviewed as data, not code):

- `question_type(text)` is one of `TYPES`: amount, percent, count, duration, time, age,
  contact, yesno, procedure, place, person, entity, other. The first cue in table order decides, so the
  table's order is its priority (an age or a phone number before the generic "how much").
  A choice question ("Does the money go to the main balance, or some bonus balance?", "সচল
  থাকবে, নাকি ডরম্যান্ট হয়ে যাবে?") asks which of the options it names holds, answered by the
  sentence that states it, not by yes or no: it is "other", whatever yes/no opening it has (its
  cues come first). A trailing নাকি without a comma is a yes/no tag ("… বাছাই করা যায় নাকি?"),
  and নাকি after a noun is "reportedly" ("প্রতারকেরা নাকি …"): neither is a choice.
- `typed_spans(text)` lists the (type, start, end) spans in `text` that can answer a typed
  question: Tk/৳/টাকা amounts in both digit scripts with any grouping, percentages,
  durations ("24 hours", "৭ কার্যদিবস", "T+1"), counts ("5 cash-outs"), ages, clock times,
  phone numbers, USSD codes and e-mail addresses, dates and years; then, with the lowest
  priority, bare numbers ("number") and English names ("name"). Spans never overlap;
  offsets index `text`. `SPAN_TYPES` lists every span type.

`accepts(qtype)` names the span types that answer a question type (a fee may be a
percentage; "when" may be answered by a deadline).

>>> question_type("How much does it cost to cash out Tk 1,000?")
'amount'
>>> question_type("ক্যাশ আউট করতে কতদিন লাগে?")
'duration'
>>> typed_spans("Fee 1.85% (Tk 18.50 per Tk 1,000), within 24 hours.")
[Span(type='percent', start=4, end=9), Span(type='amount', start=11, end=19), Span(type='amount', start=24, end=32), Span(type='duration', start=42, end=50)]

Determinism: the patterns use explicit character classes (`[0-9০-৯]`, `[A-Za-z]`), never
`\\w`, `\\b` or `\\d`, whose meaning depends on the Unicode database of the running Python.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from typing import NamedTuple

from raglab.text.analyzer import ESC, WHITESPACE, analyze, escape_end
from raglab.text.splitter import CLOSERS, sentences
from raglab.text.tables import read_table

TYPES = ("amount", "percent", "count", "duration", "time", "age", "contact", "yesno", "procedure", "place", "person",
         "entity", "other")
# Spans that only ever answer through `accepts`: a bare number, an English name.
SPAN_TYPES = TYPES[:7] + ("number", "name")
# Bangla digits, ASCII digits with grouping commas and a decimal point: 1,50,000  ১.৮৫  25,000
_NUMBER = "[0-9০-৯]+(?:[,.][0-9০-৯]+)*"
_BANGLA_WORD = "\u0980-\u09ff"
# য় ড় ঢ় exist precomposed and as letter + nukta (NFC keeps the latter): match both.
_NUKTA_FORMS = (("\u09af\u09bc", "\u09df"), ("\u09a1\u09bc", "\u09dc"), ("\u09a2\u09bc", "\u09dd"))
# য় in either form, for the cue patterns that spell it inside a word
YA = "(?:\u09df|\u09af\u09bc)"
_INVISIBLE = "\u200b\u200c\u200d\u00ad\u2060\ufeff"
_BANGLA_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")


class Span(NamedTuple):
    type: str
    start: int
    end: int


class _Table(NamedTuple):
    cues: tuple  # (type, lang, compiled pattern), in priority order
    spans: tuple  # (type, compiled pattern), in priority order
    accepts: dict


def both_nukta_forms(pattern: str) -> str:
    """`pattern` matching য় ড় ঢ় both as letter + nukta (what NFC keeps) and precomposed."""
    pattern = unicodedata.normalize("NFC", pattern)
    for decomposed, precomposed in _NUKTA_FORMS:
        pattern = pattern.replace(decomposed, f"(?:{decomposed}|{precomposed})")
        # A precomposed letter left in the file (NFC decomposes them, but be safe) too.
    return pattern


def _expand(pattern: str, number_words: dict) -> str:
    en = "|".join(sorted(number_words["en"], key=lambda w: (-len(w), w)))
    bn = "|".join(sorted(number_words["bn"], key=lambda w: (-len(w), w)))
    words = f"(?:(?<![A-Za-z])(?:{en})(?![A-Za-z])|(?<![{_BANGLA_WORD}])(?:{bn}))"
    return (pattern.replace("{NUM}", f"(?:{_NUMBER}|{words})")
            .replace("{NW}", words).replace("{N}", _NUMBER))


def parse_table(data: dict) -> _Table:
    """Compile the answer-type table; a bad row raises ValueError naming it."""
    types = tuple(data["types"])
    if types != TYPES:
        raise ValueError(f"answer_types.json: 'types' must list {', '.join(TYPES)} in that order")
    cues = []
    for i, row in enumerate(data["question_cues"]):
        if row.get("type") not in TYPES or row.get("lang") not in ("en", "bn", "banglish"):
            raise ValueError(f"answer_types.json: question_cues[{i}] has a bad type or lang: {row}")
        try:
            cues.append((row["type"], row["lang"], re.compile(both_nukta_forms(_expand(row["cue"], data["number_words"])))))
        except re.error as err:
            raise ValueError(f"answer_types.json: question_cues[{i}] is not a valid pattern ({err})") from None
    spans = []
    for i, row in enumerate(data["span_patterns"]):
        if row.get("type") not in SPAN_TYPES:
            raise ValueError(f"answer_types.json: span_patterns[{i}] has a bad type: {row}")
        try:
            pattern = both_nukta_forms(_expand(row["pattern"], data["number_words"]))
            flags = 0 if row.get("case") == "sensitive" else re.IGNORECASE
            spans.append((row["type"], re.compile(pattern, flags)))
        except re.error as err:
            raise ValueError(f"answer_types.json: span_patterns[{i}] is not a valid pattern ({err})") from None
    accepts = {t: tuple(data["accepts"][t]) for t in TYPES}
    return _Table(tuple(cues), tuple(spans), accepts)


@functools.lru_cache(maxsize=1)
def table() -> _Table:
    text = read_table("answer_types.json")
    return parse_table(json.loads(text))


def _word_char(ch: str) -> bool:
    cp = ord(ch)
    return ("a" <= ch <= "z" or "A" <= ch <= "Z" or "0" <= ch <= "9"
            or 0x0981 <= cp <= 0x09EF or 0x09F0 <= cp <= 0x09F1)


# Cached: the answerer and the evaluation read the same question and unit texts again for every
# candidate and every configuration; the result depends on the text alone.
@functools.lru_cache(maxsize=50_000)
def cue_text(question: str) -> str:
    """The question as the cue patterns see it: lower-case words separated by one space,
    Bangla digits folded, any run of punctuation written ", ", a space at both ends.

    >>> cue_text("How much?  It's Tk ১,০০০!")
    ' how much , it s tk 1,000 , '
    """
    text = "".join(ch for ch in unicodedata.normalize("NFC", question) if ch not in _INVISIBLE)
    text = text.translate(_BANGLA_DIGITS)
    out = [" "]
    last = " "
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        if ch == ESC:
            # A terminal escape sequence and the analyzer's whitespace (a pasted "\x1f") separate
            # words as the analyzer reads them; as punctuation they would cut a cue ("what , is").
            i = escape_end(text, i - 1)
            ch = " "
        if _word_char(ch) or (ch in ",." and "0" <= last <= "9" and "0" <= text[i: i + 1] <= "9"):
            out.append(ch.lower())
            last = ch
        elif ch in WHITESPACE or ch in "'\u2019":
            if last != " " and last != ",":
                out.append(" ")
                last = " "
        else:
            if last == ",":
                continue
            if last != " ":
                out.append(" ")
            out.append(", ")
            last = ","
    text = "".join(out)
    if not text.endswith(" "):
        text += " "
    return text


def _cue_hits(question: str) -> list[tuple[int, int, str]]:
    """(position, table order, type) of every cue that matches the question."""
    return [(start, order, qtype) for start, order, qtype, _ in _cue_matches(question)]


def _cue_matches(question: str) -> list[tuple[int, int, str, tuple[int, int]]]:
    """`_cue_hits` with the words each cue matched: (start, end) without the spaces and commas
    around them."""
    text = cue_text(question)
    hits = []
    for order, (qtype, _, pattern) in enumerate(table().cues):
        m = pattern.search(text)
        if m:
            word = m.group(0)
            start = m.start() + len(word) - len(word.lstrip(" ,"))
            hits.append((m.start(), order, qtype, (start, max(start, m.start() + len(word.rstrip(" ,"))))))
    return hits


# Cached: the answerer reads the same question's type again for every configuration and every
# candidate answer (`facts.asks_two`, `short.py`); it depends on the text alone.
@functools.lru_cache(maxsize=50_000)
def question_type(text: str) -> str:
    """The answer type a question asks for; "other" when no cue matches.

    >>> question_type("কয়বার ক্যাশ ইন করা যায়?"), question_type("kivabe pin reset korbo")
    ('count', 'procedure')
    """
    hits = [h for part in asking_sentences(text) for h in _cue_hits(part)] or _cue_hits(text)
    if not hits:
        return "other"
    return min(hits, key=lambda h: h[1])[2]


def asks_something(text: str) -> bool:
    """Whether a sentence holds a cue of what is asked ("what do i do", "is that normal"): in a
    message without a "?", the sentence that asks.

    >>> asks_something("my phone got stolen on the bus."), asks_something("what do i do")
    (False, True)
    """
    return bool(_cue_hits(text))


def asks_choice(text: str) -> bool:
    """Whether a question (or a clause of one) offers a choice ("…, or only in shops?", "…, নাকি
    …?"): a cue of type "other" matches, and every such cue is a choice's (`answer_types.json`).

    >>> asks_choice("Does the money go to the main balance or some bonus balance?")
    True
    """
    return any(qtype == "other" for _, _, qtype in _cue_hits(text))


def asking_sentences(text: str) -> list[str]:
    """The sentences that ask, in order, when a question has more than one sentence: a
    customer often tells the story first ("I send my mum 10k every month. Am I earning
    points?"), and a cue anchored at the start, or one that any other sentence's "কী" rules
    out, must be read in the sentence that asks. [] for a single sentence.

    >>> asking_sentences("I send my mum 10k every month. Am I earning points?")
    ['Am I earning points?']
    """
    spans = sentences(text)
    if len(spans) < 2:
        return []
    return [text[s:e] for s, e in spans if _asks(text[s:e])]


def _asks(sentence: str) -> bool:
    return sentence.rstrip(CLOSERS).endswith(("?", "\uff1f"))


def told(text: str) -> bool:
    """Whether a question is told as a story: some of its sentences ask and some tell.

    >>> told("I send my mum 10k every month. Am I earning points?"), told("Is there a scheme? What does it pay?")
    (True, False)
    """
    spans = sentences(text)
    return 0 < sum(_asks(text[s:e]) for s, e in spans) < len(spans)


# A sentence that only asks whether what was told is so ("Is it true?", "is this legit?", "Is that
# right?", "সত্যি?", "এটা কি আসল?", "sotti naki?"): the word that verifies, in both languages and
# Banglish with its forms, and the words that point back at the story or close the ask (এটা, এ কথা,
# তাই; Banglish eta, ki, naki, which the analyzer keeps; "or not", "না মিথ্যা"). Words that name a
# topic of the help centre ("scam", "fraud", প্রতারণা) are no part of it.
_VERIFIES = frozenset(analyze(
    "true truly real really legit legitimate genuine genuinely authentic right correct valid fake false "
    "সত্যি সত্যিই সত্য আসল আসলে আসলেই আসলি ঠিক সঠিক বৈধ ভুয়া ভূয়া ভুয়া নকল মিথ্যা "
    "sotti shotti sotyi shotyi sotto shotto asol ashol asle ashle asolei thik sothik shothik vua bhua vuya bhuya mittha mitha"))
_VERIFY = _VERIFIES | frozenset(analyze("not this that এ কথা তাই eta ata eita ki naki na kotha tai"))


def verifies_only(sentence: str) -> bool:
    """Whether a sentence (or clause) asks only whether what was told before it is so: every word
    it keeps is a verifying word or one pointing back ("Is it true?", "is that legit", "এটা কি
    সত্যি?", "sotti naki?"), and one verifies. What it asks about is the story told first.

    >>> verifies_only("Is this real?"), verifies_only("এটা কি আসল?"), verifies_only("Is the fee right?")
    (True, True, False)
    """
    terms = analyze(sentence)
    return bool(terms) and all(t in _VERIFY for t in terms) and any(t in _VERIFIES for t in terms)


def asks_to_verify(text: str) -> bool:
    """Whether a question, after what it tells, only asks whether that is so: its asking
    sentences all `verifies_only` ("got a msg saying my account will be closed. is it real?"),
    or, with none, the last clause of its last sentence does ("guy on phone says dial a code
    he reads out, is that legit"). Such a question asks about the whole story, as "Is it
    true that …?" does: no sentence of it is the asked one (`asked_sentences`).

    >>> asks_to_verify("একজন ফোন করে বলছে আগে ৫০০ টাকা ফি পাঠাতে হবে। এটা কি সত্যি?")
    True
    """
    asking = asking_sentences(text)
    return all(verifies_only(s) for s in asking) if asking else bool(_verifying_clause(text))


def _verifying_clause(text: str) -> str:
    """The last clause of a question's last sentence when it `verifies_only` and follows a comma, else ""."""
    spans = sentences(text)
    last = text[spans[-1][0]:spans[-1][1]] if spans else text
    head, comma, clause = last.rstrip(" ?!।\uff1f").rpartition(",")
    return clause if comma and head.strip() and verifies_only(clause) else ""


def verifying_words(text: str) -> frozenset:
    """The analysed words of a question's parts that only verify (its asking sentences that
    `verifies_only`, or its last clause when no sentence asks) and that the rest of it does not
    use: no answer states them ("Anyone who does is a fraudster" answers "Is it true?"), so, like
    the words that ask, they are nothing to look for.

    >>> sorted(verifying_words("guy on phone says dial a code he will read out, is that legit"))
    ['legit']
    """
    asking = asking_sentences(text)
    parts = [s for s in asking if verifies_only(s)] if asking else [c for c in (_verifying_clause(text),) if c]
    if not parts:
        return frozenset()
    rest = text
    for part in parts:
        rest = rest.replace(part, " ")
    return frozenset(analyze(" ".join(parts))) - frozenset(analyze(rest))


def asked_sentences(text: str) -> list[str]:
    """`asking_sentences` less those that only verify (`verifies_only`): the sentences whose
    words are what is asked. [] when they all verify: the question then asks about all it tells
    and reads as a question of one sentence (its answer type is still read in the asking
    sentence: "Is it true?" asks yes or no).

    >>> asked_sentences("got a msg saying my account will be closed. is it real?")
    []
    """
    return [s for s in asking_sentences(text) if not verifies_only(s)]


def question_types(text: str) -> list[str]:
    """Every answer type the question's cues ask for, in the order the cues occur (a
    multi-fact question, "What is the fee and the daily limit?", asks for two).

    >>> question_types("How much can I borrow, and at what interest rate?")
    ['amount', 'percent']
    """
    return list(_question_types(text))


@functools.lru_cache(maxsize=4096)
def _question_types(text: str) -> tuple[str, ...]:
    out: list[str] = []
    hits = [h for h in _cue_matches(text) if table().accepts.get(h[2])]
    for _, order, qtype, (a, b) in sorted(hits):
        # A cue whose words are those of a cue earlier in the table asks that cue's question
        # once: "সুদ কত, আর কত দিনের মধ্যে …" asks the rate (" সুদ কত") and a duration, and
        # the rate's কত before the comma is no amount (" কত , ") asked besides.
        if qtype not in out and not any(o < order and s < b and a < e for _, o, _, (s, e) in hits):
            out.append(qtype)
    return tuple(out)


def accepts(qtype: str) -> tuple[str, ...]:
    """The span types that can answer a question of type `qtype` (none for yes/no etc.)."""
    return table().accepts.get(qtype, ())


_LOW = ("number", "name")  # placed only where no other span is

# A contact question that names its channel: a number to call, or an address to write to. The
# Bangla words stand alone (কল is no call inside সকল, all, বিকল, out of order, or নকল, fake).
_ASKS_PHONE = re.compile("(?<![A-Za-z])(?:phone|telephone|call|dial|ring|whatsapp|fon|kol)(?![A-Za-z])"
                         "|(?<![\u0980-\u09ff])(?:ফোন|কল)(?![\u0980-\u09ff])|হটলাইন|হেল্পলাইন", re.IGNORECASE)
# The customer's own phone is what the question is about, not the channel it asks for ("I lost my
# phone, how do I reach you?", "ফোন চুরি হলে কোথায় যোগাযোগ করব?").
_OWN_PHONE = re.compile("(?:my|your|his|her|their|our|amar|lost|stolen|new|old|smart) $|আমার $|নতুন $", re.IGNORECASE)
_PHONE_LOST = re.compile("^(?: (?:is|was|got|has been) (?:lost|stolen|snatched|missing)| (?:হারি|হারা|চুরি)"
                         "| (?:harie|hariye|haray|churi))", re.IGNORECASE)
_ASKS_MAIL = re.compile("(?<![A-Za-z])e-?mail|(?:^|[^A-Za-z])mail(?![A-Za-z])|ইমেইল|ই-মেইল|মেইল", re.IGNORECASE)
_MAIL = re.compile("@")


def _asks_phone(question: str) -> bool:
    """Whether the question names the phone as the channel it asks for (`other_channel`)."""
    for m in _ASKS_PHONE.finditer(question):
        if m.group().lower() in ("phone", "fon", "ফোন") and (_OWN_PHONE.search(question[max(0, m.start() - 8):m.start()])
                                                             or _PHONE_LOST.search(question[m.end():m.end() + 24])):
            continue
        return True
    return False


def other_channel(question: str, value: str) -> bool:
    """Whether a contact `value` is on another channel than the one a contact question asks for:
    an e-mail address for "which phone number do I call?" ("অভিযোগ নিষ্পত্তি কর্মকর্তার … ফোন
    নম্বর কত?" is not answered by "gro@shaplapay.example"), a phone number or code for "what is
    the e-mail address?". A question naming both channels, or neither, takes either.

    >>> other_channel("What number do I call the GRO on?", "gro@shaplapay.example")
    True
    >>> other_channel("What number do I call the GRO on?", "16789")
    False
    >>> other_channel("How do I contact the GRO?", "gro@shaplapay.example")
    False
    """
    phone = _asks_phone(question)
    mail = _ASKS_MAIL.search(question) is not None
    if phone == mail:
        return False
    return (_MAIL.search(value) is not None) == phone


# "one" after a determiner, or after an article and one word ("add a different one", "the same
# one", "every one", "no one"), stands for a thing named before: a pronoun, no count. Before a
# scale word it is a number whatever comes before it ("the first one thousand taka", "every one
# lakh").
_PRONOUN_BEFORE_ONE = re.compile("(?:^|[^A-Za-z])(?:this|that|which|each|every|another|no|(?:a|an|the)(?: [A-Za-z]+)?) $",
                                 re.IGNORECASE)
_SCALE_AFTER_ONE = re.compile("[ -](?:hundred|thousand|lakhs?|lacs?|crores?|million|billion)(?![A-Za-z])", re.IGNORECASE)


def pronoun_one(text: str, start: int) -> bool:
    """Whether the word "one" at `start` is a pronoun (`_PRONOUN_BEFORE_ONE`), not the number 1.

    >>> pronoun_one("add a different one whenever you like", 16), pronoun_one("in one go", 3)
    (True, False)
    >>> pronoun_one("the first one thousand taka", 10)
    False
    """
    return text[start:start + 3].lower() == "one" and _PRONOUN_BEFORE_ONE.search(text[max(0, start - 30):start]) is not None \
        and _SCALE_AFTER_ONE.match(text, start + 3) is None


def typed_spans(text: str) -> list[Span]:
    """Non-overlapping typed spans in `text`, in text order.

    Where two patterns overlap, the earlier start wins, then the longer span, then the
    earlier row of the table; bare numbers and names only fill the gaps left by the others.
    """
    return list(_typed_spans(text))


# Cached: every question reads the same article sentences' spans again (the answerer's
# features, the asked amounts and counts), and each reading runs the table's forty patterns.
@functools.lru_cache(maxsize=20_000)
def _typed_spans(text: str) -> tuple[Span, ...]:
    found = []
    for order, (stype, pattern) in enumerate(table().spans):
        for m in pattern.finditer(text):
            if m.end() > m.start() and not (stype == "number" and pronoun_one(text, m.start())):
                found.append((stype in _LOW, m.start(), -(m.end() - m.start()), order, stype, m.end()))
    found.sort()
    taken: list[Span] = []
    for low, start, _, _, stype, stop in found:
        if all(stop <= s.start or start >= s.end for s in taken):
            taken.append(Span(stype, start, stop))
    return tuple(sorted(taken, key=lambda s: s.start))
