#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hash every file under DIR on a Dask cluster; print sha256sum lines.

    python examples/dask_hash_tree.py DIR [--scheduler tcp://HOST:8786]
           [-a sha256] [--workers 2] [--threads 2]

Without --scheduler a LocalCluster on 127.0.0.1 (worker processes on this
machine) stands in for a real cluster: the code that plans, submits and
gathers is the same either way. The output is GNU's format with paths
relative to DIR (and GNU's escaping of backslash, newline and carriage
return in names), so `cd DIR && sha256sum -c` (or `fastsha -a sha256 -c`)
verifies it. Lines come out sorted by path; the work runs largest files
first.

How the work is cut: one SHA stream cannot be split, so the largest file
bounds the run; files are sorted by size, largest first, and packed into
tasks of about --batch-mib MiB (a big file is a task of its own, small
ones share one, so thousands of tiny files do not cost a scheduler round
trip each). Each task calls fastsha.files(), which opens, reads and hashes
in C with the GIL released, so a worker's threads hash in parallel.

On a real cluster every worker must see DIR under the same path (a shared
filesystem) and have fastsha installed: one abi3 wheel fits every
CPython >= 3.11. Needs `pip install "dask[distributed]"`.
"""

import argparse
import os
import stat
import sys

from dask.distributed import Client, LocalCluster


def hash_batch(root, relpaths, algorithm):
    """Runs on a worker: (relpath, hex digest or None, error or None) per file."""
    import fastsha

    paths = [os.path.join(root, r) for r in relpaths]
    try:
        digests = fastsha.files(paths, algorithm)
        return [(r, d.hex(), None) for r, d in zip(relpaths, digests)]
    except OSError:
        pass  # one file failed: hash them one by one to say which
    out = []
    for r, p in zip(relpaths, paths):
        try:
            out.append((r, fastsha.file(p, algorithm).hex(), None))
        except OSError as e:
            out.append((r, None, e.strerror or str(e)))
    return out


def scan(root):
    """(relative path, size) of every regular file under root, paths as
    bytes (any name the filesystem holds); symbolic links to files are
    included, as sha256sum would read them."""
    found = []
    for d, dirs, names in os.walk(root):
        dirs.sort()
        for n in names:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, root)
            try:
                st = os.stat(p)
            except OSError as e:
                warn(rel, e.strerror)
                continue
            if not stat.S_ISREG(st.st_mode):
                warn(rel, "not a regular file, skipped")
                continue
            found.append((rel, st.st_size))
    return found


def plan(files, batch_bytes, batch_files=512):
    """Largest first; consecutive files packed until a batch holds
    batch_bytes or batch_files."""
    files = sorted(files, key=lambda f: (-f[1], f[0]))
    batches, cur, size = [], [], 0
    for rel, n in files:
        cur.append(rel)
        size += n
        if size >= batch_bytes or len(cur) >= batch_files:
            batches.append(cur)
            cur, size = [], 0
    if cur:
        batches.append(cur)
    return batches


def gnu_line(hexdigest, rel):
    """One line as sha256sum prints it: a leading backslash and escapes
    when the name holds a backslash, newline or carriage return."""
    esc = rel.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")
    lead = b"\\" if esc != rel else b""
    return lead + hexdigest.encode() + b"  " + esc + b"\n"


def warn(rel, msg):
    print(f"{os.path.basename(sys.argv[0])}: {os.fsdecode(rel)}: {msg}", file=sys.stderr)


def run(client, root, algorithm, batch_bytes):
    batches = plan(scan(root), batch_bytes)
    # Higher priority runs first: the biggest work is submitted and started
    # first, the small-file batches fill in around it.
    futures = [client.submit(hash_batch, root, b, algorithm, priority=len(batches) - i,
                             pure=False)
               for i, b in enumerate(batches)]
    results = [r for batch in client.gather(futures) for r in batch]
    ok = True
    out = sys.stdout.buffer
    for rel, digest, err in sorted(results):
        if err is None:
            out.write(gnu_line(digest, rel))
        else:
            warn(rel, err)
            ok = False
    out.flush()
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", help="the directory to hash")
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786 "
                         "(default: a LocalCluster on 127.0.0.1)")
    ap.add_argument("-a", "--algorithm", default="sha256",
                    choices=["sha1", "sha224", "sha256", "sha384", "sha512"])
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster worker processes")
    ap.add_argument("--threads", type=int, default=2, help="LocalCluster threads per worker")
    ap.add_argument("--batch-mib", type=float, default=64.0,
                    help="bytes of files per task, in MiB (default 64)")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.dir):
        ap.error(f"not a directory: {args.dir}")
    root = os.fsencode(os.path.abspath(args.dir))  # as the workers will open it
    batch_bytes = int(args.batch_mib * 1024 * 1024)
    if args.scheduler:
        with Client(args.scheduler) as client:
            return 0 if run(client, root, args.algorithm, batch_bytes) else 1
    with LocalCluster(n_workers=args.workers, threads_per_worker=args.threads,
                      processes=True, host="127.0.0.1", dashboard_address=None) as cluster, \
            Client(cluster) as client:
        return 0 if run(client, root, args.algorithm, batch_bytes) else 1


if __name__ == "__main__":  # required: LocalCluster's workers are spawned processes
    sys.exit(main())
