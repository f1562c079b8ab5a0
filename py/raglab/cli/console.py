"""What the command line does around a command (never used in the browser).

- `Ticker`: progress on stderr for slow steps. A step that ends within a few seconds
  prints nothing; one that runs longer is named, with its elapsed time, every few
  seconds until it ends, from a background thread (an index build reports nothing
  itself, so the thread is what shows it is still alive).
- `Progress`: `compare`'s progress, by configuration and within one.
- `output_to`: `--output FILE`, written whole or not at all.
- `read_questions`: the lines of `ask --questions FILE`.
- `terminal_safe`: text from a corpus or a question, safe to print on a terminal.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import tempfile
import threading
import time

from raglab.corpus.articles import read_bytes
from raglab.text.limits import MAX_QUESTIONS_BYTES, check_question_length


class Ticker:
    """`step(text)` starts a named step (`step("")`: none); `close()` (or leaving the
    `with`) ends the last.

    >>> with Ticker("ask", first=60) as t:
    ...     t.step("indexing 3 chunks")
    """

    def __init__(self, command: str, stream=None, first: float = 3.0, every: float = 5.0):
        self.prefix = f"raglab {command}: "
        self.stream = stream or sys.stderr
        self.first, self.every = first, every
        self.lock = threading.Lock()
        self.text = ""
        self.since = self.last = 0.0
        self.current = False  # the current step has been shown
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def step(self, text: str) -> None:
        with self.lock:
            self._done()
            self.text, self.since, self.last, self.current = text, time.monotonic(), 0.0, False

    def _done(self) -> None:
        if self.current and self.text:
            self._write(f"{self.text}: done in {time.monotonic() - self.since:.0f} s")
        self.current = False

    def _run(self) -> None:
        while not self.stop.wait(0.25):
            with self.lock:
                now = time.monotonic()
                if self.text and now - self.since >= self.first and now - self.last >= self.every:
                    self.last, self.current = now, True
                    self._write(f"{self.text}… {now - self.since:.0f} s")

    def _write(self, msg: str) -> None:
        try:
            self.stream.write(self.prefix + msg + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed or gone: progress is optional
            pass

    def close(self, finished: bool = True) -> None:
        """End the last step; `finished=False` (an error or Ctrl-C) says nothing of it, since
        "done in 5 s" just before "interrupted" would claim a step ended that did not."""
        self.stop.set()
        self.thread.join()
        with self.lock:
            if finished:
                self._done()
            self.text = ""

    def __enter__(self) -> "Ticker":
        return self

    def __exit__(self, kind, *exc) -> None:
        self.close(finished=kind is None)


@contextlib.contextmanager
def _stdout_into(fh):
    saved, sys.stdout = sys.stdout, fh
    try:
        yield
    finally:
        sys.stdout = saved


@contextlib.contextmanager
def output_to(path: str | None):
    """stdout into `path` as a shell redirect would, but whole or not at all.

    A regular file (or what a symbolic link names) gets a temporary file beside it,
    renamed over it only when the command succeeds (an interrupted `> FILE` leaves an
    empty or half file), with the mode the file had; a file with other hard links is
    rewritten in place at the end instead, so the links keep sharing it. Anything else
    (`/dev/null`, `/dev/stdout`, a FIFO, a terminal) is written through, never replaced
    by a plain file."""
    if path is None:
        yield
        return
    try:
        info: os.stat_result | None = os.stat(path)  # through links: what the name writes to
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise ValueError(f"{path}: cannot write --output here ({err.strerror})") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{path}: a folder; give a file name for --output")
    if info is not None and not stat.S_ISREG(info.st_mode):
        try:
            fh = open(path, "w", encoding="utf-8")
        except OSError as err:
            raise ValueError(f"{path}: cannot write --output ({err.strerror})") from None
        with fh, _stdout_into(fh):
            yield
        return
    target = os.path.realpath(path) if os.path.islink(path) else path  # the link stays a link
    folder = os.path.dirname(os.path.abspath(target))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise ValueError(f"{path}: cannot write --output here ({err.strerror})") from None
    try:
        with open(fd, "w", encoding="utf-8") as fh, _stdout_into(fh):
            yield
        try:
            if info is not None and info.st_nlink > 1:
                with open(tmp, "rb") as src, open(target, "r+b") as dst:
                    dst.truncate(0)
                    for block in iter(lambda: src.read(1 << 20), b""):
                        dst.write(block)
            else:
                if info is None:
                    mask = os.umask(0)
                    os.umask(mask)
                    mode = 0o666 & ~mask  # what a shell redirect would create, not mkstemp's 0600
                else:
                    mode = stat.S_IMODE(info.st_mode)
                os.chmod(tmp, mode)
                os.replace(tmp, target)
        except OSError as err:
            raise ValueError(f"{path}: cannot write --output ({err.strerror})") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


class Progress:
    """Progress on stderr once a comparison has run for more than a second: on a terminal
    one line kept up to date, elsewhere a line per configuration and at most one every
    `every` seconds within one."""

    def __init__(self, stream=None, delay: float = 1.0, every: float = 5.0):
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.delay, self.every = delay, every
        self.last: tuple[int, float] = (-1, 0.0)  # (configuration, time) of the last line

    def __call__(self, done: int, total: int, label: str) -> None:
        now = time.monotonic()
        if now - self.start < self.delay:
            return
        msg = f"compare: {done}/{total} configurations ({label}), {now - self.start:.0f} s"
        if self.stream.isatty():
            self.stream.write("\r" + msg.ljust(100)[:100])
            if done == total:
                self.stream.write("\n")
        elif done != self.last[0] or now - self.last[1] >= self.every:
            self.stream.write(msg + "\n")
        else:
            return
        self.last = (done, now)
        self.stream.flush()


def read_questions(path: str) -> list[str]:
    """One question per line of the file, blank lines included (as ""), so output line n
    answers input line n; the newline that ends the file starts no line."""
    data = read_bytes(path, ValueError, "the questions file", MAX_QUESTIONS_BYTES, "split it into several files")
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff")
    out = []
    # split("\n"), not splitlines(): a pasted U+2028 or \x0c inside a question must not
    # turn one question into two (and shift every line number after it).
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        line = line.removesuffix("\r")
        if not line.strip():
            out.append("")
            continue
        if line.lstrip().startswith("{"):
            try:
                row = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}:{n}: not valid JSON ({err.msg}); use one question per line or JSON Lines") from None
            except RecursionError:
                raise ValueError(f"{path}:{n}: not valid JSON (nested too deeply); use one question per line or JSON Lines") from None
            if not isinstance(row, dict) or not isinstance(row.get("question"), str):
                raise ValueError(f"{path}:{n}: a JSON line needs a string field 'question'")
            out.append(printable(row["question"]))
        else:
            out.append(line)
        try:  # every line is checked before any is answered: no half-printed batch
            check_question_length(out[-1])
        except ValueError as err:
            raise ValueError(f"{path}:{n}: {err}") from None
    return out


def printable(text: str) -> str:
    """`text` with lone surrogates (a JSON "\\ud800", a broken byte in argv) as U+FFFD.

    They are not characters, the analyzer ignores them anyway, and UTF-8 output cannot
    hold them; like an undecodable byte in a questions file, they become U+FFFD.
    """
    if not any("\ud800" <= ch <= "\udfff" for ch in text):
        return text
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)


def terminal_safe(text: str, keep: str = "") -> str:
    """`text` for a terminal: control characters (C0, DEL, C1) other than those in `keep`
    shown as \\xNN, so that text from a --corpus folder or a question cannot move the
    cursor, retitle the window or hide a line. Only plain output needs it: --json
    prints the exact text (JSON escapes controls itself)."""
    if not any(ch < "\x20" or "\x7f" <= ch <= "\x9f" for ch in text):
        return text
    return "".join(f"\\x{ord(ch):02x}" if (ch < "\x20" or "\x7f" <= ch <= "\x9f") and ch not in keep else ch
                   for ch in text)
