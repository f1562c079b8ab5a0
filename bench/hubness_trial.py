"""Hubness and anisotropy corrections of the encoder's cosines for `bilingual`, screened on the
dev splits only.

    python bench/hubness_trial.py                  # every candidate's grid
    python bench/hubness_trial.py --only csls      # one candidate
    python bench/hubness_trial.py --moved          # list our dev questions each value moves

e5's vectors are anisotropic: every cosine between a question and a chunk lies in a narrow band,
and some chunks (an article's lead, a list of many topics) lie close to almost any question in
their language: "hubs" that win places the asked section should have. `bilingual` already takes
each language's mean cosine off per question (step 1), which removes one shift per language, and
lowers the openings by a fitted penalty (step 4), a hand-made hub correction for one kind of chunk.
These candidates correct every chunk the way the cross-lingual embedding literature does, from the
chunk vectors alone (no question is read to fit them):

- ``csls``: cross-domain similarity local scaling (Conneau et al. 2018): each chunk's cosine minus
  γ times its hubness r_c, the mean of its K highest cosines with the other chunks (``all``), with
  the chunks of its own language (``own``) or of the other language (``other``: how close it sits
  to the other language's text, what crosslingual questions meet). A per-chunk constant, shipped
  with the vectors if served.
- ``abtt``: "all-but-the-top" (Mu & Viswanath 2018): the corpus mean vector and the chunk vectors'
  first D principal directions taken out of both sides before the dot product, so the directions
  every text shares (the language, "this is a help-centre page") stop deciding. The question's
  vectors (as typed and translated, step 2) are read from the encoder's cache; the correction is
  linear, so the bridged cosine of step 2 is corrected the same way.
- ``zscore``: each language's centred cosines also divided by their standard deviation over that
  language's chunks before the min–max scaling (a language whose cosines are compressed, the other
  language's, spreads as wide as the question's own).

Beside them, three that are not hubness corrections: ``neighbours`` (each cosine plus λ times its
article neighbours' mean; ``neighbours-margin`` with step 3's margin moved too), ``question-sentences``
(a story question also read one sentence at a time) and ``en-place-weight`` (step 3's place weight
for English questions only). ``--kept-places`` ranks `neighbours` reordering only the places the
question's own language holds in the served ten (the other language's places as served). ``--paired`` runs `paired_retrieval_trial.py`'s paired test and slice
guard for the best values (`PAIRED`).

Ranked as `third_reading_trial.py` ranks (every answerable dev question of our set and the external
sets' dev halves, recursive chunks, expansion on, the fitted values, steps 1 to 6, the change made
inside `BilingualRetriever.fused` so steps 3 and 6 see it; the same columns). Nothing is fitted or
written here, and test questions are never read.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, HERE)

from paired_retrieval_trial import compare  # noqa: E402
from paraphrase_coverage_trial import cosine_patch, restore  # noqa: E402
from raglab.retrieval.bilingual import bridged, fitted_margin, fitted_place_weight  # noqa: E402
from raglab.retrieval.semantic import reading  # noqa: E402
from raglab.text.splitter import sentences  # noqa: E402
from third_reading_trial import (  # noqa: E402
    ORIGINAL_FUSED,  # noqa: E402
    full_rank,
    print_rows,
    served,
    served_screen,
)


def chunk_matrix(s) -> np.ndarray:
    if "np-matrix" not in s.memo:
        dim = s.r.semantic.cache.encoder.dim
        s.memo["np-matrix"] = np.frombuffer(s.r.semantic.matrix, dtype=np.float32).reshape(-1, dim).astype(np.float64)
    return s.memo["np-matrix"]


def hubness(s, k: int, ref: str) -> np.ndarray:
    """r_c: the mean of chunk c's k highest cosines with the reference chunks (never itself)."""
    key = ("hub", k, ref)
    if key not in s.memo:
        m = chunk_matrix(s)
        sims = m @ m.T
        np.fill_diagonal(sims, -np.inf)
        langs = np.array(s.r.langs)
        out = np.zeros(len(m))
        for i in range(len(m)):
            row = sims[i]
            if ref == "own":
                row = row[langs == langs[i]]
            elif ref == "other" and s.r.two_languages:
                row = row[langs != langs[i]]
            row = row[np.isfinite(row)]
            out[i] = np.sort(row)[-k:].mean() if len(row) else 0.0
        s.memo[key] = out
    return s.memo[key]


def csls(values):
    gamma, k, ref = values
    if not gamma:
        return served

    def adjust(s, query, cos, lex):
        r = hubness(s, k, ref)
        return {i: c - gamma * float(r[i]) for i, c in cos.items()}
    return cosine_patch(adjust)


def directions(s, d: int) -> tuple[np.ndarray, np.ndarray]:
    key = ("pcs", d)
    if key not in s.memo:
        m = chunk_matrix(s)
        mu = m.mean(axis=0)
        _, _, vt = np.linalg.svd(m - mu, full_matrices=False)
        s.memo[key] = (mu, vt[:d])
    return s.memo[key]


def abtt(values):
    d, mean_off = values
    if not d and not mean_off:
        return served

    def correction(s, text: str) -> np.ndarray:
        """What the dot products of `text`'s vector lose to the corpus mean and the first d
        directions, per chunk: q·c − (q−μ)'·(c−μ)' up to a constant per question."""
        mu, pcs = directions(s, d)
        m = chunk_matrix(s)
        q = np.frombuffer(s.r.semantic.cache.get([text], keep=False), dtype=np.float32).astype(np.float64)
        out = np.zeros(len(m))
        if mean_off:
            out += m @ mu  # (q − μ)·(c − μ) = q·c − q·μ − μ·c + μ·μ: only μ·c varies by chunk
        if d:
            qc, cc = (q - mu) @ pcs.T, (m - mu) @ pcs.T
            out += cc @ qc
        return out

    def adjust(s, query, cos, lex):
        typed = correction(s, reading(query.text))
        corr = {i: float(typed[i]) for i in cos}
        other = s.r.translation(query)
        if other is not None:
            trans = correction(s, reading(other))
            corr = bridged(corr, {i: float(trans[i]) for i in cos}, s.r.langs, query.lang)
        return {i: c - corr[i] for i, c in cos.items()}
    return cosine_patch(adjust)


def zscore(on):
    if not on:
        return served

    def adjust(s, query, cos, lex):
        groups: dict[str, list[float]] = {}
        for i in sorted(cos):
            groups.setdefault(s.r.langs[i], []).append(cos[i])
        sd = {}
        for lang, xs in groups.items():
            mean = math.fsum(xs) / len(xs)
            sd[lang] = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / len(xs)) or 1.0
        # centring (step 1) still follows; dividing first scales each language's spread to one
        return {i: c / sd[s.r.langs[i]] for i, c in cos.items()}
    return cosine_patch(adjust)


def neighbours(values):
    """Not a hubness correction: each chunk's cosine plus λ times the mean cosine of its
    neighbours in its own article (the chunk before and after), so a section cut in two, or a
    chunk between two that match, rises with them; with `own`, the question's language's chunks
    only."""
    lam, own = values if isinstance(values, tuple) else (values, False)
    if not lam:
        return served

    def adjust(s, query, cos, lex):
        out = {}
        for i, c in cos.items():
            if own and s.r.langs[i] != query.lang:
                out[i] = c
                continue
            near = [cos[j] for j in (i - 1, i + 1) if j in cos and s.r.docs[j] == s.r.docs[i]]
            out[i] = c + lam * (math.fsum(near) / len(near) if near else c)
        return out
    return cosine_patch(adjust)


def neighbours_margin(values):
    """`neighbours` at λ with step 3's margin set to m (fitted 0.2 on the served cosines): the
    smoothing lifts the question's own language's best chunks, so the other language's place,
    judged by how near its fused score comes, is given less often."""
    lam, m = values
    inner = neighbours(lam)

    def change(s, q, query, cos, lex):
        s.r.margin = m
        return inner(s, q, query, cos, lex)
    return change


def smoothed(s, query, cos: dict[int, float], lam: float) -> dict[int, float]:
    """The cosines of `neighbours` at λ (every chunk)."""
    out = {}
    for i, c in cos.items():
        near = [cos[j] for j in (i - 1, i + 1) if j in cos and s.r.docs[j] == s.r.docs[i]]
        out[i] = c + lam * (math.fsum(near) / len(near) if near else c)
    return out


def kept_places(lam: float):
    """A rank (for `Screen.row`): the served ten, except that the places the question's own
    language holds there are filled in the order `neighbours` at λ gives that language's chunks;
    the other language's chunks keep the places the served ranking (step 3 included) gave them. So
    the smoothing can reorder a question's own language without taking the other language's place."""
    def rank(s, query, fused):
        served_ten = full_rank(s, query, fused)
        cos, lex = s.memo["parts"]
        if not lam:
            return served_ten
        smooth = ORIGINAL_FUSED(s.r, smoothed(s, query, cos, lam), lex)
        own_order = [i for i in full_rank(s, query, smooth) if s.r.langs[i] == query.lang]
        own_order += [i for i in served_ten if s.r.langs[i] == query.lang and i not in own_order]
        out, nxt = [], iter(own_order)
        for i in served_ten:
            out.append(i if s.r.langs[i] != query.lang else next(nxt))
        return out
    return rank


def question_sentences(a):
    """Not a hubness correction: a question of several sentences read one sentence at a time too
    (each a new encoder input), the own language's chunks taking (1 − a) · the whole question's
    cosine + a · the best of its sentences' (one sentence of a story may name the asked topic
    where the whole question's vector is the story's mean); the other language's as served."""
    if not a:
        return served

    def adjust(s, query, cos, lex):
        parts = [query.text[b:e].strip() for b, e in sentences(query.text)]
        parts = [p for p in parts if p]
        if len(parts) < 2:
            return cos
        each = [s.text_cosines(reading(p)) for p in parts]
        return {i: (1 - a) * c + a * max(e[i] for e in each) if s.r.langs[i] == query.lang else c
                for i, c in cos.items()}
    return cosine_patch(adjust)


def place_weight_en(w):
    """Not a hubness correction: the place's cosine weight (step 3's choice of the other language's
    chunk, fitted at one value for both directions) set to w for English questions only, the
    en→bn misses whose evidence the choice ranks 2nd–4th among the Bangla chunks."""
    if w is None:
        return served

    def change(s, q, query, cos, lex):
        s.r.place_weight = w if query.lang == "en" else fitted_place_weight()
        return served(s, q, query, cos, lex)
    return change


def undo(s) -> None:
    restore(s)
    s.r.place_weight = fitted_place_weight()
    s.r.margin = fitted_margin()


CANDIDATES = {
    "csls": (csls, "(γ, K, ref)", [(0, 0, "all"), (0.05, 10, "all"), (0.1, 10, "all"), (0.25, 10, "all"), (0.5, 10, "all"), (1.0, 10, "all"),
                                   (0.5, 5, "all"), (0.5, 20, "all"), (0.5, 10, "own"), (1.0, 10, "own"),
                                   (0.5, 10, "other"), (1.0, 10, "other")]),
    "abtt": (abtt, "(D, mean off)", [(0, False), (0, True), (1, True), (2, True), (4, True), (8, True),
                                     (1, False), (2, False)]),
    "zscore": (zscore, "on", [False, True]),
    "neighbours": (neighbours, "(λ, own)", [0, 0.1, 0.2, 0.3, 0.5, (0.2, True), (0.3, True), (0.5, True)]),
    "neighbours-margin": (neighbours_margin, "(λ, margin)", [(0, 0.2), (0.3, 0.25), (0.3, 0.3), (0.3, 0.35),
                                                             (0.2, 0.25), (0.2, 0.3)]),
    "question-sentences": (question_sentences, "a", [0, 0.2, 0.35, 0.5, 0.6, 0.75]),
    "en-place-weight": (place_weight_en, "w", [None, 0.4, 0.5, 0.55, 0.65, 0.7, 0.85]),
}


# The values `--paired` tests against the served ranking: each candidate's best row on dev.
PAIRED = [("neighbours", 0.3), ("question-sentences", 0.5)]
KEPT_PAIRED = (0.2, 0.3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=list(CANDIDATES), help="screen only these candidates")
    parser.add_argument("--moved", action="store_true", help="list our dev questions each value moves")
    parser.add_argument("--kept-places", action="store_true",
                        help="neighbours reordering the question's own language only, the other language's places as served")
    parser.add_argument("--paired", action="store_true",
                        help="the paired test of `paired_retrieval_trial.py` for the best values (PAIRED) instead")
    args = parser.parse_args()
    screen = served_screen()
    if args.kept_places:
        for lam in (0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5):
            cells, ours = screen.row(served, kept_places(lam))
            print(f"| kept-places | λ {lam} | {cells} |", flush=True)
            if args.moved and lam:
                print(f"    {screen.moved(ours)}", flush=True)
        return
    if args.paired:
        for name, value in PAIRED:
            compare(screen, f"{name} {value}", CANDIDATES[name][0](value), full_rank, False)
            for s in screen.sets:
                undo(s)
        for lam in KEPT_PAIRED:
            compare(screen, f"kept-places {lam}", served, kept_places(lam), False)
        return
    print(screen.header())
    print_rows(screen, CANDIDATES, args.only, args.moved, undo)


if __name__ == "__main__":
    main()
