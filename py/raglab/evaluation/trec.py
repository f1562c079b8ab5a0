"""TREC run and qrels files, so the IR tools a team already trusts can re-score raglab's runs.

`raglab compare --trec DIR` writes, for the reported split:

- `DIR/<configuration>.run`, one per configuration: `qid Q0 docid rank score tag`, docid =
  the chunk id (`<article>#<n>`), the top 10 (or k, when larger) chunks per question, tag =
  the configuration's label. The score column is `depth + 1 - rank`, not the retriever's
  score: TREC tools re-sort by score and break ties by docid, and raglab breaks ties by
  chunk order, so only a strictly decreasing column makes every tool see raglab's ranking.
- `DIR/<chunker>.qrels`, one per chunker: `qid 0 docid 1` for every chunk that covers an
  evidence passage by the min-coverage rule (the same rule the metrics use).

Re-scored with trec_eval or ir_measures, RR@10 equals raglab's MRR@10 question by
question. Recall differs by design where a fact is covered by more than one chunk:
TREC recall counts relevant *chunks* (two overlapping chunks over one passage are two
relevant documents), raglab counts *facts* once (either chunk delivers the fact). Where
every fact is covered by exactly one chunk the two agree.
"""

from __future__ import annotations

import os
import tempfile

from raglab.text.analyzer import WHITESPACE


class TrecError(ValueError):
    """Data that a TREC file cannot hold; the message says which question or label."""


def _token(value: str, what: str) -> str:
    if not value or any(ch in WHITESPACE for ch in value):
        raise TrecError(f"{what} {value!r} is empty or holds whitespace; TREC files separate columns by spaces, "
                        "so rename it before exporting")
    return value


def run_lines(label: str, rankings: dict[str, list[str]]) -> list[str]:
    """Run-file lines for one configuration: {question id: chunk ids, best first}."""
    tag = _token(label, "configuration label")
    out = []
    for qid, ids in rankings.items():
        _token(qid, "question id")
        depth = len(ids)
        for rank, chunk_id in enumerate(ids, 1):
            out.append(f"{qid} Q0 {_token(chunk_id, 'chunk id')} {rank} {depth + 1 - rank} {tag}")
    return out


def qrels_lines(relevant: dict[str, list[str]]) -> list[str]:
    """Qrels lines for one chunker: {question id: ids of the chunks covering its evidence}."""
    out = []
    for qid, ids in relevant.items():
        _token(qid, "question id")
        for chunk_id in ids:
            out.append(f"{qid} 0 {_token(chunk_id, 'chunk id')} 1")
    return out


def check_destination(directory: str, names: list[str]) -> None:
    """Refuse a TREC folder that cannot take the files before anything runs (a comparison
    takes minutes; failing at the end loses it): not a folder, not writable, or holding a
    folder or other non-file where one of `names` goes."""
    if os.path.lexists(directory) and not os.path.isdir(directory):
        raise TrecError(f"{directory}: not a folder; give --trec a folder (it is created if missing)")
    try:
        os.makedirs(directory, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".trec-", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise TrecError(f"{directory}: cannot write TREC files there ({err.strerror or err}); choose another --trec") from None
    for name in names:
        path = os.path.join(directory, name)
        if os.path.lexists(path) and not os.path.isfile(path):
            raise TrecError(f"{path}: not a regular file, where a TREC file goes; remove it or choose another --trec")


def file_names(labels: list[str], chunkers: list[str]) -> list[str]:
    return sorted({f"{label}.run" for label in labels} | {f"{chunker}.qrels" for chunker in chunkers})


def write(directory: str, runs: dict[str, dict[str, list[str]]], qrels: dict[str, dict[str, list[str]]]) -> list[str]:
    """Write one .run per configuration and one .qrels per chunker; returns the paths written."""
    files = {f"{label}.run": run_lines(label, r) for label, r in runs.items()}
    files.update({f"{chunker}.qrels": qrels_lines(q) for chunker, q in qrels.items()})
    check_destination(directory, sorted(files))
    paths = []
    for name in sorted(files):
        path = os.path.join(directory, name)
        try:
            with open(path, "w", encoding="utf-8", newline="\n") as fh:
                fh.write("".join(line + "\n" for line in files[name]))
        except OSError as err:  # the folder changed while the comparison ran
            raise TrecError(f"{path}: cannot write ({err.strerror or err}); choose another --trec") from None
        paths.append(path)
    return paths
