"""Faults at the edges: interrupted and failing imports, `--output` onto odd targets, a full
disk under the vector cache, a damaged native library. Nothing lost, nothing silently
wrong, one line and no traceback. Kills are real signals sent to real child processes."""

import json
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time

import pytest

from helpers import ROOT
from raglab.corpus.articles import load_corpus
from raglab.corpus.goldens import load_goldens
from raglab.corpus.importwrite import recover
from test_cli import raglab

SQUAD2 = os.path.join(ROOT, "tests", "data", "squad2-handmade.json")
ENV = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "py"))


def one_line_error(r, *words):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def old_import(out):
    (out / "corpus").mkdir(parents=True)
    (out / "corpus" / "old.md").write_text("# Old\n\nThe old article.\n", encoding="utf-8")
    (out / "questions.jsonl").write_text('{"old": true}\n', encoding="utf-8")


# ---------------------------------------------------------------- item 1: import --force


def test_failed_force_import_keeps_the_old_corpus(tmp_path):
    """The issue's case: questions.jsonl is a folder, so the import fails at the end;
    it used to delete corpus/ first."""
    out = tmp_path / "X"
    (out / "corpus").mkdir(parents=True)
    (out / "questions.jsonl").mkdir()
    (out / "corpus" / "old.md").write_text("# Old\n", encoding="utf-8")
    r = raglab("import", "squad", SQUAD2, "--out", str(out), "--force")
    one_line_error(r, "questions.jsonl", "not a regular file")
    assert (out / "corpus" / "old.md").read_text(encoding="utf-8") == "# Old\n"
    assert not [n for n in os.listdir(out) if n.startswith(".import-")]


def test_force_import_replaces_whole_and_clears_killed_runs(tmp_path):
    out = tmp_path / "X"
    old_import(out)
    stale = out / ".import-dead1"  # a killed build: no READY, the old import never touched
    (stale / "corpus").mkdir(parents=True)
    for i in range(50):
        (stale / "corpus" / f"a{i}.md").write_text("# A\n", encoding="utf-8")
    r = raglab("import", "squad", SQUAD2, "--out", str(out), "--force")
    assert r.returncode == 0, r.stderr
    assert "removed an unfinished import (.import-dead1)" in r.stderr
    assert sorted(n for n in os.listdir(out) if n != ".import.lock") == ["corpus", "questions.jsonl"]
    assert not (out / "corpus" / "old.md").exists()
    docs = load_corpus(str(out / "corpus"))
    assert load_goldens(str(out / "questions.jsonl"), docs)


def test_force_onto_a_symlinked_corpus_says_what_to_do(tmp_path):
    out, target = tmp_path / "X", tmp_path / "elsewhere"
    old_import(target)
    out.mkdir()
    os.symlink(target / "corpus", out / "corpus")
    r = raglab("import", "squad", SQUAD2, "--out", str(out), "--force")
    line = one_line_error(r, "corpus: a symbolic link", "remove the link")
    assert "None" not in line
    assert (target / "corpus" / "old.md").exists()


WRITER = r"""
import sys, json
sys.path.insert(0, sys.argv[2])
from raglab.corpus.importwrite import write_files
out = sys.argv[1]
for v in range(1, 10_000):
    files = {f"v{v}-{i}.md": f"# Version {v} article {i}\n\nBody {v}.{i} unique.\n" for i in range(150)}
    row = {"id": f"q{v}", "lang": "en", "kind": "direct", "split": "dev", "question": "Which body?",
           "answer": f"Body {v}.0", "evidence": [{"doc": f"v{v}-0", "quote": f"Body {v}.0 unique."}]}
    write_files(out, files, json.dumps(row) + "\n", force=True)
    print(v, flush=True)
"""


def import_version(out) -> int:
    """The one version an import folder holds whole, as raglab's loaders read it."""
    docs = load_corpus(str(out / "corpus"))
    questions = load_goldens(str(out / "questions.jsonl"), docs)
    versions = {d.id.split("-")[0] for d in docs}
    assert len(versions) == 1 and len(docs) == 150, versions
    assert questions[0].id == "q" + versions.pop()[1:]
    return int(questions[0].id[1:])


def killed_at_random(cmd, rng, low, high):
    """Start cmd, SIGKILL it after a random time in [low, high) s; its stdout lines so far."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    time.sleep(rng.uniform(low, high))
    os.kill(proc.pid, signal.SIGKILL)
    out, err = proc.communicate()
    assert proc.returncode == -signal.SIGKILL, err
    return out.split()


@pytest.mark.slow
def test_import_and_vector_cache_writers_killed_at_20_random_moments(tmp_path):
    """SIGKILL at random points of a writer replacing an import again and again, and of one
    appending to the vector cache: what is left is always whole (old or new), after the
    next import's recovery, and the cache reader accepts it with every finished record."""
    from raglab.encoder import vectors

    rng = random.Random(28)
    out = tmp_path / "imp"
    last = 0
    for _ in range(10):
        done = killed_at_random([sys.executable, "-c", WRITER, str(out), os.path.join(ROOT, "py")], rng, 0.3, 1.2)
        finished = int(done[-1]) if done else 0
        recover(str(out))
        if os.path.exists(out / "questions.jsonl"):
            version = import_version(out)
            # the last finished version, or the one being written when it died: never older, never mixed
            assert version in (finished, finished + 1) if finished else version in (last, 1), (version, finished)
            last = version
    digest, dim = "ab" * 32, 384
    cache = tmp_path / "vectors.bin"
    appender = ("import sys, os\nsys.path.insert(0, sys.argv[2])\nfrom raglab.encoder import vectors\n"
                "h = vectors.store_header(sys.argv[3], 384)\nn = 0\nwhile True:\n"
                "    recs = b''.join(os.urandom(32) + bytes(4 * 384) for _ in range(64))\n"
                "    vectors.append_records(sys.argv[1], h, 32 + 4 * 384, recs)\n    n += 64\n    print(n, flush=True)\n")
    kept = 0
    for _ in range(10):
        done = killed_at_random([sys.executable, "-c", appender, str(cache), os.path.join(ROOT, "py"), digest],
                                rng, 0.1, 0.6)
        records = vectors.read_store(str(cache), digest, dim)  # accepted, half a record or not
        kept += int(done[-1]) if done else 0
        assert len(records) >= kept, (len(records), kept)  # nothing an earlier run finished is lost
        kept = len(records)


# ---------------------------------------------------------------- item 2: --output targets


def test_output_onto_a_device_or_stdout_writes_through(tmp_path):
    r = raglab("analyze", "cash out", "--output", "/dev/null")
    assert r.returncode == 0 and r.stdout == "", r.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    r = raglab("analyze", "cash out", "--output", "/dev/stdout")
    assert r.returncode == 0 and "cash" in r.stdout, r.stderr
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    r = raglab("analyze", "cash out", "--output", str(fifo))
    assert r.returncode == 0 and "cash" in reader.communicate(timeout=30)[0]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_output_keeps_a_symlink_its_mode_and_hard_links(tmp_path):
    target, link, other = tmp_path / "target.txt", tmp_path / "link.txt", tmp_path / "other.txt"
    target.write_text("old\n")
    os.chmod(target, 0o600)
    os.symlink(target, link)
    os.link(target, other)
    r = raglab("analyze", "cash", "--output", str(link))
    assert r.returncode == 0, r.stderr
    assert os.path.islink(link) and "cash" in target.read_text()
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600
    assert os.stat(target).st_nlink == 2 and other.read_text() == target.read_text()
    single = tmp_path / "single.txt"
    single.write_text("old\n")
    os.chmod(single, 0o640)
    assert raglab("analyze", "cash", "--output", str(single)).returncode == 0
    assert stat.S_IMODE(os.stat(single).st_mode) == 0o640 and "cash" in single.read_text()


# ---------------------------------------------------------------- item 3: full disk under the cache


def _limit_file_size():
    resource.setrlimit(resource.RLIMIT_FSIZE, (FSIZE, FSIZE))


FSIZE = 40 + 3 * (32 + 4 * 384) + 100  # the header, three records and part of a fourth


def test_a_failed_cache_write_leaves_the_cache_readable(tmp_path):
    """A write that fails (a file-size limit stands in for a full disk) cuts the cache back;
    the command still answers, says so in one note, and the next reader accepts the file."""
    code = ("import sys, os\nsys.path.insert(0, sys.argv[1])\nfrom raglab.encoder import vectors\n"
            "h = vectors.store_header('ab' * 32, 384)\nrec = lambda n: b''.join(os.urandom(32) + bytes(1536) for _ in range(n))\n"
            "vectors.append_records(sys.argv[2], h, 1568, rec(3))\n"
            "try:\n    vectors.append_records(sys.argv[2], h, 1568, rec(2))\nexcept OSError as e:\n    print(e.errno)\n")
    cache = tmp_path / "cache.bin"
    r = subprocess.run([sys.executable, "-c", code, os.path.join(ROOT, "py"), str(cache)], capture_output=True,
                       text=True, preexec_fn=_limit_file_size)
    assert r.returncode == 0 and r.stdout.strip(), r.stderr  # the second write failed (EFBIG)
    assert os.path.getsize(cache) == 40 + 3 * 1568  # cut back: never left inside a record
    from raglab.encoder import vectors

    assert len(vectors.read_store(str(cache), "ab" * 32, 384)) == 3
    with open(cache, "ab") as fh:  # a concurrent writer's half record: ignored, not refused
        fh.write(b"x" * 700)
    assert len(vectors.read_store(str(cache), "ab" * 32, 384)) == 3


def test_ask_under_a_full_disk_answers_and_keeps_the_cache(tmp_path):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "fee.md").write_text("# Fees\n\nThe cash out fee is 1.85% at an agent.\n\nSend money is free.\n")
    code = ("import sys\nfrom raglab.encoder import vectors\nvectors.CACHE = sys.argv[1]\n"
            "from raglab.cli.main import main\nsys.exit(main(sys.argv[2:]))\n")
    args = [sys.executable, "-c", code, str(cache_dir), "ask", "--corpus", str(corpus), "--retriever", "semantic",
            "What is the cash out fee?"]
    r = subprocess.run(args, capture_output=True, text=True, env=ENV, preexec_fn=lambda: resource.setrlimit(
        resource.RLIMIT_FSIZE, (1000, 1000)))
    assert r.returncode == 0 and "1.85%" in r.stdout and "Traceback" not in r.stderr, r.stderr
    assert "cannot save vectors to the cache" in r.stderr
    r = subprocess.run(args, capture_output=True, text=True, env=ENV)
    assert r.returncode == 0 and "1.85%" in r.stdout, r.stderr


# ---------------------------------------------------------------- item 5: the native library


@pytest.mark.parametrize("damage, words", [
    ("truncated", ["does not match the digest setup recorded"]),
    ("foreign", ["does not match the digest setup recorded"]),
    ("foreign-recorded", ["not raglab's kernel", "e5k_"]),
    ("unrecorded", ["no digest recorded by setup"]),
])
def test_a_damaged_native_library_is_refused_with_one_line(tmp_path, damage, words):
    from raglab.encoder import native

    lib = tmp_path / "libencoder.so"
    real = native.LIBRARY_PATH
    if damage == "truncated":
        lib.write_bytes(open(real, "rb").read()[:20000])
        shutil.copy(real + ".sha256", str(lib) + ".sha256")
    elif damage.startswith("foreign"):
        libm = next(p for p in ("/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libm.so.6",
                                "/lib64/libm.so.6") if os.path.exists(p))
        shutil.copy(libm, lib)
        if damage == "foreign-recorded":
            (tmp_path / "libencoder.so.sha256").write_text(native._file_sha256(str(lib)) + "\n")
        else:
            shutil.copy(real + ".sha256", str(lib) + ".sha256")
    else:
        shutil.copy(real, lib)
    code = ("import sys\nfrom raglab.encoder import native\nfrom raglab.cli.main import main\n"
            "native.LIBRARY_PATH = sys.argv[1]\nnative.VARIANTS = ()\n"
            "native.native_library = lambda cache=None: sys.argv[1]\n"
            "sys.exit(main(['ask', '--retriever', 'semantic', 'What is the cash out fee?']))\n")
    r = subprocess.run([sys.executable, "-c", code, str(lib)], capture_output=True, text=True, env=ENV, timeout=120)
    assert r.returncode == 2, (r.returncode, r.stderr)  # not SIGBUS (-7), not a traceback
    line = one_line_error(r, str(lib), "build.py setup", *words)
    assert json.dumps(line)


# ---------------------------------------------------------------- item 6: compare --trec DIR


@pytest.mark.parametrize("kind", ["file", "folder-in-place", "under-a-file"])
def test_compare_trec_destination_is_checked_before_the_comparison(tmp_path, kind):
    dest = tmp_path / "runs"
    if kind == "file":
        dest.write_text("x")
    elif kind == "folder-in-place":
        (dest / "fixed+bm25.run").mkdir(parents=True)
    else:
        (tmp_path / "f").write_text("x")
        dest = tmp_path / "f" / "runs"
    start = time.monotonic()
    r = raglab("compare", "--trec", str(dest), "--chunker", "fixed", "--retriever", "bm25", "--expand", "off",
               "--split", "dev")
    one_line_error(r, str(tmp_path), "--trec")
    assert r.stdout == "" and time.monotonic() - start < 30
