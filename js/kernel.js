// The encoder kernel (py/raglab/encoder/kernel.c compiled to wasm32) inside the worker, and the
// small module Python calls it through. Nothing here computes a result of its own:
// Python tokenizes, ranks and rounds; this file moves token ids and float32 vectors
// in and out of the kernel's memory and calls its exported functions.
//
// The module's linear memory, from __heap_base up:
//   [ state: header + the model's weights (e5k_init copies them) ][ work area ]
// The model file is fetched into the work area, e5k_init copies its weights into the
// state, and from then on the work area holds one call's scratch, ids and output
// (calls are one at a time: the worker is single-threaded). So the model's bytes sit
// in the kernel's memory once, and the page holds no other copy.

const ERRORS = {
  "-1": "shorter than its header says",
  "-2": "not a raglab model file",
  "-3": "a format version (or byte order) the kernel does not read",
  "-4": "dimensions that do not fit together",
  "-5": "input out of range",
};
const PAGE = 65536;
const align16 = (n) => (n + 15) & ~15;

/** Hex sha256 of bytes (Web Crypto). */
export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class KernelError extends Error {
  constructor(message) {
    super(message);
    this.name = "KernelError";
  }
}

export class Kernel {
  #x; // the instance's exports
  #state; // byte offset of the state
  #work; // byte offset of the work area

  constructor(instance, modelLength) {
    this.#x = instance.exports;
    this.#state = align16(this.#x.__heap_base.value);
    this.modelLength = modelLength;
  }

  /** Copy the model file into the kernel's memory and let e5k_init build the state. */
  init(model) {
    const x = this.#x;
    // e5k_state_size reads only the 96-byte header (and trusts the length it is given),
    // so the header goes in first; the whole file then lands in the work area, above
    // the state, where nothing needs it once e5k_init has copied the weights.
    const probe = align16(this.#state);
    this.#reserve(probe + 96);
    new Uint8Array(x.memory.buffer, probe, Math.min(96, model.length)).set(model.subarray(0, 96));
    const size = x.e5k_state_size(probe, model.length);
    if (size < 0) throw new KernelError(`model file: ${ERRORS[size] || size}`);
    this.#work = align16(this.#state + size);
    this.#reserve(this.#work + model.length);
    new Uint8Array(x.memory.buffer, this.#work, model.length).set(model);
    const rc = x.e5k_init(this.#work, model.length, this.#state);
    if (rc) throw new KernelError(`model file: ${ERRORS[rc] || rc}`);
    this.#readShape();
  }

  /** The model's shape, as the state holds it. */
  #readShape() {
    const x = this.#x;
    this.dim = x.e5k_dim(this.#state);
    this.maxTokens = x.e5k_max_tokens(this.#state);
    this.vocab = x.e5k_vocab(this.#state);
  }

  /** A copy of the state (the header and the weights as e5k_init left them), to start a
   * second instance of the same build with `adopt`. */
  stateBytes() {
    return new Uint8Array(this.#x.memory.buffer, this.#state, this.#work - this.#state).slice();
  }

  /** Take another instance's `stateBytes()` (the same build: offsets in the state are
   * relative to it) instead of a model file, so the weights sit in this memory once. */
  adopt(state) {
    const x = this.#x;
    this.#work = align16(this.#state + state.length);
    this.#reserve(this.#work);
    new Uint8Array(x.memory.buffer, this.#state, state.length).set(state);
    this.#readShape();
  }

  /** Grow linear memory to at least `end` bytes (the browser may refuse: out of memory). */
  #reserve(end) {
    const memory = this.#x.memory;
    const have = memory.buffer.byteLength;
    if (end <= have) return;
    try {
      memory.grow(Math.ceil((end - have) / PAGE));
    } catch (err) {
      throw new KernelError(`out of memory: the encoder needs ${Math.ceil(end / 1048576)} MB (${err.message})`);
    }
  }

  /** The unit vector (Float32Array, dim) of one input's token ids (Int32Array, <s> ... </s>). */
  encode(ids) {
    const x = this.#x;
    const n = ids.length;
    const scratch = x.e5k_scratch_size(this.#state, n);
    const idsAt = align16(this.#work + scratch);
    const outAt = align16(idsAt + 4 * n);
    this.#reserve(outAt + 4 * this.dim);
    new Int32Array(x.memory.buffer, idsAt, n).set(ids);
    const rc = x.e5k_encode(this.#state, idsAt, n, this.#work, outAt);
    if (rc) throw new KernelError(`encoder kernel: ${ERRORS[rc] || rc} (${n} tokens)`);
    return new Float32Array(x.memory.buffer, outAt, this.dim).slice();
  }

  /** out[i] = dot(query, vectors[i]) in the kernel's lane order, for n = vectors.length / dim. */
  dots(query, vectors) {
    const x = this.#x;
    const dim = this.dim;
    const n = Math.floor(vectors.length / dim);
    const qAt = this.#work;
    const vAt = align16(qAt + 4 * dim);
    const outAt = align16(vAt + 4 * n * dim);
    this.#reserve(outAt + 4 * n);
    new Float32Array(x.memory.buffer, qAt, dim).set(query);
    new Float32Array(x.memory.buffer, vAt, n * dim).set(vectors.subarray(0, n * dim));
    x.e5k_dots(qAt, vAt, n, dim, outAt);
    return new Float32Array(x.memory.buffer, outAt, n).slice();
  }
}

/**
 * Fetch a file with progress: onProgress(doneBytes, totalBytes) as chunks arrive.
 * A blocked or failed request, or a wrong digest, throws a KernelError naming the file.
 */
export async function fetchChecked(url, expected, onProgress = () => {}, signal = undefined) {
  let response;
  try {
    response = await fetch(url, { cache: "no-cache", signal });
  } catch (err) {
    throw new KernelError(`${url.pathname.split("/").pop()}: the request failed (${err.message})`);
  }
  const name = url.pathname.split("/").pop();
  if (!response.ok) throw new KernelError(`${name}: HTTP ${response.status}`);
  const total = expected.bytes;
  const bytes = new Uint8Array(total);
  let done = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done: finished, value } = await reader.read();
    if (finished) break;
    if (done + value.length > total) throw new KernelError(`${name}: larger than the ${total} bytes the manifest lists`);
    bytes.set(value, done);
    done += value.length;
    onProgress(done, total);
  }
  if (done !== total) throw new KernelError(`${name}: ${done} bytes, the manifest lists ${total}`);
  const got = await sha256Hex(bytes);
  if (got !== expected.sha256) {
    throw new KernelError(`${name}: sha256 ${got.slice(0, 12)}… does not match the manifest's ${expected.sha256.slice(0, 12)}…`);
  }
  return bytes;
}

/**
 * Compile and instantiate the kernel while it downloads (streaming), checking the
 * bytes' digest against the manifest before the module is used: {module, instance}
 * (the compiled module also starts the helper's kernel, js/helper.js).
 */
export async function instantiateChecked(url, expected, signal = undefined) {
  const name = url.pathname.split("/").pop();
  let response;
  try {
    response = await fetch(url, { cache: "no-cache", signal });
  } catch (err) {
    throw new KernelError(`${name}: the request failed (${err.message})`);
  }
  if (!response.ok) throw new KernelError(`${name}: HTTP ${response.status}`);
  const copy = response.clone();
  const [compiled, digest] = await Promise.all([
    WebAssembly.instantiateStreaming(response, {}).catch((err) => {
      throw new KernelError(`${name}: not a loadable WebAssembly module (${err.message})`);
    }),
    copy.arrayBuffer().then((buffer) => sha256Hex(buffer)),
  ]);
  if (digest !== expected.sha256) {
    throw new KernelError(`${name}: sha256 ${digest.slice(0, 12)}… does not match the manifest's ${expected.sha256.slice(0, 12)}…`);
  }
  return compiled;
}
