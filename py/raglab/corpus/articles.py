"""Help-centre articles: Markdown files parsed into documents with sections and offsets.

I/O stays in `load_corpus`; `parse_article` and `parse_corpus` work on strings, so
the browser hands the raw files to the very same code.
"""

from __future__ import annotations

import bisect
import errno
import operator
import os
import re
import stat
from dataclasses import dataclass

from raglab.text.analyzer import normalize
from raglab.text.limits import MAX_ARTICLE_BYTES


class CorpusError(ValueError):
    """A corpus file that cannot be loaded; the message names the file (and line)."""


@dataclass(frozen=True)
class Section:
    heading: tuple[str, ...]  # title, then ## and ### headings
    start: int  # start of the heading line (or of the text after the title)
    end: int


@dataclass(frozen=True)
class Document:
    id: str
    lang: str
    title: str
    text: str  # normalised (NFC, LF, no BOM); every offset refers to it
    sections: tuple[Section, ...]

    def section_at(self, offset: int) -> Section:
        """The last section starting at or before `offset` (the first section before any).

        A bisect over the section starts (they are in order), so chunking an article of
        80,000 sections costs a log per chunk, not a scan.
        """
        i = bisect.bisect_right(self.sections, offset, key=operator.attrgetter("start")) - 1
        return self.sections[max(i, 0)]


_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


# The Bengali block (analyzer.in_bangla_block) and ASCII letters, counted over a whole text: one
# regular expression instead of a Python loop over every character (that loop was most of
# the time the page took to read the bundled articles).
_BANGLA_BLOCK_RUN = re.compile("[\u0980-\u09ff]+")
_ASCII_LETTER_RUN = re.compile("[A-Za-z]+")


def count_bangla(text: str) -> int:
    """How many characters of `text` are in the Bengali block (`analyzer.in_bangla_block`)."""
    return len("".join(_BANGLA_BLOCK_RUN.findall(text)))


def count_ascii_letters(text: str) -> int:
    """How many characters of `text` are ASCII letters (A-Z, a-z)."""
    return len("".join(_ASCII_LETTER_RUN.findall(text)))


def detect_lang(text: str) -> str:
    """"bn" when the text has more characters of the Bengali block than ASCII letters."""
    return "bn" if count_bangla(text) > count_ascii_letters(text) else "en"


def parse_article(doc_id: str, raw: str, source: str | None = None) -> Document:
    """Parse one article. `source` (a file name) is used in error messages."""
    where = source or doc_id
    if not doc_id or any(ch not in _ID_CHARS for ch in doc_id):
        raise CorpusError(f"{where}: article id {doc_id!r} may use only ASCII letters, digits, '-', '_' and '.'")
    text = normalize(raw)
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise CorpusError(f"{where}: the file is empty; an article starts with a '# Title' line")
    if not lines[first].startswith("# ") or not lines[first][2:].strip():
        raise CorpusError(f"{where}:{first + 1}: an article must start with a '# Title' line, found {lines[first][:60]!r}")
    title = lines[first][2:].strip()
    path = [title]
    sections: list[Section] = []
    offset = 0
    current_start = 0
    current_path: tuple[str, ...] = (title,)
    for i, line in enumerate(lines):
        if i > first and (line.startswith("## ") or line.startswith("### ")):
            level = 2 if line.startswith("## ") else 3
            sections.append(Section(current_path, current_start, offset))
            path = path[:1] if level == 2 else path[:2]
            if level == 3 and len(path) < 2:
                path.append("")
            path.append(line[level + 1:].strip())
            current_start = offset
            current_path = tuple(path)
        offset += len(line) + 1
    sections.append(Section(current_path, current_start, len(text)))
    return Document(doc_id, detect_lang(text), title, text, tuple(s for s in sections if s.end > s.start or len(sections) == 1))


def parse_corpus(files: dict[str, str]) -> list[Document]:
    """Documents from {file name: text}, sorted by id; ids come from the file stems."""
    docs = {}
    for name in sorted(files):
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        if not is_article_name(base):
            continue
        doc_id = base[:-3]
        if doc_id in docs:
            raise CorpusError(f"{name}: a second article with id {doc_id!r}; article ids (file names) must be unique")
        docs[doc_id] = parse_article(doc_id, files[name], name)
    if not docs:
        raise CorpusError("no articles found: a corpus is a folder of '<id>.md' Markdown files")
    return [docs[k] for k in sorted(docs)]


def check_regular(path: str, error: type[Exception], what: str, limit: int, split: str) -> os.stat_result:
    """`path`'s stat, if it is a regular file of at most `limit` bytes: a device
    (`/dev/zero`), a FIFO or a huge file is refused before anything is opened, with the
    limit named and `split` (what to do instead)."""
    try:
        info = os.stat(path)  # before open(): opening a FIFO would wait for a writer
    except OSError as err:
        link = "a link to a missing file; " if os.path.islink(path) and err.errno == errno.ENOENT else ""
        raise error(f"{path}: cannot read {what} ({link}{err.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode) else \
            "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "not a regular file"
        raise error(f"{path}: cannot read {what} ({kind}); give a regular file")
    if info.st_size > limit:
        raise error(f"{path}: {what} is {info.st_size:,} bytes; the limit is {limit:,} ({limit // 1_000_000} MB): {split}")
    return info


def read_bytes(path: str, error: type[Exception], what: str, limit: int, split: str) -> bytes:
    """A file's bytes, read only if `check_regular` accepts it; `error` names the file when
    it cannot be read."""
    info = check_regular(path, error, what, limit, split)
    try:
        with open(path, "rb") as fh:
            # read(n) sets aside n bytes first: ask for the size stat() gave, then for
            # whatever the file grew by since (up to the limit)
            data = fh.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += fh.read(limit + 1 - len(data))
    except OSError as err:
        raise error(f"{path}: cannot read {what} ({err.strerror})") from None
    if len(data) > limit:
        raise error(f"{path}: {what} is over {limit:,} bytes ({limit // 1_000_000} MB): {split}")
    return data


def read_utf8(path: str, error: type[Exception] = CorpusError, what: str = "the article",
              limit: int = MAX_ARTICLE_BYTES, split: str = "split it into several articles") -> str:
    """A file's text, read by `read_bytes`; a bad byte is named by its line."""
    data = read_bytes(path, error, what, limit, split)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise error(f"{path}:{line}: not valid UTF-8 (byte {err.start}); save the file as UTF-8") from None


def is_article_name(name: str) -> bool:
    """`x.md`, in any letter case (`x.MD` is Markdown too)."""
    return name[-3:].lower() == ".md"


def list_corpus_folder(directory: str) -> tuple[list[str], list[str]]:
    """(article file names, what was skipped and why) in a corpus folder, both sorted.

    An entry named like an article must be a readable regular file (a dangling or
    looping link, a FIFO or a device fails the load when it is read); anything else is
    skipped and said so, never dropped without a word.
    """
    if not os.path.isdir(directory):
        raise CorpusError(f"{directory}: no such corpus folder; pass --corpus DIR with a folder of .md articles")
    names, skipped = [], []
    for name in sorted(os.listdir(directory)):
        if not is_article_name(name):
            skipped.append(f"{name} (not a .md file)")
        elif os.path.isdir(os.path.join(directory, name)):  # a folder called "drafts.md" is no article
            skipped.append(f"{name} (a folder)")
        else:
            names.append(name)
    return names, skipped


def read_corpus_files(directory: str) -> dict[str, str]:
    """{file name: text} of the `.md` files in a folder: what `parse_corpus` (and the browser) takes."""
    names, _ = list_corpus_folder(directory)
    return {n: read_utf8(os.path.join(directory, n)) for n in names}


def load_corpus(directory: str) -> list[Document]:
    return parse_corpus(read_corpus_files(directory))


def bundled_corpus_dir() -> str:
    """The repository's corpus/ folder (available when raglab runs from a checkout)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "corpus"))
