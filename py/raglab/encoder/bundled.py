"""The bundled texts: whose pieces raglab's model file keeps, and whose vectors ship.

`passages` + `questions`: the bundled corpus and the external corpora copied under
``goldens/external/``, every chunk of every chunker (``"passage: "`` + heading path + chunk text, as the
semantic retrievers index it) and every sentence of the recursive chunks
(``"passage: "`` + sentence, for the answerer), and every bundled question
(``"query: "`` + question). `vocabulary_texts`, the part of them from our corpus and
the `VOCABULARY_SETS`, decided the model file's extra pieces (py/raglab/encoder/vocabulary-extra.tsv).

`shipped` is the smaller set whose vectors live in the repository (``py/raglab/data/vectors/``): every
chunk of our corpus under every chunker, the recursive (served) chunks of the external
corpora, and every bundled question. Anything else (sentences for the answerer included)
is encoded on first use and cached natively.
"""

from __future__ import annotations

import json
import os

from raglab.corpus.articles import bundled_corpus_dir, load_corpus
from raglab.corpus.chunking import CHUNKERS, chunk_corpus, index_text
from raglab.encoder.native import PASSAGE, QUERY, ROOT
from raglab.text.analyzer import normalize
from raglab.text.banglish import Reader
from raglab.text.splitter import sentences

GOLDENS = os.path.join(ROOT, "goldens")
VOCABULARY_SETS = ("covid-qa-faq",)  # external sets whose text the vocabulary covers exactly


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


def _question_texts(path: str) -> list[str]:
    """``"query: "`` + each question of a golden file, normalised as the golden loader and
    `raglab ask` normalise it (a question typed with ে + া for ো is encoded as ো)."""
    with open(path, encoding="utf-8") as fh:
        return [QUERY + normalize(json.loads(line)["question"]) for line in fh if line.strip()]


def read_questions() -> list[str]:
    """Our golden questions (normalised) as the pipeline reads them over the bundled corpus:
    a Banglish question in Bangla script (`text.banglish`), any other as typed."""
    reader = Reader.of(d.text for d in load_corpus(bundled_corpus_dir()))
    with open(question_files()[0], encoding="utf-8") as fh:
        return [reader.read(normalize(json.loads(line)["question"])) for line in fh if line.strip()]


def questions() -> list[str]:
    out: dict[str, None] = {}
    for path in question_files():
        for t in _question_texts(path):
            out.setdefault(t, None)
    for q in read_questions():
        out.setdefault(QUERY + normalize(q), None)
    return list(out)


def shipped() -> list[str]:
    """The texts whose vectors ship in vectors/, in a fixed order, without repeats."""
    seen: dict[str, None] = {}
    dirs = corpus_dirs()
    own = load_corpus(dirs[0])
    for chunker in CHUNKERS:
        for c in chunk_corpus(own, chunker):
            seen.setdefault(PASSAGE + index_text(c), None)
    for d in dirs[1:]:
        for c in chunk_corpus(load_corpus(d), "recursive"):
            seen.setdefault(PASSAGE + index_text(c), None)
    for t in questions():
        seen.setdefault(t, None)
    return list(seen)


def vocabulary_texts() -> list[str]:
    """Our corpus and questions and the `VOCABULARY_SETS`': what the model segments exactly as the full one."""
    ext = os.path.join(GOLDENS, "external")
    out: dict[str, None] = {}
    for d in [bundled_corpus_dir(), *(os.path.join(ext, n, "corpus") for n in VOCABULARY_SETS)]:
        for t in passages_of(d):
            out.setdefault(t, None)
    for path in [os.path.join(GOLDENS, "questions.jsonl"), *(os.path.join(ext, n, "questions.jsonl") for n in VOCABULARY_SETS)]:
        for t in _question_texts(path):
            out.setdefault(t, None)
    return list(out)
