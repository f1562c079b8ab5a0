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
import os
import shutil
import tempfile
from dataclasses import dataclass, field

from .analyzer import normalize, sentences
from .corpus import detect_lang, parse_corpus
from .goldens import parse_goldens
from .jsonstream import JSONStreamError, iter_array

SPLIT_CHOICES = ("alternate", "dev", "test")
LANG_CHOICES = ("auto", "en", "bn")
_BANGLA_DIGITS = "০১২৩৪৫৬৭৮৯"


class ImportFormatError(ValueError):
    """An input file that is not in the expected format; the message says where and what."""


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
    out, dash = [], False
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
    return escape_headings(normalize(text))


def _one_line(text: str) -> str:
    return " ".join(normalize(text).split())


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


def _verify(imp: Imported, what: str) -> Imported:
    """Load the result with raglab's own loaders: an importer bug must never write a broken set."""
    if not imp.questions:
        raise ImportFormatError(f"{what}: no question could be imported "
                                f"({', '.join(f'{len(v)} {k}' for k, v in imp.dropped.items()) or 'the file holds none'})")
    docs = parse_corpus(imp.files)
    parse_goldens("\n".join(golden_line(r) for r in imp.questions), docs, "questions.jsonl")
    return imp


def golden_line(row: dict) -> str:
    return json.dumps(row, ensure_ascii=False)


# --- SQuAD ------------------------------------------------------------------------


@dataclass
class _Article:
    id: str
    title: str
    paragraphs: list[str] = field(default_factory=list)  # cleaned contexts
    index: dict[str, int] = field(default_factory=dict)

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
    return context.index(text) if text and context.count(text) == 1 else None


def _evidence(article_text: str, para: str, start: int, end: int) -> str | None:
    """The sentences of `para` covering [start, end), widened until the quote occurs once in the article."""
    spans = sentences(para)
    hit = [i for i, (a, b) in enumerate(spans) if a < end and start < b]
    if not hit:
        return None
    i, j = hit[0], hit[-1]
    turn = 0
    while True:
        quote = normalize(para[spans[i][0]:spans[j][1]])
        if article_text.count(quote) == 1:
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
    articles: dict[str, _Article] = {}
    taken: set[str] = set()
    pending = []  # (row, article, paragraph index, answer start, answer end) in input order
    imp = Imported({}, [])
    seen_ids: dict[str, str] = {}
    n_questions = 0
    try:
        for a_i, line, art in iter_array(stream, "data", source):
            where, path = f"{source}:{line}", f"data[{a_i}]"
            title = _one_line(_field(art, "title", (str,), where, path)) or "Untitled"
            paragraphs = _field(art, "paragraphs", (list,), where, path)
            article = articles.get(title)
            if article is None:
                article = articles[title] = _Article(_unique_id(slug(title, f"article-{len(articles) + 1}"), taken), title)
            for p_i, para in enumerate(paragraphs):
                ppath = f"{path}.paragraphs[{p_i}]"
                raw = _field(para, "context", (str,), where, ppath)
                qas = _field(para, "qas", (list,), where, ppath)
                context = _clean(raw)
                p_index = article.index.get(context)
                if p_index is None and context.strip():
                    p_index = article.index[context] = len(article.paragraphs)
                    article.paragraphs.append(context)
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
                        atext = _field(ans, "text", (str,), where, apath)
                        astart = _field(ans, "answer_start", (int,), where, apath)
                        at = _locate(raw, atext, astart)
                        if at is not None:
                            located.append((atext, at))
                    n_questions += 1
                    if not text:
                        imp.drop("empty question", qid)
                        continue
                    q_lang = detect_lang(text) if lang == "auto" else lang
                    row = {"id": qid, "lang": q_lang, "kind": "unanswerable", "split": "", "question": text,
                           "answer": None, "evidence": []}
                    if impossible:
                        pending.append((row, None, None, 0, 0))
                        continue
                    if p_index is None:
                        imp.drop("empty context", qid)
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
                progress(a_i + 1, n_questions)
    except JSONStreamError as err:
        raise ImportFormatError(str(err)) from None
    texts = {a.id: normalize(a.markdown()) for a in articles.values() if a.paragraphs}
    article_lang = {doc_id: detect_lang(text) for doc_id, text in texts.items()}
    rows = []
    for row, article, p_index, start, end in pending:
        if article is not None:
            para = article.paragraphs[p_index]
            quote = _evidence(texts[article.id], para, start, end)
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
    return _verify(imp, source)


# --- BEIR -------------------------------------------------------------------------


def _jsonl(path: str, required: tuple[str, ...]):
    """(line number, object) for each non-blank line of a JSON Lines file."""
    try:
        fh = open(path, encoding="utf-8")
    except OSError as err:
        raise ImportFormatError(f"{path}: cannot read ({err.strerror}); a BEIR folder has corpus.jsonl, "
                                "queries.jsonl and qrels/dev.tsv or qrels/test.tsv") from None
    with fh:
        n = 0
        try:
            for n, line in enumerate(fh, 1):
                line = line.removeprefix("\ufeff") if n == 1 else line
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as err:
                    raise ImportFormatError(f"{path}:{n}: not valid JSON ({err.msg}, column {err.colno})") from None
                for name in required:
                    _field(row, name, (str, int) if name == "_id" else (str,), f"{path}:{n}", "line")
                yield n, row
        except UnicodeDecodeError:
            raise ImportFormatError(f"{path}:{n + 1}: not valid UTF-8; save the file as UTF-8") from None


def _qrels(path: str):
    with open(path, encoding="utf-8", errors="strict") as fh:
        try:
            yield from _qrel_rows(fh, path)
        except UnicodeDecodeError:
            raise ImportFormatError(f"{path}: not valid UTF-8; save the file as UTF-8") from None


def _qrel_rows(fh, path: str):
    for n, line in enumerate(fh, 1):
        cols = line.removeprefix("\ufeff").rstrip("\r\n").split("\t")
        if not line.strip() or (n == 1 and cols[0] in ("query-id", "query_id", "qid")):
            continue
        if len(cols) != 3:
            raise ImportFormatError(f"{path}:{n}: expected three tab-separated columns "
                                    f"(query-id, corpus-id, score), found {len(cols)}")
        try:
            score = int(cols[2])
        except ValueError:
            raise ImportFormatError(f"{path}:{n}: column 'score' must be a whole number, got {cols[2]!r}") from None
        yield n, cols[0], cols[1], score


def import_beir(directory: str, lang: str = "auto", progress=None) -> Imported:
    """A BEIR folder as corpus files + golden rows; splits come from qrels/dev.tsv and qrels/test.tsv."""
    _check_options(lang, "alternate")
    imp = Imported({}, [], notes=["BEIR gives document-level truth: each question's evidence and reference "
                                  "answer are whole relevant passages; score this set on retrieval"])
    qrel_files = [(s, os.path.join(directory, "qrels", f"{s}.tsv")) for s in ("dev", "test")]
    qrel_files = [(s, p) for s, p in qrel_files if os.path.isfile(p)]
    if not qrel_files:
        raise ImportFormatError(f"{directory}: no qrels/dev.tsv or qrels/test.tsv; a BEIR folder has corpus.jsonl, "
                                "queries.jsonl and qrels/<split>.tsv")
    taken: set[str] = set()
    doc_ids: dict[str, str] = {}
    bodies: dict[str, str] = {}
    for n, row in _jsonl(os.path.join(directory, "corpus.jsonl"), ("_id", "text")):
        where = f"{directory}/corpus.jsonl:{n}"
        key = str(row["_id"])
        if key in doc_ids:
            raise ImportFormatError(f"{where}: field '_id': duplicate passage id {key!r}")
        title = _field(row, "title", (str,), where, "line", required=False) or ""
        doc_id = doc_ids[key] = _unique_id(slug(key, "passage") if key.strip() else "passage", taken)
        body = _clean(row["text"]).strip()
        bodies[doc_id] = body
        imp.files[f"{doc_id}.md"] = normalize(f"# {_one_line(title) or key}\n\n{body}\n")
        if progress and n % 10000 == 0:
            progress(n, 0)
    queries: dict[str, str] = {}
    for n, row in _jsonl(os.path.join(directory, "queries.jsonl"), ("_id", "text")):
        queries[str(row["_id"])] = _one_line(row["text"])
    relevant: dict[str, list[str]] = {}
    split_of: dict[str, str] = {}
    for split, path in qrel_files:
        for n, qid, cid, score in _qrels(path):
            if score <= 0:
                continue
            if split_of.setdefault(qid, split) != split:
                imp.drop(f"query also in qrels/{split}.tsv (kept in {split_of[qid]})", qid)
                continue
            if cid not in doc_ids:
                imp.drop("qrels name a passage that is not in corpus.jsonl", f"{qid}/{cid}")
                continue
            docs = relevant.setdefault(qid, [])
            if doc_ids[cid] not in docs:
                docs.append(doc_ids[cid])
    for qid, docs in relevant.items():
        text = queries.get(qid)
        if text is None:
            imp.drop("qrels name a query that is not in queries.jsonl", qid)
            continue
        if not text:
            imp.drop("empty question", qid)
            continue
        evidence = []
        for doc_id in docs:
            body = normalize(bodies[doc_id])
            if body and imp.files[f"{doc_id}.md"].count(body) == 1:
                evidence.append({"doc": doc_id, "quote": body, "fact": len(evidence) + 1})
        if not evidence:
            imp.drop("every relevant passage is empty or repeats its own title", qid)
            continue
        imp.questions.append({"id": qid, "lang": detect_lang(text) if lang == "auto" else lang,
                              "kind": "direct" if len(evidence) == 1 else "multi", "split": split_of[qid],
                              "question": text, "answer": evidence[0]["quote"], "evidence": evidence})
    return _verify(imp, directory)


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


def write_import(imp: Imported, out: str, force: bool = False) -> None:
    """Write OUT/corpus/*.md and OUT/questions.jsonl; never over an earlier import unless `force`."""
    corpus_dir = os.path.join(out, "corpus")
    questions = os.path.join(out, "questions.jsonl")
    occupied = os.path.exists(questions) or (os.path.isdir(corpus_dir) and os.listdir(corpus_dir))
    if occupied and not force:
        raise ImportFormatError(f"{out}: already holds corpus/ or questions.jsonl; choose another --out "
                                "or pass --force to replace them")
    os.makedirs(out, exist_ok=True)
    # Everything goes to a temporary folder first, so a failure leaves the old import intact.
    tmp = tempfile.mkdtemp(prefix=".import-", dir=out)
    try:
        os.mkdir(os.path.join(tmp, "corpus"))
        for name, text in sorted(imp.files.items()):
            with open(os.path.join(tmp, "corpus", name), "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        with open(os.path.join(tmp, "questions.jsonl"), "w", encoding="utf-8", newline="\n") as fh:
            for row in imp.questions:
                fh.write(golden_line(row) + "\n")
        if os.path.isdir(corpus_dir):
            shutil.rmtree(corpus_dir)
        if os.path.exists(questions):
            os.remove(questions)
        os.rename(os.path.join(tmp, "corpus"), corpus_dir)
        os.rename(os.path.join(tmp, "questions.jsonl"), questions)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
