"""A story asked by a sentence that names nothing ("Should I?", "কী করব?") is a story: its section's opening gets no `first`."""

from raglab.answer.candidates import read_question, score_candidates
from raglab.answer.sentences import COL
from raglab.corpus.chunking import Chunk
from raglab.text.analyzer import analyze

TEXT = "A recharge can fail when the operator's network is down.\nThe money comes back within 24 hours."


def _first(question):
    q = read_question(question, analyze(question), lambda t: 1.0, None)
    cands = score_candidates(q, [Chunk("r#1", "r", 0, len(TEXT), TEXT, ("Recharge",))])
    return [c.features[COL["first"]] for c in cands]


def test_a_story_asked_by_a_bare_sentence_gives_its_opening_no_first():
    assert _first("My recharge failed and the operator's network was down. Should I?")[0] == 0.0
    assert _first("My recharge failed and the operator's network was down. Will the money come back?")[0] == 0.0
    assert _first("Can a recharge fail when the network is down?")[0] == 1.0  # one question, no story: the opening keeps it

