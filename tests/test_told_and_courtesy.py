"""A new user's question read for the confidence as it asks, not as it tells: the words of the story
told first that the index lacks, and the words of courtesy a letter wraps its question in."""

from types import SimpleNamespace as NS

from raglab.answer.candidates import COURTESY, asking_terms, missing_share, question_info
from raglab.text.analyzer import analyze


def idf(term: str) -> float:
    return 2.0 if term in {"agent", "money", "cash", "out"} else 4.0


def read(text: str, unknown=()):
    return question_info(text, analyze(text), idf, {}, unknown)


def test_courtesy_words_are_no_question_terms_in_either_language():
    q = read("Assalamu alaikum. Dear sir, kindly tell me how to reset my PIN. Thank you.")
    assert not set(q.weights) & COURTESY and {"reset", "pin"} <= set(q.weights)
    q = read("মাননীয় স্যার, অনুগ্রহ করে জানাবেন পিন কীভাবে বদলাব? ধন্যবাদ।")
    assert not set(q.weights) & COURTESY and q.weights
    assert "team" in read("Respected team, how do I email the fraud team?").weights  # not a courtesy word


def test_story_words_the_index_lacks_count_only_in_the_asking_sentence():
    # "My cousin in Dubai sent me money. Can I cash it out at an agent?": the cousin and Dubai say who
    # asks; no article names them, and counted they held the answer down as an unanswerable question's
    # words do. The unit holding cash, out, agent and money covers what is asked.
    q = read("My cousin in Dubai sent me money. Can I cash it out at an agent?", unknown=("cousin", "dubai"))
    found = NS(found=frozenset({"cash", "out", "agent", "money"}))
    missing, kept = missing_share(q, [], [found])
    told = q.weights["cousin"] + q.weights["dubai"]
    assert abs(kept - (q.total - told) / q.total) < 1e-12
    assert abs(missing - q.weights["sent"] / (q.total - told)) < 1e-12  # a known word of the story still counts
    # Asked about, Dubai is what the answer must hold: it counts, held or not.
    q = read("My cousin sent me money. Can I cash it out in Dubai?", unknown=("cousin", "dubai"))
    missing, kept = missing_share(q, [], [found])
    assert abs(kept - (q.total - q.weights["cousin"]) / q.total) < 1e-12
    assert missing * kept * q.total >= q.weights["dubai"]


def test_a_question_of_one_sentence_reads_as_before():
    q = read("Can my cousin in Dubai cash out at an agent?", unknown=("cousin", "dubai"))
    missing, kept = missing_share(q, [], [NS(found=frozenset({"cash", "out", "agent"}))])
    assert kept == 1.0
    assert abs(missing - (q.weights["cousin"] + q.weights["dubai"]) / q.total) < 1e-12


def test_a_question_of_one_sentence_asks_in_its_last_clause():
    # "My son is 16 and wants his own account for school stuff, can he open one?": the son's school
    # stuff is told, the opening asked. In Bangla the same: the clause after the comma asks.
    q = read("My son is 16 and wants his own account for school stuff, can he open one?", unknown=("son", "stuff"))
    assert asking_terms(q) == {"open", "one"} & set(q.weights) and "open" in asking_terms(q)
    missing, kept = missing_share(q, [], [NS(found=frozenset({"account", "open"}))])
    assert abs(kept - (q.total - q.weights["son"] - q.weights["stuff"]) / q.total) < 1e-12
    q = read("ভুল নম্বরে রিচার্জ হয়ে গেছে, টাকা ফেরত পাব?")
    assert asking_terms(q) and asking_terms(q) < set(q.weights)
    assert not asking_terms(read("How much is the fee?"))
