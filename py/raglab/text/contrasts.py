"""The halves of a contrast a question and a unit name (cash in / cash out, minimum / maximum), and
the qualifier a customer names (a personal or a merchant account, the nano loan or another loan, a
partner bank or not, money from a bank or from abroad, a loan's approval or its repayment).

Read from a reviewed table (`data/contrasts.json`) on `answertypes.cue_text`; shared by the
sentence model's features, the answerer's second quote and the confidence.
"""

from __future__ import annotations

import functools
import json
import re

from raglab.text.answertypes import both_nukta_forms, cue_text
from raglab.text.numbers import numbers
from raglab.text.tables import read_table

# The other half of a contrast. "ন্যূনতম কত টাকা ক্যাশ ইন করা যায়?" (the minimum cash in) was answered
# with "প্রতিবার ক্যাশ আউটের ন্যূনতম পরিমাণ ৫০ টাকা।" (the cash out minimum), "max recharge amount in one
# go?" with "Minimum per recharge — Amount: Tk 20". Coverage cannot see it: the English analyzer drops
# "in" as a stopword, so "cash in" and "cash out" differ by "out" alone. The pairs are a reviewed
# table (`data/contrasts.json`), matched on `cue_text`, where the stopword still stands.

_FORBIDDEN = ("\\b", "\\B", "\\s", "\\S", "\\w", "\\W", "\\d", "\\D")  # classes that differ between Pythons


def parse_contrasts(data: dict) -> tuple[tuple[re.Pattern, re.Pattern], ...]:
    """One (first half, second half) pattern pair per row of `data/contrasts.json`."""
    out = []
    for i, row in enumerate(data.get("pairs", ())):
        halves = row.get("halves", ())
        if len(halves) != 2 or not all(halves):
            raise ValueError(f"contrasts.json: pairs[{i}] must have two halves of patterns")
        compiled = []
        for half in halves:
            for p in half:
                if any(c in p for c in _FORBIDDEN):
                    raise ValueError(f"contrasts.json: pairs[{i}]: {p!r} uses a class the browser reads otherwise")
            try:
                compiled.append(re.compile(both_nukta_forms("|".join(f"(?:{p})" for p in half))))
            except re.error:
                _name_the_invalid(half, i)
                raise
        out.append((compiled[0], compiled[1]))
    return tuple(out)


def _name_the_invalid(half: list[str], i: int) -> None:
    """Each pattern of a half that failed alone, so the error names the pattern to mend, not a place in
    the joined one. Only then: compiling every pattern twice on every start cost a third of the
    answerer's pattern compiling (tests/test_contrasts.py checks each shipped pattern alone)."""
    for p in half:
        try:
            re.compile(p)
        except re.error as err:
            raise ValueError(f"contrasts.json: pairs[{i}]: {p!r} is not a valid pattern ({err.msg})") from None


def parse_unsaid(data: dict) -> tuple[tuple[int, re.Pattern | None, re.Pattern | None] | None, ...]:
    """Per row of `data/contrasts.json`, the half a unit naming neither half is about (its
    "unsaid": a help centre speaks of a personal account, of its one loan, of its partner banks
    unless it says otherwise), or None when a unit naming neither is about neither; with the
    patterns that scope it: `unsaid_within`, one of which the unit's heading must name (a partner
    bank's ATM is what an ATM section is about, not an agent's counter), and `unsaid_unless`, none
    of which the unit or its heading may name (a refund from a shop's merchant account is no
    personal account's). Only a unit stating a figure is read so (`_unsaid`)."""
    out = []
    for i, row in enumerate(data.get("pairs", ())):
        half = row.get("unsaid")
        if half not in (None, 0, 1):
            raise ValueError(f"contrasts.json: pairs[{i}]: unsaid must be 0 or 1, not {half!r}")
        scope = [_scope(row, key, i) for key in ("unsaid_within", "unsaid_unless")]
        out.append(None if half is None else (half, scope[0], scope[1]))
    return tuple(out)


def parse_within(data: dict) -> tuple[re.Pattern | None, ...]:
    """Per row of `data/contrasts.json`, its `within` patterns (None when it has none): a text
    names a half of that row only when it, or the heading read with it, names one of them too. A
    verification's status is pending or rejected; "my send money is pending" or "the payment was
    rejected" speak of a transaction, not of that status."""
    return tuple(_scope(row, "within", i) for i, row in enumerate(data.get("pairs", ())))


def _scope(row: dict, key: str, i: int) -> re.Pattern | None:
    """The patterns of a row's `key` as one, or None when the row has none."""
    for p in row.get(key, ()):
        if any(c in p for c in _FORBIDDEN):
            raise ValueError(f"contrasts.json: pairs[{i}]: {p!r} uses a class the browser reads otherwise")
    return re.compile(both_nukta_forms("|".join(f"(?:{p})" for p in row[key]))) if row.get(key) else None


@functools.lru_cache(maxsize=1)
def _table() -> dict:
    """`data/contrasts.json`, read once for its pairs, their unsaid halves and by_value marks."""
    return json.loads(read_table("contrasts.json"))


@functools.lru_cache(maxsize=1)
def unsaid_halves() -> tuple[tuple[int, re.Pattern | None, re.Pattern | None] | None, ...]:
    return parse_unsaid(_table())


def _unsaid(scoped: tuple[int, re.Pattern | None, re.Pattern | None] | None, text: str, heading: str) -> int | None:
    """The half a unit naming neither half is about, within its row's scope (`parse_unsaid`)."""
    if scoped is None:
        return None
    half, within, unless = scoped
    if not numbers(text):  # a figure is what a qualifier decides (a limit, a fee, a rate); "useful for loan applications" is none
        return None
    if within is not None and not within.search(cue_text(heading)):
        return None
    if unless is not None and (unless.search(cue_text(text)) or unless.search(cue_text(heading))):
        return None
    return half


@functools.lru_cache(maxsize=1)
def within_scopes() -> tuple[re.Pattern | None, ...]:
    return parse_within(_table())


@functools.lru_cache(maxsize=1)
def contrast_pairs() -> tuple[tuple[re.Pattern, re.Pattern], ...]:
    return parse_contrasts(_table())


@functools.lru_cache(maxsize=1)
def by_value() -> tuple[bool, ...]:
    """Per pair: whether a figure answers a half without naming it ("Tk 500, 1,000 or 2,000" states
    the minimum deposit), the rows marked "by_value" in `data/contrasts.json`."""
    return tuple(bool(row.get("by_value")) for row in _table().get("pairs", ()))


@functools.lru_cache(maxsize=50_000)
def named(text: str, context: str = "") -> tuple[tuple[bool, bool], ...]:
    """Per pair: whether `text` names its first half, and its second; neither for a pair whose
    `within` (`parse_within`) neither `text` nor `context` (a unit's heading) names.

    >>> named("My send money is pending.")[7], named("Pending", "Verification status")[7]
    ((False, False), (True, False))
    """
    cue = cue_text(text)
    around = cue_text(context) if context else ""
    out = []
    for (a, b), within in zip(contrast_pairs(), within_scopes()):
        if within is not None and not within.search(cue) and not (around and within.search(around)):
            out.append((False, False))
        else:
            out.append((bool(a.search(cue)), bool(b.search(cue))))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def asked_halves(question: str) -> tuple[tuple[int, int], ...]:
    """(pair, half) for every pair of which the question names one half and not the other (a
    question naming both, "cash in and cash out", asks for both: no half is the wrong one).

    >>> asked_halves("ন্যূনতম কত টাকা ক্যাশ ইন করা যায়?"), asked_halves("What are the cash in and cash out limits?")
    (((0, 0), (1, 0)), ())
    """
    out = []
    for i, (first, second) in enumerate(named(question)):
        if first != second:
            out.append((i, 0 if first else 1))
    return tuple(out)


@functools.lru_cache(maxsize=50_000)  # per unit text, read again for every question
def halves_of(text: str, heading: str = "") -> tuple[tuple[bool, bool], ...]:
    """Per pair: the halves a unit names. Its own words decide; when they name neither half, its
    heading speaks for it (a row "Minimum — Tk 50" under "Cash out"): what a section is about is
    what its rows and sentences that do not say so are about."""
    own = named(text, heading)
    if not heading:
        return own
    return tuple(has if has[0] or has[1] else above for has, above in zip(own, named(heading)))


def names_both_asked(question: str, halves: tuple[tuple[bool, bool], ...]) -> bool:
    """Whether a unit naming `halves` (`named`, `halves_of`) names both halves of a contrast the
    question asks both of ("You can cash in up to …, but … cash out …" for cash in and cash out)."""
    return any(a and b and x and y for (a, b), (x, y) in zip(named(question), halves))


def left_out(question: str, halves: tuple[tuple[bool, bool], ...]) -> tuple[int, int] | None:
    """(pair, half) of the first pair whose two halves the question names and of which a unit
    naming `halves` (`halves_of`) names one only: the half it leaves out.

    >>> left_out("What are the daily limits for cash in and for cash out?", halves_of("Up to Tk 25,000 a day.", "Cash out limits"))
    (0, 0)
    >>> left_out("What is the cash in limit?", halves_of("Up to Tk 25,000 a day.", "Cash out limits")) is None
    True
    """
    for i, ((a, b), (x, y)) in enumerate(zip(named(question), halves)):
        if a and b and x != y:
            return i, 1 if x else 0
    return None


def asked_place(question: str, halves: tuple[tuple[bool, bool], ...]) -> int | None:
    """For the first pair whose two halves the question names and of which a unit naming `halves`
    (`halves_of`) names one only: 0 when the question names that half first, 1 when second; None
    when there is no such pair ("the daily limits for cash in and for cash out": a cash out unit
    answers what is asked second).

    >>> asked_place("What are the daily limits for cash in and for cash out?", halves_of("Up to Tk 25,000 a day.", "Cash out limits"))
    1
    """
    cue = cue_text(question)
    for (a, b), (x, y) in zip(contrast_pairs(), halves):
        first, second = a.search(cue), b.search(cue)
        if first and second and x != y:
            return int((first.start() < second.start()) != x)
    return None


def names_another_half(best_text: str, text: str) -> bool:
    """Whether `text` names a half of a contrast (cash in / cash out, minimum / maximum) that
    `best_text` does not: "৫ বার ক্যাশ আউট" after "৫ বার ক্যাশ ইন" states another fact with the same number."""
    return any((a and not x) or (b and not y) for (a, b), (x, y) in zip(named(text), named(best_text)))


def clashes(asked: tuple[tuple[int, int], ...], text: str, heading: str = "") -> bool:
    """Whether a unit names the other half of a pair the question names one half of, and not the
    asked half. The unit's own words decide; when they name neither half, its heading speaks for
    it (a row "Minimum — Tk 50" under "Cash out"): what a section is about is what its rows and
    sentences that do not say so are about. A heading naming both halves decides nothing. When
    neither names a half, a pair's "unsaid" half (`parse_unsaid`) is the one it is about: no cash
    out limit of this help centre is a merchant account's, so a question about one gets none.

    >>> clashes(asked_halves("What is the minimum cash in?"), "The minimum cash out is Tk 50.")
    True
    >>> clashes(asked_halves("What is the cash in limit?"), "Up to Tk 25,000 a day.", "Cash out at an agent")
    True
    >>> clashes(asked_halves("What is the daily cash out limit of a merchant account?"), "Up to Tk 25,000 a day.", "Cash out limits")
    True
    """
    if not asked:
        return False
    halves, unsaid = halves_of(text, heading), unsaid_halves()
    for pair, half in asked:
        has = halves[pair]
        about = _unsaid(unsaid[pair], text, heading) if not (has[0] or has[1]) else None
        if about is not None:
            has = (about == 0, about == 1)
        if has[1 - half] and not has[half]:
            return True
    return False
