"""Banglish questions (raglab.text.banglish): which questions are read in Bangla script, how a
typed word meets the help centre's Bangla word, and that nothing else changes."""

import glob
import json
import os

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.text.banglish import Reader, distance, is_banglish, latin, roman
from raglab.text.loanwords import Loanwords

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def reader():
    return Reader.of(d.text for d in docs())


@pytest.mark.parametrize("bangla, sound, open_end", [
    ("কত", "kot", True),  # inherent vowels: "koto", the last one optional
    ("টাকা", "taka", False),
    ("ক্যাশ", "kas", True),  # ya-phala: the consonant alone
    ("নম্বর", "nombor", True),  # but ম্ব is "mb"
    ("প্রিয়", "priy", True),  # ra-phala, and য় as y
    ("কিভাবে", "kibabe", False),  # ভ folds into b
    ("সর্বোচ্চ", "sorboc", True),  # a reph over ব is no ba-phala; চ্চ is one c, as typed
    ("উত্তর", "utor", True),  # "uttor" and "utor" alike
])
def test_bangla_words_are_spelt_by_sound(bangla, sound, open_end):
    assert roman(bangla) == (sound, open_end)


@pytest.mark.parametrize("typed, sound", [("kivabe", "kibabe"), ("bhul", "bul"), ("vul", "bul"),
                                          ("thakle", "takle"), ("pinn", "pin"), ("shob", "sob")])
def test_typed_spellings_fold_together(typed, sound):
    assert latin(typed) == sound


def test_vowels_cost_half_and_only_close_ones():
    assert distance("koto", "koto") == 0.0
    assert distance("kota", "koto") == 0.5  # a for o: a Banglish habit
    assert distance("kita", "koto") == 1.5  # i for o is not one
    assert distance("kt", "koto") == 1.0  # two vowels left out


@pytest.mark.parametrize("typed, word", [
    ("vule", "ভুলে"), ("gele", "গেলে"), ("kivabe", "কীভাবে"), ("koto", "কত"), ("taka", "টাকা"),
    ("theke", "থেকে"), ("cash", "ক্যাশ"), ("boyosh", "বয়স"),
])
def test_typed_words_meet_the_help_centres_words(reader, typed, word):
    assert reader.word(typed) == word


def test_the_currencys_abbreviation_is_taka(reader):
    assert reader.read("recharge er maximum koto tk?") == "recharge এর maximum কত টাকা?"  # not ঠিক


def test_english_words_with_no_bangla_sound_alike_stay(reader):
    assert reader.word("money") is None  # not মনে
    assert reader.word("add") is None  # a short word needs a near-exact sound


def test_an_english_word_of_the_articles_needs_a_near_bangla_sound(reader):
    # "time" is one consonant from এটিএমে (at the ATM): read so, a duration question searched
    # for ATMs. A vowel slip still reads an English word as the help centre's Bangla one.
    assert reader.word("time") is None
    assert reader.read("add money from bank koto time lage").split()[-2:] == ["time", "লাগে"]
    assert reader.word("out") == "আউট" and reader.word("cash") == "ক্যাশ"


def test_ya_typed_as_i_or_y_is_one_sound(reader):
    # য় is a glide Banglish writes "y" or "i": "prai" is প্রায় (almost), not পড়া (read)
    assert reader.word("prai") == "প্রায়" and reader.word("pray") == "প্রায়"
    assert reader.word("koyta") is None  # a glide is no vowel to leave out: not কথা
    assert reader.word("money") is None  # nor a y to drop: not মনে


def test_a_phrase_typed_as_one_word_is_read_as_its_two_words(reader):
    # "kotodin" (how many days) is কত দিন, which the help centre writes apart
    assert reader.read("obhijog korle kotodin e somadhan hoy").split()[2:4] == ["কত", "দিন"]
    # a half the analyzer drops names nothing: "kichukkhon" (a while) is no কিছু কোন
    assert reader.two_words("kichukkhon") is None
    assert reader.two_words("recharge") is None  # a word of the English articles stays whole


def test_a_banglish_question_is_read_in_bangla_script(reader):
    assert reader.read("pin vule gele ki korbo?") == "পিন ভুলে গেলে কী korbo?"


def test_no_english_or_bangla_question_of_any_golden_set_is_read_as_banglish(reader):
    """The cue words are Bangla grammar, never English: over 4,000 questions by other people
    and ours (TyDi's English train questions among them), and only the ones typed in Banglish
    are read."""
    read = []
    for path in [os.path.join(ROOT, "goldens", "questions.jsonl"),
                 *glob.glob(os.path.join(ROOT, "goldens", "external", "*", "questions.jsonl"))]:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                q = json.loads(line)
                if reader.is_banglish(q["question"]):
                    read.append(q)
    assert len(read) >= 20
    for q in read:  # Banglish is labelled Bangla: a misspelling when answerable, else unanswerable
        assert q["lang"] == "bn" and q["kind"] in ("typo", "unanswerable"), q["question"]
    train = os.path.join(ROOT, "goldens", "external", "tydiqa-en-train", "tydiqa-goldp-en-train-rest.json")
    with open(train, encoding="utf-8") as fh:
        asked = [qa["question"] for a in json.load(fh)["data"] for p in a["paragraphs"] for qa in p["qas"]]
    assert len(asked) > 3000 and not [q for q in asked if reader.is_banglish(q)]


def test_one_grammar_word_is_enough_with_a_word_only_bangla_spells(reader):
    assert reader.is_banglish("taka pathanor limit koto prtidin")  # পাঠানোর
    assert not reader.is_banglish("hotline number koto")  # only help-centre English besides
    assert not is_banglish("taka pathanor limit koto prtidin")  # the corpus-free test wants two


def test_the_pipeline_retrieves_through_the_reading_and_leaves_other_questions_alone():
    pipe = Pipeline(docs(), Config(retriever="bm25", chunker="recursive"))
    assert pipe.read("How do I reset my PIN?") == "How do I reset my PIN?"
    assert pipe.read("পিন ভুলে গেলে কী করব?") == "পিন ভুলে গেলে কী করব?"
    hits = pipe.search("pin vule gele notun pin kivabe set korbo?")
    assert pipe.chunks[hits[0].index].doc == "bn-pin"  # typed as is, BM25 finds no Bangla word
    assert pipe.query("pin vule gele ki korbo?").lang == "bn"


def test_a_corpus_without_bangla_reads_every_question_as_typed():
    reader = Reader.of(["Cash out at an agent costs 1.85%."])
    assert reader.read("cash out korte koto taka lage?") == "cash out korte koto taka lage?"


@pytest.mark.parametrize("typed, not_read_as", [("kobe", "খুব"), ("korchi", "খরচ"), ("amar", "আমরা"), ("sathe", "সেটি")])
def test_a_grammar_word_is_not_read_as_a_word_two_slips_away(reader, typed, not_read_as):
    # "kobe" (when) read as খুব (very) showed the note on two send-money counts, at 0.76, for
    # "limit shesh hoye gele abar kobe theke send money korte parbo?"; "korchi" (doing) was read
    # as খরচ (cost) and made a question about recharging every day a question about a fee.
    assert reader.word(typed) != not_read_as
    assert reader.word("koto") == "কত" and reader.word("hobe") == "হবে"  # its own word still reads


@pytest.mark.parametrize("typed, not_read_as", [("gechi", "গেছে"), ("pathiyechi", "পাঠিয়েছে"), ("pari", "পারে")])
def test_a_first_person_verb_is_not_read_as_the_third(reader, typed, not_read_as):
    # the last vowel of a verb is its person (গেছি "gechi" I have gone, গেছে "geche" it has gone); the
    # help centre never speaks in the first person, so the nearest word was another person's
    assert reader.word(typed) != not_read_as
    assert reader.word("geche") == "গেছে" and reader.word("dite") == "দিতে"  # the same person still reads


@pytest.mark.parametrize("typed, read_as", [
    ("diti", "দিতে"),  # an infinitive (to give) has no person: its last vowel typed as i is a slip
    ("ekhani", "এখানে"),  # nor a noun's case ending (here)
    ("apne", "আপনি"),  # nor a pronoun's last vowel (you)
])
def test_a_word_that_is_no_verbs_person_is_read_across_its_last_vowel(reader, typed, read_as):
    assert reader.word(typed) == read_as


def test_only_a_verbs_finite_forms_count_as_a_person():
    from raglab.text.banglish import _persons
    words = {"করে", "করতে", "গেছে", "দিতে", "দিনে", "এখানে", "পারে", "পারবেন"}
    assert _persons(words) == {"করে", "গেছে", "পারে"}


def test_an_emphatic_i_not_typed_makes_another_word(reader):
    # "chire" (ছিঁড়ে, torn) is no ছেড়েই (having left indeed): the emphatic ই is typed where it is said
    assert reader.word("chire") is None


def test_an_english_phrase_of_the_articles_keeps_its_words_from_a_vowel_slip(reader):
    # "nano loan" is the articles' name for the loan: "nano" is no নেন (take), a vowel written for another
    read = reader.read("nano loan er limit koto")
    assert read.startswith("nano loan ") and "কত" in read
    assert "per month" in reader.read("send money er free limit koto per month")
    # a word the Bangla articles spell so still reads: শাপলা with its inherent vowel, সেন্ড exactly
    assert reader.read("shapla pay er pin koto digit").startswith("শাপলা pay")
    assert reader.read("send money koto bar kora jay").startswith("সেন্ড money")
    # a phrase whose every word sounds like a Bangla word is read as Bangla, as the Bangla articles write it
    assert reader.read("cash out er charge koto").startswith("ক্যাশ আউট")


def test_a_forgotten_pin_typed_in_the_first_person_is_answered_by_the_reset_steps():
    # "pin vule gechi ki korbo" (I have forgotten my PIN, what do I do) was read as "... গেছে ..."
    # and met the heading "যদি মনে হয় পিন অন্য কেউ জেনে গেছে" (if someone has come to know your PIN)
    pipe = Pipeline(list(docs()), Config())
    got = pipe.ask("pin vule gechi ki korbo")
    assert "গেছে" not in got.read_as and "gechi" in got.read_as
    assert not got.answer.abstained and got.answer.citations[0].startswith("bn-pin#") and got.answer.citations[0] != "bn-pin#7"
    assert pipe.chunks[pipe.search(got.read_as)[0].index].text.lstrip("# ").startswith("পিন ভুলে গেলে")


def test_a_when_question_with_kobe_shows_no_answer_about_something_else():
    pipe = Pipeline(list(docs()), Config())
    got = pipe.ask("limit shesh hoye gele abar kobe theke send money korte parbo?")
    assert "খুব" not in got.read_as
    assert got.answer.abstained


# Loanwords: a question's term found in the other script's spelling of it (`Loanwords`,
# `Pipeline.aliases`).


@pytest.fixture(scope="module")
def loanwords():
    pipe = Pipeline(list(docs()), Config(retriever="bm25", chunker="recursive"))
    return pipe.loanwords


@pytest.mark.parametrize("term, alike", [
    ("screen", ("স্ক্রিন",)), ("bank", ("ব্যাংক",)), ("balance", ("ব্যালেন্স",)), ("agent", ("এজেন্ট",)),
    ("স্টেটমেন্ট", ("statement",)), ("মার্চেন্ট", ("merchant",)), ("কার্ড", ("card",)), ("ব্যাংক", ("bank",)),
])
def test_a_loanword_meets_its_spelling_in_the_other_script(loanwords, term, alike):
    assert loanwords.alike(term) == alike


@pytest.mark.parametrize("term", [
    "taken", "token", "talk",  # থাকেন, তখন, তালিকা: Bangla writes an English t as ট, not ত or থ
    "calling",  # এককালীন: the first sounds differ
    "sms",  # সমস্যা: an abbreviation is no word
    "app", "pay", "visa",  # fewer than three consonants sound like too many words
    "recharged2",  # not a word
])
def test_no_false_friend_and_no_short_word(loanwords, term):
    assert loanwords.alike(term) == ()


def test_loanwords_are_aliases_for_the_answerer_only_in_the_other_script():
    pipe = Pipeline(list(docs()), Config(retriever="bm25", chunker="recursive"))
    got = pipe.aliases("Can he see my screen?")
    assert ("স্ক্রিন",) in got["screen"] and ("screen",) not in got["screen"]
    assert ("statement",) in pipe.aliases("স্টেটমেন্ট পিডিএফ হিসেবে নামানো যাবে?")["স্টেটমেন্ট"]
    assert "taken" not in pipe.aliases("Has the fee been taken?")  # no loanword: no entry at all


@pytest.mark.parametrize("english, bangla", [
    ("privacy", "প্রবাসী"),  # expatriate: Bangla writes an English i with ি, never the inherent vowel
    ("story", "স্টোর"),  # nor a final one
    ("school", "সচল"),  # active: English sch is "sk"
    ("mask", "মাসিক"),  # monthly: a vowel sign is a vowel English says too
    ("chest", "চেষ্টা"),
    ("portion", "প্রশ্ন"),  # question: a cluster (প্র) has no vowel in it
])
def test_a_false_friend_of_a_loanword_is_no_alias_either_way(english, bangla):
    words = Loanwords([english, bangla])
    assert words.alike(english) == () and words.alike(bangla) == ()


@pytest.mark.parametrize("english, bangla", [
    ("statement", "স্টেটমেন্ট"), ("contact", "কন্টাক্ট"), ("form", "ফরম"), ("centre", "সেন্টার"),
    ("install", "ইনস্টল"), ("company", "কোম্পানি"), ("selfie", "সেলফি"), ("store", "স্টোর"),
])
def test_the_vowel_rules_keep_the_loanwords(english, bangla):
    words = Loanwords([english, bangla])
    assert words.alike(english) == (bangla,) and words.alike(bangla) == (english,)


def test_a_corpus_in_one_script_reads_no_sounds_for_a_question_in_it():
    words = Loanwords(["screen", "statement", "bank"])
    assert words.alike("screen") == () and words._sides == {"bn": {}}
