"""What a customer sees for questions asked the way new users ask them: a Banglish question whose
grammar words no Bangla word of the help centre sounds like, and a Bangla place quoted with the
relative word that opens its clause."""

import pytest

from helpers import docs, shown
from raglab.answer.sentences import COL
from raglab.pipeline import Config, Pipeline
from raglab.question.asking import illustrates_in, lower_for_upper
from raglab.question.places import places
from raglab.schema import ask_json
from raglab.text.banglish import without_grammar
from raglab.text.numbers import number_values


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()))


def test_banglish_grammar_words_left_in_latin_letters_are_no_question_terms(served):
    # "gese" and "korbo" sound like no word of the help centre, so the reading keeps them as
    # typed; read as terms the index does not know, they were the question's rarest words and
    # held the right answer back (confidence 0.55).
    read = served.read("account lock hoye gese ki korbo")
    assert "gese" in read and "korbo" in read
    assert "gese" not in without_grammar(read) and "korbo" not in without_grammar(read)
    assert "account" in without_grammar(read)  # an English word of the question stays
    got = ask_json(served.ask("account lock hoye gese ki korbo"))
    assert not got["abstained"], got["confidence"]
    assert "১৬৭৮৯" in got["answer"]  # call the hotline to unlock before the 24 hours are up


def test_an_english_or_bangla_question_keeps_every_word(served):
    for question in ("What should I do if my account is locked?", "অ্যাকাউন্ট লক হয়ে গেলে কী করব?"):
        assert served.read(question) == question  # not Banglish: nothing is taken out


def test_a_bangla_place_starts_at_its_own_words():
    s = "লেনদেন নম্বর (ট্রানজেকশন আইডি), যা নিশ্চিতকরণ এসএমএসে আছে।"
    assert [s[a:b] for a, b in places(s)] == ["নিশ্চিতকরণ এসএমএসে"]
    s = "কাস্টমার কেয়ার সেন্টারে বা বাংলাদেশ ব্যাংকে যান"
    assert [s[a:b] for a, b in places(s)] == ["কাস্টমার কেয়ার সেন্টারে", "বাংলাদেশ ব্যাংকে"]  # never inside a word


def test_a_where_question_answered_in_bangla_gets_no_clause_fragment(served):
    got = ask_json(served.ask("where can i find my transaction id"))
    assert [s["text"] for s in got["short_answers"]] == ["নিশ্চিতকরণ এসএমএসে"]


def test_a_question_asking_where_money_goes_is_answered_with_where_it_goes_not_where_from(served):
    # "সঞ্চয়ের মেয়াদ শেষ হলে টাকা কোথায় যায়?" took "from the Shapla Pay app" (a source) for the place
    # and the maturity sentence ranked fifth. A destination question reads "to your … wallet" as a
    # place and no "from X"; a question asking where from, or where to see a thing, reads as before.
    from dataclasses import replace

    from raglab.question.places import places_for

    s = "You can close Shapla Sanchay before the end of the term from the Shapla Pay app."
    assert places_for("সঞ্চয়ের মেয়াদ শেষ হলে টাকা কোথায় যায়?", s) == ()
    assert places_for("Where can I close my savings scheme?", s) == places(s) != ()
    s = "টাকা সরাসরি আপনার ওয়ালেটে জমা হয়।"
    assert [s[a:b] for a, b in places_for("ফেরতের টাকা কোথায় জমা হয়?", s)] == ["সরাসরি আপনার ওয়ালেটে"]
    for q in ("সঞ্চয়ের মেয়াদ শেষ হলে টাকা কোথায় যায়?", "Where does my savings money go when the term ends?"):
        got = served.with_config(replace(served.config, threshold=0.0)).ask(q)
        assert got.answer.text.startswith("At maturity, your deposits and the profit are paid to your Shapla Pay wallet"), q
        assert [s.text for s in got.answer.short_answers] == ["to your Shapla Pay wallet"], q


def test_a_destination_is_where_money_goes_not_what_one_does_to_an_account():
    # "to" before a verb ("to open a Shapla Pay account", "taking into account") is no destination;
    # a name "from" puts somewhere is a source; a Banglish "kothay chole jay" / "kothay ashe" asks
    # where money goes as "কোথায় চলে যায়" / "কোথায় আসে" do, and "আকাউন্টে" is "অ্যাকাউন্টে".
    from raglab.question.places import places_for

    for s in ("You need your NID to open a Shapla Pay account.", "Taking into account the fee, you get less."):
        assert places_for("Where does the cashback go?", s) == (), s
    s = "Money sent from Dubai arrives within a day."
    assert places_for("Where does money sent from Dubai go?", s) == () != places(s)
    s = "At maturity, the money is paid to your Shapla Pay wallet."
    for q in ("taka kothay chole jay?", "taka kothay ashe?", "Where does the money go?"):
        assert [s[a:b] for a, b in places_for(q, s)] == ["to your Shapla Pay wallet"], q
    for s, want in (("It is refunded to another Shapla Pay account.", "to another Shapla Pay account"),
                    ("ফেরতের টাকা আপনার আকাউন্টে জমা হয়।", "টাকা আপনার আকাউন্টে")):
        assert [s[a:b] for a, b in places_for("Where does the refund go?", s)] == [want], s


# --- a second reading: twenty more new users' questions ----------------------------------------


def test_a_bangla_thousand_with_its_case_ending_is_read_as_a_number():
    # "মাসে ২৫ হাজারের বেশি …" (more than 25 thousand a month): the multiplier takes the ending of
    # the noun it makes, and was read as 25.
    assert number_values("মাসে ২৫ হাজারের বেশি সেন্ড মানি করলে প্রতিবার কত টাকা কাটে?") == ["25000"]
    assert number_values("৫ লাখে, ২ কোটির, দুই হাজারের") == ["500000", "20000000", "2000"]
    assert number_values("৫ শের") == ["5"]  # only a thousand or more: "শ" + "ের" is no hundred


def test_the_row_of_a_table_of_examples_that_states_the_asked_amount_answers(served):
    # "Here are some examples of the fee at an agent:" introduces rows for Tk 1,000, 5,000 and
    # 10,000; the first row was taken as the paragraph's opening statement and quoted for 5000.
    assert illustrates_in("Tk 1,000 — Fee at an agent: Tk 18.50", "Here are some examples of the fee at an agent:")
    assert not illustrates_in("Up to Tk 25,000 in total a day.", "For a personal account, the limits are:")
    # Which row is quoted and bolded is the answerer's choice; whether it is shown is the
    # confidence's, which a re-fit moves around the threshold (0.748 at 0.75 on this fit).
    got = ask_json(Pipeline(list(docs()), Config(threshold=0.0)).ask("5000 taka cash out korle agent koto charge katbe"))
    assert [s["text"] for s in got["short_answers"]] == ["Tk 92.50"]
    assert got["quotes"][0]["text"] == "Tk 5,000 — Fee at an agent: Tk 92.50"


def test_an_amount_below_the_minimum_is_answered_by_the_minimum(served):
    # "Can I recharge 15 taka?" asks whether one may do that much, which was read as asking for
    # the upper limit only: the minimum (Tk 20) counted as stating nothing asked.
    assert lower_for_upper(True, "প্রতিটি রিচার্জের সর্বনিম্ন পরিমাণ ২০ টাকা।", frozenset({"15"})) is False
    assert lower_for_upper(True, "The minimum cash out is Tk 50.", frozenset({"30000"})) is True
    question = "১৫ টাকা রিচার্জ করা যাবে?"
    hits = served.search(question)
    a = served.assess(question, [served.chunks[h.index] for h in hits], [h.score for h in hits])
    best = a.order[0][1]
    assert best.unit.text == "প্রতিটি রিচার্জের সর্বনিম্ন পরিমাণ ২০ টাকা।"
    assert best.features[COL["echo"]] == 1.0  # the minimum is a value about the question's 15 taka
    # An amount in words is compared as written: "৫ হাজার" is 5000, above the cash-out minimum
    # (Tk 50), so that minimum still states nothing asked of "can I take out 5 thousand more today?".
    question = "আজকে আরও ৫ হাজার টাকা ক্যাশ আউট করতে পারব?"
    hits = served.search(question)
    a = served.assess(question, [served.chunks[h.index] for h in hits], [h.score for h in hits])
    assert a.q.upper and a.q.amounts == frozenset({"5000"}) and a.q.numbers == frozenset({"5"})
    minimum = [c for _, c in a.order if c.unit.text == "প্রতিবার ক্যাশ আউটের ন্যূনতম পরিমাণ ৫০ টাকা।"]
    assert minimum and all(c.features[COL["echo"]] == 0.0 for c in minimum)


def test_a_misspelt_word_is_highlighted_where_the_answerer_reads_it(served):
    got = ask_json(served.ask("do i get any reciept when the agnet does a cash in for me"))
    agents = next(c for c in got["chunks"] if c["doc"] == "en-agents")
    marked = {agents["text"][a:b].lower() for a, b in agents["matches"]}
    assert {"receipt", "agent"} <= marked
    assert "reciept" in got["terms"]  # the terms shown stay as typed


def test_a_misspelt_question_word_highlights_no_other_word(served):
    # "wat" is nearest "want" in the index, but the answerer reads it as the question word "what"
    # and drops it: no chunk may light up "want" for it.
    got = ask_json(served.ask("wat do i need to close my account"))
    marked = {c["text"][a:b].lower() for c in got["chunks"] for a, b in c["matches"]}
    assert {"close", "account"} <= marked and "want" not in marked


@pytest.mark.parametrize("keywords,short", [("cash out fee", "1.85% of the amount, which is Tk 18.50 per Tk 1,000"), ("ক্যাশ আউট চার্জ", "১.৮৫%, অর্থাৎ প্রতি ১,০০০ টাকায় ১৮.৫০ টাকা"),
                                            ("refund time", "within 7 working days"), ("customer care number", "16789")])
def test_keywords_without_a_question_mark_get_the_answer_the_question_gets(served, keywords, short):
    # Typed the way one types into a search box; before, only "cash out fee?" was answered.
    bare, asked = ask_json(served.ask(keywords)), ask_json(served.ask(keywords + "?"))
    assert not bare["abstained"], bare["confidence"]
    assert bare["short_answer"]["text"] == asked["short_answer"]["text"] == short


# --- a third reading: twenty more new users' questions -----------------------------------------


def test_a_note_label_is_no_imperative_verb():
    # "Note:" labels a remark; read as the verb "note", the closing fraud warning of the recharge
    # article told the reader what to do and beat the steps for a recharge without balance.
    from raglab.question.modality import imperative

    assert not imperative("Note: Shapla Pay staff will never call and ask you to recharge a number to claim a prize.")
    assert imperative("Note: Enter your PIN only on your own phone.")  # the sentence after the label decides
    assert imperative("Note the agent number before you leave.")


@pytest.mark.parametrize("question", [
    "রিচার্জ সফল দেখাইছে কিন্তু ফোনে ব্যালেন্স আসে নাই, এখন কী করব?",
    "the recharge shows successful but no balance came on my phone, what do i do now?",
])
def test_what_to_do_when_a_recharge_shows_successful_without_balance(served, question):
    # What the answerer quotes (withheld at the served threshold: its confidence is below it).
    hits = served.search(question)
    got = served.answer(question, [served.chunks[h.index] for h in hits], 0.0, [h.score for h in hits])
    quoted = [q.text for q in got.quotes]
    assert not any(text.startswith("Note:") for text in quoted)
    if question.isascii():
        assert "Restart the phone and check the balance with the operator's balance code." in quoted
    else:
        # The restart instruction is only in the English article; since the re-fit after the story
        # rule the Bangla wording quotes the Bangla failed-recharge advice instead, far below the
        # threshold: it must stay withheld, never shown as the answer.
        assert got.confidence < Config().threshold, (got.confidence, quoted)


def test_an_instruction_after_a_long_condition_is_an_instruction(served):
    # The comma of "If X, do Y" was looked for in the first 40 characters only, so the add-money
    # article's "If your bank or card was charged but your wallet was not credited, call …" told
    # the reader nothing to do, and a sentence restating the question's story could win.
    from raglab.question.modality import imperative

    assert imperative("If your bank or card was charged but your wallet was not credited, call customer care on "
                      "16789 and keep the transaction ID ready.")
    assert not imperative("If you need to add more than the daily limit, you can add the rest the next day.")
    assert not imperative("When the money reaches your wallet, you receive an SMS and a notification in the app.")
    question = "A stranger says they sent me money by mistake; what should I do first?"
    hits = served.search(question)
    got = served.answer(question, [served.chunks[h.index] for h in hits], 0.0, [h.score for h in hits])
    assert got.quotes[0].text == "If money really did arrive from an unknown number, do not send it back yourself."


def test_an_abbreviation_in_capitals_stays_english_in_a_banglish_question(served):
    # "QR" sounds like কার (whose) within a vowel slip; the page's "Read as Bangla" line showed
    # "merchant account এর কার কোড …" and the question searched for it.
    read = served.read("merchant account er QR code harai gele notun kivabe pabo?")
    assert "QR" in read and "কার" not in read
    assert served.read("ATM theke cash out korle charge koto?").startswith("ATM থেকে ক্যাশ আউট")


def test_a_price_question_answered_without_any_price_is_withheld(served):
    # The help centre says to replace a lost SIM at the operator, not what the operator charges:
    # the steps were shown at 0.755 as the answer to "how much".
    got = served.ask("How much does the operator charge to replace a lost SIM?").answer
    assert got.abstained and not got.quotes
    # a question asking how long keeps an answer without a number ("until you … ask"): with no
    # threshold at all it is answered, so no rule withheld it
    anyway = Pipeline(list(docs()), Config(threshold=0.0))
    held = anyway.ask("How long does my account stay blocked after I report a lost phone?").answer
    assert not held.abstained and held.quotes
    # while the price question is withheld even then: the rule, not the confidence, holds it back
    price = anyway.ask("How much does the operator charge to replace a lost SIM?").answer
    assert price.abstained and price.withheld == "no-value"


# --- a sixth reading: thirty more new users' questions -----------------------------------------


def test_a_misspelt_maximum_asks_for_the_upper_end_of_a_range(served):
    # "maximim" is one slip from "maximum", and the answer type already read it so; the end of the
    # range was still read from the question as typed, so the bold answer was the minimum, Tk 20,
    # at 0.86, beside "The minimum recharge is Tk 20 and the maximum is Tk 1,000 per recharge."
    abstained, short, answer = shown(served, "whats the maximim i can recharge in one go")
    assert len(short) == 1 and short[0].startswith("Tk 1,000") and "maximum is Tk 1,000" in answer
    # the question as the features read it, its cue words put right; its terms stay as typed
    hits = served.search("whats the minimun i can recharge")
    a = served.assess("whats the minimun i can recharge", [served.chunks[h.index] for h in hits])
    assert "minimum" in a.q.text and "minimun" not in a.q.text


def test_a_cue_word_with_another_ending_is_no_misspelling_of_it(served):
    # Read with its cue words put right, "a week late" became "a weeks late" and "সপ্তাহে" (in a
    # week) "সপ্তাহ": the same word, but the period rules read neither, and a week's maximum (which
    # the help centre does not state) was answered with the daily limit.
    from raglab.question.respell import typed_question

    for question in ("If I pay back my nano loan a week late, how much is the late fee?",
                     "সেন্ড মানিতে এক সপ্তাহে সর্বোচ্চ কত টাকা পাঠানো যায়?"):
        assert typed_question(question, served.closest) == question
    assert typed_question("minimun age?", served.closest) == "minimum age?"


def test_another_providers_name_is_no_misspelt_cue_word(served):
    # "বিকাশ" (another provider's wallet) is a common word four signs from the time cue "বিকাল"
    # (afternoon), and the index holds nothing near it: read so, the question named no other
    # provider, and its fee was answered with Shapla Pay's, "ফ্রি", at 0.75
    asked = "বিকাশ এ সেন্ড মানি করলে চার্জ কত?"
    hits = served.search(asked)
    a = served.assess(asked, [served.chunks[h.index] for h in hits])
    assert "বিকাশ" in a.q.text and a.q.contrast
    abstained, short, _ = shown(served, asked)
    assert abstained and not short


# --- a seventh reading: thirty more new users' questions ---------------------------------------
# tests/data/new_user_questions.jsonl: each question as a customer typed it, whether the help centre
# states its answer, words of which a right answer holds one, and what was shown before and after
# this reading's fixes (docs/pipeline.md, "New users' questions, a seventh reading").


def _reading():
    import json
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "new_user_questions.jsonl")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


READING = _reading()


# Known faults, kept visible as strict xfails (fixed, they fail). "Thursday-র সেলের টাকা কবে পাবো?" (r8q21)
# got the general rule ("the next working day") at 0.751, where the Thursday sentence two sentences
# later answers it; an opening yields `first` to a later sentence of its paragraph naming the weekday
# asked, and a weekday is a time for a question naming one: the Thursday sentence is quoted (at 0.71).
KNOWN_WRONG: dict = {}


def _marked(row):
    why = KNOWN_WRONG.get((row["reading"], row["n"]))
    return pytest.param(row, marks=pytest.mark.xfail(reason=why, strict=True)) if why else row


@pytest.mark.parametrize("row", [_marked(r) for r in READING], ids=[f"r{r['reading']}q{r['n']}" for r in READING])
def test_no_new_users_question_gets_a_confident_wrong_answer(served, row):
    # Shown means right: an answer shown holds a word of the right one; what the help centre does
    # not state is withheld, whatever the confidence of the sentence beside it.
    abstained, _, answer = shown(served, row["question"])
    if not row["stated"]:
        assert abstained, answer
    elif not abstained:
        assert any(word in answer for word in row["right"]), answer


@pytest.mark.parametrize("row", [r for r in READING if r["after"]["shown"] and r["after"]["confidence"] >= 0.85],
                         ids=lambda r: f"r{r['reading']}q{r['n']}")
def test_a_new_users_question_answered_with_confidence_stays_answered(served, row):
    abstained, _, answer = shown(served, row["question"])
    assert not abstained and any(word in answer for word in row["right"]), answer


@pytest.mark.parametrize("reading, kinds", [(7, {"en": 10, "bn": 10, "banglish": 5, "en typos": 5}),
                                             (8, {"en": 9, "en typos": 3, "bn": 12, "banglish": 6})])
def test_each_reading_counts_every_kind_of_new_user(reading, kinds):
    rows = [r for r in READING if r["reading"] == reading]
    assert [r["n"] for r in rows] == list(range(1, 31))
    assert {k: [r["lang"] for r in rows].count(k) for k in kinds} == kinds
    assert sum(not r["stated"] for r in rows) >= 4  # a few the help centre does not answer
    assert not any(r["after"]["judged"].startswith("WRONG") for r in rows)


def test_a_question_about_a_verified_account_gets_no_unverified_accounts_cap(served):
    # "Once my account is verified, what is the most money I can keep …?" was answered at 0.76
    # with the pending account's cap ("… অ্যাকাউন্টে ৫,০০০ টাকার বেশি রাখা যাবে না।"): the help
    # centre states no cap for a verified account. An account not yet verified and a verified one
    # are the two halves of a contrast now (`data/contrasts.json`).
    from raglab.text.contrasts import asked_halves, clashes

    question = "Once my account is verified, what is the most money I can keep in my wallet?"
    asked = asked_halves(question)
    assert clashes(asked, "The balance of an unverified account is capped at Tk 5,000.")
    assert clashes(asked, "যাচাই না হওয়া অ্যাকাউন্টে সর্বোচ্চ ৫,০০০ টাকা ব্যালেন্স রাখা যায়।")
    assert not clashes(asked, "Until your verification is approved, your account works in a limited way.")  # both
    abstained, short, _ = shown(served, question)
    assert abstained and not short
    # the neighbour: asked of an unverified account, the cap is the answer
    anyway = Pipeline(list(docs()), Config(threshold=0.0))
    _, short, answer = shown(anyway, "What is the most money an unverified account can hold?")
    assert "capped at Tk 5,000" in answer and short == ["Tk 5,000"]
    assert (10, 0) in asked_halves("Can I send money before my account is approved?")


def test_a_how_to_question_gets_the_steps_not_the_restriction_beside_them(served):
    from raglab.question.modality import restricts

    assert restricts("Closure cannot be requested through an agent point, and nobody will ask for your PIN.")
    assert not restricts("Call the hotline 16789 from your registered number.")
    assert not restricts("Never share your PIN with anyone.")  # a prohibition tells the reader what to do
    anyway = Pipeline(list(docs()), Config(threshold=0.0))
    for question in ("How do I close my account?", "what are the steps to shut down my shapla pay account"):
        _, _, answer = shown(anyway, question)
        assert "Call the hotline 16789 from your registered number." in answer, question
        assert "cannot be requested" not in answer, question
    # the neighbour: asked whether an agent point will do, the restriction answers
    _, _, answer = shown(anyway, "Can I ask to close my account at an agent point?")
    assert answer.startswith("Closure cannot be requested through an agent point")


def test_one_standing_for_a_thing_named_before_is_no_count(served):
    # "You can remove a Priyo number and add a different one whenever you like." stated a count
    # ("one") for "How many Priyo numbers can I keep …?" and was quoted instead of "up to 5".
    from raglab.text.answertypes import typed_spans

    s = "You can remove a Priyo number and add a different one whenever you like."
    assert number_values(s) == [] and all(t.type != "number" for t in typed_spans(s))
    assert number_values("no one will ask, every one of them, the same one") == []
    assert number_values("in one go") == number_values("one account") == ["1"]
    abstained, short, answer = shown(served, "How many Priyo numbers can I keep, and how do I add one?")
    assert short and short[0] == "up to 5" and "save up to 5 Priyo numbers" in answer


def test_a_requirement_of_a_verified_account_answers_a_question_about_an_unverified_one(served):
    # "You need a verified Shapla Pay personal account." answers "Can I open a savings scheme if my
    # account is not verified yet?" (no): a requirement names both halves of the contrast, so it is
    # not dropped as the other half, in either language. The balance cap still is.
    from raglab.text.contrasts import asked_halves, clashes

    for question, requirement in (
            ("Can I open a savings account if my account is not verified yet?", "You need a verified Shapla Pay personal account."),
            ("Can I send money while my account is pending?", "Note: Your account must be verified before you can send money."),
            ("যাচাই অপেক্ষমাণ থাকলে কি ক্যাশ আউট করা যায়?", "দ্রষ্টব্য: ক্যাশ আউট করতে হলে আপনার অ্যাকাউন্টের যাচাই অনুমোদিত হতে হবে।"),
            ("account verify hoyni, taka pathano jabe?", "সেন্ড মানি করতে আপনার অ্যাকাউন্টটি যাচাই করা, অর্থাৎ অনুমোদিত হতে হবে।")):
        asked = asked_halves(question)
        assert (10, 0) in asked, question
        assert not clashes(asked, requirement), (question, requirement)
        assert clashes(asked, "Once your account is approved, the limits on your balance are lifted."), question
    anyway = Pipeline(list(docs()), Config(threshold=0.0))
    _, _, answer = shown(anyway, "Can I open a savings account if my account is not verified yet?")
    assert "You need a verified Shapla Pay personal account." in answer
    _, _, answer = shown(anyway, "যাচাই অপেক্ষমাণ থাকলে কি ক্যাশ আউট করা যায়?")
    assert "ক্যাশ আউট" in answer and "অনুমোদিত হতে হবে" in answer or "ক্যাশ আউট করা যাবে না" in answer


@pytest.mark.parametrize("text, value", [("You can cash out one time a day.", ["1"]), ("You get one free cash out a month.", ["1"]),
                                         ("You can have only one account per NID.", ["1"]), ("You need one NID.", ["1"]),
                                         ("Add one Priyo number.", ["1"]), ("এক বার ভুল পিন দিলে", ["1"]),
                                         ("one lakh taka", ["100000"]), ("one thousand taka", ["1000"]),
                                         ("the first one thousand taka is free", ["1000"]),
                                         ("Tk 18.50 for every one thousand taka", ["18.50", "1000"]),
                                         ("a further one lakh", ["100000"]), ("এক লাখ টাকা", ["100000"])])
def test_one_before_a_scale_word_or_a_thing_counted_is_a_number(text, value):
    # "one" after a determiner is a pronoun ("add a different one"), but not before "thousand" or
    # "lakh": "the first one thousand taka" states 1000, as the metric and the answerer read it.
    from raglab.evaluation.metrics import holds_fact

    assert number_values(text) == value
    if "thousand" in text or "lakh" in text:
        assert not holds_fact(text.replace("one", "two"), text)  # 2000 is not the 1000 stated


def test_each_right_phrase_is_the_help_centres_and_of_one_article_a_language():
    # A right phrase found in another article ("৫ বার" of cash out for a cash-in count, "OTP",
    # "7 working days" of closure for a refund) would take a wrong answer for a right one; one
    # found nowhere checks nothing.
    import glob
    import os

    from helpers import ROOT
    articles = {os.path.basename(p): open(p, encoding="utf-8").read() for p in glob.glob(os.path.join(ROOT, "corpus", "*.md"))}
    for row in READING:
        for phrase in row["right"]:
            found = sorted(name for name, text in articles.items() if phrase in text)
            assert found, (row["n"], phrase)
            langs = [name.split("-")[0] for name in found]
            assert len(langs) == len(set(langs)), (row["n"], phrase, found)


# --- an eighth reading: thirty more new users' questions (rows of reading 8 above) -------------


def test_an_abbreviation_typed_in_lower_case_stays_english_in_a_banglish_question(served):
    # Typed in capitals, "QR" already stayed English; typed "qr" it sounded like কার (whose), and
    # "qr scan korle onno dokaner naam ashe, pay korbo?" searched for কার: nothing on QR codes came
    # back. Banglish writes every Bangla word's vowels, so a word of the English articles with no
    # vowel is an abbreviation ("qr", "pdf", "pm"), however it is typed.
    question = "qr scan korle onno dokaner naam ashe, pay korbo?"
    read = served.read(question)
    assert read.startswith("qr ") and "কার" not in read and "স্ক্যান" in read
    top = [served.chunks[h.index].text for h in served.search(question)]
    assert any("Check that the shop name on your screen matches the shop you are in." in t for t in top)
    assert served.read("raat 9 pm porjonto agent khola thake?") == "রাত 9 pm পর্যন্ত agent খোলা থাকে?"
    # the neighbours: a Banglish word with its vowels is still read, and a question in English or
    # in Bangla script is not read at all
    assert served.read("kar kache complain korbo?").startswith("কার কাছে")
    for question in ("where do i scan the qr code?", "qr কোড স্ক্যান করলে অন্য দোকানের নাম আসে কেন?"):
        assert served.read(question) == question


def test_an_app_store_is_a_place_an_app_is_installed_from(served):
    # "শাপলা পে এর অ্যাপ কোথা থেকে নামাবো?" (where do I download the app from?) was answered with
    # the list item before the one that answers, whose "অ্যাপে" (in the app) was the only place among
    # them: "অ্যাপ স্টোর থেকে" was no place. A store is one, and "app store" is read whole.
    from dataclasses import replace

    s = "শুধু অফিশিয়াল অ্যাপ স্টোর থেকে শাপলা পে অ্যাপ নামান।"
    assert [s[a:b] for a, b in places(s)] == ["অফিশিয়াল অ্যাপ স্টোর থেকে"]
    for s, want in (("Install it only from the official app store.", "from the official app store"),
                    ("Get it from the Play Store.", "from the Play Store")):
        assert [s[a:b] for a, b in places(s)] == [want]
    assert places("Open the app and tap Pay.") == ()  # no place without a word that puts it somewhere
    anyway = served.with_config(replace(served.config, threshold=0.0))
    got = anyway.ask("শাপলা পে এর অ্যাপ কোথা থেকে নামাবো? একজন লিংক পাঠাইছে").answer
    assert got.quotes[0].text == "শুধু অফিশিয়াল অ্যাপ স্টোর থেকে শাপলা পে অ্যাপ নামান।"
    assert [s.text for s in got.short_answers] == ["অফিশিয়াল অ্যাপ স্টোর থেকে"]


def test_to_store_is_a_verb_not_a_place():
    # "to" straight before "store" is an infinitive ("to store money"), as before "open" in
    # `_TO_EN`: no place to send a where-question's reader to. A store with a word between is one.
    for s in ("You can use the wallet to store money safely.", "Use your phone to store the receipt.",
              "We store your data on secure servers.", "আমরা আপনার তথ্য স্টোর করি।"):
        assert places(s) == (), s
    for s, want in (("Go to a store near you.", "to a store"), ("Download it from the store.", "from the store")):
        assert [s[a:b] for a, b in places(s)] == [want]


# --- particles typed apart in a Banglish question -------------------------------------------------

_PARTICLE_READINGS = frozenset({"তে", "এর", "আর", "এ", "ও", "এই", "ওই", "কে", "টি"})


def _goldens():
    import json
    import re

    from helpers import GOLDENS

    with open(GOLDENS, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    banglish = [r["question"] for r in rows if r["lang"] == "bn" and not re.search("[\u0980-\u09ff]", r["question"])]
    return [r["question"] for r in rows if r["lang"] == "en"], banglish


def test_a_particle_typed_apart_in_a_banglish_question_is_no_term(served):
    # "e" and "o" have no consonant to be read by and stayed Latin terms the index lacks, the
    # question's heaviest (idf 6.47); "te" was read as তে, a term the index lacks too.
    from raglab.text.analyzer import analyze

    for question, particle in (("shapla pay e account khulte ki lage", "e"), ("cash out o charge ki lage", "o"),
                               ("amar number gp te port korsi ki korbo", "তে")):
        assert served.read(question) != question
        assert particle in analyze(served.read(question))  # the reading retrieval searches is as before
        assert particle not in served.answer_terms(question)
    assert "account" in served.answer_terms("shapla pay e account khulte ki lage")


def test_a_particle_joined_to_a_word_stays():
    assert "e-kyc" in without_grammar("amar e-kyc pending ki korbo")
    assert "o'clock" in without_grammar("5 o'clock e ki korbo")


def test_an_english_question_with_the_same_little_words_keeps_every_term(served):
    from raglab.text.analyzer import analyze

    for question in ("Can I send an e-mail to support?", "How do I pay to an o account?", "What is e?",
                     "Is there a fee for e or o?"):
        assert served.read(question) == question
        assert served.answer_terms(question) == analyze(question)


@pytest.mark.parametrize("seed", range(3))
def test_property_english_terms_never_change_and_banglish_particles_never_become_terms(served, seed):
    # Every golden question, with a particle put between two of its words at random: an English
    # question's terms are its own (a particle that is no grammar cue never makes it Banglish);
    # a Banglish question's particle is never a term of the answerer.
    import random

    from raglab.text.analyzer import analyze
    from raglab.text.banglish import CUES, PARTICLES

    rng = random.Random(seed)
    english, banglish = _goldens()
    apart = sorted(PARTICLES - CUES)
    for question in english:
        words = question.split()
        words.insert(rng.randrange(len(words) + 1), rng.choice(apart))
        typed = " ".join(words)
        if served.read(typed) == typed:
            assert served.answer_terms(typed) == analyze(typed)
    for question in banglish:
        words = question.split()
        words.insert(rng.randrange(len(words) + 1), rng.choice(sorted(PARTICLES)))
        typed = " ".join(words)
        if served.read(typed) != typed:
            assert not set(served.answer_terms(typed)) & (PARTICLES | _PARTICLE_READINGS), typed


def test_a_story_asked_only_whether_it_is_real_is_answered_about_the_story(served):
    # "এটা কি আসল?" (is this real?) asks about the message told before it. Read as the asked
    # sentence, its one word was what to match, and the answerer quoted the sentence that holds
    # "আসলে" (in fact) in the wrong-transfer article; the fake prize is what the story names.
    question = "একটা মেসেজ এসেছে যে আমি শাপলা পে থেকে পুরস্কার জিতেছি। এটা কি আসল?"
    hits = served.search(question)
    a = served.assess(question, [served.chunks[h.index] for h in hits], [h.score for h in hits])
    best = a.order[0][1]
    assert "আসল" not in a.q.weights and not a.q.asked
    assert "prize" in best.unit.text and best.quote.doc == "en-fraud-safety", best.unit.text
