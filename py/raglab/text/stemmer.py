"""Light stemmers: Bangla inflectional suffixes and English plurals.

They only fold the forms of one word together, so that "সুদের" (of the interest) meets
"সুদ" (interest) and "fees" meets "fee"; they never reach for the root, and every stem
stays explainable in the page, which highlights the words it matched.

**Bangla.** Inflections are suffixes on the noun: the genitive (টাকার, সুদের, এজেন্টদের),
the locative (ফোনে, টাকায়, অ্যাপেতে), the objective (এজেন্টকে), the plural (গ্রাহকরা,
টাকাগুলো) and the classifiers (অ্যাপটি, লিংকটা), stacked at times (অ্যাকাউন্টটির,
এজেন্টদেরকে). A few verb endings of a customer's own telling go too: the future in -বো
(খুলবো) and the past in -লাম (দেখলাম) of the first person, and the progressive of any person
(খুলছি, বলছে, দেখাচ্ছে), so that they meet the root the help centre's infinitive leaves (খুলতে: খুল). `stem_bangla` strips them
from the end, longest first, again and again, but only where the rest is still a stem:

- at least `MIN_STEM_LETTERS` letters (consonants or independent vowels; vowel signs,
  the hasanta and the other signs are not letters), more for the suffixes that are
  often a word's own ending (দের, রা, কে: three), and not ending in a hasanta: so হার
  (rate) and বার (times) are not হা and বা, ঘণ্টা keeps its টা and খুচরা its রা;
- the suffix fits what precedes it: the genitive র follows a vowel (টাকার), the
  locative য় the vowel sign া or ো (টাকায়), the genitive ের and the locative ে a
  consonant (সুদের, ফোনে); so সময় and জাতীয় keep their য়, and দর its র;
- words that merely end like a suffix and would pass those tests (হাজার, দরকার,
  শুক্রবার…) are listed in `UNSTEMMED` and kept whole; so are their inflections
  (হাজারের gives হাজার).

An emphatic particle glued after them goes too: ও (also, even) and ই (only, just), as in
"অ্যাকাউন্টও", "পিনটাই", "কার্ডেরও"; a word that ends in the letter itself (যাচাই, ভিডিও, ভাই) is
kept whole (`without_particle`, `PARTICLE_WORDS`).

A case ending written after a hyphen, on a loanword, a name or a number ("শাপলা পে-র",
"SMS-এ"), or glued to a Latin word ("SMSএ", "Shapla Payতে"), is one of `HYPHEN_ENDINGS`: the
analyzer drops it and keeps the word before.

**English.** Plurals only, to a fixpoint: limits -> limit, fees -> fee, agencies ->
agency, passes -> pass; words ending in -ss, -us, -is keep their s.

Both take a word as the analyzer produced it (Bangla folded, English lower-cased).
"""

from __future__ import annotations

import unicodedata

MIN_STEM_LETTERS = 2

HASANTA = "\u09cd"
NUKTA = "\u09bc"


def _fold(word: str) -> str:
    # The analyzer's folding of ড় ঢ় য় (letter + nukta) and NFC, for the tables below,
    # which are typed with whatever form the editor produced.
    for pre, dec in (("\u09dc", "\u09a1" + NUKTA), ("\u09dd", "\u09a2" + NUKTA), ("\u09df", "\u09af" + NUKTA)):
        word = word.replace(pre, dec)
    return unicodedata.normalize("NFC", word)


def is_letter(ch: str) -> bool:
    """A Bangla letter: an independent vowel (অ-ঔ, ৠ ৡ) or a consonant (ক-হ, ৎ, ড় ঢ় য়)."""
    return "\u0985" <= ch <= "\u09b9" or ch in "\u09ce\u09dc\u09dd\u09df\u09e0\u09e1\u09f0\u09f1"


def is_vowel_sign(ch: str) -> bool:
    return "\u09be" <= ch <= "\u09cc" or ch in "\u09d7\u09e2\u09e3"


def letters(word: str) -> int:
    """How many letters `word` has (see `is_letter`)."""
    n = 0
    for ch in word:
        if is_letter(ch):
            n += 1
    return n


def _ends_in_vowel(stem: str) -> bool:
    last = stem[-1]
    return is_vowel_sign(last) or "\u0985" <= last <= "\u0994"


def _ends_in_consonant(stem: str) -> bool:
    last = stem[-1]
    if last == NUKTA and len(stem) > 1:  # ড় ঢ় য় are a consonant and the nukta
        last = stem[-2]
    return "\u0995" <= last <= "\u09b9" or last in "\u09ce\u0982"  # ং: ব্যাংক/রং-like endings


# suffix -> (what must precede it, fewest letters of stem). Precedes: "V" a vowel, "A" the
# vowel sign া or ো, "C" a consonant, "VY" a vowel or য়, "" anything.
_SUFFIX_RULES = {
    "গুলোতে": ("", 2), "গুলোর": ("", 2), "গুলোকে": ("", 2), "গুলো": ("", 2), "গুলির": ("", 2), "গুলি": ("", 2),
    # the plural genitive goes on nouns for people (গ্রাহকদের, এজেন্টদের); on shorter stems
    # দের is a noun's দ + ের (সুদের, মেয়াদের)
    "দেরকে": ("", 3), "দের": ("", 3),
    "েরা": ("C", 2), "য়ের": ("V", 2), "এর": ("", 2), "ের": ("C", 2), "র": ("V", 2),
    "টির": ("", 2), "টার": ("", 2), "টি": ("", 2), "টা": ("", 2),
    "রা": ("", 3),  # গ্রাহকরা, but not খুচরা, দ্বারা
    "তে": ("", 2),
    "কে": ("", 3),  # এজেন্টকে, but ব্যাংকে and আটকে end in a consonant ক + ে
    "য়": ("A", 2),  # টাকায়, তাড়াহুড়োয়; never the adjectives' -ীয় (জাতীয়, নিষ্ক্রিয়)
    "ে": ("C", 2),
    # Verb endings: the future in -বো and the past in -লাম of the first person (খুলবো,
    # দেখলাম), and the progressive (খুলছি, বলছে, দেখাচ্ছে), so that they meet the root the help
    # centre's infinitive leaves (খুলতে: খুল). Two letters of root at least: পাবো, যাচ্ছি stay
    # whole. ছ follows a consonant root, চ্ছ a vowel (স্বচ্ছ, তুচ্ছ are no verbs). The bare -ব
    # (খুলব) and -বেন (খুলবেন) were tried and not kept (docs/pipeline.md).
    "বো": ("", 2), "লাম": ("", 2), "ছি": ("C", 2), "ছ": ("C", 2), "চ্ছি": ("V", 2), "চ্ছ": ("V", 2),
    # The negative past, -নি on the verb's present form after a vowel or য় (আসেনি, মেটেনি, হয়নি,
    # করিনি, পাইনি: did not come, was not settled ...), so that it meets the help centre's "না আসে"
    # (আস); আপনি (a consonant before) stays, and so do তিনি and মানি (one letter of stem).
    "নি": ("VY", 2),
}
BANGLA_SUFFIXES = tuple(sorted(((_fold(s), rule) for s, rule in _SUFFIX_RULES.items()),
                               key=lambda p: (-len(p[0]), p[0])))

# Words that end like a suffix, pass the stem tests and are not inflected: kept whole, and
# so are words ending in -বার (times, days) and -দার (-holder). Found by listing every
# corpus and question word the rules above cut, and reading them; grow it the same way
# when a corpus brings new ones (`raglab analyze WORD` shows the stem).
_UNSTEMMED_TEXT = """
হাজার বাজার দরকার সরকার প্রকার আকার অধিকার উপকার স্বীকার শিকার অঙ্গীকার অন্ধকার
পরিষ্কার পুরস্কার ব্যবহার আহার উপহার বিচার প্রচার আচার আবার
নাম্বার মেম্বার ডলার ইউজার সার্ভার ব্রাউজার রেজিস্টার কম্পিউটার মিটার লিটার অফার
কাস্টমার কেয়ার ক্যালেন্ডার ট্রান্সফার শেয়ার সার্কুলার সেন্টার ভোটার কভার স্টোর
কিউআর পার্টনার স্টিকার ফোল্ডার প্রোভাইডার স্ক্যানার পেপার
ফেসবুক
উপায় প্রায় পুনরায় সহায় অধ্যায় দায় ন্যায়
ভার্সিটি ইউনিভার্সিটি কেনাকাটা ত্রুটি কমিটি সিটি ডিউটি ওয়ারেন্টি সিকিউরিটি ইউটিলিটি পার্টি
ইসলাম
কোম্পানি আইনি নমিনি হয়নি কাহিনি
""".split()
UNSTEMMED = frozenset(_fold(w) for w in _UNSTEMMED_TEXT)
_WHOLE_ENDINGS = ("বার", "দার")


# The case endings a writer puts after a hyphen, on a loanword, a name or a number that takes
# no vowel sign ("শাপলা পে-র", "জিআরও-র", "SMS-এ", "Thursday-র", "১৬৭৮৯-এ", "পে-তে", "এজেন্ট-এর"), and
# glued to a Latin word, where only the change of script parts them ("SMSএ", "appএর", "NIDর"):
# the noun suffixes above, a leading vowel sign written as its letter too (ের as এর, ে as এ,
# েরা as এরা). The analyzer drops such an ending, as this stemmer drops it from a word, and keeps
# the word before it. A closed list, never stacked by rule: what follows a hyphen and is more
# than an ending is a word ("QR-কোড", "ই-মেইল", "দিন-রাত": রাতে would be রা + তে).
_HYPHEN_ENDING_TEXT = """
র এর ের য়ের এ ে য় তে এতে কে রা এরা েরা দের দেরকে টা টি টার টির টাকে টিকে টাতে টিতে
গুলো গুলোর গুলোকে গুলোতে গুলি গুলির
"""
HYPHEN_ENDINGS = frozenset(_fold(w) for w in _HYPHEN_ENDING_TEXT.split())


def is_hyphen_ending(word: str) -> bool:
    """Whether `word` (as the analyzer folds it) is a case ending written after a hyphen ("পে-র")."""
    return word in HYPHEN_ENDINGS


def _is_number(stem: str) -> bool:
    for ch in stem:
        if not ("0" <= ch <= "9" or ch == "."):
            return False
    return True


def _kept(word: str) -> bool:
    return word in UNSTEMMED or word.endswith(_WHOLE_ENDINGS)


def _strip_one(word: str) -> str | None:
    if _kept(word):
        return None
    for suffix, _ in BANGLA_SUFFIXES:  # a listed word with a suffix: অধ্যায়ের is অধ্যায় + ের
        if word.endswith(suffix) and _kept(word[: -len(suffix)]):
            return word[: -len(suffix)]
    for suffix, (precedes, fewest) in BANGLA_SUFFIXES:
        if not word.endswith(suffix) or len(word) == len(suffix):
            continue
        stem = word[: -len(suffix)]
        if _is_number(stem):  # ৫০টি, ১০০০এর: the number is the stem
            return stem
        if stem[-1] == HASANTA or letters(stem) < fewest:
            continue
        if precedes == "V" and not _ends_in_vowel(stem) or precedes == "C" and not _ends_in_consonant(stem):
            continue
        if precedes == "A" and stem[-1] not in "\u09be\u09cb":
            continue
        if precedes == "VY" and not (_ends_in_vowel(stem) or stem.endswith("\u09af" + NUKTA)):
            continue
        return stem
    return None


# The emphatic particles ও (also, even) and ই (only, just), glued to a word after its inflection:
# "অ্যাকাউন্টও" (the account too), "পিনটাই", "কার্ডেরও", "চার্জটাও". They go like an inflection, so the
# word meets its other forms and the expansion table's phrases. A word that ends in the letter
# itself stays whole: a stem of one letter (ভাই, নেই, দুই, চাই, সই), an independent vowel or ঁ
# before (ইএমআই, ঠাকুরগাঁও: spelt letters and names), or listed here: found by reading every
# word ending so in the corpus, the dev questions and `data/known_words.json` (374 common words)
# whose rest is no such word (যাচাই is no যাচা + ই) or means another thing (কখনও "ever" is no কখন
# "when"); grow it the same way. Loanwords in -ফাই and -লাই (ভেরিফাই, অ্যাপ্লাই, জুলাই) and the number
# words in -নব্বই are whole too.
_PARTICLES = ("ও", "ই")  # ও ই, the independent letters
_PARTICLE_WORDS_TEXT = """
যাচাই বাছাই সবাই জামাই জবাই আড়াই লড়াই রেহাই ছিনতাই খোদাই দোহাই সেলাই ঢালাই মিঠাই কসাই সাফাই
বালাই চড়াই ধোলাই রোশনাই ট্রাই দুবাই মুম্বাই মুম্বই সাংহাই চেন্নাই ব্রুনাই সিনাই হাওয়াই কাপ্তাই ওয়াই
টেকসই পাসবই চেকবই
জিআরও ইউএনও সিইও এনজিও ভিডিও রেডিও অডিও স্টুডিও টোকিও পোর্টফোলিও রেশিও সিনারিও উধাও ঘেরাও ওয়াও
কখনও কারও আরও কোথাও যদিও
"""
PARTICLE_WORDS = frozenset(_fold(w) for w in _PARTICLE_WORDS_TEXT.split())
_PARTICLE_WHOLE_ENDINGS = ("ফাই", "লাই", "নব্বই")


def without_particle(word: str) -> str | None:
    """`word` without an emphatic ও or ই glued to it ("পিনটাই" -> "পিনটা"), or None when it has
    none (see `PARTICLE_WORDS`).

    >>> [without_particle(w) for w in ["অ্যাকাউন্টও", "কার্ডেরও", "যাচাই", "ভাই", "ইএমআই"]]
    ['অ্যাকাউন্ট', 'কার্ডের', None, None, None]
    """
    if not word.endswith(_PARTICLES) or word in PARTICLE_WORDS or word.endswith(_PARTICLE_WHOLE_ENDINGS):
        return None
    rest = word[:-1]
    last = rest[-1:]
    if letters(rest) < MIN_STEM_LETTERS or last in (HASANTA, "\u0981"):
        return None
    # -াই is mostly a word's own ending (যাচাই, বাছাই, সবাই, দুবাই, and loanwords: অ্যাপ্লাই, রিপ্লাই,
    # ট্রাই): ই after া goes only after the classifier টা (একটাই, পিনটাই); টাকাই stays whole
    if word.endswith("\u0987") and last == "\u09be" and not rest.endswith("\u099f\u09be"):
        return None
    # a vowel letter before is a spelt letter's (ইএমআই, এফবিআই, সিইও), unless it closes a word's
    # diphthong after া, ে or ো (ভাইও, যাচাইও, কেউই)
    if "\u0985" <= last <= "\u0994" and not (last in "\u0987\u0989" and rest[-2:-1] in ("\u09be", "\u09c7", "\u09cb")):
        return None
    return rest


def stem_bangla(word: str) -> str:
    """`word` without its inflectional suffixes and an emphatic particle (see the module docstring).

    >>> [stem_bangla(w) for w in ["সুদের", "হার", "টাকার", "টাকায়", "এজেন্টদেরকে", "হাজারের", "কার্ডেরও"]]
    ['সুদ', 'হার', 'টাকা', 'টাকা', 'এজেন্ট', 'হাজার', 'কার্ড']
    """
    while True:
        stem = _strip_one(word)
        if stem is None:
            stem = without_particle(word)
        if stem is None:
            return word
        word = stem


def stem_english(word: str) -> str:
    """Light plural folding (limits -> limit, fees -> fee, agencies -> agency), to a fixpoint."""
    while True:
        before = word
        if len(word) > 3 and word.endswith("s") and word[-2] not in "usi":
            if word.endswith("ies") and len(word) > 4 and word[-4] not in "ae":
                word = word[:-3] + "y"
            elif word.endswith(("sses", "xes", "ches", "shes")):
                word = word[:-2]
            else:
                word = word[:-1]
        if word == before:
            return word
