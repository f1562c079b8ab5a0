"""What the command line does around a command (never used in the browser).

- `Ticker`: progress on stderr for slow steps. A step that ends within a few seconds
  prints nothing; one that runs longer is named, with its elapsed time, every few
  seconds until it ends, from a background thread (an index build reports nothing
  itself, so the thread is what shows it is still alive).
- `output_to`: `--output FILE`, written whole or not at all.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
import time


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

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        with self.lock:
            self._done()
            self.text = ""

    def __enter__(self) -> "Ticker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@contextlib.contextmanager
def output_to(path: str | None):
    """stdout into `path`, atomically: a temporary file beside it, renamed over it only
    when the command succeeds (an interrupted `> FILE` leaves an empty or half file)."""
    if path is None:
        yield
        return
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise ValueError(f"{path}: cannot write --output here ({err.strerror})") from None
    done = False
    try:
        with open(fd, "w", encoding="utf-8") as fh:
            saved, sys.stdout = sys.stdout, fh
            try:
                yield
            finally:
                sys.stdout = saved
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # what a shell redirect would create, not mkstemp's 0600
        try:
            os.replace(tmp, path)
        except OSError as err:
            raise ValueError(f"{path}: cannot write --output ({err.strerror})") from None
        done = True
    finally:
        if not done:
            os.unlink(tmp)
