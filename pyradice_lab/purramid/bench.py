"""Purramid benchmark rows for ``pyradice-lab bench --games purramid``.

- the full 4095 x 5 burst table, warm (target <= 50 ms), split into its arithmetic (:func:`.odds.burst_counts`)
  and the pandas table construction; with icepool installed, the arithmetic against icepool computing the
  same counts (one ``evaluate`` per dice count; the row is left out when icepool is not installed);
- the exact value of a fresh 5-dice turn on the empty side A, cold (memo cleared; target <= 2 s);
- a later ``advise`` call in the same turn (target <= 100 ms);
- the random core: roll 5 dice + "can anything be placed" on the empty side A, against the raw draw of the
  same random numbers (one uniform roll code in 0..7775 per roll; targets >= 30 M rolls/s and >= 0.25 of
  the raw draw);
- four-player games with the greedy policy, compiled, against the same code with ``NUMBA_DISABLE_JIT=1``
  (target ratio >= 30) and against the readable rules engine (:func:`.rules.play_game`, the engine a user
  would otherwise run; target ratio >= 10);
- batched Monte Carlo of optimal turns (no target; for scale);
- the compiled exact solver (issue 11): a fresh 5-dice turn on the empty side A with ``bonus="exact"``
  (cold memo, compiled code loaded; target <= 3 s) against the readable Python solver doing the same solve
  (``--quick``: the board with its bottom row covered, so the reference takes seconds, not a minute);
  a fresh turn on a typical mid-game board with ``bonus="auto"`` (cold memo; target <= 20 ms);
- four-player games with optimal seats on 2 worker processes (wall time, no openings file): the first 16 games
  of a new pool, its start-up included (no target); then, on a started pool whose memos carry 16 earlier games
  of other seeds, all four seats optimal (goal >= 10 all-optimal games/s on 2 cores) and one optimal seat
  against three ``risk:0.35`` (:func:`worker_pool_cases`);
- issues 27 and 47: all-optimal against all-greedy 4-player games, CPU per game as a ratio in one run (1 thread):
  with no openings file, the memo carried from 16 earlier untimed games (no target); the cost of building the
  solved openings of side A once, as a user's first long run does (256 games of other seeds, their memo's
  openings file written to a temporary folder); then games whose memo starts from that file (issue 47's
  targets: >= 100 games per CPU-second and a ratio >= 1/30); the first 16 all-optimal games of a new process (no
  target, no openings file, the compiled code from the caches); and ``advise`` on 20 new mid-game boards of
  side A, p90 of the CPU per call (the solver warm: compiled, its memo holding the opening; target <= 30 ms).

The first call with an empty numba cache and the peak memory of many games are rows every game gets
(:func:`pyradice_lab.bench.game_cases`).
"""

from __future__ import annotations

import contextlib
import os

import numpy as np

from ..engine.benchcase import BenchCase, jit_disabled, sized
from . import memopool

__all__ = ["bench_cases", "icepool_burst_counts", "readable_games"]


def icepool_burst_counts(max_dice: int = 5) -> np.ndarray:
    """:func:`.odds.burst_counts` for the numbers 1..12 computed with icepool (a peer library; not a
    dependency): icepool evaluates the distribution of the reachable sums of a pool of ``n`` d6 (one
    ``evaluate`` per dice count, a fresh evaluator each call so nothing is cached between calls), and the
    same zeta transform turns it into burst counts per target set."""
    import icepool

    class Reach(icepool.MultisetEvaluator):
        """Bit ``s`` set iff some sub-multiset of the dice sums to ``s`` (sums 1..12 kept)."""

        def next_state(self, state, order, outcome, count):
            s = 0 if state is None else state
            for _ in range(count):
                s = (s | (s << outcome) | (1 << outcome)) & 0x1FFE
            return s

        def final_outcome(self, state, *args):
            return 0 if state is None else state

    m = 12
    full = (1 << m) - 1
    subsets = np.arange(1, 1 << m)
    out = np.empty((len(subsets), max_dice), dtype=np.int64)
    for n in range(1, max_dice + 1):
        f = np.zeros(1 << m, dtype=np.int64)
        for mask, q in Reach().evaluate(icepool.d6.pool(n)).items():
            f[mask >> 1] += q  # bit s of the sums -> bit s - 1 of the numbers 1..12
        for j in range(m):
            f = f.reshape(-1, 2, 1 << j)
            f[:, 1, :] += f[:, 0, :]
            f = f.reshape(-1)
        out[:, n - 1] = f[full ^ subsets]
    return out


def readable_games(n_games: int = 2, players: int = 4, seed: int = 1) -> int:
    """Bench reference: ``n_games`` greedy games played one at a time by the readable rules engine
    (:func:`.rules.play_game`, no transcript); returns the games played."""
    from ..engine.rng import spawn
    from .rules import play_game

    for gen in spawn(seed, n_games):
        play_game(players, "A", policies="greedy", rng=gen, trace=False)
    return n_games


def bench_cases(quick: bool = False) -> list[BenchCase]:
    from . import advisor
    from .components import load_layout
    from .odds import _burst_frame, burst_counts, burst_table
    from .sim import games_bench_run
    from .turns import placeable_rolls, placeable_table, simulate_turns

    cases = []

    def table():
        burst_table()
        return 1

    burst_table()
    cases.append(BenchCase("purramid burst_table 4095 x 5 (warm)", "tables", table, max_seconds=0.05,
                           game="purramid"))

    def counts():
        burst_counts()
        return 1

    counted = burst_counts()
    nums = list(range(1, 13))

    def frame():
        _burst_frame(counted, nums)
        return 1

    cases.append(BenchCase("purramid burst_table: the arithmetic (burst_counts)", "tables", counts,
                           game="purramid"))
    cases.append(BenchCase("purramid burst_table: the pandas table from the counts", "tables", frame,
                           game="purramid"))
    try:
        import icepool  # noqa: F401 - a peer for comparison only, never a dependency
    except ImportError:
        pass
    else:
        def peer():
            icepool_burst_counts()
            return 1

        cases.append(BenchCase("purramid burst_counts 4095 x 5 vs icepool", "tables", counts, peer,
                               f"icepool {icepool.__version__}: same counts, one evaluate per dice count",
                               game="purramid"))

    def clear():
        advisor.clear_cache()

    board = sized(0, tiny=load_layout("A").bottom_rows_mask(8))  # empty (inside ``tiny()``: almost full)

    def fresh():
        advisor.solver_for("A").fresh(board, 5, 0)
        return 1

    cases.append(BenchCase("purramid advisor: fresh 5-dice turn, empty side A (cold)", "solves", fresh,
                           setup=clear, max_seconds=2.0, game="purramid", repeat=2))

    def later():
        advisor.advise("A", placed=[(0, 3)], dice_left=4, roll=[2, 3, 5, 6])
        advisor.advise("A", placed=[(0, 3), (0, 4)], dice_left=3)
        return 2

    advisor.advise("A", dice_left=5, roll=[1, 2, 3, 4, 6])
    cases.append(BenchCase("purramid advise: later calls in the same turn", "calls", later, max_seconds=0.1,
                           game="purramid"))

    n = sized(1_000_000 if quick else 4_000_000, tiny=100)
    tab = placeable_table("A", 0, 0, 5)
    gen = np.random.default_rng(7)
    raw_gen = np.random.default_rng(8)

    def core():
        placeable_rolls(n, tab, rng=gen)
        return n

    def raw():  # exactly the draw placeable_rolls makes: one roll code per roll
        raw_gen.integers(0, len(tab), size=n, dtype=np.int16)
        return n

    cases.append(BenchCase("purramid roll + placeable? (5 dice, side A)", "rolls", core, raw,
                           "the same draw alone: one code in 0..7775 per roll", min_ratio=0.25, min_rate=30e6,
                           game="purramid"))

    n_games = sized(100 if quick else 400, tiny=1)
    games_bench_run(2)  # compile (or load the cache) outside the timing

    def games():
        return games_bench_run(n_games, 4, 1)

    cases.append(BenchCase("purramid 4-player games, greedy (numba)", "games", games,
                           jit_disabled("pyradice_lab.purramid.sim:games_bench_run", n_games=1, players=4, seed=1),
                           "same code, NUMBA_DISABLE_JIT=1, one game", min_ratio=30, game="purramid",
                           repeat=2))
    cases.append(BenchCase("purramid 4-player games, greedy (numba) vs readable engine", "games", games,
                           lambda: readable_games(sized(2, tiny=1), 4, 1), "readable rules engine (rules.play_game), one game "
                           "at a time", min_ratio=10, game="purramid", repeat=2))

    m = sized(2_000 if quick else 5_000, tiny=10)
    simulate_turns(sized(200, tiny=10), "A", policy="optimal", rng=0)

    def turns():
        simulate_turns(m, "A", policy="optimal", rng=1)
        return m

    cases.append(BenchCase("purramid batched optimal turns (side A, warm solver)", "turns", turns,
                           game="purramid", repeat=1))
    cases += exact_cases(quick)
    return cases


def mid_game_board() -> int:
    """A typical mid-game board of side A: of 8 boards met in seeded 4-player games (``risk:0.35``), the one
    closest to 30 tiles down (about 40% of the capacity)."""
    from .analysis import sample_positions
    from .components import load_layout

    L = load_layout("A")
    boards = sample_positions("A", 4, sized(8, tiny=1), seed=0)
    return min(boards, key=lambda c: abs(L.tiles_of(c) - 30))


def exact_cases(quick: bool = False) -> list[BenchCase]:
    """The compiled exact solver and the optimal seats in games."""
    from .advisor import TurnSolver, parse_objective
    from .components import load_layout
    from .sim import optimal_bench_run
    from .solver import CompiledSolver

    L = load_layout("A")
    obj = parse_objective("tiles")
    cov = sized(L.bottom_rows_mask(1) if quick else 0, tiny=L.bottom_rows_mask(8))
    where = "bottom row covered" if quick else "empty"
    comp = CompiledSolver(L, obj, 0.6, "exact")
    comp.fresh(L.bottom_rows_mask(8), 3, 0)  # compile (or load the cache) outside the timing

    def fast():
        comp.clear()
        comp.fresh(cov, 5, 0)
        return 1

    def reference():
        TurnSolver(L, obj, 0.6, "exact").fresh(cov, 5, 0)
        return 1

    cases = [BenchCase(f"purramid exact solver: fresh 5-dice turn, {where} side A, bonus=exact (cold memo)",
                       "solves", fast, reference, "Python TurnSolver, same solve", max_seconds=3.0,
                       game="purramid", repeat=1 if not quick else 2)]
    mid = sized(mid_game_board(), tiny=L.bottom_rows_mask(8))
    auto = CompiledSolver(L, obj, 0.6, "auto")

    def midgame():
        auto.clear()
        auto.fresh(mid, 5, 0)
        return 1

    cases.append(BenchCase(f"purramid exact solver: fresh 5-dice turn, mid-game side A ({L.tiles_of(mid)} tiles), "
                           "bonus=auto (cold memo)", "solves", midgame, max_seconds=0.02, game="purramid"))
    optimal_bench_run(1, 4, 0, 1)
    cases += worker_pool_cases(quick)
    cases += carried_memo_cases(quick)
    return cases


def worker_pool_cases(quick: bool = False) -> list[BenchCase]:
    """Games with optimal seats on 2 worker processes (``n_jobs=2``; loky, the default backend), wall time, no
    openings file: a new pool (its start-up -- processes, imports, compiled code loaded -- included; no target),
    then a started pool whose memos carry 16 earlier games of other seeds (the goal: >= 10 all-optimal games per
    second on 2 cores), all seats and one optimal seat against three ``risk:0.35``."""
    import time

    from ..engine.execution import stop_worker_processes
    from .sim import optimal_bench_run

    seats = sized(4, tiny=2)  # inside ``tiny()``: 2-player games
    n_cold = sized(16, tiny=1)
    n_warm = sized(4 if quick else 16, tiny=1)
    n_all = sized(8 if quick else 32, tiny=1)
    n_one = sized(8 if quick else 32, tiny=1)

    def games(n, seed, optimal_seats, *, cold=False, last=False):
        with _no_openings_file():  # inherited by the workers started here
            if cold:
                stop_worker_processes()
            t0 = time.perf_counter()
            optimal_bench_run(n, seats, seed, optimal_seats, n_jobs=2)
            seconds = time.perf_counter() - t0
        if last:  # leave no worker process behind
            stop_worker_processes()
        return n, seconds

    def start():  # a new pool, its memos after 16 games of other seeds (untimed)
        games(n_warm, 1000, seats, cold=True)

    return [BenchCase(f"purramid 4-player games, all seats optimal, 2 worker processes: the first {n_cold} games "
                      "of a new pool (start-up included)", "games", lambda: games(n_cold, 3, seats, cold=True),
                      game="purramid", repeat=1),
            BenchCase(f"purramid 4-player games, all seats optimal, 2 worker processes (started; memos carried "
                      f"from {n_warm} earlier games)", "games", lambda: games(n_all, 1, seats), setup=start,
                      min_rate=10.0, game="purramid", repeat=1),
            BenchCase(f"purramid 4-player games, 1 optimal seat + 3 risk:0.35, 2 worker processes (started; memos "
                      f"carried from {n_warm} earlier games)", "games", lambda: games(n_one, 2, 1, last=True), setup=start,
                      game="purramid", repeat=1)]


def mid_game_boards(n: int = 20, seed: int = 0) -> list[int]:
    """``n`` distinct boards of side A met at the start of turns of seeded 4-player games (``risk:0.35``)
    holding 25% to 60% of the board's tiles, spread evenly over that range."""
    from .components import load_layout
    from .measures import sample_positions

    L = load_layout("A")
    met = sample_positions("A", 4, 4 * n, seed=seed)
    mid = [c for c in met if 0.25 <= L.tiles_of(c) / L.capacity <= 0.6] or met
    pick = np.linspace(0, len(mid) - 1, n).round().astype(int)
    boards = list(dict.fromkeys(mid[i] for i in pick))
    return boards


@contextlib.contextmanager
def _memo_cache(value: str):
    """The memo pool's disk cache set to ``value`` (a folder, or ``"off"``) within the block."""
    before = os.environ.get(memopool.CACHE_ENV_VAR)
    os.environ[memopool.CACHE_ENV_VAR] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(memopool.CACHE_ENV_VAR, None)
        else:
            os.environ[memopool.CACHE_ENV_VAR] = before


def _no_openings_file():
    """The memo pool without its disk cache within the block.  Since issue 47's direct bonus turns a memo is
    small enough that the openings file holds whole games: a bench run would replay the seeded games an earlier
    run wrote there (measured: 255 all-optimal games per CPU-second against 35 from the games' own memo)."""
    return _memo_cache("off")


#: all-optimal 4-player games whose memo builds the bench's own openings file (seed :data:`OPENINGS_SEED`, never
#: a timed game's): about 4 CPU s once, as a user's first long run builds it (measured 2026-12-07, 32 games
#: after the file: 158-211 games per CPU-second from 256 games, 156-195 from 512, 105-136 from 1,024: the file
#: keeps whole layers up to its cap, all of 256 games' memo but only the earlier boards of more games)
N_OPENINGS = 256
OPENINGS_SEED = 5000


def carried_memo_cases(quick: bool = False) -> list[BenchCase]:
    """Issue 27's rows: all-optimal vs all-greedy CPU per game in one run, and ``advise`` p90 on new boards."""
    import time

    from ..engine.benchcase import Measured
    from . import advisor
    from .components import load_layout
    from .sim import games_bench_run, optimal_bench_run

    n_opt = sized(8 if quick else 32, tiny=1)
    n_warm = sized(4 if quick else 16, tiny=1)
    seats = sized(4, tiny=2)  # inside ``tiny()``: 2-player games
    warmed = []

    def own_memo() -> Measured:
        with _no_openings_file():  # the memo of exactly these earlier games: no file an earlier bench run wrote
            if not warmed:  # the pool's memo after earlier games of the process (untimed, other seeds)
                memopool.POOL.clear()
                optimal_bench_run(n_warm, seats, 1000, seats)
                warmed.append(True)
            t0 = time.process_time()
            optimal_bench_run(n_opt, seats, 1, seats)
        return Measured(n_opt, time.process_time() - t0)

    def greedy() -> Measured:
        t0 = time.process_time()
        n = games_bench_run(sized(400, tiny=1), seats, 1)
        return Measured(n, time.process_time() - t0)

    n_build = sized(64 if quick else N_OPENINGS, tiny=1)
    n_after = 2 * n_opt  # at least the bench's 0.2 s a call (a second call would build the file again)
    folder: list = []  # the bench's own openings folder (a temporary one: never the user's cache)

    def build() -> Measured:  # the first use: games of other seeds, then their memo's openings written
        import tempfile

        if not folder:
            folder.append(tempfile.mkdtemp(prefix="pyradice_lab_openings_"))
        with _memo_cache(folder[0]):
            memopool.POOL.clear()
            t0 = time.process_time()
            optimal_bench_run(n_build, seats, OPENINGS_SEED, seats)
            written = memopool.POOL.write_openings(force=True)
            seconds = time.process_time() - t0
        memopool.POOL.clear()
        if not written:
            raise RuntimeError("the bench's openings file was not written")
        return Measured(n_build, seconds)

    def openings() -> Measured:
        import shutil

        if not folder:
            build()
        try:
            with _memo_cache(folder[0]):
                memopool.POOL.clear()
                optimal_bench_run(2, seats, 1000, seats)  # untimed: the file loaded, 2 games of other seeds
                t0 = time.process_time()
                optimal_bench_run(n_after, seats, 1, seats)
                seconds = time.process_time() - t0
        finally:
            memopool.POOL.clear()
            shutil.rmtree(folder.pop(), ignore_errors=True)
        return Measured(n_after, seconds)

    cases = [BenchCase(f"purramid all-optimal 4p games per CPU-s vs all greedy (1 thread, no openings file: the memo "
                       f"of {n_warm} earlier games only; no target)", "games", own_memo, greedy,
                       "all seats greedy, same seeds, CPU", cpu=True, game="purramid", repeat=1),
             BenchCase(f"purramid solved openings of side A, built once (the first use): {n_build} all-optimal 4p "
                       f"games of other seeds, their memo's openings file written (CPU)", "games", build, cpu=True,
                       game="purramid", repeat=1),
             BenchCase(f"purramid all-optimal 4p games per CPU-s vs all greedy (1 thread, {n_after} games, memo from "
                       f"the solved openings file of {n_build} games of other seeds, loaded untimed)", "games",
                       openings, greedy, "all seats greedy, same seeds, CPU", min_ratio=1 / 30, min_rate=100.0,
                       cpu=True, game="purramid", repeat=1)]
    code = ("import json, sys, time\n"
            "from pyradice_lab.purramid.sim import optimal_bench_run\n"
            "n, p = int(sys.argv[1]), int(sys.argv[2])\n"
            "t0 = time.process_time(); optimal_bench_run(n, p, 2, p)\n"
            "print(json.dumps([n, time.process_time() - t0]))\n")
    n_first = sized(16, tiny=1)

    def first() -> Measured:
        import json

        from ..engine.benchcase import run_python

        out = run_python(code, [n_first, seats], check=True, env={memopool.CACHE_ENV_VAR: "off"})
        units, seconds = json.loads(out.stdout.strip().splitlines()[-1])
        return Measured(int(units), float(seconds))

    cases.append(BenchCase(f"purramid 4-player games, all seats optimal: the first {n_first} games of a new process "
                           "(CPU; compiled code loaded from its cache, no openings file)", "games", first,
                           game="purramid", cpu=True, repeat=1))
    L = load_layout("A")
    boards = mid_game_boards(sized(20, tiny=2))
    solver = advisor.solver_for("A")
    solver.clear()
    advisor.advise("A", dice_left=5)  # the opening: the empty board's turn
    opening = tuple(a.copy() for a in solver.mem)

    def warm():
        advisor.solver_for("A").mem = tuple(a.copy() for a in opening)

    def p90() -> Measured:
        times = []
        for c in boards:
            t0 = time.process_time()
            advisor.advise("A", covered=L.spaces_of(c), dice_left=5)
            times.append(time.process_time() - t0)
        return Measured(1, float(np.percentile(times, 90)))

    cases.append(BenchCase(f"purramid advise: p90 CPU per call on {len(boards)} new mid-game boards, side A (solver "
                           "warm, memo carried)", "calls", p90, setup=warm, max_seconds=0.03, cpu=True,
                           game="purramid", repeat=1))
    return cases
