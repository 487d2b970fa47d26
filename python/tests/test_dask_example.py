# SPDX-License-Identifier: MIT
"""examples/dask_hash_tree.py on a small generated tree: on a LocalCluster,
and against a scheduler started with the `dask` command (the path a real
cluster takes), both on 127.0.0.1. Its output must match hashlib and pass
`sha256sum -c` (and `fastsha -c` when the C build is there)."""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import REPO

pytest.importorskip("distributed", reason="dask[distributed] is not installed")

EXAMPLE = REPO / "examples" / "dask_hash_tree.py"
FASTSHA_CLI = REPO / "build" / "release" / "tools" / "fastsha"


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """Nested directories, sizes from 0 to 3 MiB, names that need GNU's
    escapes or are not UTF-8, a symbolic link, and a FIFO (skipped)."""
    root = tmp_path_factory.mktemp("tree")
    rng = __import__("random").Random(7)
    files = {
        "empty": 0, "one": 1, "a/block": 64, "a/b/page": 4095, "a/b/c/mib": 1 << 20,
        "a/big": 3 * (1 << 20) + 5, "sp ace": 10, "new\nline": 11, "back\\slash": 12,
        "cr\rname": 13, "caf\u00e9": 14,
    }
    for i in range(40):
        files[f"many/small{i:02d}"] = rng.randrange(0, 3000)
    for rel, n in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(rng.randbytes(n))
    with open(os.path.join(os.fsencode(root), b"raw\xff"), "wb") as f:
        f.write(b"not utf-8")
    os.symlink("a/big", root / "link-to-big")
    os.mkfifo(root / "fifo")
    return root


def expected(root):
    """{relative path bytes: sha256 hex} of every regular file, by hashlib."""
    out = {}
    broot = os.fsencode(root)
    for d, _, names in os.walk(broot):
        for n in names:
            p = os.path.join(d, n)
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    out[os.path.relpath(p, broot)] = hashlib.sha256(f.read()).hexdigest()
    return out


def parse(stdout):
    """GNU lines back to {name: hex}, undoing the escapes."""
    got = {}
    for line in stdout.split(b"\n")[:-1]:
        escaped = line.startswith(b"\\")
        if escaped:
            line = line[1:]
        hexd, name = line.split(b"  ", 1)
        if escaped:
            name = name.replace(b"\\\\", b"\0").replace(b"\\n", b"\n") \
                       .replace(b"\\r", b"\r").replace(b"\0", b"\\")
        got[name] = hexd.decode()
    return got


def run_example(root, *extra):
    return subprocess.run([sys.executable, str(EXAMPLE), str(root), "--batch-mib", "1", *extra],
                          capture_output=True, timeout=300)


def check_output(root, proc, algo="sha256"):
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert b"fifo: not a regular file" in proc.stderr
    lines = proc.stdout.split(b"\n")[:-1]
    names = [parse(line + b"\n").popitem()[0] for line in lines]
    assert names == sorted(names), "lines sorted by path"
    if algo == "sha256":
        assert parse(proc.stdout) == expected(root)
    sums = root.parent / f"{root.name}.{algo}sums"
    sums.write_bytes(proc.stdout)
    tool = shutil.which(f"{algo}sum")
    if tool:
        check = subprocess.run([tool, "-c", "--quiet", str(sums)], cwd=root,
                               capture_output=True)
        assert check.returncode == 0, check.stdout + check.stderr
    return sums


@pytest.fixture(scope="module")
def local_sums(tree):
    """One run on a LocalCluster, checked; the sums file it wrote."""
    return check_output(tree, run_example(tree))


def test_local_cluster(local_sums):
    assert local_sums.stat().st_size > 0


def test_fastsha_cli_verifies_the_output(tree, local_sums):
    if not FASTSHA_CLI.exists():
        pytest.skip(f"the C build's fastsha command is not at {FASTSHA_CLI} (make build)")
    check = subprocess.run([str(FASTSHA_CLI), "-a", "sha256", "-c", "--quiet", str(local_sums)],
                           cwd=tree, capture_output=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_scheduler_address(tree, tmp_path):
    """A scheduler and a worker started as a real deployment starts them
    (the `dask` command), listening on 127.0.0.1 only."""
    dask_cmd = Path(sys.executable).parent / "dask"
    if not dask_cmd.exists():
        pytest.skip(f"no `dask` command beside {sys.executable}")
    sched_file = tmp_path / "scheduler.json"
    common = ["--no-dashboard"]
    procs = []
    try:
        procs.append(subprocess.Popen(
            [str(dask_cmd), "scheduler", "--host", "127.0.0.1", "--port", "0",
             "--scheduler-file", str(sched_file), *common],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        deadline = time.monotonic() + 60
        while not sched_file.exists() or not sched_file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            assert procs[0].poll() is None, "the scheduler exited"
            time.sleep(0.2)
        time.sleep(0.2)
        address = json.loads(sched_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        procs.append(subprocess.Popen(
            [str(dask_cmd), "worker", address, "--host", "127.0.0.1", "--nworkers", "1",
             "--nthreads", "2", *common],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        check_output(tree, run_example(tree, "--scheduler", address))
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
