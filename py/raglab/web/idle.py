"""Work the page does while it waits for a question: the served default's answerer reads its
chunks ahead (`Pipeline.read_ahead`), in slices of a few milliseconds, so that a question
that arrives meanwhile waits for one slice at most. Imported by the worker once the served
default's index is built.
"""

from __future__ import annotations

import time
from typing import Iterator

from raglab.schema import dumps
from raglab.web.state import BUNDLED, parse_config, pipeline

_STEPS: dict[str, Iterator[int]] = {}  # corpus -> the served default's read_ahead, where it stopped


def read_ahead(budget_ms: float = 8.0, corpus: str = BUNDLED) -> str:
    """Go on with the served default's `read_ahead` for about `budget_ms`; {"done": whether
    nothing is left}."""
    steps = _STEPS.get(corpus)
    if steps is None:
        steps = _STEPS[corpus] = pipeline(parse_config(None), corpus).read_ahead()
    end = time.perf_counter() + budget_ms / 1000.0
    for _ in steps:
        if time.perf_counter() >= end:
            return dumps({"done": False})
    return dumps({"done": True})
