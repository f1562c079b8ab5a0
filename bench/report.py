"""docs/benchmarks.md from the figures bench/run.py collected (pure formatting), and the
benchmarks' --json output."""

from __future__ import annotations

import json

LABELS = {
    "raglab": "raglab, pruned top-k (what `search` uses)",
    "raglab-exhaustive": "raglab, exhaustive scores + top_n",
    "bm25s": "bm25s `retrieve()`",
    "bm25s-core": "bm25s `get_scores` + top-10 of non-zero",
    "rank_bm25": "rank_bm25 `BM25Okapi`",
}
BUILD_OF = {"raglab": "raglab", "raglab-exhaustive": "raglab", "bm25s": "bm25s", "bm25s-core": "bm25s",
            "rank_bm25": "rank_bm25"}


def _f(x: float, digits: int = 2) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def _ratio(x: float) -> str:
    return f"{x:.1f}×" if x >= 10 else f"{x:.2f}×"


def targets(results: dict) -> list[tuple[str, str, str]]:
    """(target, measured, verdict) rows."""
    rows = []
    big = max(results["corpora"], key=lambda c: c["stats"]["chunks"])
    q, b = big["query"], big["build_s"]
    size = f"{big['stats']['chunks']:,} chunks"
    vs_rank = q["rank_bm25"]["mean_ms"] / q["rank_bm25"]["raglab_mean_ms_same_queries"]
    rows.append((f"top-10 query ≥ 20× faster than rank_bm25 ({size})", _ratio(vs_rank),
                 "met" if vs_rank >= 20 else f"missed by {20 / vs_rank:.1f}×"))
    for key in ("bm25s", "bm25s-core"):
        ratio = q[key]["mean_ms"] / q["raglab"]["mean_ms"]
        rows.append((f"top-10 query no slower than {LABELS[key]} ({size})", f"{_ratio(ratio)} (raglab {_f(q['raglab']['mean_ms'], 3)} ms, peer {_f(q[key]['mean_ms'], 3)} ms)",
                     "met" if ratio >= 1 else f"missed: raglab is {1 / ratio:.1f}× slower"))
    build = b["raglab"] / b["bm25s"]
    rows.append((f"index build within 3× of bm25s ({size})", f"{_ratio(build)} of bm25s's time",
                 "met" if build <= 3 else f"missed by {build / 3:.1f}×"))
    exact = all(c["correctness"]["pruned_equals_exhaustive"] == c["correctness"]["queries"] for c in results["corpora"])
    total = sum(c["correctness"]["queries"] for c in results["corpora"])
    same = sum(c["correctness"]["pruned_equals_exhaustive"] for c in results["corpora"])
    rows.append(("pruned top 10 identical to exhaustive scoring for 100% of queries",
                 f"{same}/{total} ({100 * same / total:.1f}%)", "met" if exact else "MISSED"))
    pipe = results.get("pipeline")
    if pipe:
        ok = [r for r in pipe["rows"] if "error" not in r]
        if ok:
            worst = max(ok, key=lambda r: r["golden_set_s"])
            best = min(ok, key=lambda r: r["golden_set_s"])
            rows.append(("whole golden set answered natively well under a second (after indexing)",
                         f"{worst['golden_set_s']:.3f} s at worst ({worst['chunker']}+{worst['retriever']}{'+expansion' if worst['expand'] else ''}), "
                         f"{best['golden_set_s']:.3f} s at best ({best['chunker']}+{best['retriever']}{'+expansion' if best['expand'] else ''}); {worst['questions']} questions",
                         "met" if worst["golden_set_s"] < 1 else "missed"))
    br = results.get("browser")
    if br and br.get("status") == "ok":
        ms = br["mean_ms"]
        rows.append((f"in the browser: BM25 at {br['chunks']:,} chunks ≤ 20 ms per query (Pyodide)",
                     f"{_f(ms, 2)} ms mean, {_f(br['p99_ms'], 2)} ms p99", "met" if ms <= 20 else "missed"))
    elif br:
        rows.append(("in the browser: BM25 at 10,000 chunks ≤ 20 ms per query (Pyodide)", "not measured",
                     br.get("reason", "")))
    return rows


def corpus_section(c: dict) -> list[str]:
    s = c["stats"]
    out = [f"### {c['name']}", "",
           f"{s['chunks']:,} chunks, {s['vocabulary']:,} distinct terms, {s['postings']:,} postings, "
           f"{s['terms_per_chunk']} terms per chunk; {c['queries']:,} queries.", ""]
    if c["slow_queries"] < c["queries"]:
        out += [f"rank_bm25 and the exhaustive path answer only the first {c['slow_queries']} queries here; "
                "their speed-ups are against raglab's time on those same queries.", ""]

    out += ["| implementation | build (s) | raglab build ÷ this | top-10 queries/s | mean ms | p50 ms | p99 ms | "
            "raglab speed-up | index MB | build peak MB |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key, q in c["query"].items():
        build = c["build_s"][BUILD_OF[key]]
        mem = c["memory_mb"][BUILD_OF[key]]
        speedup = q["mean_ms"] / q["raglab_mean_ms_same_queries"]
        out.append(f"| {LABELS[key]} | {_f(build)} | {_ratio(c['build_s']['raglab'] / build)} | {_f(q['qps'], 0)} | "
                   f"{_f(q['mean_ms'], 3)} | {_f(q['p50_ms'], 3)} | {_f(q['p99_ms'], 3)} | {_ratio(speedup)} | "
                   f"{_f(mem['index'], 1)} | {_f(mem['build_peak'], 1)} |")
    k = c["correctness"]
    n = k["queries"]
    out += ["", "| correctness | result |", "|---|---|",
            f"| raglab pruned top 10 = raglab exhaustive top 10 (ids, order, scores) | {k['pruned_equals_exhaustive']}/{n} |",
            f"| largest \\|raglab − bm25s × (k1 + 1)\\| over every chunk and query | {k['max_abs_score_diff_vs_bm25s_x_k1p1']:.2e} |",
            f"| top 10 = bm25s's scores ranked by the tie rule | {k['top10_equals_bm25s_tie_rule']}/{n} |",
            f"| top 10 = bm25s `retrieve()` as it returns them (its own order among ties) | {k['top10_equals_bm25s_retrieve_as_returned']}/{n} |",
            f"| share of raglab's top 10 also in rank_bm25's top 10 (its idf differs; first {k['rank_bm25_queries']} queries) | {100 * k['rank_bm25_top10_overlap']:.1f}% |",
            ""]
    return out


KEPT = ("<!-- bench/encoder_speed.py: begin -->", "<!-- bench/encoder_speed.py: end -->")


def kept_block(old: str) -> str:
    """The block another bench script wrote into the previous file (bench/encoder_speed.py), or ''."""
    begin, end = KEPT
    if begin in old and end in old:
        return old[old.index(begin): old.index(end) + len(end)]
    return ""


def markdown(results: dict, kept: str = "") -> str:
    m = results["machine"]
    st = results["settings"]
    out = ["# Benchmarks", "",
           "Generated by `python3 build.py bench` (bench/run.py); do not edit by hand, re-run it. "
           f"This run: {m['date']}, {results['seconds']:.0f} s in all.", "",
           "## Machine", "",
           "| | |", "|---|---|",
           f"| CPU | {m['cpu']}, {m['cores']} cores |",
           f"| memory | {m['memory_gb']} GB |",
           f"| OS | {m['os']} |",
           f"| Python | CPython {m['python']} |",
           f"| peers | bm25s {m['bm25s']} (numpy backend), rank_bm25 {m['rank_bm25']}, numpy {m['numpy']} |",
           f"| load average (1, 5, 15 min) | {m['load_before']} before, {m['load_after']} after |",
           "",
           "A load average near or above the core count means other work shared the machine; "
           "the libraries take turns within each timing round, so ratios stay fair, but absolute "
           "times are then pessimistic.", "",
           "## Targets", "",
           "| target | measured | verdict |", "|---|---|---|"]
    for target, measured, verdict in targets(results):
        out.append(f"| {target} | {measured} | {verdict} |")
    out += ["", "## BM25 against peers", "",
            f"Every library indexes raglab's own token lists (`analyze(index_text(chunk))`) with "
            f"k1 = {st['k1']}, b = {st['b']}, and answers the same {st['queries']:,} queries for the top 10, "
            f"one call per query. Times are the fastest of {st['rounds']} rounds (at most 2 above "
            f"{st['slow_above']:,} chunks), libraries taking turns. "
            "Speed-up = the implementation's mean time per query ÷ raglab's (pruned) on the same queries. "
            "Memory by `tracemalloc` (Python heap and numpy buffers): index = allocated after the build, "
            "build peak = highest point during it; the token lists themselves are not counted.", ""]
    for c in results["corpora"]:
        out += corpus_section(c)
    pipe = results.get("pipeline")
    if pipe:
        out += ["## The whole pipeline on the bundled corpus", "",
                f"`Pipeline(docs, Config(...))` built from the parsed articles (chunking, analysis, index), "
                f"then `ask()` for each of the {pipe['questions']} golden questions (retrieval of k = 5 chunks, "
                "extractive answer, citations, highlight spans). Fastest of the rounds.", "",
                "| chunker | retriever | query expansion | chunks | index build (s) | golden set (s) | mean ms per question | p50 ms | p99 ms | max ms |",
                "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        for r in pipe["rows"]:
            if "error" in r:
                out.append(f"| {r['chunker']} | {r['retriever']} | {'on' if r['expand'] else 'off'} | failed: {r['error']} | | | | | | |")
            else:
                out.append(f"| {r['chunker']} | {r['retriever']} | {'on' if r['expand'] else 'off'} | {r['chunks']} | {r['build_s']:.3f} | "
                           f"{r['golden_set_s']:.3f} | {r['mean_ms']:.2f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['max_ms']:.2f} |")
        out.append("")
    br = results.get("browser")
    out += ["## In the browser (Pyodide)", ""]
    if br and br.get("status") == "ok":
        out += [br["description"], "",
                "| figure | value |", "|---|---|"]
        for label, value in br["rows"]:
            out.append(f"| {label} | {value} |")
        out.append("")
    else:
        reason = (br or {}).get("reason", "skipped with --browser no")
        out += [f"Not measured in this run: {reason}.", ""]
    if kept:
        out += [kept, ""]
    out += ["## How the corpora and queries are made", "",
            "bench/synth.py, deterministic (`random.Random(seed)`, integer draws): a synthetic chunk is a run "
            "of 2-6 consecutive sentences of one section of a bundled article, under that section's heading "
            "path, plus 0-2 sentences borrowed from other articles, with about half of the numbers replaced "
            "by random numbers of the same length and script. A query is a window of 3-10 consecutive words "
            "of one bundled sentence, numbers varied the same way. The same queries run on every corpus. "
            "Recombination repeats sentences, so the scaled corpora have a small vocabulary (long posting "
            "lists, which is hard on pruning) and many chunks with exactly equal scores: bm25s orders such "
            "ties arbitrarily, hence its low 'as returned' agreement, while its scores ranked by raglab's tie "
            "rule give the very same top 10. "
            f"Seeds: corpus {st['seed_corpus']}, queries {st['seed_queries']}.", "",
            "What the figures mean for raglab: its BM25 is pure standard-library Python (it also runs in "
            "the browser), so its speed comes from scoring less, not from faster arithmetic: "
            "`BM25.top_scores` is a term-at-a-time MaxScore over an index of precomputed impacts, and "
            "returns exact scores for a set of chunks that provably contains the top k. Queries made only "
            "of very frequent terms cannot be pruned much and fall back to exhaustive scoring; they make "
            "the p99 column.", ""]
    return "\n".join(out)


# Sections that another script generates (bench/cluster.py: "cluster") sit between these
# markers; `replace_section` rewrites one in place, and `keep_sections` carries them over
# when bench/run.py regenerates the rest of the file.
def _markers(name: str) -> tuple[str, str]:
    return f"<!-- section {name}: generated by its own script -->", f"<!-- end of section {name} -->"


def _sections(text: str) -> dict[str, str]:
    import re

    return {m.group(1): m.group(0) for m in re.finditer(
        r"<!-- section (\w+): generated by its own script -->.*?<!-- end of section \1 -->", text, re.S)}


def replace_section(path: str, name: str, lines: list[str]) -> None:
    """Put `lines` into the file as section `name`, replacing the one there or appending it."""
    start, end = _markers(name)
    block = "\n".join([start, *lines, end])
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        text = "# Benchmarks\n"
    old = _sections(text).get(name)
    text = text.replace(old, block) if old else text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def keep_sections(new: str, path: str) -> str:
    """`new` with the separately generated sections of the file at `path` appended."""
    try:
        with open(path, encoding="utf-8") as fh:
            old = fh.read()
    except FileNotFoundError:
        return new
    kept = [block for name, block in _sections(old).items() if name not in _sections(new)]
    return new.rstrip("\n") + "".join("\n\n" + b for b in kept) + "\n" if kept else new


def write_json(dest: str, figures: dict, **dump_options) -> None:
    """The figures as JSON to the file `dest`, or to stdout when `dest` is "-"."""
    text = json.dumps(figures, indent=1, **dump_options)
    if dest == "-":
        print(text)
        return
    with open(dest, "w", encoding="utf-8") as fh:
        fh.write(text + "\n")
