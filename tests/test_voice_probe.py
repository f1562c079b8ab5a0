"""Faults a probe of questions typed by voice found (bench/fresh_probe_voice.jsonl): voice typing
writes every word said, and a dictated question often opens or closes with spoken filler ("ok so …",
"please tell me …", "আচ্ছা …", "… একটু বলেন তো") that names nothing to look for."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question.respell import spoken_filler


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_the_filler_a_dictated_question_opens_or_closes_with_is_read_apart():
    assert spoken_filler("ok so which documents does a shop need for a merchant account") == {"ok"}
    assert spoken_filler("please tell me how many numbers are in the pin") == {"tell"}
    assert spoken_filler("আচ্ছা কমপ্লেইন করলে কয় দিনে সমাধান হয়") == {"আচ্ছা"}
    assert spoken_filler("একাউন্ট বন্ধ করতে কত দিন লাগে একটু বলেন তো") == {"একটু", "বলেন"}
    # The same words inside the question are what it asks: "is it ok", "একটু পরপর" (every little while).
    for asked in ("Is it ok to tap the link?", "is that ok??", "একটু পরপর অ্যাপ নিজে থেকেই লগআউট হয়ে যায় কেন?", "ok"):
        assert not spoken_filler(asked)


@pytest.mark.parametrize("question, filler", [
    ("ok so which documents does a shop need for a merchant account", "ok"),
    ("আচ্ছা ক্যাশ ইন করতে কোনো চার্জ লাগে", "আচ্ছা"),
    ("রিচার্জ সর্বোচ্চ কত টাকা করা যায় একটু বলেন তো", "বলেন"),
])
def test_spoken_filler_is_no_term_the_answerer_looks_for(served, question, filler):
    hits = served.search(question)
    a = served.assess(question, [served.chunks[h.index] for h in hits], [h.score for h in hits])
    assert filler not in a.q.weights and a.q.weights
