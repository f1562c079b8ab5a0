"""Metric functions: hand-computed cases, properties, and a cross-check against ir_measures."""

import math

import ir_measures
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import docs, questions
from raglab.corpus.chunking import Chunk
from raglab.corpus.goldens import Evidence
from raglab.evaluation import metrics as M
from raglab.evaluation.engine import coverage_index
from raglab.pipeline import Config, Pipeline


def chunk(doc, start, end):
    return Chunk(f"{doc}#x", doc, start, end, "", ())


# --- coverage and gain ---------------------------------------------------------------------


def test_a_chunk_covers_a_passage_from_half_of_its_characters():
    passage = Evidence("a", "", 100, 140)  # 40 characters
    assert M.covers(chunk("a", 120, 200), passage)  # overlaps 20 = exactly half
    assert not M.covers(chunk("a", 121, 200), passage)  # 19
    assert not M.covers(chunk("b", 100, 140), passage)  # same offsets, other document
    assert M.covers(chunk("a", 121, 200), passage, min_coverage=0.4)
    assert not M.covers(chunk("a", 0, 139), passage, min_coverage=1.0)
    other = Evidence("a", "", 180, 190)
    assert M.covered(chunk("a", 121, 200), [passage, other]) == {1}
    assert M.covered(chunk("a", 121, 200), [passage, other], min_coverage=0.4) == {0, 1}


def test_gain_counts_once_per_passage():
    assert M.gains([frozenset({0}), frozenset({0}), frozenset({1}), frozenset(), frozenset({0, 2})]) == [1, 0, 1, 0, 1]


def test_hand_computed_ranking_with_three_passages():
    gain = [0, 1, 0, 1, 0]
    assert M.recall_at(gain, 3, 5) == pytest.approx(2 / 3)
    assert round(M.recall_at(gain, 3, 5), 3) == 0.667
    assert M.reciprocal_rank(gain) == 0.5
    assert round(M.ndcg_at(gain, [1, 1, 1], 5), 3) == 0.498
    assert M.hit_at(gain, 1) == 0.0 and M.hit_at(gain, 2) == 1.0
    assert M.first_rank(gain) == 2


def test_mrr_of_first_relevant_ranks_1_3_none_2():
    rankings = [[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 1, 0]]
    assert round(M.mean(M.reciprocal_rank(g) for g in rankings), 3) == 0.458


def test_reciprocal_rank_is_cut_at_k():
    gain = [0] * 10 + [1]
    assert M.reciprocal_rank(gain, 10) == 0.0
    assert M.reciprocal_rank(gain, 11) == pytest.approx(1 / 11)


def test_ideal_lets_a_chunk_cover_two_passages_but_not_excuse_a_missing_one():
    assert M.ideal_gains([frozenset({0, 1}), frozenset({2}), frozenset({0})], 3) == [2, 1]
    assert M.ideal_gains([frozenset({0, 1}), frozenset({2})], 4) == [2, 1, 1]  # passage 3: no chunk covers it
    assert M.ideal_gains([], 2) == [1, 1]
    # One chunk holding both passages at rank 1 is perfect for that chunker ...
    assert M.ndcg_at(M.gains([frozenset({0, 1})]), [2], 5) == 1.0
    # ... and so is one passage per rank for a chunker that must split them.
    assert M.ndcg_at(M.gains([frozenset({0}), frozenset({1})]), [1, 1], 5) == 1.0
    # A passage no chunk can cover keeps the score below 1.
    assert M.ndcg_at([1], M.ideal_gains([frozenset({0})], 2), 5) < 1.0


passage_sets = st.frozensets(st.integers(0, 2), max_size=3)


@settings(max_examples=300, deadline=None)
@given(universe=st.lists(passage_sets, min_size=1, max_size=12), n=st.integers(1, 4), data=st.data())
def test_ndcg_and_recall_stay_within_0_and_1(universe, n, data):
    universe = [p for p in universe if all(i < n for i in p)] or [frozenset()]
    order = data.draw(st.permutations(range(len(universe))))
    gain = M.gains([universe[i] for i in order])
    ideal = M.ideal_gains([p for p in universe if p], n)
    for k in (1, 3, 5, 10):
        assert 0.0 <= M.ndcg_at(gain, ideal, k) <= 1.0 + 1e-12
        assert 0.0 <= M.recall_at(gain, n, k) <= 1.0


# --- answers -------------------------------------------------------------------------------


def test_token_f1_uses_the_analyzer():
    # shapla pay licensed bangladesh bank (is, by: stopwords) vs bangladesh bank: P 2/5, R 1.
    assert M.token_f1("Shapla Pay is licensed by Bangladesh Bank.", "Bangladesh Bank.") == pytest.approx(4 / 7)
    assert M.token_f1("১০ মিনিটের মধ্যে।", "10 মিনিটের মধ্যে") == 1.0  # digits fold, danda goes
    assert M.exact_match("১০ মিনিটের মধ্যে।", "10 মিনিটের মধ্যে") == 1.0
    assert M.exact_match("TK 50!", "Tk 50.") == 1.0
    assert M.exact_match("Tk 50 a day", "Tk 50") == 0.0
    assert M.token_f1("The weather is nice", "Tk 50") == 0.0


def test_an_abstention_scores_zero():
    assert M.token_f1(None, "Tk 50") == 0.0 and M.exact_match(None, "Tk 50") == 0.0


def test_faithfulness_is_measured_per_quote():
    from raglab.answer.results import Quote
    text = "The fee is 1.85%. It is charged at the agent.\n\n| Where | Fee |\n|---|---|\n| Agent | 1.85% |\n"
    texts = {"a": text}
    right = Quote("a#1", "a", 0, 17, "The fee is 1.85%.")
    wrong = Quote("a#1", "a", 0, 17, "The fee is 1.95%.")  # not what the article says there
    row_start = text.index("| Agent")
    row = Quote("a#2", "a", row_start + 2, len(text) - 3, "Agent — Fee: 1.85%", "row")
    made_up = Quote("a#2", "a", row_start + 2, len(text) - 3, "Agent — Charge: 1.85%", "row")
    assert M.faithfulness([right], texts) == 1.0
    assert M.faithfulness([right, wrong], texts) == 0.5
    assert M.faithfulness([row], texts) == 1.0 and M.faithfulness([made_up], texts) == 0.0
    assert M.faithfulness([right], {}) == 0.0  # an article that was not retrieved


def test_citation_precision_on_spans():
    passages = [Evidence("a", "", 100, 140)]
    good, bad = chunk("a", 90, 150), chunk("a", 300, 400)
    assert M.citation_precision([good], passages) == 1.0
    assert M.citation_precision([good, bad], passages) == 0.5
    assert M.citation_precision([], passages) == 0.0


def test_mean_of_nothing_is_none_not_zero():
    assert M.mean([]) is None
    assert M.mean([0.1] * 10) == 0.1  # fsum: exact here, where a naive loop gives 0.9999999999999999 / 10


# --- bootstrap ---------------------------------------------------------------------------


def test_resamples_are_fixed_by_the_seed():
    a, b = M.resamples(30, 50, seed=7), M.resamples(30, 50, seed=7)
    assert a == b and len(a) == 50 and all(len(x) == 30 and 0 <= min(x) and max(x) < 30 for x in a)
    assert M.resamples(30, 50, seed=8) != a
    assert len(M.resamples(5)) == M.RESAMPLES == 2000


def test_resamples_are_the_standard_librarys_draws():
    """The draws `random.Random(seed).randrange(n)` gives, so every interval reported before
    the faster drawing is reproduced to the digit (n of every bit length's edge included)."""
    import random

    for n in (1, 2, 3, 4, 5, 31, 32, 33, 163, 1024, 1025):
        rng = random.Random(11)
        assert M.resamples(n, 40, seed=11) == [[rng.randrange(n) for _ in range(n)] for _ in range(40)], n
    assert M.resamples(0) == []


def test_interval_bounds_are_the_51st_and_1950th_of_2000_means():
    values = [float(v) for v in reversed(range(2000))]
    draws = [[i] for i in range(2000)]  # resample i has mean values[i]
    assert M.percentile_interval(values, draws) == (50.0, 1949.0)


def test_interval_brackets_the_mean_and_collapses_on_constant_data():
    values = [1.0, 0.0, 0.5, 1.0, 1.0, 0.0, 0.25, 1.0, 1.0, 0.0] * 4
    lo, hi = M.percentile_interval(values, M.resamples(len(values)))
    assert lo < M.mean(values) < hi
    assert M.percentile_interval([0.5] * 8, M.resamples(8)) == (0.5, 0.5)


# --- cross-check against ir_measures (trec_eval) -----------------------------------------


def passage_run(ranked_sets):
    """Doc ids per rank for a TREC run: the passage first covered there, else a unique miss."""
    out = []
    for rank, new in enumerate(_new_sets(ranked_sets), 1):
        out.append(f"p{min(new)}" if new else f"miss{rank}")
    return out


def _new_sets(ranked_sets):
    seen, out = set(), []
    for s in ranked_sets:
        out.append(s - seen)
        seen |= s
    return out


@pytest.mark.parametrize("chunker", ["fixed", "recursive", "sentence"])
def test_metrics_match_ir_measures_on_a_trec_run(chunker, tmp_path):
    """Export the bundled set's BM25 run in TREC format at passage level (a rank's doc is
    the passage it first covers), read it back with ir_measures and compare per query.

    TREC tools re-sort by score and break ties by doc id; we export strictly decreasing
    scores (11 - rank) so they see our order, ties already broken by chunk order.
    Questions where one chunk covers two passages at once cannot be written as a TREC
    run and are left out (none for the sentence chunker).
    """
    pipe = Pipeline(list(docs()), Config(chunker=chunker, retriever="bm25"))
    qs = [q for q in questions() if q.answerable]
    cover = coverage_index(pipe.chunks, qs, 0.5)
    run_lines, qrel_lines, ours, skipped = [], [], {}, 0
    for q in qs:
        found = cover[q.id]
        ranked = [found.get(h.index, frozenset()) for h in pipe.search(q.question, 10)]
        if any(len(s) > 1 for s in _new_sets(ranked)) or any(len(s) > 1 for s in found.values()):
            skipped += 1
            continue
        gain = M.gains(ranked)
        ideal = M.ideal_gains(list(found.values()), len(q.evidence))
        ours[q.id] = {"Success@1": M.hit_at(gain, 1), "Success@5": M.hit_at(gain, 5),
                      "R@5": M.recall_at(gain, len(q.evidence), 5), "RR@10": M.reciprocal_rank(gain, 10),
                      "nDCG@5": M.ndcg_at(gain, ideal, 5), "nDCG@10": M.ndcg_at(gain, ideal, 10)}
        for rank, doc_id in enumerate(passage_run(ranked), 1):
            run_lines.append(f"{q.id} Q0 {doc_id} {rank} {11 - rank} raglab")
        for j in range(len(q.evidence)):
            qrel_lines.append(f"{q.id} 0 p{j} 1")
    if chunker == "sentence":
        assert skipped == 0
    assert len(ours) >= 0.75 * len(qs), f"only {len(ours)} of {len(qs)} questions cross-checked"
    (tmp_path / "run.trec").write_text("\n".join(run_lines) + "\n")
    (tmp_path / "qrels.trec").write_text("\n".join(qrel_lines) + "\n")
    measures = [ir_measures.parse_measure(name) for name in ["Success@1", "Success@5", "R@5", "RR@10", "nDCG@5", "nDCG@10"]]
    theirs = {}
    for m in ir_measures.iter_calc(measures, ir_measures.read_trec_qrels(str(tmp_path / "qrels.trec")),
                                   ir_measures.read_trec_run(str(tmp_path / "run.trec"))):
        theirs.setdefault(m.query_id, {})[str(m.measure)] = m.value
    assert set(theirs) == set(ours)
    for qid, mine in ours.items():
        for name, value in mine.items():
            assert math.isclose(theirs[qid][name], value, abs_tol=1e-9), (qid, name, theirs[qid][name], value)


@pytest.mark.parametrize("answer, reference, expected", [
    ("The fee is Tk 18.50 per Tk 1,000 (1.85%).", "A 1.85% fee", True),
    ("The fee at a partner bank ATM is 1.95%.", "1.85% of the amount", False),
    ("Up to Tk 1,50,000 a month.", "Tk 150,000 a month", True),  # grouping ignored
    ("মাসে ১,৫০,০০০ টাকা পর্যন্ত।", "মাসে 150000 টাকা", True),  # digit scripts folded
    ("Call 16789 at any hour.", "Call the hotline 16789, open 24 hours", False),  # 24 missing
    (None, "Bangladesh Bank.", False),  # an abstention holds nothing
    ("It is licensed by Bangladesh Bank.", "Bangladesh Bank.", True),
    ("Shapla Pay is a wallet.", "Bangladesh Bank.", False),  # under half the content terms
])
def test_holds_fact(answer, reference, expected):
    assert M.holds_fact(answer, reference) is expected


def test_numbers_fold_scripts_and_grouping():
    assert M.numbers("Tk 1,50,000 a month, ১.৮৫% fee, 150,000.") == ["150000", "1.85", "150000"]


@pytest.mark.parametrize("text, values", [
    ("দুই লাখ টাকা", ["200000"]),
    ("২,০০,০০০ টাকা", ["200000"]),
    ("Tk 200,000", ["200000"]),
    ("2 lakh taka", ["200000"]),
    ("১.৫ লাখ", ["150000"]),
    ("দেড় লাখ", ["150000"]),
    ("সাড়ে তিন হাজার", ["3500"]),
    ("five digits", ["5"]),
    ("twenty-five thousand", ["25000"]),
    ("two hundred and fifty", ["250"]),
    ("দুই হাজার পাঁচশো", ["2500"]),
    ("পাঁচটি নম্বর, তিনবার", ["5", "3"]),
    ("one account per NID", ["1"]),
    ("open one. One of them", []),  # "one" as a pronoun is no number
    ("একটি নম্বর", []),  # the indefinite article
    ("এটা ফ্রি নয়।", []),  # নয় as "is not"
    ("নয় শতাংশ", ["9"]),
    ("2 lakh, five", ["200000", "5"]),  # punctuation ends a number
    ("Tk 18.50", ["18.50"]),  # digits as written
    ("১.৮৫১.৮৫ হাজার", ["1.851.85"]),  # two decimal points: kept as written, never an error
    ("version 2.10.3", ["2.10.3"]),
])
def test_number_values_read_words_and_either_digit_script(text, values):
    assert M.number_values(text) == values


@pytest.mark.parametrize("answer, reference, lenient, strict", [
    ("Up to ২,০০,০০০ টাকা a month.", "দুই লাখ টাকা", True, False),
    ("You can send up to Tk 200,000 a month.", "Tk 2 lakh a month", True, False),
    ("শাপলা পে-র পিন ৫ সংখ্যার।", "পাঁচ অঙ্কের পিন।", True, False),
    ("The PIN has five digits.", "The PIN has 5 digits.", True, False),
    ("The PIN has 4 digits.", "Five digits.", False, True),  # a number in words is checked as a number
    ("The fee is 1.95% at an ATM.", "1.85%", False, False),  # nothing else is loosened
])
def test_holds_fact_reads_numbers_in_words_and_reports_the_strict_reading(answer, reference, lenient, strict):
    assert M.holds_fact(answer, reference) is lenient
    assert M.holds_fact(answer, reference, strict=True) is strict


def _passage(quote: str, fact: int | None = None):
    from raglab.corpus.goldens import Evidence
    return Evidence(doc="en-x" if quote.isascii() else "bn-x", quote=quote, start=0, end=len(quote), fact=fact)


BILL = _passage("A failed bill payment is refunded to your wallet within 3 working days.")
REFUND = "৩ কার্যদিবসের মধ্যে টাকা ওয়ালেটে ফেরত আসবে।"
SAVINGS = (_passage("Shapla Sanchay is a monthly savings scheme that you open and manage from the Shapla Pay app.", 1),
           _passage("Shapla Sanchay pays a profit rate of 7% a year on your savings.", 2))


@pytest.mark.parametrize("answer, reference, evidence, expected", [
    # A Bangla question answered from an English article: the reference's words cannot be there.
    ("within 3 working days\nA failed bill payment is refunded to your wallet within 3 working days.", REFUND, (BILL,), True),
    ("within 3 working days\nA failed bill payment is refunded to your wallet within 3 working days.", REFUND, (), False),
    ("A failed bill payment is refunded within 5 working days.", REFUND, (BILL,), False),  # the number still decides
    ("Call the hotline within 3 days to report it.", REFUND, (BILL,), False),  # another sentence with the number
    # Two facts: each needs one of its own passages.
    ("Shapla Sanchay is a monthly savings scheme. It pays a profit rate of 7% a year on your savings.",
     "শাপলা সঞ্চয় আছে, মুনাফা বছরে ৭%।", SAVINGS, True),
    ("Shapla Sanchay is a monthly savings scheme that you open from the app, 7% a year.",
     "শাপলা সঞ্চয় আছে, মুনাফা বছরে ৭%।", SAVINGS[:1] + (_passage("Profit is paid yearly into your wallet at 7%.", 2),), False),
])
def test_an_answer_in_the_other_language_is_judged_by_the_passages_in_its_language(answer, reference, evidence, expected):
    assert M.holds_fact(answer, reference, evidence=evidence) is expected
    assert M.holds_fact(answer, reference, strict=True, evidence=evidence) is False  # the strict reading is as before


def test_passages_do_not_change_a_same_language_judgement():
    # The reference is English like the answer: its own words decide, not the passage's.
    assert M.holds_fact("Refunds take 3 working days.", "Refunded within 3 working days.", evidence=(BILL,)) is True
    assert M.holds_fact("Shapla Pay is a wallet, 3 days.", "Refunded within 3 working days.", evidence=(BILL,)) is False
