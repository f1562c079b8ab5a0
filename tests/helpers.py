"""Shared test data: the bundled corpus and golden set, loaded once per process."""

import functools
import importlib.util
import os
import sys

from raglab.corpus.articles import load_corpus
from raglab.corpus.goldens import load_goldens
from raglab.schema import ask_json
from raglab.text.analyzer import WHITESPACE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "corpus")
GOLDENS = os.path.join(ROOT, "goldens", "questions.jsonl")


def bench_script(name: str):
    """A script of bench/ loaded as a module (its own imports of bench/ modules resolve too)."""
    folder = os.path.join(ROOT, "bench")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@functools.lru_cache(maxsize=None)
def docs():
    return tuple(load_corpus(CORPUS))


def shown(pipe, question: str) -> tuple[bool, list[str], str]:
    """What a customer sees for `question`: whether it abstains, the bold short answers, the answer."""
    got = ask_json(pipe.ask(question))
    return got["abstained"], [s["text"] for s in got["short_answers"]], got["answer"] or ""


@functools.lru_cache(maxsize=None)
def external_docs(name: str):
    """The corpus of an external question set under goldens/external/."""
    return tuple(load_corpus(os.path.join(ROOT, "goldens", "external", name, "corpus")))


def heading_lines_only(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies on Markdown heading lines (first character not blank
    "#", the whole line judged) and blank ones only."""
    blank = "".join(sorted(WHITESPACE))
    pos = text.rfind("\n", 0, start) + 1
    while pos < end:
        nl = text.find("\n", pos)
        nl = len(text) if nl < 0 else nl
        if text[max(pos, start):min(nl, end)].strip(blank) and not text[pos:nl].lstrip(blank).startswith("#"):
            return False
        pos = nl + 1
    return True


@functools.lru_cache(maxsize=None)
def questions():
    return tuple(load_goldens(GOLDENS, list(docs())))


# Rendered Markdown (js/markdown.js) shows every character of the source except block
# markup; each shown piece is a <span class="src" data-start data-end> in code points.
MARKUP = frozenset("#|-:*+ \t\n")

RENDERED_JS = """(root) => {
  const spans = [...root.querySelectorAll('span.src')].map((s) => [Number(s.dataset.start), Number(s.dataset.end), s.textContent]);
  const marks = [...root.querySelectorAll('mark')].map((m) => {
    const span = m.closest('span.src');
    let offset = 0;
    for (const node of span.childNodes) {
      if (node === m || node.contains(m)) break;
      offset += Array.from(node.textContent).length;
    }
    const start = Number(span.dataset.start) + offset;
    return [start, start + Array.from(m.textContent).length, m.className, m.textContent];
  });
  return {spans, marks};
}"""


def rendered(page, selector: str) -> dict:
    """{spans: [[start, end, text]], marks: [[start, end, classes, text]]} of rendered Markdown."""
    return page.eval_on_selector(selector, RENDERED_JS)


def assert_renders(shown: dict, source: str) -> None:
    """Every shown piece is the source's text at its offsets, in order, and what is not
    shown is block markup only (heading hashes, list bullets, table pipes and rules)."""
    at = 0
    for start, end, text in shown["spans"]:
        assert start >= at, f"pieces out of order at {start}"
        assert text == source[start:end], f"piece at {start}-{end}: {text!r} != {source[start:end]!r}"
        hidden = source[at:start]
        assert set(hidden) <= MARKUP, f"hidden before {start}: {hidden!r}"
        at = end
    assert set(source[at:]) <= MARKUP, f"hidden at the end: {source[at:]!r}"


def shown_in(shown: dict, start: int, end: int) -> set[int]:
    """The shown code-point offsets within [start, end)."""
    out = set()
    for a, b, _ in shown["spans"]:
        out.update(range(max(a, start), min(b, end)))
    return out


def marked(shown: dict, cls: str) -> set[int]:
    """Offsets covered by marks of a class."""
    out = set()
    for a, b, classes, text in shown["marks"]:
        if cls in classes.split():
            out.update(range(a, b))
    return out
