"""The other language's unit that says more of the question (`says_more`), varied: a trial on dev.

    .venv/bin/python bench/says_more_trial.py                        # off and the variants, committed weights
    .venv/bin/python bench/says_more_trial.py --variants off,says-more
    .venv/bin/python bench/says_more_trial.py --refit off,says-more  # re-fitted, out of fold (minutes per arm)

Tried and not kept at first; the arm `says-more-en-words-most-one` is served since, as
`language.says_more` (called by `in_own_language`), so `off` here now leaves it out. The rule is the
mirror of that one's `says_as_much`: when the model's best unit is in the question's language and
a unit in the other language scores within `LANG_MARGIN` logits of it and holds more of the
question's idf mass than the best unit does, both weighed on the terms a unit of the other
language can hold at all (`language.sayable`: its numbers, its script's words, the expansion
aliases written in it), that unit is quoted first. The variants restrict it: `en` (English
questions only), `words` (the terms it holds beyond the best unit's are not numbers alone: "10"
of "10 কার্যদিবসের" is no "10 minutes"), `most` (of the units that pass, the one holding the most
of that mass, not the first in the model's order), `one` (not for a question asking two facts,
whose best unit holds one half only), `silent` (only when the best unit holds none of those
terms: the question's language's best says nothing the other language could), `typed` is always on (a best unit holding a value of the
asked type gives way only to one holding one too). Applied in this process only, through
`elsewhere_trial.apply` (the rule when the model's best unit is in the question's language,
`in_own_language` otherwise). The figures printed are `elsewhere_trial.main`'s.

`--refit` re-runs `fit_answerer._fit` per arm with the rule in the answers the confidence is
fitted on (nothing is written) and prints its out-of-fold risk rule: the rule changes no
sentence-model feature, so only the confidence moves.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import elsewhere_trial  # noqa: E402
from raglab.answer.facts import asks_two  # noqa: E402
from raglab.answer.language import LANG_MARGIN, promoted, sayable  # noqa: E402
from raglab.answer.sentences import COL, lang_of  # noqa: E402

_NUMBER_CHARS = frozenset("0123456789.,")


def _mass(q, terms) -> float:
    return math.fsum(q.weights[t] for t in sorted(terms))


def says_more(margin: float = LANG_MARGIN, english: bool = False, words: bool = False, most: bool = False,
              one: bool = False, bangla: bool = False, silent: bool = False):
    """The rule (see the module's text) with its restrictions."""
    def rule(q, order):
        if not order or lang_of(order[0][1].unit.text) != q.lang:
            return order
        if english and q.lang != "en" or bangla and q.lang != "bn" or one and asks_two(q.text):
            return order
        best = order[0][1]
        typed = best.features[COL["typed"]] > 0

        def said(c) -> float | None:
            lang = lang_of(c.unit.text)
            if lang == q.lang or typed and not c.features[COL["typed"]] > 0:
                return None
            reach = sayable(q, lang)
            if words and all(set(t) <= _NUMBER_CHARS for t in (c.found & reach) - best.found):
                return None
            other, have = _mass(q, c.found & reach), _mass(q, best.found & reach)
            if silent and have > 0:
                return None
            return other if other > have else None

        if not most:
            return promoted(order, lambda c: said(c) is not None, margin)
        pick, top = None, -1.0
        for i, (z, c) in enumerate(order[1:], 1):
            if order[0][0] - z > margin:
                break
            got = said(c)
            if got is not None and got > top:
                pick, top = i, got
        return order if pick is None else [order[pick]] + order[:pick] + order[pick + 1:]
    return rule


VARIANTS = {"says-more": says_more(), "says-more-words": says_more(words=True),
            "says-more-en": says_more(english=True), "says-more-en-words": says_more(english=True, words=True),
            "says-more-en-words-most-one": says_more(english=True, words=True, most=True, one=True),
            "says-more-bn-words-most-one": says_more(bangla=True, words=True, most=True, one=True),
            "says-more-en-words-most-one-1.5": says_more(1.5, english=True, words=True, most=True, one=True),
            "says-more-0.5": says_more(0.5), "says-more-1.5": says_more(1.5),
            "says-more-silent": says_more(words=True, most=True, one=True, silent=True),
            "says-more-en-silent": says_more(english=True, words=True, most=True, one=True, silent=True)}
elsewhere_trial.VARIANTS.update(VARIANTS)


def refit(arms: list[str]) -> int:
    """Each arm re-fitted (`fit_answerer._fit`, nothing written); its out-of-fold figures printed."""
    from fit_answerer import _fit, sets
    from raglab.text.analyzer import memo

    with memo():
        data = sets()
        for name in arms:
            elsewhere_trial.apply(elsewhere_trial.VARIANTS[name])
            got = _fit(data)
            risk = got["fit"]["oof_confidence_risk_rule"]
            print(json.dumps({"arm": name, "stating_the_fact": got["fit"]["confidence_positives"],
                              "oof_risk_rule": {k: risk[k] for k in ("threshold", "holds", "answered", "risk", "aurc")}}),
                  flush=True)
    elsewhere_trial.restore()
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variants", default=",".join(["off", *VARIANTS]))
    p.add_argument("--refit", default="", help="comma-separated arms to re-fit out of fold instead")
    args = p.parse_args(argv)
    if args.refit:
        return refit(args.refit.split(","))
    return elsewhere_trial.main(["--variants", args.variants])


if __name__ == "__main__":
    sys.exit(main())
