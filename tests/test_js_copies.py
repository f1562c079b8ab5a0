"""The page's copies of Python's words and constants (js/) say what the Python they copy says.

The Bangla report notes (js/findings_bn.js) are computed in the page from the report's numbers,
so they restate a constant and a rule of raglab.evaluation; a change there must reach them.
"""

import os
import re

from helpers import ROOT
from raglab.evaluation import recommend
from raglab.evaluation.metrics import MIN_INTERVAL_N


def read(name: str) -> str:
    with open(os.path.join(ROOT, "js", name), encoding="utf-8") as fh:
        return fh.read()


def test_the_bangla_findings_use_pythons_interval_minimum():
    assert f"export const MIN_INTERVAL_N = {MIN_INTERVAL_N};" in read("findings_bn.js")


def test_the_bangla_findings_know_the_recommendation_rule_they_translate():
    source = read("findings_bn.js")
    english = source[source.index("export const RULE_EN"):source.index("const RULE_BN")]
    assert "".join(re.findall(r'"([^"]*)"', english)) == recommend.RULE
