"""Shared test data: the bundled corpus and golden set, loaded once per process."""

import functools
import os

from raglab.corpus import load_corpus
from raglab.goldens import load_goldens

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "corpus")
GOLDENS = os.path.join(ROOT, "goldens", "questions.jsonl")


@functools.lru_cache(maxsize=None)
def docs():
    return tuple(load_corpus(CORPUS))


@functools.lru_cache(maxsize=None)
def questions():
    return tuple(load_goldens(GOLDENS, list(docs())))
