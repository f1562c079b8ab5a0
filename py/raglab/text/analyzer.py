"""The one analyzer: text normalisation and tokens with offsets (sentence spans: `text.splitter`).

Every stage (indexing, querying, answer selection, token F1, highlighting) calls
`analyze` or `tokens`, so a term means the same thing everywhere.

Characters are classified by explicit code-point ranges, never by `\\w`,
`str.isalpha()` or `unicodedata`: the Unicode database differs between the
CPython that runs natively and the one inside Pyodide, and `\\w` splits Bangla
words at vowel signs and the hasanta.
"""

from __future__ import annotations

import contextlib
import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from raglab.text.stemmer import is_hyphen_ending, stem_bangla, stem_english, without_particle

# Bangla word characters: signs (ঁ ং ঃ), letters, nukta, vowel signs, hasanta,
# khanda ta, au length mark, ড় ঢ় য়, vocalic letters and signs, Assamese ra/wa.
# Digits (০-৯) are handled separately; ৲ ৳ (currency) and the rest are not letters.
_BANGLA_RANGES = (
    (0x0981, 0x0983),
    (0x0985, 0x09B9),
    (0x09BC, 0x09CE),
    (0x09D7, 0x09D7),
    (0x09DC, 0x09DF),
    (0x09E0, 0x09E3),
    (0x09F0, 0x09F1),
)
_BANGLA_DIGIT_ZERO = 0x09E6
# Removed before matching; they never split a word.
_INVISIBLE = frozenset("\u200b\u200c\u200d\u00ad\u2060\ufeff")
ZWJ = "\u200d"
HASANTA = "\u09cd"
NUKTA = "\u09bc"
KHANDA_TA = "\u09ce"
# Precomposed ড় ঢ় য় are composition exclusions, so NFC leaves them as letter +
# nukta; we fold to that decomposed form so analyzer output is stable under NFC.
_NUKTA_FOLD = {"\u09dc": "\u09a1" + NUKTA, "\u09dd": "\u09a2" + NUKTA, "\u09df": "\u09af" + NUKTA}

# Whitespace as a fixed set (not str.isspace) so word counts cannot drift between
# Unicode versions.
WHITESPACE = frozenset(" \t\n\r\f\v\x1c\x1d\x1e\x1f\x85\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                       "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


@dataclass(frozen=True)
class Token:
    term: str
    start: int
    end: int


def normalize(text: str) -> str:
    """NFC, LF line ends and no BOM: applied to every document before offsets are taken."""
    text = text.lstrip("\ufeff")  # every leading BOM, so that normalising twice changes nothing
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return unicodedata.normalize("NFC", text)


def in_bangla_block(ch: str) -> bool:
    """True for any code point of the Unicode Bengali block (U+0980-U+09FF): letters,
    signs, digits and symbols alike. The one block test of the package (the tokenizer's
    finer `_is_bangla` decides what is a letter); the JavaScript app mirrors it."""
    return "\u0980" <= ch <= "\u09ff"


def has_bangla(text: str) -> bool:
    """True when any character of `text` is in the Bengali block."""
    for ch in text:
        if in_bangla_block(ch):
            return True
    return False


def _is_bangla(cp: int) -> bool:
    for lo, hi in _BANGLA_RANGES:
        if lo <= cp <= hi:
            return True
    return False


def digit(ch: str) -> str | None:
    """The ASCII digit an ASCII or Bangla digit stands for, else None."""
    if "0" <= ch <= "9":
        return ch
    cp = ord(ch)
    if _BANGLA_DIGIT_ZERO <= cp <= _BANGLA_DIGIT_ZERO + 9:
        return chr(48 + cp - _BANGLA_DIGIT_ZERO)
    return None


def _latin(ch: str) -> bool:
    return "a" <= ch <= "z" or "A" <= ch <= "Z"


def _word_char(ch: str) -> bool:
    return _latin(ch) or digit(ch) is not None or _is_bangla(ord(ch))


# A hyphen, the Unicode hyphen, the non-breaking hyphen and the en dash that an editor puts for
# one: between a word and a case ending ("শাপলা পে-র", "SMS-এ") the ending is no term of its own.
_HYPHENS = frozenset("-\u2010\u2011\u2013")


def _case_ending(text: str, start: int, end: int, surface: str, glued: bool) -> bool:
    """Whether the Bangla run text[start:end] is only a case ending (stemmer.HYPHEN_ENDINGS) of the
    word before: hyphened to it ("SMS-এ", "শাপলা পে-র"), or `glued` to a Latin word with nothing
    between ("SMSএ", "Shapla Payতে", "ATMগুলোতে"), where the change of script alone cut it off.
    A Bangla word glued to a Latin one ("QRকোড") is a term of its own, as after a hyphen."""
    if end < len(text) and _word_char(text[end]) or not is_hyphen_ending(surface):
        return False
    return glued or start >= 2 and text[start - 1] in _HYPHENS and _word_char(text[start - 2])


# The vowel signs written before their consonant (ি ে ৈ). Some old keyboards, and text converted
# from legacy fonts, store them in that visual order: "েকাথায়" for কোথায়, "িকছু" for কিছু.
PRE_BASE = frozenset("\u09bf\u09c7\u09c8")


def _consonant(ch: str) -> bool:
    return "\u0995" <= ch <= "\u09b9" or ch == KHANDA_TA


def _consonant_ends(chars: list[str]) -> bool:
    """Whether `chars` ends in a consonant (ড় ঢ় য় as letter + nukta too): a vowel sign may follow."""
    last = chars[-1] if chars else ""
    if last == NUKTA and len(chars) > 1:
        last = chars[-2]
    return _consonant(last)


def prebase_after(word: str) -> str:
    """`word` with each pre-base vowel sign typed before its consonant moved after it (after the
    whole conjunct: "েপ্রম" is প্রেম). A sign moves only where it cannot belong to what precedes it (at
    the start, after a vowel or another sign) and a consonant follows, so a well-formed word is
    unchanged. Repeated until nothing moves, so that analysing a term again gives the same term.
    ("েকাথায়" gives ে + া after ক, which NFC then composes into ো: কোথায়.)

    >>> [prebase_after(w) for w in ["িকছু", "কােল", "েপ্রম", "কোথায়"]] == ["কিছু", "কালে", "প্রেম", "কোথায়"]
    True
    """
    while True:
        out: list[str] = []
        i, n = 0, len(word)
        while i < n:
            ch = word[i]
            if ch in PRE_BASE and not _consonant_ends(out) and i + 1 < n and _consonant(word[i + 1]):
                j = i + 1
                out.append(word[j])
                while True:  # the consonant's nukta, and the rest of its conjunct
                    if j + 1 < n and word[j + 1] == NUKTA:
                        j += 1
                        out.append(NUKTA)
                    elif j + 2 < n and word[j + 1] == HASANTA and _consonant(word[j + 2]):
                        out += [HASANTA, word[j + 2]]
                        j += 2
                    else:
                        break
                out.append(ch)
                i = j + 1
                continue
            out.append(ch)
            i += 1
        moved = "".join(out)
        if moved == word:
            return word
        word = moved


def _fold_bangla(raw: str, reorder: bool = True) -> str:
    raw = raw.replace("\u09a4" + HASANTA + ZWJ, KHANDA_TA)
    for pre, dec in _NUKTA_FOLD.items():
        raw = raw.replace(pre, dec)
    raw = "".join(ch for ch in raw if ch not in _INVISIBLE)
    # NFC last: a typed question may spell ো as ে + া (two code points), the corpus is NFC; and a
    # pre-base sign typed first ("েকাথায়") becomes that pair once it is moved after its consonant.
    # Not `reorder` for a case ending after a hyphen, which may start with its sign ("SMS-ের").
    return unicodedata.normalize("NFC", prebase_after(raw) if reorder else raw)


_STOPWORD_TEXT = (
    """a an the is are was were be been being am i me my mine you your yours we our us
    it its of to in on at for from by with and or do does did can could how what when
    where which who whom why will would should shall there here this that these those
    if so as s t about into any get got have has had please then than just also many
    he him his she her hers""".split()
    # What an apostrophe leaves of a contraction ("I'm", "I've", "we'll", "you're", "I'd",
    # "don't", "hasn't"): the words they shorten are stopwords, so are their pieces.
    + """m ve ll re d don doesn didn isn wasn aren weren hasn haven hadn wouldn couldn shouldn""".split()
    + """কি কী আমি আমার আমাকে আমরা আমাদের তুমি তোমার আপনি আপনার আপনাকে এটা এটি এটার
    সেটা সেটি কেন হয় হয়ে হবে হলে করে করতে করব করবো এবং ও বা যে এই সে তা তার কোন কোনো
    জন্য দিয়ে আছে একটি একটা কিছু তো কি না কীভাবে কিভাবে""".split()
)

# Written with whatever nukta form the editor produced; folded like the text.
STOPWORDS = frozenset(_fold_bangla(w) for w in _STOPWORD_TEXT)


# Cached: a word's term depends on the word alone, and a help centre says the same few thousand
# words again in every sentence that a question reads (stemming tries each Bangla suffix in turn).
@functools.lru_cache(maxsize=65_536)
def _term(raw: str, script: str | None) -> str:
    if script == "B":
        return stem_bangla(_fold_bangla(raw))
    word = raw.lower()
    if script == "L":
        return stem_english(word)
    return word


# Tokens worked out ahead of time (raglab.retrieval.prebuilt: the bundled corpus's chunks,
# analysed by the build), keyed by the text's digest. `tokens` is a pure function of
# its text, so the table is only a memo: the parity test proves its entries equal a
# fresh analysis on both runtimes. Empty unless a caller installs one. Rows stay as
# they were shipped until a text asks for them: [start, end] when the term is the
# lower-cased ASCII surface text[start:end], else [term, start, end].
_PREBUILT: dict[str, list] = {}


def text_key(text: str) -> str:
    """The prebuilt table's key for a text: the first 16 hex digits of its UTF-8 sha256."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def install_prebuilt(table: dict[str, list]) -> None:
    """Make `tokens` answer from `table` ({text_key: rows}) for the texts it holds."""
    _PREBUILT.clear()
    _PREBUILT.update(table)


def prebuilt_size() -> int:
    """How many texts `tokens` answers from an installed prebuilt table."""
    return len(_PREBUILT)


def _decode(text: str, rows: list) -> list[Token]:
    return [Token(text[r[0]:r[1]].lower(), r[0], r[1]) if len(r) == 2 else Token(r[0], r[1], r[2]) for r in rows]


# A memo of `tokens` for the length of one long computation (`with memo():`): an evaluation
# analyses the same chunk, sentence and question texts again under every configuration.
# Like the prebuilt table it can only change the time, never a result; it is dropped when
# the computation ends, so memory does not grow across calls.
_MEMO: dict[str, tuple] | None = None
_SCOPED: dict[str, dict] = {}  # other modules' memos of the same computation, dropped with it


@contextlib.contextmanager
def memo():
    """Remember every text's tokens until the (outermost) `with` block ends."""
    global _MEMO
    outer = _MEMO is not None
    if not outer:
        _MEMO = {}
    try:
        yield
    finally:
        if not outer:
            _MEMO = None
            _SCOPED.clear()


def scoped(name: str) -> dict | None:
    """Inside a `with memo():` block, a dict of its own for another module's memo (named
    `name`), dropped when the block ends (or at `forget_scoped`); None outside one, where
    nothing is remembered."""
    return None if _MEMO is None else _SCOPED.setdefault(name, {})


def forget_scoped() -> None:
    """Drop the other modules' memos of the computation, keeping the tokens: for a caller
    that knows what they remember will not recur (an evaluation moving to another chunker)."""
    _SCOPED.clear()


def tokens(text: str) -> list[Token]:
    """Every non-stopword term in `text`, with its character span in `text`.

    A token is a run of ASCII letters and digits, or of Bangla word characters and
    digits; a change of script starts a new token (a case ending glued to a Latin word,
    "SMSএ", is no token, `_case_ending`). Digits of both scripts fold to
    ASCII; a comma between digits is dropped (`1,50,000` -> `150000`) and a point
    between digits kept (`1.85`).
    """
    remembered = _MEMO
    if remembered is not None:
        got = remembered.get(text)
        if got is None:
            got = remembered[text] = tuple(_tokens(text))
        return list(got)
    return _tokens(text)


def _tokens(text: str) -> list[Token]:
    if _PREBUILT:
        rows = _PREBUILT.get(text_key(text))
        if rows is not None:
            return _decode(text, rows)
    return fresh_tokens(text)


ESC = "\x1b"


def escape_end(text: str, i: int) -> int:
    """The end of the terminal escape sequence starting at text[i] (an ESC).

    Terminal escape sequences (ECMA-48: colours such as ESC [31m, titles such as
    ESC ] 0;... BEL) are not text. Pasted from a terminal, they come glued to words
    ("\x1b[31mfee\x1b[0m"); read as characters, "31mfee" would become a term that
    matches nothing. The analyzer skips the whole sequence like a space, so the word
    keeps its own term and span.
    """
    n = len(text)
    if i + 1 >= n:
        return n
    kind = text[i + 1]
    if kind == "[":  # CSI: parameter and intermediate bytes, then one final byte @ to ~
        j = i + 2
        while j < n and "\x20" <= text[j] <= "\x3f":
            j += 1
        return j + 1 if j < n and "\x40" <= text[j] <= "\x7e" else j
    if kind in "]PX^_":  # OSC, DCS, SOS, PM, APC: a string ended by BEL or ESC \\
        j = i + 2
        while j < n and text[j] != "\x07" and not (text[j] == ESC and text[j + 1:j + 2] == "\\"):
            j += 1
        if j >= n:  # never ended: skip only the introducer, so no text can hide behind it
            return i + 2
        return j + (1 if text[j] == "\x07" else 2)
    return i + 2  # a two-character escape (ESC 7, ESC c, ...)


# A run of word characters, as `fresh_tokens` cuts them: digits of either script, invisibles
# and a comma or point between two digits join any run; the first letter sets the run's script,
# and a letter of the other script ends it. One regular expression instead of a loop over the
# characters: the scan was most of a fresh analysis's time, natively and in the browser.
_D, _L, _I = "0-9\u09e6-\u09ef", "A-Za-z", "".join(sorted(_INVISIBLE))
_B = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _BANGLA_RANGES)
_S = f"(?<=[{_D}])[,.](?=[{_D}])"
_RUN = re.compile(f"[{_D}](?:[{_D}{_I}]|{_S})*(?:(?P<l>[{_L}](?:[{_L}{_D}{_I}]|{_S})*)|(?P<b>[{_B}](?:[{_B}{_D}{_I}]|{_S})*))?"
                  f"|(?P<l2>[{_L}](?:[{_L}{_D}{_I}]|{_S})*)|(?P<b2>[{_B}](?:[{_B}{_D}{_I}]|{_S})*)")
_FOLD_DIGITS = {_BANGLA_DIGIT_ZERO + n: str(n) for n in range(10)} | {ord(","): None}
_FOLD_DIGITS_DROP_INVISIBLE = _FOLD_DIGITS | {ord(ch): None for ch in _INVISIBLE}
_SCRIPT: dict[str | None, str] = {"l": "L", "l2": "L", "b": "B", "b2": "B"}


def fresh_tokens(text: str) -> list[Token]:
    """`tokens`, always worked out from the text (never from a prebuilt table)."""
    out: list[Token] = []
    latin_stop = -1  # where the last Latin run stopped: a Bangla run starting there is glued to it
    pos, n = 0, len(text)
    while pos < n:
        stop = text.find(ESC, pos)
        stop = n if stop < 0 else stop
        for m in _RUN.finditer(text, pos, stop):
            start, i = m.span()
            run = m.group()
            end = start + len(run.rstrip(_I))  # trailing invisibles are read, not spanned
            script = _SCRIPT.get(m.lastgroup)
            glued = script == "B" and start == latin_stop
            latin_stop = i if script == "L" else -1
            # invisibles go in every script ("fee\u00ads" is "fees"); Bangla folds them below
            raw = run.translate(_FOLD_DIGITS if script == "B" else _FOLD_DIGITS_DROP_INVISIBLE)
            surface = _fold_bangla(raw) if script == "B" else raw.lower()
            if not surface or surface in STOPWORDS or script == "B" and (
                    _case_ending(text, start, end, _fold_bangla(raw, reorder=False), glued)
                    or without_particle(surface) in STOPWORDS):
                continue  # a stopword with an emphatic particle ("আমাকেই", "আমিও") is a stopword
            term = _term(raw, script)
            if term and term not in STOPWORDS:
                out.append(Token(term, start, end))
        pos = escape_end(text, stop) if stop < n else n
    return out


def unstemmed(surface: str) -> str:
    """A token's surface text as the analyzer folds it before stemming: "কাসটমার" stays
    কাসটমার where its term is কাসটমা (a misspelt word the stemmer took for a genitive). What fuzzy
    matching tries besides the term (`retrieval.lexical`)."""
    folded = "".join(digit(ch) or ch for ch in surface)
    return _fold_bangla(folded) if has_bangla(folded) else folded.lower()


def analyze(text: str) -> list[str]:
    """The terms of `text` in order. Idempotent: analyze(" ".join(t)) == t."""
    return [t.term for t in tokens(text)]


def words(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Whitespace-separated word spans in text[start:end]."""
    return list(iter_words(text, start, end))


def iter_words(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """`words`, one span at a time: a 20 MB article has millions of words, and their spans
    as one list took twenty times the article's size."""
    end = len(text) if end is None else end
    i = start
    while i < end:
        while i < end and text[i] in WHITESPACE:
            i += 1
        if i >= end:
            break
        j = i
        while j < end and text[j] not in WHITESPACE:
            j += 1
        yield i, j
        i = j


_CLAUSE = frozenset("a an the is are was were be am i me my you your we our it its do does did can could how what when where which who whom why will would should this that there have has had".split())


def asked_lang(question: str, by_letters: str) -> str:
    """The language a question is asked in: Bangla when it has Bangla letters and none of its English words makes a clause
    (`_CLAUSE`; prepositions name things too: "cash in"), as a Bangla sentence naming things in English does ("cash out charge কত?"); else `by_letters`, its letters' majority.

    >>> asked_lang("Agent point এ cash out করলে কত percent charge কাটে?", "en"), asked_lang("How many টাকা can I send?", "en")
    ('bn', 'en')
    """
    words = re.findall("[A-Za-z]+", question)
    return "bn" if words and re.search("[\u0985-\u09b9]", question) and not any(w.lower() in _CLAUSE for w in words) else by_letters
