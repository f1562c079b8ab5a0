"""Work the page does while it waits for a question: the served default's answerer reads its
chunks ahead (`Pipeline.read_ahead`), in slices of a few milliseconds, so that a question
that arrives meanwhile waits for one slice at most. The worker calls it (through
`web.api.read_ahead`) once the served default's index is built, whenever no request is running.
"""

from __future__ import annotations

import time
from typing import Iterator

from raglab.pipeline import Pipeline
from raglab.schema import dumps
from raglab.web.state import BUNDLED, parse_config, pipeline

# corpus -> (the served default's pipeline, its read_ahead where it stopped)
_STEPS: dict[str, tuple[Pipeline, Iterator[int]]] = {}


def read_ahead(budget_ms: float = 4.0, corpus: str = BUNDLED) -> str:
    """Go on with the served default's `read_ahead` for about `budget_ms`; {"done": whether
    nothing is left}. A corpus loaded again is read again."""
    pipe = pipeline(parse_config(None), corpus)
    # `pipeline` gives a fresh `with_config` copy on every call when the index was first built
    # for another k, threshold or expansion; the copies share the chunks, so the chunks (not the
    # copy) say whether this is the reading already under way. Keyed on the copy, every slice
    # would start again at the first chunk and never be done.
    if corpus not in _STEPS or _STEPS[corpus][0].chunks is not pipe.chunks:
        _STEPS[corpus] = (pipe, pipe.read_ahead())
    steps = _STEPS[corpus][1]
    end = time.perf_counter() + budget_ms / 1000.0
    for _ in steps:
        if time.perf_counter() >= end:
            return dumps({"done": False})
    return dumps({"done": True})
