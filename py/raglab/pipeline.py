"""The pipeline: one corpus, one chunker, one retriever, the answerer, and k.

It is the only entry point the CLI, the tests and the browser worker call, and
`ask` returns plain JSON-ready data so every caller sees the same result.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import asdict, dataclass

from .analyzer import analyze, tokens
from .answer import Answer, answer
from .chunking import CHUNKERS, Chunk, chunk_corpus
from .corpus import Document
from .retrieval import RETRIEVERS, Hit, build_retriever

POOL = 50  # first-stage depth kept for failure attribution
# A question is a sentence or two. Past this length `ask` refuses with a clear message
# instead of holding the browser's worker for a minute (a pasted megabyte takes ~30 s natively).
MAX_QUESTION_CHARS = 100_000


def check_question_length(question: str) -> None:
    if len(question) > MAX_QUESTION_CHARS:
        raise ValueError(f"the question is {len(question):,} characters long; the limit is "
                         f"{MAX_QUESTION_CHARS:,}. Ask about one thing at a time")


@dataclass(frozen=True)
class Config:
    """One configuration. The defaults are the served default, chosen on the dev split by
    the rule in the README ("The served default"): recursive chunks, hybrid-rerank, query
    expansion on, k = 5, and the abstention threshold `raglab compare` tuned on dev."""

    chunker: str = "recursive"
    retriever: str = "hybrid-rerank"
    k: int = 5
    expand: bool = True
    threshold: float = 0.45

    def check(self) -> "Config":
        if self.chunker not in CHUNKERS:
            raise ValueError(f"unknown chunker {self.chunker!r}; choose one of: {', '.join(CHUNKERS)}")
        if self.retriever not in RETRIEVERS:
            raise ValueError(f"unknown retriever {self.retriever!r}; choose one of: {', '.join(RETRIEVERS)}")
        if not isinstance(self.k, int) or self.k < 1:
            raise ValueError(f"k must be a whole number >= 1, got {self.k!r}")
        if not isinstance(self.threshold, (int, float)) or not 0 <= self.threshold <= 1:  # NaN fails too
            raise ValueError(f"threshold is a coverage between 0 and 1, got {self.threshold!r}")
        return self

    @property
    def label(self) -> str:
        return f"{self.chunker}+{self.retriever}" + ("+exp" if self.expand else "")


class Pipeline:
    def __init__(self, docs: list[Document], config: Config = Config()):
        self.config = config.check()
        self.docs = {d.id: d for d in docs}
        self.chunks: list[Chunk] = chunk_corpus(docs, config.chunker)
        self.by_id = {c.id: c for c in self.chunks}
        self.retriever = build_retriever(config.retriever, self.chunks)

    def with_config(self, config: Config) -> "Pipeline":
        """This pipeline with another k, threshold or expansion setting, sharing its index.

        The chunks and the retriever depend only on the chunker and the retriever name,
        so `raglab compare` builds them once and reuses them for every other setting.
        """
        if (config.chunker, config.retriever) != (self.config.chunker, self.config.retriever):
            raise ValueError("with_config keeps the chunker and the retriever; build a new Pipeline to change them")
        other = copy.copy(self)
        other.config = config.check()
        return other

    def query_text(self, question: str) -> str:
        if self.config.expand:
            from .expansion import expand

            return expand(question)
        return question

    def search(self, question: str, n: int | None = None) -> list[Hit]:
        """Ranked hits for a question (expanded when the config says so)."""
        return self.retriever.search(self.query_text(question), n or self.config.k)

    def aliases(self, question: str) -> dict:
        """With expansion on, the question's terms also count as found through their aliases."""
        if not self.config.expand:
            return {}
        from .expansion import aliases as expansion_aliases

        return expansion_aliases(question)

    def answer(self, question: str, chunks: list[Chunk], threshold: float, scores: list[float] | None = None) -> Answer:
        """The answerer on already retrieved chunks (with their retrieval scores when known)."""
        return answer(analyze(question), chunks, self.retriever.idf, threshold=threshold,
                      aliases=self.aliases(question), question=question, scores=scores)

    def ask(self, question: str) -> dict:
        """The JSON-ready result of one question: answer, citations and top-k chunks."""
        question = question if isinstance(question, str) else str(question)
        check_question_length(question)
        hits = self.search(question) if question.strip() else []
        top = [self.chunks[h.index] for h in hits]
        terms = analyze(question)
        result = self.answer(question, top, self.config.threshold, [h.score for h in hits])
        shorts = [asdict(s) for s in result.short_answers]
        return {
            "question": question,
            "answer": result.text,
            "short_answer": shorts[0] if shorts else None,
            "short_answers": shorts,
            "answer_type": result.answer_type,
            "confidence": result.confidence,
            "abstained": result.abstained,
            "citations": result.citations,
            "coverage": result.coverage,
            "quotes": [asdict(q) for q in result.quotes],
            "terms": sorted(set(terms)),
            "config": asdict(self.config),
            "chunks": [
                {
                    "rank": rank,
                    "id": c.id,
                    "doc": c.doc,
                    "start": c.start,
                    "end": c.end,
                    "score": h.score,
                    "title": self.docs[c.doc].title,
                    "heading": list(c.heading),
                    "text": c.text,
                    "matches": match_spans(c.text, set(terms)),
                }
                for rank, (h, c) in enumerate(zip(hits, top), 1)
            ],
        }


def match_spans(text: str, terms: set[str]) -> list[list[int]]:
    """[start, end] offsets in `text` of tokens whose term is one of `terms` (for highlighting)."""
    return [[t.start, t.end] for t in _tokens(text) if t.term in terms]


@functools.lru_cache(maxsize=50_000)
def _tokens(text: str) -> tuple:
    return tuple(tokens(text))
