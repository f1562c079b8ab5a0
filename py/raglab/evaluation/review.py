"""Answer review: was each served answer right, wrong, or a (wrong) abstention, and where was it lost.

The evaluation scores retrieval on spans and answers on term overlap; a support team
asks a plainer question of each golden question: did the served answer state the
reference fact? `verdict` answers it with `metrics.holds_fact`, and `lost_at` names
the stage to look at when it did not. `review` turns a per-question report
(`evaluation.run(..., per_question=True)`) into the rows the page's review table and
its filters show, so the browser and the command line agree on every verdict.

    >>> verdict(True, "The fee is Tk 18.50 per Tk 1,000 (1.85%).", "1.85%")
    'right'
    >>> verdict(True, None, "1.85%"), verdict(False, None, None), verdict(False, "It is free.", None)
    ('wrongly-abstained', 'abstained', 'wrong')
"""

from __future__ import annotations

import json

from raglab.evaluation.metrics import holds_fact

# In the order a team reads them: wrong answers first, then answers withheld that
# existed, then correct refusals, then the answers that were right.
VERDICTS = ("wrong", "wrongly-abstained", "abstained", "right")


def served_text(result: dict) -> str | None:
    """What the customer was shown: the short answers (in bold, first), then the quotes,
    one per line, as the evaluation's "shown" field; None for an abstention. `result` is
    `raglab ask --json` output."""
    if result.get("abstained"):
        return None
    shorts = [s.get("text", "") for s in result.get("short_answers") or [] if isinstance(s, dict)]
    return "\n".join(shorts + [result.get("answer") or ""])


def verdict(answerable: bool, answer: str | None, reference: str | None, evidence=()) -> str:
    """right / wrong / abstained (correctly) / wrongly-abstained, for one served answer
    (`answer` None means the answerer abstained; `evidence`: the question's passages, which
    judge an answer in the other language than its reference, see `holds_fact`)."""
    if not answerable:
        return "abstained" if answer is None else "wrong"
    if answer is None:
        return "wrongly-abstained"
    return "right" if holds_fact(answer, reference or "", evidence=evidence) else "wrong"


def lost_at(verdict_: str, stage: str | None) -> str | None:
    """The stage to look at for a verdict that is not right: a retrieval stage from the
    failure attribution when retrieval lost the evidence, else the answerer (it had the
    evidence and said something else) or the threshold (it abstained, or answered a
    question the articles do not answer)."""
    if verdict_ in ("right", "abstained"):
        return None
    if stage and stage != "served":
        return stage
    if verdict_ == "wrong" and stage == "served":
        return "answerer"
    return "threshold"


def review(report: dict, questions) -> dict:
    """Rows of the answer review for every (question, configuration) in a per-question report.

    `questions` are the golden `Question`s (for the text and the reference answer).
    Returns {"verdicts": VERDICTS, "counts": {config: {verdict: n}}, "rows": [...]},
    rows in the report's order, each {id, config, question, lang, kind, answer,
    reference, verdict, stage, rank, f1}.
    """
    by_id = {q.id: q for q in questions}
    rows = []
    counts: dict[str, dict[str, int]] = {}
    for item in report.get("questions", []):
        q = by_id[item["id"]]
        # What the page shows (the short answers, then the quotes) is what is judged and listed.
        answer = item.get("shown", item.get("answer")) if item["answered"] else None
        v = verdict(q.answerable, answer, q.answer, q.evidence)
        counts.setdefault(item["config"], {name: 0 for name in VERDICTS})[v] += 1
        rows.append({"id": q.id, "config": item["config"], "question": q.question, "lang": q.lang, "kind": q.kind,
                     "answer": answer, "reference": q.answer, "verdict": v, "stage": lost_at(v, item["stage"]),
                     "rank": item["rank"], "f1": item["f1"]})
    return {"verdicts": list(VERDICTS), "counts": counts, "rows": rows}


def _outcome(row: dict, per_question: list[dict]) -> str:
    """Everything a configuration's rows show except its name, as comparable text."""
    shown = {key: value for key, value in row.items() if key not in ("label", "chunker", "retriever", "expand", "paired")}
    mine = [{k: v for k, v in q.items() if k != "config"} for q in per_question if q["config"] == row["label"]]
    return json.dumps([shown, mine], ensure_ascii=False, sort_keys=True)


def hide_identical(report: dict) -> tuple[dict, list[dict]]:
    """The report without configurations whose every figure and per-question outcome equals
    an earlier one's (e.g. expansion on and off over articles the synonym table never
    matches), and the list of what was hidden: [{"label", "same_as"}]. The baseline is
    always kept, so every remaining comparison still has its reference row, and so is every
    configuration the recommendation names (its table has a row for each candidate)."""
    per_question = report.get("questions", [])
    baseline = report["settings"]["baseline"]
    named = set((report.get("recommendation") or {}).get("candidates") or [])
    keeper: dict[str, str] = {}
    order = sorted(report["configs"], key=lambda r: r["label"] != baseline)  # baseline first: it keeps its group
    for row in order:
        keeper.setdefault(_outcome(row, per_question), row["label"])
    kept, hidden = [], []
    for row in report["configs"]:
        first = keeper[_outcome(row, per_question)]
        if first == row["label"] or row["label"] in named:
            kept.append(row)
        else:
            hidden.append({"label": row["label"], "same_as": first})
    if not hidden:
        return report, []
    labels = {row["label"] for row in kept}
    out = dict(report, configs=kept)
    if per_question:
        out["questions"] = [q for q in per_question if q["config"] in labels]
    return out, hidden
