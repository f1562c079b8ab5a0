"""Faults a probe of amounts written as customers write them found (bench/fresh_probe_amounts.jsonl):
"25k", "2.5k", "1 lac", "50 thousand", "500/-" and "taka 500" are amounts no reader took as the help
centre's "Tk 25,000"; the Banglish reader even read the k of "25k" as কী (what) and "lac" as লক."""

import pytest

from helpers import docs, shown
from raglab.pipeline import Config, Pipeline
from raglab.question.stated import customer_amounts


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_a_customers_amount_is_written_as_the_help_centre_writes_it():
    assert customer_amounts("cash out 25k") == "cash out 25000 taka"  # money, said as money
    assert customer_amounts("send 2.5k") == "send 2500 taka"
    assert customer_amounts("around 20-25k a day") == "around 20000-25000 taka a day"  # a range in thousands
    assert customer_amounts("25k taka") == "25000 taka" and customer_amounts("Tk 25k") == "Tk 25000"
    assert customer_amounts("1 lac taka") == "100000 taka" and customer_amounts("1.5 lakh") == "150000"
    assert customer_amounts("50 thousand points") == "50000 points" and customer_amounts("25 hajar") == "25000"
    assert customer_amounts("send 500/- or taka 80") == "send 500 taka or 80 taka"
    assert customer_amounts("৫০০/- পাঠালে") == "৫০০ টাকা পাঠালে"
    # What the help centre writes, and what is no amount, stays.
    for written in ("Tk 25,000 a day", "২৫,০০০ টাকা", "৫০০৳", "a 5kg parcel", "২৫ হাজার টাকা", "Android 8", "Tk.500"):
        assert customer_amounts(written) == written


def test_the_banglish_reader_meets_the_amount_not_a_word(served):
    read = served.read("25k cash out korle agent e charge koto?")
    assert "25000" in read and "কী" not in read
    assert "100000" in served.read("1 lac taka ek dine cash in kora jabe?")
    # An English question with a customer's amount is not read as Banglish: it is answered in English.
    assert not served.banglish_asked("I want to cash out 10k at an agent. What will the fee be?")
    assert served.banglish_asked("25k cash out korle agent e charge koto?")


@pytest.mark.parametrize("customer, help_centre", [
    ("I want to cash out 10k at an agent. What will the fee be?", "I want to cash out Tk 10,000 at an agent. What will the fee be?"),
    ("Can I take a 25k nano loan?", "Can I take a 25000 taka nano loan?"),
])
def test_a_customers_amount_is_answered_as_the_help_centres_is(served, customer, help_centre):
    assert shown(served, customer) == shown(served, help_centre)
