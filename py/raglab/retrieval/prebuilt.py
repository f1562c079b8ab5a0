"""The served default's analysis and index parts, worked out once by the build instead of on every start.

Building the served default's index is mostly tokenizing: every chunk's indexed text,
its body and its heading path go through `analyzer.tokens`, which takes most of a
second inside Pyodide. Those tokens depend on nothing but the text, so `build.py
build` works them out natively and ships them as one JSON file; the browser installs
the table (`install`) and `analyzer.tokens` answers those texts from it. A text the
table does not hold (a question, another chunker's chunk, an uploaded article) is
analysed as always, so a stale or missing table can make start-up slower, never a
result different.

The file also holds the integer parts of the served chunks' BM25 index (`bm25.counts`:
each chunk's length, and per term the chunks holding it with its frequency), so
`bm25_of` builds that index without counting; its floats (idf, impacts) are computed
at start by the same code in both runtimes. They are used only for the very texts they
were counted from (the sha256 of the chunks' indexed texts must match), else counted
afresh.

The file is checked twice: the manifest carries its sha256, verified before it is
used, and the table names the digest of the analyzer's source it was made with, so a
table from another analyzer is ignored. The parity test re-analyses every text inside
Pyodide and compares the digest of that fresh table with the shipped one.

    data = build(docs, "fixed")      # bytes of the JSON file, stable across runs
    install(data, sha256(data))      # -> number of texts now answered from the table
    bm25_of([index_text(c) for c in chunks])   # the served chunks' BM25, from the table
"""

from __future__ import annotations

import json
import os

from raglab.corpus.articles import Document
from raglab.corpus.chunking import CHUNKERS, Chunk, chunk_corpus, index_text
from raglab.retrieval.bm25 import BM25, counts
from raglab.text import analyzer, stemmer
from raglab.text.analyzer import Token, analyze, fresh_tokens, text_key

FORMAT = 2
# The installed table's BM25 parts: {"texts": sha256 of the indexed texts, "lengths", "ids", "tfs"}.
_BM25: dict = {}


def analyzer_digest() -> str:
    """sha256 of analyzer.py and stemmer.py as installed: a table is only valid for the
    analyzer that made it."""
    import hashlib  # here, not at the top: the page compiles it from source, and starts without it

    digest = hashlib.sha256()
    for module in (analyzer, stemmer):
        with open(str(module.__file__), "rb") as fh:
            digest.update(fh.read())
    return digest.hexdigest()


def chunk_texts(chunk: Chunk) -> list[str]:
    """The texts of a chunk that index building analyses: the indexed text (heading path,
    then body; see ranking.index_text), the body alone, and the heading path with and
    without the article title (the reranker's heading and section features)."""
    return [index_text(chunk), chunk.text, " ".join(chunk.heading), " ".join(chunk.heading[1:])]


def texts_of(docs: list[Document], chunker: str) -> list[str]:
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


def texts_digest(texts: list[str]) -> str:
    """What the BM25 parts were counted from: the sha256 of the indexed texts, in order."""
    import hashlib

    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


def table_of(texts: list[str], chunker: str, indexed: list[str] | None = None) -> dict:
    """The JSON-ready table for `texts`, analysed afresh (never from an installed table), with
    the BM25 parts of the `indexed` texts (the chunks' indexed texts, in chunk order)."""
    table = {
        "analyzer": analyzer_digest(),
        "chunker": chunker,
        "format": FORMAT,
        "tokens": {text_key(text): _encode(fresh_tokens(text), text) for text in texts},
    }
    if indexed is not None:
        lengths, ids_of, tfs_of = counts([[t.term for t in fresh_tokens(text)] for text in indexed])
        table["bm25"] = {"texts": texts_digest(indexed), "lengths": lengths,
                         "ids": {t: ids_of[t] for t in sorted(ids_of)}, "tfs": {t: tfs_of[t] for t in sorted(tfs_of)}}
    return table


def dumps(table: dict) -> bytes:
    return (json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


def build(docs: list[Document], chunker: str) -> bytes:
    """The file's bytes for a corpus and the served chunker: the same bytes on every run and
    every platform."""
    indexed = [index_text(c) for c in chunk_corpus(docs, chunker)]
    return dumps(table_of(texts_of(docs, chunker), chunker, indexed))


def sha256(data: bytes) -> str:
    import hashlib

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
    _BM25.clear()
    if table.get("format") != FORMAT or table.get("analyzer") != analyzer_digest():
        analyzer.install_prebuilt({})
        return 0
    analyzer.install_prebuilt(table["tokens"])
    _BM25.update(table.get("bm25") or {})
    return len(table["tokens"])


def bm25_of(texts: list[str], k1: float = 1.2, b: float = 0.75) -> BM25:
    """The BM25 index of chunks' indexed texts: from the installed table's integer parts when
    it was counted from exactly these texts, else counted from their analysis. Either way the
    same index (tests/test_prebuilt.py)."""
    if _BM25 and _BM25["texts"] == texts_digest(texts):
        return BM25.from_counts(_BM25["lengths"], _BM25["ids"], _BM25["tfs"], k1, b)
    return BM25((analyze(text) for text in texts), k1=k1, b=b)  # one chunk's terms at a time


def install_cached(docs: list[Document], chunker: str, folder: str) -> int:
    """Natively, the same table kept in `folder` between runs, so a command's start skips the
    analysis: made on the first run (the texts of every chunker, with the BM25 parts of
    `chunker`'s chunks), then installed. A file is named by its sha256; one whose bytes do not
    match its name, made by another analyzer or counted from other chunks is replaced. A
    folder that cannot be written only costs the time. Returns the texts installed."""
    indexed = [index_text(c) for c in chunk_corpus(docs, chunker)]
    prefix = f"{chunker}-"
    names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    for name in (n for n in names if n.startswith(prefix) and n.endswith(".json")):
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as fh:
                installed = install(fh.read(), name[len(prefix):-len(".json")])
        except (OSError, ValueError):
            installed = 0
        if installed and _BM25.get("texts") == texts_digest(indexed):
            return installed
        try:
            os.remove(path)
        except OSError:
            pass
    texts: dict[str, None] = {}
    for name in CHUNKERS:
        texts.update(dict.fromkeys(texts_of(docs, name)))
    data = dumps(table_of(list(texts), chunker, indexed))
    digest = sha256(data)
    try:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{prefix}{digest}.json")
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "wb") as fh:
            fh.write(data)
        os.replace(partial, path)  # never a half-written table
    except OSError:
        pass
    return install(data, digest)


def install_file(path: str, expected_sha256: str) -> int:
    """`install` from a file (the worker writes the fetched bytes into Pyodide's file system)."""
    if not os.path.exists(path):
        raise ValueError(f"{path}: prebuilt analysis not found")
    with open(path, "rb") as fh:
        return install(fh.read(), expected_sha256)
