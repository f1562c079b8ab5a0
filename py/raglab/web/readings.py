"""A question's encoder readings, encoded by the page side by side before it is asked.

`bilingual` reads a question twice (as typed, and translated through the expansion table),
and in the page each reading is one call of the wasm kernel that nothing else can shorten:
the kernel already runs at what 128-bit SIMD without fused multiply-add allows, and any
other arithmetic would change the vectors' bits. What can change is that the two readings
need not wait for each other. So before the worker asks, it calls `query_inputs` for the
token ids of the readings the process does not know yet, encodes the first in its own
kernel while a second worker (js/helper.js), running the same kernel build on the same
model, encodes the others, and hands the vectors to `remember_vectors`. `ask` then finds
them known, as it would after encoding them itself: the same texts, keys and bits, in
the same cache, so the answer cannot differ (`cached_digests` lets the parity tests check
the vectors that came back). Natively none of this runs: `ask` encodes as it always did.

Imported by the worker when the helper starts (after the model is in), not at start-up.
"""

from __future__ import annotations

from array import array

from raglab.encoder.vectors import native_cache, text_key
from raglab.schema import dumps
from raglab.text.limits import check_question_length
from raglab.web.state import _corpus, _json_arg, parse_config, pipeline, vector_digest


def query_inputs(question: str, config=None, corpus: str = "bundled") -> str:
    """{"texts": [...], "ids": [[...], ...]}: the readings of `question` that asking it under
    `config` would encode and the process does not know yet, with their token ids, in the
    retriever's order. Empty lists for a lexical retriever, an empty or over-long question
    (the ask that follows reports those) or readings already known."""
    texts: list[str] = []
    if isinstance(question, str) and question.strip():
        try:
            check_question_length(question)
        except ValueError:
            return dumps({"texts": [], "ids": []})
        _corpus(corpus)
        known = native_cache().known
        wanted = pipeline(parse_config(config), corpus).query_texts(question)
        texts = [t for t in dict.fromkeys(wanted) if text_key(t) not in known]
    encoder = native_cache().encoder if texts else None
    return dumps({"texts": texts, "ids": [encoder.ids(t) for t in texts] if encoder else []})


def remember_vectors(texts, vectors) -> str:
    """Keep the vectors of `texts` (JSON list; `vectors` their float32 values one after
    another, as bytes or a JavaScript typed array) for this process, as a question's own
    vector is kept; {"kept": how many}."""
    items = _json_arg(texts, "texts", list, [])
    cache = native_cache()
    flat = vectors if isinstance(vectors, (bytes, bytearray)) else vectors.to_bytes()
    width = 4 * cache.encoder.dim
    if len(flat) != width * len(items) or not all(isinstance(t, str) for t in items):
        raise ValueError(f"remember_vectors: {len(items)} texts and {len(flat)} bytes of vectors do not match")
    for i, text in enumerate(items):
        cache.known.setdefault(text_key(text), bytes(flat[i * width:(i + 1) * width]))
    return dumps({"kept": len(items)})


def cached_digests(texts) -> str:
    """For each text, the sha256 of its known vector's components as float.hex (as
    `web.api.vector_digests` computes for a fresh one), or null when the process has none."""
    known = native_cache().known
    out = []
    for text in _json_arg(texts, "texts", list, []):
        raw = known.get(text_key(text))
        out.append(None if raw is None else vector_digest(array("f", raw)))
    return dumps(out)
