"""Faults a fresh probe of new users' questions found (bench/fresh_probe.jsonl): a price question
answered by a range limit, the minimum for the biggest, an intro sentence for "which amounts", a
phrasal verb's "in to the app" as a place, a worked example or a table row of another case."""

import json
import os

import pytest

from helpers import ROOT, docs, shown
from raglab.corpus.goldens import load_goldens
from raglab.pipeline import Config, Pipeline
from raglab.question.asking import another_row, asks_upper, limit_for_price, only_limit, only_price
from raglab.question.durations import no_deadline
from raglab.question.places import places
from raglab.question.respell import typed_question
from raglab.question.subjects import another_service
from raglab.text.answertypes import question_types
from raglab.text.numbers import another_amount


@pytest.fixture(scope="module")
def served():
    # Every answer composed whatever its confidence: what is withheld here is withheld by a rule.
    return Pipeline(list(docs()), Config(threshold=0.0))


PROBES = {"fresh_probe.jsonl": 50, "fresh_probe_basic.jsonl": 30, "fresh_probe_trouble.jsonl": 30, "fresh_probe_other.jsonl": 30,
          "fresh_probe_first.jsonl": 30, "fresh_probe_mixed.jsonl": 30, "fresh_probe_situation.jsonl": 30,
          "fresh_probe_voice.jsonl": 30, "fresh_probe_amounts.jsonl": 30}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_the_probe_is_a_valid_question_file_and_copies_no_golden(name):
    # Every probe loads as a golden file does (each evidence quote found in its article), is dev only,
    # asks in both languages and copies no golden question: a probe measures questions not fitted on.
    probe = load_goldens(os.path.join(ROOT, "bench", name), list(docs()))
    assert len(probe) >= PROBES[name] and {q.lang for q in probe} == {"en", "bn"} and all(q.split == "dev" for q in probe)
    with open(os.path.join(ROOT, "goldens", "questions.jsonl"), encoding="utf-8") as f:
        golden = {json.loads(line)["question"].strip().lower() for line in f if line.strip()}
    assert not [q.id for q in probe if q.question.strip().lower() in golden]


def test_the_probes_ids_are_their_own():
    ids = []
    for name in sorted(PROBES):
        with open(os.path.join(ROOT, "bench", name), encoding="utf-8") as f:
            ids += [json.loads(line)["id"] for line in f if line.strip()]
    assert len(ids) == len(set(ids))


def test_a_range_of_amounts_is_a_limit_and_no_price():
    assert only_limit("A single mobile recharge must be between Tk 20 and Tk 1,000.")
    assert only_limit("একবারে ২০ থেকে ১,০০০ টাকার মধ্যে রিচার্জ করা যায়।")  # "রিচার্জ" is no "চার্জ"
    assert not only_price("প্রতিটি রিচার্জের সর্বনিম্ন পরিমাণ ২০ টাকা।")
    assert limit_for_price("How much does mobile recharge cost?", "A single mobile recharge must be between Tk 20 and Tk 1,000.")
    assert limit_for_price("How much do I pay to top up my phone?", "A single mobile recharge must be between Tk 20 and Tk 1,000.")
    assert not limit_for_price("What does the hotline cost?", "The hotline answers between 9 am and 5 pm.")
    assert limit_for_price("রিচার্জ করতে কত টাকা দিতে হয়?", "একবারে ২০ থেকে ১,০০০ টাকার মধ্যে রিচার্জ করা যায়।")  # what one pays


@pytest.mark.parametrize("question", ["How much does mobile recharge cost?", "How much do I pay to top up my phone?",
                                      "মোবাইল রিচার্জে কত খরচ?"])
def test_a_recharge_price_is_not_answered_by_its_range_or_a_shops_fee(served, question):
    # "between Tk 20 and Tk 1,000" was bold at 0.91; then "free" and "1.5%" of the merchant's sentence beside it.
    _, shorts, answer = shown(served, question)
    assert not any("20" in s or "1.5%" in s for s in shorts), shorts
    assert "merchant" not in answer, answer


def test_the_biggest_is_the_upper_end(served):
    assert asks_upper("What's the biggest recharge I can do at once?") and question_types("What's the biggest recharge I can do at once?") == ["amount"]
    _, shorts, _ = shown(served, "What's the biggest recharge I can do at once?")
    assert shorts and "1,000" in shorts[0], shorts


def test_which_amounts_ask_an_amount_not_a_month(served):
    assert question_types("Which monthly amounts can I choose for Shapla Sanchay?") == ["amount"]
    assert question_types("In which month was he born?") == ["time"]
    assert question_types("How big can a nano loan be?") == ["amount"] and question_types("How big is Dhaka?") == ["count"]
    assert question_types("৪০ হাজার টাকা রেমিট্যান্স এলে প্রণোদনা কত পাব?") == ["amount"]
    assert question_types("What is the most reward points I can earn in one month?") != ["amount"]
    _, shorts, _ = shown(served, "Which monthly amounts can I choose for Shapla Sanchay?")
    assert shorts == ["Tk 500, 1,000, 2,000 or 5,000"], shorts


def test_logging_in_to_the_app_is_no_place():
    assert places("Log in to the app with your PIN.") == ()
    s = "Sign in and then go to the Rewards screen."
    assert [s[a:b] for a, b in places(s)] == ["to the Rewards screen"]


def test_a_row_or_example_of_another_case_is_not_the_answer(served):
    q = "৪০ হাজার টাকা রেমিট্যান্স এলে প্রণোদনা কত পাব?"
    assert another_row(q, "১০,০০০ টাকা — প্রণোদনা (২.৫%): ২৫০ টাকা") and not another_row(q, "৪০,০০০ টাকা — প্রণোদনা (২.৫%): ১,০০০ টাকা")
    _, shorts, _ = shown(served, q)
    assert not any("২৫০" in s or "500" in s or "20,000" in s for s in shorts), shorts


def test_a_swapped_pair_of_letters_reads_as_the_cue_word(served):
    assert typed_question("how lnog does verfication take when its pending?", served.closest).startswith("how long")
    _, shorts, _ = shown(served, "how lnog does verfication take when its pending?")
    assert shorts == ["within 24 hours"], shorts


# A second probe, in voices the first did not use (chat fragments, Bangla and English mixed in one
# sentence, stories, polite letters, numbers, colloquial spellings), found the next two.

def test_a_case_ending_after_an_english_word_asks_no_person(served):
    # "GRO কে" is "to the GRO" (the ending cannot join a Latin word), not "who": the question asks
    # which e-mail, and "Grievance Redressal Officer" was shown bold at 0.84 as the person asked.
    # Read as the contact it asks ("কোন email"), its answer is the GRO's address.
    q = "GRO কে complaint escalate করতে কোন email এ লিখব?"
    assert question_types(q) == ["contact"] and question_types("রসিদ কে দিবে?") == ["person"]
    assert question_types("agent কে pin বলা যাবে?") == []
    _, shorts, _ = shown(served, q)
    assert shorts == ["gro@shaplapay.example"], shorts


@pytest.mark.parametrize("question, address", [
    ("কোন ইমেইলে অভিযোগ পাঠাব?", "support@shaplapay.example"),
    ("অভিযোগ ইমেইলে পাঠাতে চাই, কোন ঠিকানায় পাঠাব?", "support@shaplapay.example"),
    ("Which email do I write to with a complaint?", "support@shaplapay.example"),
    ("জিআরও-কে কোন ইমেইলে লিখতে হয়?", "gro@shaplapay.example"),
])
def test_which_email_asks_the_address_to_write_to(served, question, address):
    # Untyped (or read as a place), "কোন ইমেইলে অভিযোগ পাঠাব?" was withheld at 0.35 with the channels
    # table on screen, and "… কোন ঠিকানায় পাঠাব?" answered "মেনু থেকে" (the app's menu).
    assert question_types(question) == ["contact"]
    _, shorts, _ = shown(served, question)
    assert shorts == [address], shorts


def test_the_yes_no_particle_after_hotline_asks_no_number(served):
    # "হটলাইন কি … খোলা থাকে?" asks whether it is open; its কি is no "what": the number 16789
    # was the bold answer at 0.87.
    q = "হটলাইন কি রাইতেও খোলা থাকে?"
    assert question_types(q) == [] and question_types("হটলাইন নম্বর কত?") == ["contact"] == question_types("হটলাইন কী?")
    _, shorts, _ = shown(served, q)
    assert not any("১৬৭৮৯" in s or "16789" in s for s in shorts), shorts


def test_koy_is_how_many_not_a_yes_no(served):
    # "কয়" is the spoken "কত": "কয় মিনিট লাগে?" was read as a yes/no question and answered by a
    # sentence about SIM ownership; "কয় পয়েন্টে ১০ টাকা হয়?" hid the second half of a two-fact
    # question, whose first half alone ("Tk 100") was shown at 0.76.
    assert question_types("একাউন্ট খুলতে কয় মিনিট লাগে?") == ["duration"]
    assert question_types("কয় পয়েন্টে ১০ টাকা হয়?") == ["count"] and question_types("কয় টাকা কাটে?") != ["count"]
    _, shorts, _ = shown(served, "একাউন্ট খুলতে কয় মিনিট লাগে?")
    assert shorts == ["সাধারণত ১০ মিনিটের মধ্যে"], shorts  # the English "within 10 minutes", shown in its Bangla twin
    _, shorts, answer = shown(served, "মার্চেন্ট পেমেন্টে পয়েন্ট কত পাই, আর কয় পয়েন্টে ১০ টাকা হয়?")
    assert "Tk 100" not in shorts and "100 points for Tk 10" in answer and "1 point for every Tk 100" in answer, (shorts, answer)


def test_what_will_the_fee_be_asks_an_amount(served):
    # "what will the fee be" asked nothing typed:
    # the right sentence was held at 0.47 without its "Tk 100".
    q = "If I load 10,000 taka from my debit card, what will the fee be?"
    assert question_types(q) == ["amount"] == question_types("What would the charge be for Tk 5,000?")
    _, shorts, _ = shown(served, q)
    assert shorts == ["Tk 100"], shorts


def test_koyta_porjonto_asks_a_time(served):
    # "কয়টা পর্যন্ত" is "until what time", not "how many": no count in the opening-hours sentence.
    q = "agent point সাধারণত কয়টা পর্যন্ত open থাকে?"
    assert question_types(q) == ["time"] and question_types("প্রিয় নম্বর কয়টা রাখা যায়?") == ["count"]
    _, shorts, _ = shown(served, q)
    assert shorts == ["from 9 am to 9 pm"], shorts


def test_a_code_mixed_question_is_answered_in_bangla(served):
    # Read by its letters as English (more Latin letters than Bangla), it was answered from the English article.
    _, shorts, answer = shown(served, "Agent point এ cash out করলে কত percent charge কাটে?")
    assert shorts and "১.৮৫%" in shorts[0] and "এজেন্ট" in answer, (shorts, answer)


def test_an_english_word_of_the_question_finds_its_value_in_a_bangla_unit(served):
    # The question's "charge" is চার্জ in the Bangla sentence: the share it names, not the Tk 18.50 after it.
    _, shorts, _ = shown(served, "cash out charge কত?")
    assert shorts and shorts[0].startswith("১.৮৫%"), shorts


def test_a_rate_per_an_amount_settles_the_amount_a_customer_only_tells():
    # bench/fresh_probe_situation.jsonl p813: the customer's own spend, told in a sentence that asks nothing,
    # is their situation, which "1 point for every Tk 100" settles; an amount the question asks about is a case.
    told = "I bought groceries for Tk 2,500 with Shapla Pay at a shop. How many reward points do I earn for that?"
    assert not another_amount(told, "count", "You earn 1 point for every Tk 100 paid to merchants.")
    assert another_amount("মার্চেন্ট পেমেন্টে পয়েন্ট কত পাই, আর কয় পয়েন্টে ১০ টাকা হয়?", "count",
                          "You earn 1 point for every Tk 100 paid to merchants.")  # the asked Tk 10: another case
    assert another_amount("I paid Tk 50 at a shop. How many points do I need to redeem?", "count",
                          "You can redeem 100 points for Tk 10, which is added to your wallet balance.")  # no rate per


def test_the_points_a_customers_own_spend_earns_are_answered_by_the_rate(served):
    abstained, bold, answer = shown(served, "I bought groceries for Tk 2,500 with Shapla Pay at a shop. How many reward points do I earn for that?")
    assert not abstained and bold == ["1 point"] and answer.startswith("You earn 1 point for every Tk 100")


@pytest.mark.parametrize("question", ["বছরে কত হারে মুনাফা পাব?", "লোনে কত হারে সুদ দিতে হয়?"])
def test_at_what_rate_in_bangla_asks_a_percentage(question):
    # "কত হারে" is "হার কত" (what rate) in the other word order; the customer's own deposit (p829: "প্রতি মাসে
    # ২,০০০ টাকা করে …") then no longer puts the deposit row over "a profit rate of 7% a year".
    assert question_types(question) == ["percent"]


def test_a_time_the_help_centre_takes_is_no_deadline_the_customer_must_meet(served):
    # p820: "within how many days must I complain?" about a wrong transfer was answered "৭ কার্যদিবসের মধ্যে"
    # (a complaint is resolved within 7 working days) at 0.74; the 30-day deadline's chunk was not retrieved.
    assert no_deadline("কত দিনের মধ্যে অভিযোগ করতে হবে?", ["অভিযোগ জানানোর ৭ কার্যদিবসের মধ্যে তা নিষ্পত্তি করা হয়।"])
    assert not no_deadline("How many days do I have to report it?", ["A request about a wrong transfer must be made within 30 days of the transaction."])
    assert not no_deadline("How long do I have to use my wallet before I can get a loan?", ["Eligibility is based on at least 6 months of transaction history."])
    abstained, _, _ = shown(served, "গতকাল ১৫,০০০ টাকা ভুল নম্বরে চলে গেছে, কত দিনের মধ্যে অভিযোগ করতে হবে?")
    assert abstained
    abstained, _, answer = shown(served, "ভাইয়ের নম্বর ভেবে ভুল নম্বরে টাকা চলে গেছে। কত দিনের মধ্যে জানাতে হবে?")
    assert not abstained and "৩০ দিনের মধ্যে" in answer


def test_a_value_rule_does_not_reach_for_another_services_value(served):
    # p817: a cash-out question that tells the customer's balance was given the add-money daily limit
    # ("You can add up to Tk 50,000 a day …"): `howto.the_value_first` promoted it, an amount within the margin.
    question = "আমার অ্যাকাউন্টে ৪০ হাজার টাকা আছে, একদিনে পুরোটা ক্যাশ আউট করা যাবে?"
    assert another_service(question, "You can add up to Tk 50,000 a day to your wallet from banks and cards.")
    assert not another_service(question, "Up to Tk 25,000 in total a day.")  # names no service: may be any
    assert not another_service("Can my son of 16 open an account?", "You can add up to Tk 50,000 a day.")  # none asked
    _, _, answer = shown(served, question)
    assert "50,000" not in answer and "২৫,০০০" in answer

