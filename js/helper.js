// A second encoder kernel, in a worker of its own, so that a question's readings are
// encoded side by side (py/raglab/web/readings.py says why). It runs the kernel module the
// main worker compiled and checked, from a copy of that kernel's state (the model's weights
// as e5k_init laid them out), through js/kernel.js exactly as the main worker does: the same
// build and the same input give the same bits.
//
// Messages in:  {module, state}   once: the compiled kernel and Kernel.stateBytes() of the main one
//               {id, ids}         token ids (Int32Array) of one input
// Messages out: {ready: true} | {ready: false, error}          after the first message
//               {id, vector} | {id, error}                     vector: Float32Array (dim)

import { Kernel } from "./kernel.js";

let kernel = null;

self.onmessage = async ({ data }) => {
  if (data.module) {
    try {
      kernel = new Kernel(await WebAssembly.instantiate(data.module, {}), 0);
      kernel.adopt(data.state);
      self.postMessage({ ready: true });
    } catch (err) {
      self.postMessage({ ready: false, error: String((err && err.message) || err) });
    }
    return;
  }
  try {
    const vector = kernel.encode(data.ids);
    self.postMessage({ id: data.id, vector }, [vector.buffer]);
  } catch (err) {
    self.postMessage({ id: data.id, error: String((err && err.message) || err) });
  }
};
