"""Read one array of a large top-level JSON object element by element.

SQuAD-style files are one object, `{"version": ..., "data": [article, article, ...]}`, and
the training sets run to tens of megabytes. `iter_array` decodes the articles of `data` one
at a time from a text stream with `json.JSONDecoder.raw_decode`, so memory holds one article
plus a read buffer, and every element comes with the line it starts on (for error messages).

A syntax error names the file and line; nothing is yielded past it, and the caller (the
importer) writes nothing unless the whole file was read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

READ_SIZE = 1 << 20
_SPACE = " \t\r\n"


class JSONStreamError(ValueError):
    """A file that is not the JSON we expect; the message names the file and line."""


class _Reader:
    def __init__(self, stream, source: str):
        self.stream = stream
        self.source = source
        self.buf = ""
        self.pos = 0
        self.line = 1  # line of buf[0]
        self.eof = False
        self.chars_read = 0
        self.decoder = json.JSONDecoder()

    def _more(self) -> bool:
        if self.eof:
            return False
        chunk = self.stream.read(READ_SIZE)
        if not chunk:
            self.eof = True
            return False
        if not self.chars_read:
            chunk = chunk.lstrip("\ufeff")  # a Windows editor's BOM is not JSON
        self.chars_read += len(chunk)
        # Drop what has been consumed so the buffer holds one element at a time.
        self.line += self.buf.count("\n", 0, self.pos)
        self.buf = self.buf[self.pos:] + chunk
        self.pos = 0
        return True

    def line_at(self, pos: int | None = None) -> int:
        return self.line + self.buf.count("\n", 0, self.pos if pos is None else pos)

    def where(self, pos: int | None = None) -> str:
        return f"{self.source}:{self.line_at(pos)}"

    def skip_space(self) -> str:
        """The next non-space character (not consumed), or '' at the end of the file."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _SPACE:
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self._more():
                return ""

    def expect(self, chars: str, what: str) -> str:
        ch = self.skip_space()
        if not ch or ch not in chars:
            found = repr(ch) if ch else "the end of the file"
            raise JSONStreamError(f"{self.where()}: not valid JSON: expected {what}, found {found}")
        self.pos += 1
        return ch

    def value(self):
        """Decode one JSON value at the current position, reading more until it is complete."""
        self.skip_space()
        while True:
            # Keep some look-ahead so a number cut by the buffer end is never taken as whole.
            if not self.eof and len(self.buf) - self.pos < READ_SIZE:
                self._more()
                continue
            try:
                value, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as err:
                if self._more():
                    continue
                raise JSONStreamError(f"{self.where(err.pos)}: not valid JSON ({err.msg})") from None
            except RecursionError:
                raise JSONStreamError(f"{self.where()}: not valid JSON (nested too deeply)") from None
            self.pos = end
            return value


def iter_array(stream, key: str, source: str, progress=None) -> Iterator[tuple[int, int, object]]:
    """Yield (index, line, element) for each element of the top-level object's `key` array.

    Other top-level members are decoded and ignored. `progress(chars_read)` is called
    after each element. Raises JSONStreamError for bad syntax, a top level that is not an
    object, or a missing or non-array `key`.
    """
    r = _Reader(stream, source)
    if r.skip_space() != "{":
        found = repr(r.buf[r.pos]) if r.pos < len(r.buf) else "an empty file"
        raise JSONStreamError(f"{r.where()}: expected a JSON object with a {key!r} list, found {found}")
    r.pos += 1
    seen = False
    if r.skip_space() == "}":
        r.pos += 1
    else:
        while True:
            name_line = r.where()
            name = r.value()
            if not isinstance(name, str):
                raise JSONStreamError(f"{name_line}: not valid JSON: object keys are strings")
            r.expect(":", "':'")
            if name == key:
                if seen:
                    raise JSONStreamError(f"{name_line}: field {key!r} appears twice; keep one")
                seen = True
                if r.skip_space() != "[":
                    raise JSONStreamError(f"{r.where()}: field {key!r} must be a list")
                r.pos += 1
                index = 0
                if r.skip_space() == "]":
                    r.pos += 1
                else:
                    while True:
                        r.skip_space()
                        line = r.line_at()
                        element = r.value()
                        yield index, line, element
                        index += 1
                        if progress:
                            progress(r.chars_read)
                        if r.expect(",]", "',' or ']' after an element") == "]":
                            break
            else:
                r.value()
            if r.expect(",}", "',' or '}'") == "}":
                break
    if r.skip_space():
        raise JSONStreamError(f"{r.where()}: not valid JSON: extra data after the top-level object")
    if not seen:
        raise JSONStreamError(f"{source}: missing field {key!r} (a list) in the top-level object")
