"""Ranking primitives shared by every retriever, and the query they rank for.

A leaf module: it imports nothing of ours but the analyzer and the limits, so every
retriever can import from here and the registry in `retrieval` can import every retriever.

Ranking uses scores rounded to 12 significant digits and breaks ties by chunk
order, so a last-bit difference in `math.log` between platforms cannot reorder
results.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from raglab.text.analyzer import has_bangla

# A query term found only in a chunk's heading path counts this much of a term found in
# its text (the reranker's term coverage).
HEADING_WEIGHT = 0.5


@dataclass(frozen=True)
class Query:
    """What a retriever searches for, built once per question by `Pipeline.query`.

    `text` is the customer's own text, untouched; `expansion` holds the help-centre
    phrases query expansion added (empty with expansion off); `lang` is "bn" when the
    text has any Bangla letter, else "en"; `expanded` says expansion was on, even when it
    added nothing (an English question that already says "PIN" still has the table's
    Bangla wording for `bilingual` to read). Keeping the two parts apart lets `hybrid`
    and the reranker weigh the customer's words above the added ones, and a question
    that happens to contain "(+ …)" is just text.
    """

    text: str
    expansion: tuple[str, ...] = ()
    lang: str = "en"
    expanded: bool = False

    @classmethod
    def plain(cls, text: str) -> "Query":
        """The query for `text` with no expansion."""
        return cls(text, (), "bn" if has_bangla(text) else "en")

    @property
    def extra(self) -> str:
        """The expansion phrases as one text ("" when there are none)."""
        return " ".join(self.expansion)

    @property
    def full(self) -> str:
        """The customer's text followed by the expansion phrases: what a retriever that
        does not tell the two apart indexes the query as."""
        return self.text if not self.expansion else self.text + " " + self.extra


@dataclass(frozen=True)
class Hit:
    index: int  # position of the chunk in the chunk list
    score: float  # already rounded with `rounded`


def rounded(score: float) -> float:
    return float(f"{score:.12g}")


# Below this many scores per hit asked for, every score is rounded: the pre-filter in `top_n`
# would cost about what it saves.
_PREFILTER_RATIO = 4


def top_n(scores: dict[int, float], n: int) -> list[Hit]:
    """The n best hits by rounded score, ties broken by chunk order."""
    if n > 0 and len(scores) > _PREFILTER_RATIO * n:
        # Rounding to 12 significant digits never swaps two scores, it can only make them
        # equal, and moves a score by less than 1e-11 of itself. So only scores within that of
        # the n-th best raw score can tie with it or beat it once rounded: rounding the rest
        # (most of them, with thousands of chunks) cannot change the result. The margin is 100
        # times the largest move.
        nth = heapq.nlargest(n, scores.values())[-1]
        if math.isfinite(nth):
            floor = nth - abs(nth) * 1e-9
            scores = {i: s for i, s in scores.items() if s >= floor}
    keyed = [(-rounded(s), i) for i, s in scores.items()]
    return [Hit(i, -neg) for neg, i in heapq.nsmallest(n, keyed)]
