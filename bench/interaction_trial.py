"""A learned question x unit interaction from the encoder, as a column of the sentence model: a trial on dev.

    .venv/bin/python bench/interaction_trial.py --store FILE    # builds fit_answerer's sets, encodes (cached in FILE)
    .venv/bin/python bench/interaction_trial.py --store FILE --tydi 0 --l2 3,30

The plain cosine of the question's e5 vector and a unit's (`unit_cosine_trial.py`) rewards the
units that restate the question. Here the score is learnt: with q the question's vector
(``"query: "`` + the question as the retriever reads it) and u the unit's (``"passage: "`` + its
text), both unit length, s(q, u) = a * cos(q, u) + sum_i d_i * 384 q_i u_i, a diagonal bilinear
form, fitted as a softmax over each question's candidates on "is this candidate evidence" (the
sentence model's labels), L2 `--l2` on d (a nearly free), so with strong L2 it falls back to a
scaled cosine. It is fitted on `--tydi` TyDi QA train questions (evenly spaced among those with
evidence among their candidates; Wikipedia questions whose evidence sentence answers rather than
restates them) and, in the `+ ours` variants, on our dev questions in training, the two sets
weighing alike in total. Fitted with numpy's L-BFGS (a trial: the last digits may differ by
machine; s is rounded before the sentence model reads it).

The sentence model is then fitted like `fit_answerer.fit_choice` (its sets and set weights) with
the lexical features and, for our questions, the new columns (0 for the external sets' questions,
as `unit_cosine_trial` does): `s` alone, or `s` and `top` (1 for the unit with the best s among
the question's candidates; a constant shift of s within a question changes no softmax choice, so
a rank column is only worth its non-linearity). Our questions' s in the sentence model's training
is cross-fitted (the interaction fitted without the question's own fold), so the model does not
learn to trust an in-sample score. Judged:

- (a) out of fold on dev: five folds by question index (as `unit_cosine_trial`); per fold the
  interaction is fitted without that fold (and, for the training questions' s, without their
  own inner fold too);
- (b) early -> later: everything (interaction and sentence model) fitted on the dev questions
  before q`--from` (as `holdout_trial.py` splits), judged on the later ones.

Printed per mode: the questions whose chosen unit is evidence, of those with one among the
candidates, and against `lexical` the questions gained and lost with a two-sided sign test.

Result when written (1,200 TyDi questions, 10,336 texts encoded; (a) of 467, (b) of 139 later
questions; in brackets what the best s alone chooses): lexical 255, 60; the plain cosine 252
(173), 59 (49). At L2 10: s from TyDi 250 (127), 61 (40); s from TyDi + ours 255 (214), 55 (50);
with `top` 256, 56. At L2 1 and 100 the same picture (251-253 out of fold, 57-60 later). Learnt
with our questions, s alone beats the cosine out of fold and not on the later questions; in the
sentence model nothing moves beyond noise (every sign-test p above 0.5) and nothing gains on the
later ones: not kept (docs/pipeline.md, "A learned question x unit interaction").
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys

import numpy as np
from scipy.optimize import minimize

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

import fit_answerer as fa  # noqa: E402
from fitting import fit_softmax  # noqa: E402
from raglab.answer.sentences import dot  # noqa: E402
from raglab.encoder import PASSAGE  # noqa: E402
from raglab.encoder.vectors import text_key  # noqa: E402
from raglab.retrieval.ranking import rounded  # noqa: E402
from raglab.retrieval.semantic import reading  # noqa: E402
from raglab.text.analyzer import memo  # noqa: E402
from unit_cosine_trial import sign_test  # noqa: E402

COSINE_SCALE = 10.0  # the plain cosine's column, on the scale unit_cosine_trial used
A_L2 = 1e-3  # the cosine's own weight is nearly free: the penalty pulls s towards a scaled cosine
MODES = {  # name: (the interaction's training sets, or "cosine" for the plain one; the added columns)
    "lexical": (None, ()),
    "cosine": ("cosine", ("s",)),
    "s, TyDi": ("tydi", ("s",)),
    "s, TyDi + ours": ("tydi+ours", ("s",)),
    "s + top, TyDi + ours": ("tydi+ours", ("s", "top")),
}


def encoded(data: dict, tydi: list[dict], store: str | None) -> dict[int, np.ndarray]:
    """{id(example): its candidates' rows [cos, 384 q_i u_i ...]} for our questions and `tydi`,
    the vectors read from (and new ones added to) the pickle `store`."""
    cache = data["ours"][0]["pipe"].retriever.semantic.cache
    if store and os.path.exists(store):
        with open(store, "rb") as fh:
            cache.known.update(pickle.load(fh))
    exs = data["ours"] + tydi
    qtext = {id(e): reading(e["pipe"].query(e["question"].question).text) for e in exs}
    texts = sorted({qtext[id(e)] for e in exs} | {PASSAGE + c.unit.text for e in exs for c in e["candidates"]})
    dim = cache.encoder.dim
    flat = np.frombuffer(cache.get(texts, progress=True, keep=False), dtype=np.float32).reshape(len(texts), dim)
    if store:
        with open(store, "wb") as fh:
            pickle.dump({text_key(t): cache.known[text_key(t)] for t in texts}, fh)
    row = {t: i for i, t in enumerate(texts)}
    out = {}
    for e in exs:
        q = flat[row[qtext[id(e)]]].astype(np.float64)
        u = flat[[row[PASSAGE + c.unit.text] for c in e["candidates"]]].astype(np.float64)
        prod = q[None, :] * u * dim
        out[id(e)] = np.hstack([prod.sum(axis=1, keepdims=True) / dim, prod]) if len(u) else np.zeros((0, dim + 1))
    return out


def fit_interaction(rows: dict, groups: list[tuple[dict, float]], l2: float) -> np.ndarray:
    """[a, d...] minimising the weighted softmax cross-entropy of (example, weight) `groups`."""
    X = np.vstack([rows[id(e)] for e, _ in groups])
    sizes = [len(e["labels"]) for e, _ in groups]
    starts = np.cumsum([0] + sizes[:-1])
    gid = np.repeat(np.arange(len(groups)), sizes)
    t = np.concatenate([np.array(e["labels"], float) / sum(e["labels"]) for e, _ in groups])
    gw = np.array([w for _, w in groups])
    pen = np.full(X.shape[1], l2)
    pen[0] = A_L2

    def loss(w):
        z = X @ w
        top = np.maximum.reduceat(z, starts)
        ez = np.exp(z - top[gid])
        total = np.add.reduceat(ez, starts)
        value = gw @ (np.log(total) + top - np.add.reduceat(t * z, starts)) + 0.5 * (pen * w) @ w
        grad = X.T @ ((ez / total[gid] - t) * gw[gid]) + pen * w
        return value, grad

    return minimize(loss, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B",
                    options={"maxiter": 2000, "gtol": 1e-9}).x


class Interactions:
    """Fits of the interaction by the set of our dev folds left out, each made once."""

    def __init__(self, rows: dict, tydi: list[dict], ours: list[dict], fold: dict, l2: float):
        self.rows, self.tydi, self.ours, self.fold, self.l2 = rows, tydi, ours, fold, l2
        self.fits: dict = {}

    def weights(self, source: str, without: frozenset) -> np.ndarray:
        key = (source, without if "ours" in source else frozenset())
        if key not in self.fits:
            mine = [e for e in self.ours if any(e["labels"]) and self.fold[id(e)] not in without] if "ours" in source else []
            sets = [s for s in (self.tydi, mine) if s]
            groups = [(e, fa.OURS_SCALE / len(s)) for s in sets for e in s]
            self.fits[key] = fit_interaction(self.rows, groups, self.l2)
        return self.fits[key]

    def columns(self, source: str, e: dict, without: frozenset) -> list[list[float]]:
        x = self.rows[id(e)]
        s = x[:, 0] * COSINE_SCALE if source == "cosine" else x @ self.weights(source, without)
        s = [rounded(float(v)) for v in s]
        best = max(s, default=0.0)
        return [[v, 1.0 if v == best else 0.0] for v in s]


def design(e: dict, extra: dict | None, cols: tuple) -> list[list[float]]:
    ex = extra.get(id(e)) if extra is not None else None  # None for the external sets' questions
    pick = [("s", "top").index(c) for c in cols]
    return [list(c.features) + ([ex[i][k] for k in pick] if ex else [0.0] * len(cols))
            for i, c in enumerate(e["candidates"])]


def chosen(data: dict, train: list[dict], test: list[dict], inter: Interactions, mode: str,
           outer: frozenset) -> tuple[dict[str, int], int]:
    """{question id: 1 when its chosen unit is evidence} for `test` (with evidence among its
    candidates), the sentence model fitted on `train` of ours (and the external sets); the
    interaction without the `outer` folds, and for a training question without its own fold too.
    Also how many of them the best s alone would have chosen evidence for."""
    source, cols = MODES[mode]
    extra = {}
    if source:
        for e in train:
            extra[id(e)] = inter.columns(source, e, outer | {inter.fold[id(e)]})
        for e in test:
            extra[id(e)] = inter.columns(source, e, outer)
    train_ids = {id(e) for e in train}
    groups = []
    for name, weight in fa.SET_WEIGHT.items():
        exs = [e for e in data[name] if any(e["labels"]) and (name != "ours" or id(e) in train_ids)]
        groups += [(design(e, extra, cols), e["labels"], weight * fa.OURS_SCALE / len(exs)) for e in exs]
    w = fit_softmax(groups)
    got, alone = {}, 0
    for e in test:
        if any(e["labels"]):
            if source:
                alone += e["labels"][[row[1] for row in extra[id(e)]].index(1.0)]
            cands, zs = e["candidates"], [rounded(dot(w, row)) for row in design(e, extra, cols)]
            k = min(range(len(cands)), key=lambda i: (-zs[i], cands[i].rank, cands[i].quote.start,
                                                       cands[i].unit.focus_start))
            got[e["question"].id] = e["labels"][k]
    return got, alone


def line(mode: str, got: dict, alone: int, base: dict) -> str:
    out = f"{mode:24s} {sum(got.values()):>4d} / {len(got):<4d}" + (f" (s alone {alone:>3d})" if MODES[mode][0] else "")
    if base and got is not base:
        gained = sum(1 for q in sorted(got) if got[q] > base[q])
        lost = sum(1 for q in sorted(got) if got[q] < base[q])
        out += f"   +{gained} -{lost} (p {sign_test(gained, lost):.3f})"
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--store", help="a pickle of the encoder's vectors, read and written, so reruns encode nothing")
    p.add_argument("--tydi", type=int, default=1200, help="TyDi QA train questions the interaction learns from")
    p.add_argument("--l2", default="10", help="comma-separated L2s of the interaction's d")
    p.add_argument("--from", dest="cut", type=int, default=698, help="first dev question number of the later ones")
    p.add_argument("--modes", default=";".join(MODES), help="';'-separated, of " + "; ".join(MODES))
    args = p.parse_args(argv)
    modes = ["lexical"] + [m for m in args.modes.split(";") if m != "lexical"]
    with memo():
        data = fa.sets()
    ours = data["ours"]
    good = [e for e in data["tydiqa-en-train"] if any(e["labels"]) and e["candidates"]]
    tydi = good[:: max(1, len(good) // args.tydi)][: args.tydi] if args.tydi else []
    rows = encoded(data, tydi, args.store)
    fold = {id(e): n % fa.FOLDS for n, e in enumerate(ours)}
    early = [e for e in ours if int(e["question"].id[1:]) < args.cut]
    late = [e for e in ours if int(e["question"].id[1:]) >= args.cut]
    early_fold = {id(e): n % fa.FOLDS for n, e in enumerate(early)}
    early_fold.update({id(e): fa.FOLDS for e in late})  # the later questions: a fold of their own, always left out
    print(f"TyDi questions {len(tydi)}, dev {len(ours)} (early {len(early)}, later {len(late)})", flush=True)
    fixed: dict = {}  # the modes without a learnt interaction, the same at every L2: judged once

    def judged(part: str, mode: str, judge) -> tuple[dict, int]:
        if MODES[mode][0] not in (None, "cosine"):
            return judge()
        if (part, mode) not in fixed:
            fixed[part, mode] = judge()
        return fixed[part, mode]

    def out_of_fold(inter: Interactions, mode: str) -> tuple[dict, int]:
        got, alone = {}, 0
        for f in range(fa.FOLDS):
            part, n = chosen(data, [e for e in ours if fold[id(e)] != f], [e for e in ours if fold[id(e)] == f],
                             inter, mode, frozenset({f}))
            got.update(part)
            alone += n
        return got, alone

    for l2 in (float(x) for x in args.l2.split(",")):
        print(f"\nL2 {l2:g}: (a) out of fold on dev, evidence chosen", flush=True)
        inter = Interactions(rows, tydi, ours, fold, l2)
        base: dict = {}
        for mode in modes:
            got, alone = judged("a", mode, lambda: out_of_fold(inter, mode))
            base = base or got
            print(line(mode, got, alone, base), flush=True)
        print(f"L2 {l2:g}: (b) fitted on q001-q{args.cut - 1}, judged on the later questions", flush=True)
        inter = Interactions(rows, tydi, early + late, early_fold, l2)
        base = {}
        for mode in modes:
            got, alone = judged("b", mode, lambda: chosen(data, early, late, inter, mode, frozenset({fa.FOLDS})))
            base = base or got
            print(line(mode, got, alone, base), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
