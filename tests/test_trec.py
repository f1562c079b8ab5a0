"""`raglab compare --trec DIR`: the runs and qrels re-scored by ir_measures give raglab's numbers."""

import json
import os

import ir_measures
import pytest

from helpers import questions
from raglab.evaluation.trec import TrecError, qrels_lines, run_lines
from test_cli import raglab

# One comparison exported (about ten seconds) before any test: the full suite's.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("trec")
    r = raglab("compare", "--split", "test", "--chunker", "fixed", "--chunker", "sentence", "--retriever", "bm25",
               "--expand", "off", "--per-question", "--json", "--trec", str(out))
    assert r.returncode == 0, r.stderr
    return out, json.loads(r.stdout)


def test_trec_files_are_written_per_configuration_and_chunker(exported):
    out, report = exported
    assert sorted(os.listdir(out)) == sorted([c["label"] + ".run" for c in report["configs"]] +
                                             ["fixed.qrels", "sentence.qrels"])
    line = open(out / "fixed+bm25.run", encoding="utf-8").readline().split()
    assert line[1] == "Q0" and "#" in line[2] and line[3] == "1" and line[5] == "fixed+bm25"
    assert "trec" not in report  # the files, not the JSON, carry the runs


def test_ir_measures_rescoring_matches_raglab(exported):
    """RR@10 equals raglab's MRR@10 question by question (a question whose evidence no chunk
    covers has no qrels and counts 0 for both). R@5 equals raglab's recall@5 wherever every
    fact is covered by exactly one chunk; elsewhere TREC counts relevant chunks and raglab
    facts, by design (stated in raglab.evaluation.trec)."""
    out, report = exported
    facts = {q.id: q.n_facts for q in questions()}
    per_q = {(q["config"], q["id"]): q for q in report["questions"]}
    answerable = sorted({q["id"] for q in report["questions"] if q["f1"] is not None})
    for row in report["configs"]:
        qrels = list(ir_measures.read_trec_qrels(str(out / f"{row['chunker']}.qrels")))
        relevant = {}
        for qrel in qrels:
            relevant.setdefault(qrel.query_id, []).append(qrel.doc_id)
        run = list(ir_measures.read_trec_run(str(out / f"{row['label']}.run")))
        theirs = {}
        for m in ir_measures.iter_calc([ir_measures.RR @ 10, ir_measures.R @ 5], qrels, run):
            theirs.setdefault(m.query_id, {})[str(m.measure)] = m.value
        rr = [theirs.get(qid, {}).get("RR@10", 0.0) for qid in answerable]
        assert sum(rr) / len(rr) == pytest.approx(row["metrics"]["mrr"], abs=1e-6)
        for qid in answerable:
            rank = per_q[(row["label"], qid)]["rank"]
            assert theirs.get(qid, {}).get("RR@10", 0.0) == pytest.approx(1 / rank if rank and rank <= 10 else 0.0)
        # One fact, one chunk covering it: both recalls are "is that chunk in the top 5".
        single = [qid for qid in answerable if len(relevant.get(qid, ())) == 1 and facts[qid] == 1]
        assert len(single) >= 25, (row["label"], len(single))
        for qid in single:
            ours = 1.0 if (per_q[(row["label"], qid)]["rank"] or 99) <= 5 else 0.0
            assert theirs[qid]["R@5"] == ours


def test_trec_refuses_whitespace_in_ids():
    assert run_lines("a+b", {"q1": ["d#1", "d#2"]}) == ["q1 Q0 d#1 1 2 a+b", "q1 Q0 d#2 2 1 a+b"]
    assert qrels_lines({"q1": ["d#1"]}) == ["q1 0 d#1 1"]
    with pytest.raises(TrecError, match="question id 'q 1'"):
        qrels_lines({"q 1": ["d#1"]})
