"""`bench/says_more_trial.py`: the rule (`says_more`, the other language's unit that says more of the
question), its variants on a dev question, and how the trial applies them in its own process only.
The variant `says-more-en-words-most-one` is served since (`language.says_more`)."""

import importlib.util
import os
from types import SimpleNamespace as NS

from helpers import ROOT
from raglab.answer import answerer
from raglab.answer.language import LANG_MARGIN, in_own_language
from test_says_more import FACT, LESS, OWN, Q, unit  # dev q770, as the served pipeline reads it


def trial():
    spec = importlib.util.spec_from_file_location("says_more_trial", os.path.join(ROOT, "bench", "says_more_trial.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_rule_quotes_the_other_language_unit_that_says_more_of_what_it_can_say():
    t = trial()
    rule = t.VARIANTS["says-more-en-words-most-one"]
    assert rule(Q, [(5.74, OWN), (5.27, LESS), (5.74, FACT)])[0][1] is FACT  # the most of it, not the first
    assert rule(Q, [(5.74, OWN), (5.73 - LANG_MARGIN, FACT)])[0][1] is OWN  # not close
    said = unit("You need a good mobile data connection.", {"mobile", "data"})  # the question's language says as much
    assert rule(Q, [(5.74, said), (5.74, FACT)])[0][1] is said
    typed = unit("It takes about 10 minutes.", set(), typed=1.0)  # a value of the asked type wants one too
    assert rule(Q, [(5.74, typed), (5.74, FACT)])[0][1] is typed
    # A Bangla question is left to `in_own_language` in the restricted variant; the unrestricted rule acts.
    q_bn = NS(**{**vars(Q), "lang": "bn"})
    bn_best = unit("কিছু একটা।", set())
    en_unit = unit("A good internet connection.", {"mobile"})
    assert rule(q_bn, [(5.74, bn_best), (5.74, en_unit)])[0][1] is bn_best
    assert t.VARIANTS["says-more"](NS(**{**vars(Q), "lang": "bn", "aliases": {"mobile": [("internet",)]}}),
                                   [(5.74, bn_best), (5.74, unit("internet", {"mobile"}))])[0][1].unit.text == "internet"


def test_a_number_alone_is_not_saying_more():
    """"10" of "১০ কার্যদিবসের মধ্যে" is not the "10 minutes" a scam message gives (dev q931)."""
    q = NS(lang="en", text="will my account be closed unless i act in 10 minutes? is it real?",
           weights={"account": 1.0, "closed": 3.0, "act": 4.0, "10": 3.0, "real": 4.0}, aliases={})
    own = unit("A message says your account will be closed unless you act within minutes.", {"account", "closed", "act"})
    ten = unit("অভিযোগ নিষ্পত্তি কর্মকর্তা ১০ কার্যদিবসের মধ্যে আপনাকে উত্তর দেবেন।", {"10"})
    rules = trial().VARIANTS
    assert rules["says-more"](q, [(5.74, own), (5.7, ten)])[0][1] is ten
    assert rules["says-more-words"](q, [(5.74, own), (5.7, ten)])[0][1] is own


def test_the_trial_applies_the_rule_in_its_process_and_restores_the_served_answerer():
    t = trial()
    assert answerer.in_own_language is in_own_language  # served: no trace of the rule
    order = [(5.74, OWN), (5.74, FACT)]
    try:
        t.elsewhere_trial.apply(t.VARIANTS["says-more-en-words-most-one"])
        assert answerer.in_own_language(Q, order)[0][1] is FACT
    finally:
        t.elsewhere_trial.restore()
    assert answerer.in_own_language is in_own_language
    assert in_own_language(Q, order)[0][1] is FACT  # served since: `language.says_more`, this variant
