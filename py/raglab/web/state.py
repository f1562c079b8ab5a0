"""What the web facade keeps between calls: the loaded corpora with their built pipelines,
and the checked decoding of the JSON arguments JavaScript sends. `web` and `webcompare`
share it; it imports neither."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields

from raglab.corpus.articles import Document
from raglab.corpus.goldens import Question
from raglab.pipeline import Config, Pipeline

BUNDLED = "bundled"


@dataclass
class LoadedCorpus:
    """One corpus as the page sees it: documents, its golden questions, built pipelines."""

    docs: list[Document]
    questions: list[Question] = field(default_factory=list)
    goldens_error: str | None = None
    goldens_problems: list[str] = field(default_factory=list)
    pipelines: dict[tuple[str, str], Pipeline] = field(default_factory=dict)  # by (chunker, retriever)
    # The abstention threshold the last evaluation of this corpus tuned on its dev questions
    # for the served configuration; `ask` uses it when the config names none.
    tuned: dict | None = None
    encoded: set = field(default_factory=set)  # chunkers whose chunk vectors are all cached
    pending: dict = field(default_factory=dict)  # chunker -> (texts still to encode, all texts)


_CORPORA: dict[str, LoadedCorpus] = {}


def _corpus(name: str) -> LoadedCorpus:
    try:
        return _CORPORA[name]
    except KeyError:
        loaded = ", ".join(sorted(_CORPORA)) or "none"
        raise ValueError(f"no corpus named {name!r} is loaded (loaded: {loaded}); call load() first") from None


def _json_arg(value, what: str, kind: type, default):
    """Decode an argument that arrives as JSON text from JavaScript (or as the object itself)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as err:
            raise ValueError(f"{what} is not valid JSON ({err.msg} at column {err.colno})") from None
    if not isinstance(value, kind):
        raise ValueError(f"{what} must be a JSON {'object' if kind is dict else 'array'}, got {type(value).__name__}")
    return value


def parse_config(value=None) -> Config:
    """A checked Config from a JSON object; missing fields take the served defaults."""
    raw = _json_arg(value, "config", dict, {})
    names = [f.name for f in fields(Config)]
    unknown = sorted(k for k in raw if k not in names)
    if unknown:
        raise ValueError(f"unknown config field {', '.join(map(repr, unknown))}; the fields are {', '.join(names)}")
    return Config(**raw).check()


def pipeline(config: Config, corpus: str = BUNDLED) -> Pipeline:
    """The pipeline for a corpus and configuration. The index depends only on the corpus,
    the chunker and the retriever, so it is built once per such triple and shared, through
    `Pipeline.with_config`, by every k, threshold and expansion setting."""
    built = indexed(config, corpus)
    return built if built.config == config else built.with_config(config)


def indexed(config: Config, corpus: str = BUNDLED) -> Pipeline:
    """The pipeline built for `config`'s chunker and retriever on a corpus, which `pipeline`
    copies for another k, threshold or expansion (built now if it was not): what is built lazily
    on it (the Banglish reader, the loanwords) every later copy has, and what is built on a copy
    is lost with it."""
    loaded = _corpus(corpus)
    key = (config.chunker, config.retriever)
    if key not in loaded.pipelines:
        loaded.pipelines[key] = Pipeline(loaded.docs, config)
    return loaded.pipelines[key]


def vector_digest(vector) -> str:
    """The sha256 of a vector's components as float.hex: what the parity tests compare across
    runtimes, for a vector encoded now or one kept from a question's readings."""
    from hashlib import sha256  # here, not at the top: the page's start-up does not need it

    return sha256(",".join(float(x).hex() for x in vector).encode()).hexdigest()
