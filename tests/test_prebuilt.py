"""The build's prebuilt analysis: the same tokens as a fresh analysis, checked before use.

The browser half (Pyodide works the table out afresh and gets the shipped file's
digest) is in test_parity.py.
"""

import json

import pytest

from raglab import analyzer, prebuilt
from raglab.analyzer import fresh_tokens, tokens
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json

from helpers import docs, questions


@pytest.fixture
def installed():
    data = prebuilt.build(list(docs()))
    assert prebuilt.install(data, prebuilt.sha256(data)) > 0
    yield data
    analyzer.install_prebuilt({})


def test_the_file_is_the_same_bytes_every_time():
    assert prebuilt.build(list(docs())) == prebuilt.build(list(docs()))


def test_every_chunk_text_gets_the_tokens_a_fresh_analysis_gives(installed):
    texts = prebuilt.texts_of(list(docs()))
    assert len(texts) == analyzer.prebuilt_size()
    for text in texts:
        assert tokens(text) == fresh_tokens(text), text[:60]
    # Bangla chunks (the compact rows are for ASCII surfaces only) are covered too.
    assert any("\u0980" <= ch <= "\u09ff" for text in texts for ch in text[:200])


def test_answers_are_identical_with_and_without_the_table(installed):
    asked = [q.question for q in questions()[:40]]
    with_table = [ask_json(Pipeline(list(docs()), Config()).ask(q)) for q in asked]
    analyzer.install_prebuilt({})
    without = [ask_json(Pipeline(list(docs()), Config()).ask(q)) for q in asked]
    assert json.dumps(with_table, ensure_ascii=False) == json.dumps(without, ensure_ascii=False)


def test_a_file_that_is_not_the_one_the_build_made_is_refused(installed):
    data = installed.replace(b'"format":1', b'"format":1 ')
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
