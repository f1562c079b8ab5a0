// The semantic model in the worker: loaded after the page is ready, checked, retried.
//
// The build's manifest lists three files under "encoder" (each {path, sha256, bytes}):
// the kernel (.wasm, py/raglab/encoder/kernel.c compiled to wasm32), raglab's model file and the
// bundled corpus's chunk vectors. They are fetched only after start-up finished, so the
// lexical configurations are never held up by them, and each is checked against its
// sha256 before use. Then the kernel gets the model's weights (js/kernel.js), is
// registered with Pyodide as the module `raglab_kernel`, and Python installs it as its
// encoder (raglab.encoder.wasm, through raglab.web.api.load_encoder).
//
// Messages out: {type: "semantic", state: "loading", done, total}   bytes so far
//               {type: "semantic", state: "ready", info, files, at}   files: their sha256
//               {type: "semantic", state: "failed", error: {type, message}}
//               {type: "timing", name: "helper" | "readAhead", ms}   the helper kernel (js/helper.js)
//                    is ready; a question's readings were encoded side by side (Semantic.readAhead)

import { Kernel, KernelError, fetchChecked, instantiateChecked } from "./kernel.js";

const MODEL_HEADER_WEIGHTS_OFFSET = 44; // u32: where the weights start (py/raglab/encoder/kernel.c)
const HELPER_PATIENCE_MS = 10_000; // one reading takes well under a second even on a slow phone

export class Semantic {
  state = "idle"; // idle | loading | ready | failed | absent
  #ready = null;
  #settle = null;
  #kernel = null;
  #helper = null; // a second kernel in its own worker (Helper, below), where there is a second core
  #readings = null; // raglab.web.readings, imported at the first question it serves

  constructor({ pyodide, web, root, manifest, post, prepare = () => {} }) {
    this.pyodide = pyodide;
    this.prepare = prepare; // run once the encoder is in, before "ready" is posted
    this.web = web;
    this.root = root;
    this.entry = manifest.encoder || null;
    this.post = post;
    if (!this.entry) this.state = "absent";
    this.#reset();
  }

  #reset() {
    this.#ready = new Promise((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    this.#ready.catch(() => {});
  }

  /** Resolves when the encoder is installed in Python; rejects with the load's error. */
  whenReady() {
    if (this.state === "absent") return Promise.reject(new KernelError("this build has no semantic model"));
    return this.#ready;
  }

  /** Start (or after a failure, restart) loading. */
  load() {
    if (this.state === "absent" || this.state === "loading" || this.state === "ready") return this.#ready;
    if (this.state === "failed") this.#reset();
    this.state = "loading";
    this.#run().then((info) => {
      this.state = "ready";
      // the files' digests as checked on arrival (the parity tests compare them with a fresh build)
      const files = Object.fromEntries(["kernel", "model", "vectors"].map((k) => [k, this.entry[k].sha256]));
      this.post({ type: "semantic", state: "ready", info, files, at: performance.now() });
      this.#settle.resolve(info);
    }, (err) => {
      this.state = "failed";
      const error = { type: err.name === "KernelError" ? "SemanticLoadError" : err.type || err.name || "Error", message: oneLine(err) };
      this.error = error;
      this.post({ type: "semantic", state: "failed", error });
      this.#settle.reject(err);
    });
    return this.#ready;
  }

  async #run() {
    const { kernel, model, vectors } = this.entry;
    const total = model.bytes + vectors.bytes;
    const seen = { model: 0, vectors: 0 };
    let last = 0;
    const controller = new AbortController(); // one failure stops the other downloads
    const progress = (which) => (done) => {
      if (controller.signal.aborted) return; // a late chunk must not say "loading" after "failed"
      seen[which] = done;
      const now = performance.now();
      const sum = seen.model + seen.vectors;
      if (now - last > 100 || sum === total) {
        last = now;
        this.post({ type: "semantic", state: "loading", done: sum, total });
      }
    };
    this.post({ type: "semantic", state: "loading", done: 0, total });
    const url = (path) => new URL(path, this.root);
    const signal = controller.signal;
    let compiled, modelBytes, vectorBytes;
    try {
      [compiled, modelBytes, vectorBytes] = await Promise.all([
        instantiateChecked(url(kernel.path), kernel, signal),
        fetchChecked(url(model.path), model, progress("model"), signal),
        fetchChecked(url(vectors.path), vectors, progress("vectors"), signal),
      ]);
    } catch (err) {
      controller.abort();
      throw err;
    }
    const k = new Kernel(compiled.instance, modelBytes.length);
    k.init(modelBytes);
    const view = new DataView(modelBytes.buffer, modelBytes.byteOffset, modelBytes.byteLength);
    // Python reads the header and tokenizer sections; the weights stay in the kernel only.
    const header = modelBytes.slice(0, view.getUint32(MODEL_HEADER_WEIGHTS_OFFSET, true));
    this.#kernel = k;
    this.#helper?.stop();
    // The helper starts from a copy of this kernel's state (moved to it, not copied again), so
    // it holds the weights once (about 23 MB) and never sees the model file.
    const helperStarted = performance.now();
    const helperReady = () => this.post({ type: "timing", name: "helper", ms: performance.now() - helperStarted });
    this.#helper = (self.navigator.hardwareConcurrency || 1) > 1 ? new Helper(compiled.module, k.stateBytes(), helperReady) : null;
    this.pyodide.registerJsModule("raglab_kernel", {
      dim: () => k.dim,
      encode: (ids) => withBuffer(ids, "i32", (data) => k.encode(data)),
      dots: (query, many) => withBuffer(query, "f32", (q) => withBuffer(many, "f32", (v) => k.dots(q, v))),
    });
    this.pyodide.FS.mkdirTree("encoder");
    this.pyodide.FS.writeFile("encoder/vectors.bin", vectorBytes);
    const info = this.web.load_encoder(header, model.digest, "encoder/vectors.bin");
    try {
      this.prepare();
    } catch {
      // building an index ahead is only a head start: the question that needs it builds it
    }
    return info;
  }

  /** raglab.web.readings.cached_digests: what the worker's Python holds for each text. */
  cachedDigests(texts) {
    this.#readings ??= this.pyodide.pyimport("raglab.web.readings");
    return this.#readings.cached_digests(JSON.stringify(texts));
  }

  /** Encode the readings of a question that asking it would encode one after the other side
   * by side: the first in this worker's kernel, the others in the helper's, and hand the
   * vectors to Python (raglab.web.readings). Anything that fails here leaves the readings to
   * the ask that follows, which encodes whatever it does not find. */
  async readAhead(question, config, corpus) {
    if (!this.#helper || !this.#helper.ready || this.state !== "ready") return;
    try {
      this.#readings ??= this.pyodide.pyimport("raglab.web.readings");
      const wanted = JSON.parse(this.#readings.query_inputs(question, JSON.stringify(config || {}), corpus));
      if (wanted.ids.length < 2) return; // one reading: nothing to overlap
      const started = performance.now();
      const rest = wanted.ids.slice(1).map((ids) => this.#helper.encode(Int32Array.from(ids)));
      const vectors = [this.#kernel.encode(Int32Array.from(wanted.ids[0])), ...(await Promise.all(rest))];
      const flat = new Float32Array(vectors.length * this.#kernel.dim);
      vectors.forEach((v, i) => flat.set(v, i * this.#kernel.dim));
      this.#readings.remember_vectors(JSON.stringify(wanted.texts), flat);
      // how long the readings took side by side (the browser tests check that the helper served them)
      this.post({ type: "timing", name: "readAhead", ms: performance.now() - started });
    } catch (err) {
      console.warn(`reading ahead: ${err.message}; the question is encoded as it is asked`);
    }
  }
}

/** The second kernel's worker (js/helper.js): encode(ids) resolves to its vector. It is only
 * used once it has said it is ready; if it fails, the main worker's kernel does its work. */
class Helper {
  ready = false;
  #worker;
  #waiting = new Map();
  #next = 0;

  constructor(module, state, onReady) {
    this.#worker = new Worker(new URL("./helper.js", import.meta.url), { type: "module" });
    this.#worker.onmessage = ({ data }) => {
      if ("ready" in data) {
        this.ready = data.ready;
        if (data.ready) onReady();
        else this.stop(data.error);
        return;
      }
      const call = this.#waiting.get(data.id);
      this.#waiting.delete(data.id);
      if (call) data.error ? call.reject(new Error(data.error)) : call.resolve(data.vector);
    };
    this.#worker.onerror = (event) => this.stop(event.message || "the encoder helper failed");
    this.#worker.postMessage({ module, state }, [state.buffer]);
  }

  encode(ids) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ id, ids }, [ids.buffer]);
      // a helper that died without a word must not hold the question: its kernel is given up
      setTimeout(() => this.#waiting.has(id) && this.stop("the encoder helper did not answer"), HELPER_PATIENCE_MS);
    });
  }

  stop(reason = "stopped") {
    this.ready = false;
    this.#worker.terminate();
    for (const call of this.#waiting.values()) call.reject(new Error(reason));
    this.#waiting.clear();
  }
}

/** An error as the one line the page shows: a Python error's last line (its message), never the traceback. */
function oneLine(err) {
  const text = String((err && err.message) || err).trim();
  if (!(err && err.type && text.includes("Traceback"))) return text;
  return (text.split("\n").pop() || "").replace(/^(?:[\w.]+\.)?\w+: /, "");
}

/** Run fn on a Python buffer's contents, read in place as a typed array. */
function withBuffer(proxy, type, fn) {
  const buffer = proxy.getBuffer(type);
  try {
    return fn(buffer.data);
  } finally {
    buffer.release();
  }
}

// Where each op that builds pipelines takes its config (or compare options) and corpus.
const CONFIG_ARG = { ask: 1, askMany: 1, rawScores: 1, warm: 0, encodePassages: 0, compare: 0, compareView: 0 };
const CORPUS_ARG = { ask: 2, askMany: 2, rawScores: 2, warm: 1, encodePassages: 1, compare: 1, compareView: 1 };

/** The config (or compare options) object a request carries, or {}. */
export function configOf(op, args) {
  return (op in CONFIG_ARG && args[CONFIG_ARG[op]]) || {};
}

/** The corpus a request is for. */
export function corpusOf(op, args) {
  return (op in CORPUS_ARG && args[CORPUS_ARG[op]]) || "bundled";
}

/** The retrievers a request will build ([] when it builds none). */
export function retrieversOf(op, args, info) {
  if (!(op in CONFIG_ARG) || op === "encodePassages") return [];
  const given = configOf(op, args).retriever;
  if (op === "compare" || op === "compareView") {
    if (given === undefined || given === null) return info.retrievers;
    return Array.isArray(given) ? given : [given];
  }
  return [given || info.defaults.retriever];
}

/** The chunkers a request will build. */
export function chunkersOf(op, args, info) {
  const given = configOf(op, args).chunker;
  if (given === undefined || given === null) return op.startsWith("compare") ? info.chunkers : [info.defaults.chunker];
  return Array.isArray(given) ? given : [given];
}
