"""`bench/first_trial.py`: which units open their section, and how each variant rewrites `first`."""

import importlib.util
import os

import pytest

from helpers import ROOT
from raglab.answer.sentences import COL, FEATURES


def trial():
    spec = importlib.util.spec_from_file_location("first_trial", os.path.join(ROOT, "bench", "first_trial.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_block_opens_its_section_only_right_under_the_heading():
    t = trial()
    text = "# Cash in\n\nCash in means …\n\n## Is there a fee?\n\nNo. It is free.\n\nIf an agent asks, report it.\n"
    assert t.under_heading(text, 0)
    assert t.under_heading(text, text.index("Cash in means"))
    assert t.under_heading(text, text.index("No. It is free."))
    assert not t.under_heading(text, text.index("If an agent asks"))


def test_each_variant_rewrites_first_or_adds_a_column():
    t = trial()
    row = [0.0] * len(FEATURES)
    row[COL["first"]], row[COL["novel"]], row[COL["sentence_cover"]] = 1.0, 0.25, 0.6
    assert t.variant("base", row, True, "sentence") == row
    assert t.variant("drop", row, True, "sentence")[COL["first"]] == 0.0
    assert t.variant("split", row, True, "sentence")[-1] == 1.0 and t.variant("split", row, True, "sentence")[COL["first"]] == 0.0
    assert t.variant("split", row, False, "sentence")[-1] == 0.0 and t.variant("split", row, False, "sentence")[COL["first"]] == 1.0
    assert t.variant("headonly", row, False, "sentence")[COL["first"]] == 0.0
    assert t.variant("sentence", row, True, "item")[COL["first"]] == 0.0
    assert t.variant("restate", row, True, "sentence")[COL["first"]] == 0.0  # it holds 0.6 of the question
    assert t.variant("xnovel", row, True, "sentence")[-1] == 0.25
    assert len(t.variant("xnovel", row, True, "sentence")) == len(FEATURES) + 1
    assert row[COL["first"]] == 1.0  # the served row is left as it was
    with pytest.raises(ValueError):
        t.variant("nonesuch", row, True, "sentence")
