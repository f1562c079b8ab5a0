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
from raglab.web.state import BUNDLED, indexed, parse_config

# corpus -> (the served default's pipeline, its read_ahead where it stopped)
_STEPS: dict[str, tuple[Pipeline, Iterator[int]]] = {}


def read_ahead(budget_ms: float = 4.0, corpus: str = BUNDLED) -> str:
    """Go on with the served default's `read_ahead` for about `budget_ms`; {"done": whether
    nothing is left}. A corpus loaded again is read again."""
    # The pipeline the served default's are copied from (`state.indexed`): when its index was
    # first built for another k, threshold or expansion, `pipeline` gives a fresh `with_config`
    # copy on every call. Read ahead on a copy, the Banglish reader and the loanwords it builds
    # last were lost with it, and keyed on the copy every slice started again at the first chunk.
    pipe = indexed(parse_config(None), corpus)
    if corpus not in _STEPS or _STEPS[corpus][0] is not pipe:
        _STEPS[corpus] = (pipe, pipe.read_ahead())
    steps = _STEPS[corpus][1]
    end = time.perf_counter() + budget_ms / 1000.0
    for _ in steps:
        if time.perf_counter() >= end:
            return dumps({"done": False})
    return dumps({"done": True})
