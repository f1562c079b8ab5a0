"""Importers: public question-answering sets as a raglab corpus folder and golden set.

`raglab import squad FILE --out DIR` reads SQuAD 1.1 / 2.0 JSON (the format of SQuAD,
TyDi QA GoldP, squad_bn and BanglaRQA):

- one article per title (`DIR/corpus/<id>.md`); every distinct paragraph of that title
  becomes a `##` section, written verbatim, so the annotated spans survive;
- evidence = the sentence(s) holding the first annotated answer span, widened one sentence
  at a time (the next, then the previous) until the quote occurs exactly once in its
  article; an answer that crosses a sentence boundary takes both sentences;
- reference answer = the first annotated answer; the other distinct annotated answers are
  kept as `alternatives` for short-answer scoring;
- `is_impossible: true` (SQuAD 2.0) becomes an unanswerable question (answer null, no evidence).

`raglab import beir DIR --out DIR2` reads the BEIR layout (`corpus.jsonl`, `queries.jsonl`,
`qrels/{dev,test}.tsv`): one article per passage; evidence = each relevant passage, whole.

Both return an `Imported` value (files, golden rows, drops by reason); `write_import` is the
only writer. A malformed file raises `ImportFormatError` (file, line, JSON path, field) before
anything is written, and the result is loaded with raglab's own loaders before it is returned.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from raglab.corpus.articles import check_regular, detect_lang, parse_corpus
from raglab.corpus.goldens import GoldenError, check_id, parse_question
from raglab.corpus.importwrite import ImportWriteError, write_files
from raglab.corpus.jsonstream import JSONStreamError, iter_array
from raglab.corpus.quotes import QuoteFinder, occurrences
from raglab.text.analyzer import normalize
from raglab.text.limits import MAX_ARTICLE_BYTES, MAX_ID_CHARS, MAX_QUESTION_CHARS, MAX_QUESTIONS_BYTES
from raglab.text.splitter import sentences

SPLIT_CHOICES = ("alternate", "dev", "test")
LANG_CHOICES = ("auto", "en", "bn")
_BANGLA_DIGITS = "০১২৩৪৫৬৭৮৯"
_SURROGATE = re.compile("[\ud800-\udfff]")


class ImportFormatError(ValueError):
    """An input file that is not in the expected format; the message says where and what."""


__all__ = ["ImportFormatError", "ImportWriteError", "Imported", "import_beir", "import_squad", "summary", "write_import"]


@dataclass
class Imported:
    files: dict[str, str]  # corpus file name -> Markdown
    questions: list[dict]  # golden rows, in input order
    dropped: dict[str, list[str]] = field(default_factory=dict)  # reason -> question ids
    notes: list[str] = field(default_factory=list)

    def drop(self, reason: str, qid: str) -> None:
        self.dropped.setdefault(reason, []).append(qid)


# --- shared helpers ----------------------------------------------------------------


def slug(text: str, fallback: str) -> str:
    """An article id from a title: ASCII letters and digits, '-' between runs, at most 60."""
    out: list[str] = []
    dash = False
    for ch in text.lower():
        if "a" <= ch <= "z" or "0" <= ch <= "9":
            if dash and out:
                out.append("-")
            out.append(ch)
            dash = False
        else:
            dash = True
    return "".join(out)[:60].rstrip("-") or fallback


def _unique_id(base: str, taken: set[str]) -> str:
    doc_id = base
    while doc_id in taken:
        doc_id = f"{base}-{int(doc_id[len(base) + 1:] or 1) + 1}"
    taken.add(doc_id)
    return doc_id


def escape_headings(text: str) -> str:
    """Body text with every line that starts with '#' indented by one space, so that it stays
    text, not a section heading; the same on a whole paragraph or a prefix (offsets map)."""
    lines = text.split("\n")
    return "\n".join(" " + line if line.startswith("#") else line for line in lines)


def _clean(text: str) -> str:
    return escape_headings(normalize(_whole(text)))


def _one_line(text: str) -> str:
    return " ".join(normalize(_whole(text)).split())


def _section_heading(n: int, lang: str) -> str:
    if lang == "bn":
        return "অনুচ্ছেদ " + "".join(_BANGLA_DIGITS[int(d)] for d in str(n))
    return f"Paragraph {n}"


def _alternate(rows: list[dict], split: str) -> None:
    for i, row in enumerate(rows):
        row["split"] = ("dev", "test")[i % 2] if split == "alternate" else split


def _check_options(lang: str, split: str) -> None:
    if lang not in LANG_CHOICES:
        raise ValueError(f"--lang is {lang!r}; choose one of {', '.join(LANG_CHOICES)}")
    if split not in SPLIT_CHOICES:
        raise ValueError(f"--split is {split!r}; choose one of {', '.join(SPLIT_CHOICES)}")


def _field(obj, name: str, kinds, where: str, path: str, required: bool = True):
    if not isinstance(obj, dict):
        raise ImportFormatError(f"{where}: {path}: expected a JSON object")
    if name not in obj:
        if not required:
            return None
        raise ImportFormatError(f"{where}: {path}: missing field {name!r}")
    value = obj[name]
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        names = " or ".join("a list" if k is list else "a whole number" if k is int else
                            "true/false" if k is bool else "a string" for k in kinds)
        raise ImportFormatError(f"{where}: {path}.{name}: must be {names}, got {type(value).__name__}")
    return value


def _verify(imp: Imported, what: str, progress=None) -> Imported:
    """Load the result with raglab's own loaders, question by question: what `import` writes,
    `check` accepts. A question the golden loader refuses is dropped with the loader's reason
    (numbers left out, so like problems count together) instead of failing the rest."""
    if not imp.questions:
        raise ImportFormatError(f"{what}: no question could be imported "
                                f"({', '.join(f'{len(v)} {k}' for k, v in imp.dropped.items()) or 'the file holds none'})")
    docs = {d.id: d for d in parse_corpus(imp.files)}
    finders: dict[str, QuoteFinder] = {}
    kept, size = [], 0
    for n, row in enumerate(imp.questions, 1):
        line = golden_line(row)
        try:
            parse_question(json.loads(line), docs, f"question {row['id']}", finders)
        except GoldenError as err:
            reason = str(err).split(": ", 2)[-1]
            imp.drop(re.sub(r"\d[\d,]*", "N", reason.split(": '")[0])[:160], _shown(row["id"]))
            continue
        size += len(line.encode("utf-8")) + 1
        if size > MAX_QUESTIONS_BYTES:
            raise ImportFormatError(f"{what}: the golden file would pass {MAX_QUESTIONS_BYTES:,} bytes "
                                    f"({MAX_QUESTIONS_BYTES // 1_000_000} MB, what `raglab check` reads) at question "
                                    f"{n:,}; split the input into several files")
        kept.append(row)
        if progress and n % 10000 == 0:
            progress(len(imp.files), n, "checking")
    imp.questions = kept
    if not imp.questions:
        raise ImportFormatError(f"{what}: no question could be imported "
                                f"({', '.join(f'{len(v)} {k}' for k, v in imp.dropped.items()) or 'the file holds none'})")
    return imp


def _shown(qid: str) -> str:
    """An id as an example in the summary: a newline or control character escaped, cut at 40."""
    text = json.dumps(qid, ensure_ascii=False)[1:-1]
    return text if len(text) <= 40 else text[:39] + "…"


def _question_problem(qid: str, text: str) -> str | None:
    """Why `raglab check` would refuse this question's id or text, as a drop reason; None if fine."""
    try:
        check_id(qid, "")
    except GoldenError:
        return (f"id that `raglab check` refuses (empty, over {MAX_ID_CHARS} characters, a control character, "
                "or starting with = + - @)")
    if len(text) > MAX_QUESTION_CHARS:
        return f"question over {MAX_QUESTION_CHARS:,} characters (the limit of ask and check)"
    return None


def _whole(text: str) -> str:
    """Text with lone surrogates (a JSON "\\ud83d": half a character) as U+FFFD, one for one,
    so offsets into it still hold and the files can be written as UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


def golden_line(row: dict) -> str:
    return json.dumps(row, ensure_ascii=False)


# --- SQuAD ------------------------------------------------------------------------


@dataclass
class _Article:
    id: str
    title: str
    paragraphs: list[str] = field(default_factory=list)  # cleaned contexts
    index: dict[str, int] = field(default_factory=dict)
    size: int = 0  # UTF-8 bytes of its Markdown so far, roughly (kept under the article limit)

    def markdown(self) -> str:
        lang = detect_lang(self.title + " " + " ".join(self.paragraphs[:1]))
        parts = [f"# {self.title}", ""]
        for n, text in enumerate(self.paragraphs, 1):
            parts += [f"## {_section_heading(n, lang)}", "", text, ""]
        return "\n".join(parts)


def _locate(context: str, text: str, start: int) -> int | None:
    """Where an annotated answer is in its raw context: at answer_start, or its only occurrence."""
    if text and 0 <= start and context[start:start + len(text)] == text:
        return start
    return context.index(text) if text and occurrences(context, text) == 1 else None


def _evidence(article: QuoteFinder, para: str, start: int, end: int) -> str | None:
    """The sentences of `para` covering [start, end), widened until the quote occurs once in the article."""
    spans = sentences(para)
    hit = [i for i, (a, b) in enumerate(spans) if a < end and start < b]
    if not hit:
        return None
    i, j = hit[0], hit[-1]
    turn = 0
    while True:
        quote = normalize(para[spans[i][0]:spans[j][1]])
        if article.find(quote)[0] == 1:  # overlaps count, as in the golden loader
            return quote
        if i == 0 and j == len(spans) - 1:
            return None
        if (turn % 2 == 0 and j < len(spans) - 1) or i == 0:
            j += 1
        else:
            i -= 1
        turn += 1


def import_squad(stream, source: str, lang: str = "auto", split: str = "alternate", progress=None) -> Imported:
    """SQuAD 1.1/2.0 JSON from a text stream as corpus files + golden rows (see the module doc)."""
    _check_options(lang, split)
    articles: dict[str, _Article] = {}  # title -> the part of its article being filled
    parts: list[_Article] = []
    taken: set[str] = set()
    pending: list[tuple] = []  # (row, article, paragraph index, answer start, answer end) in input order
    imp = Imported({}, [])
    seen_ids: dict[str, str] = {}
    n_questions = golden_bytes = 0
    try:
        for a_i, line, art in iter_array(stream, "data", source):
            where, path = f"{source}:{line}", f"data[{a_i}]"
            title = _one_line(_field(art, "title", (str,), where, path)) or "Untitled"
            paragraphs = _field(art, "paragraphs", (list,), where, path)
            article = articles.get(title)
            if article is None:
                article = articles[title] = _Article(_unique_id(slug(title, f"article-{len(parts) + 1}"), taken), title)
                parts.append(article)
            for p_i, para in enumerate(paragraphs):
                ppath = f"{path}.paragraphs[{p_i}]"
                raw = _whole(_field(para, "context", (str,), where, ppath))
                qas = _field(para, "qas", (list,), where, ppath)
                context = _clean(raw)
                p_index = article.index.get(context)
                too_big = False
                if p_index is None and context.strip():
                    size = len(context.encode("utf-8")) + 40  # the text and its ## heading
                    too_big = size + len(title.encode("utf-8")) + 8 > MAX_ARTICLE_BYTES
                    if not too_big and article.size + size > MAX_ARTICLE_BYTES:
                        # the loader reads articles of up to 20 MB: a bigger title continues in a second article
                        article = articles[title] = _Article(_unique_id(slug(title, "article") + "-part", taken),
                                                             title, size=len(title.encode("utf-8")) + 8)
                        parts.append(article)
                    if not too_big:
                        p_index = article.index[context] = len(article.paragraphs)
                        article.paragraphs.append(context)
                        article.size += size
                for q_i, qa in enumerate(qas):
                    qpath = f"{ppath}.qas[{q_i}]"
                    qid = str(_field(qa, "id", (str, int), where, qpath))
                    if qid in seen_ids:
                        raise ImportFormatError(f"{where}: {qpath}.id: duplicate question id {qid!r} (first at {seen_ids[qid]}); ids must be unique")
                    seen_ids[qid] = qpath
                    text = _one_line(_field(qa, "question", (str,), where, qpath))
                    impossible = _field(qa, "is_impossible", (bool,), where, qpath, required=False) is True
                    answers = _field(qa, "answers", (list,), where, qpath, required=not impossible) or []
                    located = []
                    for n, ans in enumerate(answers):
                        apath = f"{qpath}.answers[{n}]"
                        atext = _whole(_field(ans, "text", (str,), where, apath))
                        astart = _field(ans, "answer_start", (int,), where, apath)
                        at = _locate(raw, atext, astart)
                        if at is not None:
                            located.append((atext, at))
                    n_questions += 1
                    if not text:
                        imp.drop("empty question", qid)
                        continue
                    problem = _question_problem(qid, text)
                    if problem:
                        imp.drop(problem, _shown(qid))
                        continue
                    golden_bytes += len(qid) + len(text) + 80  # at least what its golden line takes
                    if golden_bytes > MAX_QUESTIONS_BYTES:
                        raise ImportFormatError(f"{where}: {qpath}: the questions so far pass {MAX_QUESTIONS_BYTES:,} "
                                                f"bytes as a golden file ({MAX_QUESTIONS_BYTES // 1_000_000} MB, what "
                                                "`raglab check` reads); split the input into several files")
                    q_lang = detect_lang(text) if lang == "auto" else lang
                    row: dict[str, Any] = {"id": qid, "lang": q_lang, "kind": "unanswerable", "split": "", "question": text,
                           "answer": None, "evidence": []}
                    if impossible:
                        pending.append((row, None, None, 0, 0))
                        continue
                    if p_index is None:
                        imp.drop(f"context over {MAX_ARTICLE_BYTES // 1_000_000} MB (the article limit)" if too_big
                                 else "empty context", qid)
                        continue
                    if not located:
                        imp.drop("no answer_start points at its answer text", qid)
                        continue
                    ref, at = located[0]
                    alternatives = []
                    for ans in answers:  # every one was checked to be an object with a string 'text'
                        a_norm = _one_line(ans["text"])
                        if a_norm and a_norm != _one_line(ref) and a_norm not in alternatives:
                            alternatives.append(a_norm)
                    row.update(kind="direct", answer=_one_line(ref))
                    if alternatives:
                        row["alternatives"] = alternatives
                    # Offsets of the raw context map to the cleaned one through its cleaned prefix.
                    start, end = len(_clean(raw[:at])), len(_clean(raw[:at + len(ref)]))
                    pending.append((row, article, p_index, start, end))
            if progress:
                progress(a_i + 1, n_questions, "reading")
    except JSONStreamError as err:
        raise ImportFormatError(str(err)) from None
    texts = {a.id: normalize(a.markdown()) for a in parts if a.paragraphs}
    article_lang = {doc_id: detect_lang(text) for doc_id, text in texts.items()}
    finders = {doc_id: QuoteFinder(text) for doc_id, text in texts.items()}
    rows = []
    for n, (row, article, p_index, start, end) in enumerate(pending, 1):
        if progress and n % 10000 == 0:
            progress(len(parts), n, "finding evidence")
        if article is not None:
            para = article.paragraphs[p_index]
            quote = _evidence(finders[article.id], para, start, end)
            if quote is None:
                imp.drop("evidence occurs more than once in its article, even as a whole paragraph", row["id"])
                continue
            if row["answer"] not in _one_line(quote):
                imp.drop("answer text changed under Unicode normalisation", row["id"])
                continue
            row["evidence"] = [{"doc": article.id, "quote": quote, "fact": 1}]
            if article_lang[article.id] != row["lang"]:
                row["kind"] = "crosslingual"
        rows.append(row)
    _alternate(rows, split)
    imp.files = {f"{doc_id}.md": text for doc_id, text in texts.items()}
    imp.questions = rows
    return _verify(imp, source, progress)


# --- input files ----------------------------------------------------------------


def open_input(path: str, what: str):
    """A text stream of an import input, opened only if it is a regular file within the
    loaders' size limit: a FIFO would wait forever, `/dev/zero` would fill memory."""
    check_regular(path, ImportFormatError, what, MAX_QUESTIONS_BYTES, "split it into several files")
    try:
        return open(path, encoding="utf-8")
    except OSError as err:
        raise ImportFormatError(f"{path}: cannot read {what} ({err.strerror})") from None


def import_beir(directory: str, lang: str = "auto", progress=None) -> Imported:
    """A BEIR folder as corpus files + golden rows (raglab.corpus.beir, which builds on this module)."""
    from raglab.corpus import beir

    return beir.import_beir(directory, lang, progress)


# --- summary and writing ------------------------------------------------------------


def summary(imp: Imported) -> dict:
    """Counts for the CLI: articles, questions by language x kind x split, drops by reason."""
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for row in imp.questions:
        c = counts.setdefault((row["lang"], row["kind"]), {"dev": 0, "test": 0})
        c[row["split"]] += 1
    return {
        "articles": len(imp.files),
        "questions": len(imp.questions),
        "counts": [{"lang": lang, "kind": kind, **c, "total": c["dev"] + c["test"]}
                   for (lang, kind), c in sorted(counts.items())],
        "dropped": [{"reason": reason, "count": len(ids), "examples": ids[:3]} for reason, ids in imp.dropped.items()],
        "notes": imp.notes,
    }


def write_import(imp: Imported, out: str, force: bool = False) -> list[str]:
    """Write OUT/corpus/*.md and OUT/questions.jsonl, crash-safely (raglab.corpus.importwrite);
    never over an earlier import unless `force`. Returns notes on what killed runs left."""
    return write_files(out, imp.files, "".join(golden_line(row) + "\n" for row in imp.questions), force)
