"""The numbers the code says were fitted on dev are what the fitting scripts in bench/ give."""

import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        import fit_dense
        import fit_reranker
    finally:
        sys.path.pop(0)
    return fit_reranker, fit_dense


def test_pairwise_fit_recovers_a_known_ranking_direction(bench):
    fit_reranker, _ = bench
    rng = np.random.default_rng(7)
    truth = np.array([2.0, -1.0, 0.5])
    diffs = rng.normal(size=(4000, 3))
    keep = diffs @ truth + rng.logistic(size=4000) > 0  # pairs a noisy judge ordered this way
    diffs[~keep] *= -1
    w = fit_reranker.fit_pairwise(diffs, np.ones(len(diffs)), l2=1e-6, iterations=30)
    assert np.allclose(w / w[0], truth / truth[0], atol=0.1)


@pytest.mark.slow
def test_reranker_weights_are_what_a_refit_on_dev_gives(bench):
    fit_reranker, _ = bench
    result = fit_reranker.refit()
    assert result["pairs"] > 1000 and result["fitted"]["prior"] == 1.0
    off = {name: (result["fitted"][name], result["committed"][name]) for name, gap in result["difference"].items()
           if gap > fit_reranker.TOLERANCE + 1e-9}
    assert not off, f"re-fit vs committed WEIGHTS differ by more than {fit_reranker.TOLERANCE}: {off}"


@pytest.mark.slow
def test_dense_group_weights_are_the_dev_comparisons_choice(bench):
    _, fit_dense = bench
    from raglab.retrieval.dense import GROUP_WEIGHTS
    rows = fit_dense.compare()
    assert [r["weights"] for r in rows] == list(fit_dense.CANDIDATES)
    assert fit_dense.choose(rows)["weights"] == GROUP_WEIGHTS


def test_the_dev_ranking_scripts_read_a_probe_file_when_given_one():
    """`bench/diagnose_misses.py --goldens` reads the miss causes of questions written later."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        import fitting
    finally:
        sys.path.pop(0)
    docs = fitting.load_corpus(fitting.bundled_corpus_dir())
    probe = fitting.dev_questions(ROOT, docs, os.path.join(ROOT, "bench", "fresh_probe_trouble.jsonl"))
    ours = fitting.dev_questions(ROOT, docs)
    assert probe and all(q.id.startswith("p") and q.answerable for q in probe)
    assert ours and all(q.id.startswith("q") and q.split == "dev" for q in ours)
