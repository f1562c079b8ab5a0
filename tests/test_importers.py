"""`raglab import`: SQuAD 1.1/2.0 JSON and BEIR folders become a corpus and a golden set
that raglab's own loaders accept, with evidence that is verbatim and occurs once."""

import io
import json
import os

import pytest

from helpers import ROOT
from raglab.corpus.articles import load_corpus
from raglab.corpus.goldens import load_goldens
from raglab.corpus.importers import ImportFormatError, import_beir, import_squad, summary, write_import
from test_cli import raglab

DATA = os.path.join(ROOT, "tests", "data")
SQUAD2 = os.path.join(DATA, "squad2-handmade.json")
TYDI = os.path.join(DATA, "tydiqa-en-slice.json")
BEIR = os.path.join(DATA, "beir-handmade")


def squad_file(path, **options):
    with open(path, encoding="utf-8") as fh:
        return import_squad(fh, path, **options)


def written(imp, tmp_path):
    """Write an import and load it back with the loaders `raglab check` uses."""
    write_import(imp, str(tmp_path))
    docs = load_corpus(str(tmp_path / "corpus"))
    return {d.id: d for d in docs}, {q.id: q for q in load_goldens(str(tmp_path / "questions.jsonl"), docs)}


def test_squad2_fixture_evidence(tmp_path):
    docs, qs = written(squad_file(SQUAD2), tmp_path)
    quote = {qid: q.evidence[0].quote for qid, q in qs.items() if q.evidence}
    # The sentence "The fee is 1.85%." occurs twice: each answer's quote is widened by the
    # sentence after it until it occurs once, and the two answers get different quotes.
    assert quote["twice-2"] == "The fee is 1.85%. It applies at every agent."
    assert quote["twice-1"] == "The fee is 1.85%. Call us any time."
    # An answer that crosses a sentence boundary takes both sentences.
    assert quote["cross-1"] == "Tap Send. Enter the number."
    # Bangla with both digit scripts, sentences ended by the danda.
    assert quote["bn-1"] == "দিনে সর্বোচ্চ 25,000 টাকা তোলা যায়।"
    assert quote["bn-2"] == "মাসে ১,৫০,০০০ টাকা পর্যন্ত তোলা যায়।"
    assert qs["bn-1"].lang == "bn" and docs[qs["bn-1"].evidence[0].doc].lang == "bn"
    # CRLF inside the context (and in the file, which starts with a BOM): offsets still land.
    assert quote["crlf-1"] == "Line two has the answer 42."
    # SQuAD 2.0 is_impossible: unanswerable, no evidence, no answer.
    assert qs["impossible-1"].kind == "unanswerable" and qs["impossible-1"].answer is None
    # A wrong answer_start is repaired only when the text occurs once in the context.
    assert quote["moved-1"] == "The office opens at 9 am on weekdays."
    assert "lost-1" not in qs
    for q in qs.values():
        for ev in q.evidence:
            assert docs[ev.doc].text.count(ev.quote) == 1
            assert q.answer in ev.quote


def test_squad_article_per_title_and_paragraph_sections(tmp_path):
    docs, qs = written(squad_file(SQUAD2), tmp_path)
    fees = docs["fees-and-charges"]  # the title appears in two entries of `data`: one article
    assert [s.heading for s in fees.sections][1:] == [("Fees and charges", f"Paragraph {n}") for n in (1, 2, 3)]
    # A context line that starts with "##" stays text, not a new section.
    assert [s.heading[-1] for s in docs["windows-text"].sections] == ["Windows text", "Paragraph 1"]
    assert "\r" not in docs["windows-text"].text


def test_squad_alternatives_summary_and_split(tmp_path):
    imp = squad_file(SQUAD2)
    rows = {r["id"]: r for r in imp.questions}
    assert rows["alt-1"]["answer"] == "9 am" and rows["alt-1"]["alternatives"] == ["at 9 am on weekdays"]
    assert [r["split"] for r in imp.questions] == ["dev", "test"] * 5
    info = summary(imp)
    assert info["questions"] == 10 and info["articles"] == 3
    assert info["dropped"] == [{"reason": "no answer_start points at its answer text", "count": 1, "examples": ["lost-1"]}]
    assert [r["split"] for r in squad_file(SQUAD2, split="test").questions] == ["test"] * 10


def test_tydiqa_slice_keeps_every_question(tmp_path):
    with open(TYDI, encoding="utf-8") as fh:
        raw = json.load(fh)
    answers = {qa["id"]: qa["answers"][0]["text"] for a in raw["data"] for p in a["paragraphs"] for qa in p["qas"]}
    docs, qs = written(squad_file(TYDI, lang="en"), tmp_path)
    assert set(qs) == set(answers)
    titles = {a["title"] for a in raw["data"]}
    assert len(docs) == len(titles) < len(raw["data"])  # repeated titles merge into one article
    for qid, q in qs.items():
        assert q.answer == answers[qid] and q.kind == "direct"
        assert answers[qid] in q.evidence[0].quote
        assert docs[q.evidence[0].doc].text.count(q.evidence[0].quote) == 1


def test_cli_import_then_check(tmp_path):
    out = tmp_path / "ext"
    r = raglab("import", "squad", TYDI, "--out", str(out), "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert "17 questions" in r.stdout and "dropped: 0" in r.stdout
    r = raglab("check", "--corpus", str(out / "corpus"), "--goldens", str(out / "questions.jsonl"), "--json")
    assert r.returncode == 0, r.stderr and json.loads(r.stdout)["questions"] == 17
    # A second import into the same folder refuses instead of overwriting; --force replaces.
    before = (out / "questions.jsonl").read_bytes()
    r = raglab("import", "squad", SQUAD2, "--out", str(out))
    assert r.returncode == 2 and "--force" in r.stderr and (out / "questions.jsonl").read_bytes() == before
    r = raglab("import", "squad", SQUAD2, "--out", str(out), "--force", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["questions"] == 10
    assert sorted(os.listdir(out / "corpus")) == ["article-2.md", "fees-and-charges.md", "windows-text.md"]


def test_import_help_has_examples():
    r = raglab("import", "--help")
    assert r.returncode == 0 and "Examples:" in r.stdout and "raglab import squad" in r.stdout
    assert "raglab import beir" in r.stdout


def bad(text):
    with pytest.raises(ImportFormatError) as err:
        import_squad(io.StringIO(text), "bad.json")
    return str(err.value)


@pytest.mark.parametrize("text, message", [
    ('{"data": [\n{"title": "A", "paragraphs": [{"context": "x", "qas": [{"id": "1", "answers": []}]}]}]}',
     "bad.json:2: data[0].paragraphs[0].qas[0]: missing field 'question'"),
    ('{"data": [{"title": "A", "paragraphs": []},\n\n{"title": 5, "paragraphs": []}]}',
     "bad.json:3: data[1].title: must be a string, got int"),
    ('{"data": [{"title": "A", "paragraphs": [{"context": "x y.", "qas": [{"id": "1", "question": "q", '
     '"answers": [{"text": "x", "answer_start": "0"}]}]}]}]}', "answers[0].answer_start: must be a whole number"),
    ('{"version": "1",\n "data": [{"title": "A",\n "paragraphs": [}]}', "bad.json:3: not valid JSON"),
    ('[1, 2]', "expected a JSON object with a 'data' list"),
    ('{"version": "1.1"}', "missing field 'data'"),
    ('{"data": []}', "no question could be imported"),
    ('{"data": [{"title": "A", "paragraphs": [{"context": "x.", "qas": [{"id": "1", "question": "q", "answers": '
     '[{"text": "x", "answer_start": 0}]}, {"id": "1", "question": "r", "answers": []}]}]}]}', "duplicate question id '1'"),
])
def test_malformed_squad_names_line_path_and_field(text, message):
    assert message in bad(text)


def test_malformed_file_writes_nothing(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text('{"data": [{"title": "A", "paragraphs": [{"context": "x", "qas": [{"id": "1"}]}]}]}', encoding="utf-8")
    r = raglab("import", "squad", str(f), "--out", str(tmp_path / "out"))
    assert r.returncode == 2 and "missing field 'question'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists()


def test_beir_fixture(tmp_path):
    imp = import_beir(BEIR)
    docs, qs = written(imp, tmp_path)
    assert set(qs) == {"q1", "q2", "q3"}  # q4's passages are empty or missing, q5 is not judged
    assert qs["q2"].split == "dev" and qs["q1"].split == "test" and qs["q2"].lang == "bn"
    # Evidence is the whole relevant passage; score 0 is not relevant; graded 2 is.
    assert [e.doc for e in qs["q3"].evidence] == ["d-2", "d1"] and qs["q3"].kind == "multi"
    assert qs["q3"].evidence[0].quote == "Send money is free up to Tk 25,000 a month.\nAfter that it costs Tk 5."
    assert docs["d3"].title == "পিন"
    reasons = {d["reason"] for d in summary(imp)["dropped"]}
    assert "qrels name a passage that is not in corpus.jsonl" in reasons
    assert any("document-level" in n for n in summary(imp)["notes"])


def test_beir_bad_qrels_line(tmp_path):
    for name in ("corpus.jsonl", "queries.jsonl"):
        (tmp_path / name).write_bytes(open(os.path.join(BEIR, name), "rb").read())
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\n", encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"qrels/test.tsv:2: expected three tab-separated columns"):
        import_beir(str(tmp_path))
    (tmp_path / "corpus.jsonl").write_text('{"_id": "d1", "text": "a"}\n{"_id": "d2"}\n', encoding="utf-8")
    with pytest.raises(ImportFormatError, match=r"corpus.jsonl:2: line: missing field 'text'"):
        import_beir(str(tmp_path))


def test_streaming_reads_the_same_at_any_buffer_size(monkeypatch):
    """Articles are decoded one by one from a small buffer: cut points must not change the result."""
    whole = squad_file(SQUAD2)
    import raglab.corpus.jsonstream as jsonstream

    for size in (3, 64, 1000):
        monkeypatch.setattr(jsonstream, "READ_SIZE", size)
        part = squad_file(SQUAD2)
        assert part.questions == whole.questions and part.files == whole.files
