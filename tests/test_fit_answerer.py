"""The answerer's sentence model is what its committed fitting script gives on the dev split."""

import importlib.util
import json
import os

from raglab.sentences import CONFIDENCE_FEATURES, FEATURES, model

from helpers import ROOT


def load_script():
    spec = importlib.util.spec_from_file_location("fit_answerer", os.path.join(ROOT, "bench", "fit_answerer.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_refit_on_dev_reproduces_the_committed_weights():
    fit = load_script()
    refit = fit.dumps(fit.fit(ROOT))
    with open(fit.MODEL, encoding="utf-8") as f:
        assert f.read() == refit, "re-fit with: .venv/bin/python bench/fit_answerer.py --write"
    data = json.loads(refit)
    assert data["features"] == list(FEATURES) and data["confidence_features"] == list(CONFIDENCE_FEATURES)
    assert list(model().weights) == data["weights"]
    # The fit is on dev only: the candidates come from the dev questions.
    assert data["fit"]["questions"] == 104


def test_logistic_fit_recovers_a_known_separator():
    fit = load_script()
    rows = [[1.0, x / 10] for x in range(-20, 21)]
    labels = [1 if r[1] > 0.05 else 0 for r in rows]
    w = fit.fit_logistic(rows, labels, l2=0.01)
    assert w[1] > 5 and abs(w[0] / w[1]) < 0.2  # the boundary sits near 0
