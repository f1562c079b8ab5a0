"""The bundled corpus: form, facts of the brief, and Bangla script hygiene."""

import os
import re
import unicodedata

import pytest

from helpers import CORPUS, docs
from raglab.corpus.articles import CorpusError, load_corpus, parse_article, parse_corpus
from raglab.text.analyzer import words

BANGLA = re.compile("[\u0980-\u09ff]")


def test_39_articles_29_english_10_bangla():
    langs = [d.lang for d in docs()]
    assert len(langs) == 39
    assert langs.count("en") == 29 and langs.count("bn") == 10
    assert all(d.id.startswith(d.lang + "-") for d in docs())


@pytest.mark.parametrize("name", sorted(os.listdir(CORPUS)))
def test_article_form(name):
    raw = open(os.path.join(CORPUS, name), "rb").read()
    text = raw.decode("utf-8")
    assert not text.startswith("\ufeff") and "\r" not in text
    assert unicodedata.normalize("NFC", text) == text
    assert text.startswith("# ") and text.endswith("\n") and not text.endswith("\n\n")
    assert "<" not in text and ">" not in text, "no HTML in the corpus"
    assert 250 <= len(words(text)) <= 800
    assert "\n## " in text


@pytest.mark.parametrize("doc", [d for d in docs() if d.lang == "bn"], ids=lambda d: d.id)
def test_bangla_script_hygiene(doc):
    text = doc.text
    no_email = re.sub(r"[\w.]+@[\w.]+", "", text, flags=re.ASCII)
    assert not re.search("[A-Za-z]", no_email.replace("*269#", "")), "stray Latin letters"
    assert not re.search("[0-9]", no_email), "ASCII digits in a Bangla article"
    # a hasanta must join two consonants (or precede ZWJ/ZWNJ), never dangle
    for m in re.finditer("\u09cd", text):
        nxt = text[m.end():m.end() + 1]
        assert nxt and ("\u0995" <= nxt <= "\u09b9" or nxt in "\u200c\u200d\u09af\u09df"), (doc.id, text[m.start() - 3:m.end() + 2])
    # two vowel signs in a row or a vowel sign after a space are broken conjuncts
    assert not re.search("[\u09be-\u09cc][\u09be-\u09cc]", text)
    assert not re.search("[ \n][\u09be-\u09cd]", text)
    for line in text.split("\n"):
        body = line.strip()
        if body and not body.startswith(("#", "|", "-")) and BANGLA.search(body) and body[-1] not in "।?!:":
            pytest.fail(f"{doc.id}: sentence without a danda: {body[-40:]!r}")


FACTS = {  # one fact per article, checked verbatim-ish against the brief's values
    "en-cash-out": ["1.85%", "1.95%", "Tk 50", "25,000", "1,50,000"],
    "en-cash-in": ["30,000", "2,00,000"],
    "en-send-money": ["25,000", "Tk 5", "Tk 100", "50"],
    "en-pin": ["5 digits", "24 hours", "16789"],
    "en-complaints": ["7 working days", "10 working days", "gro@shaplapay.example"],
    "en-wrong-transfer": ["30 days", "10 working days"],
    "en-savings": ["7%", "6 months"],
    "en-loans": ["20,000", "9%", "3 months"],
    "bn-cash-out": ["১.৮৫%", "১.৯৫%", "২৫,০০০"],
    "bn-cash-in": ["৩০,০০০"],
}


@pytest.mark.parametrize("doc_id", sorted(FACTS))
def test_brief_facts_are_stated(doc_id):
    text = {d.id: d.text for d in docs()}[doc_id]
    for fact in FACTS[doc_id]:
        assert fact in text, f"{doc_id} must state {fact}"


def test_sections_carry_heading_paths_and_offsets():
    doc = parse_article("x", "# T\n\nIntro.\n\n## A\nOne.\n### B\nTwo.\n## C\nThree.\n")
    assert [s.heading for s in doc.sections] == [("T",), ("T", "A"), ("T", "A", "B"), ("T", "C")]
    assert doc.text[doc.sections[1].start:].startswith("## A")
    assert doc.sections[-1].end == len(doc.text)


def test_normalises_before_offsets():
    doc = parse_article("x", "\ufeff# T\r\n\r\n## A\r\nOne.\r\n")
    assert doc.text == "# T\n\n## A\nOne.\n"


@pytest.mark.parametrize("files, message", [
    ({"a.md": "no title here\n"}, "a.md:1: an article must start with a '# Title' line"),
    ({"a.md": "\n\n## Section\n"}, "a.md:3: an article must start"),
    ({"a.md": ""}, "a.md: the file is empty"),
    ({"bad#id.md": "# T\n"}, "may use only ASCII letters"),
    ({}, "no articles found"),
    ({"x/a.md": "# A\n", "y/a.md": "# B\n"}, "a second article with id 'a'"),
])
def test_bad_articles_name_the_file(files, message):
    with pytest.raises(CorpusError, match=re_escape(message)):
        parse_corpus(files)


def re_escape(s):
    return re.escape(s)


def test_non_utf8_file_names_file_and_line(tmp_path):
    (tmp_path / "good.md").write_text("# Good\n\nText.\n", encoding="utf-8")
    (tmp_path / "bad.md").write_bytes("# Bad\n\nline two \xff\n".encode("latin-1"))
    with pytest.raises(CorpusError, match=r"bad\.md:3: not valid UTF-8"):
        load_corpus(str(tmp_path))


def test_missing_folder_says_what_to_do(tmp_path):
    with pytest.raises(CorpusError, match="--corpus"):
        load_corpus(str(tmp_path / "nope"))
