"""The asked answer type as the answerer reads it, measured against the goldens
(`bench/answer_type_confusion.py`), and misreads of that measurement that stay put right."""

import importlib.util
import os

import pytest

from helpers import ROOT, docs
from raglab.pipeline import Config, Pipeline
from raglab.question.respell import question_type_of


def confusion():
    spec = importlib.util.spec_from_file_location("answer_type_confusion",
                                                  os.path.join(ROOT, "bench", "answer_type_confusion.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def pipe():
    return Pipeline(docs(), Config())


def asked(pipe, question):
    """The type the answerer reads: in the pipeline's cue text, misspelt cue words respelt."""
    return question_type_of(pipe.cues(question), pipe.closest)


def test_the_confusion_script_reports_accuracy_matrix_and_misreads(capsys):
    mod = confusion()
    assert mod.main(["--show", "3"]) == 0
    out = capsys.readouterr().out
    assert "dev, all languages:" in out and "type accuracy" in out
    for lang in ("en", "bn", "banglish"):
        assert f"dev, {lang}:" in out
    assert "golden \\ inferred" in out and "misread (" in out


def test_the_golden_vocabulary_map_counts_entity_as_other():
    mod = confusion()
    assert mod.GOLDEN_OF.get("entity") == "other"
    assert mod.GOLDEN_OF.get("amount", "amount") == "amount"


@pytest.mark.parametrize("question, expected", [
    # "kono" (any) is a word of Bangla grammar spelt as customers spell it, not a slip for
    # "koto" (how much): a yes/no question, not an amount; but "any charge / fee" asks about a
    # fee, as English "any charge for …" does (answered "free" or with the fee)
    ("ei app e kono reward ache?", "yesno"),
    ("bkash theke add money korle kono charge kate?", "amount"),
    ("statement nite kono fee lagbe?", "amount"),
    # a question closed by "naki", or by "dibo?" with no question word, asks yes or no
    ("ATM e taka tulte pin dite hobe naki", "yesno"),
    ("ekjon lok phone kore pin chaise, dibo?", "yesno"),
    # "naki" between two choices is an either/or, not yes/no
    ("fee ta agent ke dibo naki account theke kete nibe?", "other"),
    # "what will happen" and "what can I do"
    ("tin bar vul otp dile ki hobe?", "other"),
    ("agent taka ferot dicche na, ami ki korte pari?", "procedure"),
    ("pin koy digit er?", "count"),
    # a superlative before a quantity asks the quantity, not a name
    ("What is the largest amount I can cash out in a day?", "amount"),
    # the USSD menu named in a yes/no question is no contact asked
    ("ইউএসএসডি মেনু দিয়ে কি ব্যালেন্স দেখা যায়?", "yesno"),
])
def test_realistic_misreads_stay_fixed(pipe, question, expected):
    assert asked(pipe, question) == expected
