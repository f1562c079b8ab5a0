"""The other half of a contrast (`question/asking.py`, `clashes`): a question about cash in is not answered
by a cash-out sentence, nor one about the maximum by the minimum."""

import json
import re

import pytest

from helpers import docs
from raglab.answer.sentences import COL
from raglab.pipeline import Config, Pipeline
from raglab.text.contrasts import asked_halves, clashes, parse_contrasts
from raglab.text.tables import read_table


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config())


def test_each_language_names_a_half():
    cash_in = (0, 0)
    for q in ("What is the minimum cash in?", "ক্যাশ ইনের চার্জ কত?", "agent theke cash in korte koto charge?",
              "cashin limit koto", "Cash-in fee?"):
        assert cash_in in asked_halves(q), q
    for q in ("max recharge amount in one go?", "সর্বোচ্চ কত টাকা রিচার্জ করা যায়?", "সরবোচ্চ কত", "sorboccho koto"):
        assert (1, 1) in asked_halves(q), q
    # Naming both halves asks for both; naming neither asks about no half.
    assert not [pair for pair, _ in asked_halves("What are the cash in and cash out fees?") if pair == 0]  # "fees" names a fee
    assert not [pair for pair, _ in asked_halves("What is the minimum and maximum recharge?") if pair == 1]
    assert asked_halves("What is the minimum and maximum recharge?") == ((13, 0), (14, 0))  # a recharge: no merchant's payment, no money sent
    assert asked_halves("How do I reset my PIN?") == ()


def test_a_unit_naming_only_the_other_half_clashes():
    asked = asked_halves("ন্যূনতম কত টাকা ক্যাশ ইন করা যায়?")
    assert clashes(asked, "প্রতিবার ক্যাশ আউটের ন্যূনতম পরিমাণ ৫০ টাকা।")
    assert not clashes(asked, "এজেন্টের কাছে ক্যাশ ইন সম্পূর্ণ বিনামূল্যে।")
    # "in" is an English stopword: the analyzer cannot tell these apart, the cue text can.
    assert clashes(asked_halves("agent theke cash in korte koto charge?"), "The fee for cash out at an agent is 1.85%.")
    assert clashes(asked_halves("max recharge amout in one go?"), "Minimum per recharge — Amount: Tk 20")
    assert not clashes(asked_halves("max recharge amout in one go?"), "The minimum recharge is Tk 20 and the maximum is Tk 1,000.")
    # A unit naming neither half is read with its heading; its own words come first.
    asked = asked_halves("What is the cash in limit?")
    assert clashes(asked, "Up to Tk 25,000 a day.", "Cash out at an agent Cash out limits")
    assert not clashes(asked, "Up to Tk 30,000 a day.", "Cash in at an agent Cash in limits")
    assert not clashes(asked, "Cash in up to Tk 30,000 a day.", "Cash out at an agent")
    assert not clashes(asked, "Up to Tk 30,000 a day.", "Cash in and cash out")


def test_the_table_rejects_classes_the_browser_reads_otherwise():
    with pytest.raises(ValueError):
        parse_contrasts({"pairs": [{"halves": [["\\bcash in\\b"], [" cash out "]]}]})
    with pytest.raises(ValueError):
        parse_contrasts({"pairs": [{"halves": [[" cash in "]]}]})


def test_a_broken_pattern_is_named_with_its_row():
    with pytest.raises(ValueError, match=r"pairs\[1\]: ' cash \(in ' is not a valid pattern"):
        parse_contrasts({"pairs": [{"halves": [[" a "], [" b "]]}, {"halves": [[" ok ", " cash (in "], [" cash out "]]}]})


def test_every_shipped_pattern_is_valid_alone():
    """The table is compiled a half at a time; a pattern that only compiles inside the group that
    wraps it (" a)|(b ") would slip through, so each is compiled alone here."""
    table = json.loads(read_table("contrasts.json"))
    for i, row in enumerate(table["pairs"]):
        for p in [p for half in row["halves"] for p in half]:
            re.compile(p)  # raises on a pattern that is not one


def test_a_cash_in_question_gets_no_cash_out_sentence_when_a_cash_in_one_is_there(served):
    for q in ("ক্যাশ ইন করতে কত টাকা চার্জ লাগে?", "agent theke cash in korte koto charge?", "Is there a fee to cash in?",
              "cash in er limit koto?", "What is the daily cash in limit?"):
        hits = served.search(q)
        a = served.assess(q, [served.chunks[h.index] for h in hits], [h.score for h in hits])
        ins = [c for _, c in a.order if not c.features[COL["contrast_clash"]] and asked_halves(c.unit.text) == ((0, 0),)]
        if ins:
            best = a.order[0][1]
            assert not best.features[COL["contrast_clash"]], (q, best.unit.text)


def test_the_other_half_is_never_answered_however_confident(served):
    # The help centre states no cash-in minimum: the cash-out minimum is no answer.
    for q in ("ন্যূনতম কত টাকা ক্যাশ ইন করা যায়?", "What is the minimum amount I can cash in?"):
        answer = served.ask(q).answer
        assert answer.abstained, (q, answer.text)
    assert not served.ask("ক্যাশ ইন করতে কত টাকা চার্জ লাগে?").answer.abstained


def test_a_verification_status_is_not_answered_with_another_status(served):
    # The Bangla status names are a contrast as the English ones are: "rejected" was answered
    # with "অবস্থা অপেক্ষমাণ দেখালে দুশ্চিন্তার কিছু নেই।" (the pending status).
    for q, other in (("অ্যাকাউন্ট যাচাইয়ের অবস্থা প্রত্যাখ্যাত দেখালে তার মানে কী?", "অপেক্ষমাণ"),
                     ("What does it mean if my verification status shows rejected?", "pending")):
        hits = served.search(q)
        a = served.assess(q, [served.chunks[h.index] for h in hits], [h.score for h in hits])
        best = a.order[0][1].unit.text
        assert other not in best.lower() or "reject" in best.lower(), (q, best)
    assert asked_halves("status pending mane ki?") == ((7, 0), (10, 0))  # pending: an account not yet verified too
    assert all(pair != 7 for pair, _ in asked_halves("My status is one of three values: pending, approved or rejected?"))


def test_a_recipient_who_refuses_is_not_answered_with_one_who_agrees():
    for q in ("প্রাপক যদি টাকা ফেরত দিতে রাজি না হন, তখন কী করা যায়?", "je taka pailo se ferot dite raji na, ekhon ki korbo?",
              "What if the recipient doesn't agree to give it back?", "the receiver refuses to return the money"):
        asked = asked_halves(q)
        assert clashes(asked, "প্রাপক টাকা ফেরত দিতে সম্মত হলে তা আপনার অ্যাকাউন্টে ফেরত পাঠানো হয়।"), q
        assert not clashes(asked, "প্রাপক যদি টাকা ফেরত দিতে রাজি না হন, তাহলে আপনি থানায় সাধারণ ডায়েরি (জিডি) করে আইনি পথে এগোতে পারেন।"), q
    # One who agrees is asked about too ("উনি ফোনে বললেন টাকা ফেরত দিতে রাজি।"); a unit naming both answers either.
    asked = asked_halves("উনি ফোনে বললেন টাকা ফেরত দিতে রাজি। টাকাটা আমার কাছে ফিরবে কীভাবে?")
    assert clashes(asked, "প্রাপক যদি টাকা ফেরত দিতে রাজি না হন, তাহলে আপনি থানায় যেতে পারেন।")
    assert not clashes(asked, "Most people agree to return money that was never meant for them, but if the recipient refuses, you can go to the police.")


def test_two_quotes_naming_no_asked_half_are_half_an_answer(served):
    # The deadline and a sentence about the money held answer only the first of "… কত দিনের মধ্যে …?
    # আর প্রাপক যদি … রাজি না হন, তখন কী করা যায়?": the refusal's sentence is not among the chunks.
    q = "ভুল নম্বরে টাকা পাঠানোর কত দিনের মধ্যে ফেরতের অনুরোধ করতে হবে? আর প্রাপক যদি টাকা ফেরত দিতে রাজি না হন, তখন কী করা যায়?"
    answer = served.ask(q).answer
    assert answer.abstained and answer.withheld == "low-confidence", answer.text
    # A figure names the minimum by itself: the smallest of the deposits listed needs no "minimum".
    from raglab.text.contrasts import by_value
    assert by_value()[1] and not by_value()[0]


def test_a_negated_or_refused_agreement_is_the_refusing_half():
    # "didn't agree", "never agreed", "রাজি হয়নি" (the past negated by -নি), "রাজি নন" and "অসম্মত"
    # (সম্মত inside it named the agreeing half too) are a recipient who refuses; রাজি inside
    # ইংরাজি (English) names no recipient at all.
    for q in ("The recipient didn't agree to return the money", "He never agreed to return it, what now?",
              "The receiver wouldn't agree to give it back", "recipient doesnt agree to return",
              "Recipient isn't agreeing to return my money", "প্রাপক অসম্মত হলে কী করব?", "প্রাপক রাজি হয়নি, কী করব?",
              "প্রাপক টাকা ফেরত দিতে রাজি নন", "se taka ferot dite raji hoy nai"):
        assert asked_halves(q) == ((8, 1),), (q, asked_halves(q))
    assert asked_halves("ইংরাজি হরফে লিখলে হবে?") == ()
    assert [h for h in asked_halves("The agent agreed to return it, when will it come?") if h[0] == 8] == [(8, 0)]
    assert asked_halves("প্রাপক ফেরত দিতে রাজি হয়েছেন, টাকা কবে পাব?") == ((8, 0),)


def test_topping_up_to_a_number_asks_no_maximum():
    # "top up to my mother's number" and "sign up to" are phrasal verbs: a minimum recharge is no
    # other half for them. "Up to" before an amount is a maximum whoever tops up.
    for q in ("Can I top up to my mother's number?", "Can I top-up to my mother's number?",
              "Can I sign up to Shapla Pay with my passport?", "ami ki top up to ammu number e korte pari?"):
        assert all(pair != 1 for pair, _ in asked_halves(q)), q
        assert not clashes(asked_halves(q), "Minimum per recharge — Amount: Tk 20"), q
    for q in ("Can I top up to Tk 1,000 at once?", "How much can I recharge, up to what amount?", "You can top up up to Tk 1,000."):
        assert (1, 1) in asked_halves(q), q


def test_pending_and_rejected_are_a_status_not_a_transaction():
    # The pair reads a verification's (an account's, an application's) status; a transaction
    # that is pending or a payment that was rejected names no half of it.
    for q in ("My send money is pending, what do I do?", "The payment was rejected by the bank, where is my money?",
              "আমার লেনদেন পেন্ডিং দেখাচ্ছে, কী করব?"):
        assert all(pair != 7 for pair, _ in asked_halves(q)), q
    for q in ("My verification still says pending.", "আমার একাউন্ট এখনো পেন্ডিং।", "ইকেওয়াইসি প্রত্যাখ্যাত দেখাচ্ছে।",
              "my acount still shows pending verifcation"):
        assert any(pair == 7 for pair, _ in asked_halves(q)), q
    asked = asked_halves("My verification is pending, can I send money?")
    # A unit about a rejected payment is no rejected status; a status row is read with its heading.
    assert not clashes(asked, "If a bill payment is rejected by the biller, the money returns to your wallet.", "Paying bills")
    assert clashes(asked, "Rejected — What it means: We could not confirm your identity", "Verification status The three statuses")


def test_hyphenated_phrasal_verbs_and_the_status_words_of_both_languages():
    # "sign-up to" and "topped-up to" are cue text "sign , up to": the phrasal verb all the same.
    for q in ("Can I sign-up to Shapla Pay with my passport?", "I signed-up to the app, what next?",
              "Can I topped-up to my sister's number?"):
        assert all(pair != 1 for pair, _ in asked_halves(q)), q
    assert (1, 1) in asked_halves("top-up up to what amount?")
    # A verification's status named by its document, its Bangla twins ("ভেরিফাই", "এনআইডি", "আকাউন্ট")
    # or in Banglish ("jachai"), as "verify", "NID" and "account" name it in English.
    for q, half in (("My NID was rejected, what now?", 1), ("আমার এনআইডি রিজেক্ট হয়েছে", 1), ("amar nid reject hoye geche", 1),
                    ("আমার ভেরিফাই পেন্ডিং দেখাচ্ছে", 0), ("আমার আকাউন্ট পেন্ডিং", 0), ("amar jachai pending", 0),
                    ("My selfie was rejected", 1), ("আমার ডকুমেন্ট রিজেক্ট করেছে", 1)):
        assert (7, half) in asked_halves(q), q
    # "পেন্ডিং অবস্থায়" is a transaction's "in a pending state", as "pending state" is in English; "অবস্থা" the status.
    assert all(pair != 7 for pair, _ in asked_halves("আমার লেনদেন পেন্ডিং অবস্থায় আছে"))
    assert all(pair != 7 for pair, _ in asked_halves("My transaction is in a pending state"))
    assert (7, 0) in asked_halves("অবস্থা অপেক্ষমাণ দেখালে কী করব?")


def _pair(name_start: str) -> int:
    pairs = json.loads(read_table("contrasts.json"))["pairs"]
    return next(i for i, row in enumerate(pairs) if row["name"].startswith(name_start))


def test_money_the_customer_sent_by_mistake_is_not_money_someone_says_they_sent():
    # "I sent money to the wrong number" was answered, at 0.71, with the fraud section's "A caller
    # claims to have sent you money by mistake and begs you to send it back."
    pair = _pair("money the customer sent")
    fraud = ("A caller claims to have sent you money by mistake and begs you to send it back.",
             "একটি পরিচিত প্রতারণা হলো, অচেনা কেউ ফোন করে বলে সে ভুল করে আপনার নম্বরে টাকা পাঠিয়েছে এবং টাকাটি ফেরত চায়।")
    steps = "Call our hotline 16789 or report the transfer in the app as soon as possible."
    for q in ("I sent money to the wrong number", "I accidentally sent 2,000 taka to a wrong number, what now?",
              "ভুল নম্বরে টাকা পাঠিয়ে ফেলেছি, কী করব?", "vul number e taka pathiye felechi"):
        asked = asked_halves(q)
        assert (pair, 0) in asked, q
        assert all(clashes(asked, unit) for unit in fraud), q
        assert not clashes(asked, steps), q
    for q in ("A stranger says they sent me money by mistake; what should I do?",
              "Someone called saying he sent me money by mistake and wants it back",
              "একজন ফোন করে বলছে ভুল করে আমার নম্বরে টাকা পাঠিয়েছে, ফেরত চায়"):
        asked = asked_halves(q)
        assert (pair, 1) in asked, q
        assert not any(clashes(asked, unit) for unit in fraud), q
    # Outside a mistake, "I sent" names no half: money sent to a brother asks about a fee.
    assert all(p != pair for p, _ in asked_halves("I sent 500 to my brother, what is the fee?"))


def test_a_limit_that_names_no_bound_is_the_maximum():
    # "What is the minimum amount I can cash in?" was answered "Total amount per day — Amount:
    # Tk 30,000" once the confidence moved by 0.02: a limit stated without "minimum" is a cap.
    asked = asked_halves("What is the minimum amount I can cash in?")
    assert clashes(asked, "Total amount per day — Amount: Tk 30,000", "Cash in at an agent\nCash in limits")
    assert clashes(asked_halves("ন্যূনতম কত টাকা ক্যাশ ইন করা যায়?"), "প্রতিদিন মোট — পরিমাণ: ৩০,০০০ টাকা", "ক্যাশ ইনের সীমা")
    assert not clashes(asked_halves("What is the maximum cash in per day?"), "Total amount per day — Amount: Tk 30,000", "Cash in limits")
    # A range states both bounds; a limit section's sentence without a figure is about neither.
    assert not clashes(asked_halves("What is the minimum recharge?"), "A single mobile recharge must be between Tk 20 and Tk 1,000.",
                       "Fees and limits\nMobile recharge and merchant payment")
    assert not clashes(asked_halves("ন্যূনতম কত টাকা রিচার্জ করা যায়?"), "একবারে ২০ থেকে ১,০০০ টাকা রিচার্জ করা যায়।", "রিচার্জের সীমা")
    assert not clashes(asked, "Limits are set by Bangladesh Bank.", "Cash in limits")
