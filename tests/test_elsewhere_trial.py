"""`bench/elsewhere_trial.py`: the rule tried and not kept (`held_elsewhere`), and how the trial
applies it to the answerer in its own process only."""

import importlib.util
import os
from types import SimpleNamespace as NS

from helpers import ROOT
from raglab.answer import answerer
from raglab.answer.language import LANG_MARGIN, in_own_language


def trial():
    spec = importlib.util.spec_from_file_location("elsewhere_trial", os.path.join(ROOT, "bench", "elsewhere_trial.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def unit(text, found, heading=(), doc="en-a"):
    return NS(unit=NS(text=text), found=frozenset(found), in_heading=frozenset(heading), quote=NS(doc=doc))


# "Should I send the same recharge again?": the English recharge article holds "recharge" and
# "failed" in many sentences, never "again"; only the Bangla article's sentence holds it (through
# the table's "আবার রিচার্জ"), and it states the fact.
OWN = unit("If a recharge fails, the app marks it as failed.", {"recharge", "failed"})
FACT = unit("একই নম্বরে আবার রিচার্জ করবেন না।", {"recharge", "again"}, doc="bn-a")
TOPIC = unit("রিচার্জ ব্যর্থ হলে টাকা ফেরত আসে।", {"recharge", "failed"}, doc="bn-a")


def test_the_rule_puts_first_the_other_language_unit_that_alone_holds_a_question_word():
    rule = trial().held_elsewhere
    q_en = NS(lang="en")
    assert rule(q_en, [(2.0, OWN), (1.5, TOPIC), (1.2, FACT)])[0][1] is FACT
    assert rule(q_en, [(2.0, OWN), (1.9 - LANG_MARGIN, FACT)])[0][1] is OWN  # not close
    assert rule(q_en, [(2.0, OWN), (1.5, TOPIC)])[0][1] is OWN  # it holds no word the other lacks
    said = unit("Do not recharge again before you check.", {"recharge", "again"})  # the question's language holds it too
    assert rule(q_en, [(2.0, OWN), (1.5, FACT), (1.0, said)])[0][1] is OWN
    headed = unit("Recharge failures.", {"recharge"}, heading={"again"})  # in a heading of the question's language
    assert rule(q_en, [(2.0, OWN), (1.5, FACT), (1.0, headed)])[0][1] is OWN
    # It acts only when the best unit is in the question's language (`in_own_language` otherwise).
    assert rule(NS(lang="bn"), [(2.0, OWN), (1.5, FACT)])[0][1] is OWN
    assert trial().variant()(q_en, [(2.0, OWN), (1.5, TOPIC), (1.2, FACT)])[0][1] is FACT  # `same-as-rule`


def test_the_trial_applies_the_rule_in_its_process_and_restores_the_served_answerer():
    t = trial()
    assert answerer.in_own_language is in_own_language  # served: no trace of the rule
    order = [(2.0, OWN), (1.5, TOPIC), (1.2, FACT)]
    try:
        t.apply(t.held_elsewhere)
        assert answerer.in_own_language(NS(lang="en"), order)[0][1] is FACT
        t.apply(t.VARIANTS["off"])  # the rule left out (the served `says_more` too): the order as ranked
        assert answerer.in_own_language(NS(lang="en"), order) == order
    finally:
        t.restore()
    assert answerer.in_own_language is in_own_language
