"""The `raglab` command line: analyze, chunks, ask, check, compare, import, encode.

It only parses arguments, calls the library and prints; library errors (CorpusError,
GoldenError, EvaluationError and other ValueErrors) become one line on stderr,
`raglab COMMAND: error: ...`, with exit status 2. Every command has --help.
Nothing in the package imports this module except `__main__`.

Start-up is paid on every command (and the tests start the command some hundreds of
times), so this module imports no more than argument parsing needs: a command's module
(its options, and what it runs) is imported only when that command is asked for;
`raglab --help` lists the commands from `COMMANDS` alone.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from raglab.cli.arguments import UsageError, check_paths

# command -> (its module, its line in `raglab --help`); the module's add_<command>_parser(sub, help)
# adds its options and what it runs.
COMMANDS = {
    "analyze": ("raglab.cli.asking", "print the analyzer's terms for TEXT"),
    "chunks": ("raglab.cli.asking", "print the chunks of the corpus"),
    "ask": ("raglab.cli.asking", "answer a question from the help centre"),
    "check": ("raglab.cli.compare", "validate the corpus and golden set"),
    "import": ("raglab.cli.importing", "import a public QA set (SQuAD JSON, BEIR) as a corpus folder and golden set"),
    "compare": ("raglab.cli.compare", "score every chunker x retriever on the golden set"),
    "encode": ("raglab.cli.cluster", "fill the vector cache for a corpus (here, or on a Dask cluster)"),
}


def build_parser(commands=None) -> argparse.ArgumentParser:
    """The parser of every command, or of `commands` only (the others are listed, with no options)."""
    parser = argparse.ArgumentParser(
        prog="raglab",
        description="Measure retrieval and extractive answers over a bilingual (Bangla + English) help centre.",
        epilog="Examples:\n  raglab ask \"What is the cash out fee?\"\n  raglab ask --json \"ক্যাশ আউটের খরচ কত?\"\n"
               "  raglab analyze \"২৫,০০০ টাকা\"\n  raglab check\n  raglab compare --split test\n"
               "  raglab import squad FILE.json --out DIR\n  raglab encode --corpus DIR --workers 2",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help) in COMMANDS.items():
        if commands is None or name in commands:
            getattr(importlib.import_module(module), f"add_{name}_parser")(sub, help)
        else:
            sub.add_parser(name, help=help)
    return parser


def asked_command(argv: list[str]) -> str | None:
    """The command `argv` names: its first word (`raglab` itself has no option but --help)."""
    return next((a for a in argv if not a.startswith("-")), None)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser([asked_command(argv)])
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    # Here, not at the top: --help and a parser error have exited above, and need none of it
    # (the console's imports are two thirds of what `raglab --help` would import).
    from raglab.cli.console import Ticker, output_to, terminal_safe

    try:
        check_paths(args)
        with output_to(getattr(args, "output", None)), Ticker(args.command) as args.ticker:
            return args.func(args)
    except (UsageError, ValueError) as err:  # CorpusError and GoldenError are ValueErrors
        print(f"raglab {args.command}: error: {terminal_safe(str(err))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        # One line and the shell's status for Ctrl-C; --output files are written whole or not at all.
        print(f"raglab {args.command}: interrupted", file=sys.stderr)
        return 130

