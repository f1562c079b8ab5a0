"""raglab: measure retrieval and extractive answers over a bilingual help centre.

The public API: load a corpus and a golden set, build a `Pipeline` from a `Config`,
`ask` it (an `AskResult`; `schema.ask_json` gives its JSON), or run the evaluation
grid (`evaluation.run`, rendered by `report.render`). Retrievers and chunkers are
chosen by name from the `RETRIEVERS` and `CHUNKERS` registries.

The modules the browser runs import only the standard library (a test checks it).
The names below are loaded on first use (PEP 562), not with the package: every
`import raglab.<module>` runs this file first, and the page's start-up should import only
what it needs to show its controls, not the whole pipeline.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS = {
    "AskResult": "raglab.pipeline", "Config": "raglab.pipeline", "Pipeline": "raglab.pipeline",
    "CHUNKERS": "raglab.corpus.chunking",
    "Hit": "raglab.retrieval.ranking", "Query": "raglab.retrieval.ranking",
    "RETRIEVERS": "raglab.retrieval.registry", "Retriever": "raglab.retrieval.registry",
    "load_corpus": "raglab.corpus.articles", "parse_corpus": "raglab.corpus.articles",
    "load_goldens": "raglab.corpus.goldens", "parse_goldens": "raglab.corpus.goldens",
}

__all__ = sorted([*_EXPORTS, "__version__"])


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'raglab' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
