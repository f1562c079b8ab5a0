"""Extra questions for the parity stress test, generated deterministically from the corpus.

They are built from corpus sentences by shuffling and dropping words, converting digits
between scripts, mixing scripts, and by long, empty and odd inputs, so that parity is
not an accident of the golden set's wording.
"""

import random

from raglab.text.splitter import sentences

BN_DIGITS = "০১২৩৪৫৬৭৮৯"


def _to_bangla_digits(s):
    return "".join(BN_DIGITS[ord(c) - 48] if "0" <= c <= "9" else c for c in s)


def _to_ascii_digits(s):
    return "".join(str(BN_DIGITS.index(c)) if c in BN_DIGITS else c for c in s)


def stress_questions(docs, count=300, seed=20261130):
    rng = random.Random(seed)
    pool = []
    for d in docs:
        for s, e in sentences(d.text):
            text = d.text[s:e]
            if len(text.split()) >= 4 and not text.startswith(("#", "|")):
                pool.append(text)
    out = ["", " ", "?", "।", "😀", "x" * 2000, "cash " * 300, "ক্যাশ আউট " * 200,
           "<script>alert(1)</script> fee", "\u200d\u200c\u00ad", "১,৫০,০০০", "1,50,000 Tk?"]
    while len(out) < count:
        words = pool[rng.randrange(len(pool))].split()
        mode = rng.randrange(6)
        if mode == 0:
            rng.shuffle(words)
        elif mode == 1:
            words = [w for w in words if rng.randrange(3)]
        elif mode == 2:
            words = [_to_bangla_digits(w) for w in words]
        elif mode == 3:
            words = [_to_ascii_digits(w) for w in words]
        elif mode == 4:
            other = pool[rng.randrange(len(pool))].split()
            words = words[: len(words) // 2] + other[len(other) // 2:]
        else:
            words = words[: 1 + rng.randrange(len(words))]
        out.append(" ".join(words) + ("?" if rng.randrange(2) else ""))
    return out
