"""Changes to `bilingual` screened on the dev splits only: each one changes one thing.

    python bench/screen_candidates.py                    # every candidate's grid
    python bench/screen_candidates.py --only sentence    # one candidate (see --help for names)

Every answerable dev question of our set and of the external sets' dev halves is ranked as
the served retriever ranks it (recursive chunks, `bilingual`, expansion on, the fitted weight,
margin and opening penalty), except for the one change a candidate makes to the fused scores.
Each row gives MRR@10 / recall@3 per set, the three-set mean of MRR@10 (each set counting
once, as `fit_opening.py` counts them), and our dev slices (crosslingual each way, typo:
recall@3; Bangla, paraphrase: MRR@10). The first value of every grid is the served ranking.
Read it with the rule `fit_opening.py` applies when it must choose again: the smallest value
whose mean comes within `SLACK` (0.002, about one of our dev questions moving one place) of the
best mean; where that is the served value, the candidate changes nothing.

The last row, `no-glossary`, ranks with the expansion table cut before its glossary of
details only the Bangla articles give (from the group "prepaid" on).

A candidate that reads texts the shipped vectors do not hold (`passage-form`, `no-heading`,
`bare-other`, `own-reading`, `no-glossary`) encodes them the first time (minutes on 2 cores;
the native cache keeps them). `sentence` scores our set only: the sentence chunker's vectors
ship for the bundled corpus alone.
Nothing is fitted or written here, and test questions are never read.
"""

from __future__ import annotations

import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from fit_fusion import default_sets  # noqa: E402
from fitting import served_queries  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus, index_text  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.encoder import PASSAGE  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.evaluation.metrics import gains, recall_at, reciprocal_rank  # noqa: E402
from raglab.retrieval import expansion  # noqa: E402
from raglab.retrieval.bilingual import BilingualRetriever, bridged, centred, demoted  # noqa: E402
from raglab.retrieval.expansion import expand  # noqa: E402
from raglab.retrieval.lexical import weighted_terms  # noqa: E402
from raglab.retrieval.ranking import top_n  # noqa: E402
from raglab.retrieval.rerank import WEIGHTS, ChunkFacts, combine, features, query_facts  # noqa: E402
from raglab.retrieval.semantic import fuse, reading  # noqa: E402
from raglab.text.analyzer import analyze, has_bangla, normalize  # noqa: E402
from raglab.text.answertypes import accepts, question_type, typed_spans  # noqa: E402

SLACK = 0.002
SLICES = ("crosslingual en→bn", "crosslingual bn→en", "typo", "Bangla", "paraphrase")


class Set:
    """One dev set, ranked once as served: what every candidate starts from."""

    def __init__(self, name: str, corpus_dir: str, goldens_path: str, chunker: str = "recursive"):
        self.name = name
        docs = load_corpus(corpus_dir)
        self.docs = docs
        questions = [q for q in load_goldens(goldens_path, docs) if q.split == "dev" and q.answerable]
        self.chunks = chunk_corpus(docs, chunker)
        self.cover = coverage_index(self.chunks, questions, 0.5)
        self.r = BilingualRetriever(self.chunks, chunker=chunker)
        self.items = []
        for q, query in zip(questions, served_queries(docs, questions)):
            self.items.append((q, query, self.r.cosines(query), self.r.lexical_scores(query)))
        self.memo: dict = {}

    def text_cosines(self, text: str, matrix=None) -> dict[int, float]:
        """The cosine of every chunk (or every row of `matrix`) with an encoder input, remembered."""
        key = (text, id(matrix))
        got = self.memo.get(key)
        if got is None:
            cache = self.r.semantic.cache
            vector = cache.get([text], keep=False)
            rows = self.r.semantic.matrix if matrix is None else matrix
            got = self.memo[key] = dict(enumerate(float(x) for x in cache.encoder.dots(vector, rows)))
        return got


def chunk_cosines(s: Set, i: int) -> list[float]:
    """The cosine of chunk i's vector with every chunk's, remembered."""
    key = ("chunk", i)
    if key not in s.memo:
        d, matrix = s.r.semantic.cache.encoder.dim, s.r.semantic.matrix
        s.memo[key] = [float(x) for x in s.r.semantic.cache.encoder.dots(matrix[i * d:(i + 1) * d], matrix)]
    return s.memo[key]


def slice_of(q) -> str | None:
    if q.kind == "crosslingual":
        return "crosslingual en→bn" if q.lang == "en" else "crosslingual bn→en"
    return "typo" if q.kind == "typo" else None


def served_ranking(s: Set, q, query, fused: dict[int, float]) -> list[int]:
    """The ten best chunks as served: the fused order, the other language given its place
    (its chunk chosen as served, from the question's served cosines and BM25 scores)."""
    return [h.index for h in s.r.ranked(fused, query, 10, s.r.place_choice(*s.memo["parts"]))]


def score(sets: list[Set], change, only: str | None = None, rank=served_ranking) -> str:
    """One table row: `change(s, q, query, cosines, lexical)` gives the fused scores to rank,
    `rank(s, q, query, fused)` the ten best chunks; with `only`, the other sets are left out
    (and so is the mean)."""
    cells, means, slices = [], [], {name: [] for name in SLICES}
    for s in sets:
        if only is not None and s.name != only:
            cells.append("—")
            continue
        rows = []
        for q, query, cos, lex in s.items:
            s.memo["parts"] = (cos, lex)  # what `served_ranking` chooses the place's chunk by
            fused = change(s, q, query, cos, lex)
            ranked = rank(s, q, query, fused)
            gain = gains([s.cover[q.id].get(i, frozenset()) for i in ranked])
            rr, r3 = reciprocal_rank(gain, 10), recall_at(gain, q.n_facts, 3)
            rows.append((rr, r3))
            if s.name == "ours":
                if slice_of(q):
                    slices[slice_of(q)].append(r3)
                if q.lang == "bn":
                    slices["Bangla"].append(rr)
                if q.kind == "paraphrase":
                    slices["paraphrase"].append(rr)
        mrr = math.fsum(x[0] for x in rows) / len(rows)
        means.append(mrr)
        cells.append(f"{mrr:.4f} / {math.fsum(x[1] for x in rows) / len(rows):.3f}")
    cells.append("—" if only is not None else f"{math.fsum(means) / len(means):.4f}")
    cells += [f"{math.fsum(v) / len(v):.3f}" if v else "—" for v in slices.values()]
    return " | ".join(cells)


def served(s, q, query, cos, lex):
    return s.r.fused(cos, lex)


# Each candidate: (its grid, the values' name, change(value) -> a `score` change). Value 0 is served.

def sentence(a):
    """A chunk's cosine mixed with its best sentence's (the sentence chunker's chunks inside it)."""
    def change(s, q, query, cos, lex):
        if not a:
            return served(s, q, query, cos, lex)
        if "sentences" not in s.memo:
            sents = chunk_corpus(s.docs, "sentence")
            owner = {}
            for j, x in enumerate(sents):
                owner[j] = next(i for i, c in enumerate(s.chunks) if c.doc == x.doc and c.start < x.end <= c.end)
            s.memo["sentences"] = (s.r.semantic.cache.get([PASSAGE + index_text(x) for x in sents]), owner)
        matrix, owner = s.memo["sentences"]

        def best(text):
            out: dict[int, float] = {}
            for j, x in s.text_cosines(reading(text), matrix).items():
                if owner[j] not in out or x > out[owner[j]]:
                    out[owner[j]] = x
            return {i: (1 - a) * c + a * out.get(i, c) for i, c in s.r.semantic.text_scores(text).items()}
        mixed = best(query.text)
        other = s.r.translation(query)
        if other is not None:
            mixed = bridged(mixed, best(other), s.r.langs, query.lang)
        return s.r.fused(mixed, lex)
    return change


def dense_feedback(beta, m=3):
    """Each cosine plus beta times the chunk's mean cosine with the m best fused chunks."""
    def change(s, q, query, cos, lex):
        fused = s.r.fused(cos, lex)
        if not beta:
            return fused
        rows = [chunk_cosines(s, h.index) for h in top_n(fused, m)]
        return s.r.fused({i: c + beta * math.fsum(row[i] for row in rows) / m for i, c in cos.items()}, lex)
    return change


def lexical_feedback(g, m=2, n_terms=5):
    """RM3-like: the n_terms heaviest terms (idf / chunk length) of the m best fused chunks added to
    the BM25 side, the heaviest weighing g."""
    def change(s, q, query, cos, lex):
        fused = s.r.fused(cos, lex)
        if not g:
            return fused
        weight: dict[str, float] = {}
        for h in top_n(fused, m):
            terms = analyze(index_text(s.chunks[h.index]))
            for t in terms:
                weight[t] = weight.get(t, 0.0) + s.r.bm25.idf(t) / len(terms)
        chosen = sorted(weight, key=lambda t: (-weight[t], t))[:n_terms]
        terms, weights = weighted_terms(s.r.bm25, analyze(s.r.lexical_text(query)))
        top = weight[chosen[0]]
        return s.r.fused(cos, s.r.bm25.scores(terms + chosen, weights + [g * weight[t] / top for t in chosen]))
    return change


def article(lam):
    """Each fused score plus lam times the best fused score of its article."""
    def change(s, q, query, cos, lex):
        fused = s.r.fused(cos, lex)
        best: dict[str, float] = {}
        for i in sorted(fused):
            doc = s.chunks[i].doc
            best[doc] = max(best.get(doc, fused[i]), fused[i])
        return {i: f + lam * best[s.chunks[i].doc] for i, f in fused.items()}
    return change


def within_article(g):
    """Each chunk gains g times its BM25 score over the best BM25 score of its article: the
    lexical side decides more of the order inside an article."""
    def change(s, q, query, cos, lex):
        fused = s.r.fused(cos, lex)
        if not g or not lex:
            return fused
        best: dict[str, float] = {}
        for i in sorted(lex):
            doc = s.chunks[i].doc
            best[doc] = max(best.get(doc, 0.0), lex[i])
        return {i: f + g * lex.get(i, 0.0) / best[s.chunks[i].doc] if lex.get(i, 0.0) > 0 else f
                for i, f in fused.items()}
    return change


def own_reading(a):
    """The question's own language's chunks also read the question followed by the table's
    phrases in its own language (a third encoder pass): (1 - a) typed + a that reading."""
    def change(s, q, query, cos, lex):
        own = [p for p in expand(query.text, both=True).expansion if has_bangla(p) == (query.lang == "bn")]
        if not a or not own:
            return served(s, q, query, cos, lex)
        extra = s.text_cosines(reading(query.text + " " + " ".join(own)))
        return s.r.fused({i: (1 - a) * c + a * extra[i] if s.r.langs[i] == query.lang else c
                          for i, c in cos.items()}, lex)
    return change


def translated_own(a):
    """The question's own language's chunks also read the translated reading (no extra pass)."""
    def change(s, q, query, cos, lex):
        other = s.r.translation(query)
        if not a or other is None:
            return served(s, q, query, cos, lex)
        extra = s.r.semantic.text_scores(other)
        return s.r.fused({i: (1 - a) * c + a * extra[i] if s.r.langs[i] == query.lang else c
                          for i, c in cos.items()}, lex)
    return change


def answer_type(delta):
    """A chunk holding a value of the kind the question asks for (amount, duration, …) gains delta."""
    def change(s, q, query, cos, lex):
        fused = s.r.fused(cos, lex)
        wanted = set(accepts(question_type(query.text))) - {"number", "name"}
        if not delta or not wanted:
            return fused
        if "types" not in s.memo:
            s.memo["types"] = [frozenset(x.type for x in typed_spans(c.text)) for c in s.chunks]
        kinds = s.memo["types"]
        return {i: f + (delta if kinds[i] & wanted else 0.0) for i, f in fused.items()}
    return change


def reranker(lam, depth=10):
    """The 10 best fused chunks gain lam times `hybrid-rerank`'s weighted features (prior left out)."""
    weights = {k: v for k, v in WEIGHTS.items() if k != "prior"}

    def change(s, q, query, cos, lex):
        fused = s.r.fused(cos, lex)
        if not lam:
            return fused
        facts = query_facts(query, s.r.idf)
        out = dict(fused)
        for h in top_n(fused, depth):
            out[h.index] = fused[h.index] + lam * combine(features(facts, ChunkFacts.of(s.chunks[h.index])), weights)
        return out
    return change


def lexical_quality(g):
    """The BM25 share scaled by (best BM25 / the most the question's terms could score) ** g."""
    def change(s, q, query, cos, lex):
        if not g or not lex:
            return served(s, q, query, cos, lex)
        terms, weights = weighted_terms(s.r.bm25, analyze(s.r.lexical_text(query)))
        bound = math.fsum(w * max(s.r.bm25.postings[t][1]) for t, w in zip(terms, weights) if t in s.r.bm25.postings)
        scale = (max(lex.values()) / bound) ** g if bound > 0 else 1.0
        cosine_part = fuse(centred(cos, s.r.langs), {}, s.r.weight)
        fused = fuse(centred(cos, s.r.langs), lex, s.r.weight)
        fused = {i: cosine_part[i] + (f - cosine_part[i]) * scale for i, f in fused.items()}
        return demoted(fused, s.r.opening, s.r.opening_penalty)
    return change


def novelty(mu):
    """The other language's chunks gain mu times (1 - their best cosine with a chunk of the
    question's language): a Bangla chunk that repeats an English one adds nothing for an English question."""
    def change(s, q, query, cos, lex):
        fused = s.r.fused(cos, lex)
        if not mu or not s.r.two_languages:
            return fused
        if "novelty" not in s.memo:
            langs = s.r.langs
            s.memo["novelty"] = [1.0 - max(x for j, x in enumerate(chunk_cosines(s, i)) if langs[j] != langs[i])
                                 for i in range(len(s.chunks))]
        new = s.memo["novelty"]
        return {i: f + (mu * new[i] if s.r.langs[i] != query.lang else 0.0) for i, f in fused.items()}
    return change


def passage_form(a):
    """The cosine mixed with that of the question read as a passage (``"passage: "`` + question)."""
    def change(s, q, query, cos, lex):
        if not a:
            return served(s, q, query, cos, lex)
        other = s.text_cosines(PASSAGE + normalize(query.text))
        return s.r.fused({i: (1 - a) * c + a * other[i] for i, c in cos.items()}, lex)
    return change


def bare_cosines(s, query):
    """The question's cosines to each chunk's text alone (no heading path), bridged across
    languages the way the served cosines are; the bare vectors are encoded once per run."""
    if "bare" not in s.memo:
        s.memo["bare"] = s.r.semantic.cache.get([PASSAGE + c.text for c in s.chunks])
    bare = s.memo["bare"]
    plain = s.text_cosines(reading(query.text), bare)
    other = s.r.translation(query)
    if other is not None:
        plain = bridged(plain, s.text_cosines(reading(other), bare), s.r.langs, query.lang)
    return plain


def no_heading(a):
    """The cosine mixed with that of the chunk's text alone, without its heading path."""
    def change(s, q, query, cos, lex):
        if not a:
            return served(s, q, query, cos, lex)
        plain = bare_cosines(s, query)
        return s.r.fused({i: (1 - a) * c + a * plain[i] for i, c in cos.items()}, lex)
    return change


def bare_other(a):
    """`no-heading` for the other language's chunks only: their heading path, in their own
    language, pulls their vector towards questions in that language."""
    def change(s, q, query, cos, lex):
        if not a or not s.r.two_languages:
            return served(s, q, query, cos, lex)
        plain = bare_cosines(s, query)
        return s.r.fused({i: (1 - a) * c + a * plain[i] if s.r.langs[i] != query.lang else c
                          for i, c in cos.items()}, lex)
    return change


CANDIDATES = {
    "sentence": (sentence, "share", [0, 0.1, 0.2, 0.3, 0.5, 1.0]),
    "dense-feedback": (dense_feedback, "beta", [0, 0.1, 0.2, 0.3, 0.5]),
    "lexical-feedback": (lexical_feedback, "g", [0, 0.1, 0.2, 0.4]),
    "article": (article, "lambda", [0, 0.1, 0.2, 0.3, 0.5]),
    "within-article": (within_article, "g", [0, 0.02, 0.05, 0.1, 0.2]),
    "own-reading": (own_reading, "share", [0, 0.1, 0.2, 0.25, 0.3, 0.5, 0.75]),
    "translated-own": (translated_own, "share", [0, 0.1, 0.2, 0.3]),
    "answer-type": (answer_type, "delta", [0, 0.025, 0.05, 0.075, 0.1, 0.15]),
    "reranker": (reranker, "lambda", [0, 0.02, 0.05, 0.1, 0.2]),
    "lexical-quality": (lexical_quality, "g", [0, 0.25, 0.5, 1.0]),
    "novelty": (novelty, "mu", [0, 0.1, 0.2, 0.4]),
    "passage-form": (passage_form, "share", [0, 0.2, 0.4, 0.6]),
    "no-heading": (no_heading, "share", [0, 0.2, 0.4, 0.6, 1.0]),
    "bare-other": (bare_other, "share", [0, 0.25, 0.5, 0.75, 1.0]),
}


GLOSSARY_START = "prepaid"  # the first group of the table's glossary of Bangla-only details


def without_glossary(named: list[tuple[str, str, str]]) -> list[Set]:
    """The sets ranked with the expansion table cut before its glossary of details only the
    Bangla articles give (what carries English questions to them, if anything does)."""
    table = expansion.load_table()
    cut = [g.concept for g in table].index(GLOSSARY_START)
    expansion._CACHE[0] = table[:cut]
    expand.cache_clear()
    expansion._table_aliases.cache_clear()
    try:
        return [Set(*args) for args in named]
    finally:
        expansion._CACHE[0] = table
        expand.cache_clear()
        expansion._table_aliases.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", choices=sorted([*CANDIDATES, "no-glossary"]),
                        help="screen only these candidates")
    args = parser.parse_args()
    sets = []
    for name, corpus_dir, questions in default_sets():
        print(f"ranking {name} ...", file=sys.stderr, flush=True)
        sets.append(Set(name, corpus_dir, questions))
    header = ("| candidate | value | " + " | ".join(f"{s.name} MRR@10 / recall@3" for s in sets)
              + " | mean MRR@10 | " + " | ".join(SLICES) + " |")
    print(header)
    print("|---|---:|" + "---|" * len(sets) + "---:|" + "---:|" * len(SLICES))
    for name in args.only or [*CANDIDATES, "no-glossary"]:
        if name == "no-glossary":
            print(f"| {name} | — | " + score(without_glossary(default_sets()), served) + " |", flush=True)
            continue
        make, label, grid = CANDIDATES[name]
        only = "ours" if name == "sentence" else None
        for value in grid:
            print(f"| {name} | {label} {value} | " + score(sets, make(value), only) + " |", flush=True)


if __name__ == "__main__":
    main()
