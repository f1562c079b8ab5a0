"""`bench/confidence_later_trial.py`: the threshold rules it compares, and the rounds it groups by."""


from helpers import bench_script


def test_the_risk_bound_is_never_below_the_risk_it_bounds():
    t = bench_script("confidence_later_trial")
    for wrong, n in ((0, 1), (0, 40), (3, 30), (6, 22), (10, 10)):
        assert wrong / n <= t.upper_bound(wrong, n, 1.0) <= 1.0
    assert t.upper_bound(6, 22, 1.645) > t.upper_bound(6, 22, 1.0)  # more confidence, a wider bound


def test_a_bound_on_the_risk_never_answers_more_than_the_point_rule():
    t = bench_script("confidence_later_trial")
    # (answerable, speaks, right): ten sure right answers, then one wrong in every four below 0.8
    outcomes, conf = [], []
    for i in range(40):
        c = 0.95 if i < 10 else 0.79 - 0.01 * i
        outcomes.append((True, True, i < 10 or i % 4))
        conf.append(c)
    point = t.choose(outcomes, conf)
    assert t.choose(outcomes, conf, 1.0) >= point
    shown = [o for o, c in zip(outcomes, conf) if c >= point]
    assert sum(1 for o in shown if not o[2]) <= 0.1 * len(shown)


def test_questions_fall_in_the_round_they_were_written_in():
    a = bench_script("later_answers")
    assert a.round_of("q001") == 0
    assert a.round_of("q697") == a.round_of("q650")
    assert a.round_of("q698") == a.round_of("q745") == a.round_of("q650") + 1  # the first later round
    assert a.round_of("q919") == a.round_of("q890") == a.round_of("q889") + 1  # the near-miss unanswerable questions
    assert a.round_of("q920") == a.round_of("q969") == a.round_of("q919") + 1  # then two rounds as customers type
    assert a.round_of("q1019") == a.round_of("q970") == len(a.ROUNDS) - 1


def rec(terms, signals=None, cosine_rank=None):
    """A cached answer as `later_answers.records` keeps it: per term [term, weight, held, heading
    only, held by any candidate, in another form, in the asking sentence]."""
    return {"terms": terms, "signals": signals, "cosine_rank": cosine_rank}


def test_coverage_read_over_part_of_the_question():
    t = bench_script("confidence_later_trial")
    terms = [["ফোন", 3.0, True, False, True, True, False],  # held
             ["নতুন", 2.0, False, True, True, False, False],  # in the heading only: half
             ["e", 6.0, False, False, False, False, False],  # a Banglish particle no unit holds
             ["করল", 4.0, False, False, True, False, False]]  # a light verb another unit holds
    whole = t.cover_over(rec(terms), lambda x: True)
    assert whole == ((3.0 + 1.0) / 15.0, 6.0 / 15.0)  # as the served coverage and missing read it
    assert "e" in t.grammar() and "করল" in t.grammar() and "ফোন" not in t.grammar()
    assert t.cover_over(rec(terms), t.content) == ((3.0 + 1.0) / 5.0, 0.0)  # grammar words left out
    assert t.cover_over(rec([["16", 6.0, False, False, False, False, False]] + terms[:1]), t.no_number)[0] == 1.0
    assert t.cover_over(rec([]), lambda x: True) == (0.0, 0.0)


def test_coverage_counting_other_forms_and_the_better_rank():
    t = bench_script("confidence_later_trial")
    terms = [["redeemed", 5.0, False, False, True, True, False], ["point", 3.0, True, False, True, True, False]]
    assert t.near_cover(rec(terms)) == 1.0  # "redeem" in the unit counts for "redeemed"
    served = [0.0] * len(t.SERVED)
    served[t.CONFIDENCE_COL["lexical_rank"]] = 1.0 / 6.0  # BM25 ranks the chunk sixth
    assert t.best_rank(rec(terms, served, cosine_rank=0)) == 1.0  # the encoder ranks it first
    assert t.best_rank(rec(terms, served, cosine_rank=9)) == 1.0 / 6.0
    assert t.cosine_share(rec(terms, served, cosine_rank=None)) == 1.0 / 6.0  # no encoder: the lexical rank


def test_the_band_reads_each_input_by_the_chance_a_right_answer_outranks_a_wrong_one():
    t = bench_script("confidence_later_trial")
    assert t.auc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert t.auc([0.5], [0.5]) == 0.5  # a tie counts half
    assert t.auc([0.1, 0.9], [0.5]) == 0.5
