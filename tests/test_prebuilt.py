"""The build's prebuilt analysis: the same tokens as a fresh analysis, checked before use.

The browser half (Pyodide works the table out afresh and gets the shipped file's
digest) is in test_parity_engine.py.
"""

import contextlib
import json

import pytest

from helpers import docs, questions
from raglab.pipeline import Config, Pipeline
from raglab.retrieval import prebuilt
from raglab.schema import ask_json
from raglab.text import analyzer
from raglab.text.analyzer import fresh_tokens, tokens

SERVED = Config().chunker


@pytest.fixture(scope="module")
def built():
    return prebuilt.build(list(docs()), SERVED)


@pytest.fixture
def installed(built):
    with the_session_table_put_back():
        assert prebuilt.install(built, prebuilt.sha256(built)) > 0
        yield built


@contextlib.contextmanager
def the_session_table_put_back():
    """conftest.py installs the bundled corpus's table for the session; a test here installs
    others, and leaves the session's as it found it."""
    tokens, bm25 = dict(analyzer._PREBUILT), dict(prebuilt._BM25)
    try:
        yield
    finally:
        analyzer.install_prebuilt(tokens)
        prebuilt._BM25.clear()
        prebuilt._BM25.update(bm25)


def test_the_file_is_the_same_bytes_every_time():
    assert prebuilt.build(list(docs()), SERVED) == prebuilt.build(list(docs()), SERVED)


def test_every_chunk_text_gets_the_tokens_a_fresh_analysis_gives(installed):
    texts = prebuilt.texts_of(list(docs()), SERVED)
    assert len(texts) == analyzer.prebuilt_size()
    for text in texts:
        assert tokens(text) == fresh_tokens(text), text[:60]
    # Bangla chunks (the compact rows are for ASCII surfaces only) are covered too.
    assert any("\u0980" <= ch <= "\u09ff" for text in texts for ch in text[:200])


@pytest.mark.slow
def test_answers_are_identical_with_and_without_the_table(installed):
    asked = [q.question for q in questions()[:40]]
    with_table = [ask_json(Pipeline(list(docs()), Config()).ask(q)) for q in asked]
    analyzer.install_prebuilt({})
    without = [ask_json(Pipeline(list(docs()), Config()).ask(q)) for q in asked]
    assert json.dumps(with_table, ensure_ascii=False) == json.dumps(without, ensure_ascii=False)


def test_a_file_that_is_not_the_one_the_build_made_is_refused(installed):
    data = installed.replace(b'"format":2', b'"format":2 ')
    with pytest.raises(ValueError, match="does not match the manifest"):
        prebuilt.install(data, prebuilt.sha256(installed))


def test_a_table_made_by_another_analyzer_is_ignored(installed):
    table = json.loads(installed)
    table["analyzer"] = "0" * 64
    data = prebuilt.dumps(table)
    assert prebuilt.install(data, prebuilt.sha256(data)) == 0
    assert analyzer.prebuilt_size() == 0


def test_texts_not_in_the_table_are_analysed_as_always(installed):
    text = "What is the cash out fee? ক্যাশ আউটের চার্জ কত?"
    assert tokens(text) == fresh_tokens(text) and tokens(text)


def _same_index(a, b):
    assert (a.n_docs, a.avgdl, a.k1, a.b) == (b.n_docs, b.avgdl, b.k1, b.b)
    assert a.df == b.df and list(a.postings) == list(b.postings) and a.postings == b.postings
    assert a.max_impact == b.max_impact


def test_the_served_chunks_bm25_comes_from_the_table_and_is_the_counted_one(installed, monkeypatch):
    from raglab.corpus.chunking import chunk_corpus, index_text
    from raglab.retrieval.bm25 import BM25

    texts = [index_text(c) for c in chunk_corpus(list(docs()), SERVED)]
    counted = BM25([[t.term for t in fresh_tokens(x)] for x in texts])
    monkeypatch.setattr(prebuilt, "analyze", lambda text: pytest.fail("the served chunks were analysed again"))
    _same_index(prebuilt.bm25_of(texts), counted)
    _same_index(prebuilt.bm25_of(texts, k1=0.9, b=0.4), BM25([[t.term for t in fresh_tokens(x)] for x in texts], 0.9, 0.4))


def test_other_texts_are_counted_afresh(installed):
    from raglab.corpus.chunking import chunk_corpus, index_text
    from raglab.retrieval.bm25 import BM25

    texts = [index_text(c) for c in chunk_corpus(list(docs()), "sentence")]
    _same_index(prebuilt.bm25_of(texts), BM25([analyzer.analyze(x) for x in texts]))
    _same_index(prebuilt.bm25_of(texts[:-1]), BM25([analyzer.analyze(x) for x in texts[:-1]]))


def test_the_build_ships_the_served_chunkers_table(build_module):
    from helpers import CORPUS

    table = json.loads(build_module.build_analysis(CORPUS))
    assert table["chunker"] == SERVED and table["format"] == prebuilt.FORMAT
    assert table["bm25"]["lengths"] and table["bm25"]["texts"]


def test_the_cli_keeps_the_table_between_runs_and_replaces_a_damaged_one(tmp_path):
    corpus = list(docs())[:8]
    with the_session_table_put_back():
        made = prebuilt.install_cached(corpus, SERVED, str(tmp_path))
        (path,) = tmp_path.iterdir()
        assert made == analyzer.prebuilt_size() > len(prebuilt.texts_of(corpus, SERVED))  # every chunker's texts
        assert prebuilt.install_cached(corpus, SERVED, str(tmp_path)) == made
        assert list(tmp_path.iterdir()) == [path]  # read back, not made again
        damaged = path.read_bytes().replace(b'"format":2', b'"format": 2')  # still JSON, not the bytes named
        assert damaged != path.read_bytes()
        path.write_bytes(damaged)
        assert prebuilt.install_cached(corpus, SERVED, str(tmp_path)) == made
        assert list(tmp_path.iterdir()) == [path] and prebuilt.sha256(path.read_bytes()) in path.name
        # What the table answers is what a fresh analysis gives (the tests above).
