"""Where the compiled Meerkat kernel spends its CPU, by function: a `perf` profile symbolised with the kernel's own
addresses (issue 47; how the reference counts were found, docs/guide/meerkat.md, "No reference counting inside the
kernel").

`perf` cannot name numba's functions (no symbol table for code compiled at run time).  This script compiles the
kernel afresh (an empty ``NUMBA_CACHE_DIR``: code loaded from the cache keeps no function list), reads the address
of every function of the compiled library, plays the games under ``perf record`` and maps each sample onto the
function it falls in.  Functions inlined into their caller count as the caller; ``NRT_incref`` / ``NRT_decref``
are numba's reference counts.

Usage (Linux with ``perf``; about 60 s, most of it the compile)::

    python experiments/research/meerkat_kernel_profile.py --players 4 --games 15 --policies mcts_v2

Prints the share of the mapped samples per function, the largest first.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile
import time


def _play(players: int, games: int, policies: str, addr_file: str) -> None:
    """In the profiled process: compile and warm, write the functions' addresses, then play the timed games."""
    from numba.core.runtime import nrt

    from pyradice_lab.meerkat import analysis as A, kernel

    A.seat_advantage([(players, False)], 2, rng=1, engine="numba", policies=policies)
    addrs = []
    for cres in kernel.run_games.overloads.values():
        lib = cres.library
        for fn in lib._final_module.functions:
            if not fn.is_declaration:
                try:
                    addrs.append((lib.get_pointer_to_function(fn.name), fn.name))
                except Exception:  # noqa: BLE001 - a function the library does not export
                    pass
    for name in ("NRT_incref", "NRT_decref"):
        addrs.append((nrt.rtsys.library.get_pointer_to_function(name), name))
    with open(addr_file, "w") as f:
        f.writelines(f"{a:x} {n}\n" for a, n in sorted(addrs) if a)
    c = time.process_time()
    A.seat_advantage([(players, False)], games, rng=1, engine="numba", policies=policies)
    print(f"{(time.process_time() - c) / games * 1000:.1f} ms CPU a game ({players} players, {policies})")


def _short(name: str) -> str:
    """``module.function`` of a mangled name (``_ZN12pyradice_lab7meerkat5rules11rank_pointsB3v52...``: lengths
    and names, then numba's tags)."""
    m = re.match(r"_ZN(?:7cpython)?", name)
    if not m:
        return name
    parts, i = [], m.end()
    while i < len(name) and name[i].isdigit():
        n = re.match(r"\d+", name[i:]).group()
        parts.append(name[i + len(n):i + len(n) + int(n)])
        i += len(n) + int(n)
    return ".".join(parts[-2:]) if len(parts) >= 2 else name


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=15)
    ap.add_argument("--policies", default="mcts_v2")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--addr-file", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _play(args.players, args.games, args.policies, args.addr_file)
        return 0
    with tempfile.TemporaryDirectory(prefix="meerkat_profile_") as tmp:
        addr_file, data = os.path.join(tmp, "addrs.txt"), os.path.join(tmp, "perf.data")
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
        subprocess.run(["perf", "record", "-q", "-o", data, sys.executable, __file__, "--child", "--addr-file",
                        addr_file, "--players", str(args.players), "--games", str(args.games), "--policies",
                        args.policies], env=env, check=True)
        ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True, text=True,
                             check=True).stdout.split()
        table = sorted((int(a, 16), n) for a, n in (line.split(maxsplit=1) for line in open(addr_file)))
    starts = [a for a, _ in table]
    counts: collections.Counter = collections.Counter()
    for ip in (int(x, 16) for x in ips):
        i = bisect.bisect_right(starts, ip) - 1
        if i >= 0 and ip - starts[i] < 20000:  # inside the kernel's code (or just past its last function)
            counts[_short(table[i][1].strip())] += 1
    total = sum(counts.values())
    print(f"{total:,} samples in the kernel's functions")
    for name, k in counts.most_common(args.top):
        print(f"{100 * k / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
