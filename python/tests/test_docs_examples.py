# SPDX-License-Identifier: MIT
"""The ```python blocks of README.md and docs/*.md, run on this wheel.

tests/docs_examples.py does the work (ctest runs it on the C blocks and the
command's shown outputs); the Python blocks run here because only here is
the installed package the one just built from this tree."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_docs_python_examples():
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "docs_examples.py"), "--src", str(ROOT),
                        "--python", sys.executable, "python"],
                       capture_output=True, text=True, timeout=600)
    if r.returncode == 77:
        pytest.skip(r.stdout.strip().splitlines()[-1])
    assert r.returncode == 0, r.stdout + r.stderr
