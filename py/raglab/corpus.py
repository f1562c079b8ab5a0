"""Help-centre articles: Markdown files parsed into documents with sections and offsets.

I/O stays in `load_corpus`; `parse_article` and `parse_corpus` work on strings, so
the browser hands the raw files to the very same code.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .analyzer import in_bangla_block, normalize


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
        found = self.sections[0]
        for section in self.sections:
            if section.start <= offset:
                found = section
        return found


_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


def detect_lang(text: str) -> str:
    bangla = latin = 0
    for ch in text:
        if in_bangla_block(ch):
            bangla += 1
        elif "a" <= ch <= "z" or "A" <= ch <= "Z":
            latin += 1
    return "bn" if bangla > latin else "en"


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
        if not base.endswith(".md"):
            continue
        doc_id = base[:-3]
        if doc_id in docs:
            raise CorpusError(f"{name}: a second article with id {doc_id!r}; article ids (file names) must be unique")
        docs[doc_id] = parse_article(doc_id, files[name], name)
    if not docs:
        raise CorpusError("no articles found: a corpus is a folder of '<id>.md' Markdown files")
    return [docs[k] for k in sorted(docs)]


def read_utf8(path: str, error: type[ValueError] = CorpusError, what: str = "the article") -> str:
    """A file's text; `error` names the file (and the line of a bad byte) when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as err:
        raise error(f"{path}: cannot read {what} ({err.strerror})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise error(f"{path}:{line}: not valid UTF-8 (byte {err.start}); save the file as UTF-8") from None


def read_corpus_files(directory: str) -> dict[str, str]:
    """{file name: text} of the `.md` files in a folder: what `parse_corpus` (and the browser) takes."""
    if not os.path.isdir(directory):
        raise CorpusError(f"{directory}: no such corpus folder; pass --corpus DIR with a folder of .md articles")
    # Files only: a folder called "drafts.md" is not an article.
    names = sorted(n for n in os.listdir(directory) if n.endswith(".md") and os.path.isfile(os.path.join(directory, n)))
    return {n: read_utf8(os.path.join(directory, n)) for n in names}


def load_corpus(directory: str) -> list[Document]:
    return parse_corpus(read_corpus_files(directory))


def bundled_corpus_dir() -> str:
    """The repository's corpus/ folder (available when raglab runs from a checkout)."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "corpus"))
