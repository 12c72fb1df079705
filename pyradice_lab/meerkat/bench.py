"""Benchmark rows of Meerkat Kingdom (``pyradice-lab bench --games meerkat``)."""

from __future__ import annotations

import numpy as np

from ..bench import BenchCase, jit_disabled

__all__ = ["bench_cases", "games_kernel", "compile_seconds"]


def games_kernel(n_games: int = 200, players: int = 3, policy: str = "greedy", automa: bool = False,
                 seed: int = 0) -> int:
    """Play ``n_games`` seeded games through the game kernel (no DataFrame); returns the games played.

    Under ``NUMBA_DISABLE_JIT=1`` this is the pure-Python one-game-at-a-time reference path.
    """
    from .kernel import GAME_COLUMNS, SEAT_COLUMNS, run_games
    from .sim import _default_setup, _seat_config, _tapes

    st = _default_setup()
    n, pols, prm, _ = _seat_config(players, automa, policy)
    tapes = _tapes(np.random.default_rng(seed), n_games)
    seat_out = np.zeros((n_games, 4, len(SEAT_COLUMNS)), np.int64)
    game_out = np.zeros((n_games, len(GAME_COLUMNS)), np.int64)
    tile_out = np.zeros((n_games, 10, 2), np.int64)
    return int(run_games(tapes, n, automa, pols, prm, st.V, st.K, st.bags, st.nblue, st.nbrown,
                         st.comp.male_start_tile, st.pos_adj, st.oasis, st.comp.shuffle_tiles, seat_out, game_out,
                         tile_out))


def compile_seconds() -> float:
    """Seconds to compile the game kernel in a fresh interpreter with an empty numba cache directory."""
    import os
    import subprocess
    import sys
    import tempfile
    import time

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        code = "from pyradice_lab.meerkat.bench import games_kernel; games_kernel(1)"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
        return time.perf_counter() - t0


def bench_cases(quick: bool = False) -> list[BenchCase]:
    from .odds import placement_table, success_table
    from .scoring import score_tile

    rng = np.random.default_rng(0)
    counts = rng.integers(0, 7, size=(200_000 if quick else 1_000_000, 4))

    def tiles():
        score_tile(counts, values=(8, 4, 2))
        return len(counts)

    n_fast = 60 if quick else 300

    def warm():
        games_kernel(1)  # compiles on the first call (or loads numba's cache): untimed

    def odds():
        success_table.cache_clear()
        placement_table()
        return 40

    return [
        BenchCase("meerkat.score_tile (4 players, 3 values)", "tile scorings", tiles, setup=lambda: score_tile([1, 2]),
                  min_rate=1e7, game="meerkat"),
        BenchCase("meerkat games (3 players, greedy)", "games", lambda: games_kernel(n_fast, 3, "greedy"),
                  jit_disabled("pyradice_lab.meerkat.bench:games_kernel", n_games=3, players=3, policy="greedy"),
                  "same kernel, NUMBA_DISABLE_JIT=1 (pure Python, one game at a time)", setup=warm,
                  min_ratio=20, game="meerkat"),
        BenchCase("meerkat games (2 players + automa, random_legal)", "games",
                  lambda: games_kernel(n_fast * 10, 2, "random_legal", True),
                  jit_disabled("pyradice_lab.meerkat.bench:games_kernel", n_games=30, players=2,
                               policy="random_legal", automa=True),
                  "same kernel, NUMBA_DISABLE_JIT=1 (pure Python, one game at a time)", setup=warm,
                  min_ratio=20, game="meerkat"),
        BenchCase("meerkat.placement_table (exact, 40 cells)", "cells", odds, max_seconds=2.0, game="meerkat"),
        BenchCase("meerkat simulate_games (3 players, greedy) vs readable engine", "games",
                  lambda: _simulate(n_fast, "numba"), lambda: _simulate(3, "python"),
                  "the readable pure-Python engine (engine='python'), one game at a time", setup=warm,
                  min_ratio=10, game="meerkat"),
    ]


def _simulate(n_games: int, engine: str) -> int:
    from .sim import simulate_games

    simulate_games(n_games, players=3, policies="greedy", rng=1, engine=engine)
    return n_games
