"""The bundled corpus's analysis, worked out once by the build instead of on every start.

Building the served default's index is mostly tokenizing: every chunk's indexed text,
its body and its heading path go through `analyzer.tokens`, which takes most of a
second inside Pyodide. Those tokens depend on nothing but the text, so `build.py
build` works them out natively and ships them as one JSON file; the browser installs
the table (`install`) and `analyzer.tokens` answers those texts from it. A text the
table does not hold (a question, another chunker's chunk, an uploaded article) is
analysed as always, so a stale or missing table can make start-up slower, never a
result different.

The file is checked twice: the manifest carries its sha256, verified before it is
used, and the table names the digest of the analyzer's source it was made with, so a
table from another analyzer is ignored. The parity test re-analyses every text inside
Pyodide and compares the digest of that fresh table with the shipped one.

    data = build(docs)               # bytes of the JSON file, stable across runs
    install(data, sha256(data))      # -> number of texts now answered from the table
"""

from __future__ import annotations

import hashlib
import json
import os

from . import analyzer
from .analyzer import Token, fresh_tokens, text_key
from .chunking import Chunk, chunk_corpus
from .corpus import Document
from .ranking import index_text

FORMAT = 1
CHUNKER = "recursive"  # the served default's chunker: the index built at start-up


def analyzer_digest() -> str:
    """sha256 of analyzer.py as installed: a table is only valid for the analyzer that made it."""
    with open(analyzer.__file__, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def chunk_texts(chunk: Chunk) -> list[str]:
    """The texts of a chunk that index building analyses: the indexed text (heading path,
    then body; see ranking.index_text), the body alone, and the heading path with and
    without the article title (the reranker's heading and section features)."""
    return [index_text(chunk), chunk.text, " ".join(chunk.heading), " ".join(chunk.heading[1:])]


def texts_of(docs: list[Document], chunker: str = CHUNKER) -> list[str]:
    """Every distinct text to analyse for a corpus under a chunker, in a stable order."""
    seen: dict[str, None] = {}
    for chunk in chunk_corpus(docs, chunker):
        for text in chunk_texts(chunk):
            seen.setdefault(text, None)
    return list(seen)


def _encode(toks: list[Token], text: str) -> list:
    # [start, end] when the term is the lower-cased surface (most English words), else
    # [term, start, end]: a third smaller, and decoding stays one comparison per token.
    # The row format is analyzer._decode's. Only ASCII surfaces are shortened: str.lower()
    # of other letters can change between Unicode versions.
    out = []
    for t in toks:
        surface = text[t.start:t.end]
        out.append([t.start, t.end] if surface.isascii() and t.term == surface.lower() else [t.term, t.start, t.end])
    return out


def table_of(texts: list[str]) -> dict:
    """The JSON-ready table for `texts`, analysed afresh (never from an installed table)."""
    return {
        "analyzer": analyzer_digest(),
        "chunker": CHUNKER,
        "format": FORMAT,
        "tokens": {text_key(text): _encode(fresh_tokens(text), text) for text in texts},
    }


def dumps(table: dict) -> bytes:
    return (json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


def build(docs: list[Document], chunker: str = CHUNKER) -> bytes:
    """The file's bytes for a corpus: the same bytes on every run and every platform."""
    return dumps(table_of(texts_of(docs, chunker)))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def install(data: bytes, expected_sha256: str) -> int:
    """Check the file against its digest and this analyzer, then let `analyzer.tokens`
    answer the texts it holds; returns how many (0 when the table was made by another
    analyzer: it is ignored). A wrong digest is an error: the file is not the one the
    build made."""
    got = sha256(data)
    if got != expected_sha256:
        raise ValueError(f"prebuilt analysis: sha256 {got} does not match the manifest's {expected_sha256}; "
                         "rebuild with `python3 build.py build`")
    table = json.loads(data.decode("utf-8"))
    if table.get("format") != FORMAT or table.get("analyzer") != analyzer_digest():
        analyzer.install_prebuilt({})
        return 0
    analyzer.install_prebuilt(table["tokens"])
    return len(table["tokens"])


def install_file(path: str, expected_sha256: str) -> int:
    """`install` from a file (the worker writes the fetched bytes into Pyodide's file system)."""
    if not os.path.exists(path):
        raise ValueError(f"{path}: prebuilt analysis not found")
    with open(path, "rb") as fh:
        return install(fh.read(), expected_sha256)
