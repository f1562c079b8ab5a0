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

import { Kernel, KernelError, fetchChecked, instantiateChecked } from "./kernel.js";

const MODEL_HEADER_WEIGHTS_OFFSET = 44; // u32: where the weights start (py/raglab/encoder/kernel.c)

export class Semantic {
  state = "idle"; // idle | loading | ready | failed | absent
  #ready = null;
  #settle = null;
  #kernel = null;

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
    let instance, modelBytes, vectorBytes;
    try {
      [instance, modelBytes, vectorBytes] = await Promise.all([
        instantiateChecked(url(kernel.path), kernel, signal),
        fetchChecked(url(model.path), model, progress("model"), signal),
        fetchChecked(url(vectors.path), vectors, progress("vectors"), signal),
      ]);
    } catch (err) {
      controller.abort();
      throw err;
    }
    const k = new Kernel(instance, modelBytes.length);
    k.init(modelBytes);
    const view = new DataView(modelBytes.buffer, modelBytes.byteOffset, modelBytes.byteLength);
    // Python reads the header and tokenizer sections; the weights stay in the kernel only.
    const header = modelBytes.slice(0, view.getUint32(MODEL_HEADER_WEIGHTS_OFFSET, true));
    this.#kernel = k;
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
