# SPDX-License-Identifier: MIT
"""Fixtures for the binding's tests; the helpers are in support.py."""

from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase

# Hypothesis keeps its examples under build/, not in the working directory.
_BUILD = Path(__file__).resolve().parents[2] / "build" / "python"
settings.register_profile("fastsha", database=DirectoryBasedExampleDatabase(_BUILD / "hypothesis"))
settings.load_profile("fastsha")


@pytest.fixture
def tmp_file(tmp_path):
    """Write bytes to a fresh file and return its path."""
    def make(data, name="f.bin"):
        p = tmp_path / name
        p.write_bytes(data)
        return p
    return make
