"""The command line's cluster options: `raglab encode`, and --scheduler / --workers for
`encode`, `compare` and `ask --questions` (the work itself is in raglab.cluster)."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time

from raglab.cli.arguments import add_corpus_arg, add_output_arg
from raglab.cli.inputs import corpus_docs
from raglab.corpus.chunking import CHUNKERS, chunk_corpus, index_text
from raglab.encoder.native import PASSAGE
from raglab.schema import dumps

CLUSTER_HELP = ("Dask (pip install 'raglab[cluster]'): every worker needs this raglab version and its model file; "
                "see docs/cluster.md")


def worker_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a number of worker processes >= 1, not {text!r}")
    return n


def add_cluster_args(p: argparse.ArgumentParser, what: str) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help=f"{what} on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://10.0.0.5:8786)")
    g.add_argument("--workers", type=worker_count, metavar="N",
                   help=f"{what} on a cluster of N worker processes started on this machine for the command")


def wanted(args) -> bool:
    return getattr(args, "scheduler", None) is not None or getattr(args, "workers", None) is not None


@contextlib.contextmanager
def client_for(args):
    """The Dask client the options ask for (None without them)."""
    if not wanted(args):
        yield None
        return
    from raglab.cluster.connect import session

    ticker = getattr(args, "ticker", None)
    if ticker:  # a scheduler answers within seconds or is an error; starting workers takes a while
        ticker.step("" if args.workers is None else f"starting {args.workers} worker processes")
    with session(scheduler=args.scheduler, workers=args.workers) as client:
        if ticker:
            ticker.step("")
        yield client


@contextlib.contextmanager
def compare_evaluator(args):
    """`evaluation.engine.run`'s evaluator for `raglab compare` (None: in this process)."""
    with client_for(args) as client:
        if client is None:
            yield None
        else:
            from raglab.cluster.tasks import evaluator

            yield evaluator(client)


def ask_questions(args, docs, config, questions: list[str]) -> int:
    """`raglab ask --questions FILE --scheduler|--workers`: JSON Lines in the file's order."""
    from raglab.cluster.tasks import ask_lines

    with client_for(args) as client:
        ask_lines(client, docs, config, questions, print)
    return 0


def cmd_encode(args) -> int:
    from raglab.encoder.vectors import cache_path, native_cache, text_key

    chunkers = args.chunker or list(CHUNKERS)
    for name in chunkers:
        if name not in CHUNKERS:
            raise ValueError(f"unknown chunker {name!r}; choose one of: {', '.join(CHUNKERS)}")
    docs = corpus_docs(args)
    counts, texts = {}, {}
    for name in dict.fromkeys(chunkers):
        args.ticker.step(f"chunking ({name})")
        chunks = chunk_corpus(docs, name)
        counts[name] = len(chunks)
        texts.update(dict.fromkeys(PASSAGE + index_text(c) for c in chunks))
    args.ticker.step("loading the model")
    cache = native_cache()
    everything = list(texts)
    missing = len([t for t in everything if text_key(t) not in cache.known])
    args.ticker.step("")
    started, workers = time.monotonic(), 0
    if missing and wanted(args):
        from raglab.cluster.connect import threads
        from raglab.cluster.encode import fill

        with client_for(args) as client:
            workers = len(client.nthreads())
            print(f"raglab encode: {missing:,} texts to encode on {workers} workers "
                  f"({threads(client)} threads)", file=sys.stderr, flush=True)
            fill(client, cache, everything)
    elif missing:
        cache.get(everything, progress=True)
    seconds = time.monotonic() - started
    path = cache_path(cache.encoder.digest)
    if args.json:
        print(dumps({"chunks": counts, "texts": len(everything), "cached": len(everything) - missing,
                     "encoded": missing, "workers": workers, "seconds": round(seconds, 1), "cache": path,
                     "model": cache.encoder.digest}))
        return 0
    where = f" on {workers} {'worker' if workers == 1 else 'workers'}" if workers else " in this process"
    print(f"{len(everything):,} texts ({', '.join(f'{n:,} {c} chunks' for c, n in counts.items())}): "
          f"{len(everything) - missing:,} already had vectors, {missing:,} encoded{where if missing else ''}"
          + (f" in {seconds:.0f} s" if missing else ""))
    print(f"cache: {os.path.relpath(path) if not os.path.isabs(path) else path}")
    return 0


def add_encode_parser(sub, help: str) -> None:
    p = sub.add_parser(
        "encode", help=help,
        description="Encode every chunk of a corpus with the semantic model and keep the vectors in the cache,\n"
                    "so that `ask` and `compare` with a semantic retriever find them. Without --scheduler or\n"
                    "--workers it encodes in this process (a process pool); with them, batches of texts go to\n"
                    "Dask workers, the vectors come back here, and only this process writes the cache.\n"
                    "An interrupted run keeps every finished batch: run it again to resume.",
        epilog="Examples:\n"
               "  raglab encode --chunker fixed\n"
               "  raglab encode --corpus my-centre/ --workers 2\n"
               "  raglab encode --corpus my-centre/ --scheduler tcp://10.0.0.5:8786 --json\n\n" + CLUSTER_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_corpus_arg(p)
    p.add_argument("--chunker", action="append", metavar="NAME",
                   help=f"a chunker whose chunks to encode, repeatable (default all: {', '.join(CHUNKERS)})")
    add_cluster_args(p, "encode")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_output_arg(p)
    p.set_defaults(func=cmd_encode)
