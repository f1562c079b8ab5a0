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


def test_the_terms_read_give_back_the_served_coverage():
    from helpers import docs
    from raglab.answer.sentences import CONFIDENCE_COL
    from raglab.pipeline import Pipeline

    later = bench_script("later_answers")
    trial = bench_script("confidence_later_trial")
    pipe = Pipeline(list(docs()))
    question = "notun phone e account kivabe nibo?"
    hits = pipe.search(question)
    top = [pipe.chunks[h.index] for h in hits]
    a = pipe.assess(question, top, [h.score for h in hits])
    terms = later.terms_read(a, top)
    assert [t[0] for t in terms] == list(a.q.weights)
    got = trial.cover_over({"terms": terms}, lambda t: True)
    assert abs(got[0] - a.signals[CONFIDENCE_COL["coverage"]]) < 1e-12
    assert abs(got[1] - a.signals[CONFIDENCE_COL["missing"]]) < 1e-12
    # the Banglish particle "e" ("notun phone e") is no term: no unit held it, and as a word the
    # index lacks it weighed the most of the question (`banglish.PARTICLES`)
    assert "e" not in a.q.weights and "account" in a.q.weights
    rank = later.cosine_rank(pipe, question, top[a.order[0][1].rank])
    assert isinstance(rank, int) and rank >= 0


def test_a_new_users_question_is_read_by_its_judgement_after_the_reading():
    later = bench_script("later_answers")
    row = lambda said: {"after": {"judged": said}}  # noqa: E731
    assert later.judged(row("withheld, right quote")) == "right"
    assert later.judged(row("right, shown")) == "right"
    assert later.judged(row("quote: right sentence, withheld (the sentence model re-fitted after the round)")) == "right"
    assert later.judged(row("rightly withheld")) == "unstated"  # shown, it is a wrong answer
    for said in ("withheld, right passage on screen", "withheld, retrieval miss", "wrong, shown"):
        assert later.judged(row(said)) == "wrong"
