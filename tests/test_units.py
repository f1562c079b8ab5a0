"""The units the answerer quotes: whole sentences, list items and table rows of the article."""

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import docs
from raglab.answer.units import MAX_ANSWER_CHARS, WINDOW, units_around
from raglab.corpus.chunking import CHUNKERS, chunk_document

TEXT = """# Limits

Read this first. The limits below apply to personal accounts:

- Up to 5 cash-outs a day.
- Up to Tk 25,000 in total a day.

| Service | Fee | Daily limit |
|---|---|---|
| Cash in | Free | Tk 30,000 |

| Where | Fee |
|---|---|
| Agent | 1.85% |

1. Open the app.
2. Tap Cash Out.
"""


def test_sentences_items_and_rows_with_their_context():
    units = units_around(TEXT, 0, len(TEXT))
    texts = [u.text for u in units]
    assert texts == ["Read this first.", "The limits below apply to personal accounts:", "Up to 5 cash-outs a day.",
                     "Up to Tk 25,000 in total a day.", "Cash in — Fee: Free", "Cash in — Daily limit: Tk 30,000",
                     "Agent — Fee: 1.85%", "Open the app.", "Tap Cash Out."]
    items = [u for u in units if u.kind == "item"]
    assert len(items) == 4 and items[0].lead == "The limits below apply to personal accounts:"
    assert items[0].block == items[1].block != units[0].block
    for u in units:
        if u.kind != "row":
            assert TEXT[u.start:u.end] == u.text  # a sentence is the article's text at its offsets
        else:
            assert TEXT[u.start:u.end].startswith(u.text.split(" — ")[0]) and "|" not in u.text
    cells = [u for u in units if u.row_key == "Cash in"]
    assert {TEXT[u.focus_start:u.focus_end] for u in cells} == {"Free", "Tk 30,000"}  # a cell is about its cell


def test_a_chunk_cut_mid_sentence_gets_the_whole_sentences_it_touches():
    start = TEXT.index("first.")  # inside "Read this first."
    end = TEXT.index("apply")  # inside the next sentence
    assert [u.text for u in units_around(TEXT, start, end)] == ["Read this first.",
                                                               "The limits below apply to personal accounts:"]


def test_a_giant_line_is_read_only_near_the_chunk():
    text = "# T\n\n" + "word " * 200_000 + "end."
    units = units_around(text, 500_000, 500_100)
    assert units and all(u.end - u.start <= MAX_ANSWER_CHARS for u in units)
    assert all(500_000 - WINDOW <= u.start for u in units)


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab |-#.:\n1") + ["ক", "।"]), max_size=300),
       st.integers(0, 300), st.integers(0, 300))
def test_units_of_any_text_lie_in_it(text, a, b):
    start, end = min(a, b, len(text)), min(max(a, b), len(text))
    for u in units_around(text, start, end):
        assert 0 <= u.start < u.end <= len(text) and u.focus_start <= u.focus_end and u.text.strip()


def test_every_chunk_of_the_bundled_corpus_has_units_inside_its_lines():
    for doc in docs():
        for chunker in CHUNKERS:
            for c in chunk_document(doc, chunker):
                for u in units_around(doc.text, c.start, c.end):
                    line_start = doc.text.rfind("\n", 0, c.start) + 1
                    line_end = doc.text.find("\n", c.end)
                    assert line_start <= u.start and (line_end < 0 or u.end <= line_end)
