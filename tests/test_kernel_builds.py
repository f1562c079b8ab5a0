"""Every build of the encoder kernel gives the shipped vectors' bits.

The kernel source (py/raglab/encoder/kernel.c) is compiled several ways: natively as the baseline library, once per vector
extension in build.py's KERNEL_VARIANTS that this CPU runs (a different register tile and
vector width each), and to wasm32 for the page. Each must reproduce the shipped vectors bit
for bit; here a sample of 60 of them (questions and chunks, short and long) is re-encoded
by every build, the wasm one under Node through js/kernel.js, as the page's worker calls it.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import struct
import subprocess

import numpy as np
import pytest

from conftest import _load_build_module
from raglab.encoder import bundled, vectors
from raglab.encoder import native as encoder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = 60  # every build walks every code path on each text; 60 spread over short and long ones
build = _load_build_module()


@pytest.fixture(scope="module")
def shipped():
    """[(token ids, shipped vector bytes)] for a spread of the shipped texts."""
    enc = encoder.native_encoder()
    store = vectors.read_store(vectors.shipped_path(enc.digest), enc.digest, enc.dim)
    texts = [t for t in bundled.shipped() if vectors.text_key(t) in store]
    sample = texts[:: max(1, len(texts) // SAMPLE)][:SAMPLE]
    return [(enc.ids(t), store[vectors.text_key(t)]) for t in sample]


def compiler() -> str:
    found = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not found:
        pytest.fail("no C compiler (cc); install gcc or clang, then run `python3 build.py setup`")
    return found


def wide_paths() -> bool:
    """Whether the compiler builds the kernel's wide paths (they need __builtin_shufflevector:
    clang, gcc 12+); with an older gcc every build runs the 4-wide code, still the same bits."""
    probe = "int main(void) { typedef int v __attribute__((vector_size(16))); v a = {0}; " \
            "return __builtin_shufflevector(a, a, 0, 1, 2, 3)[0]; }"
    run = subprocess.run([compiler(), "-x", "c", "-fsyntax-only", "-"], input=probe, capture_output=True, text=True)
    return run.returncode == 0


@pytest.fixture(scope="module")
def native_builds(tmp_path_factory):
    """{name: library path}: the baseline and every variant this CPU runs, built afresh."""
    out = tmp_path_factory.mktemp("kernels")
    builds = {"baseline": str(out / "libencoder.so")}
    build.compile_kernel(compiler(), (), builds["baseline"])
    cpu = ctypes.CDLL(builds["baseline"]).e5k_cpu()
    for name, (flags, bits) in build.KERNEL_VARIANTS.items():
        if bits & ~cpu == 0:
            builds[name] = str(out / f"libencoder-{name}.so")
            build.compile_kernel(compiler(), flags, builds[name])
    return builds


def mismatches(got: list[bytes], shipped) -> list[str]:
    return [f"input {i} ({len(ids)} tokens)" for i, ((ids, want), vec) in enumerate(zip(shipped, got)) if vec != want]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["baseline", *build.KERNEL_VARIANTS])
def test_native_build_gives_the_shipped_bits(name, native_builds, shipped):
    if name not in native_builds:
        pytest.skip(f"this CPU does not run the {name} instructions")
    model = encoder.read_model()
    kernel = encoder.NativeKernel(model, native_builds[name])
    want_bits = 0 if name == "baseline" or not wide_paths() else build.KERNEL_VARIANTS[name][1]
    assert kernel._lib.e5k_target() == want_bits, f"{name}: compiled without its vector extensions"
    got = [kernel.encode_ids(ids).tobytes() for ids, _ in shipped]
    wrong = mismatches(got, shipped)
    assert not wrong, f"{name} build: {len(wrong)} of {len(shipped)} vectors differ from the shipped ones: {wrong[:5]}"


def test_loader_picks_the_widest_build_this_cpu_runs(native_builds):
    cache = os.path.dirname(native_builds["baseline"])
    widest = next((n for n in build.KERNEL_VARIANTS if n in native_builds), None)
    want = native_builds[widest] if widest else native_builds["baseline"]
    assert encoder.native_library(cache) == want


def test_loader_skips_a_build_for_instructions_the_cpu_lacks(tmp_path, native_builds, monkeypatch):
    """A variant whose bits the CPU does not report is never loaded (it could crash)."""
    for name in ("libencoder.so", "libencoder-avx512.so"):
        shutil.copy(native_builds["baseline"], tmp_path / name)
        shutil.copy(native_builds["baseline"] + ".sha256", tmp_path / (name + ".sha256"))
    monkeypatch.setattr(encoder, "VARIANTS", (("libencoder-avx512.so", 1 << 30),))
    assert encoder.native_library(str(tmp_path)) == str(tmp_path / "libencoder.so")


def encode_in_node(wasm: str, inputs: list[list[int]], tmp_path, model: str = encoder.MODEL_PATH) -> list[bytes]:
    """The vectors of inputs from the wasm kernel under Node (tests/kernel_node.mjs)."""
    node = shutil.which("node")
    if not node:
        pytest.fail("node is missing; install Node.js 18 or newer (Debian: apt-get install nodejs)")
    ids_file, out_file = tmp_path / "ids.bin", tmp_path / "out.bin"
    ids_file.write_bytes(struct.pack("<I", len(inputs)) +
                         b"".join(struct.pack(f"<I{len(ids)}i", len(ids), *ids) for ids in inputs))
    run = subprocess.run([node, "--no-warnings", os.path.join(ROOT, "tests", "kernel_node.mjs"), wasm,
                          model, str(ids_file), str(out_file)], capture_output=True, text=True)
    assert run.returncode == 0, f"node failed: {run.stderr.strip()[-2000:]}"
    json.loads(run.stdout)
    data = out_file.read_bytes()
    width = len(data) // len(inputs)
    return [data[i * width : (i + 1) * width] for i in range(len(inputs))]


@pytest.mark.slow
def test_wasm_build_gives_the_shipped_bits(shipped, tmp_path):
    try:
        wasm = build.build_kernel_wasm()
    except build.SetupError as err:
        pytest.fail(str(err), pytrace=False)
    got = encode_in_node(wasm, [ids for ids, _ in shipped], tmp_path)
    wrong = mismatches(got, shipped)
    assert not wrong, f"wasm build: {len(wrong)} of {len(shipped)} vectors differ from the shipped ones: {wrong[:5]}"


# The kernel's int8 arithmetic, held to a float64 simulation of it (tests/e5_reference.py) on a
# small random model, where float32 and float64 passes quantise every activation alike: every
# build within float32 rounding of Int8Reference (1e-6), and the quantisation visible against
# the unquantised Reference (over 1e-3), so a kernel that dropped it or changed its formula
# (block size, scale, rounding) fails here, not only in a shipped digest.
SMALL_INPUTS = [[int(i) for i in np.random.default_rng(n).integers(0, 50, n)] for n in (1, 2, 3, 5, 7, 13, 29, 40)]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """(model bytes, its file, the int8 simulation's vectors, the float reference's vectors)."""
    from e5_reference import Int8Reference, Reference, small_model

    model = small_model()
    path = tmp_path_factory.mktemp("small") / "small.rle5"
    path.write_bytes(model)
    return (model, str(path), [Int8Reference(model).encode(ids) for ids in SMALL_INPUTS],
            [Reference(model).encode(ids) for ids in SMALL_INPUTS])


def small_vectors(name: str, native_builds, small, tmp_path) -> list[bytes]:
    if name == "wasm":
        return encode_in_node(build.build_kernel_wasm(), SMALL_INPUTS, tmp_path, small[1])
    kernel = encoder.NativeKernel(small[0], native_builds[name])
    return [kernel.encode_ids(ids).tobytes() for ids in SMALL_INPUTS]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["baseline", *build.KERNEL_VARIANTS, "wasm"])
def test_every_build_computes_the_int8_arithmetic(name, native_builds, small, tmp_path):
    if name not in native_builds and name != "wasm":
        pytest.skip(f"this CPU does not run the {name} instructions")
    got = small_vectors(name, native_builds, small, tmp_path)
    assert got == small_vectors("baseline", native_builds, small, tmp_path), f"{name}: other bits than the baseline build"
    vecs = [np.frombuffer(v, np.float32).astype(np.float64) for v in got]
    assert max(float(np.abs(v - w).max()) for v, w in zip(vecs, small[2])) <= 1e-6
    assert min(float(np.abs(v - w).max()) for v, w in zip(vecs, small[3])) > 1e-3
