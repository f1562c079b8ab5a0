"""`bench/untyped_confidence.py`: the signals tried for answers that state no value, as the trial
computes them (the served confidence is untouched)."""

from types import SimpleNamespace as NS

from helpers import bench_script
from raglab.answer.sentences import COL, FEATURES


def trial():
    return bench_script("untyped_confidence")


def answer(qtype, found, in_heading=(), **features):
    row = [0.0] * len(FEATURES)
    for name, value in features.items():
        row[COL[name]] = value
    best = NS(features=row, found=frozenset(found), in_heading=frozenset(in_heading))
    q = NS(qtype=qtype, weights={"change": 2.0, "pin": 1.0}, total=3.0)
    return {"a": NS(q=q, order=[(0.0, best)]), "feats": {"logit": 0.4, "margin": 0.2}}


def test_the_kind_asked():
    mod = trial()
    assert mod.group("amount") == "value" and mod.group("duration") == "value"
    assert mod.group("procedure") == "procedure" and mod.group("yesno") == "yesno"
    assert mod.group("other") == "other"


def test_a_question_asking_a_value_gets_none_of_the_signals():
    mod = trial()
    got = mod.candidates(answer("amount", {"change", "pin"}, coverage=1.0, prefix_cover=1.0))
    assert set(got) == set(mod.NAMES) and not any(got.values())


def test_what_the_heading_does_not_say_must_be_in_the_unit():
    mod = trial()
    # "How do I change my PIN?" under the heading "PIN": the unit must say "change"
    said = mod.candidates(answer("procedure", {"change"}, {"pin"}, coverage=0.83, imperative=1.0))
    assert said["untyped_rest_cover"] == 1.0 and said["untyped_heaviest"] == 1.0 and said["procedure_told"] == 1.0
    missed = mod.candidates(answer("procedure", {"pin"}, {"pin"}, coverage=0.33))
    assert missed["untyped_rest_cover"] == 0.0 and missed["untyped_heaviest"] == 0.0
    assert abs(missed["untyped_uncovered"] - 2.0 / 3.0) < 1e-9 and missed["procedure_told"] == 0.0
    assert mod.candidates(answer("yesno", {"pin"}, negation=1.0))["yesno_side"] == 1.0
