"""The answerer's composition shares (second, adjacent, runner), their grid, and the settings tied with the chosen.

`bench/fit_answerer.py` chooses the shares on an out-of-fold objective where the best setting
and the runner-up can differ by less than one question, and the shares decide which answers
the confidence is fitted on. Fitted on the chosen setting's answers alone, a near tie that went
to a neighbour (adjacent 0.2 instead of 0.1) relabelled a few confident answers and the
confidence collapsed (dev holds 0.23 -> 0.17, docs/pipeline.md). So the confidence is fitted on
the answers of every setting the objective cannot tell from the chosen one (`tied`: within
`TIE_BAND` answerable questions), each question weighing one in all (`pooled`): when a near tie
flips, the tied settings, and so the confidence's training answers, stay the same.

    >>> tied({(0.0, 0.1, 0.8): 0.5370, (0.0, 0.2, 0.8): 0.5368, (0.0, 0.05, 0.8): 0.5339}, (0.0, 0.2, 0.8), 0.0016)
    [(0.0, 0.2, 0.8), (0.0, 0.1, 0.8)]
    >>> pooled([[([1.0, 0.5], 1), None], [([1.0, 0.5], 1), None], [([1.0, 0.2], 0), None]])
    [[([1.0, 0.5], 1, 0.6666666666666666), ([1.0, 0.2], 0, 0.3333333333333333)], []]
"""

from __future__ import annotations

# The least probability of a two-fact question's second quote. "Never" is no choice: a question
# that asks for two facts is owed both when the help centre states them (on a flat objective a
# re-fit once picked "never", and every two-fact answer lost its second fact).
SECOND_CHOICES = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2)
ADJACENT_CHOICES = (0.05, 0.1, 0.2, 0.3, 0.5, 2.0)  # shares of the best unit's probability; 2.0: never
# The same for the runner-up anywhere among the candidates. "Never" (2.0) is no choice either:
# on a flat objective (0.5722 against 0.5718) a re-fit after a retrieval change picked it, and a
# two-fact answer lost its second fact (test_answer caught it).
RUNNER_CHOICES = (0.3, 0.5, 0.8)
# The answerable questions of out-of-fold objective within which another setting is tied with
# the chosen one; 0: the chosen setting alone, as the confidence was fitted before issue 23.
TIE_BAND = 1.0


def settings() -> list[tuple[float, float, float]]:
    """Every (second, adjacent, runner) of the grid, in a fixed order."""
    return [(s, a, r) for s in SECOND_CHOICES for a in ADJACENT_CHOICES for r in RUNNER_CHOICES]


def tied(objective: dict[tuple, float], chosen: tuple, band: float) -> list[tuple]:
    """`chosen` first, then every other setting of `objective` (in its order) whose objective is
    within `band` of the chosen one's, above or below: when a near tie flips the choice, the
    settings tied with the new choice are (nearly always) the same."""
    return [chosen] + [s for s, o in objective.items() if s != chosen and abs(o - objective[chosen]) <= band + 1e-12]


def served(near: list[tuple], oof_aurc: dict[tuple, float]) -> tuple:
    """The setting to serve among `near` (`tied`, the objective's choice first): the one whose answers
    the confidence ranks best out of fold (the least AURC), a tie going to the earlier. The objective
    cannot tell them apart, and the flip it once made on 0.0015 (adjacent 0.1 to 0.2) moved the
    served threshold from 0.65 to 0.70 (docs/pipeline.md).

    >>> served([(0.0, 0.2, 0.8), (0.0, 0.1, 0.8)], {(0.0, 0.2, 0.8): 0.2723, (0.0, 0.1, 0.8): 0.2563})
    (0.0, 0.1, 0.8)
    >>> served([(0.0, 0.1, 0.8), (0.0, 0.2, 0.8)], {(0.0, 0.1, 0.8): 0.25, (0.0, 0.2, 0.8): 0.25})
    (0.0, 0.1, 0.8)
    """
    return min(near, key=lambda s: (oof_aurc[s], near.index(s)))


def pooled(per_setting: list[list]) -> list[list[tuple[list[float], int, float]]]:
    """Per question, its distinct (signals, label) over the settings with the share of settings
    that gave it as its weight (first seen first); `per_setting[s][i]` is question i's (signals,
    label) under setting s, or None without an answer. The weights are counts over the number of
    settings, so a question answered alike under every setting weighs exactly 1.0, as it did
    fitted on one setting."""
    out = []
    for i in range(len(per_setting[0])):
        seen: dict[tuple, int] = {}
        rows = []
        for answers in per_setting:
            got = answers[i]
            if got is None:
                continue
            key = (tuple(got[0]), got[1])
            if key not in seen:
                seen[key] = len(rows)
                rows.append([got[0], got[1], 0])
            rows[seen[key]][2] += 1
        out.append([(signals, label, count / len(per_setting)) for signals, label, count in rows])
    return out
