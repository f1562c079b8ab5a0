"""A how-to question whose best unit says nothing to do (`answer.faq.shows_no_way`) is answered by the
steps the help centre writes under a heading that says it tells the way (`answer.faq.tells_the_way`), when
one scores within `LANG_MARGIN` logits of the best unit, at the confidence read for the best unit
(`answerer.the_need_stated`, after the confidence): "nano loan kivabe nibo" was withheld ("no-way") with the
"How to apply" steps 0.09 logits below "You can borrow up to Tk 20,000 as a nano loan.". An instruction or
a list of conditions under another heading ("কারা অ্যাকাউন্ট খুলতে পারবেন", who can open an account) tells
whether one may, not how: that question stays withheld."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline


@pytest.fixture(scope="module")
def anywhere():
    return Pipeline(list(docs()), Config(threshold=0.0))


@pytest.mark.parametrize("question", ["nano loan kivabe nibo", "nano loan kivabe nite hoy"])
def test_a_way_asked_is_answered_by_the_steps(anywhere, question):
    a = anywhere.ask(question).answer
    texts = [x.text for x in a.quotes]
    assert not a.abstained and a.withheld is None, a.withheld
    assert texts[0] == "Open the Shapla Pay app and tap Loans." and len(texts) >= 3, texts
    assert not any("Tk 20,000" in t for t in texts), texts


def test_the_confidence_stays_the_one_read_for_the_best_unit(anywhere):
    served = Pipeline(list(docs()), Config())
    a, b = anywhere.ask("nano loan kivabe nibo").answer, served.ask("nano loan kivabe nibo").answer
    assert a.confidence == b.confidence and not b.abstained  # above the served threshold, as it was when withheld


def test_conditions_under_another_heading_are_no_way(anywhere, monkeypatch):
    # Read without retrieval's raise of the sections that tell the way (`ranking.ways_asked`), which
    # brings the Bangla steps among the candidates: then only the conditions and an English step are.
    monkeypatch.setattr("raglab.retrieval.bilingual.WAY_RAISE", 0.0)
    a = anywhere.ask("অ্যাকাউন্ট কীভাবে খুলব?").answer
    assert a.abstained and a.withheld == "no-way"
