"""raglab: measure retrieval and extractive answers over a bilingual help centre.

The public API: load a corpus and a golden set, build a `Pipeline` from a `Config`,
`ask` it (an `AskResult`; `schema.ask_json` gives its JSON), or run the evaluation
grid (`evaluation.run`, rendered by `report.render`). Retrievers and chunkers are
chosen by name from the `RETRIEVERS` and `CHUNKERS` registries.

The modules the browser runs import only the standard library (a test checks it).
"""

from raglab.corpus.articles import load_corpus, parse_corpus
from raglab.corpus.chunking import CHUNKERS
from raglab.corpus.goldens import load_goldens, parse_goldens
from raglab.pipeline import AskResult, Config, Pipeline
from raglab.retrieval.ranking import Hit, Query
from raglab.retrieval.registry import RETRIEVERS, Retriever

__version__ = "0.1.0"

__all__ = [
    "AskResult", "CHUNKERS", "Config", "Hit", "Pipeline", "Query", "RETRIEVERS", "Retriever",
    "__version__", "load_corpus", "load_goldens", "parse_corpus", "parse_goldens",
]
