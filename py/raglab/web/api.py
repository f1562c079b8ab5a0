"""The browser's door into raglab: a thin facade the Web Worker calls through Pyodide.

JavaScript never re-implements a step. The worker fetches the raw files (the
Markdown articles and the golden JSON Lines), hands them to `load`, and from then
on calls the functions below with plain strings. Every function returns JSON
text made by the same code as the matching CLI command (`schema`, the one JSON
contract; `report.render` for compare), so `ask` here
and `raglab ask --json` give the same bytes for the same question.

    load("bundled", json.dumps({"en-about.md": "# About\\n\\nShapla Pay is a wallet."}))
    ask("What is Shapla Pay?", '{"k": 3}')      # == raglab ask --json -k 3 "What is Shapla Pay?"
    ask_many('["q1", "q2"]', "{}")              # == raglab ask --questions FILE, as one JSON list

A loaded corpus is kept under a name ("bundled" for the help centre the page
ships, "user" for the Your-own-data tab), and pipelines are built lazily, once
per corpus and configuration, because building the index is the slow part
(about a third of a second per configuration in the browser) and a question is
fast. Everything here is pure standard library, so it runs natively too: tests
call it directly to get the reference the browser must match.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from dataclasses import asdict

from raglab import __version__
from raglab.corpus.articles import CorpusError, load_corpus, parse_corpus
from raglab.corpus.chunking import CHUNKERS
from raglab.corpus.goldens import KINDS, LANGS, GoldenError, Question, counts_table, load_goldens, parse_goldens
from raglab.pipeline import Config
from raglab.retrieval.registry import ENCODER_RETRIEVERS, RETRIEVERS, HasScores
from raglab.schema import analysis, article_json, ask_json, dumps, empty_question, language_counts
from raglab.text.analyzer import prebuilt_size
from raglab.web.state import _CORPORA, BUNDLED, LoadedCorpus, _corpus, _json_arg, parse_config, pipeline, vector_digest

EXAMPLES_PER_KIND = 1  # example questions shown per language and kind
PROBLEMS_SHOWN = 20  # problems of a broken golden file listed in the page; the rest are counted



def load(name: str, files, goldens: str | None = None, goldens_name: str = "questions.jsonl") -> str:
    """Parse {file name: Markdown} (JSON text or a dict) and optional golden JSON Lines under `name`.

    A broken article raises CorpusError (naming file and line) and nothing is
    replaced. A broken golden file does not stop the corpus from loading: the
    summary's "goldens_error" names file, line and question id, so the page can
    still answer questions while it shows what to fix.
    """
    files = _json_arg(files, "files", dict, {})
    for key, value in files.items():
        if not isinstance(value, str):
            raise ValueError(f"{key}: file contents must be text, got {type(value).__name__}")
    docs = parse_corpus(files)
    loaded = LoadedCorpus(docs)
    if goldens is not None and goldens.strip():
        try:
            loaded.questions = parse_goldens(goldens, docs, goldens_name)
        except GoldenError as err:
            loaded.goldens_error, loaded.goldens_problems = str(err), err.problems
    _CORPORA[name] = loaded
    return summary(name)


def load_dir(name: str, corpus_dir: str, goldens_path: str | None = None, shown: str | None = None) -> str:
    """Like `load`, but from files on disk, read by the CLI's own loaders (`load_corpus`,
    `load_goldens`): the worker writes the fetched or uploaded bytes into Pyodide's
    in-memory file system first, so a file that is not UTF-8 is refused with the
    same message (file, line, byte) as `raglab --corpus DIR`.

    `shown`, for files a user chose in the page, is the name the questions file was chosen
    under: every error then names the files as the user knows them (`mine.jsonl:2`, `a.md:3`),
    never the folders the worker wrote them to."""
    try:
        docs = load_corpus(corpus_dir)
    except CorpusError as err:
        raise err if shown is None else _named(err, corpus_dir + "/", "") from None
    loaded = LoadedCorpus(docs)
    if goldens_path is not None:
        try:
            loaded.questions = load_goldens(goldens_path, docs)
        except GoldenError as err:
            named = _named(err, goldens_path, shown) if shown is not None else err
            loaded.goldens_error = str(named)
            loaded.goldens_problems = named.problems if isinstance(named, GoldenError) else err.problems
    _CORPORA[name] = loaded
    return summary(name)


def _named(err: ValueError, path: str, shown: str) -> ValueError:
    """The same error with `path` at the start of its message (and of each problem it lists)
    replaced by `shown`."""
    def fix(text: str) -> str:
        return shown + text[len(path):] if text.startswith(path) else text

    if isinstance(err, GoldenError):
        return GoldenError(fix(str(err)), [fix(p) for p in err.problems])
    return type(err)(fix(str(err)))


def use_prebuilt(path: str, sha256: str) -> str:
    """Install the build's prebuilt analysis of the bundled chunks (see raglab.retrieval.prebuilt)
    from a file; returns {"texts": how many texts it answers}. Results never change,
    only the time the first index takes (the table is keyed by text)."""
    from raglab.retrieval.prebuilt import install_file

    return dumps({"texts": install_file(path, sha256)})


def prebuilt_table(corpus: str = BUNDLED) -> str:
    """The prebuilt analysis of a loaded corpus, worked out afresh here: the parity test
    compares its sha256 with the file the build shipped (analysed natively)."""
    from raglab.retrieval.prebuilt import build

    return build(_corpus(corpus).docs, Config().chunker).decode("utf-8")


def load_squad(name: str, squad_path: str, corpus_dir: str | None = None, shown: str | None = None) -> str:
    """A SQuAD 1.1/2.0 JSON file loaded under `name` through the importer `raglab import squad`
    uses: its articles (plus any Markdown articles in `corpus_dir`) and its questions.
    `shown`: the name the user chose the file under (errors name it; see `load_dir`).

    The summary gains "imported": articles, questions by language x kind, and what was
    dropped and why (as `raglab import --json` prints it).
    """
    from raglab.corpus.articles import read_corpus_files
    from raglab.corpus.importers import golden_line, import_squad
    from raglab.corpus.importers import summary as import_summary

    source = squad_path if shown is None else shown
    try:
        with open(squad_path, encoding="utf-8") as fh:
            imported = import_squad(fh, source)
    except UnicodeDecodeError as err:
        raise ValueError(f"{source}: not valid UTF-8 ({err.reason}); save the file as UTF-8") from None
    files = dict(imported.files)
    try:
        extra = read_corpus_files(corpus_dir) if corpus_dir else {}
    except CorpusError as err:
        raise err if shown is None or corpus_dir is None else _named(err, corpus_dir + "/", "") from None
    for file_name, text in extra.items():
        if file_name in files:
            raise CorpusError(f"{file_name}: an article of the SQuAD file has this id too; rename the Markdown file")
        files[file_name] = text
    loaded = json.loads(load(name, files, "\n".join(golden_line(r) for r in imported.questions), source))
    loaded["imported"] = import_summary(imported)
    return dumps(loaded)


def summary(corpus: str = BUNDLED) -> str:
    """What is loaded: like `raglab check --json`, plus the golden error if there is one."""
    loaded = _corpus(corpus)
    return dumps({
        "name": corpus,
        "articles": len(loaded.docs),
        "langs": language_counts(loaded.docs),
        "questions": len(loaded.questions),
        "counts": counts_table(loaded.questions) if loaded.questions else [],
        "goldens_error": loaded.goldens_error,
        # every problem of a broken golden file, the first PROBLEMS_SHOWN of them listed
        "goldens_problems": loaded.goldens_problems[:PROBLEMS_SHOWN],
        "goldens_more": max(0, len(loaded.goldens_problems) - PROBLEMS_SHOWN),
    })


def examples(questions: list[Question]) -> list[dict]:
    """A few golden questions per language, one of each kind, in file order (for one-click asking)."""
    out = []
    for lang in LANGS:
        for kind in KINDS:
            picked = [q for q in questions if q.lang == lang and q.kind == kind][:EXAMPLES_PER_KIND]
            for q in picked:
                out.append({"id": q.id, "lang": q.lang, "kind": q.kind, "split": q.split,
                            "question": q.question, "answer": q.answer,
                            "evidence": [asdict(e) for e in q.evidence]})
    return out


def _available(module: str) -> bool:
    """Whether this build has raglab.<module>, without importing it (start-up time counts)."""
    return importlib.util.find_spec(f"raglab.{module}") is not None


def info(corpus: str = BUNDLED) -> str:
    """Everything the page needs to draw its controls: options, served defaults, articles, examples."""
    loaded = _corpus(corpus)
    return dumps({
        "version": __version__,
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "defaults": asdict(_default_config(loaded)),
        "tuned": loaded.tuned,
        "served": Config().label,
        "chunkers": list(CHUNKERS),
        "retrievers": list(RETRIEVERS),
        "semantic": semantic_retrievers(),
        "compare": _available("evaluation"),
        "articles": [{"id": d.id, "lang": d.lang, "title": d.title} for d in loaded.docs],
        "examples": examples(loaded.questions),
        "questions": len(loaded.questions),
        "goldens_error": loaded.goldens_error,
        "prebuilt_texts": prebuilt_size(),
    })


def _default_config(loaded: LoadedCorpus) -> Config:
    """The served default, with the threshold tuned for this corpus when it has one."""
    return Config(threshold=loaded.tuned["threshold"]) if loaded.tuned else Config()


def _config_for(config, corpus: str) -> Config:
    """parse_config, except that a corpus with a tuned threshold uses it unless the config names one
    (the command line's equivalent is `raglab ask --corpus DIR --threshold T`)."""
    cfg = parse_config(config)
    loaded = _corpus(corpus)
    raw = _json_arg(config, "config", dict, {})
    if loaded.tuned and "threshold" not in raw:
        cfg = Config(**{**asdict(cfg), "threshold": loaded.tuned["threshold"]})
    return cfg


# The evaluation's modules are imported when first used, not at start-up: the page is ready
# sooner, and a question never waits for them.

def compare(options=None, progress=None, corpus: str = BUNDLED) -> str:
    """`raglab.web.compare.compare`: the same text as `raglab compare --format json`."""
    from raglab.web.compare import compare as run

    return run(options, progress, corpus)


def compare_view(options=None, progress=None, corpus: str = BUNDLED) -> str:
    """`raglab.web.compare.compare_view`: what the Evaluate tab draws."""
    from raglab.web.compare import compare_view as run

    return run(options, progress, corpus)


def judge(result, question_id: str, corpus: str = BUNDLED) -> str:
    """The review verdict of one `ask` result for a golden question: {id, verdict, reference}.

    `result` is the ask JSON (text or dict); the served text is its short answer when
    it has one, else the answer sentence (see raglab.evaluation.review)."""
    from raglab.evaluation.review import served_text, verdict

    result = _json_arg(result, "result", dict, {})
    for q in _corpus(corpus).questions:
        if q.id == question_id:
            return dumps({"id": q.id, "verdict": verdict(q.answerable, served_text(result), q.answer, q.evidence),
                          "reference": q.answer})
    raise ValueError(f"no golden question {question_id!r} in the {corpus} corpus")


def preload() -> str:
    """Import what the first answer needs and start-up did not: the answerer's modules and the
    encoder's (the model file, tokenizer and vector store, which `load_encoder` needs when the
    model is in); returns {"modules": how many raglab modules are loaded}. The worker calls it
    right after ready, while the semantic model downloads, so that the page is ready sooner
    and neither the model's installation nor the first question waits for these imports."""
    import fractions  # noqa: F401  (text.numbers imports it where numbers in words are read)

    import raglab.answer.answerer  # noqa: F401
    import raglab.encoder.wasm  # noqa: F401

    return dumps({"modules": len([m for m in sys.modules if m.startswith("raglab.")])})


def read_ahead(budget_ms: float = 4.0, corpus: str = BUNDLED) -> str:
    """`raglab.web.idle.read_ahead`: the page's work while it waits for a question."""
    from raglab.web.idle import read_ahead as run

    return run(budget_ms, corpus)


def warm(config=None, corpus: str = BUNDLED) -> str:
    """Build (and cache) the pipeline for a configuration; returns its chunk count."""
    cfg = _config_for(config, corpus)
    return dumps({"config": asdict(cfg), "chunks": len(pipeline(cfg, corpus).chunks)})


def ask(question: str, config=None, corpus: str = BUNDLED) -> str:
    """One question: the same JSON as `raglab ask --json QUESTION` with the same options."""
    if not isinstance(question, str) or not question.strip():
        raise ValueError("the question is empty; ask something, e.g. \"What is the cash out fee?\"")
    return dumps(ask_json(pipeline(_config_for(config, corpus), corpus).ask(question)))


def ask_many(questions, config=None, corpus: str = BUNDLED) -> str:
    """Many questions under one configuration, in one call: a JSON list whose i-th element is
    line i of `raglab ask --questions FILE --json` (an empty question gives the same error object)."""
    items = _json_arg(questions, "questions", list, [])
    bad = [i for i, q in enumerate(items) if not isinstance(q, str)]
    if bad:
        raise ValueError(f"questions must be strings; item {bad[0]} is {type(items[bad[0]]).__name__}")
    pipe = pipeline(_config_for(config, corpus), corpus)
    return "[" + ", ".join(dumps(ask_json(pipe.ask(q)) if q.strip() else empty_question(i))
                            for i, q in enumerate(items, 1)) + "]"


def raw_scores(questions, config=None, corpus: str = BUNDLED) -> str:
    """Unrounded scores, as float.hex, of each question's top-k chunks: [[chunk id, hex], ...].

    Ranking uses scores rounded to 12 significant digits, so a last-bit difference in
    libm between platforms cannot reorder results; this shows whether any such
    difference exists at all. Retrievers without a `scores(query)` method (the
    reranker) give null for the raw value.
    """
    items = _json_arg(questions, "questions", list, [])
    pipe = pipeline(parse_config(config), corpus)
    out = []
    for q in items:
        query = pipe.query(q)
        hits = pipe.retriever.search(query, pipe.config.k)
        raw = pipe.retriever.scores(query) if isinstance(pipe.retriever, HasScores) and hits else {}
        out.append([[pipe.chunks[h.index].id, raw[h.index].hex() if h.index in raw else None] for h in hits])
    return dumps(out)


def analyze_text(text: str) -> str:
    """The analyzer's terms with offsets: the same JSON as `raglab analyze --json TEXT`."""
    return dumps(analysis(text))


def analyze_many(texts) -> str:
    """`analyze_text` for a list of texts in one call: a JSON list of their term lists."""
    items = _json_arg(texts, "texts", list, [])
    return dumps([analysis(t) for t in items])


def article(doc_id: str, corpus: str = BUNDLED) -> str:
    """One article's normalised text (all offsets refer to it) and its sections."""
    for d in _corpus(corpus).docs:
        if d.id == doc_id:
            return dumps(article_json(d))
    raise ValueError(f"no article {doc_id!r} in the {corpus} corpus")


def module_hashes() -> str:
    """sha256 of every .py and .json file of the installed raglab package, by "raglab/<path>".

    Compared against the source tree, this tells a stale wheel from a fresh one.
    """
    from hashlib import sha256  # not at the top: the page compiles hashlib from source at each start

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # raglab/, above web/
    out = {}
    for folder, dirs, names in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".json")):
                path = os.path.join(folder, name)
                with open(path, "rb") as fh:
                    digest = sha256(fh.read()).hexdigest()
                out["raglab/" + os.path.relpath(path, package).replace(os.sep, "/")] = digest
    return dumps(out)


# ---------------------------------------------------------------- the semantic model
# The page loads the encoder after start-up (js/semantic.js); these are its Python side.

def load_encoder(header, digest: str, vectors_path: str) -> str:
    """Install the browser's wasm kernel as the encoder (see raglab.encoder.wasm).

    `header` is the model file up to its weights (bytes, or the worker's Uint8Array),
    `digest` the whole file's sha256 as checked against the manifest, `vectors_path` the
    fetched vector store. Pipelines built while the encoder was missing never existed (their
    build raised), so nothing stale needs dropping.
    """
    from raglab.encoder.wasm import install

    data = header.to_bytes() if hasattr(header, "to_bytes") else bytes(header)
    cache = install(data, digest, vectors_path)
    return dumps({"digest": digest, "dim": cache.encoder.dim, "vectors": len(cache.known)})


def add_vectors(path: str) -> str:
    """Add a fetched vector store (the build's evaluation vectors: the sentence chunks and the
    golden questions) to the installed encoder's cache; {"vectors": how many it added}.
    The store must be the installed model's (`vectors.read_store` refuses another's)."""
    from raglab.encoder.vectors import native_cache, read_store

    cache = native_cache()
    records = read_store(path, cache.encoder.digest, cache.encoder.dim)
    added = 0
    for key, vector in records.items():
        if key not in cache.known:
            cache.known[key] = vector
            added += 1
    for loaded in _CORPORA.values():  # chunkers counted as still to encode may be complete now
        loaded.pending.clear()
    return dumps({"vectors": added})


def semantic_retrievers() -> list[str]:
    """The registered retrievers that need the encoder (the page shows them as loading until it is)."""
    return [name for name in RETRIEVERS if name in ENCODER_RETRIEVERS]


def vector_digests(texts) -> str:
    """For each text, the sha256 of its vector's components as float.hex, computed by the
    kernel now (never read from a store): the parity tests compare these across runtimes.
    A vector the process did not know yet is kept in memory, as a question's would be."""
    from raglab.encoder.vectors import native_cache, text_key

    cache = native_cache()
    out = []
    for text in _json_arg(texts, "texts", list, []):
        vector = cache.encoder.encode(text)
        cache.known.setdefault(text_key(text), vector.tobytes())
        out.append(vector_digest(vector))
    return dumps(out)


def encode_passages(config=None, corpus: str = BUNDLED, limit: int = 0) -> str:
    """Encode up to `limit` chunk vectors a semantic configuration still lacks (0: none, just
    count). The worker calls this in small batches for own data, so it can show progress and
    an estimate and stop when the user cancels; {"done", "total"}."""
    from raglab.corpus.chunking import chunk_corpus, index_text
    from raglab.encoder.native import PASSAGE
    from raglab.encoder.vectors import native_cache, text_key

    chunker = parse_config(config).chunker
    loaded = _corpus(corpus)
    if chunker in loaded.encoded:  # the common case (every question asks this): no work
        return dumps({"done": 0, "total": 0})
    cache = native_cache()
    if chunker not in loaded.pending:  # chunked once, not once per batch
        texts = list(dict.fromkeys(PASSAGE + index_text(c) for c in chunk_corpus(loaded.docs, chunker)))
        loaded.pending[chunker] = ([t for t in texts if text_key(t) not in cache.known], len(texts))
    missing, total = loaded.pending[chunker]
    if limit > 0 and missing:
        cache.get(missing[:limit])
        del missing[:limit]
    if not missing:
        loaded.encoded.add(chunker)
    return dumps({"done": total - len(missing), "total": total})
