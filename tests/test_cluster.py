"""`raglab encode`, `compare` and `ask --questions` on a real Dask cluster over loopback.

A scheduler and two single-thread worker processes (`dask scheduler`, `dask worker`) are
started on 127.0.0.1 for this module and stopped after it. The corpus is a slice of the
bundled one (four articles, their first section, a changed title line so that no chunk
is in the shipped vectors): a handful of chunks, so the tests stay quick. Every result is
compared byte for byte with the same command run in this process, and the vector cache
each run writes goes to a temporary folder, never the repository's .cache/.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest

from helpers import ROOT
from raglab.cli.main import main
from raglab.corpus.articles import load_corpus
from raglab.corpus.chunking import chunk_corpus, index_text
from raglab.encoder import native, vectors
from raglab.encoder.modelfile import HEADER, _fields

distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed: pip install 'raglab[cluster]'")

DASK = os.path.join(os.path.dirname(sys.executable), "dask")
ARTICLES = ("en-pin", "bn-pin", "en-cash-out", "bn-cash-out")
START_TIMEOUT = 90  # seconds for processes to start on a loaded machine


# --- data -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> dict:
    """A four-article corpus (first section each, retitled: 9 fixed, 9 recursive, 42 sentence chunks)
    and the golden questions it answers (a few of each split)."""
    folder = tmp_path_factory.mktemp("centre")
    os.makedirs(folder / "corpus")
    kept = {}
    for doc in ARTICLES:
        with open(os.path.join(ROOT, "corpus", f"{doc}.md"), encoding="utf-8") as fh:
            parts = re.split(r"(?m)^(?=## )", fh.read())
        kept[doc] = parts[0].replace("\n", " (cluster edition)\n", 1) + parts[1]
        (folder / "corpus" / f"{doc}.md").write_text(kept[doc], encoding="utf-8")
    rows = []
    with open(os.path.join(ROOT, "goldens", "questions.jsonl"), encoding="utf-8") as fh:
        for line in fh:
            q = json.loads(line)
            if q["evidence"] and all(e["doc"] in kept and e["quote"] in kept[e["doc"]] for e in q["evidence"]):
                rows.append(line)
    assert len(rows) >= 6 and {json.loads(r)['split'] for r in rows} == {'dev', 'test'}
    (folder / "questions.jsonl").write_text("".join(rows), encoding="utf-8")
    asked = [json.loads(r)["question"] for r in rows]
    (folder / "asked.txt").write_text("\n".join(asked[:3] + [""] + asked[3:]) + "\n", encoding="utf-8")
    return {"corpus": str(folder / "corpus"), "goldens": str(folder / "questions.jsonl"),
            "asked": str(folder / "asked.txt")}


def passages(corpus: str, chunker: str) -> list[str]:
    return [native.PASSAGE + index_text(c) for c in chunk_corpus(load_corpus(corpus), chunker)]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """The vector cache in a fresh folder, for this test's in-process commands."""
    monkeypatch.setattr(vectors, "CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(vectors, "_CACHE", None)
    return str(tmp_path / "cache")


def stored(cache: str) -> dict[bytes, bytes]:
    enc = native.native_encoder()
    path = os.path.join(cache, os.path.basename(vectors.cache_path(enc.digest)))
    return vectors.read_store(path, enc.digest, enc.dim)  # raises on a cut-short or foreign file


def serial_run(monkeypatch, folder) -> None:
    """What follows runs on a cache of its own: nothing the cluster encoded can reach it."""
    monkeypatch.setattr(vectors, "CACHE", str(folder / "serial-cache"))
    vectors.use(None)


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# --- a loopback cluster ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Loopback:
    """A scheduler and worker processes on 127.0.0.1, started with Dask's own commands."""

    def __init__(self, folder, workers: int, preload: str | None = None):
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        port = free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        self.log = open(os.path.join(folder, "dask.log"), "ab")
        self._spawn([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"])
        for n in range(workers):
            self.add_worker(f"w{n}", preload)
        self.wait_for(workers)

    def _spawn(self, cmd: list[str]) -> subprocess.Popen:
        proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)
        self.procs.append(proc)
        return proc

    def add_worker(self, name: str, preload: str | None = None) -> subprocess.Popen:
        cmd = [DASK, "worker", self.address, "--name", name, "--nthreads", "1", "--no-nanny", "--no-dashboard",
               "--host", "127.0.0.1", "--death-timeout", "60"]
        if preload:
            cmd += ["--preload", preload]
        proc = self._spawn(cmd)
        self.workers.append(proc)
        return proc

    def wait_for(self, n: int) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with distributed.Client(self.address, timeout="5s") as client:
                    client.wait_for_workers(n, timeout=max(1, deadline - time.monotonic()))
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:  # a worker closing gracefully waits for a scheduler that is gone: cut it short
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Loopback(tmp_path_factory.mktemp("dask"), workers=2)
    yield c
    c.stop()


# --- encode ---------------------------------------------------------------------------------------


def test_encode_on_two_workers_fills_the_cache_with_the_in_process_vectors(cluster, data, cache_dir, capsys):
    code, out, err = run_cli(capsys, "encode", "--corpus", data["corpus"], "--chunker", "fixed",
                             "--scheduler", cluster.address, "--json")
    assert code == 0, err
    summary = json.loads(out)
    texts = passages(data["corpus"], "fixed")
    assert summary["encoded"] == len(set(texts)) and summary["workers"] == 2
    assert "raglab encode: encoded" in err  # progress on stderr as batches finish
    enc = native.native_encoder()
    got = stored(cache_dir)
    assert got == {vectors.text_key(t): enc.encode(t).tobytes() for t in texts}  # bit for bit

    # A rerun finds everything in the cache and sends nothing.
    code, out, err = run_cli(capsys, "encode", "--corpus", data["corpus"], "--chunker", "fixed",
                             "--scheduler", cluster.address, "--json")
    assert code == 0 and json.loads(out)["encoded"] == 0 and stored(cache_dir) == got


def test_an_interrupted_encode_resumes_with_what_is_missing(cluster, data, cache_dir, capsys):
    texts = passages(data["corpus"], "recursive")
    enc = native.native_encoder()
    half = {vectors.text_key(t): enc.encode(t).tobytes() for t in texts[: len(texts) // 2]}
    os.makedirs(cache_dir)
    vectors.write_store(vectors.cache_path(enc.digest), enc.digest, enc.dim, half)  # what a first run kept
    code, out, _ = run_cli(capsys, "encode", "--corpus", data["corpus"], "--chunker", "recursive",
                           "--scheduler", cluster.address, "--json")
    assert code == 0 and json.loads(out)["encoded"] == len(set(texts)) - len(half)
    assert stored(cache_dir) == {vectors.text_key(t): enc.encode(t).tobytes() for t in texts}


# --- compare and ask ------------------------------------------------------------------------------


@pytest.mark.slow
def test_compare_on_the_cluster_is_byte_identical_to_the_serial_report(cluster, data, cache_dir, capsys, monkeypatch,
                                                                       tmp_path):
    args = ["compare", "--corpus", data["corpus"], "--goldens", data["goldens"], "--split", "all",
            "--chunker", "fixed", "--retriever", "bm25", "--retriever", "semantic", "--retriever", "bm25-semantic",
            "--retriever", "hybrid-rerank", "--per-question", "--id-labels"]
    # The cluster run first, on an empty cache: its chunk vectors are encoded on the workers.
    code, on_cluster, err = run_cli(capsys, *args, "--json", "--scheduler", cluster.address)
    assert code == 0, err
    assert stored(cache_dir)  # the client saved what the workers encoded
    serial_run(monkeypatch, tmp_path)  # which encodes everything again, here
    code, serial, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    assert on_cluster == serial
    assert len(json.loads(serial)["configs"]) == 4 * 2  # retrievers x expansion


def test_ask_questions_on_the_cluster_keeps_the_order_and_the_bytes(cluster, data, cache_dir, capsys, monkeypatch,
                                                                     tmp_path):
    for retriever in ("bm25-semantic", "hybrid"):
        common = ["ask", "--corpus", data["corpus"], "--questions", data["asked"], "--retriever", retriever]
        code, on_cluster, err = run_cli(capsys, *common, "--scheduler", cluster.address)
        assert code == 0, err
        serial_run(monkeypatch, tmp_path / retriever)
        code, serial, err = run_cli(capsys, *common)
        assert code == 0, err
        assert on_cluster == serial
        lines = serial.splitlines()
        assert len(lines) == len(open(data["asked"], encoding="utf-8").read().splitlines())
        assert "error" in json.loads(lines[3])  # the blank line keeps its place


@pytest.mark.parametrize("command", ["encode", "compare", "ask"])
def test_the_cluster_commands_have_help_with_examples(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    shown = capsys.readouterr().out
    assert done.value.code == 0 and "Examples:" in shown and "--scheduler ADDRESS" in shown and "--workers N" in shown


def test_a_single_question_is_not_sent_to_a_cluster(capsys):
    code, _, err = run_cli(capsys, "ask", "--workers", "2", "How do I change my PIN?")
    assert code == 2 and "a single question is answered here" in err


# --- failures -------------------------------------------------------------------------------------


@pytest.mark.slow  # waits out a connect timeout: the full suite's
def test_an_unreachable_scheduler_is_a_one_line_error_within_seconds(data, cache_dir, capsys):
    started = time.monotonic()
    code, out, err = run_cli(capsys, "ask", "--questions", data["asked"], "--corpus", data["corpus"],
                             "--scheduler", f"tcp://127.0.0.1:{free_port()}")
    seconds = time.monotonic() - started
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "cannot reach a Dask scheduler at tcp://127.0.0.1:" in lines[0], err
    assert seconds < 15, f"took {seconds:.1f} s"


def other_model(folder) -> str:
    """A sound model file that is not raglab's: one weight byte changed, the header's digest redone."""
    from raglab.encoder.modelfile import content_digest

    with open(native.MODEL_PATH, "rb") as fh:
        data = bytearray(fh.read())
    *_, w_off, w_len = _fields(bytes(data[:HEADER]))
    data[w_off + w_len // 2] ^= 0x01  # a weight
    data[64:96] = content_digest(bytes(data))
    path = os.path.join(folder, "other.rle5")
    with open(path, "wb") as fh:
        fh.write(bytes(data))
    native.read_model(path)  # it checks out as a model file
    return path


@pytest.mark.slow  # starts a cluster of its own: the full suite's
def test_a_worker_with_another_model_file_is_refused(tmp_path, data, cache_dir, capsys):
    preload = tmp_path / "other_model.py"
    preload.write_text(f"from raglab.encoder import native\nnative.MODEL_PATH = {other_model(tmp_path)!r}\n")
    c = Loopback(tmp_path, workers=1, preload=str(preload))
    try:
        code, _, err = run_cli(capsys, "encode", "--corpus", data["corpus"], "--chunker", "fixed",
                               "--scheduler", c.address)
    finally:
        c.stop()
    lines = err.strip().splitlines()
    assert code == 2 and "has another model file" in lines[-1] and "other.rle5" in lines[-1], err
    assert not os.path.exists(vectors.cache_path(native.native_encoder().digest))  # nothing was written


@pytest.mark.slow
def test_killing_a_worker_mid_encode_finishes_on_the_other_and_keeps_the_cache_whole(tmp_path, data):
    """A real SIGKILL to one of two worker processes while `raglab encode` runs in another process."""
    c = Loopback(tmp_path, workers=2)
    cache = str(tmp_path / "cache")
    code = ("import sys\nfrom raglab.encoder import vectors\nvectors.CACHE = sys.argv[1]\n"
            "from raglab.cli.main import main\nsys.exit(main(sys.argv[2:]))")
    try:
        proc = subprocess.Popen([sys.executable, "-c", code, cache, "encode", "--corpus", data["corpus"],
                                 "--scheduler", c.address, "--json"],  # every chunker: 60 texts
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        assert proc.stderr is not None
        seen = []
        for line in proc.stderr:  # the first finished batch: both workers are busy with the next ones
            seen.append(line)
            if "raglab encode: encoded" in line:
                break
        done, total = map(int, re.search(r"encoded ([\d,]+)/([\d,]+)", seen[-1]).group(1, 2))
        assert done < total, f"the job ended before the kill: {seen[-1]}"
        victim = c.workers[0]
        assert victim.poll() is None
        os.kill(victim.pid, signal.SIGKILL)
        out, rest = proc.communicate(timeout=600)
        assert victim.wait(timeout=30) == -signal.SIGKILL
    finally:
        c.stop()
    assert proc.returncode == 0, "".join(seen) + rest
    texts = [t for chunker in ("fixed", "recursive", "sentence") for t in passages(data["corpus"], chunker)]
    assert json.loads(out)["encoded"] == len(set(texts))
    enc = native.native_encoder()
    assert stored(cache) == {vectors.text_key(t): enc.encode(t).tobytes() for t in texts}
