"""`language.says_more`: an English question's Bangla unit that holds more of what a Bangla unit can
say of the question than the English best unit is quoted first (served; `bench/says_more_trial.py`
holds the variants tried)."""

from types import SimpleNamespace as NS

from raglab.answer.language import LANG_MARGIN, in_own_language, says_more
from raglab.answer.sentences import COL, FEATURES


def unit(text, found, typed=0.0):
    row = [0.0] * len(FEATURES)
    row[COL["typed"]] = typed
    return NS(unit=NS(text=text), found=frozenset(found), features=row)


# An eKYC signup over a slow connection: the English article offers nothing on it; the Bangla
# list item holds "mobile" and "data" through the expansion aliases "ইন্টারনেট সংযোগ".
Q = NS(lang="en", text="I'll be doing the eKYC signup from my village home where mobile data is really slow. Will that be a problem?",
       weights={"doing": 4.86, "ekyc": 4.07, "signup": 6.47, "village": 5.37, "home": 4.07, "mobile": 2.1, "data": 4.27,
                "really": 4.86, "slow": 6.47, "problem": 3.52},
       aliases={"ekyc": [("verification",), ("যাচাই",)], "mobile": [("ইন্টারনেট", "সংযোগ"), ("মোবাইল",)],
                "data": [("ইন্টারনেট", "সংযোগ")]})
OWN = unit("Closing the account does not delete your records straight away.", set())
FACT = unit("পর্যাপ্ত আলো এবং ভালো ইন্টারনেট সংযোগ।", {"mobile", "data"})
LESS = unit("আপনার নামে নিবন্ধিত একটি সচল মোবাইল নম্বর।", {"mobile"})


def test_the_bangla_unit_holding_the_most_of_the_question_is_quoted_first():
    assert says_more(Q, [(5.74, OWN), (5.27, LESS), (5.74, FACT)])[0][1] is FACT  # the most, not the first
    assert in_own_language(Q, [(5.74, OWN), (5.74, FACT)])[0][1] is FACT  # what the answerer calls
    assert says_more(Q, [(5.74, OWN), (5.73 - LANG_MARGIN, FACT)])[0][1] is OWN  # not close


def test_it_yields_to_an_english_unit_that_says_as_much_or_states_the_asked_value():
    said = unit("You need a good mobile data connection.", {"mobile", "data"})
    assert says_more(Q, [(5.74, said), (5.74, FACT)])[0][1] is said
    typed = unit("It takes about 10 minutes.", set(), typed=1.0)
    assert says_more(Q, [(5.74, typed), (5.74, FACT)])[0][1] is typed


def test_not_for_bangla_questions_two_facts_or_a_number_alone():
    bn_best, en_unit = unit("কিছু একটা।", set()), unit("A good internet connection.", {"mobile"})
    q_bn = NS(**{**vars(Q), "lang": "bn", "aliases": {"mobile": [("internet",)]}})
    assert says_more(q_bn, [(5.74, bn_best), (5.74, en_unit)])[0][1] is bn_best
    two = NS(**{**vars(Q), "text": "How much can I borrow, and at what interest rate?"})
    assert says_more(two, [(5.74, OWN), (5.74, FACT)])[0][1] is OWN
    q = NS(lang="en", qtype="yesno", numbers=frozenset({"10"}), text="will my account be closed unless i act in 10 minutes? is it real?",
           weights={"account": 1.0, "closed": 3.0, "act": 4.0, "10": 3.0, "real": 4.0}, aliases={})
    own = unit("A message says your account will be closed unless you act within minutes.", {"account", "closed", "act"})
    ten = unit("অভিযোগ নিষ্পত্তি কর্মকর্তা ১০ কার্যদিবসের মধ্যে আপনাকে উত্তর দেবেন।", {"10"})
    assert says_more(q, [(5.74, own), (5.7, ten)])[0][1] is own


def test_the_english_best_unit_s_bangla_twin_is_not_put_first():
    """A Bangla unit stating the values the English best one states is its twin: `in_own_language`
    would put the English one back, so `says_more` leaves it first however many aliases the twin holds."""
    q = NS(lang="en", qtype="amount", numbers=frozenset({"1000"}), text="how much does it cost to withdraw 1000 taka from an agent?",
           weights={"cost": 2.0, "withdraw": 3.0, "1000": 2.0, "taka": 1.0, "agent": 1.0},
           aliases={"cost": [("চার্জ",)], "withdraw": [("ক্যাশ", "আউট")], "taka": [("টাকা",)], "agent": [("এজেন্ট",)]})
    en = unit("Cash out at an agent costs Tk 18.50 for every Tk 1,000.", {"cost", "1000", "agent"})
    twin = unit("এজেন্টের কাছে প্রতি ১,০০০ টাকা ক্যাশ আউটে চার্জ ১৮.৫০ টাকা।", {"cost", "withdraw", "1000", "taka", "agent"})
    assert says_more(q, [(5.0, en), (4.8, twin)])[0][1] is en
