"""What the answerer hands back: the answer, its quotes and its short answers (the page and
the evaluation read these; `answerer.py` makes them), and why an answer is in another language
than its question (`AnswerLanguage`, which the pipeline works out with `language.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Quote:
    chunk: str
    doc: str
    start: int  # offsets in the document text
    end: int
    text: str  # the sentence verbatim, or a table row read with its header ("row")
    kind: str = "sentence"

    def holds(self, s: ShortAnswer) -> bool:
        """Whether short answer `s` lies in this quote (it starts inside it, in the same chunk)."""
        return s.chunk == self.chunk and self.start <= s.start < self.end


@dataclass(frozen=True)
class ShortAnswer:
    text: str
    chunk: str
    start: int  # offsets in the document text
    end: int


@dataclass(frozen=True)
class Answer:
    text: str | None
    abstained: bool
    citations: list[str]
    quotes: list[Quote] = field(default_factory=list)
    coverage: float = 0.0  # idf-weighted coverage of the question by the best unit
    confidence: float = 0.0  # calibrated probability that the shown answer states the fact
    answer_type: str = "other"
    short_answers: list[ShortAnswer] = field(default_factory=list)
    # Why an abstention is one (`answerer.WITHHELD`), None for an answer: the page and the CLI say it.
    withheld: str | None = None


def requoted(answer: Answer, quotes: list[Quote], **changes) -> Answer:
    """`answer` showing `quotes`, one per line (a table row or list item has no full stop to end it)."""
    return replace(answer, text="\n".join(x.text for x in quotes), quotes=list(quotes), **changes)


@dataclass(frozen=True)
class AnswerLanguage:
    """Why an answer is in another language than its question: every quote is from an article in
    `quoted` ("en" or "bn"), the question was asked in `asked` (its reading's language, as the
    answerer reads it: `Question.lang`; Bangla for a Banglish question, `Pipeline.answer_language`),
    and `twin` says whether the help centre has a unit in the asked language that can stand for
    the quoted one (`language.has_twin`: its twin in the asked language states the same values, or as much
    of the question), which the answerer read and found less likely."""

    asked: str
    quoted: str
    twin: bool
