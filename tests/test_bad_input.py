"""Broken files and hostile input: one clear error naming file, line and field, or a result.

Three groups:

- the golden loader on systematic mutations of a small valid golden file built from the
  corpus (truncated lines, wrong types, missing fields, bad values, duplicate ids and
  keys, invalid UTF-8, lone surrogates, deep nesting): every mutation raises
  `GoldenError` whose message starts with `<file>:<line>:` and names the field, and
  nothing is ever returned, so no partial set can be evaluated by accident;
- the corpus loader on broken articles (invalid UTF-8, no title, empty files, bad
  names, duplicate ids, a folder named like an article): `CorpusError` naming the file
  and, where there is one, the line; one bad file fails the whole load;
- the command line, run as a user runs it: errors are one line on stderr with exit
  status 2 and never a traceback; odd but legal questions (100,000 characters, emoji,
  control characters, lone surrogates, a pasted line separator) get a normal result.

The per-class counts are in CLASS_COUNTS at the bottom; the issue note quotes them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from helpers import CORPUS, ROOT, docs
from raglab.corpus.articles import CorpusError, load_corpus, parse_corpus
from raglab.corpus.goldens import GoldenError, load_goldens, parse_goldens
from raglab.schema import ask_json
from raglab.text.splitter import sentences

# --- a small valid golden file, built from the corpus (not from the golden set) ----


def unique_sentences(doc_id: str, count: int) -> list[str]:
    """Sentences of an article that occur exactly once in it (usable as evidence quotes)."""
    doc = {d.id: d for d in docs()}[doc_id]
    out = []
    for s, e in sentences(doc.text):
        text = doc.text[s:e]
        if not text.startswith(("#", "|", "-")) and len(text) > 30 and doc.text.count(text) == 1:
            out.append(text)
        if len(out) == count:
            break
    assert len(out) == count, doc_id
    return out


def base_rows() -> list[dict]:
    en = unique_sentences("en-cash-out", 2)
    bn = unique_sentences("bn-cash-out", 1)
    pin = unique_sentences("en-pin", 1)
    return [
        {"id": "t1", "lang": "en", "kind": "direct", "split": "dev", "question": "What is the cash out fee?",
         "answer": "1.85%", "evidence": [{"doc": "en-cash-out", "quote": en[0]}]},
        {"id": "t2", "lang": "bn", "kind": "direct", "split": "test", "question": "ক্যাশ আউটের খরচ কত?",
         "answer": "১.৮৫%", "evidence": [{"doc": "bn-cash-out", "quote": bn[0]}]},
        {"id": "t3", "lang": "en", "kind": "multi", "split": "dev", "question": "Cash out and PIN?",
         "answer": "Both.", "evidence": [{"doc": "en-cash-out", "quote": en[1]}, {"doc": "en-pin", "quote": pin[0]}]},
        {"id": "t4", "lang": "en", "kind": "unanswerable", "split": "test", "question": "Can I buy shares?",
         "answer": None, "evidence": []},
    ]


def render(rows) -> list[str]:
    out = []
    for r in rows:
        text = r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)
        if any("\ud800" <= ch <= "\udfff" for ch in text):
            text = json.dumps(r)  # a lone surrogate can only be written as a JSON escape
        out.append(text)
    return out


# Line numbers in the file: a blank line sits between rows 2 and 3, so the loader must
# count blank lines when it names one.
LINE_OF_ROW = [1, 2, 4, 5]


def golden_bytes(lines: list[str]) -> bytes:
    text = lines[0] + "\n" + lines[1] + "\n\n" + "\n".join(lines[2:]) + "\n"
    return text.encode("utf-8")


def test_base_golden_file_is_valid(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(golden_bytes(render(base_rows())))
    qs = load_goldens(str(path), list(docs()))
    assert [q.id for q in qs] == ["t1", "t2", "t3", "t4"]
    # The same file with CRLF line ends and a BOM (Windows editors) loads the same.
    path.write_bytes(b"\xef\xbb\xbf" + golden_bytes(render(base_rows())).replace(b"\n", b"\r\n"))
    assert load_goldens(str(path), list(docs())) == qs


# --- golden mutations -----------------------------------------------------------

STR_FIELDS = ("id", "lang", "kind", "split", "question")
WRONG_VALUES = {"int": 7, "float": 1.5, "bool": True, "null": None, "list": ["x"], "object": {"x": 1}}


def golden_cases() -> list[tuple[str, str, bytes, int, str]]:
    """(class, case id, file bytes, line the error must name, text the error must contain)."""
    rows = base_rows()
    cases = []

    def add(cls, cid, mutated_rows, row, needle):
        cases.append((cls, cid, golden_bytes(render(mutated_rows)), LINE_OF_ROW[row], needle))

    def with_row(i, new):
        out = [dict(r) for r in rows]
        out[i] = new
        return out

    # Truncated lines: each row cut at a quarter, a half, three quarters and one before the end.
    for i, line in enumerate(render(rows)):
        for frac in (0.25, 0.5, 0.75):
            cut = line[: int(len(line) * frac)]
            add("truncated line", f"row{i + 1}-{frac}", [*render(rows)[:i], cut, *render(rows)[i + 1:]], i, "not valid JSON")
        add("truncated line", f"row{i + 1}-last-brace", [*render(rows)[:i], line[:-1], *render(rows)[i + 1:]], i, "not valid JSON")

    # Missing fields, top level and inside evidence.
    for i, r in enumerate(rows):
        for name in (*STR_FIELDS, "answer", "evidence"):
            add("missing field", f"row{i + 1}-{name}", with_row(i, {k: v for k, v in r.items() if k != name}), i, f"missing field '{name}'")
        for j, ev in enumerate(r["evidence"]):
            for name in ("doc", "quote"):
                evs = [dict(e) for e in r["evidence"]]
                del evs[j][name]
                add("missing field", f"row{i + 1}-evidence{j}-{name}", with_row(i, {**r, "evidence": evs}), i,
                    f"evidence[{j}]: missing field '{name}'")

    # Wrong types: every field, every JSON type it must not be.
    r = rows[2]  # the multi row: two evidence quotes
    for name in STR_FIELDS:
        for tname, value in WRONG_VALUES.items():
            add("wrong type", f"{name}-{tname}", with_row(2, {**r, name: value}), 2, f"field '{name}' must be str")
    for tname, value in WRONG_VALUES.items():
        if tname != "null":
            add("wrong type", f"answer-{tname}", with_row(2, {**r, "answer": value}), 2, "field 'answer' must be str or NoneType")
        if tname != "list":
            add("wrong type", f"evidence-{tname}", with_row(2, {**r, "evidence": value}), 2, "field 'evidence' must be list")
            add("wrong type", f"evidence-item-{tname}", with_row(2, {**r, "evidence": [r["evidence"][0], value]}), 2,
                "evidence[1]: missing field 'doc'" if tname == "object" else "evidence[1]: must be an object with 'doc' and 'quote'")
        for name in ("doc", "quote"):
            evs = [dict(e) for e in r["evidence"]]
            evs[1][name] = value
            add("wrong type", f"evidence-{name}-{tname}", with_row(2, {**r, "evidence": evs}), 2,
                f"evidence[1]: field '{name}' must be str")
    for text in ("[]", '"a question"', "7", "null", "true", '[{"id": "t9"}]'):
        add("wrong type", f"line-{text[:8]}", [*render(rows[:3]), text], 3, "each line must be a JSON object")

    # Values of the right type that make no sense.
    for name, value in (("lang", "EN"), ("lang", "fr"), ("kind", "Direct"), ("kind", ""), ("split", "train")):
        add("bad value", f"{name}={value!r}", with_row(0, {**rows[0], name: value}), 0, f"field '{name}' is {value!r}")
    for name in ("question", "id"):
        for value in ("", "   "):
            add("bad value", f"empty-{name}-{len(value)}", with_row(0, {**rows[0], name: value}), 0, f"field '{name}' is empty")
    ev = rows[0]["evidence"][0]
    bad_evidence = {
        "unknown-doc": ({**ev, "doc": "en-no-such-article"}, "field 'doc' names 'en-no-such-article'"),
        "quote-absent": ({**ev, "quote": ev["quote"] + " And more."}, "field 'quote' does not occur"),
        "quote-twice": ({**ev, "quote": "the"}, "field 'quote' occurs"),
        "quote-empty": ({**ev, "quote": " "}, "field 'quote' is empty"),
        "quote-other-doc": ({**ev, "doc": "en-pin"}, "field 'quote' does not occur in en-pin"),
    }
    for cid, (bad, needle) in bad_evidence.items():
        add("bad value", cid, with_row(0, {**rows[0], "evidence": [bad]}), 0, needle)
    add("bad value", "answerable-without-evidence", with_row(0, {**rows[0], "evidence": []}), 0, "field 'evidence' is empty")
    add("bad value", "answerable-answer-null", with_row(0, {**rows[0], "answer": None}), 0, "field 'answer' is null")
    add("bad value", "unanswerable-with-evidence", with_row(3, {**rows[3], "evidence": rows[0]["evidence"]}), 3,
        "unanswerable question has empty 'evidence'")
    add("bad value", "unanswerable-with-answer", with_row(3, {**rows[3], "answer": "No."}), 3,
        "unanswerable question has empty 'evidence' and 'answer' null")

    # Duplicate ids (every later row reusing every earlier id) and duplicate keys.
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            add("duplicate id", f"row{j + 1}-as-row{i + 1}", with_row(j, {**rows[j], "id": rows[i]["id"]}), j,
                f"duplicate id (first on line {LINE_OF_ROW[i]})")
    for name in ("id", "question", "evidence"):
        line = json.dumps(rows[1], ensure_ascii=False)
        dup = line[:-1] + ", " + json.dumps(name) + ": " + json.dumps(rows[1][name], ensure_ascii=False) + "}"
        add("duplicate id", f"key-{name}", [*render(rows[:1]), dup, *render(rows[2:])], 1, f"field '{name}' appears twice")

    # Lone surrogates: valid JSON escapes that are not text.
    for name in ("id", "question", "answer"):
        add("lone surrogate", name, with_row(1, {**rows[1], name: rows[1][name] + "\ud83d"}), 1,
            f"field '{name}' holds a lone surrogate")
    ev = rows[1]["evidence"][0]
    for name in ("doc", "quote"):
        add("lone surrogate", f"evidence-{name}", with_row(1, {**rows[1], "evidence": [{**ev, name: ev[name] + "\udc00"}]}), 1,
            f"evidence[0]: field '{name}' holds a lone surrogate")

    # Hostile structure.
    add("deep nesting", "arrays", [*render(rows[:1]), "[" * 100_000 + "]" * 100_000, *render(rows[2:])], 1, "not valid JSON")
    add("deep nesting", "objects", [*render(rows[:1]), '{"a": ' * 50_000 + "1" + "}" * 50_000, *render(rows[2:])], 1,
        "not valid JSON")
    return cases


def invalid_utf8_cases() -> list[tuple[str, str, bytes, int, str]]:
    """Byte-level damage: invalid sequences inside each row, where an editor would leave them."""
    rows = base_rows()
    lines = render(rows)
    damage = {
        "ff": b"\xff",
        "lone-lead": b"\xc3(",
        "cesu-surrogate": b"\xed\xa0\x80",
        "overlong": b"\xc0\xaf",
        "above-10ffff": b"\xf4\x90\x80\x80",
        "cut-bangla": "ক".encode()[:2],
        "latin1-e-acute": "é".encode("latin-1"),
    }
    cases = []
    for i in range(len(lines)):
        for name, bad in damage.items():
            clean = golden_bytes(lines)
            start = clean.index(rows[i]["question"].encode()) + 3  # after the first letter (3 bytes in Bangla)
            data = clean[:start] + bad + clean[start:]
            cases.append(("invalid UTF-8", f"row{i + 1}-{name}", data, LINE_OF_ROW[i], "not valid UTF-8"))
    utf16 = golden_bytes(lines).decode("utf-8").encode("utf-16")
    cases.append(("invalid UTF-8", "whole-file-utf16", utf16, 1, "not valid UTF-8"))
    return cases


GOLDEN_CASES = golden_cases() + invalid_utf8_cases()


@pytest.mark.parametrize("cls, cid, data, line, needle", GOLDEN_CASES, ids=[f"{c[0]}:{c[1]}" for c in GOLDEN_CASES])
def test_golden_mutation_names_file_line_and_field(tmp_path, cls, cid, data, line, needle):
    path = tmp_path / "broken.jsonl"
    path.write_bytes(data)
    with pytest.raises(GoldenError) as err:
        load_goldens(str(path), list(docs()))
    message = str(err.value)
    assert message.startswith(f"{path}:{line}:"), message
    assert needle in message, message
    assert "\n" not in message and len(message) < 400, "one short line, fit for a terminal"


@pytest.mark.parametrize("text", ["", "\n\n", "   \n\t\n", "\ufeff"])
def test_golden_file_without_questions_is_an_error(text):
    with pytest.raises(GoldenError, match="g.jsonl: no questions found"):
        parse_goldens(text, list(docs()), "g.jsonl")


def test_golden_path_that_is_a_folder(tmp_path):
    with pytest.raises(GoldenError, match="cannot read"):
        load_goldens(str(tmp_path), list(docs()))


# --- corpus mutations ------------------------------------------------------------

def corpus_copy(tmp_path, names=("en-cash-out.md", "bn-cash-out.md", "en-pin.md")) -> str:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for name in names:
        shutil.copy(os.path.join(CORPUS, name), folder / name)
    return str(folder)


def corpus_cases() -> list[tuple[str, str, dict[str, bytes], str]]:
    """(class, case id, files to add or replace, the start of the expected message)."""
    en = open(os.path.join(CORPUS, "en-cash-out.md"), "rb").read()
    bn = open(os.path.join(CORPUS, "bn-cash-out.md"), "rb").read()
    cases = []
    for label, data in (("en", en), ("bn", bn)):
        lines = data.split(b"\n")
        for at in (0, len(lines) // 2, len(lines) - 2):
            for bad_name, bad in (("ff", b"\xff"), ("cut-bangla", "ক".encode()[:2]), ("cesu", b"\xed\xa0\x80")):
                broken = b"\n".join(lines[:at] + [lines[at] + bad] + lines[at + 1:])
                cases.append(("invalid UTF-8", f"{label}-line{at + 1}-{bad_name}", {"x.md": broken},
                              f"x.md:{at + 1}: not valid UTF-8"))
    # Cut in the middle of a three-byte Bangla letter (an interrupted copy).
    cut = bn.rindex("ক".encode()) + 1
    last_line = bn[:cut].count(b"\n") + 1
    cases.append(("invalid UTF-8", "bn-truncated-mid-letter", {"x.md": bn[:cut]}, f"x.md:{last_line}: not valid UTF-8"))
    cases.append(("invalid UTF-8", "utf16", {"x.md": en.decode().encode("utf-16")}, "x.md:1: not valid UTF-8"))

    body = en.split(b"\n", 1)[1]
    no_title = {
        "dropped": body,
        "no-space": b"#Cash out\n" + body,
        "h2-first": b"## Cash out\n" + body,
        "empty-title": b"# \n" + body,
        "setext": b"Cash out\n========\n" + body,
        "text-before": b"Read this first.\n# Cash out\n" + body,
        "bn-dropped": bn.split(b"\n", 1)[1],
    }
    for cid, data in no_title.items():
        first = next(i for i, line in enumerate(data.decode().split("\n"), 1) if line.strip())
        cases.append(("no title", cid, {"x.md": data}, f"x.md:{first}: an article must start with a '# Title' line"))
    for cid, data in (("empty", b""), ("blank", b"\n \n\t\n"), ("bom-only", b"\xef\xbb\xbf"), ("crlf-only", b"\r\n\r\n")):
        cases.append(("empty file", cid, {"x.md": data}, "x.md: the file is empty"))
    for name in ("has space.md", "ক্যাশ.md", "a#b.md", ".md", "semi;colon.md"):
        cases.append(("bad name", name, {name: b"# Title\n\nText.\n"}, f"{name}: article id"))
    return cases


CORPUS_CASES = corpus_cases()


@pytest.mark.parametrize("cls, cid, files, prefix", CORPUS_CASES, ids=[f"{c[0]}:{c[1]}" for c in CORPUS_CASES])
def test_corpus_mutation_fails_the_whole_load(tmp_path, cls, cid, files, prefix):
    folder = corpus_copy(tmp_path)
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as fh:
            fh.write(data)
    with pytest.raises(CorpusError) as err:
        load_corpus(folder)  # three good articles and one bad: nothing comes back
    message = str(err.value)
    assert message.startswith(os.path.join(folder, prefix)) or message.startswith(prefix), message
    assert "\n" not in message


def test_duplicate_article_ids_across_folders():
    with pytest.raises(CorpusError, match="b/en-pin.md: a second article with id 'en-pin'"):
        parse_corpus({"a/en-pin.md": "# PIN\n", "b/en-pin.md": "# PIN again\n"})


def test_folder_named_like_an_article_is_not_an_article(tmp_path):
    folder = corpus_copy(tmp_path)
    os.mkdir(os.path.join(folder, "drafts.md"))
    assert [d.id for d in load_corpus(folder)] == ["bn-cash-out", "en-cash-out", "en-pin"]


def test_bom_crlf_and_decomposed_bangla_load_like_the_clean_file(tmp_path):
    folder = corpus_copy(tmp_path, names=())
    bn = open(os.path.join(CORPUS, "bn-cash-out.md"), encoding="utf-8").read()
    decomposed = bn.replace("\u09cb", "\u09c7\u09be").replace("\u09df", "\u09af\u09bc")  # ো as ে + া
    with open(os.path.join(folder, "bn-cash-out.md"), "wb") as fh:
        fh.write(b"\xef\xbb\xbf" + decomposed.replace("\n", "\r\n").encode("utf-8"))
    loaded = load_corpus(folder)[0]
    clean = {d.id: d for d in docs()}["bn-cash-out"]
    assert loaded.text == clean.text and loaded.sections == clean.sections


# --- the command line --------------------------------------------------------------

def raglab(*args, timeout=60):
    """Run the CLI as a user would; output is returned as bytes, to check it is valid UTF-8."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}  # strict UTF-8 stdout
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "raglab", *args], capture_output=True, cwd=ROOT, env=env, timeout=timeout)
    r.seconds = time.perf_counter() - start
    r.out = r.stdout.decode("utf-8")  # raises if the CLI printed anything that is not UTF-8
    r.err = r.stderr.decode("utf-8")
    return r


def assert_clean_error(r, *needles):
    assert r.returncode == 2, (r.returncode, r.out, r.err)
    assert "Traceback" not in r.err and r.out == "", "no traceback, no partial output"
    lines = r.err.strip().split("\n")
    assert len(lines) == 1 and lines[0].startswith("raglab "), r.err
    for needle in needles:
        assert needle in r.err, r.err


@pytest.mark.parametrize("question", ["", " ", "\t\n", "\u3000"])
def test_cli_empty_question_exit_2(question):
    r = raglab("ask", question)
    assert_clean_error(r, "the question is empty")


@pytest.mark.parametrize("question, answered", [
    # 100,000 characters on the command line: real words, so the answerer has work to do.
    # (Cut at a word: a clipped "Wha" would be a word the help centre never uses, and a question
    # with an unknown word carrying half its idf mass is, rightly, answered with low confidence.)
    ("What is the cash out fee at an agent? " * (100_000 // 38), True),
    ("😀" * 20, False),
    ("😀 What is the cash out fee at an agent? 🙏🏽👍", True),
    # A control character inside "What is" separates the words, as the analyzer reads it: the
    # cue words still type the question (an amount), so it is answered like the clean one.
    ("\x01\x02\x07\x1b What\x1fis the cash out fee at an agent?\x7f\x85", True),
    ("ক্যাশ আউটের চার্জ কত?\u200d\u200c\ufeff", "ক্যাশ আউটের চার্জ কত?"),  # as the clean question
    ("ক্যাশ আউটের সর্বোচ্চ সীমা কত?".replace("\u09cb", "\u09c7\u09be"), "ক্যাশ আউটের সর্বোচ্চ সীমা কত?"),  # ো as ে + া
    ("cash out fee \udcff\udcfe", True),  # bytes that are not UTF-8 reach argv as lone surrogates
])
def test_cli_odd_questions_get_a_result(question, answered):
    r = raglab("ask", "--json", question)
    assert r.returncode == 0 and "Traceback" not in r.err, r.err
    out = json.loads(r.out)
    if isinstance(answered, str):  # as its clean twin fares: the odd characters change nothing
        assert out["abstained"] is json.loads(raglab("ask", "--json", answered).out)["abstained"]
    else:
        assert out["abstained"] is (not answered)
    assert not any("\ud800" <= ch <= "\udfff" for ch in out["question"])
    assert r.seconds < 30


def test_decomposed_bangla_question_finds_what_the_composed_one_finds():
    from raglab.pipeline import Config, Pipeline

    pipe = Pipeline(list(docs()), Config(threshold=0.0))  # what it would say, whether or not it abstains
    for q in ["ক্যাশ আউটের সর্বোচ্চ সীমা কত?", "দৈনিক সর্বোচ্চ কত টাকা পাঠানো যায়?", "কোন এজেন্টের কাছে ক্যাশ আউট করব?"]:
        typed = q.replace("\u09cb", "\u09c7\u09be").replace("\u09cc", "\u09c7\u09d7")  # ো ৌ as two code points
        assert typed != q
        a, b = ask_json(pipe.ask(q)), ask_json(pipe.ask(typed))
        assert a["answer"] is not None and a["answer"] == b["answer"] and a["confidence"] == b["confidence"]
        assert [c["id"] for c in a["chunks"]] == [c["id"] for c in b["chunks"]]


def test_cli_question_over_the_length_limit_is_refused(tmp_path):
    from raglab.text.limits import MAX_QUESTION_CHARS

    too_long = ("What is the cash out fee at an agent? " * 2700)[:MAX_QUESTION_CHARS + 1]
    r = raglab("ask", too_long)
    assert_clean_error(r, f"the question is {MAX_QUESTION_CHARS + 1:,} characters long; the limit is {MAX_QUESTION_CHARS:,}")
    # In a questions file the whole file is checked first: no half-printed batch.
    path = tmp_path / "q.txt"
    path.write_text("What is the cash out fee?\n" + "fee " * 30_000 + "\n", encoding="utf-8")
    assert_clean_error(raglab("ask", "--questions", str(path)), "q.txt:2: the question is 120,000 characters long")


def test_cli_plain_output_does_not_echo_control_characters():
    r = raglab("ask", "\x1b]0;pwned\x07What is the cash out fee at an agent?")
    assert r.returncode == 0 and "Answer: " in r.out
    assert "\x1b" not in r.out and "\x07" not in r.out


def test_cli_questions_file_with_lone_surrogates_and_separators(tmp_path):
    lines = [
        json.dumps({"question": "cash out fee \ud800"}),  # JSON escape of half a pair: valid JSON, not text
        json.dumps({"question": "\ud83d\ude00 cash out fee"}),  # a whole pair: an emoji
        json.dumps({"question": "cash out \udfff fee"}),
        "cash out\u2028fee",  # a pasted line separator stays inside one question
        "cash out\x0cfee\x1cagent",
        "\x00\x00 cash out fee",
    ]
    path = tmp_path / "q.txt"
    path.write_bytes(("\ufeff" + "\n".join(lines) + "\n").encode("utf-8"))
    r = raglab("ask", "--threshold", "0", "--questions", str(path))  # what it would say, abstaining or not
    assert r.returncode == 0 and "Traceback" not in r.err, r.err
    # JSON Lines: records end at "\n" only (a raw U+2028 inside a JSON string is legal).
    rows = [json.loads(line) for line in r.out.split("\n") if line]
    assert len(rows) == len(lines), "one result per line: nothing merged, nothing split"
    assert [row["question"] for row in rows[:3]] == ["cash out fee \ufffd", "😀 cash out fee", "cash out \ufffd fee"]
    assert all(not row["abstained"] and "cash out" in row["answer"] for row in rows)


@pytest.mark.parametrize("content, needle", [
    ('{"question": "cash out fee"\n', "q.txt:1: not valid JSON"),
    ('What is the fee?\n{"question": 7}\n', "q.txt:2: a JSON line needs a string field 'question'"),
    ('What is the fee?\n{"questoin": "typo"}\n', "q.txt:2: a JSON line needs a string field 'question'"),
    ('{"question": ' * 100_000 + "\n", "q.txt:1: not valid JSON"),
])
def test_cli_broken_questions_file_exit_2(tmp_path, content, needle):
    path = tmp_path / "q.txt"
    path.write_text(content, encoding="utf-8")
    assert_clean_error(raglab("ask", "--questions", str(path)), needle)


def test_cli_non_utf8_corpus_file(tmp_path):
    folder = corpus_copy(tmp_path)
    with open(os.path.join(folder, "en-pin.md"), "ab") as fh:
        fh.write("\nলাইন ".encode("utf-16-le"))
    r = raglab("ask", "--corpus", folder, "What is the cash out fee?")
    assert_clean_error(r, "en-pin.md:", "not valid UTF-8", "save the file as UTF-8")


def test_cli_article_without_title(tmp_path):
    folder = corpus_copy(tmp_path)
    with open(os.path.join(folder, "en-notes.md"), "w", encoding="utf-8") as fh:
        fh.write("\nSome notes without a heading.\n")
    r = raglab("ask", "--corpus", folder, "What is the cash out fee?")
    assert_clean_error(r, "en-notes.md:2: an article must start with a '# Title' line")


@pytest.mark.parametrize("cls, cid", [("truncated line", "row2-0.5"), ("missing field", "row3-evidence1-quote"),
                                      ("wrong type", "kind-int"), ("duplicate id", "row4-as-row1"),
                                      ("invalid UTF-8", "row2-cut-bangla"), ("lone surrogate", "question"),
                                      ("deep nesting", "arrays")])
def test_cli_check_broken_goldens_exit_2(tmp_path, cls, cid):
    data, line, needle = next((c[2], c[3], c[4]) for c in GOLDEN_CASES if c[:2] == (cls, cid))
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    assert_clean_error(raglab("check", "--goldens", str(path)), f"{path}:{line}:", needle)


def test_cli_check_goldens_is_a_folder(tmp_path):
    assert_clean_error(raglab("check", "--goldens", str(tmp_path)), "cannot read")


@pytest.mark.parametrize("args, needle", [
    (["ask", "-k", "-3", "fee"], "k must be"),
    (["ask", "--threshold", "nan", "fee"], "threshold"),
    (["ask", "--threshold", "2", "fee"], "threshold"),
])
def test_cli_bad_settings_exit_2(args, needle):
    assert_clean_error(raglab(*args), needle)


# --- counts for the issue note -------------------------------------------------------

def class_counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    for case in GOLDEN_CASES:
        counts["goldens: " + case[0]] = counts.get("goldens: " + case[0], 0) + 1
    for case in CORPUS_CASES:
        counts["corpus: " + case[0]] = counts.get("corpus: " + case[0], 0) + 1
    return counts


def test_every_class_is_exercised():
    counts = class_counts()
    for cls in ("truncated line", "missing field", "wrong type", "bad value", "duplicate id", "invalid UTF-8",
                "lone surrogate", "deep nesting"):
        assert counts["goldens: " + cls] >= 2, cls
    for cls in ("invalid UTF-8", "no title", "empty file", "bad name"):
        assert counts["corpus: " + cls] >= 4, cls


if __name__ == "__main__":  # python tests/test_bad_input.py: print the per-class counts
    for name, n in sorted(class_counts().items()):
        print(f"{n:>4}  {name}")
