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
