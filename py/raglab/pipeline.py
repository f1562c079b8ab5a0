"""The pipeline: one corpus, one chunker, one retriever, the answerer, and k.

It is the only entry point the CLI, the tests and the browser worker call. `ask`
returns a typed `AskResult`; `schema.ask_json` turns it into the JSON both the CLI
and the browser print, so every caller sees the same result.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Iterator

from raglab.corpus.articles import Document
from raglab.corpus.chunking import CHUNKERS, Chunk, chunk_corpus, index_text
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.expansion import aliases as expansion_aliases
from raglab.retrieval.expansion import expand
from raglab.retrieval.lexical import fuzzy_index, nearest, weighted_text
from raglab.retrieval.ranking import Hit, Query, rounded
from raglab.retrieval.registry import RETRIEVERS, build_retriever, check_k_for
from raglab.text.analyzer import analyze, memo, tokens
from raglab.text.banglish import Reader, without_grammar
from raglab.text.limits import check_question_length
from raglab.text.loanwords import Loanwords
from raglab.text.numbers import spoken_digits

if TYPE_CHECKING:  # imported at the first answer: see Pipeline.assess
    from raglab.answer.answerer import Assessment
    from raglab.answer.results import Answer, AnswerLanguage
    from raglab.answer.sentences import Model

POOL = 50  # first-stage depth kept for failure attribution
TWIN_DEPTH = 10  # the hits read for a unit in the question's language when the answer is in the other


def customer_amounts(text: str) -> str:
    """`question.stated.customer_amounts`, imported at the first question (`raglab ask --help` reads no question module)."""
    from raglab.question.stated import customer_amounts as written

    return written(text)


def check_k(k) -> None:
    """k counts chunks: a whole number >= 1 (True is an int in Python, but not a count)."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a whole number >= 1, got {k!r}")


@dataclass(frozen=True)
class Config:
    """One configuration. The defaults are the served default, chosen on dev splits (ours and
    the external sets') by the rule in docs/served-default.md (fourth version: the slice
    guard, and the external sets scored in each candidate's own chunker): recursive chunks,
    bilingual, query expansion on, k = 3 (step 5 of the rule), and the abstention threshold
    `raglab compare` tuned on dev for that configuration."""

    chunker: str = "recursive"
    retriever: str = "bilingual"
    k: int = 3
    expand: bool = True
    threshold: float = 0.65

    def check(self) -> "Config":
        if self.chunker not in CHUNKERS:
            raise ValueError(f"unknown chunker {self.chunker!r}; choose one of: {', '.join(CHUNKERS)}")
        if self.retriever not in RETRIEVERS:
            raise ValueError(f"unknown retriever {self.retriever!r}; choose one of: {', '.join(RETRIEVERS)}")
        check_k(self.k)
        check_k_for(self.retriever, self.k)
        if not isinstance(self.threshold, (int, float)) or not 0 <= self.threshold <= 1:  # NaN fails too
            raise ValueError(f"threshold is a confidence between 0 and 1, got {self.threshold!r}")
        return self

    @property
    def label(self) -> str:
        return f"{self.chunker}+{self.retriever}" + ("+exp" if self.expand else "")


@dataclass(frozen=True)
class RankedChunk:
    """One retrieved chunk of an answered question."""

    rank: int  # from 1
    chunk: Chunk
    score: float  # the retriever's rounded score
    title: str  # title of the chunk's article
    matches: tuple[tuple[int, int], ...]  # (start, end) in chunk.text of the question's terms


@dataclass(frozen=True)
class AskResult:
    """What `Pipeline.ask` returns: the answer and the chunks it was drawn from."""

    question: str
    answer: Answer
    terms: tuple[str, ...]  # the question's distinct analyzed terms, sorted
    config: Config
    chunks: tuple[RankedChunk, ...]
    read_as: str = ""  # the question as retrieval read it (a Banglish question in Bangla script)
    # Every quote from an article in the other language than the question's: which, and whether
    # the help centre has a unit in the question's language on it (`Pipeline.answer_language`).
    answer_language: AnswerLanguage | None = None


class Pipeline:
    def __init__(self, docs: list[Document], config: Config = Config(), progress=None):
        """`progress(text)`, when given, is told each step of the build as it starts."""
        self.config = config.check()
        self.docs = {d.id: d for d in docs}
        if progress:
            progress(f"chunking {len(docs):,} {'article' if len(docs) == 1 else 'articles'} ({config.chunker})")
        self.chunks: list[Chunk] = chunk_corpus(docs, config.chunker)
        self.by_id = {c.id: c for c in self.chunks}
        self.position = {c.id: i for i, c in enumerate(self.chunks)}
        if progress:
            progress(f"indexing {len(self.chunks):,} {'chunk' if len(self.chunks) == 1 else 'chunks'} ({config.retriever})")
        self.retriever = build_retriever(config.retriever, self.chunks, config.chunker)
        self._bm25: BM25 | None = None
        self._last_read: tuple[str | None, str] = (None, "")  # one question is read by search, answer and ask

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

    @functools.cached_property
    def banglish(self) -> Reader:
        """The corpus's Bangla words by sound, for questions typed in Banglish (`text.banglish`)."""
        return Reader.of(d.text for d in self.docs.values())

    def read(self, question: str) -> str:
        """The question as retrieval and the answerer read it: a Banglish question in Bangla
        script where its words sound like the corpus's Bangla words, any other as typed."""
        if self._last_read[0] != question:
            self._last_read = (question, self.banglish.read(customer_amounts(question)))
        return self._last_read[1]

    def cues(self, question: str) -> str:
        """The text the answerer reads its cues in (what is asked: an amount, yes or no, two
        facts) and the synonym table's aliases: for a Banglish question, the typed words and
        the reading together, since either spelling may hold the cue ("koyta" finds no Bangla
        word, কত only exists in the reading)."""
        read, question = self.read(question), customer_amounts(question)
        return spoken_digits(question if read == question else question + " " + read)

    def query(self, question: str) -> Query:
        """The query the retriever searches for: the question as read, expanded when the config says so."""
        question = spoken_digits(self.read(question))
        return expand(question) if self.config.expand else Query.plain(question)

    def query_texts(self, question: str) -> list[str]:
        """The encoder inputs (prefix included) that asking `question` reads, in the order the
        retriever reads them; [] for a retriever without the encoder. The answerer's cosines
        read the first again (`semantic.cosines`)."""
        texts = getattr(self.retriever, "query_texts", None)
        return texts(self.query(question)) if texts and question.strip() else []

    def search(self, question: str, n: int | None = None) -> list[Hit]:
        """Ranked hits for a question (expanded when the config says so)."""
        return self.retriever.search(self.query(question), n or self.config.k)

    def aliases(self, question: str) -> dict:
        """The help centre's own words for the question's terms (the synonym table of query
        expansion, both languages): the answerer counts a term as found in a sentence that
        holds one of them ("withdraw" in a sentence about "cash out", a Bangla question's terms
        in an English sentence). The answerer reads them whether or not the retriever's query
        is expanded: they decide which sentence to quote, not which chunks come back. A term
        the index's other script writes as a loanword is found in it too (`loanwords`: "screen"
        in a Bangla sentence's স্ক্রিন, ব্যাংক in an English sentence's "bank")."""
        out = expansion_aliases(question)
        for t in dict.fromkeys(analyze(question)):
            alike = [(w,) for w in self.loanwords.alike(t)]
            row = out.setdefault(t, []) if alike else []
            row.extend(a for a in alike if a not in row)
        return out

    @functools.cached_property
    def loanwords(self) -> Loanwords:
        """The index's terms of each script by sound (`text.loanwords.Loanwords`)."""
        return Loanwords.of(self._lexical_index().df)

    def closest(self, term: str) -> tuple[str, ...]:
        """The index word(s) a question word stands for, for the answerer's coverage: itself
        when the index holds it, else the nearest index word (`text.fuzzy`, through the same
        fuzzy index the lexical retrievers use: `retrieval.lexical.fuzzy_index`), else the two
        index words it runs together ("cashout"), else none. A common word of its language
        ("আজকে", "slow") stands for no other word, only for itself spelt or ended otherwise
        (`text.known`). A misspelt stopword ("wat") comes back as that stopword, which the
        answerer drops."""
        bm25 = self._lexical_index()
        if term in bm25.df:
            return (term,)
        found = nearest(fuzzy_index(bm25), term)
        if found is None:
            return ()
        words, _, split = found
        return tuple(words) if split else tuple(words[:1])

    def _lexical_index(self) -> BM25:
        """The retriever's BM25 index (every retriever here has one), or one built on first use."""
        if self._bm25 is None:
            found = getattr(self.retriever, "bm25", None) or getattr(getattr(self.retriever, "first_stage", None), "bm25", None)
            self._bm25 = found if isinstance(found, BM25) else BM25([analyze(index_text(c)) for c in self.chunks])
        return self._bm25

    def read_ahead(self) -> Iterator[int]:
        """The answerer's reading of every chunk's units (`read_chunk`), one chunk per step,
        then the fuzzy index that misspelt question words are matched in, the Banglish reader and the loanwords: work the first
        questions would otherwise do, for a caller with time to spare (the page, while it
        waits for a question). Only the time of later answers changes."""
        for chunk in self.chunks:
            yield read_chunk(chunk, self.docs)
        fuzzy_index(self._lexical_index())
        self.banglish  # noqa: B018 - built here, not at the first Banglish question
        for script in ("bn", "en"):  # and the loanwords of both scripts, not at the first question
            self.loanwords.side(script)
        yield 0

    def assess(self, question: str, chunks: list[Chunk], scores: list[float] | None = None,
               m: Model | None = None) -> Assessment | None:
        """What the answerer knows of `question` over already retrieved chunks (with their
        retrieval scores when known), before it decides: its candidates, their probabilities
        and the confidence's signals (`answer.answerer.assess`; None without a candidate).
        `answer` decides on it; the answerer's fit and diagnosis scripts read it, so they see
        the inputs the served answer sees. `m` is the sentence model (a fit passes its own)."""
        # Imported here, not with the pipeline: the page builds its configuration list before
        # any question, and the answerer's modules are over a third of raglab's import time
        # there (web.api.preload brings them in while the semantic model downloads).
        from raglab.answer.answerer import assess

        cues, read = self.cues(question), spoken_digits(self.read(question))
        return assess(self.answer_terms(question), chunks, self.retriever.idf, self.aliases(cues), cues,
                      scores, self.docs, self.closest, m, self.lexical_ranks(question, chunks) if chunks else None, read)

    def answer_terms(self, question: str) -> list[str]:
        """The question's terms as the answerer weighs them: the question's own; a Banglish
        question's reading less the grammar words it left in Latin letters and the particles
        typed apart (`banglish.without_grammar`: "pay e", "cash out o" asked nothing)."""
        if not self.banglish_asked(question):
            return analyze(spoken_digits(customer_amounts(question)))
        return analyze(without_grammar(self.banglish.read(customer_amounts(question), particles=False)))

    def banglish_asked(self, question: str) -> bool:
        """Whether the question is read in Bangla script: its reading is not its own text (its amounts
        written as the help centre writes them, `question.stated.customer_amounts`)."""
        return self.read(question) != customer_amounts(question)

    @functools.cached_property
    def _same_text(self) -> list[int]:
        """For each chunk, the position of the first chunk with the same text (whatever its heading)."""
        first: dict[str, int] = {}
        return [first.setdefault(c.text, i) for i, c in enumerate(self.chunks)]

    def lexical_ranks(self, question: str, chunks: list[Chunk]) -> list[int]:
        """For each of `chunks`, how many chunks of the corpus the retriever's BM25 side
        (`lexical_scores` where the retriever has one, else BM25 over the query as searched)
        scores above it, by scores rounded as rankings round them; chunks of one text count
        once (a corpus that repeats a passage in every article must not read as weak evidence).
        A signal of the confidence: on dev, two answers in three from a chunk BM25 ranks first
        hold the fact, one in four from a chunk it ranks past fifth, whatever the fused ranking
        made of it."""
        query = self.query(question)
        lexical = getattr(self.retriever, "lexical_scores", None)
        if lexical is None:
            bm25 = self._lexical_index()
            found = bm25.scores(*weighted_text(bm25, query.full))
        else:
            found = lexical(query)
        same = self._same_text
        ordered = sorted(found.items(), key=lambda item: item[1], reverse=True)
        out = []
        for c in chunks:
            raw = found.get(self.position.get(c.id, -1), 0.0)
            mine = rounded(raw)
            # Rounding never reorders two scores (it can make them equal), so only a score above
            # `raw` can round above `mine`: the scores from `raw` down need no look.
            above = set()
            for i, v in ordered:
                if v <= raw:
                    break
                if rounded(v) > mine:
                    above.add(same[i])
            out.append(len(above))
        return out

    def answer(self, question: str, chunks: list[Chunk], threshold: float, scores: list[float] | None = None) -> Answer:
        """The answerer on already retrieved chunks (with their retrieval scores when known)."""
        from raglab.answer.answerer import decide

        return decide(self.assess(question, chunks, scores), threshold, self.cues(question), self.docs, twin=self.twin(question))

    def twin(self, question: str) -> tuple[str | None, Callable]:
        """What `answerer.decide` reads to show an answer in the customer's language: "bn" for a
        Banglish question (asked in Bangla, as `answer_language` reads it; None otherwise: the
        answerer's `Question.lang`) and, for an article, the chunks of its twin in the other
        language (the retriever's `twins`, `ranking.twin_articles`; none for a retriever that
        pairs no articles)."""
        return ("bn" if self.banglish_asked(question) else None, self._twin_chunks)

    def _twin_chunks(self, doc: str) -> list[Chunk]:
        twins = getattr(self.retriever, "twins", None)
        other = twins().get(doc) if callable(twins) else None
        return [c for c in self.chunks if c.doc == other] if other else []

    def answer_language(self, question: str, a: Assessment | None, result: Answer, top: list[Chunk]) -> AnswerLanguage | None:
        """When every quote of `result` is from an article in the other language than the
        question's (`language.quoted_language`): that language, and whether the help centre
        has a unit in the question's language that can stand for the quoted one
        (`language.has_twin`), among the candidates `a` read, else around the first k chunks in
        the question's language of the first `TWIN_DEPTH` hits (the top k may hold none: a Bangla
        question about loans gets three chunks of the English loans article), else of the first
        `TWIN_DEPTH` hits for the quote itself (a twin may rank low for the question: for "… kom
        pokkhe koto tk tola jay?" the Bangla sentence on the minimum cash out came 14th). A
        Banglish question is asked in Bangla, though its reading may keep enough Latin words to
        read as English (`Question.lang`): a Bangla answer is in its customer's language. None otherwise."""
        from raglab.answer.language import has_twin, quoted_language
        from raglab.answer.results import AnswerLanguage

        if a is None:
            return None
        q = a.q if not self.banglish_asked(question) else replace(a.q, lang="bn")
        quoted = quoted_language(q, result, self.docs)
        if quoted is None:
            return None
        best = a.order[0][1]  # always among the quotes
        twin = has_twin(q, best, a.order)
        read = {c.id for c in top}
        for text in (question, best.quote.text):
            if twin:
                break
            own = [c for c in (self.chunks[h.index] for h in self.search(text, TWIN_DEPTH))
                   if self.docs[c.doc].lang == q.lang][:self.config.k]
            if any(c.id not in read for c in own):
                read.update(c.id for c in own)
                more = self.assess(question, own)
                twin = more is not None and has_twin(q, best, more.order)
        return AnswerLanguage(q.lang, quoted, twin)

    def ask(self, question: str) -> AskResult:
        """One question: the answer (or abstention), its citations and the top-k chunks."""
        with memo():  # the question's text is read by the retriever, the answerer and the twin search
            return self._ask(question)

    def _ask(self, question: str) -> AskResult:
        from raglab.answer.answerer import decide
        from raglab.question.respell import respell
        from raglab.question.synonyms import SAME_WORDS

        question = question if isinstance(question, str) else str(question)
        check_question_length(question)
        hits = self.search(question) if question.strip() else []
        top = [self.chunks[h.index] for h in hits]
        read_as = self.read(question)
        terms = set(analyze(read_as))
        a = self.assess(question, top, [h.score for h in hits])  # as `answer` does
        result = decide(a, self.config.threshold, self.cues(question), self.docs, twin=self.twin(question))
        # A misspelt word is highlighted where the answerer reads it ("agnet" as "agent"): the
        # index word it stands for, as the answerer respells it (`respell`: "wat" is a misspelt
        # question word, not the "want" or "way" the index holds nearest), besides the spelling typed.
        marked = terms | set(respell(sorted(terms), self.closest, SAME_WORDS.keys())[0])
        ranked = tuple(RankedChunk(rank, c, h.score, self.docs[c.doc].title, match_spans(c.text, marked))
                       for rank, (h, c) in enumerate(zip(hits, top), 1))
        return AskResult(question, result, tuple(sorted(terms)), self.config, ranked, read_as,
                         self.answer_language(question, a, result, top))


def match_spans(text: str, terms: set[str]) -> tuple[tuple[int, int], ...]:
    """(start, end) offsets in `text` of tokens whose term is one of `terms` (for highlighting)."""
    return tuple((t.start, t.end) for t in _tokens(text) if t.term in terms)


@functools.lru_cache(maxsize=50_000)
def _tokens(text: str) -> tuple:
    return tuple(tokens(text))


def read_chunk(chunk: Chunk, docs: dict | None = None) -> int:
    """Read every unit around `chunk` as `candidates.score_candidates` would (`docs` maps an
    article id to its Document, as there); returns how many units.

    None of what the answerer works out for a unit (its terms, `candidates.text_info`; its values,
    `sentences.spans_of`, `numbers_of`; its language; its section's heading terms, the whole path's
    and its own heading's) depends on the question, and each is remembered per text, so a question
    whose chunks were read before pays only for what it asks. In the browser that reading was about
    half of an answer's Python time (5 to 6 ms of 11, at the first questions); the page does it
    ahead (`read_ahead`), a chunk at a time, while it waits for the first question. The same
    functions fill the same caches, so no answer can differ: only the time of the first answers."""
    from raglab.answer.candidates import heading_of, heading_terms, text_info, units_of
    from raglab.answer.sentences import lang_of, numbers_of, spans_of

    doc, _, _, units = units_of(chunk, docs)
    for u in units:
        text_info(u.text)
        if u.lead:
            text_info(u.lead)
        spans_of(u.text)
        numbers_of(u.text)
        lang_of(u.text)
        heading = heading_of(u, chunk, doc)
        heading_terms(heading)
        if len(heading) > 1:
            heading_terms(heading[-1:])  # its own heading, which `faq.closest_heading` reads alone
    return len(units)
