"""The encoder's cosine of question and unit in the answerer's sentence choice: out of fold on dev, and how compact a unit vector may be.

    .venv/bin/python bench/unit_cosine_trial.py    # builds fit_answerer's sets, encodes our dev candidates (minutes)

The sentence model (`answer/sentences.py`) scores each candidate unit by lexical features, so a
unit in the other language than the question sees it only through the expansion aliases; the
largest loss on dev is crosslingual questions whose evidence unit, in the other language, is a
candidate while a unit of the question's language is chosen. This trial adds two columns from
e5-small's cosine of the question and each candidate of our dev questions ("passage: " + the
unit's text), the question read as served (`semantic.reading` of the query's text) and, for a
unit in the other language than the query's when the retriever has a translated reading, the
mean of that cosine and the translated reading's, as `bilingual.bridged` reads chunks:

- `other_lang`: 1 for a unit in the other language than the question's (`sentences.lang_of`);
- `cosine_rank`: for such a unit, its cosine less the best cosine among the candidates of its
  language, x 10 (the two languages' cosines are not on one scale).

Modes: `lexical` (the served features), the two columns from float32 vectors and the kernel's
dots (`float32`), from unit vectors rounded to int8 or int4 with a scale per vector (the largest
magnitude / 127 or / 7: what a compact store for the page would hold; the question's vector
stays float32, the dot is `math.fsum` of exact products), and `cosine_rank` alone (float32).
Fitted like `fit_answerer.fit_choice` (its sets, set weights and `fit_softmax`), five times, a
fifth of our dev questions held out (by index, as `fit_answerer.fold_fits`), the external sets
always in training with the new columns 0: they are in one language, and their units are not
encoded. Printed per mode: held-out questions whose chosen unit is evidence, of those with one
among the candidates (crosslingual, the other kinds, all), and against `lexical` the questions
gained and lost, with a two-sided sign test.

Result when written (evidence chosen, crosslingual / others / all of 87 / 277 / 364; gained and
lost against lexical, crosslingual; all): lexical 28 / 171 / 199; float32 34 / 164 / 198 (+8 -2,
p 0.109; +11 -12); int8 34 / 164 / 198 (the same gains and losses as float32); int4 34 / 167
/ 201 (+8 -2; +13 -11); `cosine_rank` alone 26 / 171 / 197 (+1 -3; +2 -4). Served once (int8
store, re-fitted answerer and confidence) and measured end to end, it lowered dev holds at the
tuned threshold (0.195 -> 0.180): not kept (docs/pipeline.md, the answerer's section).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

import fit_answerer as fa  # noqa: E402
from fitting import fit_softmax  # noqa: E402
from raglab.answer.sentences import dot, lang_of  # noqa: E402
from raglab.encoder import PASSAGE  # noqa: E402
from raglab.retrieval.bilingual import bridged  # noqa: E402
from raglab.retrieval.ranking import rounded  # noqa: E402
from raglab.retrieval.semantic import reading  # noqa: E402
from raglab.text.analyzer import memo  # noqa: E402

SCALE = 10.0
LEVELS = {"float32": None, "int8": 127, "int4": 7}  # a unit vector's largest magnitude is this many steps
MODES = {  # name: (vectors, the columns added to the lexical features)
    "lexical": (None, ()),
    "float32": ("float32", ("other_lang", "cosine_rank")),
    "int8": ("int8", ("other_lang", "cosine_rank")),
    "int4": ("int4", ("other_lang", "cosine_rank")),
    "cosine_rank alone": ("float32", ("cosine_rank",)),
}


def rounded_to(levels: int, vector: array) -> list[int | float]:
    """A float32 vector as (scale, then each value / scale rounded to a whole step)."""
    scale = max(abs(x) for x in vector) / levels or 1.0
    return [scale] + [max(-levels, min(levels, round(x / scale))) for x in vector]


def columns(e: dict, cache, levels: int | None) -> list[dict[str, float]]:
    """`other_lang` and `cosine_rank` of each candidate of one of our questions."""
    cands, own = e["candidates"], e["info"].lang
    r = e["pipe"].retriever
    query = e["pipe"].query(e["question"].question)
    dim = cache.encoder.dim
    units = cache.get([PASSAGE + c.unit.text for c in cands])
    langs = [lang_of(c.unit.text) for c in cands]
    steps = [rounded_to(levels, units[i * dim:(i + 1) * dim]) for i in range(len(cands))] if levels else []

    def cosines(text: str) -> dict[int, float]:
        vector = cache.get([reading(text)], keep=False)
        if not levels:
            return dict(enumerate(float(x) for x in cache.encoder.dots(vector, units)))
        return {i: math.fsum(a * b for a, b in zip(vector, s[1:])) * s[0] for i, s in enumerate(steps)}

    cos = cosines(query.text)
    other = r.translation(query)
    if other is not None:
        cos = bridged(cos, cosines(other), langs, query.lang)
    best: dict[str, float] = {}
    for i in sorted(cos):
        best[langs[i]] = max(best.get(langs[i], cos[i]), cos[i])
    return [{"other_lang": 1.0, "cosine_rank": (cos[i] - best[langs[i]]) * SCALE} if langs[i] != own
            else {"other_lang": 0.0, "cosine_rank": 0.0} for i in range(len(cands))]


def design(e: dict, extra: dict, mode: str) -> list[list[float]]:
    vectors, cols = MODES[mode]
    ex = extra[vectors].get(id(e)) if vectors else None  # None for the external sets' questions
    return [list(c.features) + ([ex[i][k] for k in cols] if ex else [0.0] * len(cols))
            for i, c in enumerate(e["candidates"])]


def held_out(data: dict, extra: dict, mode: str, fold_of: dict) -> dict[str, int]:
    """{question id: 1 when its held-out choice is evidence, else 0}, for our questions with evidence."""
    got = {}
    for f in range(fa.FOLDS):
        groups = []
        for name, weight in fa.SET_WEIGHT.items():
            exs = [e for e in data[name] if any(e["labels"]) and not (name == "ours" and fold_of[e["question"].id] == f)]
            groups += [(design(e, extra, mode), e["labels"], weight * fa.OURS_SCALE / len(exs)) for e in exs]
        w = fit_softmax(groups)
        for e in data["ours"]:
            if fold_of[e["question"].id] != f or not any(e["labels"]):
                continue
            cands, zs = e["candidates"], [rounded(dot(w, row)) for row in design(e, extra, mode)]
            k = min(range(len(cands)), key=lambda i: (-zs[i], cands[i].rank, cands[i].quote.start,
                                                       cands[i].unit.focus_start))
            got[e["question"].id] = e["labels"][k]
    return got


def sign_test(gained: int, lost: int) -> float:
    """Two-sided exact binomial p of `gained` against `lost` at one half."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = math.fsum(math.comb(n, k) for k in range(min(gained, lost) + 1)) / 2.0 ** n
    return min(1.0, 2.0 * tail)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.parse_args(argv)
    with memo():
        data = fa.sets()
    cache = data["ours"][0]["pipe"].retriever.semantic.cache
    extra = {name: {id(e): columns(e, cache, levels) for e in data["ours"]} for name, levels in LEVELS.items()}
    fold_of = {e["question"].id: n % fa.FOLDS for n, e in enumerate(data["ours"])}
    crosslingual = {e["question"].id for e in data["ours"] if e["question"].kind == "crosslingual"}
    parts = {"crosslingual": lambda q: q in crosslingual, "others": lambda q: q not in crosslingual, "all": lambda q: True}
    base: dict[str, int] = {}
    print(f"{'mode':20s}" + "".join(f" {name:>12s}" for name in parts)
          + "   against lexical, gained -lost (sign test p): crosslingual; all")
    for mode in MODES:
        got = held_out(data, extra, mode, fold_of)
        line = f"{mode:20s}"
        for part in parts.values():
            qs = [q for q in sorted(got) if part(q)]
            line += f" {sum(got[q] for q in qs):>6d} / {len(qs):<3d}"
        if base:
            for name in ("crosslingual", "all"):
                qs = [q for q in sorted(got) if parts[name](q)]
                gained = sum(1 for q in qs if got[q] > base[q])
                lost = sum(1 for q in qs if got[q] < base[q])
                line += f"   +{gained} -{lost} (p {sign_test(gained, lost):.3f})"
        else:
            base = got
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
