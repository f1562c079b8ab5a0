"""What the answerer can quote: the article's whole sentences, list items and table rows.

A chunk only says where to look. Whatever the chunker cut, the answerer quotes units of
the *article*: a sentence as `splitter.sentences` delimits it (without its list marker),
or a table row. So a fixed window that starts in the middle of a sentence still yields
the whole sentence, with its offsets in the article text.

A table row is never quoted as `| … |`: it is read with its table's header, as

    Shapla Pay agent — Fee: 1.85%

(the row's first cell, then each other cell after its column's name). In a table of three
columns or more every cell is a unit of its own (the row's first cell, its column's name
and the cell), so a question about the daily limit is answered by the daily-limit cell of
the fees table, not by the whole row; two cells of one row that are both chosen are
quoted together. A row's quote span is the whole row; `focus` is the cell it is about.

Sentences never cross a line (`splitter.sentences` ends one at every line end), so the
units around a chunk come from the lines the chunk touches. A line longer than
`WINDOW` code points (a 20 MB article without line breaks) is read only near the chunk:
its piece there is a unit of its own, as a quote of it would be cut at
`limits.MAX_ANSWER_CHARS` anyway.

>>> text = "# Fees\\n\\n| Where | Fee |\\n|---|---|\\n| Agent | 1.85% |\\n\\nThe fee is 1.85%. It is taken at once."
>>> [u.text for u in units_around(text, 30, len(text))]
['Agent — Fee: 1.85%', 'The fee is 1.85%.', 'It is taken at once.']
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from raglab.text.analyzer import WHITESPACE, analyze
from raglab.text.limits import MAX_ANSWER_CHARS, cut_at_word
from raglab.text.splitter import quote_span, sentences

WINDOW = 4 * MAX_ANSWER_CHARS  # how far a unit may reach outside its chunk on one line
MAX_TABLE_LINES = 400  # how far back a row looks for its table's header
DASH = " — "


@dataclass(frozen=True)
class Unit:
    start: int  # the quote's span in the article text
    end: int
    text: str  # what is quoted: the sentence verbatim, or a row read with its header
    kind: str  # "sentence", "item" (a list item's first sentence), "row" (a table row or cell)
    focus_start: int  # the span the unit is about: a cell of a row, else the unit itself
    focus_end: int
    block: int  # start of its paragraph, list or table (units of one block are neighbours)
    lead: str  # the sentence that introduces its list or table ("For the limits, see:"), or ""
    row_key: str = ""  # a row's first cell (two cells of one row are quoted together)
    cell: str = ""  # "column name: cell" of a cell unit


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    a = text.rfind("\n", 0, pos) + 1
    b = text.find("\n", pos)
    return a, (len(text) if b < 0 else b)


def _cells(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """(start, end) of each cell of the table row text[a:b], trimmed of spaces."""
    out = []
    s = a
    while s < b and text[s] in WHITESPACE:
        s += 1
    if s < b and text[s] == "|":
        s += 1
    i = s
    while i <= b:
        if i == b or (text[i] == "|" and text[i - 1] != "\\"):
            cs, ce = s, i
            while cs < ce and text[cs] in WHITESPACE:
                cs += 1
            while ce > cs and text[ce - 1] in WHITESPACE:
                ce -= 1
            out.append((cs, ce))
            s = i + 1
        i += 1
    if out and out[-1][0] == out[-1][1]:  # the closing "|"
        out.pop()
    return out


def _is_rule(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and "-" in stripped and all(ch in "|-: " for ch in stripped)


def _is_row(line: str) -> bool:
    return line.lstrip(" ").startswith("|")


def _table_start(text: str, a: int) -> int:
    """Start of the first line of the table whose row starts at `a`."""
    start = a
    for _ in range(MAX_TABLE_LINES):
        if start == 0:
            break
        prev = text.rfind("\n", 0, start - 1) + 1
        if not _is_row(text[prev:start - 1]):
            break
        start = prev
    return start


def _lead(text: str, block: int) -> str:
    """The non-heading line right before a block (across one blank line), cut to the limit."""
    end = block - 1
    while end > 0 and text[end - 1] in "\n \t":
        end -= 1
    if end <= 0:
        return ""
    a = text.rfind("\n", 0, end) + 1
    line = text[a:end]
    if line.startswith("#") or _is_row(line) or _is_rule(line):
        return ""
    spans = sentences(text, max(a, end - WINDOW), end)
    if not spans:
        return ""
    s, e = quote_span(text, *spans[-1])
    return cut_at_word(text[s:e], MAX_ANSWER_CHARS)


def _row_units(text: str, a: int, b: int) -> list[Unit]:
    table = _table_start(text, a)
    first_end = text.find("\n", table)
    first_end = len(text) if first_end < 0 else first_end
    second_end = text.find("\n", first_end + 1) if first_end < len(text) else -1
    second = text[first_end + 1:(len(text) if second_end < 0 else second_end)] if first_end < len(text) else ""
    has_header = _is_rule(second)
    if has_header and table == a:
        return []  # the header row itself is no answer
    cells = _cells(text, a, b)
    if not cells:
        return []
    header = [text[s:e] for s, e in _cells(text, table, first_end)] if has_header else []
    values = [text[s:e] for s, e in cells]
    label = _named_label(values[0], header[0] if header else "")
    lead = _lead(text, table)
    s, e = quote_span(text, a, b)
    if len(values) >= 3 and len(header) == len(values):
        out = []
        for j in range(1, len(values)):
            if values[j]:
                cell = f"{header[j]}: {values[j]}" if header[j] else values[j]
                body = f"{label}{DASH}{cell}" if values[0] else cell
                out.append(Unit(s, e, cut_at_word(body, MAX_ANSWER_CHARS), "row", cells[j][0], cells[j][1], table,
                                lead, values[0], cell))
        return out
    if len(header) == len(values) and len(values) == 2:
        rest = f"{header[1]}: {values[1]}" if header[1] else values[1]
        pieces = [label, rest] if values[0] else [rest]
    else:
        pieces = [v for v in values if v]
    body = _whole_cells(pieces, DASH)
    if not body:
        return []
    return [Unit(s, e, body, "row", s, e, table, lead, values[0])]


def _named_label(first: str, name: str) -> str:
    """A row's first cell as its quote opens: with its column's name when the cell is a bare
    number ("Points: 500 — Wallet balance: Tk 50"; "500" alone does not say 500 of what).

    >>> _named_label("500", "Points"), _named_label("Agent", "Where"), _named_label("১,০০০", "")
    ('Points: 500', 'Agent', '১,০০০')
    """
    bare = first != "" and all(ch in ",. " or "0" <= ch <= "9" or "\u09e6" <= ch <= "\u09ef" for ch in first)
    return f"{name}: {first}" if bare and name else first


def _whole_cells(pieces: list[str], sep: str) -> str:
    """The pieces joined by `sep`, as many whole ones as fit in MAX_ANSWER_CHARS (a row of
    12,000 cells is quoted up to its last whole cell within the limit; a single giant cell
    is cut at a word)."""
    if not pieces:
        return ""
    out = pieces[0] if len(pieces[0]) <= MAX_ANSWER_CHARS else cut_at_word(pieces[0], MAX_ANSWER_CHARS)
    for p in pieces[1:]:
        if len(out) + len(sep) + len(p) > MAX_ANSWER_CHARS:
            break
        out += sep + p
    return out


def _is_item(text: str, s: int) -> bool:
    return text[s] in "-*" or "0" <= text[s] <= "9" or "\u09e6" <= text[s] <= "\u09ef"


def _block_start(text: str, a: int, kind: str) -> int:
    """Start of the paragraph, list or table holding the line at `a` (bounded walk back)."""
    start = a
    for _ in range(MAX_TABLE_LINES):
        if start == 0:
            break
        prev = text.rfind("\n", 0, start - 1) + 1
        line = text[prev:start - 1]
        if not line.strip() or line.startswith("#") or _is_row(line):
            break
        if (kind == "item") != _is_item(line.lstrip(" "), 0):
            break
        start = prev
    return start


def _line_units(text: str, a: int, b: int, cut_a: bool, cut_b: bool) -> list[Unit]:
    """The sentences of the line text[a:b] (a piece of it when cut_a / cut_b)."""
    if text.startswith("#", a) or _is_rule(text[a:b]):
        return []
    if not cut_a and _is_row(text[a:b]):
        return _row_units(text, a, b)
    first = a
    while first < b and text[first] in WHITESPACE:
        first += 1
    item = not cut_a and first < b and _is_item(text, first) and quote_span(text, first, b)[0] > first
    block = _block_start(text, a, "item" if item else "sentence") if not cut_a else a
    lead = _lead(text, block) if item else ""
    out = []
    body = quote_span(text, first, b)[0] if item else a  # after the list marker ("1. " is no sentence)
    for n, (s, e) in enumerate(sentences(text, body, b)):
        qs, qe = quote_span(text, s, e)
        if qs >= qe:
            continue
        quoted = cut_at_word(text[qs:qe], MAX_ANSWER_CHARS)
        qe = qs + len(quoted)
        kind = "item" if item and n == 0 else "sentence"
        out.append(Unit(qs, qe, quoted, kind, qs, qe, block, lead))
    return out


@functools.lru_cache(maxsize=50_000)
def units_around(text: str, start: int, end: int) -> tuple[Unit, ...]:
    """Every unit of the lines that text[start:end] touches, in article order.

    Cached: a chunk's units are worked out once, not once per question (`text` is the
    article's text; CPython keeps a string's hash, so the key costs nothing per call).
    """
    out: list[Unit] = []
    pos = start
    while pos < end or (pos == start == end):
        a, b = _line_bounds(text, pos)
        cut_a = start - a > WINDOW
        cut_b = b - end > WINDOW
        ra = start if cut_a else a
        rb = end if cut_b else b
        if cut_a:  # start the piece at a word boundary inside the chunk
            while ra < rb and text[ra] not in WHITESPACE and ra > a and text[ra - 1] not in WHITESPACE:
                ra += 1
        out.extend(u for u in _line_units(text, ra, rb, cut_a, cut_b) if u.start < u.end)  # never an empty unit ('|#')
        if b >= end:
            break
        pos = b + 1
    return tuple(out)


# Words that point at what comes next ("the following", "নিচের শর্তগুলো", "কয়েকটি বিষয়"), as the
# analyzer folds them: a sentence with one that ends its line right before a list announces that
# list even when it ends in a full stop or a danda, as Bangla announcing sentences usually do
# ("ব্যক্তিগত অ্যাকাউন্ট খোলার জন্য নিচের শর্তগুলো পূরণ করতে হবে।").
POINTERS = frozenset(analyze("following below নিচে নীচে নিম্নলিখিত নিম্নোক্ত নিম্নরূপ কয়েকটি"))


def introduces(unit: Unit) -> bool:
    """Whether a unit announces what follows: it ends in ":" ("To open a merchant account, you
    need:"); such a unit is never quoted without its list."""
    return unit.kind != "row" and unit.text.rstrip().endswith(":")


def may_introduce(unit: Unit, terms: frozenset[str] | None = None) -> bool:
    """Whether a unit may announce a list that follows it: it ends in ":", or it names what
    follows (`POINTERS`: "নিচের শর্তগুলো পূরণ করতে হবে।"). For the second kind only a list or
    table right after it makes it an announcement (`introduced`); without one it is a sentence.
    `terms`: the unit's analysed terms when the caller has them (the answerer does), so that the
    text is not analysed again."""
    if unit.kind == "row":
        return False
    return introduces(unit) or not POINTERS.isdisjoint(analyze(unit.text) if terms is None else terms)


def introduced(text: str, end: int) -> tuple[Unit, ...]:
    """The units of the list or table right after the line that ends at or after `end` (across
    blank lines): what a sentence ending in ":" (or naming what follows) announces. () when the
    next block is neither.

    >>> text = "To open one, you need:\\n\\n- a trade licence;\\n- the owner's NID.\\n\\nThen apply."
    >>> [u.text for u in introduced(text, text.index(":") + 1)]
    ['a trade licence;', "the owner's NID."]
    """
    a, b = _line_bounds(text, end)
    if text[end:b].strip():
        return ()
    pos = b + 1
    while pos < len(text):
        a, b = _line_bounds(text, pos)
        if text[a:b].strip():
            break
        pos = b + 1
    if pos >= len(text):
        return ()
    first = text[a:b].lstrip(" ")
    kind = "row" if _is_row(first) else "item" if _is_item(first, 0) and quote_span(first, 0, len(first))[0] > 0 else ""
    if not kind:
        return ()
    start, stop = a, b
    for _ in range(MAX_TABLE_LINES):
        if stop >= len(text):
            break
        na, nb = _line_bounds(text, stop + 1)
        line = text[na:nb].lstrip(" ")
        if not line.strip() or not (_is_row(line) if kind == "row" else _is_item(line, 0)):
            break
        stop = nb
    return units_around(text, start, stop)


def overlapping(units, start: int, end: int) -> list[Unit]:
    """The units that share at least one character with text[start:end]."""
    return [u for u in units if u.start < end and start < u.end]
