"""Words that say the same thing in the answerer's eyes, whatever the expansion table says.

The currency as customers write it and as the articles do: "taka" is no misspelling of
"take" (the English articles write "Tk 5,000", so the index lacks "taka" and the fuzzy
matching would read it as "take"), it is the "Tk" of a unit and the "টাকা" of a Bangla one.
The words of a group count as aliases of one another for the answerer's coverage
(`candidates._present`) and are never respelled. Written as the analyzer folds them.

>>> SAME_WORDS["taka"]
[('tk',), ('টাকা',)]
"""

from __future__ import annotations

# The periods' words in both languages ("daily", "per day", "দিনে") were tried as a group too:
# fewer dev answers within the risk budget out of fold (docs/pipeline.md), so not served.
_GROUPS = (("taka", "tk", "টাকা"),)
SAME_WORDS = {w: [(o,) for o in group if o != w] for group in _GROUPS for w in group}


def with_same_words(aliases: dict) -> dict:
    """The expansion aliases with `SAME_WORDS` added (a new dict; `aliases` is left as it is)."""
    out = {t: list(alts) for t, alts in aliases.items()}
    for t, alts in SAME_WORDS.items():
        row = out.setdefault(t, [])
        row.extend(a for a in alts if a not in row)
    return out
