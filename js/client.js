// The page's handle on the Python worker, and the documented JS API `window.raglab`.
//
// Every method returns a promise of the same JSON the CLI prints with --json,
// parsed; `raw` returns the JSON text itself, byte for byte as Python made it.
// Calls made before start-up finishes wait for it. Calls are answered in order.
//
//   await raglab.ready                          // info: defaults, chunkers, retrievers, examples, ...
//   await raglab.ask("What is the cash out fee?", {retriever: "bm25", k: 5})
//                                               // == raglab ask --json --retriever bm25 -k 5 "..."
//   await raglab.askMany(["q1", "q2"], config)  // [== line 1, == line 2] of raglab ask --questions FILE
//   await raglab.analyze("২৫,০০০ টাকা")          // == raglab analyze --json "..."
//   await raglab.compare({split: "test"}, ({done, total, label, detail}) => ...)
//                                               // == raglab compare --format json --split test
//   await raglab.moduleHashes()                 // {"raglab/text/analyzer.py": "<sha256>", ...} inside Pyodide
//   await raglab.article("en-cash-out")         // {id, lang, title, text, sections}
//   await raglab.semanticReady()                // the semantic model loaded (it loads after ready;
//                                               // "semantic" events report {state, done, total})
//   await raglab.raw("askMany", ["q1"], {})     // the JSON text, for byte-for-byte comparisons
//
// A config is an object with any of {chunker, retriever, k, expand, threshold};
// missing fields take the served defaults (raglab's Config). An optional last
// argument {corpus: "user"} targets the articles loaded in the Your-own-data tab;
// for that corpus a missing threshold is the one its last evaluation tuned on its
// dev questions, when it had any (raglab.web.api.compare_view records it).
// Errors reject with an Error whose `type` is the Python exception's class name
// and whose message says what to fix.
//
// One worker runs one call at a time, so a question asked during an evaluation
// waits for it: `raglab.running` is {op, done, total, label, detail} while an evaluation
// runs (a "busy" event fires on every change), and `raglab.cancel()` stops it by
// restarting the worker (Python cannot be interrupted mid-call without
// cross-origin isolation); loaded corpora are loaded again and every other
// waiting call is sent again, so a waiting question is still answered.

const WORKER_URL = new URL("./worker.js", import.meta.url);
export const STAGES = ["runtime", "raglab", "corpus", "indexing"];
const LONG_OPS = new Set(["compare", "compareView"]); // the calls cancel() stops
const LOAD_OPS = new Set(["load", "loadFiles"]); // replayed after a restart, in order

/**
 * The worker is started from a one-line blob module that imports worker.js. A worker
 * whose script is a same-origin URL runs under the policy of that script's response
 * headers, and static hosts such as GitHub Pages send no CSP header, so the worker
 * would run under no policy at all; a worker from a blob: URL inherits the page's
 * policy (the <meta> tag), so there too it may only fetch, import and compile what the
 * page may. The page's CSP allows blob: for workers only (`worker-src 'self' blob:`).
 */
function workerBootstrap() {
  const source = `import ${JSON.stringify(WORKER_URL.href)};\n`;
  return URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
}

export class RaglabError extends Error {
  /** `message` is for the user; `details` the technical text (exception, traceback end). */
  constructor({ type, message, details = "", internal = false }) {
    super(message);
    this.name = "RaglabError";
    this.type = type;
    this.details = details;
    this.internal = internal;
  }
}

export class Raglab extends EventTarget {
  #worker = null;
  #pending = new Map();
  #nextId = 1;
  #ready = null;
  #resolveReady = null;
  #rejectReady = null;
  #stopWatching = () => {};
  #loads = new Map(); // corpus name -> {op, args} of its last load, replayed after a restart

  constructor() {
    super();
    this.timings = {};
    this.state = "starting"; // starting | ready | failed
    this.running = null; // {id, op, done, total, label} while an evaluation runs
    this.restarts = 0;
    this.start();
  }

  /** A promise of `info` (the parsed raglab.web.api.info JSON) once Python is ready. */
  get ready() {
    return this.#ready;
  }

  /** Start (or, after a failure, restart) the worker. Pending calls are rejected unless `keep`,
   * when they are sent again (after the loaded corpora) to the new worker. */
  start({ keep = false } = {}) {
    this.#stopWatching();
    if (this.#worker) {
      this.#worker.terminate();
      this.restarts += 1;
    }
    if (!keep) {
      for (const { reject } of this.#pending.values()) {
        reject(new RaglabError({ type: "Restarted", message: "the Python worker was restarted" }));
      }
      this.#pending.clear();
      this.#loads.clear();
    }
    this.#setRunning(null);
    this.state = "starting";
    this.info = null;
    this.semantic = { state: "idle" }; // the semantic model: idle | loading | ready | failed
    this.timings = { start: performance.now(), stages: {} };
    this.#ready = new Promise((resolve, reject) => {
      this.#resolveReady = resolve;
      this.#rejectReady = reject;
    });
    this.#ready.catch(() => {}); // failures are reported through the "failed" event too
    // The name doubles as the worker's lifetime lock (Web Locks): see #watch.
    const lock = `raglab-python-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const bootstrap = workerBootstrap();
    const worker = new Worker(bootstrap, { type: "module", name: lock });
    worker.onmessage = (event) => {
      URL.revokeObjectURL(bootstrap); // the worker has loaded it
      if (event.data && event.data.type === "alive") this.#watch(worker, lock);
      else this.#receive(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const where = event.filename ? ` (${event.filename.split("/").pop()}:${event.lineno})` : "";
      this.#fail("runtime", { type: "WorkerError", message: (event.message || "the worker script could not be loaded") + where });
    };
    this.#worker = worker;
    this.dispatchEvent(new CustomEvent("stage", { detail: { stage: "start", detail: "" } }));
    if (keep) {
      // The new worker queues these until it has started: first the corpora, then the waiting calls.
      for (const { op, args } of this.#loads.values()) worker.postMessage({ id: 0, op, args });
      for (const [id, call] of this.#pending) {
        if (LONG_OPS.has(call.op)) this.#setRunning({ id, op: call.op, done: 0, total: 1, label: "" });
        worker.postMessage({ id, op: call.op, args: call.args });
      }
    }
  }

  #setRunning(running) {
    this.running = running;
    this.dispatchEvent(new CustomEvent("busy", { detail: running }));
  }

  /** Stop the running evaluation (it rejects with type "Cancelled"); other calls still get answers. */
  cancel() {
    const running = [...this.#pending].filter(([, call]) => LONG_OPS.has(call.op));
    if (!running.length) return false;
    for (const [id, call] of running) {
      this.#pending.delete(id);
      call.reject(new RaglabError({ type: "Cancelled", message: "the evaluation was cancelled" }));
    }
    this.start({ keep: true });
    return true;
  }

  /**
   * A worker that stops (it closed itself, crashed or was killed by the browser)
   * sends nothing more, and calls would wait forever. The worker holds a Web Lock
   * named after it for its whole life; asking for the same lock here is granted
   * exactly when the worker is gone, and then the page reports it and offers Retry.
   * (No heartbeat: a long evaluation keeps the worker busy for minutes, legitimately.)
   */
  #watch(worker, lock) {
    if (!navigator.locks) return;
    const controller = new AbortController();
    this.#stopWatching = () => controller.abort();
    navigator.locks.request(lock, { signal: controller.signal }, () => {
      if (this.#worker === worker) {
        this.#fail("worker", { type: "WorkerStopped", message: "its worker ended (it crashed or the browser stopped it)" });
      }
    }).catch(() => {}); // aborted by a restart
  }

  #fail(stage, error) {
    if (this.state === "failed") return;
    this.state = "failed";
    this.failure = { stage, ...error };
    this.#rejectReady(new RaglabError(error));
    for (const { reject } of this.#pending.values()) reject(new RaglabError(error));
    this.#pending.clear();
    this.#setRunning(null);
    this.dispatchEvent(new CustomEvent("failed", { detail: this.failure }));
  }

  #receive(message) {
    if (message.type === "stage") {
      this.timings.stages[message.stage] = performance.now() - this.timings.start;
      this.dispatchEvent(new CustomEvent("stage", { detail: message }));
    } else if (message.type === "bytes") {
      this.download = { loaded: message.loaded, total: message.total };
      this.dispatchEvent(new CustomEvent("bytes", { detail: this.download }));
    } else if (message.type === "ready") {
      this.timings.ready = performance.now() - this.timings.start;
      this.info = JSON.parse(message.info);
      this.runtime = { pyodide: message.pyodide };
      this.state = "ready";
      this.#resolveReady(this.info);
      this.dispatchEvent(new CustomEvent("ready", { detail: this.info }));
    } else if (message.type === "failed") {
      this.#fail(message.stage, message.error);
    } else if (message.type === "timing") {
      // e.g. defaultIndex: the served default's index took `ms`; it could answer at `defaultIndexAt`
      this.timings[message.name] = message.ms;
      this.timings[`${message.name}At`] = performance.now() - this.timings.start;
    } else if (message.type === "semantic") {
      if (message.state === "ready") this.timings.semanticReady = performance.now() - this.timings.start;
      this.semantic = message;
      this.dispatchEvent(new CustomEvent("semantic", { detail: message }));
    } else {
      const call = this.#pending.get(message.id);
      if (!call) return;
      if (message.type === "progress") {
        const { done, total, label, detail = null } = message;
        this.#setRunning({ id: message.id, op: call.op, done, total, label, detail });
        if (call.onProgress) call.onProgress({ done, total, label, detail });
        return;
      }
      this.#pending.delete(message.id);
      if (this.running && this.running.id === message.id) this.#setRunning(null);
      if (message.type === "result") call.resolve(message.json);
      else call.reject(new RaglabError(message.error));
    }
  }

  /** Send one operation to the worker; resolves to the JSON text Python returned. */
  raw(op, ...args) {
    return this.#call(op, args, null);
  }

  #call(op, args, onProgress) {
    if (this.state === "failed") return Promise.reject(new RaglabError(this.failure));
    const id = this.#nextId++;
    if (LOAD_OPS.has(op)) this.#loads.set(args[0], { op, args });
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress, op, args });
      if (LONG_OPS.has(op)) this.#setRunning({ id, op, done: 0, total: 1, label: "" });
      this.#worker.postMessage({ id, op, args });
    });
  }

  async #json(op, args, onProgress = null) {
    return JSON.parse(await this.#call(op, args, onProgress));
  }

  ask(question, config = {}, { corpus = "bundled" } = {}) {
    return this.#json("ask", [question, config, corpus]);
  }

  askMany(questions, config = {}, { corpus = "bundled" } = {}) {
    return this.#json("askMany", [questions, config, corpus]);
  }

  analyze(text) {
    return this.#json("analyze", [text]);
  }

  article(docId, { corpus = "bundled" } = {}) {
    return this.#json("article", [docId, corpus]);
  }

  compare(options = {}, onProgress = null, { corpus = "bundled" } = {}) {
    return this.#json("compare", [options, corpus], onProgress);
  }

  /** What the Evaluate tab draws: {report, sections, text, questions} (see raglab.web.api.compare_view). */
  compareView(options = {}, onProgress = null, { corpus = "bundled" } = {}) {
    return this.#json("compareView", [options, corpus], onProgress);
  }

  /** The review verdict of an ask result for golden question `id`: {id, verdict, reference}. */
  judge(result, id, { corpus = "bundled" } = {}) {
    return this.#json("judge", [result, id, corpus]);
  }

  moduleHashes() {
    return this.#json("moduleHashes", []);
  }

  /** Load articles ({file name: Markdown}) and a golden JSON Lines text under a corpus name. */
  load(name, files, goldens = null, goldensName = "questions.jsonl") {
    return this.#json("load", [name, files, goldens, goldensName]);
  }

  /**
   * Load uploaded files under a corpus name, read by the CLI's own loaders (so bytes
   * that are not UTF-8 are refused with file, line and byte): `articles` is
   * {file name: Uint8Array}, `questions` {name, bytes} or null.
   */
  loadFiles(name, articles, questions = null) {
    return this.#json("loadFiles", [name, articles, questions]);
  }

  summary({ corpus = "bundled" } = {}) {
    return this.#json("summary", [corpus]);
  }

  corpusInfo({ corpus = "bundled" } = {}) {
    return this.#json("info", [corpus]);
  }

  /** Load the semantic model again after it failed (the "semantic" event reports progress). */
  retrySemantic() {
    return this.#json("retrySemantic", []);
  }

  /** Resolves once the semantic model is in (rejects if it failed to load, or Python stopped). */
  semanticReady() {
    if (this.semantic.state === "ready") return Promise.resolve(this.semantic);
    if (this.state === "failed") return Promise.reject(new RaglabError(this.failure));
    // a load that failed (or a build without the model) before anyone asked: settle now, not never
    if (this.semantic.state === "failed") return Promise.reject(new RaglabError(this.semantic.error));
    if (this.semantic.state === "absent") {
      return Promise.reject(new RaglabError({ type: "SemanticLoadError", message: "this build has no semantic model" }));
    }
    return new Promise((resolve, reject) => {
      const stop = () => {
        this.removeEventListener("semantic", listen);
        this.removeEventListener("failed", failed);
      };
      const listen = (event) => {
        if (event.detail.state === "ready") resolve(event.detail);
        else if (event.detail.state === "failed") reject(new RaglabError(event.detail.error));
        else if (event.detail.state === "absent") {
          reject(new RaglabError({ type: "SemanticLoadError", message: "this build has no semantic model" }));
        }
        else return;
        stop();
      };
      const failed = (event) => {
        stop();
        reject(new RaglabError(event.detail));
      };
      this.addEventListener("semantic", listen);
      this.addEventListener("failed", failed);
    });
  }

  /** Compute own data's chunk vectors for a config's chunker, with progress; cancelEncoding() stops it. */
  encodePassages(config = {}, onProgress = null, { corpus = "user" } = {}) {
    return this.#json("encodePassages", [config, corpus], onProgress);
  }

  cancelEncoding() {
    return this.#json("cancelEncoding", []);
  }

  /** sha256 of each text's vector (float.hex of every component), computed by the kernel now. */
  vectorDigests(texts) {
    return this.#json("vectorDigests", [texts]);
  }

  /** sha256 of each text's vector as the worker holds it now (null where it holds none):
   * what a question's readings encoded ahead, side by side, came back as (js/helper.js). */
  cachedDigests(texts) {
    return this.#json("cachedDigests", [texts]);
  }

  warm(config = {}, { corpus = "bundled" } = {}) {
    return this.#json("warm", [config, corpus]);
  }
}
