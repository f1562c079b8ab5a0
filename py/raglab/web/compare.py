"""The Evaluate tab's side of the web facade: the evaluation grid run with `raglab compare`'s
options given as a JSON object, as the CLI's JSON report (`compare`) or as what the page
draws (`compare_view`: titled tables, the answer review, hidden identical rows)."""

from __future__ import annotations

import json
import re

from raglab.corpus.goldens import GoldenError
from raglab.evaluation import engine as evaluation
from raglab.evaluation import report
from raglab.evaluation.review import hide_identical, review
from raglab.evaluation.stats import MIN_TUNING_QUESTIONS
from raglab.pipeline import Config
from raglab.schema import dumps
from raglab.web.state import BUNDLED, _corpus, _json_arg

COMPARE_OPTIONS = ("split", "chunker", "retriever", "expand", "k", "min_coverage", "baseline", "seed",
                   "id_labels", "per_question")
VIEW_OPTIONS = ("hide_identical",)  # compare_view only: presentation, not part of the report


_STEP = re.compile(r"^(?P<config>.+?): (?:question (?P<question>[\d,]+) of (?P<questions>[\d,]+)|(?P<build>chunking|indexing) .*)$")


def progress_detail(done: int, total: int, label: str, reported: int) -> dict:
    """What the page says about one progress call of `evaluation.run`, as data it can word in
    either interface language: {"phase": "index" | "questions" | "report", ...}.

    `reported` is how many questions the report covers; the run also asks the dev questions
    the thresholds are tuned on, so "question 121 of 203" is told apart from the report's 99.

    >>> progress_detail(1, 6, "fixed+bm25: question 121 of 203", 99)["extra"]
    104
    >>> progress_detail(6, 6, "done", 99)
    {'phase': 'report', 'configs': 6}
    """
    if done >= total and label == "done":
        return {"phase": "report", "configs": total}
    found = _STEP.match(label)
    config = found["config"] if found else label
    out = {"phase": "index", "config": config, "n": done + 1, "configs": total}
    if found and found["question"]:
        asked = int(found["questions"].replace(",", ""))
        out.update(phase="questions", question=int(found["question"].replace(",", "")), questions=asked,
                   reported=reported, extra=max(0, asked - reported))
    return out


def _relay(progress, reported: int):
    """The engine's progress(done, total, label), passed on with its detail as JSON text."""
    if progress is None:
        return None

    def relay(done: int, total: int, label: str) -> None:
        progress(done, total, label, json.dumps(progress_detail(done, total, label, reported)))

    return relay


def _compare_report(options, progress, corpus: str):
    """Run `evaluation.run` with the CLI's options given as a JSON object.

    The options mirror `raglab compare`'s flags: split, chunker and retriever
    (a name or a list of names; default all), expand ("off", "on" or "both";
    default both, as on the command line), k, min_coverage, baseline, seed,
    id_labels, per_question. Anything not given takes the default of `evaluation.run`.
    """
    loaded = _corpus(corpus)
    if loaded.goldens_error:
        raise GoldenError(loaded.goldens_error)
    if not loaded.questions:
        raise GoldenError("no golden questions are loaded for this corpus; add a questions file")
    opts = {k: v for k, v in _json_arg(options, "options", dict, {}).items() if k not in VIEW_OPTIONS}
    unknown = sorted(k for k in opts if k not in COMPARE_OPTIONS)
    if unknown:
        raise ValueError(f"unknown compare option {', '.join(map(repr, unknown))}; "
                         f"the options are {', '.join(COMPARE_OPTIONS)}")

    def names(key):
        value = opts.get(key)
        return [value] if isinstance(value, str) else value

    mode = opts.get("expand") or "both"
    if mode not in evaluation.EXPAND_MODES:
        raise ValueError(f"expand must be one of {', '.join(evaluation.EXPAND_MODES)}; got {mode!r}")
    configs = evaluation.grid(names("chunker"), names("retriever"), evaluation.EXPAND_MODES[mode])
    kwargs = {key: opts[key] for key in COMPARE_OPTIONS[4:] if key in opts}
    if "split" in opts:
        kwargs["split"] = opts["split"]
    split = kwargs.get("split", "test")
    reported = len(evaluation.select(loaded.questions, split)) if split in evaluation.SPLITS else 0
    return loaded, evaluation.run(loaded.docs, loaded.questions, configs, progress=_relay(progress, reported),
                                  **kwargs)


def compare(options=None, progress=None, corpus: str = BUNDLED) -> str:
    """The evaluation grid, run in this process: the same text as `raglab compare --format json`
    with the same options. `progress(done, total, label, detail)` is called as the run goes
    (`detail`: `progress_detail` as JSON text; the worker forwards both to the page)."""
    _, result = _compare_report(options, progress, corpus)
    return report.render(result, "json")


def compare_view(options=None, progress=None, corpus: str = BUNDLED) -> str:
    """What the Evaluate tab draws: the report, its titled tables (the cells the CLI prints),
    the CLI's text output, the question texts, and the answer review (raglab.evaluation.review) when
    the options ask for per-question rows.

    With the option "hide_identical", configurations whose every figure and per-question
    outcome repeats an earlier one's are left out and listed under "hidden". An
    evaluation of a corpus other than the bundled one also records the threshold it tuned
    for the served configuration, which `ask` then uses for that corpus; with fewer than
    `stats.MIN_TUNING_QUESTIONS` dev questions nothing is tuned, and "untuned" says so.
    """
    raw = _json_arg(options, "options", dict, {})
    loaded, result = _compare_report(options, progress, corpus)
    untuned = None
    if corpus != BUNDLED:
        served = next((r for r in result["configs"] if r["label"] == Config().label), None)
        if served is not None and served["tuning"]["rule"] == "tuned on dev":
            loaded.tuned = {"threshold": served["threshold"], "label": served["label"],
                            "dev_questions": served["tuning"]["n"]}
        elif served is not None:  # too few dev questions: Ask keeps the served threshold, and the page says why
            loaded.tuned = None
            untuned = {"threshold": Config().threshold, "dev_questions": result["settings"]["dev_questions"],
                       "min": MIN_TUNING_QUESTIONS}
    hidden: list = []
    if raw.get("hide_identical"):
        result, hidden = hide_identical(result)
    tables = report.sections(result)
    summary_only = {k: v for k, v in result.items() if k != "questions"}
    return dumps({
        "report": result,
        "sections": [t for t in tables if t["title"] != "Per question"],
        "text": report.render(summary_only, "text"),
        "questions": {q.id: q.question for q in loaded.questions},
        "review": review(result, loaded.questions) if "questions" in result else None,
        "hidden": hidden,
        "tuned": loaded.tuned,
        "untuned": untuned,
    })
