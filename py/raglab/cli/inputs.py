"""What a command reads with its arguments once it runs: the corpus and the configuration
(and the options that take the library's names and defaults)."""

from __future__ import annotations

import argparse
import os
import sys

from raglab.cli.arguments import UsageError
from raglab.corpus.articles import bundled_corpus_dir, list_corpus_folder, load_corpus
from raglab.corpus.chunking import CHUNKERS
from raglab.encoder.native import ROOT
from raglab.pipeline import Config
from raglab.retrieval.prebuilt import install_cached
from raglab.retrieval.registry import RETRIEVERS


def add_config_args(p: argparse.ArgumentParser) -> None:
    d = Config()
    p.add_argument("--chunker", default=d.chunker, help=f"one of {', '.join(CHUNKERS)} (default {d.chunker})")
    p.add_argument("--retriever", default=d.retriever, help=f"one of {', '.join(RETRIEVERS)} (default {d.retriever})")
    p.add_argument("-k", type=int, default=d.k, help=f"chunks handed to the answerer (default {d.k})")
    p.add_argument("--expand", action=argparse.BooleanOptionalAction, default=d.expand,
                   help=f"expand the query with the bilingual synonym table (default {'on' if d.expand else 'off'})")
    p.add_argument("--threshold", type=float, default=d.threshold,
                   help=f"abstain below this confidence, a probability in [0, 1] (default {d.threshold})")


ANALYSIS_CACHE = os.path.join(ROOT, ".cache", "analysis")


def corpus_docs(args):
    directory = args.corpus or bundled_corpus_dir()
    if args.corpus is None and not os.path.isdir(directory):
        raise UsageError("the bundled corpus is not available here; pass --corpus DIR")
    _, skipped = list_corpus_folder(directory)
    if skipped:  # said once, on stderr: a file left out changes every answer
        shown = ", ".join(skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5 else "")
        what = "1 entry that is not an article" if len(skipped) == 1 else f"{len(skipped)} entries that are not articles"
        print(f"raglab {args.command}: note: {directory}: skipped {what}: {shown}", file=sys.stderr)
    if getattr(args, "ticker", None):  # compare's report_from_args is called without one
        args.ticker.step(f"reading the articles in {directory}")
    docs = load_corpus(directory)
    if args.corpus is None:  # the bundled corpus's analysis is kept between runs (prebuilt.install_cached)
        chunker = getattr(args, "chunker", None)
        if isinstance(chunker, list):  # compare's: its first chunker gets the BM25 parts
            chunker = chunker[0] if chunker else None
        install_cached(docs, chunker if chunker in CHUNKERS else Config().chunker, ANALYSIS_CACHE)
    return docs


def config_from(args) -> Config:
    return Config(chunker=args.chunker, retriever=args.retriever, k=args.k,
                  expand=args.expand, threshold=args.threshold).check()
