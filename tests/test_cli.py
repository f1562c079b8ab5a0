"""The raglab command line, run as a user would."""

import json
import subprocess
import sys

import pytest

from helpers import ROOT
from raglab.pipeline import Config


def raglab(*args, input=None):
    return subprocess.run([sys.executable, "-m", "raglab", *args], capture_output=True, text=True,
                          input=input, cwd=ROOT, encoding="utf-8", errors="replace")


@pytest.mark.parametrize("cmd", [[], ["analyze"], ["ask"], ["chunks"], ["check"]])
def test_every_command_has_help(cmd):
    r = raglab(*cmd, "--help")
    assert r.returncode == 0 and "usage:" in r.stdout


def test_ask_prints_answer_citations_and_chunks():
    r = raglab("ask", "What is the cash out fee at an agent?")
    assert r.returncode == 0, r.stderr
    assert "1.85%" in r.stdout and "Cited:" in r.stdout and f"Top {Config().k} chunks" in r.stdout


def test_ask_json_fields():
    r = raglab("ask", "--json", "ক্যাশ আউটের চার্জ কত?")
    out = json.loads(r.stdout)
    assert set(out) >= {"question", "answer", "abstained", "citations", "chunks"}
    assert out["question"] == "ক্যাশ আউটের চার্জ কত?"
    assert all(set(c) >= {"id", "doc", "start", "end", "score", "text"} for c in out["chunks"])


def test_questions_file_gives_json_lines(tmp_path):
    f = tmp_path / "q.txt"
    f.write_text("What is the PIN length?\n\n" + json.dumps({"question": "পিন কত সংখ্যার?"}, ensure_ascii=False) + "\n", encoding="utf-8")
    r = raglab("ask", "--questions", str(f))
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    # One output line per input line: the blank line 2 gets its error object in place.
    assert [row["question"] for row in rows] == ["What is the PIN length?", "", "পিন কত সংখ্যার?"]
    assert rows[1] == {"error": "the question is empty", "line": 2, "question": ""}
    assert "chunks" in rows[0] and "chunks" in rows[2]


def test_empty_question_exit_2():
    r = raglab("ask", "   ")
    assert r.returncode == 2 and "question is empty" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("args, message", [
    (["ask", "--chunker", "nope", "fee"], "unknown chunker 'nope'"),
    (["ask", "--retriever", "nope", "fee"], "unknown retriever 'nope'"),
    (["ask", "-k", "0", "fee"], "k must be"),
    (["ask", "--corpus", "/nonexistent-folder", "fee"], "no such corpus folder"),
    (["ask", "--questions", "/nonexistent.txt"], "cannot read"),
])
def test_bad_input_exit_2(args, message):
    r = raglab(*args)
    assert r.returncode == 2, r.stdout
    assert message in r.stderr and "Traceback" not in r.stderr


def test_hostile_questions_file_never_tracebacks(tmp_path):
    f = tmp_path / "q.txt"
    lines = ["x" * 100_000, "😀 emoji only 😀", "control \x01\x02\x1b[31m chars", "mixed ক্যাশ out ফি",
             "lone surrogate \udc80 here"]
    f.write_bytes("\n".join(lines).encode("utf-8", errors="surrogateescape"))
    r = raglab("ask", "--questions", str(f))
    assert r.returncode == 0, r.stderr
    assert len(r.stdout.splitlines()) == len(lines)
    assert "Traceback" not in r.stderr


def test_analyze_prints_terms_and_spans():
    r = raglab("analyze", "--json", "৩০,০০০ টাকা")
    assert [t["term"] for t in json.loads(r.stdout)] == ["30000", "টাকা"]


def test_check_prints_counts_table():
    r = raglab("check")
    assert r.returncode == 0, r.stderr
    assert "every quote resolved exactly once" in r.stdout
    assert "paraphrase" in r.stdout or "direct" in r.stdout


HOSTILE = ("# Lockers\n\n## Fees\n\nA locker costs Tk 20 per day.\x1b]0;pwned\x07\x1b[2J\x1b[31m red\x1b[0m\r"
           "\x08\x08 and the \x9b31m fee is paid at the counter.\n")


def test_plain_output_escapes_control_characters_and_json_stays_exact(tmp_path):
    """A hostile --corpus cannot drive the terminal through `raglab ask` or `chunks`: plain
    output shows control characters as \\xNN; --json carries the exact text."""
    (tmp_path / "lockers.md").write_text(HOSTILE, encoding="utf-8")
    plain = raglab("ask", "--corpus", str(tmp_path), "--retriever", "bm25", "What does a locker fee cost?")
    assert plain.returncode == 0, plain.stderr
    assert not any(ch < " " and ch != "\n" or "\x7f" <= ch <= "\x9f" for ch in plain.stdout)
    assert "\\x1b]0;pwned\\x07" in plain.stdout
    chunks = raglab("chunks", "--corpus", str(tmp_path))
    assert chunks.returncode == 0 and "\x1b" not in chunks.stdout and "\x9b" not in chunks.stdout
    assert "\\x1b[2J" in chunks.stdout and "\\x9b31m" in chunks.stdout
    exact = raglab("ask", "--json", "--corpus", str(tmp_path), "--retriever", "bm25", "What does a locker fee cost?")
    texts = [c["text"] for c in json.loads(exact.stdout)["chunks"]]
    assert any("\x1b]0;pwned\x07\x1b[2J" in t and "\x9b31m" in t for t in texts)
