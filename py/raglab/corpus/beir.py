"""The BEIR importer: `raglab import beir DIR --out DIR2` (see raglab.corpus.importers).

A BEIR folder holds `corpus.jsonl` (one passage per line), `queries.jsonl` and
`qrels/{dev,test}.tsv`; each passage becomes one article, and each query's evidence is
its relevant passages, whole. Every input is opened through `open_input` (a regular file
within the loaders' size limit), and a duplicate key or query id is reported, never kept
silently.
"""

from __future__ import annotations

import json
import os
from typing import Any

from raglab.corpus.articles import detect_lang
from raglab.corpus.importers import Imported, ImportFormatError, _check_options, _clean, _field, _one_line, _shown, _unique_id, _verify, open_input, slug
from raglab.corpus.quotes import occurrences
from raglab.text.analyzer import normalize


def _pairs(pairs: list[tuple[str, object]]) -> dict:
    obj = {}
    for key, value in pairs:
        if key in obj:  # json.loads would keep the last silently
            raise ImportFormatError(f"field {key!r} appears twice in one object; keep one")
        obj[key] = value
    return obj


def _jsonl(path: str, required: tuple[str, ...]):
    """(line number, object) for each non-blank line of a JSON Lines file."""
    if not os.path.lexists(path):
        raise ImportFormatError(f"{path}: cannot read (No such file or directory); a BEIR folder has corpus.jsonl, "
                                "queries.jsonl and qrels/dev.tsv or qrels/test.tsv")
    with open_input(path, "the BEIR file") as fh:
        n = 0
        try:
            for n, line in enumerate(fh, 1):
                line = line.removeprefix("\ufeff") if n == 1 else line
                if not line.strip():
                    continue
                try:
                    row = json.loads(line, object_pairs_hook=_pairs)
                except json.JSONDecodeError as err:
                    raise ImportFormatError(f"{path}:{n}: not valid JSON ({err.msg}, column {err.colno})") from None
                except RecursionError:
                    raise ImportFormatError(f"{path}:{n}: not valid JSON (nested too deeply)") from None
                except ImportFormatError as err:
                    raise ImportFormatError(f"{path}:{n}: {err}") from None
                for name in required:
                    _field(row, name, (str, int) if name == "_id" else (str,), f"{path}:{n}", "line")
                yield n, row
        except UnicodeDecodeError:
            raise ImportFormatError(f"{path}:{n + 1}: not valid UTF-8; save the file as UTF-8") from None


def _qrels(path: str):
    with open_input(path, "the qrels file") as fh:
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
            shown = cols[2] if len(cols[2]) <= 20 else cols[2][:20] + f"… ({len(cols[2]):,} characters)"
            raise ImportFormatError(f"{path}:{n}: column 'score' must be a whole number, got {shown!r}") from None
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
            progress(n, 0, "reading")
    queries: dict[str, str] = {}
    for n, row in _jsonl(os.path.join(directory, "queries.jsonl"), ("_id", "text")):
        if str(row["_id"]) in queries:
            imp.drop("a second query with this id in queries.jsonl (the first kept)", _shown(str(row["_id"])))
            continue
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
        evidence: list[dict[str, Any]] = []
        for doc_id in docs:
            body = normalize(bodies[doc_id])
            if body and occurrences(imp.files[f"{doc_id}.md"], body) == 1:
                evidence.append({"doc": doc_id, "quote": body, "fact": len(evidence) + 1})
        if not evidence:
            imp.drop("every relevant passage is empty or repeats its own title", qid)
            continue
        imp.questions.append({"id": qid, "lang": detect_lang(text) if lang == "auto" else lang,
                              "kind": "direct" if len(evidence) == 1 else "multi", "split": split_of[qid],
                              "question": text, "answer": evidence[0]["quote"], "evidence": evidence})
    return _verify(imp, directory)
