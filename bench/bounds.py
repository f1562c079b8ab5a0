"""Peak memory and time of `raglab ask` (the served default) against the size of its input.

    .venv/bin/python bench/bounds.py                 # the 20 MB article and the 5,000-article corpus
    .venv/bin/python bench/bounds.py --scale 0.1     # both a tenth of the size (a quick look)
    .venv/bin/python bench/bounds.py --source OLD/py # another version of the package, for before/after

Each case is a corpus folder written to a temporary directory from the bundled help
centre, then answered once by `python -m raglab ask --corpus DIR QUESTION` in a child
process whose peak resident memory (`ru_maxrss` from `os.wait4`) and wall time are
reported, with peak memory divided by the corpus's size in bytes. A first row asks the
bundled corpus (150 KB), so the interpreter's own floor can be read off.

- "20 MB article": the bundled articles' bodies (Bangla and English, every section
  kept) repeated under one title up to 20,000,000 bytes, the largest article raglab reads.
- "5,000 articles": the 39 bundled articles copied round-robin under 5,000 distinct ids.
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "corpus")
QUESTION = "What is the cash out fee at an agent?"


def bundled() -> list[tuple[str, str]]:
    out = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "*.md"))):
        with open(path, encoding="utf-8") as fh:
            out.append((os.path.basename(path)[:-3], fh.read()))
    return out


def one_article(folder: str, size: int) -> None:
    bodies = "\n\n".join(text.split("\n", 1)[1].strip() for _, text in bundled())
    head = "# One very long article\n\n"
    reps = (size - len(head.encode())) // len((bodies + "\n\n").encode()) + 1
    data = (head + "\n\n".join([bodies] * reps)).encode("utf-8")[:size].decode("utf-8", "ignore")
    with open(os.path.join(folder, "big.md"), "w", encoding="utf-8") as fh:
        fh.write(data)


def many_articles(folder: str, count: int) -> None:
    articles = bundled()
    for i in range(count):
        doc_id, text = articles[i % len(articles)]
        with open(os.path.join(folder, f"{doc_id}-{i:05d}.md"), "w", encoding="utf-8") as fh:
            fh.write(text)


def folder_bytes(folder: str) -> int:
    total = 0
    for name in os.listdir(folder):
        total += os.path.getsize(os.path.join(folder, name))
    return total


def measure(folder: str, source: str) -> tuple[float, int]:
    """(seconds, peak resident bytes) of one `raglab ask` over `folder`."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "raglab", "ask", "--corpus", folder, QUESTION],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": source})
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"raglab ask failed on {folder}: {err.strip().splitlines()[-1:]}")
    return seconds, usage.ru_maxrss * 1024  # Linux reports kilobytes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="size factor for both cases (default 1)")
    parser.add_argument("--source", metavar="DIR", default=os.path.join(ROOT, "py"),
                        help="the folder holding the raglab package to measure (default this checkout's py/), "
                             "e.g. an exported older version for a before/after comparison")
    args = parser.parse_args(argv)
    print("| input | bytes | peak memory | peak ÷ input | time |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("bundled help centre", CORPUS, None)]
        cases.append(("20 MB article", os.path.join(tmp, "article"), lambda d: one_article(d, int(20_000_000 * args.scale))))
        cases.append(("5,000 articles", os.path.join(tmp, "many"), lambda d: many_articles(d, int(5000 * args.scale))))
        for label, folder, make in cases:
            if make:
                os.mkdir(folder)
                make(folder)
            size = folder_bytes(folder)
            seconds, peak = measure(folder, args.source)
            print(f"| {label} | {size:,} | {peak / 1e6:,.0f} MB | {peak / size:,.1f} | {seconds:,.1f} s |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
