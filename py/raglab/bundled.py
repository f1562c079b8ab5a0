"""The texts whose vectors ship with raglab, and whose pieces its model file keeps.

The bundled corpus and the external corpus copied under ``goldens/external/``: every
chunk of every chunker (``"passage: "`` + heading path + chunk text, as the semantic
retrievers index it) and every sentence of the recursive chunks (``"passage: "`` +
sentence, for the answerer); and every bundled question (``"query: "`` + question).
"""

from __future__ import annotations

import json
import os

from .analyzer import sentences
from .chunking import CHUNKERS, chunk_corpus
from .corpus import bundled_corpus_dir, load_corpus
from .encoder import PASSAGE, QUERY, ROOT
from .retrieval import index_text

GOLDENS = os.path.join(ROOT, "goldens")


def corpus_dirs() -> list[str]:
    ext = os.path.join(GOLDENS, "external")
    extra = [os.path.join(ext, d, "corpus") for d in sorted(os.listdir(ext))] if os.path.isdir(ext) else []
    return [bundled_corpus_dir(), *(d for d in extra if os.path.isdir(d))]


def question_files() -> list[str]:
    ext = os.path.join(GOLDENS, "external")
    extra = [os.path.join(ext, d, "questions.jsonl") for d in sorted(os.listdir(ext))] if os.path.isdir(ext) else []
    return [os.path.join(GOLDENS, "questions.jsonl"), *(f for f in extra if os.path.exists(f))]


def passages_of(corpus_dir: str) -> list[str]:
    docs = load_corpus(corpus_dir)
    out: list[str] = []
    for chunker in CHUNKERS:
        chunks = chunk_corpus(docs, chunker)
        out.extend(PASSAGE + index_text(c) for c in chunks)
        if chunker == "recursive":
            by_id = {d.id: d for d in docs}
            for c in chunks:
                text = by_id[c.doc].text
                out.extend(PASSAGE + text[s:e] for s, e in sentences(text, c.start, c.end))
    return out


def passages() -> list[str]:
    """Every bundled passage text, in a fixed order, without repeats."""
    seen: dict[str, None] = {}
    for d in corpus_dirs():
        for t in passages_of(d):
            seen.setdefault(t, None)
    return list(seen)


def questions() -> list[str]:
    out: dict[str, None] = {}
    for path in question_files():
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    out.setdefault(QUERY + json.loads(line)["question"], None)
    return list(out)
