"""What the answerer works out for each unit of a chunk, worked out before any question asks.

Around every retrieved chunk the answerer cuts the article into units and reads each one:
its terms (`candidates.text_info`), the values it holds (`sentences.spans_of`, `numbers_of`),
its language and its section's heading terms (the whole path's, and its own heading's). None of that depends on the question, and
each is remembered per text, so a question whose chunks were read before pays only for
what it asks. In the browser that reading was about half of an answer's Python time (5 to
6 ms of 11, at the first questions); the page does it here, a chunk at a time, while it waits for the
first question. The same functions fill the same caches, so no answer can differ: only the
time of the first answers that touch a chunk.
"""

from __future__ import annotations

from raglab.answer.candidates import heading_of, heading_terms, text_info, units_of
from raglab.answer.sentences import lang_of, numbers_of, spans_of
from raglab.corpus.chunking import Chunk


def read_chunk(chunk: Chunk, docs: dict | None = None) -> int:
    """Read every unit around `chunk` as `candidates.score_candidates` would (`docs` maps an
    article id to its Document, as there); returns how many units."""
    doc, _, _, units = units_of(chunk, docs)
    for u in units:
        text_info(u.text)
        if u.lead:
            text_info(u.lead)
        spans_of(u.text)
        numbers_of(u.text)
        lang_of(u.text)
        heading = heading_of(u, chunk, doc)
        heading_terms(heading)
        if len(heading) > 1:
            heading_terms(heading[-1:])  # its own heading, which `faq.closest_heading` reads alone
    return len(units)
