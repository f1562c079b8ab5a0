"""The recommendation rule (README, "The served default") on hand-made figures."""

from raglab.recommend import choose


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
