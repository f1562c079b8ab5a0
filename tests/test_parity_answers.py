"""Parity of the answers: the browser and native Python return byte-identical top-5 chunks,
answers and citations for every golden question (and the stress questions) in every
configuration. Kept apart from tests/test_parity.py (the module files, the analyzer's tokens
and the encoder's bits) so that the two long halves run in two processes.
"""

import json

import pytest

from parity_support import CONFIGS, assert_same, browser_and_native, golden_and_stress, label, native
from raglab.corpus.chunking import CHUNKERS
from raglab.pipeline import Config
from raglab.retrieval.registry import RETRIEVERS

__all__ = ["native"]  # the fixture the tests below take


STRESS_PARTS = 4
GOLDEN_PARTS = 3


def served(cfg) -> bool:
    default = Config()
    return (cfg["chunker"], cfg["retriever"], cfg["expand"]) == (default.chunker, default.retriever, default.expand)


def parts(cfg) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (stress, golden) parts configuration `cfg` asks below."""
    i = CONFIGS.index(cfg)
    return (i % STRESS_PARTS, STRESS_PARTS), ((0, 1) if served(cfg) else (i % GOLDEN_PARTS, GOLDEN_PARTS))


def test_the_parts_asked_still_reach_every_retriever_and_chunker():
    every = set(golden_and_stress()[1])
    by = {}
    for cfg in CONFIGS:
        ids = set(golden_and_stress(*parts(cfg))[1])
        for key in (cfg["retriever"], cfg["chunker"]):
            by[key] = by.get(key, set()) | ids
    for key, ids in sorted(by.items()):
        assert every <= ids, f"{key} never asks {sorted(every - ids)[:3]}"
    stress = {q for q in every if q.startswith("stress-")}
    golden = len(every - stress)
    for c in CHUNKERS:
        for r in RETRIEVERS:
            pair = [cfg for cfg in CONFIGS if (cfg["chunker"], cfg["retriever"]) == (c, r)]
            asked = set().union(*(golden_and_stress(*parts(cfg))[1] for cfg in pair)) - stress if pair else set()
            assert not pair or 3 * len(asked) >= 2 * golden - 3, f"{c}+{r} asks {len(asked)} of {golden} golden questions"
    assert every - stress <= set(golden_and_stress(*parts(next(c for c in CONFIGS if served(c))))[1])


@pytest.mark.parametrize("cfg", CONFIGS, ids=label)
def test_top5_answers_and_citations_are_identical(app_page, native, cfg):
    texts, ids = golden_and_stress(*parts(cfg))
    native_text, browser_text = browser_and_native(app_page, "askMany", [texts, cfg],
                                                   lambda: native.ask_many(json.dumps(texts), json.dumps(cfg)))
    assert_same(native_text, browser_text, ids, label(cfg))
    # the fields the promise is about, checked explicitly as well as byte for byte
    for x, y in zip(json.loads(native_text), json.loads(browser_text)):
        if "error" in x:  # an empty stress question gets the same error object on both sides
            assert x == y
            continue
        assert [c["id"] for c in x["chunks"]] == [c["id"] for c in y["chunks"]]
        assert (x["answer"], x["citations"], x["abstained"]) == (y["answer"], y["citations"], y["abstained"])
