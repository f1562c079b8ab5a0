"""The golden set: questions with verbatim evidence quotes resolved to character spans.

Loading is all or nothing: any problem raises `GoldenError` naming the file, the
line, the question id and the field, and no partial set is ever returned. The
whole file is checked before that: the error's `problems` lists every line's
problem in file order (the message is the first one and says how many more), so
the CLI's `check` and the page's Your-own-data tab can list them all at once.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from raglab.corpus.articles import Document, bundled_corpus_dir, read_utf8
from raglab.corpus.quotes import QuoteFinder
from raglab.text.analyzer import normalize
from raglab.text.answertypes import TYPES, question_type
from raglab.text.limits import MAX_ID_CHARS, MAX_QUESTIONS_BYTES, check_question_length

KINDS = ("direct", "paraphrase", "multi", "crosslingual", "typo", "unanswerable")
LANGS = ("en", "bn")
SPLITS = ("dev", "test")


class GoldenError(ValueError):
    """A golden file that cannot be loaded; the message says where and what to fix.

    `problems` holds every problem found (one line each, in file order); the
    message is the first of them, plus how many more there are.
    """

    def __init__(self, message: str, problems: list[str] | None = None):
        self.problems = list(problems) if problems else [message]
        super().__init__(message)

    @classmethod
    def of(cls, problems: list[str]) -> "GoldenError":
        more = len(problems) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''} in this file; `raglab check` lists them all)"
        return cls(problems[0] + (suffix if more else ""), problems)


@dataclass(frozen=True)
class Evidence:
    doc: str
    quote: str
    start: int
    end: int
    fact: int | None = None  # 0-based; passages sharing a fact state the same thing in different articles


def fact_key(n: int, e: Evidence) -> int:
    """The fact the `n`-th passage of a question states: its `fact`, or its own place when it
    names none."""
    return n if e.fact is None else e.fact


@dataclass(frozen=True)
class Question:
    id: str
    lang: str
    kind: str
    split: str
    question: str
    answer: str | None
    evidence: tuple[Evidence, ...]
    answer_type: str | None = None  # optional label: what kind of value the question asks for (answertypes.TYPES)

    @property
    def answerable(self) -> bool:
        return bool(self.evidence)

    @property
    def n_facts(self) -> int:
        """Distinct facts the answer needs; each is found by covering any one of its passages."""
        return len({fact_key(i, e) for i, e in enumerate(self.evidence)})


def _field(row: dict, name: str, where: str, kinds: tuple = (str,)):
    if name not in row:
        raise GoldenError(f"{where}: missing field {name!r}")
    value = row[name]
    if not isinstance(value, kinds):
        raise GoldenError(f"{where}: field {name!r} must be {' or '.join(k.__name__ for k in kinds)}, got {type(value).__name__}")
    if isinstance(value, str):
        for ch in value:
            if "\ud800" <= ch <= "\udfff":  # valid JSON ("\ud83d"), but half a character: not text
                raise GoldenError(f"{where}: field {name!r} holds a lone surrogate (\\u{ord(ch):04x}); "
                                  "write the whole character or remove the escape")
    return value


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    """json object hook: a key given twice is an error (json.loads would keep the last silently)."""
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey(key)
        obj[key] = value
    return obj


def check_id(qid: str, where: str) -> None:
    """A question id is shown in text tables, CSV cells and error messages: it must be
    printable, short, and not start like a spreadsheet formula."""
    if not qid.strip():
        raise GoldenError(f"{where}: field 'id' is empty")
    if len(qid) > MAX_ID_CHARS:
        raise GoldenError(f"{where}: field 'id' is {len(qid):,} characters long; the limit is {MAX_ID_CHARS}")
    for ch in qid:
        if ch < " " or "\x7f" <= ch <= "\x9f" or ch in "\u2028\u2029":
            raise GoldenError(f"{where}: field 'id' holds a control character (U+{ord(ch):04X}); "
                              "use letters, digits and punctuation")
    if qid[0] in "=+-@":
        raise GoldenError(f"{where}: field 'id' starts with {qid[0]!r}, which a spreadsheet reads as a formula; "
                          "start it with a letter or digit")


def parse_question(row, docs: dict[str, Document], where: str,
                   finders: dict[str, QuoteFinder] | None = None) -> Question:
    """One golden row, checked; `finders` (one per article, shared across a file's rows)
    keeps quote lookups linear in the file instead of one scan of the article each."""
    if not isinstance(row, dict):
        raise GoldenError(f"{where}: each line must be a JSON object")
    qid = _field(row, "id", where)
    check_id(qid, where)
    where = f"{where}: question {qid}"
    lang = _field(row, "lang", where)
    kind = _field(row, "kind", where)
    split = _field(row, "split", where)
    for name, value, allowed in (("lang", lang, LANGS), ("kind", kind, KINDS), ("split", split, SPLITS)):
        if value not in allowed:
            raise GoldenError(f"{where}: field {name!r} is {value!r}; expected one of {', '.join(allowed)}")
    text = _field(row, "question", where)
    if not text.strip():
        raise GoldenError(f"{where}: field 'question' is empty")
    try:
        check_question_length(text)  # the same limit as `raglab ask`
    except ValueError as err:
        raise GoldenError(f"{where}: field 'question': {err}") from None
    ref = _field(row, "answer", where, (str, type(None)))
    atype = row.get("answer_type")
    if atype is not None and (not isinstance(atype, str) or atype not in TYPES):
        raise GoldenError(f"{where}: field 'answer_type' is {atype!r}; expected one of {', '.join(TYPES)} (or leave it out)")
    raw_evidence = _field(row, "evidence", where, (list,))
    evidence = []
    for j, ev in enumerate(raw_evidence):
        ewhere = f"{where}: evidence[{j}]"
        if not isinstance(ev, dict):
            raise GoldenError(f"{ewhere}: must be an object with 'doc' and 'quote'")
        doc_id = _field(ev, "doc", ewhere)
        quote = normalize(_field(ev, "quote", ewhere))
        doc = docs.get(doc_id)
        if doc is None:
            raise GoldenError(f"{ewhere}: field 'doc' names {doc_id!r}, which is not in the corpus")
        if not quote.strip():
            raise GoldenError(f"{ewhere}: field 'quote' is empty")
        finder = finders.setdefault(doc_id, QuoteFinder(doc.text)) if finders is not None else QuoteFinder(doc.text)
        count, start = finder.find(quote)
        if count != 1:
            problem = "does not occur" if count == 0 else f"occurs {count} times (overlaps count)"
            raise GoldenError(f"{ewhere}: field 'quote' {problem} in {doc_id}; copy a passage that occurs exactly once: {quote[:80]!r}")
        fact = ev.get("fact", j + 1)
        if not isinstance(fact, int) or isinstance(fact, bool) or fact < 1:
            raise GoldenError(f"{ewhere}: field 'fact' must be a whole number >= 1 (quotes sharing it are alternatives)")
        evidence.append(Evidence(doc_id, quote, start, start + len(quote), fact - 1))
    facts = sorted({e.fact for e in evidence if e.fact is not None})
    if facts != list(range(len(facts))):
        raise GoldenError(f"{where}: evidence 'fact' numbers must run 1..n without gaps, got {[f + 1 for f in facts]}")
    if kind == "unanswerable":
        if evidence or ref is not None:
            raise GoldenError(f"{where}: an unanswerable question has empty 'evidence' and 'answer' null")
    elif not evidence:
        raise GoldenError(f"{where}: field 'evidence' is empty; a {kind} question needs at least one evidence quote")
    elif ref is None:
        raise GoldenError(f"{where}: field 'answer' is null; a {kind} question needs a reference answer")
    return Question(qid, lang, kind, split, normalize(text), ref, tuple(evidence), atype)


def parse_goldens(text: str, docs: list[Document], source: str = "questions.jsonl") -> list[Question]:
    by_id = {d.id: d for d in docs}
    questions: list[Question] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    finders: dict[str, QuoteFinder] = {}
    text = text.removeprefix("\ufeff")  # a Windows editor's BOM is not part of line 1
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            q = _parse_line(line, by_id, f"{source}:{n}", finders)
            if q.id in seen:
                raise GoldenError(f"{source}:{n}: question {q.id}: duplicate id (first on line {seen[q.id]})")
        except GoldenError as err:
            problems.append(str(err))  # keep going: the whole file is checked, every problem listed
            continue
        seen[q.id] = n
        questions.append(q)
    if problems:
        raise GoldenError.of(problems)
    if not questions:
        raise GoldenError(f"{source}: no questions found; expected one JSON object per line")
    return questions


def _parse_line(line: str, by_id: dict[str, Document], where: str, finders: dict[str, QuoteFinder]) -> Question:
    try:
        row = json.loads(line, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as err:
        raise GoldenError(f"{where}: not valid JSON ({err.msg}: column {err.colno})") from None
    except RecursionError:
        raise GoldenError(f"{where}: not valid JSON (nested too deeply)") from None
    except _DuplicateKey as err:
        raise GoldenError(f"{where}: field {err.args[0]!r} appears twice in one object; keep one") from None
    return parse_question(row, by_id, where, finders)


def load_goldens(path: str, docs: list[Document]) -> list[Question]:
    text = read_utf8(path, GoldenError, "the golden file", MAX_QUESTIONS_BYTES, "split it into several golden files")
    return parse_goldens(text, docs, path)


def counts_table(questions: list[Question]) -> list[dict]:
    """Rows of lang x kind with dev, test and total counts, plus a total row."""
    rows = []
    for lang in LANGS:
        for kind in KINDS:
            sel = [q for q in questions if q.lang == lang and q.kind == kind]
            if sel:
                rows.append({"lang": lang, "kind": kind,
                             "dev": sum(1 for q in sel if q.split == "dev"),
                             "test": sum(1 for q in sel if q.split == "test"), "total": len(sel)})
    rows.append({"lang": "all", "kind": "all",
                 "dev": sum(1 for q in questions if q.split == "dev"),
                 "test": sum(1 for q in questions if q.split == "test"), "total": len(questions)})
    return rows


def bundled_goldens_path() -> str:
    """The golden set shipped next to the bundled corpus."""
    return os.path.join(os.path.dirname(bundled_corpus_dir()), "goldens", "questions.jsonl")


def answer_type_agreement(questions: list[Question]) -> list[dict]:
    """Per split and language, how often `answertypes.question_type` agrees with the labelled
    `answer_type` (questions without a label are left out)."""
    rows = []
    for split in SPLITS + ("all",):
        for lang in LANGS + ("all",):
            sel = [q for q in questions if q.answer_type is not None and split in (q.split, "all") and lang in (q.lang, "all")]
            if sel:
                agree = 0
                for q in sel:
                    agree += question_type(q.question) == q.answer_type
                rows.append({"split": split, "lang": lang, "labelled": len(sel), "agree": agree,
                             "accuracy": agree / len(sel)})
    return rows
