"""Fuzzy matching (raglab.text.fuzzy): the weighted distance, the misspellings of the golden
set's typo questions, and the deletes index against brute force."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import docs
from raglab.text import fuzzy
from raglab.text.analyzer import analyze
from raglab.text.fuzzy import Fuzzy, distance, key, max_distance


@pytest.mark.parametrize("a, b, d", [
    ("agent", "agent", 0.0),
    ("agnet", "agent", 1.0),  # a swap of neighbours is one edit
    ("pinn", "pin", 1.0),
    ("ভূল", "ভুল", 0.5),  # long for short vowel sign
    ("প্রবাসি", "প্রবাসী", 0.5),
    ("ক্যাস", "ক্যাশ", 0.5),  # sibilants
    ("নিস্পত্তি", "নিষ্পত্তি", 0.5),
    ("প্রনোদনা", "প্রণোদনা", 0.5),  # ন / ণ
    ("জায়", "যায়", 0.5),  # জ / য
    ("সরবোচ্চ", "সর্বোচ্চ", 0.5),  # a reph left out
    ("সংখা", "সংখ্যা", 0.5),  # a ya-phala left out
    ("পৌছাতে", "পৌঁছাতে", 0.5),  # chandrabindu left out
    ("একাউন্ট", "অ্যাকাউন্ট", 0.5),  # two spellings of a loanword's vowel
    ("কেশ", "ক্যাশ", 0.5),
    ("েকাথায়", "কোথায়", 0.0),  # e-kar typed before its consonant
    ("ে" + "কা", "কো", 0.0),
    ("টাকা", "ডাকা", 1.0),  # an ordinary substitution
    ("cash", "ক্যাশ", 4.5),  # other script: every letter differs (the hasanta costs half)
])
def test_distance(a, b, d):
    assert distance(a, b) == d
    assert distance(b, a) == d


def test_key_moves_pre_base_vowel_after_a_conjunct():
    assert key("েক্সা") == "ক্সো"
    assert key("কেউ") == "কেউ"  # a sign after its consonant stays
    # a sign after য় (as the analyzer folds it, য + nukta) is in its place: হয়েছ was হয়ছে
    assert key(analyze("হয়েছে")[0]) == analyze("হয়েছে")[0]


def test_a_misspelt_word_the_stemmer_cut_is_matched_as_typed():
    from raglab.retrieval.bm25 import BM25
    from raglab.retrieval.lexical import weighted_text

    # কাসটমার lost its -র to the stemmer (কাসটমা: 1.5 edits from কাস্টমার, too far for a short
    # word); as typed it is 0.5 away. The same for an English plural: "unles" is no plural of "unle".
    index = BM25([analyze("কাস্টমার কেয়ার নাম্বার"), analyze("unless you act"), analyze("টাকা পাঠানো")])
    assert weighted_text(index, "কাসটমার কেয়ারের নাম্বার")[0] == ["কাস্টমার", "কেয়ার", "নাম্বার"]
    assert weighted_text(index, "unles I act")[0] == ["unless", "act"]
    # the stem is kept where it is the nearer reading: টাকাগুলা is টাকা + a misspelt ending
    assert weighted_text(index, "টাকাআ")[0] == ["টাকা"]


@pytest.mark.parametrize("word, allowed", [
    ("fe", 0.0), ("pin", 1.0), ("agnet", 1.0), ("acount", 1.0), ("minimun", 1.0), ("complant", 2.0),
    ("ভুল", 1.0), ("টাকা", 1.0), ("ক্যাশ", 1.0), ("অ্যাকাউন্ট", 2.0), ("25000", 0.0), ("1.85", 0.0),
])
def test_max_distance(word, allowed):
    assert max_distance(word) == allowed


@pytest.fixture(scope="module")
def corpus_fuzzy():
    vocab: dict[str, int] = {}
    for d in docs():
        for t in set(analyze(d.text)):
            vocab[t] = vocab.get(t, 0) + 1
    return Fuzzy(vocab)


# Misspelt words of the golden set's typo questions (analysed as the retrievers see them)
# and the corpus word meant: each is the first of its `closest` list.
@pytest.mark.parametrize("typed, meant", [
    ("agnet", "agent"), ("acount", "account"), ("remitance", "remittance"), ("incentiv", "incentive"),
    ("electrcity", "electricity"), ("paymnt", "payment"), ("intrest", "interest"), ("finsh", "finish"),
    ("ভূল", "ভুল"), ("সরবোচ্চ", "সর্বোচ্চ"), ("প্রনোদনা", "প্রণোদনা"), ("নিস্পত্তি", "নিষ্পত্তি"),
    ("সংখার", "সংখ্যা"), ("পৌছাতে", "পৌঁছা"), ("একাউন্ট", "অ্যাকাউন্ট"), ("কেশ", "ক্যাশ"),
])
def test_typo_questions_find_the_word_meant(corpus_fuzzy, typed, meant):
    (term,) = analyze(typed)
    assert meant in corpus_fuzzy
    assert corpus_fuzzy.closest(term)[0][0] == meant


def test_known_word_is_its_own_closest(corpus_fuzzy):
    assert corpus_fuzzy.closest("agent") == [("agent", 0.0)]


def test_numbers_and_short_words_never_match_fuzzily(corpus_fuzzy):
    assert corpus_fuzzy.closest("25001") == []
    assert corpus_fuzzy.closest("fe") == []


def test_segment_finds_words_run_together(corpus_fuzzy):
    assert corpus_fuzzy.segment("cashout")[0] == (("cash", "out"), 0.5)
    (term,) = analyze("ক্যাসআউট")
    assert corpus_fuzzy.segment(term)[0] == (("ক্যাশ", "আউট"), 1.0)


def test_ties_prefer_the_longer_shared_start_then_the_more_common_word():
    f = Fuzzy({"count": 9, "amount": 5, "account": 1})
    assert [w for w, _ in f.closest("acount")] == ["account", "amount"]  # count: another first letter
    f = Fuzzy({"dome": 1, "done": 3})
    assert [w for w, _ in f.closest("dose")] == ["done", "dome"]


@pytest.mark.parametrize("word", ["exchange", "brother", "evening", "sister", "হাজার", "বোন"])
def test_correct_words_the_corpus_lacks_are_left_alone(corpus_fuzzy, word):
    # rhymes of corpus words (change, other, opening, বাজার, ফোন) and, within the stricter
    # distance of a short word, system for "sister"
    (term,) = analyze(word)
    assert term not in corpus_fuzzy and corpus_fuzzy.closest(term) == []


def test_the_first_letter_allows_the_cheap_slips():
    f = Fuzzy(["অ্যাকাউন্ট", "যাব"])
    assert f.closest("একাউন্ট") == [("অ্যাকাউন্ট", 0.5)]
    assert f.closest("জাব") == [("যাব", 0.5)]


def _reference(a: str, b: str) -> int:
    """The distance's definition written as a plain recursion, in half units."""
    a, b = key(a), key(b)
    memo: dict[tuple[int, int], int] = {}

    def cost_sub(x, y):
        return 0 if x == y else fuzzy._sub_cost(x, y)

    def d(i: int, j: int) -> int:
        if (i, j) in memo:
            return memo[i, j]
        options = []
        if i == 0 and j == 0:
            return 0
        if i > 0:
            options.append(d(i - 1, j) + fuzzy._indel_cost(a[i - 1]))
        if j > 0:
            options.append(d(i, j - 1) + fuzzy._indel_cost(b[j - 1]))
        if i > 0 and j > 0:
            options.append(d(i - 1, j - 1) + cost_sub(a[i - 1], b[j - 1]))
        if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] and a[i - 1] != b[j - 1]:
            options.append(d(i - 2, j - 2) + 2)
        for x, y in fuzzy._CHEAP_SWAPS:
            for p, r in ((x, y), (y, x)):
                if a[:i].endswith(p) and b[:j].endswith(r) and (p or r):
                    options.append(d(i - len(p), j - len(r)) + 1)
        memo[i, j] = min(options)
        return memo[i, j]

    return d(len(a), len(b))


LETTERS = "কখসশষনণজযরড়িীুূ্ঁেোাঅএ" + "\u09dc"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=LETTERS, max_size=8), st.text(alphabet=LETTERS, max_size=8))
def test_distance_matches_its_definition(a, b):
    assert distance(a, b) * 2 == _reference(a, b)


@pytest.mark.slow  # up to 500 misspellings per alphabet against brute force over their vocabulary
@pytest.mark.parametrize("alphabet", ["abcdeist", "কাি্যজনণরস" + "\u09dc" + "ুূঁোেঅএ"])
def test_index_finds_exactly_what_brute_force_finds(alphabet):
    rng = random.Random(20261201)
    for trial in range(20):
        vocab = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 13))) for _ in range(150)})
        index = Fuzzy(vocab)
        for _ in range(25):
            word = list(rng.choice(vocab))
            for _ in range(rng.randint(1, 3)):
                at = rng.randint(0, len(word))
                op = rng.randint(0, 2)
                if op == 0:
                    word.insert(at, rng.choice(alphabet))
                elif at < len(word):
                    if op == 1:
                        del word[at]
                    else:
                        word[at] = rng.choice(alphabet)
            word = "".join(word)
            if word in vocab:
                continue
            allowed = max_distance(word)
            first = fuzzy.first_letter(key(word))
            brute = {v for v in vocab if allowed and distance(word, v) <= allowed and fuzzy.first_letter(key(v)) == first}
            got = index.closest(word)
            assert {w for w, _ in got} == brute, (word, trial)
            assert [d for _, d in got] == sorted(d for _, d in got)


def test_a_very_long_word_is_cheap(corpus_fuzzy):
    import time

    start = time.perf_counter()
    assert corpus_fuzzy.closest("x" * 100_000) == [] and corpus_fuzzy.segment("x" * 100_000) == []
    assert time.perf_counter() - start < 1.0


def test_a_word_typed_with_a_letter_left_out_prefers_the_words_it_left_it_from():
    # at equal distance, "wat" is *what*, *want* or *wait* with a letter left out before it is
    # *way* retyped, though *way* shares more of its start than *what*
    f = Fuzzy(["way", "want", "wait", "what"])
    assert [w for w, _ in f.closest("wat")] == ["wait", "want", "what", "way"]
    assert [w for w, _ in Fuzzy(["money", "many"]).closest("mony")] == ["money", "many"]


def test_a_misspelt_question_word_is_not_searched_as_content_words():
    from raglab.retrieval.bm25 import BM25
    from raglab.retrieval.lexical import alternatives

    # the stopword *what* is among the nearest three, so "wat" was a misspelt question word
    index = BM25([["way", "fee"], ["want", "wait", "cash"]])
    assert alternatives(index, "wat") == []


def test_a_misspelt_adverb_is_read_through_its_adjective():
    # "seperately" is three edits from the index's "separate" (the misspelling and the -ly the stemmer
    # keeps), beyond any word's reach: without the ending one edit is left
    from raglab.retrieval.lexical import nearest

    index = Fuzzy(["separate", "transaction", "refund"])
    assert nearest(index, "seperately") == (["separate"], 1.0, False)
    assert nearest(index, "separately") == (["separate"], 2.0, False)  # spelt right, as before
    assert nearest(Fuzzy(["on", "only"]), "onlly") is not None  # a short word is matched as a whole
    assert nearest(index, "definately") is None  # an adjective the index lacks is no reading
