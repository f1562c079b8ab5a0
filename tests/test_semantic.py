"""The semantic retrievers, through `raglab compare` and the pipeline, on shipped vectors.

What a user cares about: on questions written by strangers (the COVID-QA FAQ paraphrases,
dev half) the encoder finds what BM25 misses, and the fusion keeps that gain; the
retrievers behave like every other one; and without the model the lexical ones still work.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers import ROOT, docs
from raglab.corpus.chunking import chunk_corpus
from raglab.encoder import native as encoder
from raglab.encoder.native import EncoderUnavailable
from raglab.pipeline import Config, Pipeline
from raglab.retrieval import semantic

COVID = os.path.join(ROOT, "goldens", "external", "covid-qa-faq")


def compare_json(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "raglab", "compare", "--json", *args],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    report = json.loads(out.stdout)
    return {c["retriever"]: c["metrics"] for c in report["configs"]}


def test_on_strangers_questions_the_encoder_beats_bm25_and_fusion_keeps_it():
    m = compare_json("--corpus", os.path.join(COVID, "corpus"), "--goldens", os.path.join(COVID, "questions.jsonl"),
                     "--split", "dev", "--chunker", "recursive", "--expand", "off",
                     "--retriever", "bm25", "--retriever", "semantic", "--retriever", "bm25-semantic")
    assert m["semantic"]["mrr"] > m["bm25"]["mrr"] + 0.05
    assert m["semantic"]["recall"] > m["bm25"]["recall"] + 0.10
    assert m["bm25-semantic"]["mrr"] >= m["semantic"]["mrr"]


def test_fusion_weight_was_fitted_on_dev_and_is_a_share():
    table = json.loads(open(os.path.join(ROOT, "py", "raglab", "data", "fusion.json"), encoding="utf-8").read())
    assert table["fitted_by"] == "bench/fit_fusion.py"
    assert 0.0 <= semantic.fusion_weight() <= 1.0


def test_semantic_finds_a_paraphrase_with_no_shared_word():
    pipe = Pipeline(docs(), Config(chunker="recursive", retriever="semantic", expand=False))
    hits = pipe.search("I forgot my secret number for the wallet", 3)
    assert any(pipe.chunks[h.index].doc.endswith("-pin") for h in hits)


def test_cosines_of_a_question_with_texts():
    got = semantic.cosines("How do I change my PIN?", ["Open Settings, then Change PIN.", "Agents close at 9 pm."])
    assert len(got) == 2 and got[0] > got[1] and all(-1.0 <= x <= 1.0 for x in got)


def test_without_the_model_the_lexical_retrievers_keep_working(tmp_path, monkeypatch):
    monkeypatch.setattr(encoder, "MODEL_PATH", str(tmp_path / "absent.rle5"))
    monkeypatch.setattr(encoder, "_NATIVE", None)
    from raglab.encoder import vectors

    monkeypatch.setattr(vectors, "_CACHE", None)
    chunks = chunk_corpus(docs(), "recursive")
    pipe = Pipeline(docs(), Config(retriever="bm25"))
    assert pipe.search("How do I change my PIN?", 3)
    with pytest.raises(EncoderUnavailable, match="model file missing; run `python3 build.py setup`"):
        semantic.SemanticRetriever(chunks)


def test_cli_reports_a_missing_model_in_one_line(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "py"))
    code = ("import sys\nfrom raglab.encoder import native as encoder\nencoder.MODEL_PATH = sys.argv[1]\n"
            "from raglab.cli.main import main\nsys.exit(main(['ask', '--retriever', 'semantic', 'How do I change my PIN?']))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "gone.rle5")], capture_output=True, text=True, env=env)
    assert out.returncode != 0
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "gone.rle5: model file missing" in lines[0] and "Traceback" not in out.stderr
