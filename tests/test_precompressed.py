"""dist/'s precompressed copies (build.py `precompressed`): build.py runs on the system's python3,
which lacks the brotli package `setup` installs in .venv, and still writes the brotli copies
(through .venv's Python), byte for byte what brotli gives in process."""

from __future__ import annotations

import gzip
import os
import sys

import brotli
import pytest

from conftest import _load_build_module

build = _load_build_module()
TEXT = ("Cash out at an agent costs 1.85% of the amount. " * 200).encode()


@pytest.fixture
def without_brotli(monkeypatch, tmp_path):
    """This process as the system's python3 sees it: `import brotli` fails; a fresh cache."""
    monkeypatch.setattr(build, "CACHE", str(tmp_path / "cache"))
    monkeypatch.setitem(sys.modules, "brotli", None)  # an import of it raises ImportError


def test_a_python_without_brotli_writes_the_brotli_copies_through_the_venv(without_brotli, tmp_path):
    page = tmp_path / "page.js"
    page.write_bytes(TEXT[::-1])
    out = build.precompressed({"a.json": TEXT, "js/page.js": str(page), "tiny.css": b"x" * 100, "b.whl": TEXT})
    assert sorted(out) == ["a.json.br", "a.json.gz", "js/page.js.br", "js/page.js.gz"]  # not tiny, not a wheel
    assert out["a.json.br"] == brotli.compress(TEXT, quality=11)
    assert out["js/page.js.br"] == brotli.compress(TEXT[::-1], quality=11)
    assert gzip.decompress(out["a.json.gz"]) == TEXT
    # cached by content: a second build makes nothing again (its children would need brotli)
    assert sorted(os.listdir(os.path.join(build.CACHE, "precompressed"))) == sorted(
        f"{build.sha256_bytes(data)}.{ext}" for data in (TEXT, TEXT[::-1]) for ext in ("br", "gz"))


def test_a_file_above_the_limit_is_compressed_at_brotli_9(without_brotli, monkeypatch):
    """The wasm runtime took half a minute at 11 in every fresh build: a file above the limit gets 9."""
    monkeypatch.setattr(build, "BROTLI_SCRIPT", build.BROTLI_SCRIPT.replace(str(build.BROTLI_BEST_MAX_BYTES), str(len(TEXT) - 1)))
    out = build.precompressed({"runtime.wasm": TEXT, "tiny.wasm": TEXT[: len(TEXT) // 2]})
    assert out["runtime.wasm.br"] == brotli.compress(TEXT, quality=9) != brotli.compress(TEXT, quality=11)
    assert out["tiny.wasm.br"] == brotli.compress(TEXT[: len(TEXT) // 2], quality=11)


def test_without_brotli_anywhere_the_build_says_so_and_ships_gzip(without_brotli, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(build, "VPY", str(tmp_path / "no-venv" / "python"))
    out = build.precompressed({"a.json": TEXT})
    assert sorted(out) == ["a.json.gz"]
    assert "brotli is installed neither in this Python nor in .venv" in capsys.readouterr().out


def test_the_brotli_work_is_shared_out_largest_first(without_brotli, monkeypatch):
    started = []
    monkeypatch.setattr(build.subprocess, "Popen", lambda args: started.append(args[5:]) or Done())
    monkeypatch.setattr(build.os, "cpu_count", lambda: 2)
    lacking = {"big": b"x" * 90, "mid": b"x" * 50, "small": b"x" * 30, "tiny": b"x" * 5}
    os.makedirs(os.path.join(build.CACHE, "precompressed"))
    build.brotli_compress(sys.executable, lacking, os.path.join(build.CACHE, "precompressed"))
    assert started == [["big"], ["mid", "small", "tiny"]]  # 90 beside 50 + 30 + 5


class Done:
    args = ()

    @staticmethod
    def wait() -> int:
        return 0
