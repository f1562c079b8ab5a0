"""Fuzzy matching: the index words closest to a word the index does not know.

Customers misspell: "agnet" for agent, "ভূল" for ভুল, "সংখার" for সংখ্যার, "ক্যাস" for
ক্যাশ. An exact-match index finds nothing for such a word. `Fuzzy(vocabulary)` answers
`closest(word)`: the vocabulary's words within a small edit distance, nearest first, so a
retriever can search for them instead, weighted below an exact match (Lucene's fuzzy
query and SymSpell do the same).

    >>> f = Fuzzy(["agent", "account", "cash", "ভুল", "সংখ্যা"])
    >>> f.closest("agnet")
    [('agent', 1.0)]
    >>> f.closest("ভূল")
    [('ভুল', 0.5)]
    >>> f.closest("agent")
    [('agent', 0.0)]
    >>> f.closest("zebra")
    []

**Distance.** Optimal string alignment (Levenshtein plus the swap of two neighbours) over
code points, each edit costing 1, except the slips a Bangla typist makes without noticing,
which cost 0.5:

- a short vowel for its long pair (ি ী, ু ূ, ই ঈ, উ ঊ);
- one sibilant for another (স শ ষ), ন for ণ, জ for য, র for ড়;
- a hasanta (্) or chandrabindu (ঁ) typed or left out, and a whole ya-phala (্য),
  ra-phala (্র) or reph (র্) left out or added ("সংখা" for সংখ্যা);
- the two spellings of the vowel of English "cash" in loanwords, ্যা for ে and অ্যা
  for এ ("একাউন্ট" for অ্যাকাউন্ট, "কেশ" for ক্যাশ).

Before comparing, a pre-base vowel sign (ি ে ৈ) typed before its consonant (the visual
order some keyboards produce: "েকাথায়") is moved after it, as the analyzer does, and ে + া
and ে + ৗ are composed into ো and ৌ, as NFC composes them when they are typed in order.

**How far.** A word of fewer than three code points is never matched fuzzily (too many
neighbours), nor one of more than `MAX_LENGTH` (pasted junk); up to `SHORT` code points
(7 in Latin script, 6 in Bangla, whose vowel signs are code points of their own) the
distance is at most 1; longer words allow 2. Numbers never match fuzzily (25000 is not
2500). And a word only ever matches a vocabulary word that begins with the same letter, up
to the cheap slips (`first_letter`; Lucene's fuzzy query calls this a prefix length of 1):
typists rarely get the first letter wrong, while a correctly spelt word the vocabulary
lacks is often a rhyme of one it holds ("exchange" is not *change*, "brother" not *other*,
হাজার not বাজার). Both limits keep correct words alone without costing a misspelling of
the golden set's typo questions (`bench/fuzzy_probe.py`).

**Finding candidates fast** (SymSpell's symmetric deletes). Every vocabulary word is
reduced to a *loose key*, in which every cheap slip vanishes (one letter stands for each
class above, অ for এ; hasanta, chandrabindu, the letters য জ র ড় and the vowel signs
া ে are dropped), and every string
obtained from a loose key by deleting up to two code points is stored with the words it
came from. A full-cost edit changes a loose key by at most one edit and a cheap one not at
all, so a word within distance d of the query has a loose key within int(d) edits of the
query's, and two such keys share a delete of that depth: looking up the query's own
deletes finds every word within the allowed distance, and only those few candidates are
measured exactly. Keys longer than `PREFIX` code points are indexed by their prefix
(deletes of long words would fill memory); the exact distance decides in the end, and a
test compares the whole against brute force.

Results are ordered by distance, then words the query is with code points left out
before the others (the commonest slip: "wat" is *what* or *want* before it is *way*), then
by the length of the prefix the word shares with the query (up to the cheap slips: typists
rarely get the start of a word wrong, so "acount" prefers account to amount), then by the
word's count in the vocabulary (when a mapping gives one; the more common word first), then
by the word itself: the same order on every platform.
Pure standard library, and no floating-point sums.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from raglab.text.analyzer import prebase_after

HASANTA = "\u09cd"
CHANDRABINDU = "\u0981"
E_KAR = "\u09c7"
AA_KAR, AU_LENGTH = "\u09be", "\u09d7"
O_KAR, AU_KAR = "\u09cb", "\u09cc"

_YA_AA = HASANTA + "\u09af" + AA_KAR  # ্যা
_A_YA_AA = "\u0985" + _YA_AA  # অ্যা

# Classes of letters typed for one another; within a class a substitution costs half.
_CLASSES = ("িী", "ুূ", "ইঈ", "উঊ", "সশষ", "নণ", "জয", "র\u09dc")
_CLASS_OF = {ch: cls[0] for cls in _CLASSES for ch in cls}
# Typed or left out at half the cost: single signs.
_CHEAP_INDEL = frozenset((HASANTA, CHANDRABINDU))
# Longer pieces typed for one another at half the cost ("" is a piece left out), both ways.
_CHEAP_SWAPS = ((HASANTA + "য", ""), (HASANTA + "র", ""), ("র" + HASANTA, ""),
                (_YA_AA, E_KAR), (_A_YA_AA, "\u098f"))
_PARTNERS: dict[str, list[str]] = {}
for _x, _y in _CHEAP_SWAPS:
    _PARTNERS.setdefault(_x, []).append(_y)
    _PARTNERS.setdefault(_y, []).append(_x)
_PIECES = tuple(sorted(p for p in _PARTNERS if p))
_LONGEST_PIECE = max(len(p) for p in _PIECES)
# Dropped from loose keys, or folded as below, so that no cheap slip changes a loose key.
_LOOSE_DROP = _CHEAP_INDEL | frozenset("যজর\u09dc" + AA_KAR + E_KAR)
_LOOSE_FOLD = {"\u098f": "\u0985"}

PREFIX = 10  # code points of a loose key that are indexed by their deletes
MAX_LENGTH = 40  # longer "words" (pasted junk, a URL) are never matched fuzzily
SHORT = {"L": 7, "B": 6}  # up to this many code points, at most one edit
MIN_LENGTH = 3  # shorter words are only ever matched exactly

# Distances are counted internally in half units (integers), so no float is ever added.
_HALF, _ONE = 1, 2


def script(word: str) -> str:
    """"B" for a word in Bangla script, "L" for any other (Latin) word."""
    return "B" if word and "\u0980" <= word[0] <= "\u09ff" else "L"


def key(word: str) -> str:
    """The word as it is compared: pre-base vowel signs typed first moved after their
    consonant (`analyzer.prebase_after`, which the analyzer's terms have had already), and
    ে + া / ে + ৗ composed into ো / ৌ.

    >>> key("েকাথায়") == "কোথায়"
    True
    """
    if script(word) == "L":
        return word
    return prebase_after(word).replace(E_KAR + AA_KAR, O_KAR).replace(E_KAR + AU_LENGTH, AU_KAR)


def loose(word_key: str) -> str:
    """The key with the cheap confusions folded away (used only to find candidates)."""
    out = []
    for ch in word_key:
        if ch not in _LOOSE_DROP:
            ch = _CLASS_OF.get(ch, ch)
            out.append(_LOOSE_FOLD.get(ch, ch))
    return "".join(out)


def first_letter(word_key: str) -> str:
    """The first letter of a key up to the cheap slips (one letter for each class, অ for এ):
    a word only matches vocabulary words with the same one.

    >>> first_letter(key("একাউন্ট")) == first_letter(key("অ্যাকাউন্ট"))
    True
    """
    ch = _CLASS_OF.get(word_key[:1], word_key[:1])
    return _LOOSE_FOLD.get(ch, ch)


def max_distance(word: str) -> float:
    """How far a misspelling of `word` may be from the word meant (see the module docstring)."""
    k = key(word)
    if not MIN_LENGTH <= len(k) <= MAX_LENGTH or any("0" <= ch <= "9" for ch in k):
        return 0.0
    return 1.0 if len(k) <= SHORT[script(k)] else 2.0


def _sub_cost(a: str, b: str) -> int:
    if a == b:
        return 0
    ca = _CLASS_OF.get(a)
    return _HALF if ca is not None and ca == _CLASS_OF.get(b) else _ONE


def _indel_cost(ch: str) -> int:
    return _HALF if ch in _CHEAP_INDEL else _ONE


def _pieces_ending(text: str) -> list[list[str]]:
    """For each prefix length i of `text`, the cheap pieces that text[:i] ends with."""
    out: list[list[str]] = [[] for _ in range(len(text) + 1)]
    for i in range(1, len(text) + 1):
        for piece in _PIECES:
            if text.endswith(piece, 0, i):
                out[i].append(piece)
    return out


def _within(a: str, b: str, depth: int) -> bool:
    """Whether the plain optimal-string-alignment distance of two loose keys is at most
    `depth` (every edit costing 1), with an early exit: a fast necessary condition."""
    n, m = len(a), len(b)
    if abs(n - m) > depth:
        return False
    prev2: list[int] = []
    prev = list(range(m + 1))
    for i in range(1, n + 1):
        ai = a[i - 1]
        cur = [i] + [0] * m
        best = i
        for j in range(1, m + 1):
            v = prev[j - 1] + (ai != b[j - 1])
            if prev[j] + 1 < v:
                v = prev[j] + 1
            if cur[j - 1] + 1 < v:
                v = cur[j - 1] + 1
            if i > 1 and j > 1 and ai == b[j - 2] and a[i - 2] == b[j - 1] and prev2[j - 2] + 1 < v:
                v = prev2[j - 2] + 1
            cur[j] = v
            if v < best:
                best = v
        if best > depth:
            return False
        prev2, prev = prev, cur
    return prev[m] <= depth


def _half_units(a: str, b: str, limit: int) -> int:
    """Weighted optimal-string-alignment distance of two keys in half units, or more than
    `limit` as soon as it is certain to exceed `limit`."""
    if a == b:
        return 0
    n, m = len(a), len(b)
    ends_a, ends_b = _pieces_ending(a), _pieces_ending(b)
    rows: list[list[int]] = []
    row_min: list[int] = []
    for i in range(n + 1):
        cur = [0] * (m + 1)
        ai = a[i - 1] if i else ""
        for j in range(m + 1):
            if i == 0 and j == 0:
                continue
            bj = b[j - 1] if j else ""
            v = 1 << 30
            if i:
                v = rows[i - 1][j] + _indel_cost(ai)
            if j and cur[j - 1] + _indel_cost(bj) < v:
                v = cur[j - 1] + _indel_cost(bj)
            if i and j:
                t = rows[i - 1][j - 1] + _sub_cost(ai, bj)
                if t < v:
                    v = t
                if i > 1 and j > 1 and ai == b[j - 2] and a[i - 2] == bj and ai != bj and rows[i - 2][j - 2] + _ONE < v:
                    v = rows[i - 2][j - 2] + _ONE
            for x in ends_a[i]:  # a piece of a typed for a piece of b, or left out
                for y in _PARTNERS[x]:
                    if y == "" or y in ends_b[j]:
                        t = rows[i - len(x)][j - len(y)] + _HALF
                        if t < v:
                            v = t
            for y in ends_b[j]:  # a piece of b missing from a
                if "" in _PARTNERS[y]:
                    t = cur[j - len(y)] + _HALF
                    if t < v:
                        v = t
            cur[j] = v
        rows.append(cur)
        row_min.append(min(cur))
        if i >= _LONGEST_PIECE and min(row_min[-_LONGEST_PIECE:]) > limit:
            return limit + 1  # no edit can reach back further than the longest piece
    return rows[n][m]


def distance(a: str, b: str) -> float:
    """The weighted edit distance of two words (see the module docstring).

    >>> distance("সংখার", "সংখ্যার")
    0.5
    >>> distance("pin", "pni")
    1.0
    """
    ka, kb = key(a), key(b)
    return _half_units(ka, kb, 2 * (len(ka) + len(kb))) / 2


def _deletes(text: str, depth: int) -> set[str]:
    """`text` and every string made from it by deleting up to `depth` (at most 2) code points."""
    n = len(text)
    out = {text}
    if depth >= 1:
        out.update([text[:i] + text[i + 1:] for i in range(n)])
    if depth >= 2:
        out.update([text[:i] + text[i + 1:j] + text[j + 1:] for i in range(n) for j in range(i + 1, n)])
    return out


def left_out(typed: str, word: str) -> bool:
    """Whether `typed` is `word` with code points left out (in order, none changed)."""
    if len(typed) >= len(word):
        return False
    i = 0
    for ch in word:
        if i < len(typed) and typed[i] == ch:
            i += 1
    return i == len(typed)


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


class Fuzzy:
    """The closest vocabulary words to a word the vocabulary lacks (see the module docstring).

    `vocabulary` is an iterable of words, or a mapping of word to count (document
    frequency, say), which orders words at equal distance. The deletes index is built
    once, at construction.
    """

    def __init__(self, vocabulary: Iterable[str] | Mapping[str, int]):
        counts = dict(vocabulary) if isinstance(vocabulary, Mapping) else {w: 0 for w in vocabulary}
        self.counts: dict[str, int] = counts
        self.words = sorted(counts)
        self._keys = [key(w) for w in self.words]
        self._first = [first_letter(k) for k in self._keys]
        self._loose = [loose(k) for k in self._keys]
        self._by_loose: dict[str, list[int]] = {}  # loose key -> word indices (for `segment`)
        index: dict[str, list[int]] = {}
        for n, (w, k) in enumerate(zip(self.words, self._keys)):
            if any("0" <= ch <= "9" for ch in k):
                continue  # numbers only ever match exactly
            lk = self._loose[n]
            self._by_loose.setdefault(lk, []).append(n)
            for d in _deletes(lk[:PREFIX], 2):  # each list stays in word order
                index.setdefault(d, []).append(n)
        self._index = index
        # closest() is a pure function of the word, and evaluation asks the same misspelt or
        # unknown words over and over (every question, every configuration): remember them.
        self._memo: dict[tuple[str, float | None], list[tuple[str, float]]] = {}
        self._splits: dict[str, list[tuple[tuple[str, str], float]]] = {}  # the same for `segment`

    def __contains__(self, word: str) -> bool:
        return word in self.counts

    def __len__(self) -> int:
        return len(self.words)

    def closest(self, word: str, max_dist: float | None = None) -> list[tuple[str, float]]:
        """Vocabulary words within the allowed distance of `word`, nearest first, as
        (word, distance). A word of the vocabulary gives itself at distance 0 alone.
        `max_dist` lowers the allowance of `max_distance(word)` (it never raises it)."""
        if word in self.counts:
            return [(word, 0.0)]
        memo = self._memo.get((word, max_dist))
        if memo is None:
            memo = self._closest(word, max_dist)
            if len(self._memo) < _MEMO_SIZE:
                self._memo[(word, max_dist)] = memo
        return list(memo)

    def _closest(self, word: str, max_dist: float | None) -> list[tuple[str, float]]:
        allowed = max_distance(word)
        if max_dist is not None and max_dist < allowed:
            allowed = max_dist
        if allowed <= 0:
            return []
        limit = int(allowed * 2)
        k = key(word)
        lk = loose(k)
        first = first_letter(k)
        depth = int(allowed)  # every cheap slip vanishes in the loose key
        seen: set[int] = set()
        found = []
        for d in _deletes(lk[:PREFIX], depth):
            for n in self._index.get(d, ()):
                if n in seen:
                    continue
                seen.add(n)
                if self._first[n] != first:
                    continue
                other = self._keys[n]
                # Quick bounds: a half-cost edit changes a key's length by at most the longest
                # piece, and every full-cost edit is at most one edit of the loose key.
                if -(-abs(len(other) - len(k)) // _LONGEST_PIECE) * _HALF > limit:
                    continue
                if not _within(lk, self._loose[n], depth):
                    continue
                units = _half_units(k, other, limit)
                if units <= limit:
                    w = self.words[n]
                    found.append((units, not left_out(k, other), -_common_prefix(lk, loose(other)), -self.counts[w], w))
        found.sort()
        return [(w, units / 2) for units, _, _, _, w in found]

    def segment(self, word: str) -> list[tuple[tuple[str, str], float]]:
        """Two vocabulary words run together ("cashout", "ক্যাসআউট"): the splits of `word`
        whose halves are vocabulary words up to the cheap confusions (each at least
        `MIN_LENGTH` code points), with their summed distance plus 0.5 for the missing
        space, best first."""
        memo = self._splits.get(word)
        if memo is None:
            memo = self._segment(word)
            if len(self._splits) < _MEMO_SIZE:
                self._splits[word] = memo
        return list(memo)

    def _segment(self, word: str) -> list[tuple[tuple[str, str], float]]:
        k = key(word)
        out: list[tuple[int, str, str]] = []
        if len(k) > MAX_LENGTH or any("0" <= ch <= "9" for ch in k):
            return []  # numbers only ever match exactly; no word is that long
        for i in range(MIN_LENGTH, len(k) - MIN_LENGTH + 1):
            left, right = k[:i], k[i:]
            if right[0] in _NOT_WORD_START:
                continue
            for a in self._by_loose.get(loose(left), ()):
                for b in self._by_loose.get(loose(right), ()):
                    units = _HALF + _half_units(left, self._keys[a], 99) + _half_units(right, self._keys[b], 99)
                    out.append((units, self.words[a], self.words[b]))
        out.sort()
        return [((a, b), units / 2) for units, a, b in out]


_MEMO_SIZE = 20_000  # distinct words remembered per vocabulary (a bound on memory, not a tuning knob)

# A Bangla word cannot start with a vowel sign, a hasanta or another combining sign.
_NOT_WORD_START = frozenset(chr(c) for c in range(0x0981, 0x0984)) | frozenset(
    chr(c) for c in range(0x09bc, 0x09d8) if c not in (0x09ce,)) | frozenset("\u09e2\u09e3")
