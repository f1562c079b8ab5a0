"""Real words are not respelled (raglab.text.known): a common word of its language that the
help centre does not use keeps its meaning, while misspellings are still read as the word meant,
in what the lexical side searches for, in the answerer's coverage and in the answer type."""

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question.respell import typed_question
from raglab.retrieval.lexical import alternatives
from raglab.text import known
from raglab.text.analyzer import analyze
from raglab.text.fuzzy import distance
from raglab.text.tables import read_table


@pytest.fixture(scope="module")
def pipe():
    return Pipeline(docs(), Config(retriever="bm25"))  # the served chunks' index vocabulary


@pytest.mark.parametrize("word, rhyme", [("আজকে", "আটক"), ("slow", "show"), ("bit", "but"), ("bug", "but"),
                                         ("market", "marked"), ("বন্ধ", "বন্ধু")])
def test_a_real_word_the_index_lacks_is_not_read_as_another_word(pipe, word, rhyme):
    (term,) = analyze(word)
    bm25 = pipe._lexical_index()
    assert term not in bm25.df and analyze(rhyme)[0] in bm25.df
    assert distance(term, analyze(rhyme)[0]) <= 1.0  # the fuzzy matching alone would read it so
    assert pipe.closest(term) == ()
    assert alternatives(bm25, term) == []


def test_the_examples_in_a_question_keep_their_meaning(pipe):
    question = "আমার টাকা আজকে আসেনি, my sister sent a bit and the app is slow"
    searched = [w for t in analyze(question) for w, _ in alternatives(pipe._lexical_index(), t)]
    assert "আটক" not in searched and "show" not in searched and "but" not in searched


@pytest.mark.parametrize("typed, meant", [
    ("agnet", ("agent",)), ("chrage", ("charge",)), ("ক্যাসআউট", ("ক্যাশ", "আউট")),
    ("ভূল", ("ভুল",)), ("কতো", ("কত",)),  # another spelling of the same word
])
def test_misspellings_are_still_read_as_the_word_meant(pipe, typed, meant):
    (term,) = analyze(typed)
    assert pipe.closest(term) == meant


def test_one_word_with_another_ending_is_not_another_word():
    # Forms of one word are read as one another; a last letter that is no inflection, or a
    # vowel sign after a conjunct, makes another word: "market" is not *marked*, "বন্ধ" (closed)
    # not "বন্ধু" (friend).
    for a, b in [("noticed", "notice"), ("studies", "studied"), ("doesn", "does"), ("জানাব", "জানান"),
                 ("যাচ্ছি", "যাচ্ছ"), ("কতো", "কত")]:
        assert known.other_ending(a, b) and known.other_ending(b, a)
    for a, b in [("market", "marked"), ("came", "camel"), ("weigh", "weight"), ("বন্ধ", "বন্ধু"), ("বাস", "বাসা")]:
        assert not known.other_ending(a, b) and not known.other_ending(b, a)


def test_a_misspelt_cue_word_still_types_the_question_and_a_real_word_does_not(pipe):
    assert typed_question("wat is the fee", pipe.closest) == "what is the fee"
    # "fine" is one slip from the cue word "find" (a place question) but a word of its own
    assert typed_question("is it fine to send money", pipe.closest) == "is it fine to send money"


def test_a_banglish_grammar_word_is_not_read_as_a_question_word(pipe):
    from raglab.question.respell import question_type_of
    # "kono" (any) is one slip from "koto" (how much): read so, "can I add a note?" asked an amount
    # and a unit quoting a fee was chosen over the one saying a note can be added
    asked = "send money korar somoy ki kono note likhe dewa jay?"
    assert typed_question(asked, pipe.closest) == asked
    assert question_type_of(asked, pipe.closest) == "yesno"
    # ... while "any charge?" still asks about a fee, as "koto charge" does
    assert question_type_of("agent er kache cash in korle kono charge kete nibe naki?", pipe.closest) == "amount"


def test_a_word_spelt_like_banglish_grammar_in_an_english_question_is_still_a_slip(pipe):
    from raglab.question.respell import question_type_of
    # "hoy" and "hoi" are Banglish grammar ("is", "happens"), but an English question holds one
    # such word at most: there it is "how" mistyped, as before Banglish grammar words were kept
    assert typed_question("hoy do i reset my pin?", pipe.closest) == "how do i reset my pin?"
    assert question_type_of("hoy do i reset my pin?", pipe.closest) == "procedure"
    assert question_type_of("hoi many times can i enter a wrong pin?", pipe.closest) == "count"
    # ... while in a Banglish question it stays as typed ("koy digit er hoy?": how many digits is it?)
    assert typed_question("shapla pay er pin koy digit er hoy?", pipe.closest) == "shapla pay er pin koy digit er hoy?"


def test_a_banglish_question_is_read_as_banglish_beside_its_bangla_reading(pipe):
    from raglab.question.asking import asks_more, periods_of
    # The answerer reads a Banglish question with its Bangla reading (`Pipeline.cues`), text
    # with Bangla letters, which `is_banglish` never calls Banglish: "diye" (with) was read as
    # "dine" (in a day) and the question named a daily period; "korle" (if) as "kore"
    for asked in ("card diye add money korle ki charge lage?", "tin bar vul otp dile ki hobe?"):
        cues = pipe.cues(asked)
        assert typed_question(cues, pipe.closest) == cues and not periods_of(typed_question(cues, pipe.closest))
    # nor is a Banglish word a slip of a Banglish cue word: "porbe" (will be charged) read as
    # "parbe" (can) asked how much one can do; "kom" (least) read as "koy" (how many)
    for asked in ("atm theke cash out korle charge koto porbe?", "sob theke kom koto takar recharge kora jay",
                  "agent ke cash dilam, se bollo pathay dise kintu sms ashe nai"):
        assert typed_question(pipe.cues(asked), pipe.closest) == pipe.cues(asked)
    assert not asks_more(typed_question(pipe.cues("atm theke cash out korle charge koto porbe?"), pipe.closest), "amount")
    # while its English words are respelt as an English question's are
    assert "maximum koto" in typed_question(pipe.cues("ekdin e maximim koto taka cash out kora jay?"), pipe.closest)


def test_a_common_word_with_another_ending_is_no_misspelt_cue_word(pipe):
    # "বিকাশ" (a wallet) and "বিকাল" (afternoon) share four signs, and the index holds nothing
    # near the first: read as the time cue, the other provider the question names was lost
    for asked in ("বিকাশ অ্যাকাউন্ট খুলতে কী লাগে?", "I complained about a wrong charge. How long do you take?"):
        assert typed_question(asked, pipe.closest) == asked
    # the vowel ো written out is the same word: "কতো" asks as "কত" does
    assert typed_question("নেনো লোনের ইন্টারেস্ট রেট কতো?", pipe.closest) == "নেনো লোনের ইন্টারেস্ট রেট কত?"


@pytest.mark.parametrize("asked, kind", [
    # question words the cue table lacked and a respelling into a neighbour cue word had typed:
    # kept as typed, they must type the question themselves
    ("cash out korte koyti step lage?", "count"),  # "koyti" (how many), once read as "koyta"
    ("kemon kore pin change korbo?", "procedure"),  # "kemon kore" (how), once "kemone kore"
    ("vul number e recharge kore felsi, shapla pay ki taka ferot dite parbe?", "yesno"),  # "ki ... parbe", once "parbo"
])
def test_a_banglish_question_word_kept_as_typed_still_types_the_question(pipe, asked, kind):
    from raglab.question.respell import question_type_of
    assert typed_question(asked, pipe.closest) == asked
    assert question_type_of(asked, pipe.closest) == kind


def test_the_table_says_where_it_comes_from_and_holds_integers():
    data = json.loads(read_table("known_words.json"))
    assert "wordfreq" in data["about"] and "CC BY-SA" in data["about"].replace("Attribution-ShareAlike", "CC BY-SA")
    assert data["min_zipf_tenths"] <= known.MIN_ZIPF
    for lang in ("en", "bn"):
        for tenths, terms in data["words"][lang].items():
            assert int(tenths) >= data["min_zipf_tenths"]
            assert terms.split(" ") == sorted(set(terms.split(" ")))


WORDS = sorted(known.zipf_table())


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(WORDS), st.sampled_from(WORDS), st.sampled_from([0.5, 1.0, 1.5, 2.0]),
       st.text(alphabet="qxzj", min_size=3, max_size=6))
def test_only_another_spelling_or_ending_of_itself_replaces_a_real_word(term, other, dist, junk):
    # A word the list lacks may always be respelled; a protected word only into another ending
    # of itself, or by cheap slips alone, however common the other word is.
    assume(known.zipf(junk) == 0)
    assert known.respellable(junk, other, dist)
    if known.respellable(term, other, dist) and known.protected(term):
        assert dist <= known.CHEAP or known.other_ending(term, other)
    if not known.protected(term):
        assert known.respellable(term, other, dist)
