"""`bilingual`: `bm25-semantic` with the two languages put on one footing.

A question in one language whose answer exists only in the other (a Bangla question about
savings, which only an English article covers; an English question about a detail only the
Bangla article gives) is lost by `bm25-semantic`, for two measured reasons: e5's cosines
to chunks in the question's own language run about 0.02–0.05 higher than to the other
language's, whatever they say, and BM25 only ever reaches chunks that share the
question's words. This retriever changes four things and keeps the rest (three more,
steps 5, 6 and 8, move chunks within the top ten; step 7 raises a way's section for a question asking how):

1. **Per-language centring of the cosines.** For each query, the mean cosine of each
   language's chunks is subtracted from that language's cosines before the min–max
   scaling, so a chunk competes on how far above its own language's average it lies.
   (On a corpus in one language this changes nothing: min–max scaling ignores a shift.)
2. **The question translated through the expansion table, on both sides.** With query
   expansion on, the BM25 side of a question the table expands reads the help-centre
   phrases of both languages (`expansion.expand` with ``both=True``), so an English
   question reaches Bangla chunks through the table's Bangla wording too. (A question
   that already holds every phrase of its own language, "my PIN is locked", keeps its
   own words there: giving it the Bangla wording as well cost a paraphrase on each chunker
   on dev and won nothing; unless it names a detail only the other language's articles
   word, a group of the table's glossary (`expansion.beyond_own_language`), which only that
   wording can meet.) On a corpus in two languages the encoder reads every question
   with expansion on twice, such a question too: as typed, and followed by the table's
   phrases in the *other* language (`translated`). A chunk in the question's language keeps its cosine
   with the question as typed; a chunk in the other language gets the mean of its two
   cosines (`bridged`): the second reading states the question's concepts in that
   language's help-centre words, the first keeps what the table does not know. A question
   that triggers no phrase of the other language is read once.
3. **A place for the other language in the top three.** When none of the first `SLOT`
   chunks is in the other language, the other language's best chunk takes place
   `SLOT` if its fused score comes within `margin` of the chunk it displaces. Which of
   that language's chunks is best is judged on a fused score of its own, with a cosine
   weight `place_weight` at most the fused score's: the encoder reads the other
   language less surely (its cosines across languages are compressed and their order is
   loose), while BM25 reaches that language only through the table's help-centre wording,
   which, when it meets a chunk at all, names the detail asked. Both values are fitted on
   dev by ``bench/fit_bilingual.py`` into ``data/bilingual.json`` (a table without a place
   weight judges on the fused score itself). The place displaces none of the first `SLOT` − 1
   from the top `SLOT`, so a same-language question keeps its first answers there; the reader
   sees the best the other language offers at the third place (or the second, last in this
   step). For an English question the chunk must come
   from an article of the first `SLOT` − 1 or from the twin of one (`ranking.twin_articles`,
   paired by the articles' mean vectors), unless the question names a glossary detail (below):
   a Bangla chunk of another topic there was a story's echo ("the SMS did not come" under a
   question about old statements), and gave the asked English section's place away. It comes *first* instead when an English
   question names a detail only the Bangla articles word (`expansion.beyond_own_language`:
   the glossary) and BM25, reading that language's wording, ranks the same chunk first of all
   but the openings that give way in step 4 (`leads`), if the chunk stands among the first
   `SLOT` (by its fused score or by the place) or its fused score comes within `margin` of the
   first's, whatever that chunk's language: the English articles then hold the topic, another
   Bangla section the topic's neighbourhood, not the detail asked. (A Bangla question's
   concepts without Bangla wording are the topics of English-only articles, which all their
   sections share: it is not led.) And when, for an English question, one of the first `SLOT`
   chunks already comes from the article of that language's best chunk but is another of its
   sections, the best takes its place (`ranking.section_given`): the fused score and the
   place's choice agree on the Bangla article and not on its section, and the choice, which
   weighs BM25's reading of the table's Bangla wording more, knows the section better (on dev
   it moved three questions up and none down; for a Bangla question it cost bn→en questions).
   Last, the other language's chunk at the third place, below two of the question's own
   language, passes the second when the second comes from another article than the first and
   its fused score comes within `margin` of the second's (`ranking.other_language_raised`): an
   English question answered only in a Bangla article was shown two English articles' sections
   on its topic first. A section of the first hit's own article keeps its place beside it (a
   Bangla chunk of another topic passed the asked English section there). On dev it moved 16
   questions, 11 up; the top three hold the same chunks.
4. **An article's opening chunk gives way.** The first chunk of an article, where it holds
   the lead (text under the title alone; on recursive chunks the title and the lead
   paragraph), restates the title, so it sits close to every question about the article and
   wins places the section holding the answer should have. Where a section follows the
   title at once, the first chunk is that section's text with the title line before it
   (TyDi's "Paragraph 1", COVID-QA's first question) and does not give way (`openings`). Its fused score is lowered by a penalty fitted per chunker on the dev splits (ours
   and the external sets' dev halves) by ``bench/fit_opening.py`` into
   ``data/opening.json``; a chunker the table does not name gets none. It applies before
   the ranking and before step 3.
5. **The asked section of an article the top three hold twice.** A question told as a
   story names its article in the story, and the article's sections that match the story
   best can take two of the top three while the section the asking sentence means ranks
   below them. After step 3, when two of the first `SLOT` chunks come from one article, the
   lowest of its places there goes to its chunk that BM25 scores best on the asking
   sentences alone (`answertypes.asked_sentences`; a question of one sentence has none, nor
   one whose asking sentences only ask whether its story is so: "…. Is it true?"),
   if they score it higher than the chunk in that place, which comes fourth. The places
   above stay: the asking sentences can lack the words that name the topic ("top up from
   my card. What's the fee, and how much per day?" asks about adding money, though "fee"
   and "per day" alone meet the send-money limits best), so the chunks the whole question
   ranked higher keep their order; and a third chunk from another article (a second fact's,
   or the other language's of step 3) keeps its place.

6. **The sections of a Bangla article, re-ordered.** For a Bangla question whose first hit is a
   chunk of a Bangla article, that article's chunks among the first `WINDOW` hits are
   re-ordered among the places they hold by the fused score at the cosine weight
   `SECTION_WEIGHT`, below the fitted one: no other article's chunk moves. Within one
   article every section shares the topic, and e5's cosines to a Bangla question's
   sections lie closer together than to an English one's (on dev the first article's
   spread is a median 0.40 of the cosines' whole range, 0.46 for English), so they often
   outvoted the larger BM25 difference the asked section's own words made ("কত টাকা
   রিচার্জ করা যায়" under a question about a recharge's largest amount). Chosen on dev by
   ``bench/section_trial.py``: across languages (BM25 reads the table's topic wording
   there) and for English it cost as much as it won, so it applies to Bangla in Bangla only.
7. **A way's section for a question asking how.** Its fused score gains `ranking.WAY_RAISE` when its
   own heading says it tells the way of something the question names (`ranking.ways_asked`: "Steps
   to open your account", "অ্যাপে অ্যাকাউন্ট খোলার ধাপ" for "অ্যাকাউন্ট কীভাবে খুলব?"), before step 1's ranking.
8. **An opening beside its own article's section, for a story.** For a question told as a story
   (`answertypes.told`: a sentence that tells, one that asks), an article's opening at the second or
   third place moves below the first `SLOT` when another of them comes from its article
   (`ranking.opening_yielded`; where step 4 demotes openings): the story names the article, whose
   section already stands there, and the lead restates its title, not the detail asked.

(A chunk of headings alone, "## Common scams" cut off from the scams below it, once held
nothing to quote while its short text sat close to many questions, and was ranked last
here. That is the chunkers' business now: they join a heading to the text after it.)

The weight `w` of ``w · cos' + (1 − w) · bm25'`` is `bm25-semantic`'s (``data/fusion.json``).
`scores` returns the fused scores; `search` ranks them (rounded, ties by chunk order)
and then applies the place of step 3, the asked section of step 5, the opening of step 8 and
the re-ordering of step 6: a chunk moved is shown with the score of the place it takes, so scores never rise
down a hit list. Chunks' languages come from their text (`articles.detect_lang`:
more Bangla letters than Latin ones is Bangla); the question's from `Query.lang`.
"""

from __future__ import annotations

import json

from raglab.corpus.articles import detect_lang
from raglab.corpus.chunking import Chunk
from raglab.retrieval.expansion import beyond_own_language, expand, matches
from raglab.retrieval.lexical import LastQuery, respelt_text, weighted_text
from raglab.retrieval.ranking import SLOT, WAY_RAISE, Hit, Query, brought_first, kin_place, opening_yielded, other_best, other_language_placed, other_language_raised, rounded, section_given, sections_reordered, top_n, twin_articles, way_raised, way_words, ways_asked, with_asked_section
from raglab.retrieval.semantic import SemanticRetriever, fusion_weight, mix, reading, scaled
from raglab.text.analyzer import has_bangla
from raglab.text.answertypes import asked_sentences, told
from raglab.text.tables import read_table

TABLE = "bilingual.json"
OPENING_TABLE = "opening.json"
SECTION_WEIGHT = 0.6  # step 6's cosine weight, chosen on dev (bench/section_trial.py)
WINDOW = 10  # the hits step 6 re-orders (MRR@10's depth), however many are asked for


def fitted_margin() -> float:
    """The margin of step 3, as fitted on dev (data/bilingual.json)."""
    table = json.loads(read_table(TABLE))
    return float(table["margin"])


def fitted_place_weight() -> float | None:
    """The cosine weight that chooses the other language's chunk for step 3, as fitted on dev
    (data/bilingual.json); None when the table has none (the fused score chooses)."""
    table = json.loads(read_table(TABLE))
    weight = table.get("place_weight")
    return None if weight is None else float(weight)


def fitted_opening_penalty(chunker: str | None) -> float:
    """The penalty of step 4 for `chunker`, as fitted on dev (data/opening.json); 0 for a
    chunker the table does not name, or when the chunker is not known."""
    table = json.loads(read_table(OPENING_TABLE))
    return float(table["penalty"].get(chunker, 0.0)) if chunker else 0.0


def openings(chunks: list[Chunk]) -> list[bool]:
    """Whether each chunk is the first of its article's and holds the article's lead, text
    under the title alone (chunks come in document order). Where a section follows the title
    at once, the first chunk is the title with that section's heading and text (TyDi's
    "Paragraph 1", COVID-QA's first question): a section like any other, not a restatement.

    >>> openings([Chunk("a#1", "a", 0, 1, "x", ("A",)), Chunk("a#2", "a", 2, 3, "y", ("A",)),
    ...           Chunk("b#1", "b", 0, 1, "z", ("B", "Paragraph 1")), Chunk("c#1", "c", 0, 1, "w", ("C",))])
    [True, False, False, True]
    """
    seen: set[str] = set()
    out = []
    for c in chunks:
        out.append(c.doc not in seen and len(c.heading) == 1)
        seen.add(c.doc)
    return out


def demoted(scores: dict[int, float], flagged: list[bool], penalty: float) -> dict[int, float]:
    """`scores` with `penalty` taken from every flagged chunk's (the openings of step 4).

    >>> demoted({0: 0.75, 1: 0.5}, [True, False], 0.25)
    {0: 0.5, 1: 0.5}
    """
    if not penalty:
        return scores
    return {i: scores[i] - penalty if flagged[i] else scores[i] for i in sorted(scores)}


def centred(cosines: dict[int, float], langs: list[str]) -> dict[int, float]:
    """Each cosine minus the mean cosine of the chunks of its language (fixed-order sums).

    >>> centred({0: 0.75, 1: 0.25, 2: 0.5, 3: 0.0}, ["en", "en", "bn", "bn"])
    {0: 0.25, 1: -0.25, 2: 0.25, 3: -0.25}
    """
    total: dict[str, float] = {}
    count: dict[str, int] = {}
    for i in sorted(cosines):
        lang = langs[i]
        total[lang] = total.get(lang, 0.0) + cosines[i]
        count[lang] = count.get(lang, 0) + 1
    mean = {lang: total[lang] / count[lang] for lang in total}
    return {i: cosines[i] - mean[langs[i]] for i in sorted(cosines)}


def translated(query: Query) -> str | None:
    """The question followed by the expansion table's phrases in the other language than
    the question's (step 2), or None when expansion is off or the table has none for it.
    A question that already holds its own language's phrase ("PIN") still gets the other
    language's (পিন): `query.expanded`, not its (empty) expansion, says expansion is on.

    >>> translated(expand("How do I withdraw?"))
    'How do I withdraw? ক্যাশ আউট টাকা তোলা'
    >>> translated(expand("টাকা তুলতে কত খরচ?"))
    'টাকা তুলতে কত খরচ? cash out fee charge cost money'
    >>> translated(expand("I forgot my PIN"))
    'I forgot my PIN পিন ভুলে গেলে ভুলে যাওয়া রিসেট'
    >>> translated(Query.plain("How do I withdraw?")) is None
    True
    """
    if not query.expanded:
        return None
    other = [p for p in expand(query.text, both=True).expansion if has_bangla(p) != (query.lang == "bn")]
    return query.text + " " + " ".join(other) if other else None


def translated_queries(questions: list[str]) -> list[str]:
    """``"query: "`` + the translated reading (expansion on) of each question that has one,
    as `BilingualRetriever.cosines` encodes it, without repeats: the texts whose vectors ship
    beside the golden questions' own, so that evaluating them encodes nothing (see
    ``build.py vectors``)."""
    out: dict[str, None] = {}
    for q in questions:
        text = translated(expand(q))
        if text is not None:
            out.setdefault(reading(text), None)
    return list(out)


def bridged(typed: dict[int, float], translated: dict[int, float], langs: list[str], lang: str) -> dict[int, float]:
    """The cosine as typed for chunks in language `lang`, and for the others the mean of
    the typed and the translated reading (one addition each: no float sums).

    >>> bridged({0: 0.5, 1: 0.25}, {0: 0.25, 1: 0.75}, ["en", "bn"], "en")
    {0: 0.5, 1: 0.5}
    """
    return {i: typed[i] if langs[i] == lang else (typed[i] + translated[i]) / 2.0 for i in sorted(typed)}


class BilingualRetriever:
    """`bilingual`: see the module docstring."""

    name = "bilingual"

    def __init__(self, chunks: list[Chunk], cache=None, weight: float | None = None, margin: float | None = None,
                 chunker: str | None = None, opening_penalty: float | None = None, place_weight: float | None = None,
                 section_weight: float | None = None):
        """`chunker` names how `chunks` were cut, for the penalty of step 4 (none when not
        given); `weight`, `margin`, `opening_penalty` and `place_weight` override the fitted
        values (a place weight equal to `weight` chooses the place by the fused score), and
        `section_weight` step 6's (equal to `weight`, step 6 changes nothing)."""
        self.semantic = SemanticRetriever(chunks, cache)
        self.bm25 = self.semantic.bm25
        self.langs = [detect_lang(c.text) for c in chunks]
        self.two_languages = len(set(self.langs)) > 1  # a one-language corpus has nothing to translate to
        self.weight = fusion_weight() if weight is None else weight
        self.margin = fitted_margin() if margin is None else margin
        self.opening = openings(chunks)
        self.ways = [way_words(c.heading) for c in chunks]
        self.opening_penalty = fitted_opening_penalty(chunker) if opening_penalty is None else opening_penalty
        fitted = fitted_place_weight() if place_weight is None else place_weight
        self.place_weight = self.weight if fitted is None else fitted
        self.lexical_scores = LastQuery(self._lexical_side)
        self.docs = [c.doc for c in chunks]
        self.asked_scores = LastQuery(self._asked_side)
        self.section_weight = SECTION_WEIGHT if section_weight is None else section_weight
        self._last_parts: tuple | None = None  # `parts`' one-entry memo
        self._twins: dict[str, str] | None = None  # `twins`, read once when first needed

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def lexical_text(self, query: Query) -> str:
        """What the BM25 side reads: the question, and with expansion on, the table's
        phrases in both languages. A question that already holds its own language's phrases
        reads them alone, unless it names a detail only the other language's articles word
        (`beyond_own_language`): there only that wording can meet the text. Then the phrases
        of the concepts it names only through a misspelt word (`respelt_expansion`)."""
        both = query.expansion or (query.expanded and beyond_own_language(query.text))
        text = expand(query.text, both=True).full if both else query.full
        extra = self.respelt_expansion(query)
        return text + " " + " ".join(extra) if extra else text

    def respelt_expansion(self, query: Query) -> list[str]:
        """The table's phrases of the concepts the question names only through a misspelt
        word: those its respelt terms (`lexical.respelt`) trigger and its own words do not
        ("ভুল নাম্বারে রিচাজ" gets recharge, রিচার্জ). The table matches words as typed, so a
        typo hid the concept from the side that reads the table's wording. The phrases come
        in the question's language, both for a Bangla question, as `expand` gives them:
        Bangla wording for an English typo let the other language's place (step 3) push
        out an English answer on dev. The encoder still reads the question as typed."""
        if not query.expanded:
            return []
        fixed = respelt_text(self.bm25, query.text)
        if fixed == query.text:
            return []
        named = {g.concept for g, _ in matches(query.text, both=True)}
        return [p.text for g, added in matches(fixed, both=query.lang == "bn")
                if g.concept not in named for p in added]

    def translation(self, query: Query) -> str | None:
        """The second reading (`translated`), on a corpus in two languages only."""
        return translated(query) if self.two_languages else None

    def query_texts(self, query: Query) -> list[str]:
        """What `cosines` has the encoder read: the question as typed, then the translated
        reading when there is one (the page encodes the two side by side)."""
        other = self.translation(query)
        return self.semantic.query_texts(query) + ([reading(other)] if other is not None else [])

    def cosines(self, query: Query) -> dict[int, float]:
        """Each chunk's cosine with the question, read as typed and, on a corpus in two
        languages, translated (step 2), before centring."""
        typed = self.semantic.scores(query)
        other = self.translation(query)
        return typed if other is None else bridged(typed, self.semantic.text_scores(other), self.langs, query.lang)

    def _lexical_side(self, query: Query) -> dict[int, float]:
        """The BM25 side: `lexical_text`, misspelt words matched fuzzily (`lexical.weighted_text`);
        read as `lexical_scores`, which hands the last query's out again (`lexical.LastQuery`)."""
        return self.bm25.scores(*weighted_text(self.bm25, self.lexical_text(query)))

    def _asked_side(self, query: Query) -> dict[int, float]:
        """BM25 over the question's asking sentences alone (`answertypes.asked_sentences`),
        as typed: {} for a question of one sentence (step 5)."""
        asking = asked_sentences(query.text)
        return self.bm25.scores(*weighted_text(self.bm25, " ".join(asking))) if asking else {}

    def fused(self, cosines: dict[int, float], lexical: dict[int, float], weight: float | None = None) -> dict[int, float]:
        """The fused score of every chunk from its (uncentred) `cosines` and `lexical`
        scores, the opening chunks demoted (steps 1 and 4); `weight` overrides the fitted one.
        Every ranking adds step 7's raise (`way_raised`) to it."""
        return self.mixed(self.parts(cosines, lexical), weight)

    def parts(self, cosines: dict[int, float], lexical: dict[int, float]) -> list[tuple[int, float, float]]:
        """What `fused` mixes (`semantic.scaled` of the centred cosines). A search fuses one
        query's very dicts at up to three weights (steps 1, 3 and 6): the last pair's parts are
        handed out again for the same two objects (held, so their ids cannot be reused;
        callers only read these dicts)."""
        last = self._last_parts
        if last is not None and last[0] is cosines and last[1] is lexical:
            return last[2]
        got = scaled(centred(cosines, self.langs), lexical)
        self._last_parts = (cosines, lexical, got)
        return got

    def mixed(self, parts: list[tuple[int, float, float]], weight: float | None = None) -> dict[int, float]:
        """`fused` from its `parts`."""
        return demoted(mix(parts, self.weight if weight is None else weight), self.opening, self.opening_penalty)

    def place_choice(self, cosines: dict[int, float], lexical: dict[int, float], ways=None) -> dict[int, float] | None:
        """What chooses the other language's chunk for the place (step 3): the fused score at
        the place weight; None when that is the fused score itself."""
        return None if self.place_weight == self.weight else way_raised(self.fused(cosines, lexical, self.place_weight), ways, WAY_RAISE)

    def scores(self, query: Query) -> dict[int, float]:
        return way_raised(self.fused(self.cosines(query), self.lexical_scores(query)), ways_asked(self.ways, query.text), WAY_RAISE)

    def other_best(self, scores: dict[int, float], query: Query, choice: dict[int, float] | None = None) -> int | None:
        """The chunk the other language's place would take (step 3): the other language's best
        by `choice` (`place_choice`) when given, else by the fused `scores`; None on a corpus in
        one language."""
        return other_best(scores if choice is None else choice, self.langs, query.lang) if self.two_languages else None

    def ranked(self, scores: dict[int, float], query: Query, n: int,
               choice: dict[int, float] | None = None) -> list[Hit]:
        """The n best of fused `scores`, the other language given its place (step 3), its
        chunk chosen by `choice` (`place_choice`) when given, then the asked section (step 5),
        then for an English question the other language's section (`section_placed`), then the
        other language's chunk at the third place raised to the second (`other_language_raised`)."""
        hits = top_n(scores, max(n, SLOT))
        best = self.other_best(scores, query, choice)
        placed = other_language_placed(hits, scores, self.langs, query.lang, self.margin, self.placeable(query, best, hits))
        top = hits if placed is None else placed
        if best is not None and self.leads(query, best) \
                and (any(h.index == best for h in top[:SLOT]) or rounded(scores[best] + self.margin) >= hits[0].score):
            top = brought_first(top, best)
        top = self.section_placed(with_asked_section(top, self.asked_scores(query), self.docs), best, query)
        top = other_language_raised(top, scores, self.langs, query.lang, self.margin, self.docs)
        return (opening_yielded(top, self.opening, self.docs) if self.opening_penalty and told(query.text) else top)[:n]

    def twins(self) -> dict[str, str]:
        """Each article's twin in the other language (`ranking.twin_articles`)."""
        if self._twins is None:
            matrix = self.semantic.matrix
            self._twins = twin_articles(self.docs, self.langs, matrix, len(matrix) // len(self.docs)) if self.docs else {}
        return self._twins

    def placeable(self, query: Query, best: int | None, hits: list[Hit]) -> int | None:
        """`best` when it may take step 3's place, else None: for an English question that names
        no glossary detail, only a chunk of the first `SLOT` − 1 hits' articles or their twins
        (`ranking.kin_place`). A Bangla question's other-language chunk mostly comes from an
        English article with no Bangla twin, so it is not asked for one."""
        if best is None or query.lang != "en" or len(hits) < SLOT \
                or (query.expanded and beyond_own_language(query.text)):
            return best
        return best if kin_place(hits, best, self.docs, self.twins()) else None

    def section_placed(self, top: list[Hit], best: int | None, query: Query) -> list[Hit]:
        """For an English question, the other language's chosen chunk `best` takes the place of
        another section of its article in the first three (`ranking.section_given`): the fused
        score and the place's choice agree on the article, and the choice knows the section
        better. A Bangla question's hits are left to the fused score."""
        return section_given(top, best, self.docs) if query.lang == "en" else top

    def leads(self, query: Query, best: int | None) -> bool:
        """Whether the other language's chunk `best` (`other_best`) comes first (step 3): an
        English question names a glossary detail, one only the Bangla articles word, and BM25,
        reading the glossary's Bangla wording, ranks `best` first of all chunks but the openings
        that give way (step 4: an opening names every topic of its article, not the detail)."""
        if best is None or query.lang != "en" or not (self.two_languages and query.expanded and beyond_own_language(query.text)):
            return False
        lexical = self.lexical_scores(query)
        if self.opening_penalty:
            lexical = {i: s for i, s in lexical.items() if not self.opening[i]}
        return best == min(lexical, key=lambda i: (-rounded(lexical[i]), i), default=None)

    def bangla_sections(self, hits: list[Hit], cosines: dict[int, float], lexical: dict[int, float],
                      query: Query) -> list[Hit]:
        """`hits` with step 6 applied: only to a Bangla question whose first hit is Bangla."""
        if not hits or query.lang != "bn" or self.langs[hits[0].index] != "bn" or self.section_weight == self.weight:
            return hits
        return sections_reordered(hits, self.docs, way_raised(self.fused(cosines, lexical, self.section_weight), ways_asked(self.ways, query.text), WAY_RAISE))

    def search(self, query: Query, n: int) -> list[Hit]:
        cosines, lexical = self.cosines(query), self.lexical_scores(query)
        ways = ways_asked(self.ways, query.text)
        hits = self.ranked(way_raised(self.fused(cosines, lexical), ways, WAY_RAISE), query, max(n, WINDOW), self.place_choice(cosines, lexical, ways))
        # Step 6 re-orders the first WINDOW hits only, so a deeper search starts with the same ranking.
        return (self.bangla_sections(hits[:WINDOW], cosines, lexical, query) + hits[WINDOW:])[:n]
