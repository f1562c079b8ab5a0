"""What the parity tests share (tests/test_parity.py: answers; tests/test_parity_engine.py: the
encoder's bits and the evaluation's arithmetic): calls into the page, the first difference
between two JSON results, and the questions both sides are asked."""

import json

import pytest

from conftest import _load_build_module
from helpers import docs, questions
from raglab.corpus.chunking import CHUNKERS
from raglab.retrieval.registry import ENCODER_RETRIEVERS, RETRIEVERS
from stress_questions import stress_questions

# The page ships the chunk vectors of every chunker: these load with the model, the rest
# (EVALUATION) when an evaluation or a configuration over them first needs them.
_BUILD = _load_build_module()
WITH_MODEL = _BUILD.BROWSER_VECTOR_CHUNKERS
EVALUATION = _BUILD.EVALUATION_VECTOR_CHUNKERS
SHIPPED = WITH_MODEL + EVALUATION
CONFIGS = [{"chunker": c, "retriever": r, "k": 5, "expand": e}
           for c in CHUNKERS for r in RETRIEVERS for e in (False, True)
           if r not in ENCODER_RETRIEVERS or c in SHIPPED]
LEXICAL = [r for r in RETRIEVERS if r not in ENCODER_RETRIEVERS]


# Raw scores (a diagnostic beside the byte-identical answers, which cover every configuration
# above): each retriever once, the chunkers taken in turn so each is seen.
def _chunkers_for(retriever: str) -> list[str]:
    return [c for c in CHUNKERS if retriever not in ENCODER_RETRIEVERS or c in SHIPPED]


RAW_SCORE_CONFIGS = [{"chunker": _chunkers_for(r)[i % len(_chunkers_for(r))], "retriever": r, "k": 5, "expand": False}
                     for i, r in enumerate(RETRIEVERS)]
SEMANTIC_READY_MS = 120_000


def label(cfg):
    return f"{cfg['chunker']}+{cfg['retriever']}" + ("+expand" if cfg["expand"] else "")


@pytest.fixture(scope="module")
def native(native_web):
    """The facade natively, loaded with the same raw files the page loads."""
    return native_web


def browser_call(page, op, *args):
    return page.evaluate("([op, args]) => window.raglab.raw(op, ...args)", [op, list(args)])


def first_difference(a, b, path=""):
    """The path and values of the first difference between two JSON values."""
    if type(a) is not type(b):
        return path, a, b
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key, "<missing>"), b.get(key, "<missing>")
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path}.length", len(a), len(b)
        return None
    return None if a == b else (path, a, b)


def assert_same(native_text, browser_text, ids, what):
    if native_text == browser_text:
        return
    nat, brw = json.loads(native_text), json.loads(browser_text)
    for i, (x, y) in enumerate(zip(nat, brw)):
        diff = first_difference(x, y)
        if diff or json.dumps(x, ensure_ascii=False, sort_keys=True) != json.dumps(y, ensure_ascii=False, sort_keys=True):
            path, a, b = diff or ("(serialisation)", x, y)
            pytest.fail(f"{what}: question {ids[i]}: first difference at {path.lstrip('.')}: "
                        f"native {a!r} vs browser {b!r}", pytrace=False)
    pytest.fail(f"{what}: {len(nat)} native results vs {len(brw)} browser results", pytrace=False)


def golden_and_stress(share: tuple[int, int] = (0, 1), golden: tuple[int, int] = (0, 1)):
    """The golden questions and the stress questions; `share` (i, n) keeps the i-th of n
    interleaved parts of the stress set and `golden` the i-th of n parts of the golden set, so
    that many configurations together still see them all."""
    golden_part, golden_parts = golden
    gold = [q for i, q in enumerate(questions()) if i % golden_parts == golden_part]
    part, parts = share
    stress = [(i, t) for i, t in enumerate(stress_questions(list(docs()))) if i % parts == part]
    texts = [q.question for q in gold] + [t for _, t in stress]
    ids = [q.id for q in gold] + [f"stress-{i}" for i, _ in stress]
    return texts, ids


@pytest.fixture(scope="module")
def semantic_page(app_page):
    """The app with its semantic model loaded (it loads after the page is ready)."""
    try:
        app_page.evaluate("() => window.raglab.semanticReady()")
    except Exception as err:  # noqa: BLE001 - report what the page said
        pytest.fail(f"the semantic model did not load in the page: {str(err).splitlines()[0]}", pytrace=False)
    return app_page


def browser_and_native(page, op, args, native_fn):
    """Start op in the browser, compute the native side meanwhile (two cores), then collect both."""
    page.evaluate("([op, args]) => { window.__pending = window.raglab.raw(op, ...args); }", [op, args])
    native_text = native_fn()
    return native_text, page.evaluate("() => window.__pending")
