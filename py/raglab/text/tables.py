"""The package's reviewed data tables (`raglab/data/*.json`), read as text.

Read straight from the installed package rather than through `importlib.resources`: the
page's Python (Pyodide) ships its standard library as source only, so every standard
module raglab imports is compiled afresh at each page start, and `importlib.resources`
(four modules) was about 40 ms of it. raglab is always installed as files (an unpacked
wheel in the page, an editable or wheel install natively), so a path is enough.
"""

from __future__ import annotations

import os

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


def read_table(name: str) -> str:
    """The text of `raglab/data/<name>` (UTF-8)."""
    with open(os.path.join(DATA, name), encoding="utf-8") as fh:
        return fh.read()


def has_table(name: str) -> bool:
    """Whether this installation has `raglab/data/<name>`."""
    return os.path.isfile(os.path.join(DATA, name))
