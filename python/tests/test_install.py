# SPDX-License-Identifier: MIT
"""Installing: the wheel is one cp311-abi3 extension holding nothing but
the package, and installed into a fresh venv it imports and hashes with no
compiler, no build tree and no environment variable. `make test-python`
builds that wheel once from the source tree (pip wheel ., the same PEP 517
build as pip install .) and names it in FASTSHA_WHEEL; without it this
test builds one. FASTSHA_TEST_SOURCE_INSTALL=1 also runs `pip install .`
from a copy of the tree in another fresh venv (about a minute)."""

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from support import REPO

SMOKE = r"""
import hashlib, hmac, io, sys
import fastsha, fastsha.hmac
assert "site-packages" in fastsha.__file__, fastsha.__file__
assert fastsha.sha256(b"abc").hexdigest() == \
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
assert fastsha.new("SHA1", b"abc").hexdigest() == "a9993e364706816aba3e25717850c26c9cd0d89d"
data = bytes(range(256)) * 4000
for name in sorted(fastsha.algorithms_available):
    ours, theirs = fastsha.new(name, data), hashlib.new(name, data)
    if theirs.digest_size == 0:  # SHAKE: digest(length)
        assert ours.digest(100) == theirs.digest(100), name
    else:
        assert ours.digest() == theirs.digest(), name
assert fastsha.many("shake_128", [data], 300) == [hashlib.shake_128(data).digest(300)]
assert hashlib.file_digest(io.BytesIO(data), fastsha.sha512).digest() == \
    hashlib.sha512(data).digest()
assert hmac.new(b"k", data, fastsha.sha224).digest() == hmac.new(b"k", data, "sha224").digest()
assert fastsha.many("sha1", [data, b""]) == [hashlib.sha1(data).digest(), hashlib.sha1().digest()]
assert fastsha.hmac.digest(b"k", data, "sha384") == hmac.digest(b"k", data, "sha384")
assert fastsha.pbkdf2_hmac("sha256", b"pw", b"salt", 1000) == \
    hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1000)
print(fastsha.__version__, fastsha.backend("sha256"))
"""


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    given = os.environ.get("FASTSHA_WHEEL")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("wheelhouse")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
        timeout=900)
    (whl,) = out.glob("fastsha-*.whl")
    return whl


def fresh_venv(path):
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin" / "python"


def bare_env(py, home):
    """Only the venv on PATH: no compiler, cmake or ninja can be found, and
    no FASTSHA_* or PYTHON* variable is set."""
    return {"PATH": str(py.parent), "HOME": str(home), "LANG": "C.UTF-8"}


def test_wheel_contents(wheel):
    parts = wheel.name[:-4].split("-")
    assert parts[0] == "fastsha" and parts[2:4] == ["cp311", "abi3"], wheel.name
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    top = {n.split("/")[0] for n in names}
    assert top == {"fastsha", f"fastsha-{parts[1]}.dist-info"}, top
    pkg = sorted(n for n in names if n.startswith("fastsha/"))
    assert pkg == ["fastsha/__init__.py", "fastsha/_fastsha.abi3.so", "fastsha/_fastsha.pyi",
                   "fastsha/hmac.py", "fastsha/hmac.pyi", "fastsha/py.typed"], pkg
    assert "Root-Is-Purelib: false" in meta
    assert "Tag: cp311-abi3-" in meta


def test_extension_exports_only_its_init(wheel, tmp_path):
    nm = shutil.which("nm")
    if not nm:
        pytest.skip("no nm (binutils) to list the extension's symbols")
    with zipfile.ZipFile(wheel) as z:
        z.extract("fastsha/_fastsha.abi3.so", tmp_path)
    out = run([nm, "-D", "--defined-only", str(tmp_path / "fastsha" / "_fastsha.abi3.so")])
    assert [line.split()[-1] for line in out.splitlines()] == ["PyInit__fastsha"]


def test_fresh_venv_from_the_wheel(wheel, tmp_path):
    py = fresh_venv(tmp_path / "venv")
    run([str(py), "-m", "pip", "install", "--no-index", "--no-deps", "-q", str(wheel)],
        env=dict(os.environ, PIP_NO_INDEX="1"))
    out = run([str(py), "-c", SMOKE], cwd=tmp_path, env=bare_env(py, tmp_path))
    assert out.split()[0].count(".") == 2


@pytest.mark.skipif(os.environ.get("FASTSHA_TEST_SOURCE_INSTALL") != "1",
                    reason="set FASTSHA_TEST_SOURCE_INSTALL=1 to also run `pip install .` "
                           "from a copy of the tree in a fresh venv (about a minute)")
def test_pip_install_from_a_copy_of_the_tree(tmp_path):
    """What a user does after cloning: the tracked and new files, nothing
    built, into a new venv (PyPI reachable for scikit-build-core)."""
    files = run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO).split("\0")
    src = tmp_path / "src"
    for f in filter(None, files):
        if (REPO / f).is_file():
            (src / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / f, src / f)
    py = fresh_venv(tmp_path / "venv")
    run([str(py), "-m", "pip", "install", "-q", str(src)], timeout=900)
    run([str(py), "-c", SMOKE], cwd=tmp_path, env=bare_env(py, tmp_path))
