"""Short answers to encyclopaedic factoid questions, beside `short.py`'s typed values.

A stranger's factoid question is often answered by a sentence that opens with its answer or
states it in a form the typed spans of `answertypes` do not read:

- **The sentence's opening name.** "Mercury (0.4 AU from the Sun) is the smallest planet":
  `answertypes`' English names never start a sentence (a capital there says nothing), so the
  subject of the sentence, often the very answer to a who- or which-question, was no
  candidate. `opening_name` reads it when a comma, a bracket or "is"/"was" follows the
  capitalised words at once and they are not the question's own.
- **A measure.** "How big is …", "How long is the river …", "the area of …": a number with a
  unit of length or area ("111,369 square kilometres", "87 km2 (34 sq mi)"), not a population
  or a year (`asks_size`, `measures`). "How long" asks for a length only when it is not about
  time ("how long does it take", "how long is the wait"): only when the sentence states no
  duration is the measure read.
- **What an abbreviation stands for.** "What does IP stand for?": the run of words whose
  initials spell it ("Internet Protocol", `expansion_of`).

Everything matches explicit character classes (never `\\b` or `\\w`), like `answertypes`.

>>> s = "Mercury (0.4 AU from the Sun) is the closest planet to the Sun."
>>> s[slice(*opening_name(s, {"planet", "smallest"}, [("mercury", 0, 7)]))]
'Mercury'
>>> s = "The park covers 87 km2 (34 sq mi) near the city."
>>> [s[a:b] for a, b in measures(s)]
['87 km2 (34 sq mi)']
"""

from __future__ import annotations

import re

from raglab.text.analyzer import WHITESPACE
from raglab.text.answertypes import cue_text
from raglab.text.splitter import abbreviation_goes_on

_LETTER = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0300-\u036f"
_CAPITAL = "A-Z\u00c0-\u00d6\u00d8-\u00de"
_WORD = f"[{_CAPITAL}][{_LETTER}'\u2019-]*"
# Openers that are no name: articles, pronouns, connectives, and what a help text starts with.
_NOT_NAMES = frozenset("""a an the in on at it he she they this that these those his her its their there when where
what which who after before during however as by for from with if you your we our i since although while up most
some all each every many also but and or note yes no not one two both either neither any anyone everyone nobody
today yesterday tomorrow here once""".split())
# A name opening the sentence: "Skandagupta, son of …", "Ching Shih [1] …", "The Grand Canal, known …",
# "Kevin Feige (born 1973) is …", "The Battle of Palmito Ranch is …".
_OPENING = re.compile(f"^(?:The )?({_WORD}(?:(?: (?:of the|of|de|la|le|von|van|der|del|du|da|and|&))* {_WORD})*)"
                      r"(?=,| ?[(\[]| (?:is|was) )")
# One capitalised word with the ending of an adverb or an abstract noun opens many sentences and
# names nothing ("Currently, …", "Eligibility is based on …").
_COMMON = re.compile("(?:ly|ity|tion|sion|ment|ness|ance|ence|ing|ship|ism|ure|wise)$")
# A one-word adjective of a people ("an American film producer") is no name of a person or thing;
# an article comes just before it (a first name does not: "Brian designed it", "Susan built it").
# After "by" it is one only before the role and the name it introduces ("by American programmer
# Silas Warner"): "written by Brian himself" names Brian.
_DEMONYM = re.compile(f"^[{_CAPITAL}][a-z]+(?:an|ese|ish)$")
_ARTICLE_BEFORE = re.compile("(?:^|[^A-Za-z])(?:a|an|the|A|An|The) $")
_BY_JUST_BEFORE = re.compile("(?:^|[^A-Za-z])by $")
_ROLE_NAME_AFTER = re.compile(f"^ [a-z]+(?: [a-z]+)? [{_CAPITAL}]")
# … before a noun: a verb, a preposition or a conjunction after it makes it a name ("Japan is").
_NOUN_AFTER = re.compile("^ (?!(?:is|was|are|were|has|had|have|and|or|in|on|at|of|to|for|by|with|from|as|the|an?)"
                         "(?![a-z]))[a-z]")


def opening_name(text: str, question_terms: set, order) -> tuple[int, int] | None:
    """(start, end) of the name the sentence opens with, when it is followed at once by a comma,
    a bracket or "is"/"was" and is not the question's own words; `order` is the text's (term,
    start, end) tokens."""
    m = _OPENING.match(text)
    if m is None:
        return None
    name = m.group(1)
    words = [w for w in re.split("[ -]", name) if w]
    if words[0].lower() in _NOT_NAMES or len(words) == 1 and _COMMON.search(name):
        return None
    own = [t for t, a, b in order if m.start(1) <= a and b <= m.end(1)]
    if all(t in question_terms for t in own):
        return None  # the question's own subject ("Power League Wrestling (PLW) is …" for who founded it)
    return m.start(1), m.end(1)


def demonym(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is one word that names a people, used as an adjective after an
    article ("an American film producer") or after "by" before a role and a name ("by American
    programmer Silas Warner"): no answer to a who- or which-question.

    >>> s = "It was developed by American programmer Silas Warner."
    >>> demonym(s, 20, 28), demonym("It was written by Brian himself.", 18, 23)
    (True, False)
    """
    if not (_DEMONYM.match(text[start:end]) and _NOUN_AFTER.match(text[end:end + 8])):
        return False
    before = text[max(0, start - 5):start]
    return bool(_ARTICLE_BEFORE.search(before)) or bool(_BY_JUST_BEFORE.search(before) and _ROLE_NAME_AFTER.match(text[end:end + 40]))


# The end of the sentence a position is in, within one unit: a full stop, "?" or "!" (with any footnote marks after
# it, "….[3] The …") before a space, or the danda; not an abbreviation's period ("(c. 570 BC)", `splitter.abbreviation_goes_on`).
_SENTENCE_END = re.compile("(?<=[a-z0-9\u0980-\u09ff)\\]\"'\u2019])[.!?](?:\\[[^\\]]{1,12}\\])*(?= |$)|\u0964")


def sentence_end(text: str, start: int) -> int:
    """The offset where the sentence that `start` is in ends (the text's length at most)."""
    return next((m.start() for m in _SENTENCE_END.finditer(text, start) if text[m.start()] != "." or not abbreviation_goes_on(text, m.start())), len(text))


# "How big/large/long/tall/high/far/deep/wide is …", "the area/size/length/height of …", and in
# Bangla "কত বড়/লম্বা/দূর/উঁচু/গভীর/চওড়া", "আয়তন", "দৈর্ঘ্য", "উচ্চতা", "দূরত্ব" …; a Bangla unit keeps its
# case ending ("৬.১৫ কিলোমিটারের", "২ মাইলে").
_SIZE = re.compile(" how (?:big|large|long|tall|high|far|deep|wide) (?:is|are|was|were) | what (?:is|s|was) the "
                   "(?:total )?(?:area|size|length|height|depth|width|distance|elevation) |কত(?:ো)? (?:বড়|লম্বা|দূর|উঁচু|গভীর|চওড়া|বিশাল)|আয়তন|দৈর্ঘ্য|উচ্চতা|দূরত্ব|গভীরতা|প্রস্থ")
# … not how long something takes ("কত লম্বা সময় লাগে", "how long is the wait").
_TIME_WORDS = re.compile(" (?:take|takes|took|wait|delay|process|processing|last|lasts|valid|until|ago|before|after) | (?:সময়|লাগে|লাগবে|লাগতে|লেগে|অপেক্ষা|মিনিট|ঘণ্টা|ঘন্টা|দিন|মাস|বছর|কতক্ষণ|কতদিন)")
_UNIT = ("(?:square |sq ?|cubic )?(?:kilomet(?:re|er)s?|km2|km²|km|miles?|mi|sqmi|met(?:re|er)s?|m2|m²|feet|ft|foot|"
         "yards?|inches|acres?|hectares?|ha)|(?:বর্গ ?)?(?:কিলোমিটার|মাইল|মিটার|ফুট|একর|হেক্টর)(?:ের|এর|র|ে|এ|তে)?")
_NUM = "[0-9\u09e6-\u09ef]+(?:[,.][0-9\u09e6-\u09ef]+)*(?: ?(?:million|thousand|লাখ|হাজার))?"
_MEASURE = re.compile(f"(?<![0-9\u09e6-\u09ef.,A-Za-z]){_NUM} ?(?:{_UNIT})(?![A-Za-z\u0980-\u09ff])"
                      f"(?: ?\\((?:about |approx\\. |c\\. )?{_NUM} ?(?:{_UNIT})\\))?")


def asks_size(question: str) -> bool:
    """Whether a question asks how big, long or far something is, not how long something takes.

    >>> asks_size("How big is Liberia?"), asks_size("How long is the refund wait?")
    (True, False)
    """
    cue = cue_text(question)
    return bool(_SIZE.search(cue)) and not _TIME_WORDS.search(cue)


def measures(text: str) -> list[tuple[int, int]]:
    """(start, end) of every measure of length or area in `text`, with the same measure in other
    units when a bracket follows ("87 km2 (34 sq mi)")."""
    return [(m.start(), m.end()) for m in _MEASURE.finditer(text)]


# "What is the lightest gas?", "What was Madonna's first album?": a question for one named thing
# that the answer-type cues leave untyped (a superlative not in their list, a name's first or last
# work). Words of five letters or more in "-est" that are no superlative are left out.
_WHICH_ONE = re.compile("^ (?:what|which)(?: s| is| was| are| were) (?:the (?:[a-z-]+ )?(?!(?:inter|for|requ|cont|prot|gu|ch|qu|"
                        "cr|harv|conqu|manif|hon|mod|sugg|dig|arr|inv|ever|temp|pri)est )[a-z]{2,}est|(?:[a-z-]+ ){1,4}s "
                        "(?:first|last|latest|debut|final|second|third|earliest)) ")


def which_one_in(question: str, text: str) -> bool:
    """Whether `question` asks for one named thing (`asks_which_one`) and `text` says it in the
    question's own superlative or ordinal ("Hydrogen is the lightest element" for "What is the
    lightest gas?"): a sentence without the word names something else ("What is the strongest
    PIN?" is not answered by "Shapla Pay").

    >>> which_one_in("What is the lightest gas?", "Hydrogen is the lightest element."), which_one_in("What is the strongest PIN?", "Shapla Pay asks for your PIN.")
    (True, False)
    """
    m = _WHICH_ONE.search(cue_text(question))
    if not m:
        return False
    word = next(w for w in reversed(m.group(0).split()) if w.endswith("est") or w in _ORDER_WORDS)
    return f" {word} " in cue_text(text)


_ORDER_WORDS = ("first", "last", "latest", "debut", "final", "second", "third", "earliest")


def asks_which_one(question: str) -> bool:
    """Whether a question asks for one named thing by a superlative or as someone's first or last
    work, though no answer-type cue types it (the short answer reads a name for it).

    >>> asks_which_one("What is the lightest gas?"), asks_which_one("What was Lena Berg's first novel?")
    (True, True)
    >>> asks_which_one("What is the interest on savings?")
    False
    """
    return bool(_WHICH_ONE.search(cue_text(question)))


# Values an encyclopaedia writes that the answer-type spans do not read; the short answer reads
# them, the answerer's features do not (they stay as fitted): money in dollars, pounds or euros
# ("over $3 million", "US$95 per barrel"), centuries and years of an era ("13th-century",
# "late 7th century BCE", "181-179 BC"), and a number run into its magnitude ("6million").
_FIGURE = "[0-9]+(?:[,.][0-9]+)*"
_SCALE = "(?: ?(?:million|billion|trillion|thousand))?"
_ORDINAL = ("(?:[0-9]{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
            "twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth)")
_EXTRA = (("amount", re.compile(f"(?<![A-Za-z0-9])(?:(?:US|A|C|NZ|HK|S)?\\$|£|€) ?{_FIGURE}{_SCALE}(?![0-9A-Za-z])|"
                                f"(?<![0-9.,]){_FIGURE}{_SCALE} (?:dollars|euros)(?![A-Za-z])")),
          ("time", re.compile(f"(?<![A-Za-z0-9]){_ORDINAL}[ -](?:century|millennium)(?: (?:BC|BCE|AD|CE))?(?![A-Za-z0-9])|"
                              "(?<![A-Za-z0-9.,])[0-9]{1,4}(?: ?[-\u2013] ?[0-9]{1,4})? (?:BC|BCE)(?![A-Za-z])|"
                              "(?<![A-Za-z])(?:AD|CE) [0-9]{1,4}(?![0-9])")),
          ("number", re.compile(f"(?<![A-Za-z0-9.,]){_FIGURE}(?:million|billion|trillion)(?![A-Za-z])")),
          # A name numbered: "US 50", "Interstate 90", "Apollo 11" (not a date: "May 22").
          ("name", re.compile(f"(?<![A-Za-z0-9])(?!(?:January|February|March|April|May|June|July|August|September|October|"
                              f"November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|The|In|On|At|By|Of|From|"
                              f"Tk|Within|Up|Step|Minimum|Maximum|Min|Max|Over|Under|About|Only|Around) )"
                              f"[{_CAPITAL}][A-Za-z-]*(?: [{_CAPITAL}][A-Za-z-]*)* [0-9]{{1,4}}(?![0-9A-Za-z%]|[,.:][0-9]| ?(?:{_UNIT}|%|percent|years?|days?|hours?|minutes?|weeks?|months?|working|business|people)(?![A-Za-z]))")))


def extra_spans(text: str, kinds: tuple = ("amount", "time", "number", "name")) -> list[tuple[str, int, int]]:
    """(type, start, end) of the money, era times, run-in magnitudes and numbered names of the
    `kinds` asked for in `text` (above), in text order, none overlapping an earlier one.

    >>> s = "Built in the 13th-century, it sold for over $3 million (181-179 BC); 6million people."
    >>> [(t, s[a:b]) for t, a, b in extra_spans(s)]
    [('time', '13th-century'), ('amount', '$3 million'), ('time', '181-179 BC'), ('number', '6million')]
    """
    found = sorted((m.start(), -m.end(), kind) for kind, pattern in _EXTRA if kind in kinds for m in pattern.finditer(text))
    out: list[tuple[str, int, int]] = []
    for start, neg_end, kind in found:
        if not out or start >= out[-1][2]:
            out.append((kind, start, -neg_end))
    return out


# "When was … born?", "When did … die?": the sentence gives a lifespan, "(26 September 1889 – 26
# May 1976)", or says it ("born 6 May 1856", "died on 3 September 1965").
_BORN = re.compile(" (?:born|birth|birthday) ")
_DIED = re.compile(" (?:die|died|dies|death|pass away|passed away) ")
_LIFE_DASH = re.compile("^ ?[-\u2013\u2014] ?$")
_SAYS_BORN = re.compile("(?:^|[^A-Za-z])born (?:on |in )?$")
_SAYS_DIED = re.compile("(?:^|[^A-Za-z])died (?:on |in )?$")


def life_event(question: str) -> str | None:
    """"born" or "died" when a question asks when someone was born or died; None otherwise.

    >>> life_event("When was Ada Kross born?"), life_event("When did the poet die?"), life_event("When was it built?")
    ('born', 'died', None)
    """
    cue = cue_text(question)
    born, died = bool(_BORN.search(cue)), bool(_DIED.search(cue))
    return "born" if born and not died else "died" if died and not born else None


def of_life(text: str, spans, i: int) -> str | None:
    """"born" or "died" when spans[i], a time, is the first or the second date of a lifespan
    (two times joined by a dash) or follows "born"/"died"; None otherwise."""
    span = spans[i]
    if _SAYS_BORN.search(text[max(0, span.start - 12):span.start]):
        return "born"
    if _SAYS_DIED.search(text[max(0, span.start - 12):span.start]):
        return "died"
    if i + 1 < len(spans) and spans[i + 1].type == "time" and _LIFE_DASH.match(text[span.end:spans[i + 1].start]):
        return "born"
    if i > 0 and spans[i - 1].type == "time" and _LIFE_DASH.match(text[spans[i - 1].end:span.start]):
        return "died"
    return None


# "What does IP stand for?", "What is PIN short for?", "What do the letters NID mean?"
# The abbreviation is written in capitals ("What does it mean?" asks about no IT).
_STANDS = re.compile(r"^\s*(?i:what (?:does|do|did|is|was) (?:the |an? )?(?:letters |abbreviations? |acronym )?)([A-Z]{2,8})"
                     r"(?i:(?:'s| )(?:stand for|short for|an abbreviation (?:of|for)|mean))")


def abbreviation(question: str) -> str | None:
    """The abbreviation a question asks to spell out, written in capitals; None for any other question.

    >>> abbreviation("What does OTP stand for?"), abbreviation("What does the fee cover?"), abbreviation("What does it mean?")
    ('OTP', None, None)
    """
    m = _STANDS.match(question)
    return m.group(1) if m else None


_WORDS = re.compile(f"[{_LETTER}]+")
_CAPITAL_START = re.compile(f"[{_CAPITAL}]")


def expansion_of(short: str, text: str) -> tuple[int, int] | None:
    """(start, end) of the first run of words in `text` whose initials spell `short`, each word
    capitalised or all of them lower-case ("Internet Protocol", "one-time password"); "of",
    "and", "the" may sit between them ("Bank of Bangladesh")."""
    words = [(m.start(), m.end(), m.group()) for m in _WORDS.finditer(text)]
    letters = short.upper()
    for i in range(len(words)):
        j, k = i, 0
        while j < len(words) and k < len(letters):
            word = words[j][2]
            if word[0].upper() == letters[k] and word.upper() != letters:
                k += 1
                j += 1
            elif k and word.lower() in ("of", "and", "the", "for") and j + 1 < len(words):
                j += 1
            else:
                break
        if k == len(letters):
            run = [w for w in words[i:j] if w[2].lower() not in ("of", "and", "the", "for")]
            cased = [bool(_CAPITAL_START.match(w[2])) for w in run]  # a character class, not the Unicode database
            if all(cased) or not any(cased):
                if all(text[prev[1]:nxt[0]] in (" ", "-") for prev, nxt in zip(words[i:j], words[i + 1:j])):
                    return words[i][0], words[j - 1][1]
    return None


# A phrase that answers how or what an encyclopaedia's subject did, read from the sentence (the
# reference is the phrase after the verb, not a name or a value):
# - "How did Hutton die?": the cause after "died … of/from" ("died at the Royal Devon and Exeter
#   Hospital, Exeter, of a brain haemorrhage, on 3 September 1965": "a brain haemorrhage"); a cause
#   is written in lower case, never "of Paris" or the age ("died at the age of 75");
# - "How is henna made?", "How did India get its name?": what it is made or named from ("a dye
#   prepared from the plant Lawsonia inermis": "from the plant Lawsonia inermis");
# - "How did Judas betray Jesus?": the means, "by" and a verb in -ing after a word of the question
#   ("betrayed Jesus … by kissing him and addressing him as …"), to the end of the sentence;
# - "What do sawfish eat?": what it feeds on ("feed on fish, crustaceans and molluscs").
_HOW = re.compile(" how (?:did|does|do|is|was|are|were|has|have|had) (?!(?:i|you|we|my|your|our|it|they|he|she) )")
_HOW_INVERTED = re.compile("^ how (?:[a-z0-9-]+ ){1,4}(?:is|was|are|were) (?:given|made|named|called|produced|formed) ")
_DIE_ASKED = re.compile(" (?:die|died) (?:, )?$")
_MADE_ASKED = re.compile(" (?:made|produced|prepared|formed|created|manufactured) ")
_NAME_ASKED = re.compile(" (?:named|called|(?:get|got|given|gets) (?:its|their|his|her) name) ")
_EAT_ASKED = re.compile("^ what (?:do|does|did) (?:[a-z0-9-]+ ){1,4}(?:eat|feed on) (?:, )?$")
_PHRASE_END = "(?=[,;:.!?(\\[]| (?:on|in|at|while|after|when|which|who|since|during|and (?:was|is|were|are)) |$)"
_DIED_OF = re.compile(f"(?<![A-Za-z])(?:died|dies|die)(?![A-Za-z])(?P<gap>[^.;]{{0,80}}?) (?:of|from) (?P<cause>(?:a |an |the )?[a-z][a-z' -]*?){_PHRASE_END}")
_MADE_FROM = re.compile(f"(?<![A-Za-z])(?:made|prepared|produced|derived|obtained|extracted|formed|distilled|brewed)"
                        f" (?P<phrase>from [^,;:.(\\[ ][^,;:.(\\[]*?){_PHRASE_END}")
_NAMED_FROM = re.compile(f"(?<![A-Za-z])(?:(?:takes|took|gets|got|derives|derived|draws|drew|has|had) (?:its|their|his|her) name|named)"
                         f" (?P<phrase>(?:from|after|for) [^,;:.(\\[ ][^,;:.(\\[]*?){_PHRASE_END}")
_BY_MEANS = re.compile(r"(?<![A-Za-z])by [a-z]+ing(?![A-Za-z])")
_FEEDS_ON = re.compile("(?<![A-Za-z])(?:feeds? on|fed on|preys? on|diet (?:mainly |largely |chiefly )?(?:consists of|includes|is)|eats?)"
                       " (?P<phrase>[a-z][^;:.(\\[]*?)(?=[;:.(\\[]|$)")


def _trimmed(text: str, start: int, end: int) -> tuple[int, int] | None:
    """(start, end) without the space a phrase that stops before a bracket keeps ("from the plant
    (Lawsonia inermis)": "from the plant"); None when nothing is left."""
    while end > start and text[end - 1] in WHITESPACE:
        end -= 1
    return (start, end) if end > start else None


def _phrase(m: re.Match | None, group: str) -> tuple[int, int] | None:
    """The `group` of `m`, `_trimmed`; None when there is no match."""
    return _trimmed(m.string, *m.span(group)) if m else None


def how_phrase(question: str, text: str, question_spans) -> tuple[int, int] | None:
    """(start, end) of the phrase in `text` that says how its subject died, what it is made or named
    from, by what means it did what the question asks, or what it eats (above); None for any other
    question, or when the sentence says none of it. `question_spans` are the (start, end) of the
    question's words in `text`: the means must follow one of them.

    >>> s = "He died at the Royal Hospital, Exeter, of a brain haemorrhage, on 3 September 1965."
    >>> s[slice(*how_phrase("How did Hutton die?", s, []))]
    'a brain haemorrhage'
    >>> s = "Henna is a dye prepared from the plant Lawsonia inermis, also known as hina."
    >>> s[slice(*how_phrase("How is henna made?", s, [(0, 5)]))]
    'from the plant Lawsonia inermis'
    >>> how_phrase("How did Lena die?", "Lena died at the age of 75.", []) is None
    True
    """
    cue = cue_text(question)
    if _EAT_ASKED.search(cue):
        return _phrase(_FEEDS_ON.search(text), "phrase")
    if not (_HOW.search(cue) or _HOW_INVERTED.search(cue)):
        return None
    if _DIE_ASKED.search(cue):
        for m in _DIED_OF.finditer(text):
            if not m.group("gap").endswith(" age") and not m.group("gap").endswith(" the age"):
                return _phrase(m, "cause")
        return None
    if _NAME_ASKED.search(cue):  # "takes its name from the Indus River", else what the name is derived from
        return _phrase(_NAMED_FROM.search(text) or _MADE_FROM.search(text), "phrase")
    if _MADE_ASKED.search(cue):
        return _phrase(_MADE_FROM.search(text), "phrase")
    first = min((s for s, _ in question_spans), default=None)
    means = _BY_MEANS.search(text, first) if first is not None else None
    if means is None:
        return None
    return _trimmed(text, means.start(), sentence_end(text, means.start()))


# "What is the most famous example of Gothic architecture?": "… and the most famous of all, Notre-Dame
# de Paris": the name a sentence puts just after the question's own superlative ("the largest moon is
# Ganymede", "the oldest, Tell Brak") names the asked one, though the sentence opens with another.
_SUPERLATIVE = re.compile("(?<![a-z])(?:(?:most|least) [a-z]{3,}|(?!(?:inter|for|requ|cont|prot|gu|ch|qu|cr|harv|conqu|manif|hon|"
                          "mod|sugg|dig|arr|inv|ever|temp|pri|b|l|r|w|n|t|v)est )[a-z]{2,}est)(?![a-z])")
_TO_NAME = re.compile("^(?: [a-z]+){0,3}?(?: of all)?(?:,| is| was| are| were)(?: the)? $")


def superlative_name(question: str, text: str, names) -> tuple[int, int] | None:
    """(start, end) of the first of `names` (name spans of `text`) that the sentence puts right after
    the question's superlative, its noun, "of all", and a comma or "is"/"was"; None otherwise.

    >>> s = "Other examples followed, and the most famous of all, Notre-Dame de Paris, was begun in 1160."
    >>> from types import SimpleNamespace as N
    >>> s[slice(*superlative_name("What is the most famous example of Gothic architecture?", s, [N(start=53, end=72)]))]
    'Notre-Dame de Paris'
    """
    m = _SUPERLATIVE.search(cue_text(question))
    if m is None:
        return None
    lower = text.lower()
    at = lower.find(m.group(0))
    while at >= 0:
        end = at + len(m.group(0))
        for sp in names:
            if sp.start >= end and _TO_NAME.match(text[end:sp.start]):
                return sp.start, sp.end
        at = lower.find(m.group(0), end)
    return None


# A fee's share comes with what it is taken of ("1.85% of the amount", "1.5% of each payment"): the
# share alone answers only a question that asks for the share itself, which names its base ("What
# percentage of Ireland is Catholic?", "How much of Romania is forest?").
_ASKS_SHARE = re.compile(" how much of | (?:percentage|percent|share|proportion|portion|fraction) of ")
_SHARE_OF = re.compile(" of (?:the|each|every|a|an|any) [A-Za-z][A-Za-z-]*(?![A-Za-z-])", re.IGNORECASE)


def share_base(question: str, qtype: str, text: str, end: int) -> int:
    """Where a share ending at `end` in `text` ends with its base (" of the amount"), for a question
    of another type than "percent" that does not ask for a share; `end` otherwise.

    >>> s = "Cash out at an agent costs 1.85% of the amount."
    >>> s[:share_base("What is the cash out fee?", "amount", s, 32)], s[:share_base("What percent of the amount is the fee?", "percent", s, 32)]
    ('Cash out at an agent costs 1.85% of the amount', 'Cash out at an agent costs 1.85%')
    """
    if qtype == "percent" or _ASKS_SHARE.search(cue_text(question)):
        return end
    m = _SHARE_OF.match(text, end)
    return m.end() if m else end


# A share restated as an amount per sum, to the clause's end: ", which is Tk 18.50 per Tk 1,000",
# ", অর্থাৎ প্রতি ১,০০০ টাকায় ১৮.৫০ টাকা", " (Tk 18.50 per Tk 1,000)". A full stop between digits is a
# decimal point, not the clause's end.
_RESTATED = re.compile(r", (?:which is|that is|i\.e\.,?|অর্থাৎ) | \(")
_PER_SUM = re.compile("(?:^|(?<=[^A-Za-z\u0980-\u09ff]))(?:per|প্রতি) ")
_DIGITS = frozenset("0123456789০১২৩৪৫৬৭৮৯")


def restated(question: str, qtype: str, text: str, end: int) -> int:
    """Where a share ending at `end` in `text` (with its base, `share_base`) ends with its restatement
    as an amount per sum (`_RESTATED`), for a question that does not ask for a share; `end` otherwise.

    >>> s = "The fee is 1.85% of the amount, which is Tk 18.50 per Tk 1,000."
    >>> s[:restated("What is the fee?", "amount", s, 30)], restated("What is the fee?", "amount", "It costs 1.85%, which is the highest fee.", 14)
    ('The fee is 1.85% of the amount, which is Tk 18.50 per Tk 1,000', 14)
    """
    m = _RESTATED.match(text, end)
    if m is None or qtype == "percent" or _ASKS_SHARE.search(cue_text(question)):
        return end
    stop = m.end()
    while stop < len(text) and not (text[stop] in ";:।\n)" or text[stop] == "." and not (
            text[stop - 1] in _DIGITS and text[stop + 1:stop + 2] in _DIGITS)):
        stop += 1
    part = text[m.end():stop]
    if not _PER_SUM.search(part) or not any(ch in _DIGITS for ch in part):
        return end
    return stop + 1 if m.group().endswith("(") and text[stop:stop + 1] == ")" else stop
