// The browser's encoder kernel (the .wasm build of py/raglab/encoder/kernel.c, driven by js/kernel.js
// exactly as the page's worker drives it) under Node, for tests and benchmarks:
//
//   node --no-warnings tests/kernel_node.mjs KERNEL.wasm MODEL.rle5 IDS.bin OUT.bin [ROUNDS]
//
// IDS.bin: u32 count, then per input a u32 token count and that many int32 ids (little-endian).
// Every input is encoded ROUNDS times (default 1); OUT.bin gets the last round's vectors,
// float32, one after another. Prints one JSON line: {"cpu_s": [CPU seconds of each round],
// "last_round_s": [CPU seconds of each input in the last round]}.
import { readFileSync, writeFileSync } from "node:fs";
import { Kernel } from "../js/kernel.js";

const [wasmPath, modelPath, idsPath, outPath, roundsArg] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const model = new Uint8Array(readFileSync(modelPath));
const kernel = new Kernel(instance, model.length);
kernel.init(model);

const raw = readFileSync(idsPath);
const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
const inputs = [];
for (let i = 0, at = 4; i < view.getUint32(0, true); i++) {
  const n = view.getUint32(at, true);
  inputs.push(new Int32Array(raw.buffer.slice(raw.byteOffset + at + 4, raw.byteOffset + at + 4 + 4 * n)));
  at += 4 + 4 * n;
}

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const rounds = Number(roundsArg || 1);
const out = new Float32Array(inputs.length * kernel.dim);
const times = [];
let each = [];
for (let r = 0; r < rounds; r++) {
  const start = cpuSeconds();
  each = inputs.map((ids, i) => {
    const t0 = cpuSeconds();
    out.set(kernel.encode(ids), i * kernel.dim);
    return cpuSeconds() - t0;
  });
  times.push(cpuSeconds() - start);
}
writeFileSync(outPath, new Uint8Array(out.buffer));
console.log(JSON.stringify({ cpu_s: times, last_round_s: each }));
