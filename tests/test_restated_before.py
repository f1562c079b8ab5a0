"""The confidence reads whether the unit before the chosen one restates the question: an answer
that follows its question restated is where the article answers it (docs/pipeline.md, "The
sentence before the answer, for the confidence")."""

from dataclasses import replace

from raglab.answer.answerer import assess, compose, signals_of
from raglab.answer.sentences import COL, CONFIDENCE_COL, confidence, model
from raglab.corpus.articles import parse_article
from raglab.corpus.chunking import chunk_document
from raglab.text.analyzer import analyze

WRONG = parse_article("w", """# Money sent to the wrong number

## What happens
Check the number you typed before you confirm. If you sent money to the wrong number, call the hotline at once. We hold it while we check the transfer.
""")
QUESTION = "I sent money to the wrong number, what happens?"


def idf(term):
    return 1.0


def candidates():
    a = assess(analyze(QUESTION), chunk_document(WRONG, "sentence"), idf, question=QUESTION, docs={"w": WRONG})
    return a, {c.quote.text: c for _, c in a.order}


def restated_before(a, unit):
    """The confidence's `restated_before` for `a` answered from `unit`."""
    first = [(z, c) for z, c in a.order if c is unit] + [(z, c) for z, c in a.order if c is not unit]
    chosen = replace(a, order=first)
    return signals_of(chosen, compose(chosen, {"w": WRONG}), model())[CONFIDENCE_COL["restated_before"]]


def test_a_unit_after_the_sentence_restating_the_question_reads_that_sentence_coverage():
    a, units = candidates()
    restating = units["If you sent money to the wrong number, call the hotline at once."]
    after = units["We hold it while we check the transfer."]
    assert restated_before(a, after) == restating.features[COL["sentence_cover"]] > 0.5
    # the restatement itself follows a sentence holding less of the question; a block's first unit follows none
    assert restating.features[COL["prev_cover"]] > 0 and restated_before(a, restating) == 0.0
    assert restated_before(a, units["Check the number you typed before you confirm."]) == 0.0


def test_an_answer_after_its_question_restated_is_trusted_more():
    a, _ = candidates()
    signals = signals_of(a, compose(a, {"w": WRONG}), model())
    col = CONFIDENCE_COL["restated_before"]
    assert signals[col] == restated_before(a, a.order[0][1])
    restated = signals[:col] + [0.8] + signals[col + 1:]
    alone = signals[:col] + [0.0] + signals[col + 1:]
    assert confidence(model(), restated) > confidence(model(), alone)
