"""Benchmark rows of Pyradice (``pyradice-lab bench --games pyradice``).

- full games, 2 players, greedy: the compiled kernels against the same code with the JIT disabled, one game at a
  time (:func:`pyradice_lab.bench.jit_disabled`), target ratio >= 20, and against the readable rules engine a
  user would otherwise run (``engine="python"``), target ratio >= 10;
- full games, 2 players, lookahead and random_legal: rates only;
- batched availability (numpy index arrays) against a pure-Python face count one quarry at a time;
- the numba cold compile of the game kernel (fresh cache directory, in a subprocess).
"""

from __future__ import annotations

import numpy as np

from ..bench import BenchCase, jit_disabled

__all__ = ["bench_cases", "reference_games", "cold_compile", "python_availability"]


def reference_games(n_games: int = 1, policy: str = "greedy", players: int = 2) -> int:
    """Play ``n_games`` one at a time through the kernels (run under NUMBA_DISABLE_JIT=1 by the bench)."""
    from .sim import simulate_games

    for i in range(n_games):
        simulate_games(1, players, None, policy, rng=1000 + i, engine="fast")
    return n_games


def python_availability(occupied: np.ndarray, players: int = 2) -> np.ndarray:
    """Availability one quarry and one die at a time in plain Python (the bench's reference path)."""
    from .geometry import quarry_geometry

    geom = quarry_geometry(players)
    out = np.zeros(occupied.shape, dtype=bool)
    for b in range(occupied.shape[0]):
        occ = occupied[b].tolist() + [False]
        for i in range(geom.n):
            if not occ[i]:
                continue
            faces = sum(not occ[j] for j in geom.sides[i].tolist()) + (not any(occ[j] for j in geom.covers[i].tolist()))
            out[b, i] = faces >= 3
    return out


def cold_compile() -> tuple[int, float]:
    """Seconds to compile the game kernels with an empty numba cache (subprocess, temporary cache dir)."""
    import os
    import subprocess
    import sys
    import tempfile

    code = ("import time, json\nfrom pyradice_lab.pyradice.sim import simulate_games\n"
            "t = time.perf_counter(); simulate_games(1, 2, None, 'greedy', rng=0, engine='fast')\n"
            "print(json.dumps(time.perf_counter() - t))\n")
    with tempfile.TemporaryDirectory(prefix="pyradice_numba_") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    return 1, float(out.stdout.strip().splitlines()[-1])


def bench_cases(quick: bool = False) -> list[BenchCase]:
    from .quarry import availability
    from .sim import simulate_games

    n = 40 if quick else 200
    simulate_games(2, 2, None, "greedy", rng=0, engine="fast")        # compile (or load the cache) untimed
    counter = {"seed": 0}

    def games(policy: str):
        def run() -> int:
            counter["seed"] += 1
            simulate_games(n, 2, None, policy, rng=counter["seed"], engine="fast")
            return n
        return run

    rng = np.random.default_rng(0)
    occ = rng.random((2000 if quick else 20000, 47)) < 0.6

    def avail_fast() -> int:
        availability(occ, 2)
        return len(occ)

    small = occ[:200]

    def avail_ref() -> int:
        python_availability(small, 2)
        return len(small)

    def readable() -> int:
        counter["seed"] += 1
        simulate_games(2, 2, None, "greedy", rng=counter["seed"], engine="python")
        return 2

    cases = [
        BenchCase("pyradice full game, 2p greedy (numba)", "games", games("greedy"),
                  jit_disabled("pyradice_lab.pyradice.bench:reference_games", n_games=1, policy="greedy"),
                  "same kernels, NUMBA_DISABLE_JIT=1, one game at a time", min_ratio=20, game="pyradice"),
        BenchCase("pyradice full game, 2p greedy (numba) vs readable engine", "games", games("greedy"), readable,
                  "readable rules engine (engine='python'), one game at a time", min_ratio=10, game="pyradice"),
        BenchCase("pyradice full game, 2p lookahead (numba)", "games", games("lookahead"), game="pyradice"),
        BenchCase("pyradice full game, 2p random_legal (numba)", "games", games("random_legal"), game="pyradice"),
        BenchCase("pyradice availability, batched numpy (47 dice)", "quarries", avail_fast, avail_ref,
                  "pure-Python face count, one quarry at a time", min_ratio=20, game="pyradice"),
    ]
    if not quick:
        cases.append(BenchCase("pyradice numba cold compile (empty cache)", "compiles", cold_compile,
                               max_seconds=15.0, game="pyradice", repeat=1))
    return cases
