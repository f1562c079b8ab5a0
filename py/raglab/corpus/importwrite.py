"""Writing an import: `OUT/corpus/*.md` and `OUT/questions.jsonl`, never half of either.

An import replaces an earlier one (`--force`) without a moment at which the old one is
gone and the new one not yet there:

1. the new import is written whole into a build folder beside the old one,
   `OUT/.import-<random>/`, and a `READY` file is written last;
2. the swap: `corpus/` is exchanged with the new folder in one system call where the
   platform has one (Linux `renameat2(RENAME_EXCHANGE)`), else moved aside into the build
   folder first; then `questions.jsonl` is replaced by one rename;
3. the build folder (now holding the old import) is removed.

A process killed during step 1 leaves a build folder without `READY`: the old import was
never touched, and the next import removes the folder. Killed during step 2, the folder
has `READY` and the next import finishes the swap (`recover`) before anything else, so a
crash loses neither the old import (until the new one is whole) nor the new one. One lock
file (`OUT/.import.lock`) keeps two imports into one folder from interleaving.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile

READY = "READY"
PREFIX = ".import-"


class ImportWriteError(ValueError):
    """The destination cannot take the import; the message names it and what to do."""


@contextlib.contextmanager
def _locked(out: str):
    try:
        import fcntl
    except ImportError:  # no flock (Windows): imports into one folder must not overlap
        yield
        return
    fd = os.open(os.path.join(out, ".import.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _exchange(a: str, b: str) -> bool:
    """Swap two paths in one system call; False where the platform or file system cannot."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # not every file system syncs a folder
        pass
    finally:
        os.close(fd)


def _inode(path: str) -> str:
    info = os.stat(path)
    return f"{info.st_dev}:{info.st_ino}"


def _swap_in(out: str, build: str) -> None:
    """Step 2 for a build folder holding READY; safe to run again after a kill at any point.

    READY holds the new corpus folder's inode, so a rerun can tell which of the two
    folders is the new one after an exchange."""
    corpus, questions = os.path.join(out, "corpus"), os.path.join(out, "questions.jsonl")
    new_corpus, new_questions = os.path.join(build, "corpus"), os.path.join(build, "questions.jsonl")
    with open(os.path.join(build, READY), encoding="utf-8") as fh:
        new_inode = fh.read().strip()
    in_place = os.path.isdir(corpus) and _inode(corpus) == new_inode
    if not in_place and os.path.isdir(new_corpus) and _inode(new_corpus) == new_inode:
        if not (os.path.isdir(corpus) and _exchange(new_corpus, corpus)):
            if os.path.isdir(corpus):
                os.rename(corpus, os.path.join(build, "old-corpus"))
            os.rename(new_corpus, corpus)
    # The questions follow the corpus, never precede it: were READY ever not the inode of
    # either folder, the old import stays whole rather than half replaced.
    if os.path.isdir(corpus) and _inode(corpus) == new_inode and os.path.exists(new_questions):
        os.replace(new_questions, questions)
    _fsync_dir(out)


def recover(out: str) -> list[str]:
    """Finish or discard what killed imports left in `out`; returns what was done, for a note."""
    done: list[str] = []
    try:
        names = sorted(n for n in os.listdir(out) if n.startswith(PREFIX))
    except OSError:
        return done
    for name in names:
        build = os.path.join(out, name)
        if not os.path.isdir(build) or os.path.islink(build):
            continue
        if os.path.exists(os.path.join(build, READY)):
            _swap_in(out, build)
            done.append(f"finished an interrupted import ({name})")
        else:
            done.append(f"removed an unfinished import ({name})")
        shutil.rmtree(build, ignore_errors=True)
    return done


def _write_text(path: str, text: str, sync: bool = False) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
        if sync:
            fh.flush()
            os.fsync(fh.fileno())


def write_files(out: str, files: dict[str, str], questions: str, force: bool = False) -> list[str]:
    """Write OUT/corpus/<name> for each of `files` and OUT/questions.jsonl as described in the
    module doc; never over an earlier import unless `force`. Returns recovery notes."""
    corpus_dir = os.path.join(out, "corpus")
    if os.path.islink(corpus_dir):
        raise ImportWriteError(f"{corpus_dir}: a symbolic link; an import writes a real folder there, so remove "
                               "the link (its target is kept) or choose another --out")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as err:
        raise ImportWriteError(f"{out}: cannot create the folder ({err.strerror or err}); choose another --out") from None
    if not os.path.isdir(out):
        raise ImportWriteError(f"{out}: not a folder; choose another --out")
    with _locked(out):
        notes = recover(out)
        questions_path = os.path.join(out, "questions.jsonl")
        if os.path.lexists(questions_path) and not os.path.isfile(questions_path):
            raise ImportWriteError(f"{questions_path}: not a regular file; remove it or choose another --out")
        occupied = os.path.exists(questions_path) or (os.path.isdir(corpus_dir) and os.listdir(corpus_dir))
        if occupied and not force:
            raise ImportWriteError(f"{out}: already holds corpus/ or questions.jsonl; choose another --out "
                                   "or pass --force to replace them")
        if os.path.lexists(corpus_dir) and not os.path.isdir(corpus_dir):
            raise ImportWriteError(f"{corpus_dir}: not a folder; remove it or choose another --out")
        build = tempfile.mkdtemp(prefix=PREFIX, dir=out)
        try:
            os.mkdir(os.path.join(build, "corpus"))
            for name in sorted(files):
                _write_text(os.path.join(build, "corpus", name), files[name])
            _write_text(os.path.join(build, "questions.jsonl"), questions, sync=True)
            _fsync_dir(os.path.join(build, "corpus"))
            # READY appears whole or not at all (a kill while writing it left a partial inode
            # once): from here on the swap is finished, not undone.
            _write_text(os.path.join(build, READY + ".tmp"), _inode(os.path.join(build, "corpus")), sync=True)
            os.replace(os.path.join(build, READY + ".tmp"), os.path.join(build, READY))
            _fsync_dir(build)
            _swap_in(out, build)
        finally:
            shutil.rmtree(build, ignore_errors=True)
    return notes
