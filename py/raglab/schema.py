"""The JSON contract: every shape the CLI prints with --json and the browser's facade
(`web.py`) returns, built in one place so the two cannot drift apart.

`raglab ask --json` and `web.ask` print `ask_json(Pipeline.ask(...))`; `raglab analyze
--json` and `web.analyze_text` print `analysis(text)`; and so on. `dumps` is the one
serialiser: UTF-8 text as is (ensure_ascii=False) and sorted keys, so the bytes are the
same on every platform. A new field goes into the function of its shape here, and both
callers see it.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from raglab.corpus.articles import Document
from raglab.corpus.chunking import Chunk
from raglab.pipeline import AskResult
from raglab.text.analyzer import tokens


def dumps(obj) -> str:
    """Compact JSON with sorted keys and non-ASCII text kept as is."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True)


def ask_json(result: AskResult) -> dict:
    """One answered question: answer, short answer(s), answer type, confidence, citations,
    quotes, the question's terms, the configuration and the ranked chunks with their match spans."""
    shorts = [asdict(s) for s in result.answer.short_answers]
    return {
        "question": result.question,
        "read_as": result.read_as,  # what was searched: the question, or a Banglish one in Bangla script
        "answer": result.answer.text,
        "short_answer": shorts[0] if shorts else None,  # text and offsets in its chunk, or null
        "short_answers": shorts,  # one per fact of a multi-fact answer
        "answer_type": result.answer.answer_type,
        "confidence": result.answer.confidence,
        "abstained": result.answer.abstained,
        # why, when abstained: "no-passage", "no-match", "other-half", "other-period", "one-case", "no-value", "only-the-way",
        # "other-subject", "no-list", "no-way" or "low-confidence" (`answerer.WITHHELD`); null for an answer
        "withheld": result.answer.withheld,
        # when every quote is from an article in the other language than the question's:
        # {"asked": "bn", "quoted": "en", "twin": false} (twin: the help centre has a unit in the
        # asked language on it, `Pipeline.answer_language`); null otherwise
        "answer_language": asdict(result.answer_language) if result.answer_language else None,
        "citations": result.answer.citations,
        "coverage": result.answer.coverage,
        "quotes": [asdict(q) for q in result.answer.quotes],
        "terms": list(result.terms),
        "config": asdict(result.config),
        "chunks": [
            {
                "rank": r.rank,
                "id": r.chunk.id,
                "doc": r.chunk.doc,
                "start": r.chunk.start,
                "end": r.chunk.end,
                "score": r.score,
                "title": r.title,
                "heading": list(r.chunk.heading),
                "text": r.chunk.text,
                "matches": [list(m) for m in r.matches],
            }
            for r in result.chunks
        ],
    }


def empty_question(line: int) -> dict:
    """What `ask --questions` (and the browser's askMany) gives for a blank line or an
    empty question: an error object in that line's place, so output line n still answers
    input line n."""
    return {"error": "the question is empty", "line": line, "question": ""}


def analysis(text: str) -> list[dict]:
    """The analyzer's terms of `text` with their offsets and surface text."""
    return [{"term": t.term, "start": t.start, "end": t.end, "text": text[t.start:t.end]} for t in tokens(text)]


def chunk_json(chunk: Chunk) -> dict:
    """One chunk as `raglab chunks --json` prints it."""
    return {"id": chunk.id, "doc": chunk.doc, "start": chunk.start, "end": chunk.end,
            "heading": list(chunk.heading), "text": chunk.text}


def article_json(doc: Document) -> dict:
    """One article's normalised text (all offsets refer to it) and its sections."""
    return {"id": doc.id, "lang": doc.lang, "title": doc.title, "text": doc.text,
            "sections": [{"heading": list(s.heading), "start": s.start, "end": s.end} for s in doc.sections]}


def language_counts(docs: list[Document]) -> dict[str, int]:
    """How many articles there are per language, keyed by language code."""
    langs: dict[str, int] = {}
    for d in docs:
        langs[d.lang] = langs.get(d.lang, 0) + 1
    return langs
