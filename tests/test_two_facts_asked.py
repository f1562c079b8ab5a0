"""Two facts asked: the halves, the other fact's unit, its value in bold, and the confidence of
an answer that quotes the other fact without its value (docs/pipeline.md, "Two facts asked, …")."""

from types import SimpleNamespace as N

from raglab.answer.answerer import answer, assess, compose, signals_of
from raglab.answer.facts import _parts, half_words_first
from raglab.answer.sentences import model
from raglab.corpus.articles import parse_article
from raglab.corpus.chunking import chunk_document
from raglab.text.analyzer import analyze


def idf(term):
    return 1.0


def ask(article, q):
    return answer(analyze(q), chunk_document(article, "sentence"), idf, threshold=0.0, question=q, docs={article.id: article})


def test_the_halves_are_cut_at_the_joining_word_that_opens_its_clause():
    q = "How long do you have to sort it out, and if I'm still unhappy and go to the GRO, how long do they take to reply?"
    before, after = _parts(q)
    assert before.strip() == "How long do you have to sort it out,"
    assert "unhappy and go to the GRO" in after
    # one joining word, or none opening its clause: the last, as before
    assert _parts("What are the minimum and maximum amounts?")[1].strip() == "maximum amounts?"


SAVINGS = parse_article("s", """# Savings scheme

## Profit
The scheme pays a profit rate of 7% a year.
The profit is added at the end of the term.

## At a glance
| Item | Details |
|---|---|
| Deposit | Tk 500 a month |
| Term | 1, 2 or 3 years |
""")


def test_a_table_row_named_by_the_half_left_out_is_the_other_fact():
    got = ask(SAVINGS, "What profit rate do I get, and which terms can I choose from?")
    assert [x.text for x in got.quotes] == ["The scheme pays a profit rate of 7% a year.", "Term — Details: 1, 2 or 3 years"], got.quotes
    assert [s.text for s in got.short_answers] == ["7% a year", "1, 2 or 3 years"], got.short_answers


NO_ROW = parse_article("n", """# Savings scheme

## Profit
The scheme pays a profit rate of 7% a year.
The profit is added at the end of the term.
""")


def test_the_other_fact_quoted_without_its_value_is_half_an_answer():
    q = "What profit rate do I get, and which terms can I choose from?"
    a = assess(analyze(q), chunk_document(NO_ROW, "sentence"), idf, question=q, docs={"n": NO_ROW})
    composed = compose(a, {"n": NO_ROW})
    assert len(composed.quotes) == 2 and len(composed.short_answers) == 1, composed
    assert signals_of(a, composed, model())[-1] == 1.0
    # a half asking what happens asks no value: the quote without one is no half answer
    q = "What profit rate do I get, and what happens at the end of the term?"
    a = assess(analyze(q), chunk_document(NO_ROW, "sentence"), idf, question=q, docs={"n": NO_ROW})
    composed = compose(a, {"n": NO_ROW})
    assert len(composed.quotes) == 2, composed
    assert signals_of(a, composed, model())[-1] == 0.0


SHOP = parse_article("m", """# Selling with QR

For each payment you receive, you pay a fee of 1.5% to the wallet.
Sales are settled to your bank account on the next working day.
""")


def test_the_other_facts_value_is_bold_when_its_half_names_no_kind():
    got = ask(SHOP, "What does the wallet take from each sale, and when does that money reach my bank?")
    assert len(got.quotes) == 2, got.quotes
    assert "1.5%" in [s.text for s in got.short_answers], got.short_answers


def unit(text, found):
    return N(unit=N(text=text, cell="", kind="sentence"), found=frozenset(found), in_heading=frozenset(), halves=())


def test_a_unit_holding_more_of_its_halfs_words_goes_first():
    q = "What happens if the money is still in their wallet? And how many days does the whole review take?"
    deadline = unit("You must ask within 30 days of the transfer.", {"day"})
    review = unit("The whole review takes 10 working days.", {"whole", "review", "day"})
    weights = {t: 1.0 for t in analyze(q)}
    order = [(8.7, deadline), (8.5, review)]
    assert half_words_first(N(text=q, weights=weights), order, 1.0)[0][1] is review
    assert half_words_first(N(text=q, weights=weights), order, 0.1)[0][1] is deadline  # beyond the margin
    # a question asking one thing: the order as it is
    assert half_words_first(N(text="How many days does the whole review take?", weights=weights), order, 1.0) == order
