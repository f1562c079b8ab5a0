"""Banglish: Bangla typed in Latin letters ("pin vule gele ki korbo?"), read in Bangla script.

Many customers type Bangla with an English keyboard. Neither side of retrieval reads such a
question: BM25 finds no Bangla word in it, and the encoder sees Latin letters it barely
knows as Bangla. `Reader.read` rewrites every Latin word that sounds like a Bangla word of
the help centre as that word ("vule" → ভুলে, "kivabe" → কিভাবে), and keeps the others
("recharge", numbers), so the question is read as the Bangla question it is.

How a word is matched: both sides are spelt in one coarse phonetic alphabet (`roman` for a
Bangla word, `latin` for a typed one): aspiration and the letters Banglish uses for the same
sound fold together (ভ, v and bh are all "b"; ত and ট are both "t"), and a Bangla consonant
without a vowel sign carries its inherent "o" (কত is "koto"; at the end of a word the "o" is
optional, since কর is said "kor"). Candidates share the typed word's consonants in order
(`skeleton`); among them the nearest by an edit distance in which vowels cost half wins
(`VOWEL_COST`: Banglish writes a, o and e loosely), then the more frequent word, then the
first in code-point order. A word farther than `MAX_DISTANCE` is kept as typed, and so is one
whose only near words are a verb's third person it reads in the first ("gechi", I have gone, is not
the articles' গেছে, it has gone: `_other_person`, `Reader.persons`).

Which questions: only one with no Bangla letter that holds at least two of `CUES`, words of
Bangla grammar in their common Latin spellings that are not English words ("ki", "koto",
"korbo", "hobe", "jay"). An English question never holds two ("How much does it cost?").
Everything is plain string work over explicit code-point tables, so the browser reads a
question exactly as Python does natively.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from raglab.text.analyzer import analyze

# Words of Bangla grammar as customers spell them in Latin letters: question words, pronouns,
# postpositions, verb forms of do/be/go/give/take/get/can/need/send. None is an English word.
CUES = frozenset("""
ki kii kivabe kibhabe kibabe kemne kemon keno kno kothay kothai kobe kokhon koto koyta koita koyti
koy kon konta kar kake er na ta te kara korbo korben korbe korte korle kore korsi korchi korechi kori koren korun kora
korar korlam hobe hoy hoi hoye hoise hoyeche hocche hoche holo hole hoile hoyni jay jabe jai jabo jete
lage lagbe lagche lagse lagbo naki nai nei ami amar amake amra apni apnar apnake tumi tomar tar
theke diye dite dibo dile dey dei dewa deya nibo nite nile ney nise pabo pai pailam pari parbo parbe
parben pathabo pathate pathale pathaile pathaisi pathiyechi gele geche gese gelo gechi gesi gelam jonno jnno sathe
shathe porjonto moddhe modhe vitore bhitore ase achhe chilo silo thakle thake bolte dekhte keu kichu
kono shob ekhon akhon abar onek ektu mash mashe bochor bochore ghonta dorkar ferot vul bhul notun
shudhu sudhu jodi tahole kintu ebong taile
""".split())

# Particles and case endings a Banglish typist writes apart ("pay e", at; "cash out o", also;
# "gp te", to; "agent er", of; "pin ar otp", and; "ei mashe", this month): words of grammar that
# name nothing. "e", "o", "ei" have no consonant to be read by, so they stayed Latin terms the index
# lacks, which weigh the most in the answerer's coverage (an unseen term's idf, 6.47, above every
# word of the index); "te", "er", "ar" were read as তে, এর, আর, which the analyzer keeps. They are dropped from the
# answerer's reading of a question read as Banglish (`without_grammar`), never counted as `CUES`
# ("to", "e", "o" are English too: two of them make no question Banglish), and a particle joined
# by a hyphen or an apostrophe ("e-kyc") is part of a word.
PARTICLES = frozenset("e o ei oi te er ar r ke ki na ta ti to".split())
_JOINED = frozenset("0123456789-'\u2019")  # "e-kyc", "o'clock", "e5": no particle


def _particle(m: re.Match) -> bool:
    """Whether a match of `_LATIN_WORD` is one of `PARTICLES`, standing apart."""
    s, i, j = m.string, m.start(), m.end()
    return m.group().lower() in PARTICLES and (i == 0 or s[i - 1] not in _JOINED) and (j == len(s) or s[j] not in _JOINED)

# Latin abbreviations of Bangla words, which no sound rule reaches: "tk" is the টাকা of "koto tk".
ABBREVIATIONS = {"tk": "টাকা"}

VOWELS = frozenset("aeiou")
VOWELS_Y = VOWELS | {"y"}  # "by", "why": a y between consonants is a vowel
VOWEL_COST = 0.5
# Vowels Banglish writes for one another: অ/আ as o or a, ও/উ as o or u, এ as e or a, ই/এ.
CLOSE_VOWELS = frozenset({("a", "o"), ("o", "a"), ("o", "u"), ("u", "o"), ("e", "a"), ("a", "e"), ("i", "e"), ("e", "i")})
# য় is a glide that Banglish writes as "y" or "i" alike ("hoy" and "hoi" are হয়, "pray" and "prai"
# প্রায়): the reader takes one for the other as a vowel slip (the loanwords' matching does not).
GLIDES = frozenset({("y", "i"), ("i", "y")})
READER_CLOSE = CLOSE_VOWELS | GLIDES
MAX_DISTANCE = 1.0  # at most one consonant edit, or two vowel slips
SHORT = 3  # a typed word of this many sounds or fewer matches only within one vowel slip
SPLIT_LETTERS = 3  # the fewest letters of each half of a word read as two (`Reader.two_words`)

# A Bangla letter's sound in the coarse alphabet. Aspirated and plain stops are one sound,
# as are the dental and retroflex ones, and the three sibilants.
CONSONANTS = {
    "ক": "k", "খ": "k", "গ": "g", "ঘ": "g", "ঙ": "ng", "চ": "c", "ছ": "c", "জ": "j", "ঝ": "j",
    "ঞ": "n", "ট": "t", "ঠ": "t", "ড": "d", "ঢ": "d", "ণ": "n", "ত": "t", "থ": "t", "দ": "d",
    "ধ": "d", "ন": "n", "প": "p", "ফ": "f", "ব": "b", "ভ": "b", "ম": "m", "য": "j", "র": "r",
    "ল": "l", "শ": "s", "ষ": "s", "স": "s", "হ": "h", "\u09dc": "r", "\u09dd": "r", "\u09df": "y",
    "ৎ": "t",
}
INDEPENDENT = {"অ": "o", "আ": "a", "ই": "i", "ঈ": "i", "উ": "u", "ঊ": "u", "ঋ": "ri", "এ": "e",
               "ঐ": "oi", "ও": "o", "ঔ": "ou"}
SIGNS = {"া": "a", "ি": "i", "ী": "i", "ু": "u", "ূ": "u", "ৃ": "ri", "ে": "e", "ৈ": "oi", "ো": "o",
         "ৌ": "ou"}
MARKS = {"ং": "ng", "ঃ": "", "ঁ": ""}
HASANTA = "\u09cd"
NUKTA = "\u09bc"

# Typed spellings folded into the same alphabet, longest first.
LATIN = (("chh", "c"), ("kh", "k"), ("gh", "g"), ("ch", "c"), ("jh", "j"), ("th", "t"), ("dh", "d"),
         ("ph", "f"), ("bh", "b"), ("sh", "s"), ("rh", "r"), ("ee", "i"), ("oo", "u"), ("v", "b"),
         ("w", "o"), ("z", "j"), ("q", "k"), ("x", "ks"), ("c", "k"))

_BANGLA_WORD = re.compile("[\u0980-\u09e3\u09f0-\u09fe]+")  # letters and signs; no digits
_LATIN_WORD = re.compile("[A-Za-z]+")


def _pairs(text: str):
    """Two Latin words one space apart, each pair once (overlapping: "nano loan limit" gives two)."""
    return re.finditer("(?<![A-Za-z])(?=([A-Za-z]+) ([A-Za-z]+)(?![A-Za-z]))", text)


def _pair(m: re.Match) -> str:
    return (m.group(1) + " " + m.group(2)).lower()


def has_bangla_letter(text: str) -> bool:
    """A Bangla letter or sign (`analyzer.has_bangla` counts Bangla digits too: "koto ৫০০ taka" is Banglish)."""
    return _BANGLA_WORD.search(text) is not None


def cue_count(text: str) -> int:
    """How many words of `text` are words of Bangla grammar (`CUES`); 0 for text with a Bangla letter."""
    if has_bangla_letter(text):
        return 0
    return sum(1 for w in _LATIN_WORD.findall(text) if w.lower() in CUES)


def without_grammar(read: str) -> str:
    """A Banglish question's reading (`Reader.read`, with `particles=False`) less the words of
    Bangla grammar it left in Latin letters ("gese", "korbo": no word of the help centre sounds
    like them; the `PARTICLES`, standing apart). They ask, they name nothing to look for; as
    terms the index does not know they weighed as the question's rarest words, so every unit
    covered little of it and the answer was held back.

    >>> without_grammar("account লক হয়ে gese কী korbo")
    'account লক হয়ে  কী '
    >>> without_grammar("শাপলা pay e account খুলতে কী লাগে, e-kyc o")
    'শাপলা pay  account খুলতে কী লাগে, e-kyc '
    """
    return _LATIN_WORD.sub(lambda m: "" if m.group().lower() in CUES or _particle(m) else m.group(), read)


def is_banglish(text: str) -> bool:
    """A question in Latin letters that holds at least two words of Bangla grammar."""
    return cue_count(text) >= 2


def roman(word: str, sounds: dict[str, str] = CONSONANTS, schwa: str = "o") -> tuple[str, bool]:
    """A Bangla word in the coarse alphabet, and whether it ends in an inherent vowel (which a
    typist may leave out); `sounds` spells its consonants and `schwa` the inherent vowel (for
    loanwords `LOAN_CONSONANTS` and none: স্টেটমেন্ট is said "stetment")."""
    word = word.replace("\u09a1" + NUKTA, "\u09dc").replace("\u09a2" + NUKTA, "\u09dd").replace("\u09af" + NUKTA, "\u09df")
    out: list[str] = []
    inherent = False
    i = 0
    while i < len(word):
        ch = word[i]
        if ch in CONSONANTS:
            if inherent:
                out.append(schwa)
            nxt = word[i + 1] if i + 1 < len(word) else ""
            if ch != "র" and nxt == HASANTA and i + 2 < len(word) and (word[i + 2] == "য" or word[i + 2] == "ব" and ch != "ম"):
                # ya- and ba-phala: the consonant alone ("ক্যাশ"), but ম্ব is "mb", and র্ব is a
                # reph over ব ("সর্বোচ্চ" is "sorbocco")
                out.append(sounds[ch])
                i += 3
                inherent = True
                continue
            out.append(sounds[ch])
            inherent = sounds[ch] != ""
        elif ch == HASANTA:
            inherent = False
        elif ch in SIGNS:
            out.append(SIGNS[ch])
            inherent = False
        elif ch in INDEPENDENT:
            if inherent:
                out.append(schwa)
            out.append(INDEPENDENT[ch])
            inherent = False
        elif ch in MARKS:
            if inherent:
                out.append(schwa)
            out.append(MARKS[ch])
            inherent = False
        i += 1
    return _single("".join(out)), inherent


def _single(sounds: str) -> str:
    """Doubled letters made single: a typist writes উত্তর as "uttor" or "utor" alike."""
    return "".join(c for j, c in enumerate(sounds) if j == 0 or c != sounds[j - 1])


def latin(word: str) -> str:
    """A typed word in the coarse alphabet: folded spellings, doubled letters made single."""
    word = word.lower()
    out: list[str] = []
    i = 0
    while i < len(word):
        for spelt, sound in LATIN:
            if word.startswith(spelt, i):
                out.append(sound)
                i += len(spelt)
                break
        else:
            out.append(word[i])
            i += 1
    return _single("".join(out))


def skeleton(sounds: str) -> str:
    return "".join(c for c in sounds if c not in VOWELS)


def distance(a: str, b: str, close: frozenset = CLOSE_VOWELS) -> float:
    """Edit distance in which inserting or deleting a vowel, or writing it for a close one
    (`close`), costs `VOWEL_COST`; anything else costs 1."""
    prev = [0.0]
    for c in b:
        prev.append(prev[-1] + (VOWEL_COST if c in VOWELS else 1.0))
    for ca in a:
        cost_a = VOWEL_COST if ca in VOWELS else 1.0
        row = [prev[0] + cost_a]
        for j, cb in enumerate(b, 1):
            if ca == cb:
                swap = 0.0
            elif (ca, cb) in close:
                swap = VOWEL_COST
            else:
                swap = 1.0
            cost_b = VOWEL_COST if cb in VOWELS else 1.0
            row.append(min(prev[j - 1] + swap, prev[j] + cost_a, row[j - 1] + cost_b))
        prev = row
    return prev[-1]


def _other_person(typed: str, said: str) -> bool:
    """Whether a typed word ends in i where a verb's spelling ends in e, as the first person
    does against the third (করি "kori" I do, করে "kore" he does; গেছি "gechi" I have gone, গেছে
    "geche" it has gone). The help centre never speaks in the first person, so a customer's
    "gechi" read as গেছে was another verb's word ("জেনে গেছে", has come to know); typists write a
    word's last vowel as they say it. Such a word stays as typed. Only a verb's (`Reader.persons`):
    a noun's case ending or a verb's infinitive is no person ("diti" is দিতে, to give; "apne" আপনি)."""
    return typed[-1:] == "i" and said[-1:] == "e"


def _emphasis_added(typed: str, said: str) -> bool:
    """Whether `said` ends in the emphatic ই after a vowel that `typed` ends in without it (ছেড়েই
    "cherei", having left indeed, for a typed "chire", torn; এখনই for "ekhono"): the particle is
    typed where it is said, so such a word is another word."""
    return len(said) > 2 and said[-1] == "i" and said[-2] in VOWELS and typed[-1:] == said[-2]


# A Bangla word is a verb's finite form in -ে when it ends in -ছে (the perfect and the continuous:
# গেছে, করেছে, হচ্ছে) or its stem takes a verb's other endings in the same articles (করে beside
# করতে, পারে beside পারবেন); a noun in the locative (দিনে, এখানে) or an infinitive (দিতে) takes none.
E_KAR = "\u09c7"
_VERB_ENDINGS = ("তে", "লে", "বে", "বেন", "েন", "ুন", "তেন", "লেন")
_PERFECT = "ছে"


def _persons(words) -> frozenset:
    """The verbs' third-person forms in -ে among `words` (see `_VERB_ENDINGS`)."""
    return frozenset(w for w in words if w.endswith(E_KAR) and len(w) > 2 and (
        w.endswith(_PERFECT) or any(w[:-1] + ending in words for ending in _VERB_ENDINGS)))


@dataclass
class Reader:
    """The Bangla words of a corpus, by the consonants of their sound."""

    by_skeleton: dict[str, list[tuple[str, tuple[str, ...], int]]] = field(default_factory=dict)
    english: frozenset = frozenset()  # the corpus's Latin-letter words, lower case
    persons: frozenset = frozenset()  # its verbs' third-person forms in -ে (`_persons`)
    english_pairs: frozenset = frozenset()  # two Latin words the corpus writes one after the other, lower case
    # What `read` gave each question: a comparison reads every question under every configuration
    # (each its own pipeline over the same articles, so the same reader: `of`), and the reading is
    # a function of the question and the words above, which nothing changes once `of` built them.
    _readings: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, texts) -> "Reader":
        """The reader of these texts' words; the same object for the same texts (a few kept)."""
        return _reader_of(tuple(texts))

    @classmethod
    def _built(cls, texts: tuple[str, ...]) -> "Reader":
        counts: dict[str, int] = {}
        for text in texts:
            for w in _BANGLA_WORD.findall(text):
                counts[w] = counts.get(w, 0) + 1
        reader = cls(english=frozenset(w.lower() for text in texts for w in _LATIN_WORD.findall(text)),
                     persons=_persons(counts),
                     english_pairs=frozenset(_pair(m) for text in texts for m in _pairs(text)))
        for w in sorted(counts):
            sound, open_end = roman(w)
            spellings = (sound, sound + "o") if open_end and not sound.endswith("o") else (sound,)
            # a word with য় is found by the typed word's consonants with "y" or with "i" ("pray", "prai")
            for key in sorted({skeleton(sound), skeleton(sound.replace("y", "i"))}):
                if key:
                    reader.by_skeleton.setdefault(key, []).append((w, spellings, counts[w]))
        return reader

    def word(self, typed: str, exact: bool = False, swaps: bool = True) -> str | None:
        """The corpus's Bangla word that `typed` spells (sounds exactly like, with `exact`; without
        `swaps`, with no vowel written for another but y for i), or None.
        A word the corpus's English uses ("time", "bank") is English typed among Bangla words
        unless a Bangla word sounds like it within one vowel slip ("cash" ক্যাশ, "out" আউট): a
        consonant further, "time" is not "এটিএমে" (at the ATM)."""
        if typed.lower() in ABBREVIATIONS:
            return ABBREVIATIONS[typed.lower()]
        if len(typed) > 1 and (typed.isupper() or not VOWELS_Y.intersection(typed.lower())) and typed.lower() in self.english:
            # an abbreviation the English articles use ("QR", "NID") is no Bangla word ("QR" was কার); typed
            # in lower case it is one still when it has no vowel ("qr", "pdf", "sms"): "qr code" was read as
            # কার কোড (whose code) and retrieved nothing on QR codes. Banglish drops vowels too ("jnno", "nmbr",
            # "kr"), but only a word the English articles use stays English here ("dr", "bd" are Dr and BD there)
            return None
        sound = latin(typed)
        # a word of Bangla grammar is spelt as it is said: a word of the help centre two vowel
        # slips or a consonant away is another word ("kobe", when, is not খুব, very; "korchi",
        # doing, is not খরচ, cost; "amar", my, is not আমরা, we), so it stays in Latin letters
        near = len(sound) <= SHORT or typed.lower() in self.english or typed.lower() in CUES
        limit = 0.0 if exact else VOWEL_COST if near else MAX_DISTANCE
        best = None
        for w, spellings, count in self.by_skeleton.get(skeleton(sound), ()):
            person = w in self.persons
            d = min(distance(sound, s, READER_CLOSE if swaps else GLIDES)
                    if not (person and _other_person(sound, s) or _emphasis_added(sound, s)) else MAX_DISTANCE + 1
                    for s in spellings)
            if d <= limit and (best is None or (d, -count) < best[0]):
                best = ((d, -count), w)
        return best[1] if best else None

    def two_words(self, typed: str) -> str | None:
        """Two of the corpus's Bangla words that `typed` runs together, each sounding exactly like
        one, or None: Banglish writes some phrases as one word where Bangla has two ("kotodin", how
        many days: কত দিন). Each half has `SPLIT_LETTERS` letters at least and is a word the analyzer
        keeps; the first split from the left that reads wins. A word the corpus's English uses, or
        one of `CUES`, is not split."""
        low = typed.lower()
        if len(typed) < 2 * SPLIT_LETTERS or low in self.english or low in CUES:
            return None
        for i in range(SPLIT_LETTERS, len(typed) - SPLIT_LETTERS + 1):
            left, right = self.word(typed[:i], exact=True), self.word(typed[i:], exact=True)
            # both words to look for: a stopword half ("kichukkhon", a while, is no কিছু কোন) names nothing
            if left and right and analyze(left) and analyze(right):
                return left + " " + right
        return None

    def is_banglish(self, question: str) -> bool:
        """Two words of Bangla grammar, or one and a word the corpus's English never uses that
        sounds exactly like one of its Bangla words ("taka pathanor limit koto")."""
        return is_banglish(question) or cue_count(question) == 1 and any(
            w.lower() not in CUES and w.lower() not in self.english and self.word(w, exact=True)
            for w in _LATIN_WORD.findall(question))

    def read(self, question: str, particles: bool = True) -> str:
        """The question with its Banglish words in Bangla script; any other question as is.
        Without `particles`, a particle standing apart (`PARTICLES`) is kept as typed, for
        `without_grammar` to drop: "gp te" read as "gp তে" left তে, a term the index lacks."""
        if not self.by_skeleton or not self.is_banglish(question):
            return question
        key = (question, particles)
        found = self._readings.get(key)
        if found is None:
            if len(self._readings) >= READINGS_KEPT:  # bounded: the page reads every question typed
                self._readings.clear()
            english = self._english_phrases(question)
            found = self._readings[key] = _LATIN_WORD.sub(
                lambda m: m.group() if not particles and _particle(m) else
                (self.word(m.group(), swaps=False) or m.group()) if m.start() in english else self._read_word(m.group()),
                question)
        return found

    def _english_phrases(self, question: str) -> frozenset:
        """Where the words of an English phrase of the articles start, typed whole in a Banglish question
        with a word of it that sounds like no Bangla word ("nano loan", "shapla pay"): the phrase is the
        articles' name for a thing, and its words are read as Bangla words only as the Bangla articles spell
        them (সেন্ড, শাপলা with its inherent vowel), not with a vowel written for another ("nano" was নেন,
        take: "নেন loan"; "per month" পার month). A phrase all of whose words sound like Bangla words is read
        as Bangla ("cash out", ক্যাশ আউট, as the Bangla articles write it)."""
        out: set[int] = set()
        for m in _pairs(question):
            first, second = m.group(1), m.group(2)
            if _pair(m) in self.english_pairs and (self.word(first) is None or self.word(second) is None):
                out.update((m.start(1), m.start(2)))
        return frozenset(out)

    def _read_word(self, typed: str) -> str:
        """One Latin word as read: a Bangla word it sounds like, else two it runs together, else as typed."""
        return self.word(typed) or self.two_words(typed) or typed


READERS_KEPT = 4  # corpora: the bundled one, an imported one, a test's few
READINGS_KEPT = 10_000


@functools.lru_cache(maxsize=READERS_KEPT)
def _reader_of(texts: tuple[str, ...]) -> Reader:
    return Reader._built(texts)
