"""What every command's parser reads from its arguments, kept light: `raglab --help` and a
command's argument errors import only this (what a command reads with them: `inputs`)."""

from __future__ import annotations

import argparse


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


def add_corpus_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corpus", metavar="DIR", default=None,
                   help="folder of <id>.md articles (default: the bundled Shapla Pay help centre)")


def add_output_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--output", metavar="FILE",
                   help="write to FILE instead of stdout, all at once: on an error or Ctrl-C FILE is left as it was")


def check_paths(args) -> None:
    """An empty or blank path is a mistake (an unset variable), not "the default"."""
    for name in ("corpus", "goldens", "questions", "output", "bench", "trec", "out", "source"):
        value = getattr(args, name, None)
        if value is not None and not value.strip():
            default = {"corpus": "; leave it out for the bundled help centre",
                       "goldens": "; leave it out for the bundled golden set"}.get(name, "")
            flag = name.upper() if name == "source" else f"--{name}"
            raise UsageError(f"{flag} is empty; give a path{default}")
