"""`bench/neighbour_trial.py`: the neighbouring-section remedies tried and not kept, as the trial
applies them (the served retriever and answerer are untouched)."""

from types import SimpleNamespace as NS

from helpers import bench_script
from raglab.corpus.chunking import Chunk
from raglab.text.analyzer import analyze


def trial():
    return bench_script("neighbour_trial")


CHUNKS = [Chunk("a#1", "a", 0, 1, "x", ("Title",)), Chunk("a#2", "a", 2, 3, "y", ("Title", "Fees")),
          Chunk("a#3", "a", 4, 5, "z", ("Title", "Fees")), Chunk("b#1", "b", 0, 1, "w", ("B", "Limits"))]


def fake_set():
    return NS(chunks=CHUNKS, memo={})


def test_next_to_stays_inside_the_article():
    mod, s = trial(), fake_set()
    assert mod.next_to(s, 0) == [1]
    assert mod.next_to(s, 1) == [0, 2]
    assert mod.next_to(s, 2) == [1]  # b#1 follows it in the list, in another article
    assert mod.next_to(s, 3) == []


def test_adjacent_raises_only_the_first_chunks_neighbours():
    mod, s = trial(), fake_set()
    adjust = mod.adjacent(0.25).__closure__  # patched(adjust): the rewrite the trial installs
    assert adjust is not None
    inner = next(c.cell_contents for c in adjust if callable(c.cell_contents))
    got = inner(s, None, {0: 0.5, 1: 1.0, 2: 0.25, 3: 0.75}, {}, {})
    assert got == {0: 0.75, 1: 1.0, 2: 0.5, 3: 0.75}
    assert mod.adjacent(0) is mod.served  # the grid's first value is the served ranking


def test_capped_refills_the_first_three(monkeypatch):
    mod, s = trial(), fake_set()
    monkeypatch.setattr(mod, "full_rank", lambda s, query, fused: [1, 2, 0, 3])
    assert mod.capped(1, True)(s, None, {}) == [1, 0, 3, 2]  # one chunk per section in the first three
    assert mod.capped(2, True)(s, None, {}) == [1, 2, 0, 3]  # nothing to move
    assert mod.capped(1, False)(s, None, {}) == [1, 3, 2, 0]  # one per article


def test_heading_share_reads_the_section_headings_below_the_title():
    mod, s = trial(), fake_set()
    weights = {analyze("fees")[0]: 2.0, "title": 1.0, analyze("limits")[0]: 1.0}  # the analyzer's terms
    assert mod.heading_share(s, 1, weights) == 0.5  # "Fees"; the title is not read
    assert mod.heading_share(s, 0, weights) == 0.0
    assert mod.heading_share(s, 3, {}) == 0.0
