"""Would the encoder's cosine of question and unit choose the evidence of a crosslingual question? A trial on dev, out of fold.

    .venv/bin/python bench/unit_cosine_trial.py    # builds fit_answerer's sets, encodes our dev candidates (minutes)

The sentence model (`answer/sentences.py`) scores each candidate unit by lexical features, so a
unit in the other language than the question sees it only through the expansion aliases; the
largest loss on dev is crosslingual questions whose evidence unit, in the other language, is a
candidate while a unit of the question's language is chosen. This trial adds columns from
e5-small's cosine of the question and each candidate of our dev questions ("passage: " + the
unit's text): the question read as served (`semantic.reading` of the query's text) and, for a
unit in the other language when the retriever has a translated reading, the mean of that cosine
and the translated reading's, as `bilingual.bridged` reads chunks. The columns (each cosine
difference times 10, about the lexical features' range):

- `other`: 1 for a unit in the other language than the question's (`sentences.lang_of`);
- `relative`: for such a unit, its cosine less the best cosine among the candidates of its language
  (which of them the encoder prefers; the two languages' cosines are not on one scale);
- `lead`: for such a unit, the best cosine of its language less the best of the question's;
- `centred lead`: the same, each cosine less its language's mean chunk cosine over the corpus
  (`BilingualRetriever.cosines`), to take out the encoder's offset between the languages;
- `relative, every unit`: `relative` for the units of both languages.

Fitted like `fit_answerer.fit_choice` (its sets, set weights and `fit_softmax`), five times, a
fifth of our dev questions held out (by index, as `fit_answerer.fold_fits`), the external sets
always in training with the new columns 0: they are in one language, and their units are not
encoded. Printed per mode: held-out questions whose chosen unit is evidence, of those with one
among the candidates (crosslingual, the other kinds, all), and against the lexical features the
questions gained and lost, with a two-sided sign test.

Result when written (evidence chosen, crosslingual / others / all of 80 / 244 / 324; gained and
lost against lexical, crosslingual; all): lexical 26 / 155 / 181; + other 30 / 152 / 182 (+4 -0;
+6 -5); + other, relative 33 / 153 / 186 (+7 -0, p 0.016; +10 -5, p 0.30); + lead 33 / 154 / 187
(+7 -0; +10 -4, p 0.18); + centred lead 33 / 152 / 185 (+7 -0; +10 -6); + relative, every unit
32 / 152 / 184 (+6 -0; +15 -12); + other, relative, relative every unit 33 / 147 / 180 (+7 -0;
+14 -15). The crosslingual gain is real but small (7 of 324 questions in the choice alone), and
the page would have to ship a vector for every unit of the corpus (1,352 distinct texts, 2.1 MB
of float32 against the 1.0 MB of chunk vectors it loads now; printed last): not adopted
(docs/pipeline.md, the answerer's section).
"""

from __future__ import annotations

import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

import fit_answerer as fa  # noqa: E402
from fitting import fit_softmax  # noqa: E402
from raglab.answer.sentences import dot, lang_of  # noqa: E402
from raglab.answer.units import units_around  # noqa: E402
from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus, index_text  # noqa: E402
from raglab.encoder import PASSAGE  # noqa: E402
from raglab.retrieval.bilingual import bridged  # noqa: E402
from raglab.retrieval.ranking import rounded  # noqa: E402
from raglab.retrieval.semantic import reading  # noqa: E402
from raglab.text.analyzer import memo  # noqa: E402

COLUMNS = ("other", "relative", "lead", "centred lead", "relative, every unit")
MODES = {  # name: the columns added to the lexical features
    "lexical": (),
    "+ other": ("other",),
    "+ other, relative": ("other", "relative"),
    "+ other, relative, lead": ("other", "relative", "lead"),
    "+ other, relative, centred lead": ("other", "relative", "centred lead"),
    "+ relative, every unit": ("relative, every unit",),
    "+ other, relative, relative every unit": ("other", "relative", "relative, every unit"),
}
SCALE = 10.0


def best_by_lang(values: list[float], langs: list[str]) -> dict[str, float]:
    best: dict[str, float] = {}
    for v, lang in zip(values, langs):
        best[lang] = max(best.get(lang, v), v)
    return best


def columns(e: dict, cache) -> list[dict[str, float]]:
    """The `COLUMNS` of each candidate of one of our questions."""
    cands, own = e["candidates"], e["info"].lang
    pipe = e["pipe"]
    r = pipe.retriever
    query = pipe.query(e["question"].question)
    units = cache.get([PASSAGE + c.unit.text for c in cands])
    langs = [lang_of(c.unit.text) for c in cands]

    def cosines(text: str) -> dict[int, float]:
        return dict(enumerate(float(x) for x in cache.encoder.dots(cache.get([reading(text)], keep=False), units)))

    cos = cosines(query.text)
    other = r.translation(query)
    if other is not None:
        cos = bridged(cos, cosines(other), langs, query.lang)
    cos = [cos[i] for i in range(len(cands))]
    sums: dict[str, list[float]] = {}
    for i, v in sorted(r.cosines(query).items()):
        sums.setdefault(r.langs[i], []).append(v)
    mean = {lang: math.fsum(vs) / len(vs) for lang, vs in sums.items()}
    best = best_by_lang(cos, langs)
    centred = best_by_lang([c - mean.get(lang, 0.0) for c, lang in zip(cos, langs)], langs)
    rows = []
    for c, lang in zip(cos, langs):
        relative = (c - best[lang]) * SCALE
        row = dict.fromkeys(COLUMNS, 0.0)
        row["relative, every unit"] = relative
        if lang != own:
            row["other"] = 1.0
            row["relative"] = relative
            row["lead"] = (best[lang] - best.get(own, best[lang])) * SCALE
            row["centred lead"] = (centred[lang] - centred.get(own, centred[lang])) * SCALE
        rows.append(row)
    return rows


def design(e: dict, extra: dict, cols: tuple[str, ...]) -> list[list[float]]:
    ex = extra.get(id(e))  # None for the external sets' questions
    return [list(c.features) + ([ex[i][k] for k in cols] if ex else [0.0] * len(cols))
            for i, c in enumerate(e["candidates"])]


def held_out(data: dict, extra: dict, cols: tuple[str, ...], fold_of: dict) -> dict[str, int]:
    """{question id: 1 when its held-out choice is evidence, else 0}, for our questions with evidence."""
    got = {}
    for f in range(fa.FOLDS):
        groups = []
        for name, weight in fa.SET_WEIGHT.items():
            exs = [e for e in data[name] if any(e["labels"]) and not (name == "ours" and fold_of[e["question"].id] == f)]
            groups += [(design(e, extra, cols), e["labels"], weight * fa.OURS_SCALE / len(exs)) for e in exs]
        w = fit_softmax(groups)
        for e in data["ours"]:
            if fold_of[e["question"].id] != f or not any(e["labels"]):
                continue
            cands, zs = e["candidates"], [rounded(dot(w, row)) for row in design(e, extra, cols)]
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


def page_cost(dim: int) -> str:
    """What the page would load: a vector of every unit of the bundled corpus, in the vector
    stores' format (a 40-byte header, then per text a 32-byte key and `dim` float32), against
    the chunk vectors it loads with the model now (`build.BROWSER_VECTOR_CHUNKERS`)."""
    docs = load_corpus(bundled_corpus_dir())
    units = [u.text for d in docs for u in units_around(d.text, 0, len(d.text))]
    chunks = {index_text(c) for name in ("recursive", "fixed") for c in chunk_corpus(docs, name)}
    width = 32 + 4 * dim
    return (f"bundled corpus: {len(units):,} units in {len(docs)} articles, {len(set(units)):,} distinct: "
            f"{40 + width * len(set(units)):,} bytes of vectors, against {40 + width * len(chunks):,} "
            f"for its {len(chunks):,} recursive and fixed chunks")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.parse_args(argv)
    with memo():
        data = fa.sets()
    cache = data["ours"][0]["pipe"].retriever.semantic.cache
    extra = {id(e): columns(e, cache) for e in data["ours"]}
    fold_of = {e["question"].id: n % fa.FOLDS for n, e in enumerate(data["ours"])}
    crosslingual = {e["question"].id for e in data["ours"] if e["question"].kind == "crosslingual"}
    parts = {"crosslingual": lambda q: q in crosslingual, "others": lambda q: q not in crosslingual, "all": lambda q: True}
    base: dict[str, int] = {}
    print(f"{'mode':40s}" + "".join(f" {name:>12s}" for name in parts)
          + "   against lexical, gained -lost (sign test p): crosslingual; all")
    for mode, cols in MODES.items():
        got = held_out(data, extra, cols, fold_of)
        line = f"{mode:40s}"
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
    print(page_cost(cache.encoder.dim))
    return 0


if __name__ == "__main__":
    sys.exit(main())
