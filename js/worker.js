// The module Web Worker that runs Python. It starts Pyodide from the build's memory snapshot
// (Python with raglab imported and the bundled articles and questions read; build.py
// build_snapshot) and, while the runtime boots, fetches raglab's wheel; it unpacks the wheel
// into site-packages (no micropip: the wheel is pure Python with no dependencies, so
// installing it is unzipping it), builds the default index, and then answers requests from
// the page. Nothing here computes a result: every answer is the JSON string Python
// returned, passed through untouched.
//
// Messages in:  {id, op, args: [...]}           op is a name in OPS below
// Messages out: {type: "alive"}                   the worker holds its lifetime lock (see below)
//               {type: "stage", stage, detail}   start-up progress (runtime, raglab, corpus, indexing)
//               {type: "bytes", loaded, total}   start-up download progress in bytes
//               {type: "ready", info, pyodide}   start-up finished; info is raglab.web.api.info() as JSON text,
//                                                pyodide the runtime's version
//               {type: "failed", stage, error}   start-up failed at `stage`
//               {id, type: "result", json}       a request's JSON text
//               {id, type: "error", error}       a request failed: {type, message}
//               {id, type: "progress", done, total, label, detail}
//                                               detail: what is being done, as data the page words
//                                               ({phase: "vectors" | "encode" | "index" | "questions" | "report", ...})
//               {type: "semantic", state, ...}      the semantic model's loading (js/semantic.js)
//               {type: "timing", name, ms}       how long a step after start-up took (the served default's index)

import { loadPyodide } from "../pyodide/pyodide.mjs";
import { Semantic, chunkersOf, corpusOf, retrieversOf } from "./semantic.js";
import { fetchChecked, sha256Hex } from "./kernel.js";

const ROOT = new URL("../", import.meta.url); // dist/, wherever it is hosted
let stage = "runtime";
let web = null; // the raglab.web.api module, as a Pyodide proxy
let FS = null; // Pyodide's file system
let semantic = null; // the semantic model (js/semantic.js), loaded after ready
let info = null; // raglab.web.api.info() of the bundled corpus, parsed
let manifest = null; // the build's manifest.json, parsed

function post(message) {
  self.postMessage(message);
}

// Held until this worker ends, however it ends (closed, crashed, killed): the page
// waits for the same lock and so learns of a worker that died (see client.js).
if (self.name && self.navigator.locks) {
  self.navigator.locks.request(self.name, () => {
    post({ type: "alive" });
    return new Promise(() => {});
  });
}

function setStage(name, detail = "") {
  stage = name;
  post({ type: "stage", stage: name, detail, at: performance.now() });
}

// What a failure says to the user: a sentence (what failed, what to do) in `message`,
// and the technical text (the Python exception and the end of its traceback, or the
// browser's own message) in `details`, which the page shows behind a "details" toggle.
// Python errors of these classes are raglab's own messages, written for users (they
// name the file, line, question or field to fix); anything else is a fault, not input.
const USER_ERRORS = new Set(["ValueError", "CorpusError", "GoldenError", "UsageError"]);
const STAGE_ADVICE = {
  runtime: "The Python runtime could not be loaded. Check the connection and reload the page.",
  raglab: "raglab's Python package could not be installed. Reload the page; if it keeps failing, the site needs rebuilding.",
  corpus: "The help-centre articles could not be read. Reload the page; if it keeps failing, the site needs rebuilding.",
  indexing: "The search index could not be built. Reload the page; if it keeps failing, please report it.",
};

function describe(err, when = null) {
  const python = err && err.type && typeof err.message === "string";
  const type = python ? err.type : (err && err.name) || "Error";
  let technical = python ? err.message.trim() : String((err && err.message) || err);
  let last = technical.split("\n").pop() || "";
  // Python names a raglab exception by its module too ("raglab.corpus.articles.CorpusError: ...")
  if (python) last = last.replace(new RegExp(`^(?:[\\w.]+\\.)?${type}: `), "");
  if (python) technical = technical.split("\n").slice(-12).join("\n"); // the end of the traceback
  if (python && USER_ERRORS.has(type)) return { type, message: last, details: technical };
  if (!python && err && err.forUser) return { type, message: technical }; // the worker's own sentences (semantic model)
  const message = when ? STAGE_ADVICE[when] || STAGE_ADVICE.indexing
    : "Something went wrong inside Python while doing this; nothing was changed. Try again, or reload the page if it happens again.";
  return { type, message, details: python ? technical : `${type}: ${technical}`, internal: true };
}

async function fetchText(path) {
  const response = await fetch(new URL(path, ROOT), { cache: "no-cache" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.text();
}

async function fetchBytes(path) {
  const response = await fetch(new URL(path, ROOT), { cache: "no-cache" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// Files go into Pyodide's in-memory file system, where Python reads them with the
// CLI's own loaders (raglab.web.api.load_dir). Paths are relative to Python's working
// directory, so error messages read like the CLI's: "corpus/x.md:3: ...".
function checkName(name) {
  if (!name || name === "." || name === ".." || /[\/\0]/.test(name)) {
    throw new Error(`${JSON.stringify(name)}: a file name cannot be empty, "." or "..", or contain "/"`);
  }
}

function removeTree(FS, path) {
  if (!FS.analyzePath(path).exists) return;
  if (FS.isDir(FS.stat(path).mode)) {
    for (const name of FS.readdir(path)) if (name !== "." && name !== "..") removeTree(FS, `${path}/${name}`);
    FS.rmdir(path);
  } else {
    FS.unlink(path);
  }
}

/** Replace `folder` with exactly `files` ({name: Uint8Array}); return the folder. */
function writeFolder(FS, folder, files) {
  removeTree(FS, folder);
  FS.mkdirTree(folder);
  for (const [name, bytes] of Object.entries(files)) {
    checkName(name);
    FS.writeFile(`${folder}/${name}`, bytes);
  }
  return folder;
}

// Bytes downloaded so far, from the worker's own resource timings (every file it
// fetched, whole), against the first-visit total build.py wrote into the manifest.
function downloaded() {
  let bytes = 0;
  for (const entry of self.performance.getEntriesByType("resource")) bytes += entry.decodedBodySize || 0;
  return bytes;
}

async function start() {
  setStage("runtime");
  // The runtime and the manifest are requested at once, then the wheel; the data once the
  // runtime is up (boot). Only local files, relative to ROOT.
  let sitePackages = null;
  const indexURL = new URL("pyodide/", ROOT).href;
  const watch = watchFetches(indexURL);
  const manifestText = fetchText("manifest.json");
  manifestText.catch(() => {}); // awaited below
  const snapshot = manifestText.then((text) => snapshotBytes(parseManifest(text).snapshot));
  snapshot.catch(() => {}); // a damaged manifest is named below; the runtime may ask for this later
  const loaded = loadPyodide({
    indexURL,
    // Python's memory as the build left it, raglab imported and the bundled corpus read
    // (build.py build_snapshot): restoring it replaces the interpreter's own start and all that
    _loadSnapshot: snapshot,
    fsInit: async (_fs, info) => {
      sitePackages = info.sitePackages;
    },
  });
  const runtime = Promise.race([loaded, watch.failed]).finally(watch.stop);
  runtime.catch(() => {}); // awaited in boot
  manifest = parseManifest(await manifestText);
  const total = manifest.download_bytes || 0;
  const report = () => post({ type: "bytes", loaded: Math.min(downloaded(), total), total });
  // At once (the page shows the size before the first file is in), as each file completes,
  // and every 250 ms for the large ones still coming; a timer alone may be throttled.
  const ticker = total ? setInterval(report, 250) : null;
  const files = total && typeof PerformanceObserver === "function" ? new PerformanceObserver(report) : null;
  if (total) report();
  if (files) files.observe({ type: "resource" });
  try {
    await boot(manifest, runtime, () => sitePackages);
  } finally {
    if (files) files.disconnect();
    if (ticker) {
      clearInterval(ticker);
      report();
    }
  }
}

/** Emscripten reports a failed download of the runtime's own files (the .wasm, the
 * standard library) from a promise nobody awaits, so loadPyodide may never settle, and
 * whether an unhandled rejection reaches the worker depends on the browser's build. The
 * worker watches those downloads itself: `failed` rejects at the first one that fails. */
function watchFetches(prefix) {
  const plain = self.fetch;
  let fail;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  self.fetch = async (input, init) => {
    const url = String(input && input.url ? input.url : input);
    const ours = url.startsWith(prefix);
    const file = url.slice(prefix.length).split("?")[0];
    let response;
    try {
      response = await plain.call(self, input, init);
    } catch (err) {
      if (ours) fail(new Error(`pyodide/${file} could not be downloaded (${err.message})`));
      throw err;
    }
    if (ours && !response.ok) fail(new Error(`pyodide/${file}: HTTP ${response.status}`));
    return response;
  };
  return { failed, stop: () => { self.fetch = plain; } };
}

/** The manifest, or a one-line error for the page when it is cut short or altered. */
function parseManifest(text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw userError(`manifest.json is not valid JSON (${err.message}); the deployment is incomplete or damaged: `
      + "reload the page, or rebuild the site with python3 build.py build");
  }
}

function userError(message) {
  const err = new Error(message);
  err.forUser = true; // describe() shows it as it is
  return err;
}

// The snapshot's bytes go to the runtime as soon as they are in; their digest is worked out
// meanwhile and checked before Python is used (boot).
let snapshotChecked = null;
let snapshotBuffer = null; // released once restored (boot): Pyodide keeps its options, promise included

async function snapshotBytes(entry) {
  if (!entry) throw userError("manifest.json lists no Python snapshot; rebuild the site with python3 build.py build");
  const response = await fetch(new URL(entry.path, ROOT), { cache: "no-cache" });
  if (!response.ok) throw new Error(`${entry.path}: HTTP ${response.status}`);
  let bytes;
  try { // the file is gzip, inflated here as it arrives (hosts need not know its type)
    const inflated = response.body.pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(inflated).arrayBuffer());
  } catch (err) {
    throw userError(`${entry.path} is damaged (${err.message}) and does not match the manifest; `
      + "reload the page, or rebuild the site");
  }
  snapshotBuffer = bytes.buffer;
  snapshotChecked = sha256Hex(bytes).then((got) => {
    if (got !== entry.sha256 || bytes.length !== entry.bytes) {
      throw userError(`${entry.path}: sha256 ${got.slice(0, 12)}… (${bytes.length} bytes) does not match the `
        + `manifest's ${entry.sha256.slice(0, 12)}… (${entry.bytes}); reload the page, or rebuild the site`);
    }
  });
  snapshotChecked.catch(() => {}); // awaited in boot
  return bytes;
}

/** The wheel's bytes, checked against the manifest like every other file. */
async function checkedWheel(bytes) {
  const expected = manifest.wheel_sha256;
  const got = await sha256Hex(bytes);
  if (!expected || got !== expected) {
    throw userError(`${manifest.wheel}: sha256 ${got.slice(0, 12)}… does not match the manifest's `
      + `${expected ? expected.slice(0, 12) + "…" : "(none)"}; reload the page, or rebuild the site`);
  }
  return bytes;
}

async function boot(manifest, runtime, sitePackages) {
  const wheel = fetchBytes(manifest.wheel);
  wheel.catch(() => {}); // awaited below
  let pyodide;
  try {
    pyodide = await runtime;
  } finally {
    await snapshotChecked; // a damaged snapshot is named as such, even when it broke the runtime's start
  }
  snapshotBuffer?.transfer?.(0); // the runtime's memory holds it now; the 31 MB copy goes
  snapshotBuffer = null;
  setStage("raglab", manifest.wheel);
  // The snapshot's Python has raglab imported, but its files are not in the new file system:
  // the modules imported later and the data tables are read from them.
  pyodide.unpackArchive(await checkedWheel(await wheel), "wheel", { extractDir: sitePackages() });
  web = pyodide.pyimport("raglab.web.api");
  // The bundled articles and questions were read into the snapshot when the site was built
  // (build.py build_snapshot), by the same call the worker made here from the same files.
  setStage("corpus", `${manifest.corpus.length} articles`);
  FS = pyodide.FS;
  setStage("indexing");
  // A semantic served default's index is built once the model is in and before the model is
  // announced ready, so that the first answer's reported time is the answer's own (the page
  // waits for "ready"); it uses the build's analysis and counts, fetched meanwhile (they are
  // small and arrive long before the model), and is only ever a head start.
  const prepare = () => {
    if (!info.semantic.includes(info.defaults.retriever)) return;
    const started = performance.now();
    web.warm("{}");
    // the served default can answer now: how long its index took (bench/browser_timings.py reports it)
    post({ type: "timing", name: "defaultIndex", ms: performance.now() - started });
    readAheadWhenIdle();
  };
  semantic = new Semantic({ pyodide, web, root: ROOT, manifest, post, prepare });
  let text = web.info("bundled");
  info = JSON.parse(text);
  // A semantic served default needs the model: the page is ready for lexical configurations
  // at once, and the default's index is built when the model is in.
  const semanticDefault = info.semantic.includes(info.defaults.retriever);
  if (!semanticDefault) {
    await installPrebuilt();
    web.warm("{}");
    text = web.info("bundled");
  }
  post({ type: "ready", info: text, pyodide: pyodide.version, at: performance.now() });
  if (semantic.state === "absent") post({ type: "semantic", state: "absent" }); // not "0 / 0 MB" forever
  setTimeout(() => {
    if (semanticDefault) {
      installPrebuilt();
      semantic.load().catch(() => {});
    }
    // What the first answer needs and ready did not (the answerer's modules), imported while
    // the downloads above run, so that neither ready nor the first question waits for it.
    try {
      web.preload();
    } catch (err) {
      console.warn(`preload: ${err.message}; the first question imports these instead`);
    }
  }, 0);
}

// While no request is being handled, the served default's answerer reads its chunks ahead
// (raglab.web.idle), a few milliseconds at a time, so that the first questions pay only for
// what they ask; a request that arrives waits for one slice at most.
let busy = 0; // requests being handled (onmessage)
const READ_AHEAD_SLICE_MS = 4;

function readAheadWhenIdle() {
  let spent = 0;
  const step = () => {
    if (busy) {
      setTimeout(step, 50);
      return;
    }
    try {
      const started = performance.now();
      const done = JSON.parse(web.read_ahead(READ_AHEAD_SLICE_MS)).done;
      spent += performance.now() - started;
      if (done) {
        post({ type: "timing", name: "answersRead", ms: spent }); // the worker's time it took
        return;
      }
    } catch (err) {
      console.warn(`reading ahead: ${err.message}; questions read their chunks as they come`);
      return;
    }
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}

// The build's analysis and index counts of the served chunks (raglab.retrieval.prebuilt): a memo
// that spares tokenizing and counting them here. Without it the index takes longer, never differs.
let prebuiltInstalled = null;

function installPrebuilt() {
  if (!manifest.analysis) return Promise.resolve();
  prebuiltInstalled ??= fetchBytes(manifest.analysis.path).then((bytes) => {
    FS.writeFile("analysis.json", bytes);
    try {
      web.use_prebuilt("analysis.json", manifest.analysis.sha256);
    } finally {
      FS.unlink("analysis.json");
    }
  }).catch((err) => console.warn(`prebuilt analysis not used: ${err.message}`));
  return prebuiltInstalled;
}

// Each op takes the page's arguments (strings, numbers, plain objects) and returns
// the JSON text Python produced. Configs and lists cross as JSON text.
const OPS = {
  info: (corpus = "bundled") => web.info(corpus),
  summary: (corpus = "bundled") => web.summary(corpus),
  ask: (question, config = {}, corpus = "bundled") => web.ask(question, JSON.stringify(config || {}), corpus),
  askMany: (questions, config = {}, corpus = "bundled") =>
    web.ask_many(JSON.stringify(questions), JSON.stringify(config || {}), corpus),
  rawScores: (questions, config = {}, corpus = "bundled") =>
    web.raw_scores(JSON.stringify(questions), JSON.stringify(config || {}), corpus),
  analyze: (text) => web.analyze_text(text),
  analyzeMany: (texts) => web.analyze_many(JSON.stringify(texts)),
  article: (docId, corpus = "bundled") => web.article(docId, corpus),
  warm: (config = {}, corpus = "bundled") => web.warm(JSON.stringify(config || {}), corpus),
  load: (name, files, goldens = null, goldensName = "questions.jsonl") =>
    web.load(name, JSON.stringify(files), goldens ?? undefined, goldensName),
  // Uploaded files as bytes ({name: Uint8Array}, and {name, bytes, shown} or null), read by the
  // CLI's loaders from <name>/articles/ and <name>/<questions name>; errors name the files as
  // the user chose them (`shown`: e.g. "pasted questions" for text pasted into the page).
  loadFiles: (name, articles, questions = null) => {
    checkName(name);
    if (["bundled", "corpus", "goldens"].includes(name)) throw new Error(`${name}: this corpus name is the bundled one's`);
    writeFolder(FS, name, {});
    writeFolder(FS, `${name}/articles`, articles);
    if (questions) {
      checkName(questions.name);
      FS.writeFile(`${name}/${questions.name}`, questions.bytes);
    }
    // A .json questions file is SQuAD 1.1/2.0, read by the importer `raglab import squad` uses.
    const shown = questions ? questions.shown || questions.name : "";
    if (questions && /\.json$/i.test(questions.name)) {
      return web.load_squad(name, `${name}/${questions.name}`, Object.keys(articles).length ? `${name}/articles` : undefined,
        shown);
    }
    return web.load_dir(name, `${name}/articles`, questions ? `${name}/${questions.name}` : undefined, shown);
  },
  judge: (result, id, corpus = "bundled") => web.judge(JSON.stringify(result), id, corpus),
  moduleHashes: () => web.module_hashes(),
  prebuiltTable: () => web.prebuilt_table(),
  vectorDigests: (texts) => web.vector_digests(JSON.stringify(texts)),
  cachedDigests: (texts) => semantic.cachedDigests(texts),
  // (the vectors themselves are computed by encodeMissing before this runs)
  encodePassages: (config = {}, corpus = "bundled") => web.encode_passages(JSON.stringify(config || {}), corpus, 0),
  cancelEncoding: () => {
    encodingCancelled = true;
    return "true";
  },
  retrySemantic: () => {
    semantic.load();
    return JSON.stringify({ state: semantic.state });
  },
  // These two report progress: `progress` posts {done, total, label} for the call.
  compare: (progress, options = {}, corpus = "bundled") => web.compare(JSON.stringify(options || {}), progress, corpus),
  compareView: (progress, options = {}, corpus = "bundled") =>
    web.compare_view(JSON.stringify(options || {}), progress, corpus),
};
const WITH_PROGRESS = new Set(["compare", "compareView"]);
const needsEncoder = new Set(["vectorDigests", "cachedDigests", "encodePassages"]);

let started = false;
const booted = start().then(() => {
  started = true;
}, (err) => {
  post({ type: "failed", stage, error: describe(err, stage) });
  throw err;
});
booted.catch(() => {}); // reported above; each later request awaits `booted` and answers with the failure

// Emscripten reports a failed wasm download from a promise of its own, so
// loadPyodide may never settle; an error nobody handled during start-up is a
// failed start-up too (the page then offers a retry).
for (const kind of ["unhandledrejection", "error"]) {
  self.addEventListener(kind, (event) => {
    if (!started) post({ type: "failed", stage, error: describe(event.reason || event.error || event.message, stage) });
  });
}

self.onmessage = async (event) => {
  busy += 1;
  try {
    await handle(event.data || {});
  } finally {
    busy -= 1;
  }
};

async function handle({ id, op, args = [] }) {
  try {
    await booted;
  } catch {
    post({ id, type: "error", error: { type: "StartupError", message: `Python did not start (failed at ${stage})` } });
    return;
  }
  const handler = Object.prototype.hasOwnProperty.call(OPS, op) ? OPS[op] : null;
  if (!handler) {
    post({ id, type: "error", error: { type: "ValueError", message: `unknown operation ${JSON.stringify(op)}` } });
    return;
  }
  // Python passes its detail as JSON text (raglab.web.compare.progress_detail); the worker's own steps pass objects.
  const progress = (done, total, label, detail = null) => post({
    id, type: "progress", done, total, label: String(label ?? ""),
    detail: typeof detail === "string" ? JSON.parse(detail) : detail,
  });
  const call = () => (WITH_PROGRESS.has(op) ? handler(progress, ...args) : handler(...args));
  try {
    if (needsSemantic(op, args)) {
      await semanticReady();
      if (op !== "vectorDigests") {
        // the evaluation's vectors (the sentence chunks, the golden questions) are fetched the
        // first time they are needed; chunk vectors that did not ship (own data) are computed
        await evaluationVectors(op, args, progress);
        await encodeMissing(op, args, corpusOf(op, args), progress);
        // a question read twice (bilingual) has its two readings encoded side by side
        if (op === "ask") await semantic.readAhead(args[0], args[1], corpusOf(op, args));
      }
    }
    let json;
    try {
      json = call();
    } catch (err) {
      // a configuration needed the encoder after all: wait for it and ask again, never
      // letting another configuration answer instead
      if (!err || err.type !== "EncoderLoading") throw err;
      await semanticReady();
      json = call();
    }
    post({ id, type: "result", json });
  } catch (err) {
    post({ id, type: "error", error: describe(err) });
  }
}

// --- the semantic model: requests that need it wait for it (js/semantic.js) ----------

function needsSemantic(op, args) {
  if (needsEncoder.has(op)) return true;
  return !!info && retrieversOf(op, args, info).some((name) => info.semantic.includes(name));
}

// Chunk vectors that were not shipped (own data; the bundled corpus's sentence chunks) are
// computed here, a few chunks per Python call,
// so progress reaches the page and a cancelEncoding message gets in between batches.
let encodingCancelled = false;
const ENCODE_BATCH = 4;

async function encodeMissing(op, args, corpus, progress) {
  encodingCancelled = false;
  for (const chunker of chunkersOf(op, args, info)) {
    const config = JSON.stringify({ chunker });
    const started = performance.now();
    let state = JSON.parse(web.encode_passages(config, corpus, 0));
    const first = state.done;
    while (state.done < state.total) {
      if (encodingCancelled) {
        const error = new Error(`computing the chunk vectors was cancelled (${state.done} of ${state.total} done; they are kept)`);
        error.name = "Cancelled";
        error.forUser = true;
        throw error;
      }
      state = JSON.parse(web.encode_passages(config, corpus, ENCODE_BATCH));
      const rate = (performance.now() - started) / Math.max(1, state.done - first);
      const left = Math.round((rate * (state.total - state.done)) / 1000);
      progress(state.done, state.total, `vectors ${chunker} ${left}`,
        { phase: "encode", chunker, done: state.done, total: state.total, left });
      await new Promise((resolve) => setTimeout(resolve, 0)); // let a cancel message in
    }
  }
}

// The build's second vector store (manifest encoder.evaluation): the bundled corpus's chunks of
// the chunkers whose vectors do not load with the model (the sentence chunker's ~1,600) and the
// golden questions. Fetched and checked once, when an evaluation of the bundled corpus or a
// semantic configuration over those chunkers first needs it; if it cannot be had, the chunks
// are encoded here instead (encodeMissing: minutes, with progress), never answered otherwise.
let evaluationLoaded = null; // a promise once the store is being fetched

async function evaluationVectors(op, args, progress) {
  const entry = manifest && manifest.encoder && manifest.encoder.evaluation;
  if (!entry || corpusOf(op, args) !== "bundled") return;
  const needed = op.startsWith("compare") || chunkersOf(op, args, info).some((c) => entry.chunkers.includes(c));
  if (!needed) return;
  if (!evaluationLoaded) {
    progress(0, entry.bytes, "evaluation vectors", { phase: "vectors", done: 0, total: entry.bytes });
    evaluationLoaded = (async () => {
      const bytes = await fetchChecked(new URL(entry.path, ROOT), entry, (done, total) =>
        progress(done, total, "evaluation vectors", { phase: "vectors", done, total }));
      FS.writeFile("evaluation-vectors.bin", bytes);
      try {
        return JSON.parse(web.add_vectors("evaluation-vectors.bin"));
      } finally {
        FS.unlink("evaluation-vectors.bin");
      }
    })();
    evaluationLoaded.catch(() => {
      evaluationLoaded = null; // the next request tries again; this one encodes what it needs
    });
  }
  try {
    await evaluationLoaded;
  } catch (err) {
    console.warn(`evaluation vectors: ${err.message}; the chunks are encoded here instead`);
  }
}

async function semanticReady() {
  if (semantic.state === "idle") semantic.load();
  try {
    await semantic.whenReady();
  } catch (err) {
    const reason = semantic.error ? semantic.error.message : String(err.message || err);
    const error = new Error(`the semantic model did not load (${reason}); press Retry, or pick a lexical retriever`);
    error.name = "SemanticUnavailable";
    error.forUser = true;
    throw error;
  }
}
