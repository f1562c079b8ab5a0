"""The agreement signals the confidence trials for later questions read (`bench/later_answers.py`):
a shown value stated again elsewhere, in the twin article, or contradicted close behind."""

from types import SimpleNamespace as NS

from helpers import bench_script


def cand(doc, text):
    return NS(quote=NS(doc=doc, text=text), unit=NS(text=text))


def test_the_twin_article_is_the_other_language():
    later = bench_script("later_answers")
    assert later.twin_id("en-cash-out") == "bn-cash-out" and later.twin_id("bn-pin") == "en-pin"
    assert later.twin_id("faq-12") == ""


def test_a_value_stated_again_and_one_contradicted_close_behind():
    later = bench_script("later_answers")
    best = cand("en-cash-out", "The fee is Tk 18.50 per 1,000.")
    again = cand("en-cash-in", "Cash out costs Tk 18.50 for each 1,000.")
    other = cand("en-cash-out", "At a bank ATM the fee is Tk 15 per 1,000.")
    a = NS(order=[(3.0, best), (2.5, other), (1.0, again)])
    ans = NS(short_answers=[NS(text="Tk 18.50")], quotes=[best.quote])
    docs = {"bn-cash-out": NS(text="খরচ প্রতি হাজারে ১৮.৫০ টাকা।")}
    got = later.agreement(a, ans, docs)
    assert got["has_value"] == 1.0 and got["val_other_unit"] == 1.0 and got["val_other_doc"] == 1.0
    assert got["val_twin"] == 1.0  # Bangla digits read as the same number
    assert got["val_margin"] == 0.5 / 4.0  # the unit with another value, 0.5 logits behind
    # Without a short answer there is no value to agree on.
    none = later.agreement(a, NS(short_answers=[], quotes=[best.quote]), docs)
    assert none == {"has_value": 0.0, "val_other_unit": 0.0, "val_other_doc": 0.0, "val_twin": 0.0,
                    "val_margin": 1.0}


def test_the_sentence_model_is_fitted_at_the_committed_l2():
    fit = bench_script("fit_answerer")
    fitting = bench_script("fitting")
    assert fit.CHOICE_L2 == fitting.L2 == 1.0  # the L2 tried forward at 10 was not kept
