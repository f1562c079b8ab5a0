"""Harm, selective answering and the golden-set size statistics, on hand-computed cases."""

import itertools
import math
import random

import pytest

from raglab.corpus.goldens import Evidence
from raglab.evaluation.metrics import resamples
from raglab.evaluation.risk import Curve, aurc_interval, contextual_precision, contextual_recall, draw_counts, misleading, outcome, resample_aurcs
from raglab.evaluation.significance import holm, mde, sign_flip_p, sign_patterns


class C:  # a chunk's span
    def __init__(self, doc, start, end):
        self.doc, self.start, self.end = doc, start, end


def test_outcome_uses_holds_fact():
    assert outcome(None, "1.85%") == "abstained"
    assert outcome("The fee is 1.85% of the amount.", "1.85%") == "right"
    assert outcome("The fee is 1.95% at an ATM.", "1.85%") == "wrong"
    assert outcome("Anything at all.", None) == "wrong"  # an answer to an unanswerable question


def test_contextual_precision_worked_example():
    assert contextual_precision([False, True, False, True, False]) == pytest.approx(0.5)
    assert contextual_precision([True, True, False]) == 1.0
    assert contextual_precision([False, False, True]) == pytest.approx(1 / 3)
    assert contextual_precision([False] * 5) == 0.0


def test_contextual_recall_counts_chunks_together():
    ev = [Evidence("a", "x" * 100, 100, 200, 0), Evidence("b", "y" * 10, 0, 10, 1)]
    # Two chunks hold 30 + 30 characters of the 100-character passage: neither alone covers
    # half of it, together they hold 60% (the 20 characters they share are counted once).
    assert contextual_recall([C("a", 80, 130), C("a", 110, 160)], ev) == 0.5
    assert contextual_recall([C("a", 80, 130)], ev) == 0.0
    assert contextual_recall([C("a", 80, 130), C("a", 110, 160), C("b", 0, 4)], ev, min_coverage=0.3) == 1.0
    # Two passages of one fact (the same fact in two articles): covering either delivers it.
    twins = [Evidence("a", "x" * 100, 100, 200, 0), Evidence("b", "y" * 10, 0, 10, 0)]
    assert contextual_recall([C("b", 0, 10)], twins) == 1.0


def test_misleading_needs_both_conditions():
    assert misleading("en-fees", {"amount"}, {"en-cash-out"}, {"amount", "percent"})
    assert not misleading("en-cash-out", {"amount"}, {"en-cash-out"}, {"amount"})  # the right article
    assert not misleading("en-fees", {"duration"}, {"en-cash-out"}, {"amount"})  # no value of the type
    assert not misleading("en-fees", {"amount"}, {"en-cash-out"}, set())  # an untyped question


def test_aurc_worked_example_with_ties():
    curve = Curve([0.9, 0.8, 0.8, 0.3], [0, 1, 0, 1])
    assert curve.aurc() == pytest.approx((0 + 1 / 3 + 1 / 3 + 1 / 2) / 4)
    # Listing the tied pair the other way round changes nothing.
    assert Curve([0.9, 0.8, 0.8, 0.3], [0, 0, 1, 1]).aurc() == pytest.approx(curve.aurc())
    pts = curve.points([0.0, 0.5, 0.85, 0.95])
    assert [(p["coverage"], p["risk"]) for p in pts] == [(1.0, 0.5), (0.75, 1 / 3), (0.25, 0.0), (0.0, None)]
    # A question that is never answered ends the curve early and adds nothing.
    assert Curve([0.9, None], [0, 1]).aurc() == 0.0


def brute_aurc(conf, wrong, weights):
    """AURC by expanding each question into `weight` copies and walking threshold groups."""
    rows = [(c, w) for c, w, k in zip(conf, wrong, weights) for _ in range(k) if c is not None]
    n = sum(weights)
    total = 0.0
    for c, _ in rows:
        answered = [w for c2, w in rows if c2 >= c]
        total += sum(answered) / len(answered)
    return total / n


def test_aurc_resamples_match_brute_force():
    rng = random.Random(5)
    conf = [rng.choice([None, 0.2, 0.4, 0.5, 0.9, rng.random()]) for _ in range(30)]
    wrong = [rng.randrange(2) for _ in range(30)]
    curve = Curve(conf, wrong)
    assert curve.aurc() == pytest.approx(brute_aurc(conf, wrong, [1] * 30))
    draws = resamples(30, 20, seed=3)
    per_draw = resample_aurcs(curve, draw_counts(draws, 30))
    for idx, got in zip(draws, per_draw):
        counts = [idx.count(i) for i in range(30)]
        assert got == pytest.approx(brute_aurc(conf, wrong, counts))
        assert curve.aurc(counts) == pytest.approx(got)
    lo, hi = aurc_interval(curve, draw_counts(resamples(30), 30))
    assert lo <= curve.aurc() <= hi and lo < hi


def test_mde_worked_example():
    # mean 0.4, sd sqrt(0.8), n 5: (1.95996 + 0.84162) * 0.894427 / sqrt(5)
    assert mde([1, 1, 1, 0, -1]) == pytest.approx(2.801585218 * math.sqrt(0.8) / math.sqrt(5))
    assert mde([0.5, 0.5]) is None and mde([1]) is None
    # Four times the questions (same spread), about half the detectable effect.
    assert mde([1, 1, 1, 0, -1] * 4) == pytest.approx(2.801585218 * math.sqrt(12.8 / 19) / math.sqrt(20))


def test_mde_has_the_stated_power():
    """Simulated: a true effect equal to the MDE is detected about 80% of the time."""
    rng = random.Random(11)
    n, sd = 60, 0.3
    effect = 2.801585218 * sd / math.sqrt(n)  # mde() of differences with this spread
    detected = 0
    for _ in range(400):
        d = [rng.gauss(effect, sd) for _ in range(n)]
        m = sum(d) / n
        s = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
        detected += abs(m) / (s / math.sqrt(n)) > 1.959964
    assert 0.72 <= detected / 400 <= 0.88


def test_sign_flip_p_matches_exact_enumeration():
    diffs = [1.0, 1.0, 1.0, 0.0, -1.0, 0.5, 0.25]
    nonzero = [d for d in diffs if d]
    exact = sum(1 for signs in itertools.product([1, -1], repeat=len(nonzero))
                if abs(sum(s * d for s, d in zip(signs, nonzero))) >= abs(sum(nonzero)) - 1e-12) / 2 ** len(nonzero)
    assert sign_flip_p(diffs, sign_patterns(len(diffs), 20000)) == pytest.approx(exact, abs=0.01)
    assert sign_flip_p([0.0, 0.0], sign_patterns(2)) == 1.0
    # A consistent improvement on 20 questions: no pattern is as extreme, p = 1/2001.
    assert sign_flip_p([0.5] * 20, sign_patterns(20)) == pytest.approx(1 / 2001, rel=0.5)


def test_holm_worked_example():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.2, None, 0.001]) == [0.2, None, 0.002]
    assert holm([0.5, 0.5]) == [1.0, 1.0]


def test_misleading_uses_the_answer_type_table():
    """A how-much question whose top chunk is another article's fee line is misleading; the
    right article, or a chunk without any amount, is not."""
    from raglab.evaluation.risk import answer_typing, memoized_outcome, question_fields

    wanted, present = answer_typing()
    question = "How much does it cost to cash out Tk 1,000 at an agent?"
    assert "amount" in wanted(question)
    assert "amount" in present("Sending money to a bank account costs Tk 10 per transfer.")
    q = type("Q", (), {"question": question, "answer": "Tk 18.50",
                       "evidence": (Evidence("en-cash-out", "x", 0, 10, 0),)})()
    typing = (wanted, present)
    judge = memoized_outcome()
    wrong_page = C("en-send-money", 0, 60)
    wrong_page.text = "Sending money to a bank account costs Tk 10 per transfer."
    no_amount = C("en-send-money", 0, 40)
    no_amount.text = "Open the app and tap Send Money."
    right_page = C("en-cash-out", 0, 60)
    right_page.text = "Cash out costs Tk 18.50 per Tk 1,000."
    assert question_fields(q, [wrong_page], [False], None, 0.5, judge, typing)["misleading"] is True
    assert question_fields(q, [no_amount], [False], None, 0.5, judge, typing)["misleading"] is False
    assert question_fields(q, [right_page], [True], "Cash out costs Tk 18.50.", 0.5, judge, typing) == {
        "outcome": "right", "ctx_precision": 1.0, "ctx_recall": 1.0, "misleading": False}
