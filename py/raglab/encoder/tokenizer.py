"""The encoder's tokenizer: e5's SentencePiece unigram model, in plain Python.

Three steps, the same on every Python version because nothing consults the Unicode
database (the normaliser is a table stored in the model file):

1. normalise: replace each code point through the model's table (NFKC-like folding,
   control characters removed, tabs and newlines to spaces); collapse runs of spaces;
2. mark words: a leading space is added unless the text starts with one, and every space
   becomes the metaspace ``▁`` (U+2581);
3. segment: the Viterbi path through the pieces that maximises the sum of their log
   probabilities; a character no piece covers becomes <unk> with a score ten below the
   lowest piece's. Candidates are tried by start then length, and a later candidate
   replaces an earlier one only when strictly better, so ties resolve one way everywhere.

Special pieces (<s>, </s>, <pad>, <unk>) are never matched in text: a user typing
"<s>" gets ordinary pieces, not a control token.

>>> tok = Tokenizer(pieces=("<s>", "<pad>", "</s>", "<unk>", "▁a", "b", "▁ab", "▁"),
...                 scores=(0, 0, 0, 0, -1.0, -2.0, -2.5, -3.0), bos=0, eos=2, pad=1, unk=3,
...                 normaliser={0x9: (0x20,)}, max_tokens=8)
>>> tok.pieces_of("ab\\tb")
['▁ab', '▁', 'b']
>>> tok.encode("ab b")
[0, 6, 7, 5, 2]
"""

from __future__ import annotations

META = "\u2581"


class Tokenizer:
    def __init__(self, pieces, scores, bos, eos, pad, unk, normaliser, max_tokens):
        specials = {bos, eos, pad, unk}
        self.ids = {p: i for i, p in enumerate(pieces) if i not in specials}
        self.scores = tuple(float(s) for s in scores)
        self.pieces = tuple(pieces)
        self.bos, self.eos, self.unk = bos, eos, unk
        self.unk_score = min(self.scores) - 10.0
        self.normaliser = normaliser
        self.max_tokens = max_tokens
        self.longest = max(len(p) for p in self.ids)
        # every prefix of every piece, so the segmenter stops extending a candidate early
        self.prefixes = {p[:k] for p in self.ids for k in range(1, len(p) + 1)}

    @classmethod
    def from_info(cls, info) -> "Tokenizer":
        return cls(info.pieces, info.scores, info.bos, info.eos, info.pad, info.unk,
                   info.normaliser, info.max_tokens)

    def normalise(self, text: str) -> str:
        table = self.normaliser
        out: list[str] = []
        for ch in text:
            repl = table.get(ord(ch))
            if repl is None:
                out.append(ch)
            else:
                out.extend(chr(c) for c in repl)
        folded: list[str] = []
        for ch in out:
            if ch == " " and folded and folded[-1] == " ":
                continue
            folded.append(ch)
        s = "".join(folded)
        if not s.startswith(" "):
            s = " " + s
        return s.replace(" ", META)

    def content_ids(self, text: str) -> list[int]:
        """Piece ids of the text, without <s> and </s>."""
        s = self.normalise(text)
        n = len(s)
        ids, scores, prefixes = self.ids, self.scores, self.prefixes
        unreached = float("-inf")
        best = [unreached] * (n + 1)
        back = [(0, 0)] * (n + 1)  # (start, piece id or -1 for <unk>)
        best[0] = 0.0
        for i in range(n):
            here = best[i]
            if here == unreached:
                continue
            for e in range(i + 1, min(n, i + self.longest) + 1):
                piece = s[i:e]
                if piece not in prefixes:
                    break
                pid = ids.get(piece)
                if pid is not None:
                    score = here + scores[pid]
                    if score > best[e]:
                        best[e] = score
                        back[e] = (i, pid)
            score = here + self.unk_score
            if score > best[i + 1]:
                best[i + 1] = score
                back[i + 1] = (i, -1)
        out: list[int] = []
        e = n
        while e > 0:
            start, pid = back[e]
            out.append(self.unk if pid < 0 else pid)
            e = start
        out.reverse()
        return out

    def pieces_of(self, text: str) -> list[str]:
        return [self.pieces[i] for i in self.content_ids(text)]

    def encode(self, text: str) -> list[int]:
        """<s> + pieces + </s>, cut to the model's window: longer text keeps its first pieces."""
        content = self.content_ids(text)[: self.max_tokens - 2]
        return [self.bos, *content, self.eos]
