"""The page's copies of Python's words and constants (js/) say what the Python they copy says.

The Bangla report notes (js/findings_bn.js) are computed in the page from the report's numbers,
so they restate a constant and a rule of raglab.evaluation; a change there must reach them.
"""

import os
import re

import pytest

from helpers import ROOT
from raglab.evaluation import recommend, stats
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


# The Bangla note of the Answers section restates the risk bound of the threshold rule; it was
# written into the page as ০.১০, so a report under another bound said the wrong figure.
RISK_NOTE_JS = """
globalThis.document = {documentElement: {}, title: "", querySelectorAll: () => [],
                       createElement: (tag) => ({tag, dataset: {}, append() {}, setAttribute() {}})};
const {setLanguage} = await import("./i18n.js");
const {localSection} = await import("./report_text.js");
setLanguage("bn");
const out = [];
for (const settings of JSON.parse(process.argv[2])) {
  const report = {settings: {split: "dev", k: 3, answerable: 1, unanswerable: 0, ...settings}};
  const section = localSection({title: "Answers", notes: ["x"], header: [], rows: []}, report);
  out.push(section.notes[0].filter((part) => typeof part === "string").join(""));
}
console.log(JSON.stringify(out));
"""


def bangla_answers_note(tmp_path, reports: list[dict]) -> list[str]:
    """The first Bangla note of the Answers section for each report's settings, from js/ under Node."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if not node:
        pytest.fail("node is missing; install Node.js 18 or newer (Debian: apt-get install nodejs)")
    for name in os.listdir(os.path.join(ROOT, "js")):
        if name.endswith(".js"):
            shutil.copy(os.path.join(ROOT, "js", name), tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "note.mjs").write_text(RISK_NOTE_JS)
    run = subprocess.run([node, "--no-warnings", str(tmp_path / "note.mjs"), json.dumps(reports)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def test_the_bangla_threshold_note_states_the_reports_risk_bound(tmp_path):
    assert "০.১০" not in read("report_text.js")  # no figure of its own
    other = stats.TUNING_RULE.replace(f"<= {stats.RISK_BUDGET:.2f}", "<= 0.05")
    served, older, bound = bangla_answers_note(tmp_path, [
        {"tuning_rule": stats.TUNING_RULE, "risk_budget": stats.RISK_BUDGET},
        {"tuning_rule": other},  # a report written before `risk_budget` was: the rule's own words
        {"tuning_rule": stats.TUNING_RULE, "risk_budget": 0.2},
    ])
    assert f"ঝুঁকি (উত্তর দেওয়া প্রশ্নের মধ্যে ভুলের ভাগ) {bangla_digits(stats.RISK_BUDGET)} বা কম" in served
    assert "০.০৫ বা কম" in older and "০.২০ বা কম" in bound


def bangla_digits(x: float) -> str:
    return f"{x:.2f}".translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯"))

