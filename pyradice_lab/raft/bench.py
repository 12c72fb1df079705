"""Benchmark rows of Rocking Raft (``pyradice-lab bench --games raft``).

- ``raft.tilt``: tilts per second of the numba kernel behind :func:`~pyradice_lab.raft.tilt` (target
  >= 1 million per second on one core) against the same kernel with ``NUMBA_DISABLE_JIT=1``, one tilt
  per call (the pure-Python one-tilt-at-a-time path).
- ``raft.simulate_games``: games per second of the numpy batch engine against the readable rules
  engine playing the same games one at a time.
- ``raft.simulate_games (exact)``: games per second of the strongest player (``exact``, the expected-points
  player of :mod:`.expectimax`, in every seat) in the batch engine against the readable engine.
- ``raft.tilt cold compile``: seconds to compile the tilt kernel in a fresh interpreter with an empty
  numba cache (the only compiled code of the package).
"""

from __future__ import annotations

import tempfile
import time

from ..engine.benchcase import BenchCase, jit_disabled, run_python, sized

__all__ = ["bench_cases", "cold_compile_seconds"]

_COLD = ("import time, numpy as np\n"
         "from pyradice_lab.raft import tilting\n"
         "s = tilting.reference_state(4)\n"
         "t = time.perf_counter(); tilting.tilt(s, 'north', 'centre', 1.0, n=1, rng=0)\n"
         "print(time.perf_counter() - t)\n")


def cold_compile_seconds() -> float:
    """Compile time of the tilt kernel in a fresh interpreter with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        out = run_python(_COLD, env={"NUMBA_CACHE_DIR": cache}, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def bench_cases(quick: bool = False) -> list[BenchCase]:
    from .sim import simulate_games
    from .tilting import reference_state, tilt

    state = reference_state(4)
    n = sized(100_000 if quick else 400_000, tiny=10)
    tilt(state, "north", "centre", 1.0, n=10, rng=0)  # compile (or load from the cache) before timing

    def fast_tilts():
        tilt(state, "north", "centre", 1.0, n=n, rng=1)
        return n

    games = sized(128 if quick else 512, tiny=2)
    simulate_games(4, 3, rng=0)

    def fast_games():
        simulate_games(games, 3, rng=2)
        return games

    slow_n = sized(8, tiny=1)

    def slow_games():
        t = time.perf_counter()
        simulate_games(slow_n, 3, rng=2, engine="rules")
        return slow_n, time.perf_counter() - t

    exact_games = sized(32 if quick else 128, tiny=1)
    simulate_games(2, 3, policies="exact", rng=0)

    def fast_exact():
        simulate_games(exact_games, 3, policies="exact", rng=2)
        return exact_games

    slow_exact_n = sized(4, tiny=1)

    def slow_exact():
        t = time.perf_counter()
        simulate_games(slow_exact_n, 3, policies="exact", rng=2, engine="rules")
        return slow_exact_n, time.perf_counter() - t

    def cold():
        secs = cold_compile_seconds()
        return 1, secs

    return [
        BenchCase("raft.tilt (4-player layout, north/centre, 1 s)", "tilts", fast_tilts,
                  jit_disabled("pyradice_lab.raft.tilting:reference_tilts", n=sized(500 if quick else 2000, tiny=2)),
                  "same kernel, NUMBA_DISABLE_JIT=1, one tilt per call", min_rate=1e6, min_ratio=20, game="raft"),
        BenchCase("raft.simulate_games (3 players, greedy)", "games", fast_games, slow_games,
                  "readable rules engine, one game at a time", min_ratio=2, game="raft", repeat=1 if quick else 2),
        BenchCase("raft.simulate_games (3 players, exact: the strongest player)", "games", fast_exact, slow_exact,
                  "readable rules engine, one game at a time", min_ratio=1, game="raft", repeat=1),
        BenchCase("raft.tilt cold compile (empty numba cache)", "compiles", cold, None, "", max_seconds=5.0,
                  game="raft", repeat=1),
    ]
