# SPDX-License-Identifier: MIT
"""One version everywhere: the C header's FASTSHA_VERSION_STRING (the one
source, include/fastsha/fastsha.h), the installed wheel (its metadata and
fastsha.__version__, which is the library's fastsha_version()), and the
command's --version, when the C build's command is there."""
import importlib.metadata
import pathlib
import re
import subprocess

import pytest

import fastsha

REPO = pathlib.Path(__file__).resolve().parents[2]
HEADER = REPO / "include" / "fastsha" / "fastsha.h"
FASTSHA_CLI = REPO / "build" / "release" / "tools" / "fastsha"


def header_version():
    m = re.search(r'^#define FASTSHA_VERSION_STRING "([0-9]+\.[0-9]+\.[0-9]+)"$',
                  HEADER.read_text(), re.M)
    assert m, "no FASTSHA_VERSION_STRING in fastsha.h"
    return m.group(1)


def test_wheel_reports_the_header_version():
    v = header_version()
    assert fastsha.__version__ == v
    assert importlib.metadata.version("fastsha") == v


def test_command_reports_the_header_version():
    if not FASTSHA_CLI.exists():
        pytest.skip(f"the C build's fastsha command is not at {FASTSHA_CLI} (make build)")
    out = subprocess.run([str(FASTSHA_CLI), "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert out.splitlines()[0] == f"fastsha {header_version()}"


def test_abi_number_is_in_the_header():
    m = re.search(r"^#define FASTSHA_ABI_VERSION ([0-9]+)$", HEADER.read_text(), re.M)
    assert m and int(m.group(1)) >= 1


def test_docs_name_the_header_version():
    """The README's opening, the man page's title line and the CHANGELOG's
    newest section say the version the header defines (0.3.1's README
    still said 0.3.0)."""
    v = header_version()
    readme = (REPO / "README.md").read_text()
    m = re.search(r"Version\s+([0-9]+\.[0-9]+\.[0-9]+);", readme)
    assert m, "README.md has no 'Version X.Y.Z;' line"
    assert m.group(1) == v
    man = (REPO / "docs" / "fastsha.1").read_text()
    m = re.search(r'^\.TH FASTSHA 1 \S+ "fastsha ([0-9.]+)"', man, re.M)
    assert m and m.group(1) == v, "docs/fastsha.1's .TH line"
    m = re.search(r"^## ([0-9]+\.[0-9]+\.[0-9]+)", (REPO / "CHANGELOG.md").read_text(), re.M)
    assert m and m.group(1) == v, "CHANGELOG.md's first section"
