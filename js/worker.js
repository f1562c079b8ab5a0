// The module Web Worker that runs Python. It starts Pyodide and, while the runtime
// boots, fetches raglab's wheel, the raw corpus files and the golden questions; it
// unpacks the wheel into site-packages (no micropip: the wheel is pure Python with no
// dependencies, so installing it is unzipping it), hands the corpus to
// raglab.web.load_dir, builds the default index, and then answers requests from the
// page. Nothing here computes a result: every answer is the JSON string Python
// returned, passed through untouched.
//
// Messages in:  {id, op, args: [...]}           op is a name in OPS below
// Messages out: {type: "alive"}                   the worker holds its lifetime lock (see below)
//               {type: "stage", stage, detail}   start-up progress (runtime, raglab, corpus, indexing)
//               {type: "bytes", loaded, total}   start-up download progress in bytes
//               {type: "ready", info}            start-up finished; info is raglab.web.info() as JSON text
//               {type: "failed", stage, error}   start-up failed at `stage`
//               {id, type: "result", json}       a request's JSON text
//               {id, type: "error", error}       a request failed: {type, message}
//               {id, type: "progress", done, total, label}
//               {type: "semantic", state, ...}      the semantic model's loading (js/semantic.js)

import { loadPyodide } from "../pyodide/pyodide.mjs";
import { Semantic, chunkersOf, corpusOf, retrieversOf } from "./semantic.js";

const ROOT = new URL("../", import.meta.url); // dist/, wherever it is hosted
let stage = "runtime";
let web = null; // the raglab.web module, as a Pyodide proxy
let FS = null; // Pyodide's file system
let semantic = null; // the semantic model (js/semantic.js), loaded after ready
let info = null; // raglab.web.info() of the bundled corpus, parsed

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
  if (python && last.startsWith(type + ": ")) last = last.slice(type.length + 2);
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
// CLI's own loaders (raglab.web.load_dir). Paths are relative to Python's working
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
  // Everything is requested at once: the runtime, the manifest and, as soon as the
  // manifest names them, the wheel and the data (only local files, relative to ROOT).
  let sitePackages = null;
  const runtime = loadPyodide({
    indexURL: new URL("pyodide/", ROOT).href,
    fsInit: async (_fs, info) => {
      sitePackages = info.sitePackages;
    },
  });
  const manifest = JSON.parse(await fetchText("manifest.json"));
  const total = manifest.download_bytes || 0;
  const report = () => post({ type: "bytes", loaded: Math.min(downloaded(), total), total });
  const ticker = total ? setInterval(report, 250) : null;
  try {
    await boot(manifest, runtime, () => sitePackages);
  } finally {
    if (ticker) {
      clearInterval(ticker);
      report();
    }
  }
}

async function boot(manifest, runtime, sitePackages) {
  const wheel = fetchBytes(manifest.wheel);
  const corpusFiles = Promise.all(manifest.corpus.map(async (path) => [path.split("/").pop(), await fetchBytes(path)]));
  const goldens = manifest.goldens ? fetchBytes(manifest.goldens) : Promise.resolve(null);
  // The build's analysis of the bundled chunks (raglab.prebuilt): a memo that spares
  // tokenizing them again here. Without it start-up is slower, never different.
  const analysis = manifest.analysis ? fetchBytes(manifest.analysis.path) : Promise.resolve(null);
  for (const pending of [wheel, corpusFiles, goldens, analysis]) pending.catch(() => {}); // awaited below
  const pyodide = await runtime;
  setStage("raglab", manifest.wheel);
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages() });
  web = pyodide.pyimport("raglab.web");
  setStage("corpus", `${manifest.corpus.length} articles`);
  FS = pyodide.FS;
  writeFolder(FS, "corpus", Object.fromEntries(await corpusFiles));
  const goldenBytes = await goldens;
  if (goldenBytes) writeFolder(FS, "goldens", { "questions.jsonl": goldenBytes });
  // JavaScript null would arrive as jsnull; undefined arrives as None.
  web.load_dir("bundled", "corpus", goldenBytes ? "goldens/questions.jsonl" : undefined);
  setStage("indexing");
  const analysisBytes = await analysis;
  if (analysisBytes) {
    FS.writeFile("analysis.json", analysisBytes);
    web.use_prebuilt("analysis.json", manifest.analysis.sha256);
    FS.unlink("analysis.json");
  }
  semantic = new Semantic({ pyodide, web, root: ROOT, manifest, post });
  const text = web.info("bundled");
  info = JSON.parse(text);
  // A semantic served default needs the model: the page is ready for lexical
  // configurations at once, and the default's index is built when the model is in.
  if (!info.semantic.includes(info.defaults.retriever)) web.warm("{}");
  post({ type: "ready", info: text, at: performance.now() });
  setTimeout(() => {
    semantic.load().then(() => {
      if (info.semantic.includes(info.defaults.retriever)) web.warm("{}");
    }, () => {});
  }, 0);
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
  // Uploaded files as bytes ({name: Uint8Array}, and {name, bytes} or null), read by the
  // CLI's loaders from <name>/articles/ and <name>/<questions name>.
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
    if (questions && /\.json$/i.test(questions.name)) {
      return web.load_squad(name, `${name}/${questions.name}`, Object.keys(articles).length ? `${name}/articles` : undefined);
    }
    return web.load_dir(name, `${name}/articles`, questions ? `${name}/${questions.name}` : undefined);
  },
  judge: (result, id, corpus = "bundled") => web.judge(JSON.stringify(result), id, corpus),
  moduleHashes: () => web.module_hashes(),
  prebuiltTable: () => web.prebuilt_table(),
  vectorDigests: (texts) => web.vector_digests(JSON.stringify(texts)),
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
const needsEncoder = new Set(["vectorDigests", "encodePassages"]);

let started = false;
const booted = start().then(() => {
  started = true;
}, (err) => {
  post({ type: "failed", stage, error: describe(err, stage) });
  throw err;
});

// Emscripten reports a failed wasm download from a promise of its own, so
// loadPyodide may never settle; an error nobody handled during start-up is a
// failed start-up too (the page then offers a retry).
for (const kind of ["unhandledrejection", "error"]) {
  self.addEventListener(kind, (event) => {
    if (!started) post({ type: "failed", stage, error: describe(event.reason || event.error || event.message, stage) });
  });
}

self.onmessage = async (event) => {
  const { id, op, args = [] } = event.data || {};
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
  const progress = (done, total, label) => post({ id, type: "progress", done, total, label: String(label ?? "") });
  const call = () => (WITH_PROGRESS.has(op) ? handler(progress, ...args) : handler(...args));
  try {
    if (needsSemantic(op, args)) {
      await semanticReady();
      // chunk vectors that did not ship (own data, the sentence chunker) are computed first
      if (op !== "vectorDigests") await encodeMissing(op, args, corpusOf(op, args), progress);
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
};

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
      progress(state.done, state.total, `vectors ${chunker} ${Math.round((rate * (state.total - state.done)) / 1000)}`);
      await new Promise((resolve) => setTimeout(resolve, 0)); // let a cancel message in
    }
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
