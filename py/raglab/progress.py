"""Progress on stderr for the command line's slow steps (never used in the browser).

A step that ends within a few seconds prints nothing. One that runs longer is named,
with its elapsed time, every few seconds until it ends, from a background thread: an
index build reports nothing itself, so the thread is what shows it is still alive.
"""

from __future__ import annotations

import sys
import threading
import time


class Ticker:
    """`step(text)` starts a named step; `close()` (or leaving the `with`) ends the last.

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
