"""The recommendation rule (docs/served-default.md) on hand-made figures."""

from raglab.evaluation.recommend import choose


def row(label, recall, mrr, para, words, ci=None):
    return {"label": label, "recall": recall, "recall_ci": ci, "mrr": mrr, "paraphrase_mrr": para, "words": words}


def test_candidates_reach_the_best_interval_and_paraphrase_mrr_decides():
    rows = [row("a", 0.90, 0.70, 0.60, 300, ci=[0.85, 0.95]), row("b", 0.86, 0.75, 0.65, 250),
            row("c", 0.84, 0.90, 0.90, 100), row("d", 0.88, 0.72, 0.65, 200)]
    got = choose(rows)
    assert got["best"] == "a" and got["candidates"] == ["a", "b", "d"]  # c is below 0.85
    # b and d tie on paraphrase MRR (0.65); b wins on overall MRR; d is the cheapest candidate.
    assert got["pick"] == "b" and got["cheapest"] == "d" and got["by"] == "paraphrase MRR@10"


def test_ties_to_three_decimals_go_to_mrr_then_fewer_words():
    rows = [row("a", 0.9, 0.8001, 0.7, 300, ci=[0.8, 0.95]), row("b", 0.9, 0.8004, 0.7004, 200)]
    assert choose(rows)["pick"] == "b"  # equal to three decimals on both MRRs: fewer words
    rows[1]["words"] = 400
    assert choose(rows)["pick"] == "a" and choose(rows)["cheapest"] == "a"


def test_without_paraphrases_overall_mrr_decides():
    rows = [row("a", 0.9, 0.6, None, 300, ci=[0.8, 0.95]), row("b", 0.85, 0.7, None, 300)]
    got = choose(rows)
    assert got["pick"] == "b" and got["by"] == "MRR@10"


def guarded_row(label, recall, para, slices, words=100):
    r = row(label, recall, 0.8, para, words, ci=[0.8, 0.95] if label == "a" else None)
    r["slices"] = slices
    return r


def test_the_slice_guard_rejects_a_candidate_below_the_best_interval():
    n = 12
    good = [1.0] * (n - 2) + [0.0, 0.0]  # mean 0.83, interval about [0.58, 1.0]
    bad = [1.0] * 2 + [0.0] * (n - 2)  # mean 0.17
    rows = [guarded_row("a", 0.90, 0.70, {"crosslingual bn→en": good, "typo": good}),
            guarded_row("b", 0.88, 0.95, {"crosslingual bn→en": bad, "typo": good}),  # best paraphrase MRR
            guarded_row("c", 0.86, 0.80, {"crosslingual bn→en": good, "typo": good})]
    got = choose(rows)
    assert got["candidates"] == ["a", "b", "c"] and got["rejected"] == {"b": ["crosslingual bn→en"]}
    assert got["pick"] == "c"  # b had the best paraphrase MRR@10 but loses a slice
    assert got["guards"]["crosslingual bn→en"]["best"] == "a" and got["guards"]["typo"]["n"] == n


def test_a_slice_of_fewer_than_ten_questions_guards_nothing():
    rows = [guarded_row("a", 0.90, 0.70, {"typo": [1.0] * 9}), guarded_row("b", 0.88, 0.95, {"typo": [0.0] * 9})]
    got = choose(rows)
    assert got["rejected"] == {} and got["pick"] == "b"


def test_when_every_candidate_is_rejected_the_fewest_rejections_go_on():
    hi, lo = [1.0] * 10, [0.0] * 10
    rows = [guarded_row("a", 0.90, 0.70, {"typo": hi, "Bangla": lo, "paraphrase": lo}),
            guarded_row("b", 0.90, 0.95, {"typo": lo, "Bangla": hi, "paraphrase": lo}),
            guarded_row("c", 0.90, 0.60, {"typo": lo, "Bangla": lo, "paraphrase": hi})]
    rows[2]["slices"]["typo"] = [1.0] * 10  # c is rejected on Bangla only
    got = choose(rows)
    assert got["guarded"] == ["c"] and got["pick"] == "c"


def test_recorded_external_figures_join_the_paraphrase_mrr_in_a_mean():
    rows = [row("a", 0.90, 0.80, 0.86, 230, ci=[0.85, 0.95]), row("b", 0.88, 0.80, 0.80, 190)]
    assert choose(rows)["pick"] == "a"  # our paraphrases alone
    got = choose(rows, external={"a": [0.56, 0.94], "b": [0.70, 0.94]})
    # a: (0.86 + 0.56 + 0.94) / 3 = 0.787; b: (0.80 + 0.70 + 0.94) / 3 = 0.813
    assert got["pick"] == "b" and got["by"] == "paraphrase MRR@10 and the external sets' MRR@10, mean"
    assert abs(got["step4"]["b"] - 0.81333) < 1e-4
    # A remaining candidate without a record: the external sets count for nobody.
    assert choose(rows, external={"b": [0.70, 0.94]})["pick"] == "a"
