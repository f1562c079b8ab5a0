"""The other language's place for an English question, given only to its first two's articles or
their twins, and the other remedies screened beside it, on our dev split only.

    python bench/kin_place_trial.py            # every variant against the served ranking
    python bench/kin_place_trial.py --moved    # and the dev questions each one moves

Step 3 of `bilingual` gives the third place to the other language's best chunk when it comes within
the margin. For English story questions that chunk was often another topic's Bangla section the
story's words echo ("the SMS did not come" under a question about old statements; "if someone knows
your PIN" under a wrong transfer), and it pushed the asked English section out of the top three. The
served rule (`BilingualRetriever.placeable`) gives the place only to a chunk of an article of the
first two places or of the twin of one (`ranking.twin_articles`: the articles' mean vectors paired
across languages), unless the question names a glossary detail. Variants, each ranked exactly as
served but for the one change:

- ``open``: any article's chunk takes the place (the ranking before the rule);
- ``by-name``: twins by the article ids' topic (bn-pin, en-pin), not by their vectors (our ids only:
  bn-fraud's twin is en-fraud-safety, which the names miss);
- ``first-only``: the place for a chunk of the first place's article or its twin only;
- ``bangla-too``: the same rule for a Bangla question's English chunk when its article has a twin;
- ``kin-choice``: when the rule withholds the place, it goes to the best other-language chunk of
  the first two's articles or their twins instead;
- ``glossary-kin``: the rule for a question naming a glossary detail too;
- ``lead-kin``: a glossary detail's first place (`leads`) only for a chunk of the fused first
  two's articles or their twins;
- ``story-bm25 f,d``: a flat bonus f for BM25's first d chunks, for questions of several sentences
  only (the third reading's flat bonus, kept off the external sets' one-sentence questions);
- ``asked-cosine w``: step 5's judge of the asked section, BM25 over the asking sentences, mixed
  with the encoder's centred cosine of those sentences (a new encoder input per story question):
  w · cosine' + (1 − w) · BM25 / its best;
- ``article-prior b``: b times the question's cosine with each chunk's article mean vector
  (centred per language, min-max scaled) added to the fused score.

The external sets are in one language (no place), so only the last two could move them; neither is
kept, so they were not run there. Figures: the first covering chunk's rank (as
`diagnose_misses.py`), recall@3 / MRR@10 per slice. Nothing is fitted or written here, and test
questions are never read.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, HERE)

from diagnose_misses import twin  # noqa: E402
from fitting import dev_ranking, served_queries  # noqa: E402
from raglab.retrieval import bilingual as B  # noqa: E402
from raglab.retrieval.bilingual import centred  # noqa: E402
from raglab.retrieval.ranking import SLOT, kin_place, rounded, top_n  # noqa: E402
from raglab.retrieval.semantic import reading  # noqa: E402
from raglab.text.answertypes import asking_sentences  # noqa: E402

SERVED_PLACEABLE = B.BilingualRetriever.placeable
SERVED_RANKED = B.BilingualRetriever.ranked
SERVED_FUSED = B.BilingualRetriever.fused
SERVED_SEARCH = B.BilingualRetriever.search
SERVED_LEADS = B.BilingualRetriever.leads
STATE: dict = {"variant": None}
SLICES = ("all", "paraphrase", "en paraphrase", "bn paraphrase", "en→bn", "bn→en", "direct", "typo", "two-fact", "bn")


def slices_of(q) -> list[str]:
    out = ["all", q.lang]
    if q.kind == "crosslingual":
        return out + ["en→bn" if q.lang == "en" else "bn→en"]
    kind = "two-fact" if q.kind == "multi" else q.kind
    return out + [kind, f"{q.lang} {kind}"]


def search(self, query, n):
    STATE["query"] = query
    return SERVED_SEARCH(self, query, n)


def ranked(self, scores, query, n, choice=None):
    STATE["judge"] = scores if choice is None else choice
    STATE["fused"] = scores
    return SERVED_RANKED(self, scores, query, n, choice)


def placeable(self, query, best, hits):
    name, _ = STATE["variant"] or (None, None)
    if name == "open":
        return best
    if name == "glossary-kin" and best is not None and query.lang == "en" and len(hits) >= SLOT:
        return best if kin_place(hits, best, self.docs, self.twins()) else None
    if name in ("by-name", "first-only") and best is not None and query.lang == "en" and len(hits) >= SLOT \
            and not (query.expanded and B.beyond_own_language(query.text)):
        above = {self.docs[h.index] for h in hits[:1 if name == "first-only" else SLOT - 1]}
        twins = {d: twin(d) for d in self.docs} if name == "by-name" else self.twins()
        return best if self.docs[best] in above or twins.get(self.docs[best]) in above else None
    got = SERVED_PLACEABLE(self, query, best, hits)
    if name == "kin-choice" and got is None and best is not None:
        twins, above = self.twins(), {self.docs[h.index] for h in hits[:SLOT - 1]}
        judge = STATE["judge"]
        kin = [i for i in judge if self.langs[i] != query.lang and (self.docs[i] in above or twins.get(self.docs[i]) in above)]
        return min(kin, key=lambda i: (-rounded(judge[i]), i)) if kin else None
    if name == "bangla-too" and query.lang == "bn" and best is not None and len(hits) >= SLOT:
        twins = self.twins()
        if self.docs[best] in twins and not kin_place(hits, best, self.docs, twins):
            return None
    return got


def leads(self, query, best):
    got = SERVED_LEADS(self, query, best)
    if got and (STATE["variant"] or (None,))[0] == "lead-kin":
        return kin_place(top_n(STATE["fused"], SLOT), best, self.docs, self.twins())
    return got


def fused(self, cosines, lexical, weight=None):
    out = SERVED_FUSED(self, cosines, lexical, weight)
    name, value = STATE["variant"] or (None, None)
    query = STATE.get("query")
    if name == "story-bm25" and query is not None and asking_sentences(query.text) and lexical:
        bonus, depth = value
        top = {h.index for h in top_n(lexical, depth)}
        return {i: out[i] + (bonus if i in top else 0.0) for i in out}
    if name == "article-prior" and query is not None:
        prior = article_prior(self, query)
        return {i: out[i] + value * prior[i] for i in out}
    return out


def asked_cosine(r, served_asked, w):
    def asked(query):
        base = served_asked(query)
        if not base:
            return base
        cos = centred(r.semantic.text_scores(" ".join(asking_sentences(query.text))), r.langs)
        lo, hi, top = min(cos.values()), max(cos.values()), max(base.values())
        return {i: w * (cos[i] - lo) / (hi - lo) + (1 - w) * base.get(i, 0.0) / top for i in cos}
    return asked


def article_prior(self, query) -> dict[int, float]:
    key = ("prior", query.text)
    if key not in STATE:
        dim = len(self.semantic.matrix) // len(self.docs)
        m = np.frombuffer(self.semantic.matrix, dtype=np.float32).reshape(-1, dim).astype(np.float64)
        names = sorted(set(self.docs))
        means = np.stack([m[[i for i, d in enumerate(self.docs) if d == a]].mean(0) for a in names])
        means /= np.linalg.norm(means, axis=1)[:, None]
        q = np.frombuffer(self.semantic.cache.get([reading(query.text)], keep=False), dtype=np.float32).astype(np.float64)
        cos = dict(zip(names, (means @ q).tolist()))
        per = centred({i: cos[d] for i, d in enumerate(self.docs)}, self.langs)
        lo, hi = min(per.values()), max(per.values())
        STATE[key] = {i: (per[i] - lo) / (hi - lo) if hi > lo else 0.0 for i in per}
    return STATE[key]


VARIANTS = [("open", None), ("by-name", None), ("first-only", None), ("bangla-too", None), ("kin-choice", None),
            ("glossary-kin", None), ("lead-kin", None),
            ("story-bm25", (0.05, 3)), ("story-bm25", (0.05, 2)), ("story-bm25", (0.08, 3)), ("story-bm25", (0.05, 1)),
            ("asked-cosine", 0.3), ("asked-cosine", 0.5), ("asked-cosine", 0.85), ("article-prior", 0.05), ("article-prior", 0.1), ("article-prior", 0.2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunker", default="recursive")
    parser.add_argument("--moved", action="store_true")
    args = parser.parse_args()
    docs, questions, _chunks, cover, r = dev_ranking(ROOT, args.chunker)
    queries = served_queries(docs, questions)
    B.BilingualRetriever.search, B.BilingualRetriever.ranked = search, ranked
    B.BilingualRetriever.placeable, B.BilingualRetriever.fused = placeable, fused
    B.BilingualRetriever.leads = leads

    served_asked = r.asked_scores

    def ranks(variant) -> dict[str, int | None]:
        STATE["variant"] = variant
        r.asked_scores = asked_cosine(r, served_asked, variant[1]) if variant and variant[0] == "asked-cosine" else served_asked
        out = {}
        for q, query in zip(questions, queries):
            hits = [h.index for h in r.search(query, 10)]
            out[q.id] = next((k + 1 for k, i in enumerate(hits) if i in cover[q.id]), None)
        return out

    def figures(got) -> dict[str, str]:
        sums: dict[str, list[float]] = {}
        for q in questions:
            rank = got[q.id]
            for s in slices_of(q):
                acc = sums.setdefault(s, [0.0, 0.0, 0.0])
                acc[0] += 1.0 if rank is not None and rank <= 3 else 0.0
                acc[1] += 1.0 / rank if rank else 0.0
                acc[2] += 1.0
        return {s: f"{a[0] / a[2]:.3f} / {a[1] / a[2]:.3f}" for s, a in sums.items()}

    served = ranks(None)
    base = figures(served)
    print("| variant | " + " | ".join(SLICES) + " |")
    print("|---|" + "---:|" * len(SLICES))
    print("| served | " + " | ".join(base[s] for s in SLICES) + " |")
    for variant in VARIANTS:
        got = ranks(variant)
        row = figures(got)
        label = variant[0] + ("" if variant[1] is None else f" {variant[1]}")
        print(f"| {label} | " + " | ".join(row[s] for s in SLICES) + " |")
        if args.moved:
            moved = [f"{q.id} {served[q.id]}→{got[q.id]}" for q in questions if got[q.id] != served[q.id]]
            print("    moved: " + ", ".join(moved))


if __name__ == "__main__":
    main()
