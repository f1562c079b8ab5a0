"""What a question asks, read from its words (`question/asking.py`), and the answers that follow:
how much one can do asks for the upper limit, never the minimum."""


import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question import asking, modality
from raglab.question.asking import asks_more
from raglab.question.modality import asks_need, states_need
from raglab.question.places import places
from raglab.schema import ask_json
from raglab.text.analyzer import tokens
from raglab.text.answertypes import question_type


@pytest.fixture(scope="module")
def served():
    # The served configuration, every answer composed whatever its confidence.
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_how_much_one_can_do_asks_for_the_upper_limit():
    assert asks_more("আজকে আর কত টাকা তুলতে পারব?", "amount")
    assert asks_more("How much more can I send today?", "amount")
    assert asks_more("Can I cash out 30,000 taka today?", "yesno")
    assert asks_more("can i send 40000 today", "yesno")
    # A stated age or duration asks about a minimum requirement; so does a question for the minimum.
    assert not asks_more("opened my account 2 months ago, can i get a nano loan yet?", "yesno")
    assert not asks_more("My son is 16, can he open an account?", "yesno")
    assert not asks_more("What is the minimum I can cash out?", "amount")
    assert asks_more("can i send 1.851.85 taka today", "yesno")  # a malformed number is still read
    assert not asks_more("কত দিনের মধ্যে টাকা ফেরত পাব?", "duration")
    assert asking.only_lower("প্রতিবার ক্যাশ আউটের ন্যূনতম পরিমাণ ৫০ টাকা।")
    assert not asking.only_lower("দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।")


@pytest.mark.parametrize("question", ["আজ দুইবারে ১৫ হাজার টাকা ক্যাশ আউট করেছি। আজ আর কত টাকা তুলতে পারব?",
                                      "আজকে তিনবারে ২০ হাজার টাকা ক্যাশ আউট করে ফেলছি। আজকে আর কত টাকা তুলতে পারব?"])
def test_how_much_more_one_can_cash_out_is_not_answered_by_the_minimum(served, question):
    got = ask_json(served.ask(question))
    assert "ন্যূনতম" not in got["answer"], got["answer"]
    assert "দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা" in [s["text"] for s in got["short_answers"]], got["short_answers"]  # with its qualifier and period


def _found(pipe, question, start):
    """The question terms the candidate unit starting with `start` holds."""
    hits = pipe.search(question)
    a = pipe.assess(question, [pipe.chunks[h.index] for h in hits], [h.score for h in hits])
    return next(c.found for _, c in a.order if c.unit.text.startswith(start))


def test_a_negated_word_is_not_the_word(served):
    # "যাচাই না হওয়া অ্যাকাউন্ট" is an unverified account: it does not hold "verified" (through its
    # Bangla alias যাচাই), as "unverified" does not.
    unit = "যাচাই না হওয়া অ্যাকাউন্টে"
    assert "verify" not in _found(served, "What is the maximum balance after I verify my personal account?", unit)
    # Asked of "a verified personal account", the unit names the other half of a contrast (an account
    # not yet verified, `data/contrasts.json`) and is no candidate at all.
    q = "What is the maximum balance a verified personal account can hold?"
    hits = served.search(q)
    a = served.assess(q, [served.chunks[h.index] for h in hits], [h.score for h in hits])
    assert not any(c.unit.text.startswith(unit) for _, c in a.order)
    # A question that negates the word itself, in any way, still finds it there.
    assert "verify" in _found(served, "verify hoy nai emon account e sorbochcho koto taka balance rakha jay?", unit)
    s = "যাচাই না হওয়া অ্যাকাউন্টে সর্বোচ্চ ৫,০০০ টাকা ব্যালেন্স রাখা যায়।"
    assert modality.negated(s, [(t.term, t.start, t.end) for t in tokens(s)]) == frozenset(["যাচাই"])
    # A finite verb's "না" denies the sentence (an answer to a yes/no question), not the word.
    s = "অ্যাকাউন্ট যাচাই করা হয় না।"
    assert modality.negated(s, [(t.term, t.start, t.end) for t in tokens(s)]) == frozenset()


def test_a_where_question_is_answered_by_a_place_not_any_name(served):
    # A help centre's "where" is a place in the app, a channel or a location; "The Government of
    # Bangladesh rewards …" names who, not where.
    got = ask_json(served.ask("বিদেশের টাকার সাথে সরকারের বোনাস কত যোগ হলো, সেটা কোথায় দেখব?"))
    assert "Government" not in got["answer"], got["answer"]
    # With the place listed beside it (`places.listed`).
    assert [s["text"] for s in got["short_answers"]] == ["লেনদেনের এসএমএস ও অ্যাপের লেনদেন তালিকায়"], got["short_answers"]
    assert [s["text"] for s in ask_json(served.ask("Where can I find the receipt for a bill I paid?"))["short_answers"]] \
        == ["in the app"]
    s = "He was born in Birkdale, Southport."
    assert [s[a:b] for a, b in places(s)] == ["Birkdale"]


def test_seeing_how_much_somewhere_asks_where():
    assert question_type("Where can I see how much government bonus was added to my remittance?") == "place"
    assert question_type("How much is the fee and where can I see it?") == "amount"


@pytest.mark.parametrize("question, asks", [
    ("What do I need to reset a forgotten PIN in the app?", True),
    ("Bought a new phone. What do I need to move my Shapla Pay account to the new device?", True),
    ("শাপলা পে অ্যাকাউন্ট খুলতে কী কী লাগে?", True),
    ("pin vule gesi, notun pin set korte ki ki lagbe?", True),
    ("How do I reset my PIN?", False),
    ("অভিযোগ কোন কোন মাধ্যমে জানানো যায়?", False),  # which channels: not what one needs
])
def test_a_question_asking_what_one_needs(question, asks):
    assert asks_need(question) is asks


def test_the_unit_that_says_what_one_needs():
    assert states_need("You will need two things: your NID number and the amount of your last transaction.")
    assert states_need("ভুলে যাওয়া পিন রিসেট করতে আপনার জাতীয় পরিচয়পত্রের নম্বর এবং সর্বশেষ লেনদেনের পরিমাণ লাগবে।")
    assert not states_need("You can reset a forgotten PIN yourself in the app.")
    assert states_need("You also need:") and states_need("For a personal account you need your NID.")
    # "you need" inside a condition or a relative clause says nothing one must bring
    assert not states_need("Choose the amount you need and read the loan terms, including the total you will repay.")
    assert not states_need("If you need to add more than the daily limit, you can add the rest the next day.")


@pytest.mark.parametrize("question, qtype", [
    ("লোন নিতে কি লাগে?", "other"), ("একাউন্ট খুলতে কি দরকার?", "other"),
    ("loan nite ki ki lagbe", "other"), ("pin vule gesi, notun pin set korte ki ki lagbe?", "other"),
    ("ফি কি লাগে?", "yesno"), ("cash out e charge ki lage", "yesno"), ("রাতে কি টাকা পাঠানো যায়?", "yesno"),
])
def test_what_it_takes_to_do_something_is_no_yes_no_question(question, qtype):
    # After a verb's -তে ("to take a loan"), কি লাগে asks what is needed; after a noun ("is a fee
    # charged?") it asks yes or no. "ki ki" is always "what all".
    assert question_type(question) == qtype
    assert asks_need(question) or qtype == "yesno"


@pytest.mark.parametrize("question", ["add money from bank koto time lage",
                                      "bank theke add money korte koto time lage",
                                      "cash out korle taka pete koto time lage"])
def test_a_banglish_how_long_question_is_not_answered_with_a_fee(served, question):
    # "koto time lage" asks how long; "koto" alone asks how much, and "time" read as এটিএমে
    # (at the ATM) searched for ATMs. The article states the fee near the question's words.
    got = ask_json(served.ask(question))
    assert got["answer_type"] == "duration"
    assert "এটিএম" not in got["read_as"]
    assert not [s for s in got["short_answers"] if s["text"] in ("free", "1%", "Tk 50 per cash-out")], got["short_answers"]


@pytest.mark.parametrize("question", ["cash in korte pin lagbe naki", "cash in er jonno pin dite hoy?"])
def test_a_banglish_question_is_answered_in_bangla(served, question):
    # The answerer reads a Banglish question in Bangla (its terms, its retrieval), but its language
    # was read off the typed words and their reading together, whose Latin letters outnumber the
    # Bangla: the English twin was quoted, and the confidence read it as in the question's language.
    from raglab.corpus.articles import detect_lang

    got = ask_json(served.ask(question))
    assert got["answer"] and detect_lang(got["answer"]) == "bn", got["answer"]
    hits = served.search(question)
    a = served.assess(question, [served.chunks[h.index] for h in hits], [h.score for h in hits])
    assert a.q.lang == "bn"
