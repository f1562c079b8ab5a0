"""The documentation works: every command shown in README.md and docs/*.md runs, every
relative link resolves, and the README stays one screen's worth of reading.

Conventions for the Markdown files (docs/layout.md repeats them for writers):

- A fenced block tagged ``sh`` holds commands, one per line; blank lines and lines starting
  with ``#`` are skipped (a trailing ``# comment`` goes to the shell, which ignores it).
- A fenced block tagged ``console`` holds commands on lines starting with ``$ ``; the lines
  after one, up to the next ``$ `` line, are its exact standard output, where a line ``...``
  stands for any number of lines (none included). Standard error is not compared.
- Every other fenced block must carry a tag saying what it holds (``text``, ``json``, ...):
  an untagged block fails, so no command can hide in one.
- ``<!-- not run here: REASON -->`` on the line before a fence marks a block whose commands
  cannot run inside this test (they take minutes, serve until Ctrl-C, or need a download).
  They are still checked without running: ``raglab`` arguments are parsed by raglab's own
  parser, ``python3 build.py`` arguments by build.py's, and every ``--option`` given to a
  script (or to ``dask scheduler`` / ``dask worker``) must appear in its ``--help``. Any
  other program is an error, so a marked command cannot rot unnoticed either.

Commands run with bash from a scratch directory that holds copies of corpus/, goldens/, docs/
and tests/data/ and links to .venv/ and bench/, with .venv/bin first on PATH: one page's
blocks run in order in one directory (a page may import a set in one block and check it in
the next), and the repository's own files are never written. Each must exit with status 0.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest

from helpers import ROOT

PAGES = ["README.md"] + sorted(os.path.join("docs", n) for n in os.listdir(os.path.join(ROOT, "docs"))
                               if n.endswith(".md"))
README_MAX_LINES = 250
NOT_RUN = re.compile(r"<!--\s*not run here:\s*(.+?)\s*-->")
FENCE = re.compile(r"^(`{3,})(.*)$")
COMMAND_TAGS = ("sh", "console")
COPIED = ("corpus", "goldens", "docs", os.path.join("tests", "data"))
LINKED = (".venv", "bench")
TIMEOUT = 120  # seconds for one command; together they take well under a minute on a quiet machine
VENV_BIN = os.path.dirname(sys.executable)


@dataclass
class Block:
    page: str
    line: int  # 1-based line of the opening fence
    tag: str
    body: list[str]
    not_run: str | None  # the reason, when marked


@dataclass
class Command:
    page: str
    line: int
    text: str
    output: list[str] | None  # expected stdout lines (console blocks), else None
    not_run: str | None


def read(page: str) -> str:
    with open(os.path.join(ROOT, page), encoding="utf-8") as fh:
        return fh.read()


def blocks(page: str) -> list[Block]:
    out, lines, i = [], read(page).split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, tag, start = m.group(1), m.group(2).strip(), i
        marker = NOT_RUN.search(lines[i - 1]) if i > 0 else None
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith(fence):
            body.append(lines[i])
            i += 1
        assert i < len(lines), f"{page}:{start + 1}: a code block is never closed"
        out.append(Block(page, start + 1, tag, body, marker.group(1) if marker else None))
        i += 1
    return out


def commands(page: str) -> list[Command]:
    out = []
    for b in blocks(page):
        assert b.tag, (f"{page}:{b.line}: a code block without a tag; tag commands `sh` or `console`, "
                       "anything else with what it holds (`text`, `json`, ...)")
        if b.tag == "sh":
            out += [Command(page, b.line + 1 + n, line.strip(), None, b.not_run)
                    for n, line in enumerate(b.body) if line.strip() and not line.lstrip().startswith("#")]
        elif b.tag == "console":
            assert b.body and b.body[0].startswith("$ "), f"{page}:{b.line}: a console block starts with a `$ ` command"
            for n, line in enumerate(b.body):
                if line.startswith("$ "):
                    out.append(Command(page, b.line + 1 + n, line[2:].strip(), [], b.not_run))
                else:
                    out[-1].output.append(line)
        else:
            assert b.not_run is None, f"{page}:{b.line}: only `sh` and `console` blocks hold commands to mark"
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Lines equal after trailing spaces, where an expected `...` line stands for any lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0].rstrip() == actual[0].rstrip() and matches(expected[1:], actual[1:])


def all_commands() -> list[Command]:
    return [c for page in PAGES for c in commands(page)]


def test_every_page_follows_the_conventions_and_shows_commands():
    found = all_commands()
    assert any(c.not_run is None for c in found) and any(c.not_run for c in found)
    readme = [c.text.split()[:2] for c in commands("README.md")]
    assert ["python3", "build.py"] in readme and ["raglab", "ask"] in readme


# --- running the commands ---------------------------------------------------------------------


def scratch(tmp_path) -> str:
    for name in COPIED:
        shutil.copytree(os.path.join(ROOT, name), os.path.join(tmp_path, name))
    for name in LINKED:
        os.symlink(os.path.join(ROOT, name), os.path.join(tmp_path, name))
    return str(tmp_path)


# Pages whose commands take many seconds (whole comparisons, an own-data evaluation, a local
# cluster): the full suite runs them, the quick tier does not.
SLOW_PAGES = {"README.md", os.path.join("docs", "cli.md"), os.path.join("docs", "served-default.md"),
              os.path.join("docs", "own-data.md"), os.path.join("docs", "cluster.md")}


@pytest.mark.parametrize("page", [pytest.param(p, marks=pytest.mark.slow) if p in SLOW_PAGES else p for p in PAGES])
def test_the_commands_shown_run(page, tmp_path):
    where = scratch(tmp_path)
    env = dict(os.environ, PATH=os.path.join(ROOT, ".venv", "bin") + os.pathsep + VENV_BIN + os.pathsep
               + os.environ.get("PATH", ""), PYTHONIOENCODING="utf-8")
    for c in commands(page):
        if c.not_run:
            continue
        done = subprocess.run(["bash", "-c", c.text], cwd=where, env=env, capture_output=True, text=True,
                              encoding="utf-8", timeout=TIMEOUT)
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
        assert done.returncode == 0, (f"{c.page}:{c.line}: `{c.text}` exited with status {done.returncode}:\n{tail}\n"
                                      "fix the command or the code; if it cannot run here, mark its block "
                                      "<!-- not run here: REASON -->")
        if c.output is not None:
            actual = done.stdout.rstrip("\n").split("\n")
            assert matches(c.output, actual), (f"{c.page}:{c.line}: `{c.text}` printed something else; "
                                               "update the shown output:\n" + "\n".join(actual[:40]))


# --- checking the commands that are not run ---------------------------------------------------


def load_build():
    spec = importlib.util.spec_from_file_location("raglab_build_for_docs", os.path.join(ROOT, "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def simple_commands(text: str) -> list[list[str]]:
    """The argv of each command in a shell line: split at && ; | and cut at a redirection."""
    out, current = [], []
    for w in shlex.split(text, comments=True) + ["&&"]:
        if w in ("&&", ";", "|", "||"):
            if current:
                out.append(current)
            current = []
        else:
            current.append(w)
    return [argv[:next((i for i, w in enumerate(argv) if w.startswith((">", "<", "2>"))), len(argv))] for argv in out]


def parse_quietly(parse, argv: list[str]) -> str | None:
    """None when `parse(argv)` accepts the arguments, else what the parser said."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            parse(argv)
    except SystemExit as stop:
        if stop.code not in (0, None):
            return err.getvalue().strip().splitlines()[-1] if err.getvalue().strip() else f"exit {stop.code}"
    return None


@functools.lru_cache(maxsize=None)
def help_of(program: str, arg: str) -> subprocess.CompletedProcess:
    """`program arg --help`, run once however many documented commands use it."""
    return subprocess.run([program, arg, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)


def check_statically(argv: list[str], build) -> str | None:
    from raglab.cli.main import build_parser

    program = argv[0]
    if program == "raglab":
        return parse_quietly(build_parser().parse_args, argv[1:])
    if os.path.basename(program) in ("python", "python3") and argv[1:2] == ["build.py"]:
        return parse_quietly(build.parse_args, argv[2:])
    if os.path.basename(program) in ("python", "python3") and len(argv) > 1 and argv[1].endswith(".py"):
        script = os.path.join(ROOT, argv[1])
        if not os.path.exists(script):
            return f"{argv[1]} does not exist"
        done = help_of(sys.executable, script)
        if done.returncode != 0:
            return f"{argv[1]} --help failed: {done.stderr.strip().splitlines()[-1:]}"
        unknown = [w.split("=")[0] for w in argv[2:] if w.startswith("--") and w.split("=")[0] not in done.stdout]
        return f"{argv[1]} has no option {', '.join(unknown)}" if unknown else None
    if os.path.basename(program) == "dask" and argv[1:2] in (["scheduler"], ["worker"]):
        # Dask's own commands (docs/cluster.md): the subcommand's options, as its --help lists them
        done = help_of(os.path.join(VENV_BIN, "dask"), argv[1])
        unknown = [w.split("=")[0] for w in argv[2:] if w.startswith("--") and not re.search(
            rf"(?<![\w-]){re.escape(w.split('=')[0])}(?![\w-])", done.stdout)]
        return (f"dask {argv[1]} --help failed" if done.returncode != 0 else
                f"dask {argv[1]} has no option {', '.join(unknown)}" if unknown else None)
    return (f"`{program}` is not a command this test knows how to check; show raglab, python3 build.py, "
            "dask scheduler|worker or a project script")


@pytest.mark.slow  # a --help of every project script the pages name, each a fresh Python: the full suite's
def test_the_commands_not_run_here_still_parse():
    build = load_build()
    problems = []
    for c in all_commands():
        if not c.not_run:
            continue
        for argv in simple_commands(c.text):
            problem = check_statically(argv, build)
            if problem:
                problems.append(f"{c.page}:{c.line}: `{c.text}`: {problem}")
    assert not problems, "documented commands that would fail:\n" + "\n".join(problems)


def test_the_static_check_catches_a_broken_command():
    build = load_build()
    assert check_statically(["raglab", "ask", "--no-such-flag", "q"], build)
    assert check_statically(["raglab", "compare", "--split", "train"], build)
    assert check_statically(["python3", "build.py", "tset"], build)
    assert check_statically(["python3", "build.py", "serve", "--prot", "0"], build)
    assert check_statically([".venv/bin/python", "bench/bounds.py", "--no-such-option"], build)
    assert check_statically(["curl", "https://example.org"], build)
    assert check_statically(["dask", "worker", "tcp://10.0.0.5:8786", "--nworker", "4"], build)
    assert check_statically(["dask", "worker", "tcp://10.0.0.5:8786", "--nworkers", "4"], build) is None
    assert check_statically(["raglab", "compare", "--split", "dev", "--expand", "both"], build) is None
    assert check_statically(["python3", "build.py", "test", "-x", "--durations=30"], build) is None


def test_console_output_matching():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and matches(["a", "..."], ["a"])
    assert matches(["...", "c", "..."], ["a", "b", "c", "d"])
    assert not matches(["a", "d"], ["a", "b", "d"]) and not matches(["a", "...", "e"], ["a", "b", "d"])
    assert simple_commands("python3 build.py build && .venv/bin/python x.py --y 1 > out.txt  # note") == [
        ["python3", "build.py", "build"], [".venv/bin/python", "x.py", "--y", "1"]]


# --- links --------------------------------------------------------------------------------------

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced blocks."""
    out, fence = [], None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
        elif fence is not None and line.startswith(fence):
            fence = None
        elif fence is None:
            out.append(line)
    return out


def prose(text: str) -> str:
    """The text outside fenced blocks and inline code spans (links there are not links)."""
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", "\n".join(prose_lines(text)), flags=re.S)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading anchors on its text
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(path: str) -> set[str]:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    seen: dict[str, int] = {}
    out = set()
    for line in prose_lines(text):
        m = HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(page: str) -> list[str]:
    return [m.group(1) for m in LINK.finditer(prose(read(page)))]


@pytest.mark.parametrize("page", PAGES)
def test_every_relative_link_resolves(page):
    problems = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(ROOT, os.path.dirname(page), path)) if path else os.path.join(ROOT, page)
        if not full.startswith(ROOT + os.sep) or not os.path.exists(full):
            problems.append(f"{target}: no such file")
        elif anchor and (not full.endswith(".md") or anchor not in anchors(full)):
            problems.append(f"{target}: no heading with the anchor #{anchor} in {os.path.relpath(full, ROOT)}")
    assert not problems, f"{page}: broken links:\n" + "\n".join(problems)


def test_anchors_follow_github():
    assert slug("Against the baseline (recursive+bm25)") == "against-the-baseline-recursivebm25"
    assert slug("Is the golden set big enough?") == "is-the-golden-set-big-enough"
    assert slug("The `bm25` retriever") == "the-bm25-retriever"


# --- the README ---------------------------------------------------------------------------------


def test_the_readme_is_short_and_links_every_docs_page():
    text = read("README.md")
    assert len(text.split("\n")) - 1 <= README_MAX_LINES, f"README.md is over {README_MAX_LINES} lines; move detail to docs/"
    linked = {os.path.normpath(t.partition("#")[0]) for t in links("README.md")}
    pages = {p for p in PAGES if p != "README.md"}
    assert not pages - linked, f"README.md does not link {sorted(pages - linked)}"
    assert os.path.exists(os.path.join(ROOT, "docs", "page.png")) and "](docs/page.png)" in text
    assert os.path.getsize(os.path.join(ROOT, "docs", "page.png")) < 250_000, "docs/page.png should stay small"
