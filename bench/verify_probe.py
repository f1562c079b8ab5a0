"""Probe: does a verification signal tell right answers from wrong ones on unseen questions? None kept.

    .venv/bin/python bench/verify_probe.py collect      # sentence models and answers (about a minute)
    .venv/bin/python bench/verify_probe.py candidates   # every candidate unit of our dev questions, labelled
    .venv/bin/python bench/verify_probe.py extra FILE   # held-out questions (a goldens file), answered by the committed model
    .venv/bin/python bench/verify_probe.py encode       # question and shown quote encoded together (a few minutes)
    .venv/bin/python bench/verify_probe.py evaluate ["NAME|NAME"]  # every trial (or those whose name holds NAME)
    .venv/bin/python bench/verify_probe.py latency      # what the joint encoding costs per answer

A trial is a confidence: the eleven signals (served), with checks of the shown answer, or with
the logit of a logistic head (384 weights, L2 10 or 100) over the encoder's vector of question
and quote read together ("query: Q passage: QUOTE", qp; short answer first, qsp) as a twelfth
signal, the head fitted on answers (out of fold) or on every candidate unit, evidence or not (a
pair verifier). Judged (numpy): out of fold on the 261 dev questions (AURC, its paired bootstrap
change, the risk rule); fitted on q001-q349 only and carried to the fresh q350-q405 and Banglish
q450-q481 at the rule's threshold in sample (and out of fold); fitted on all 261, to q500-q547.

Findings (every figure: docs/pipeline.md, "A verification signal, tried and not kept"): nothing
passes. Fitted on q001-q349, the served signals answer the fresh questions 5 right / 4 wrong at
the rule's 0.70, q500-q547 2/1 at 0.80. The joint head lowers the AURC (dev 0.219 -> 0.20-0.21,
late 0.368 -> 0.32-0.34, intervals touching 0) but lets the rule pick 0.40-0.55, fresh risk
0.44-0.52; checks of the shown answer drop at most one wrong fresh answer. With thresholds from
out-of-fold confidences the dev-best trial (two asked, one value + qp head) gives fresh 6/4,
Banglish 12/0, q500-q547 7/1: better, not clearly. Joint encoding: 19.3 ms median natively.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from confidence_generalise import aurc, paired_aurc_gain  # noqa: E402
from fit_answerer import FOLDS, MODEL, OURS, examples, fit_choice, risk_figures, sets  # noqa: E402
from raglab.answer.answerer import compose, signals_of  # noqa: E402
from raglab.answer.facts import asks_two, missing_half  # noqa: E402
from raglab.answer.sentences import CONFIDENCE_FEATURES, Model, fresh_spans, spans_of, speaks_to  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens, parse_goldens  # noqa: E402
from raglab.evaluation.metrics import holds_fact, token_f1  # noqa: E402
from raglab.pipeline import Config  # noqa: E402
from raglab.text.analyzer import analyze, memo  # noqa: E402
from raglab.text.answertypes import question_types  # noqa: E402
from raglab.text.numbers import numbers  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, ".cache", "verify_probe")
LATE = 350  # dev questions from q350 on were written after the others (q300-q328 too: see `early`)


def early(qid: str, cut: int = LATE) -> bool:
    return int(qid[1:]) < cut


def shown_answers(exs: list[dict], weights, m: dict, k: int) -> list[dict]:
    """Each example answered from its top k chunks at threshold 0 with the sentence model
    `weights` (and the committed second / adjacent / runner), labelled as fit_answerer labels."""
    model = Model(tuple(weights), tuple([0.0] * len(CONFIDENCE_FEATURES)), m["second"], m["adjacent"], m["runner"])
    out = []
    for e in exs:
        q, pipe = e["question"], e["pipe"]
        a = pipe.assess(q.question, e["chunks"][:k], e["scores"][:k], model)
        row = {"id": q.id, "question": q.question, "lang": q.lang, "kind": q.kind, "answerable": q.answerable,
               "qtype": e["info"].qtype, "signals": None, "quotes": [], "shorts": [], "right": False, "speaks": False,
               "f1": 0.0}
        if a is not None:
            ans = compose(a, pipe.docs, model)
            shown = "\n".join([s.text for s in ans.short_answers] + [ans.text])
            short = "; ".join(s.text for s in ans.short_answers) or ans.text
            row.update(signals=signals_of(a, ans, model), quotes=[x.text for x in ans.quotes], shorts=[s.text for s in ans.short_answers],
                       right=bool(q.answerable and holds_fact(shown, q.answer, evidence=q.evidence)),
                       speaks=speaks_to(a.signals), f1=token_f1(short, q.answer) if q.answerable else 0.0)
        out.append(row)
    return out


def committed() -> dict:
    with open(MODEL, encoding="utf-8") as fh:
        return json.load(fh)


def store(name: str, value) -> None:
    os.makedirs(CACHE, exist_ok=True)
    with open(os.path.join(CACHE, name), "w", encoding="utf-8") as fh:
        json.dump(value, fh, ensure_ascii=False)


def collect() -> None:
    """Our dev questions answered by sentence models that never saw them: `oof` (the five folds
    of fit_answerer), `late` (questions from q350 on, by a model fitted without them) and
    `early_oof` (the earlier ones, five folds fitted without the late ones either); and the
    external sets' dev halves and the TyDi train questions answered by the full model."""
    m, k = committed(), Config().k
    with memo():
        data = sets()
        ours = data["served"]
        fold_of = {e["question"].id: n % FOLDS for n, e in enumerate(ours)}
        late = {e["question"].id for e in ours if not early(e["question"].id)}
        is_ours = {id(e) for e in ours}
        out = {"folds": fold_of, "ours": {}, "ext": {}}
        oof, early_oof = [None] * len(ours), [None] * len(ours)
        for f in range(FOLDS):
            w = fit_choice(data, skip=lambda e, f=f: id(e) in is_ours and fold_of[e["question"].id] == f)
            w2 = fit_choice(data, skip=lambda e, f=f: id(e) in is_ours and (fold_of[e["question"].id] == f
                                                                             or e["question"].id in late))
            idx = [i for i, e in enumerate(ours) if fold_of[e["question"].id] == f]
            for i, row in zip(idx, shown_answers([ours[i] for i in idx], w, m, k)):
                oof[i] = row
            for i, row in zip(idx, shown_answers([ours[i] for i in idx], w2, m, k)):
                early_oof[i] = row
        w_late = fit_choice(data, skip=lambda e: id(e) in is_ours and e["question"].id in late)
        late_rows = shown_answers(ours, w_late, m, k)
        out["ours"]["oof"] = oof
        # The generalisation check's answers: early questions out of fold without the late ones,
        # late questions by the model fitted on the early ones only.
        out["ours"]["split"] = [r2 if early(r2["id"]) else rl for r2, rl in zip(early_oof, late_rows)]
        out["ours"]["served"] = shown_answers(ours, m["weights"], m, k)
        for name in ("covid-qa-faq", "tydiqa-en", "tydiqa-en-train"):
            out["ext"][name] = shown_answers(data[name], m["weights"], m, k)
    store("answers.json", out)


def candidates() -> None:
    """Every candidate unit around our dev questions' top k chunks, labelled by fit_answerer's
    evidence rule: many more (question, sentence) pairs for a verifier than answers."""
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = [q for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs) if q.split == "dev"]
    with memo():
        exs = examples(docs, questions, OURS)
    store("candidates.json", [{"id": e["question"].id, "question": e["question"].question, "quotes": [c.quote.text], "y": y}
                              for e in exs for c, y in zip(e["candidates"], e["labels"]) if c.rank < Config().k])


def extra(path: str) -> None:
    """Held-out questions (a goldens file of their own) answered by the committed model, which
    is fitted on our whole dev split and never on them."""
    m, docs = committed(), load_corpus(os.path.join(ROOT, "corpus"))
    with open(path, encoding="utf-8") as fh:
        questions = parse_goldens(fh.read(), docs, os.path.basename(path))
    with memo():
        rows = shown_answers(examples(docs, questions, OURS), m["weights"], m, Config().k)
    store("extra.json", rows)
    print(f"{len(rows)} questions answered", file=sys.stderr)


# --- the joint encoding ---------------------------------------------------------------

FRAMINGS = {
    # e5's own prefixes around question and quote(s), read as one text
    "qp": lambda r: "query: " + r["question"] + " passage: " + " ".join(r["quotes"]),
    # the short answer first, as the page shows it
    "qsp": lambda r: "query: " + r["question"] + " passage: " + "; ".join(r["shorts"]) + " | " + " ".join(r["quotes"]),
}


def key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def encode(framings) -> None:
    """Every answer's joint text through the encoder, cached by the text's digest."""
    from raglab.encoder.native import native_encoder

    enc, got, vecs, todo = native_encoder(), cached("answers.json"), cached("vectors.json", {}), []
    for r in [r for part in ("ours", "ext") for rows in got[part].values() for r in rows] + cached("extra.json", []) + \
            [dict(c, signals=True) for c in cached("candidates.json", [])]:
        for name in framings if r["signals"] else ():
            t = FRAMINGS[name](r)
            if key(t) not in vecs:
                vecs[key(t)] = None
                todo.append(t)
    print(f"{len(todo)} texts to encode", file=sys.stderr, flush=True)
    t0 = time.time()
    for n, t in enumerate(todo):
        vecs[key(t)] = [round(x, 7) for x in enc.encode(t)]
        if n % 500 == 499:
            print(f"{n + 1} {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    store("vectors.json", vecs)


def timed(f, *args) -> float:
    t0 = time.perf_counter()
    f(*args)
    return 1000 * (time.perf_counter() - t0)


def latency() -> None:
    """What the joint encoding adds to the answer step: the served answers' texts encoded natively."""
    import statistics

    from raglab.encoder.native import native_encoder

    enc = native_encoder()
    texts = [FRAMINGS["qp"](r) for r in cached("answers.json")["ours"]["served"] if r["signals"]]
    ms, pieces = [], []
    for ids in [enc.ids(t) for t in texts]:
        ms.append(min(timed(enc.backend.encode_ids, ids) for _ in range(3)))  # the best of three
        pieces.append(len(ids))
    ms.sort()
    print(json.dumps({"texts": len(texts), "pieces_median": statistics.median(pieces), "median_ms": round(statistics.median(ms), 1),
                      "p95_ms": round(ms[int(0.95 * len(ms))], 1), "max_ms": round(ms[-1], 1)}))


def cached(name: str, default=None):
    """A file `collect`, `extra` or `encode` wrote (`default` when there is none)."""
    path = os.path.join(CACHE, name)
    if default is not None and not os.path.exists(path):
        return default
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


# --- trials ----------------------------------------------------------------------------

def fit_lr(x, y, l2, weight=None):
    """L2-regularised logistic regression by Newton's method (column 0, the bias, unpenalised)."""
    w = np.zeros(x.shape[1])
    s = np.ones(len(y)) if weight is None else weight
    pen = np.full(x.shape[1], float(l2))
    pen[0] = 1e-9
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        g = x.T @ ((p - y) * s) + pen * w
        h = (x * (p * (1 - p) * s)[:, None]).T @ x + np.diag(pen)
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return w


def structural(r) -> list[float]:
    """Checks of the shown answer against the question's shape: a two-fact question given one
    value; one whose shown quotes leave a half's words out (`facts.missing_half`); a kind of
    value the question asks for (`question_types`) that nothing shown states."""
    q = r["question"]
    two = asks_two(q)
    text = "\n".join(r["quotes"])
    have = set(analyze(text))
    asked = question_types(q)
    qnums = frozenset(numbers(q))
    lacking = [t for t in asked if not fresh_spans(spans_of(text), text, (t,), qnums)]
    return [1.0 if two and len(r["shorts"]) < 2 else 0.0,
            1.0 if two and missing_half(q, have) is not None else 0.0,
            1.0 if asked and lacking else 0.0]


class Data:
    """One set of answers as arrays: the confidence's signals, the joint vectors, labels."""

    def __init__(self, rows, vecs, framing):
        self.rows = rows
        self.sig = np.array([r["signals"] or [1.0] + [0.0] * (len(CONFIDENCE_FEATURES) - 1) for r in rows])
        # unit vectors scaled to components of about 1, so one L2 suits the head and the signals
        self.vec = np.array([[1.0] + [20.0 * v for v in (vecs[key(FRAMINGS[framing](r))] if r["signals"] else [0.0] * 384)] for r in rows])
        self.y = np.array([1.0 if r["right"] else 0.0 for r in rows])
        self.st = np.array([structural(r) if r["signals"] else [0.0, 0.0, 0.0] for r in rows])
        self.has = np.array([r["signals"] is not None for r in rows])
        self.outcomes = [(r["answerable"], r["speaks"], r["right"], r["f1"]) for r in rows]

    def take(self, idx):
        d, idx = Data.__new__(Data), np.asarray(idx, dtype=int)
        d.rows, d.outcomes = [self.rows[i] for i in idx], [self.outcomes[i] for i in idx]
        d.sig, d.vec, d.y, d.has, d.st = self.sig[idx], self.vec[idx], self.y[idx], self.has[idx], self.st[idx]
        return d


class Trial:
    """A confidence: `signals` (the eleven), `head` (a logistic head over the joint vector,
    its L2 `l2`, the external answers weighing `ext` times ours in its fit), or both
    (the head's logit, out of fold on the training answers, as a twelfth signal)."""

    def __init__(self, name, signals=True, head=False, l2=10.0, ext=0.0, checks=(), veto=None, pairs=False):
        self.name, self.signals, self.head, self.l2, self.ext, self.pairs = name, signals, head, l2, ext, pairs
        self.veto = veto  # a column of `structural` that makes the answerer abstain whatever the confidence
        self.checks = list(checks)  # columns of `structural` added to the signals

    def sig(self, d):
        return np.hstack([d.sig, d.st[:, self.checks]]) if self.checks else d.sig

    def _head(self, train, ext):
        if self.pairs:  # a verifier of (question, sentence) pairs: the training questions' candidates, evidence or not
            keep = np.array([i in {r["id"] for r in train.rows} for i in PAIRS.ids])
            return fit_lr(PAIRS.vec[keep], PAIRS.y[keep], self.l2)
        x, y, wt = train.vec[train.has], train.y[train.has], np.ones(int(train.has.sum()))
        if self.ext and ext is not None:
            xe, ye = ext.vec[ext.has], ext.y[ext.has]
            x, y = np.vstack([x, xe]), np.concatenate([y, ye])
            wt = np.concatenate([wt, np.full(len(ye), self.ext * len(wt) / len(ye))])
        return fit_lr(x, y, self.l2, wt)

    def fit(self, train, ext=None, folds=5):
        if not self.signals:
            return ("head", self._head(train, ext))
        if not self.head:
            return ("sig", fit_lr(self.sig(train)[train.has], train.y[train.has], 1.0))
        # the head's logit for the training answers out of fold, so the stacked fit trusts it as it will be on new ones
        z, order = np.zeros(len(train.y)), np.arange(len(train.y))
        for f in range(folds):
            inner = order % folds != f
            h = self._head(train.take(order[inner]), ext)
            z[~inner] = train.vec[~inner] @ h
        x = np.hstack([self.sig(train), z[:, None]])
        return ("both", (self._head(train, ext), fit_lr(x[train.has], train.y[train.has], 1.0)))

    def score(self, model, d):
        kind, m = model
        if kind == "head":
            z = d.vec @ m
        elif kind == "sig":
            z = self.sig(d) @ m
        else:
            h, w = m
            z = np.hstack([self.sig(d), (d.vec @ h)[:, None]]) @ w
        veto = d.st[:, self.veto] if self.veto is not None else np.zeros(len(z))
        return [float(1 / (1 + math.exp(-v))) if has and not no else 0.0 for v, has, no in zip(z, d.has, veto)]


def paired(outcomes, conf_a, conf_b) -> tuple[float, float]:
    """95% interval of AURC(b) - AURC(a) over bootstrap resamples of the questions."""
    return paired_aurc_gain(outcomes, conf_a, conf_b, draws=1000, seed=7)


def at(outcomes, conf, t) -> str:
    """right / wrong answers and risk at threshold t (unanswerable answered count as wrong)."""
    said = [o for o, c in zip(outcomes, conf) if o[1] and c >= t]
    wrong = sum(1 for o in said if not o[2])
    n_ans = sum(1 for o in outcomes if o[0])
    return f"{len(said) - wrong}/{wrong} of {n_ans} answerable + {len(outcomes) - n_ans} (risk {wrong / len(said) if said else 0:.3f})"


def top(outcomes, conf, n) -> str:
    """right / wrong among the n answers with the highest confidence (a ranking at the served trial's answer count)."""
    said = sorted([(c, i) for i, (o, c) in enumerate(zip(outcomes, conf)) if o[1]], key=lambda x: (-x[0], x[1]))[:n]
    wrong = sum(1 for _, i in said if not outcomes[i][2])
    return f"{len(said) - wrong}/{wrong}"


TRIALS = [Trial("served signals (11, L2 1)"),
          Trial("signals + two asked, one value", checks=(0,)),
          Trial("signals + a half's words missing", checks=(1,)),
          Trial("signals + an asked kind not stated", checks=(2,)),
          Trial("signals + all three checks", checks=(0, 1, 2)),
          Trial("signals, veto: two asked, one value", veto=0)]
for _f in FRAMINGS:
    for _l2 in (10.0, 100.0):
        for _ext in (0.0, 1.0):
            TRIALS.append(Trial(f"{_f} head alone L2 {_l2:g} ext {_ext:g}", signals=False, head=True, l2=_l2, ext=_ext))
            TRIALS.append(Trial(f"signals + {_f} head L2 {_l2:g} ext {_ext:g}", head=True, l2=_l2, ext=_ext))
TRIALS += [Trial(f"signals + pair verifier L2 {x:g}", head=True, l2=x, pairs=True) for x in (10.0, 100.0)]
TRIALS += [Trial(f"signals + two asked, one value + qp head L2 {x:g} ext 0", head=True, l2=x, checks=(0,)) for x in (10.0, 100.0)]


def evaluate(only: str | None = None) -> None:
    got, vecs, more = cached("answers.json"), cached("vectors.json", {}), cached("extra.json", [])
    ids = [r["id"] for r in got["ours"]["oof"]]
    folds = np.array([got["folds"][i] for i in ids])
    late, fresh, banglish = (np.array([lo <= int(i[1:]) < hi for i in ids]) for lo, hi in ((LATE, 1000), (350, 406), (450, 482)))
    base_oof, base_late, counts = None, None, {}
    for n, trial in enumerate(TRIALS):
        if n and only and not any(x in trial.name for x in only.split("|")):
            continue  # the first (served) trial always runs: the others' paired differences are against it
        framing = next((f for f in FRAMINGS if " " + f + " head" in " " + trial.name), "qp")
        if trial.pairs:
            global PAIRS
            rows = [dict(c, signals=[1.0] + [0.0] * 10, shorts=[], right=bool(c["y"]), answerable=True, speaks=True, f1=0.0)
                    for c in cached("candidates.json")]
            PAIRS = Data(rows, vecs, framing)
            PAIRS.ids = [r["id"] for r in rows]
        oof = Data(got["ours"]["oof"], vecs, framing)
        ext = Data([r for name in ("covid-qa-faq", "tydiqa-en", "tydiqa-en-train") for r in got["ext"][name]], vecs, framing)
        conf = np.zeros(len(ids))
        for f in range(FOLDS):
            m = trial.fit(oof.take(np.where(folds != f)[0]), ext)
            conf[folds == f] = trial.score(m, oof.take(np.where(folds == f)[0]))
        conf = list(conf)
        base_oof = base_oof or conf
        rule = risk_figures(oof.outcomes, conf)
        # generalisation: fitted on the early questions' answers, threshold by the rule in sample
        split = Data(got["ours"]["split"], vecs, framing)
        tr = split.take(np.where(~late)[0])
        m = trial.fit(tr, ext)
        t = risk_figures(tr.outcomes, trial.score(m, tr))["threshold"]
        lconf = trial.score(m, split)
        # the threshold the rule picks on the early questions' own out-of-fold confidences instead
        inner, idx = np.zeros(len(tr.y)), np.arange(len(tr.y))
        for f in range(FOLDS):
            inner[idx % FOLDS == f] = trial.score(trial.fit(tr.take(idx[idx % FOLDS != f]), ext), tr.take(idx[idx % FOLDS == f]))
        t_oof = risk_figures(tr.outcomes, list(inner))["threshold"]
        base_late = base_late or lconf
        line = {"trial": trial.name, "oof_aurc": aurc(oof.outcomes, conf),
                "aurc_change_95": paired(oof.outcomes, base_oof, conf),
                "oof_rule": {x: rule[x] for x in ("threshold", "holds", "answered", "risk")},
                "late_threshold": t}
        for name, mask in (("fresh", fresh), ("banglish", banglish), ("late", late)):
            o = [x for x, k in zip(split.outcomes, mask) if k]
            c = [x for x, k in zip(lconf, mask) if k]
            counts[name] = counts.get(name, sum(1 for x, cc in zip(o, c) if x[1] and cc >= t))  # the served trial's
            line.update({name: at(o, c, t), name + "_oof_t": f"{at(o, c, t_oof)} at {t_oof}", name + "_at_served_count": top(o, c, counts[name]), name + "_aurc": aurc(o, c)})
        line["late_aurc_change_95"] = paired([x for x, k in zip(split.outcomes, late) if k],
                                             [x for x, k in zip(base_late, late) if k], [x for x, k in zip(lconf, late) if k])
        if more:
            # fitted on the out-of-fold answers as fit_answerer fits the served confidence; the
            # threshold by the rule on the answers as served (as `raglab compare --split dev` tunes it)
            full = trial.fit(oof, ext)
            served = Data(got["ours"]["served"], vecs, framing)
            t_all = risk_figures(served.outcomes, trial.score(full, served))["threshold"]
            xd = Data(more, vecs, framing)
            c = trial.score(full, xd)
            counts["extra"] = counts.get("extra", sum(1 for x, cc in zip(xd.outcomes, c) if x[1] and cc >= t_all))
            line.update({"extra": at(xd.outcomes, c, t_all), "extra_oof_t": f"{at(xd.outcomes, c, rule['threshold'])} at {rule['threshold']}", "extra_at_served_count": top(xd.outcomes, c, counts["extra"]),
                         "extra_threshold": t_all, "extra_aurc": aurc(xd.outcomes, c)})
        print(json.dumps(line, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("stage", choices=("collect", "candidates", "encode", "evaluate", "extra", "latency"))
    p.add_argument("file", nargs="?")
    args = p.parse_args()
    {"collect": collect, "candidates": candidates, "extra": lambda: extra(args.file), "latency": latency, "evaluate": lambda: evaluate(args.file),
     "encode": lambda: encode(args.file.split(",") if args.file else list(FRAMINGS))}[args.stage]()
