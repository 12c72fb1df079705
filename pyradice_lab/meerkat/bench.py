"""Benchmark rows of Meerkat Kingdom (``pyradice-lab bench --games meerkat``).

Issue 27: the search players' CPU per game as a ratio to expectimax's, in one run (:func:`search_cost_cases`;
target: at most 20x; met by the report player ``mcts_v2``).
"""

from __future__ import annotations

import numpy as np

from ..engine.benchcase import BenchCase, jit_disabled, run_python, sized
from .kernel import GAME_COLUMNS, SEAT_COLUMNS, run_games  # at import: the reference timing excludes imports
from .sim import _default_setup, _seat_config, _tapes

__all__ = ["bench_cases", "games_kernel", "compile_seconds", "first_call_cold", "STRONGEST", "cpu_per_game",
           "search_cost_cases"]

#: The strongest registered player, at its default budget (:mod:`.search`).
STRONGEST = "mcts"


def games_kernel(n_games: int = 200, players: int = 3, policy="greedy", automa: bool = False,
                 seed: int = 0) -> int:
    """Play ``n_games`` seeded games through the game kernel (no DataFrame); returns the games played.
    ``policy``: one policy for every player or a list (one per player).

    Under ``NUMBA_DISABLE_JIT=1`` this is the pure-Python one-game-at-a-time reference path.
    """
    st = _default_setup()
    n, pols, prm, _ = _seat_config(players, automa, policy)
    tapes = _tapes(np.random.default_rng(seed), n_games)
    seat_out = np.zeros((n_games, 4, len(SEAT_COLUMNS)), np.int64)
    game_out = np.zeros((n_games, len(GAME_COLUMNS)), np.int64)
    tile_out = np.zeros((n_games, 10, 2), np.int64)
    return int(run_games(tapes, n, automa, pols, prm, st.V, st.K, st.bags, st.nblue, st.nbrown,
                         st.comp.male_start_tile, st.pos_adj, st.oasis, st.comp.shuffle_tiles, seat_out, game_out,
                         tile_out))


def cpu_per_game(n_games: int, policy, seed: int = 0):
    """:func:`games_kernel` of ``n_games`` 2 players + automa games, ``policy`` in seat 0 against the heuristic
    in seat 1, as a :class:`~pyradice_lab.engine.benchcase.Measured` of CPU seconds (this process)."""
    import time

    from ..engine.benchcase import Measured

    t0 = time.process_time()
    games_kernel(n_games, 2, [policy, "heuristic"], True, seed)
    return Measured(n_games, time.process_time() - t0)


def search_cost_cases(quick: bool = False) -> list[BenchCase]:
    """Issue 27's rows: the search players' CPU per game against expectimax's in one run (2 players + automa, the
    player in seat 0 against the heuristic, the same seeds); target: at most 20x (``min_ratio`` 1/20), met by
    ``mcts_v2`` (the report player: the late search on the tuned players, stronger than ``mcts``), ``mcts_late``
    (about the limit) and ``mcts_cut`` (truncated rollouts, weaker), not by ``mcts`` (every turn searched)."""
    n_base = sized(200 if quick else 800, tiny=2)

    def warm():
        games_kernel(1, 2, [STRONGEST, "heuristic"], True)  # compiles the kernel with the search: untimed

    ref = "expectimax in seat 0, same seeds, CPU"
    return [BenchCase(f"meerkat {p} vs expectimax CPU per game (2 players + automa, seat 0 vs heuristic)", "games",
                      lambda p=p, n=n: cpu_per_game(n, p), lambda: cpu_per_game(n_base, "expectimax"), ref,
                      setup=warm, min_ratio=1 / 20, cpu=True, game="meerkat", repeat=1)
            for p, n in (("mcts_v2", sized(8 if quick else 30, tiny=1)), ("mcts_late", sized(8 if quick else 30, tiny=1)),
                         ("mcts_cut", sized(8 if quick else 30, tiny=1)),
                         (STRONGEST, sized(2 if quick else 6, tiny=1)))]


def _fresh_process(code: str) -> dict:
    """Run ``code`` in a fresh interpreter with an empty numba cache directory; returns the JSON dict the code
    prints last, plus ``cpu`` (user + system CPU seconds of the whole child process, all threads, interpreter
    start-up included) and ``wall`` (seconds, as seen from the parent)."""
    import json
    import tempfile
    import time

    tail = ("\nimport json as _j, resource as _r\n_u = _r.getrusage(_r.RUSAGE_SELF)\n"
            "print(_j.dumps({**globals().get('OUT', {}), 'cpu': _u.ru_utime + _u.ru_stime}))\n")
    with tempfile.TemporaryDirectory(prefix="meerkat_numba_") as tmp:
        t0 = time.perf_counter()
        out = run_python(code + tail, env={"NUMBA_CACHE_DIR": tmp, "NUMBA_DISABLE_JIT": "0"}, check=True)
        wall = time.perf_counter() - t0
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "wall": wall}


FIRST_CALL = ("from pyradice_lab import meerkat\n"
              "df = meerkat.simulate_games(100, rng=0)\n"
              "from pyradice_lab.meerkat.sim import compiled_engine_ready\n"
              "OUT = {'games': len(df), 'compiled': compiled_engine_ready()}\n")


def first_call_cold() -> dict:
    """What a new user waits for: ``import pyradice_lab.meerkat`` and ``simulate_games(100)`` (3 greedy players,
    engine ``auto``) in a fresh interpreter with an empty numba cache.  Returns ``cpu`` and ``wall`` seconds of
    the whole process and whether the compiled engine was built (``compiled``)."""
    return _fresh_process(FIRST_CALL)


def compile_seconds() -> float:
    """CPU seconds to compile the game kernel in a fresh interpreter with an empty numba cache directory."""
    code = "from pyradice_lab.meerkat.bench import games_kernel\ngames_kernel(1)\n"
    return float(_fresh_process(code)["cpu"])


def bench_cases(quick: bool = False) -> list[BenchCase]:
    from .odds import _success, placement_table
    from .scoring import score_tile

    rng = np.random.default_rng(0)
    counts = rng.integers(0, 7, size=(sized(200_000 if quick else 1_000_000, tiny=100), 4))

    def tiles():
        score_tile(counts, values=(8, 4, 2))
        return len(counts)

    n_fast = sized(60 if quick else 300, tiny=6)

    def warm():
        games_kernel(1)  # compiles on the first call (or loads numba's cache): untimed

    def odds():
        _success.cache_clear()  # success_table's cache (keyed on the components' dice constants)
        placement_table()
        return 40

    cases = [
        BenchCase("meerkat.score_tile (4 players, 3 values)", "tile scorings", tiles, setup=lambda: score_tile([1, 2]),
                  min_rate=1e7, game="meerkat"),
        BenchCase("meerkat games (3 players, greedy)", "games", lambda: games_kernel(n_fast, 3, "greedy"),
                  jit_disabled("pyradice_lab.meerkat.bench:games_kernel", n_games=sized(10, tiny=1), players=3,
                               policy="greedy"),
                  "same kernel, NUMBA_DISABLE_JIT=1 (pure Python, one game at a time)", setup=warm,
                  min_ratio=20, game="meerkat"),
        BenchCase("meerkat games (2 players + automa, random_legal)", "games",
                  lambda: games_kernel(n_fast * 10, 2, "random_legal", True),
                  jit_disabled("pyradice_lab.meerkat.bench:games_kernel", n_games=sized(30, tiny=1), players=2,
                               policy="random_legal", automa=True),
                  "same kernel, NUMBA_DISABLE_JIT=1 (pure Python, one game at a time)", setup=warm,
                  min_ratio=20, game="meerkat"),
        BenchCase("meerkat games (2 players + automa, expectimax)", "games",
                  lambda: games_kernel(n_fast // 6, 2, "expectimax", True),
                  jit_disabled("pyradice_lab.meerkat.bench:games_kernel", n_games=sized(2, tiny=1), players=2,
                               policy="expectimax",
                               automa=True),
                  "same kernel, NUMBA_DISABLE_JIT=1 (pure Python, one game at a time)", setup=warm,
                  min_ratio=20, game="meerkat"),
        BenchCase(f"meerkat games (2 players + automa, {STRONGEST} vs heuristic)", "games",
                  lambda: games_kernel(sized(2 if quick else 6, tiny=1), 2, [STRONGEST, "heuristic"], True), setup=warm,
                  game="meerkat", repeat=1),
        BenchCase(f"meerkat games (3 players, {STRONGEST} in every seat)", "games",
                  lambda: games_kernel(sized(1 if quick else 3, tiny=1), 3, STRONGEST), setup=warm, game="meerkat", repeat=1),
        BenchCase("meerkat.placement_table (exact, 40 cells)", "cells", odds, max_seconds=2.0, game="meerkat"),
        BenchCase("meerkat first simulate_games(100), cold cache (CPU s)", "calls",
                  lambda: (1, first_call_cold()["cpu"]), max_seconds=3.0, game="meerkat", repeat=1),
        BenchCase("meerkat simulate_games (3 players, greedy) vs readable engine", "games",
                  lambda: _simulate(n_fast, "numba"), lambda: _simulate(sized(3, tiny=1), "python"),
                  "the readable pure-Python engine (engine='python'), one game at a time", setup=warm,
                  min_ratio=10, game="meerkat"),
    ]
    cases += search_cost_cases(quick)
    if not quick:
        cases.append(BenchCase("meerkat numba cold compile of the game kernel (CPU s)", "compiles",
                               lambda: (1, compile_seconds()), game="meerkat", repeat=1))
    return cases


def _simulate(n_games: int, engine: str) -> int:
    from .sim import simulate_games

    simulate_games(n_games, players=3, policies="greedy", rng=1, engine=engine)
    return n_games
