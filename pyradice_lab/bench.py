"""Throughput benchmarks: each kernel against its reference path, as ratios measured within one run.

A :class:`BenchCase` times a fast kernel and (optionally) a reference path doing the same kind of work —
the pure-Python one-at-a-time version of the same rules, the readable engine a user would otherwise run, or
the raw draw of the same random numbers — and states its targets: a minimum ratio, a minimum rate (work per
second), a maximum time per call and/or a maximum peak memory.  Rates on these shared machines are noisy, so
each side is timed repeatedly and its best rate kept; the ratio of two best rates taken in the same run is
the robust number.

Costs a user pays once per process or per machine are measured in a fresh interpreter (a subprocess), so
nothing this process has already imported or compiled hides them:

- :func:`cold_start` -- the first call of any ``module:function(**kwargs)`` after ``import pyradice_lab``
  (and numpy) with an empty ``NUMBA_CACHE_DIR``, in CPU seconds (importing the game's modules and numba,
  compiling, running); :func:`warm_start` -- the same call in a process whose numba cache is already filled;
- :func:`peak_rss` -- the peak resident memory of a process that imports the library and makes one call;
- :func:`cli_cpu` -- CPU seconds of one ``pyradice-lab ...`` command, interpreter start included;
- :func:`import_cpu` -- CPU seconds of importing the library above ``import numpy, pandas``.

``pyradice-lab bench`` prints the table (kernel, work per second, reference path, ratio, peak memory,
target, ok) and writes it to ``reports/bench.csv``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ._bench_measure import (
    _CHILD as _CHILD,
    _IMPORT_CHILD as _IMPORT_CHILD,
    _entry_code as _entry_code,
    _measure,
    cli_cpu,
    cold_start,
    fresh_process,
    import_cpu,
    measure,
    peak_rss,
    warm_start,
)
from .engine.benchcase import BenchCase, Measured, is_tiny, jit_disabled, sized, tiny

__all__ = ["BenchCase", "Measured", "run_bench", "format_bench", "dice_cases", "core_cases", "measure",
           "jit_disabled", "cold_start", "warm_start", "peak_rss", "cli_cpu", "import_cpu", "fresh_process",
           "sweep_efficiency", "fresh_pool_sweep", "sweep_memory_run", "game_cases", "bench_plan", "efficiency_calls",
           "first_use_cases", "all_cases", "write_bench", "tiny", "first_advise", "position_doc", "FIRST_ADVISE"]


def _target_text(case: BenchCase) -> str:
    parts = []
    if case.min_ratio is not None:
        parts.append(f"ratio >= {case.min_ratio:g}")
    if case.min_rate is not None:
        parts.append(f">= {case.min_rate:.3g} {case.unit}/s")
    if case.max_seconds is not None:
        clock = " CPU" if case.cpu else ""
        parts.append(f"<= {case.max_seconds * 1000:g} ms{clock}" if case.max_seconds < 1 else
                     f"<= {case.max_seconds:g} s{clock}")
    if case.max_peak_mb is not None:
        parts.append(f"peak RSS <= {case.max_peak_mb:g} MB")
    return "; ".join(parts) or "-"


def run_bench(cases: Sequence[BenchCase], *, quick: bool = False, progress: bool = False) -> pd.DataFrame:
    """Time every case; one row per case (inside :func:`tiny`: each side called once, the numbers meaningless)."""
    from .engine.execution import Progress

    min_time = 0.0 if is_tiny() else 0.05 if quick else 0.25
    rows = []
    bar = Progress(len(cases), desc="bench", what="cases", enabled=progress)
    for case in cases:
        repeat = 1 if quick or is_tiny() else case.repeat
        rate, call, peak = _measure(case.fast, setup=case.setup, repeat=repeat, min_time=min_time)
        ref_rate = ratio = np.nan
        if case.reference is not None:
            ref_rate, _, _ = _measure(case.reference, repeat=repeat, min_time=min_time)
            ratio = rate / ref_rate if ref_rate > 0 else np.nan
        ok = True
        if case.min_ratio is not None:
            ok &= bool(ratio >= case.min_ratio)
        if case.min_rate is not None:
            ok &= bool(rate >= case.min_rate)
        if case.max_seconds is not None:
            ok &= bool(call <= case.max_seconds)
        if case.max_peak_mb is not None:
            ok &= bool(peak <= case.max_peak_mb)
        rows.append({"game": case.game, "kernel": case.kernel, "unit": case.unit, "work_per_s": rate,
                     "seconds_per_call": call, "clock": "cpu" if case.cpu else "wall",
                     "reference": case.reference_name or "-", "reference_per_s": ref_rate, "ratio": ratio,
                     "peak_rss_mb": peak, "target": _target_text(case), "ok": ok})
        bar.update(1)
    bar.close()
    return pd.DataFrame(rows)


def format_bench(df: pd.DataFrame) -> str:
    """The benchmark table as aligned text."""
    def rate(v, unit):
        if not np.isfinite(v):
            return "-"
        for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
            if v >= scale:
                return f"{v / scale:.3g}{suffix} {unit}/s"
        return f"{v:.3g} {unit}/s"

    def call(s, clock):
        text = f"{s * 1000:.3g} ms" if s < 1 else f"{s:.3g} s"
        return text + (" CPU" if clock == "cpu" else "")

    clocks = df["clock"] if "clock" in df else ["wall"] * len(df)
    peaks = df["peak_rss_mb"] if "peak_rss_mb" in df else [np.nan] * len(df)
    shown = pd.DataFrame({
        "kernel": df["kernel"],
        "work per second": [rate(v, u) for v, u in zip(df["work_per_s"], df["unit"])],
        "time/call": [call(s, c) for s, c in zip(df["seconds_per_call"], clocks)],
        "reference path": df["reference"],
        "ratio": ["-" if not np.isfinite(r) else f"{r:.3g}" for r in df["ratio"]],
        "peak RSS": ["-" if not np.isfinite(p) else f"{p:.0f} MB" for p in peaks],
        "target": df["target"],
        "ok": ["yes" if o else "NO" for o in df["ok"]],
    })
    return shown.to_string(index=False)


# ----------------------------------------------------------------------------------------- core cases
def dice_cases(quick: bool = False) -> list[BenchCase]:
    """The dice-kernel rows: ``dice.classify`` vs raw ``Generator.integers`` on the same number of dice."""
    from .engine import dice

    n = sized(200_000 if quick else 1_000_000, tiny=100)
    rng = np.random.default_rng(0)
    cases = []
    for k in (3, 5):
        rolls = rng.integers(1, 7, size=(n, k), dtype=np.int8)
        gen = np.random.default_rng(1)

        def fast(rolls=rolls):
            dice.classify(rolls)
            return len(rolls)

        def raw(k=k, gen=gen):
            gen.integers(1, 7, size=(n, k), dtype=np.int8)
            return n

        cases.append(BenchCase(f"dice.classify ({k} dice)", "rolls", fast, raw,
                               f"Generator.integers, {k} dice", min_ratio=0.25))
    faces, _ = dice.multisets(5)

    def masks():
        dice.subset_sum_masks(faces)
        return len(faces)

    cases.append(BenchCase("dice.subset_sum_masks (252 rows, 5 dice)", "rows", masks))
    return cases


# ------------------------------------------------------------------------------ start-up, memory, sweeps
def sweep_memory_run(trials: int = 10 ** 8, dice: int = 5, target: int = 12) -> int:
    """One ``core.subset-sum`` sweep cell of ``trials`` trials (the bench's peak-memory row); returns trials."""
    from .engine.sweep import run_sweep
    from .report.overview import subset_sum_cell

    run_sweep(subset_sum_cell, {"dice": [dice], "target": [target]}, trials=trials, seed=0, progress=False)
    return trials


#: The sweep of :func:`sweep_efficiency`: eight CPU-bound cells of the core subset-sum target.
EFFICIENCY_GRID = {"dice": [5, 6], "target": [6, 8, 12, 20]}


def sweep_efficiency(trials: int, n_jobs: int = 2, *, fresh_pool: bool = False) -> tuple[float, float, float]:
    """Seconds of the same sweep (:data:`EFFICIENCY_GRID`, ``trials`` per cell) run serially and on
    ``n_jobs`` workers, in this process: ``(serial, parallel, efficiency)`` with
    ``efficiency = serial / (n_jobs * parallel)``.

    Sweeps reuse joblib's worker pool (loky keeps it for later calls), so unless ``fresh_pool`` a first
    parallel sweep starts the pool untimed; with ``fresh_pool`` the timed parallel sweep is the first of
    this process (run it in a fresh process) and includes starting its workers.
    """
    from .engine.sweep import run_sweep
    from .report.overview import subset_sum_cell

    def once(jobs: int, seed: int) -> float:
        t0 = time.perf_counter()
        run_sweep(subset_sum_cell, EFFICIENCY_GRID, trials=trials, seed=seed, n_jobs=jobs, progress=False)
        return time.perf_counter() - t0

    if not fresh_pool:
        once(n_jobs, 0)  # start (or reuse) the pool and load the cell's modules in the workers, untimed
    parallel = once(n_jobs, 1)
    serial = once(1, 1)
    return serial, parallel, serial / (n_jobs * parallel)


def fresh_pool_sweep(trials: int) -> list[float]:
    """``[serial, parallel]`` seconds of :func:`sweep_efficiency` with a fresh pool (run it in a fresh
    process: :func:`fresh_process`)."""
    serial, parallel, _ = sweep_efficiency(trials, sized(2, tiny=1), fresh_pool=True)
    return [serial, parallel]


def _library_games() -> list[str]:
    """The packages of the registered games that ship with the library (a game registered from elsewhere, e.g. a
    test's, cannot be imported by name in a fresh interpreter)."""
    from .engine import registry

    return [spec.package for spec in registry.games().values() if spec.package.startswith("pyradice_lab.")]


def core_cases(quick: bool = False) -> list[BenchCase]:
    """Start-up costs (import, CLI), the peak memory of a long sweep cell and the parallel efficiency of
    sweeps (worker pool reused across cells and sweeps, and a fresh pool)."""
    packages = _library_games()
    cases = [
        BenchCase("import pyradice_lab (CPU above import numpy, pandas)", "imports", import_cpu("pyradice_lab"),
                  max_seconds=0.15, cpu=True),
        BenchCase(f"import pyradice_lab + {len(packages)} game packages (CPU above numpy, pandas)", "imports",
                  import_cpu("pyradice_lab", *packages), max_seconds=0.15, cpu=True),
        BenchCase("pyradice-lab --help (new process)", "runs", cli_cpu("--help"), max_seconds=0.3, cpu=True),
        BenchCase("pyradice-lab games (new process)", "runs", cli_cpu("games"), max_seconds=0.3, cpu=True),
    ]
    trials = sized(10 ** 7 if quick else 10 ** 8, tiny=1000)
    cases.append(BenchCase(f"sweep cell core.subset-sum, {trials:.0e} trials: peak memory", "trials",
                           peak_rss("pyradice_lab.bench:sweep_memory_run", trials=trials, units=trials),
                           max_peak_mb=200, repeat=1))
    per_cell = sized(1_000_000 if quick else 4_000_000, tiny=100)
    jobs = sized(2, tiny=1)  # inside ``tiny()`` no worker pool is started
    cells = len(EFFICIENCY_GRID["dice"]) * len(EFFICIENCY_GRID["target"])
    serial_times: list[float] = []  # each parallel timing brings the serial timing taken right after it

    def parallel() -> Measured:
        serial, par, _ = sweep_efficiency(per_cell, jobs)
        serial_times.append(serial)
        return Measured(cells, par)

    def serial() -> Measured:
        if not serial_times:
            serial_times.append(sweep_efficiency(per_cell, jobs)[0])
        return Measured(cells, serial_times.pop())

    cases.append(BenchCase("sweep of 8 CPU-bound cells, 2 jobs, pool reused (ratio/2 = parallel efficiency)",
                           "cells", parallel, serial, "the same sweep, 1 job", min_ratio=1.6, repeat=2))
    fresh_times: list[float] = []

    def fresh() -> Measured:
        serial, par = fresh_process("pyradice_lab.bench:fresh_pool_sweep", {"trials": per_cell})["value"]
        fresh_times.append(serial)
        return Measured(cells, par)

    def fresh_serial() -> Measured:
        if not fresh_times:
            fresh()
        return Measured(cells, fresh_times.pop())

    cases.append(BenchCase("sweep of 8 CPU-bound cells, 2 jobs, first of a new process (workers started)",
                           "cells", fresh, fresh_serial, "the same sweep, 1 job", repeat=1))
    return cases + execution_cases(quick)


#: The entry points of :func:`execution_efficiency` and the keyword their size goes to; the call itself (a game's
#: cheap call and the blocks it runs, the unit of work) is declared by a game's bench plan (``execution``).
EFFICIENCY_ENTRIES = {
    "robustness": ("pyradice_lab.design.robustness:robustness", "games"),
    "ladder": ("pyradice_lab.design.strength:ladder", "games"),
}


def bench_plan(game: str):
    """The bench plan ``game`` declares (its ``plan.BENCH``, :class:`~pyradice_lab.engine.plan.BenchPlan`), or
    None: then the game has no uniform rows (its own bench cases only)."""
    from .engine import registry

    return registry.get_game(game).part("bench_plan", None)


def efficiency_calls() -> dict[str, tuple[str, dict, str, int]]:
    """The calls of :func:`execution_efficiency`, by entry point: ``(target, kwargs, size keyword, blocks)``, each
    from the first registered game whose bench plan declares that entry point (``BenchPlan.execution``)."""
    from .engine import registry

    calls = {}
    for entry, (target, key) in EFFICIENCY_ENTRIES.items():
        for name in registry.games():
            plan = bench_plan(name)
            if plan is not None and entry in plan.execution:
                kwargs, blocks = plan.execution[entry]
                calls[entry] = (target, {"game": name, **kwargs}, key, blocks)
                break
    return calls


def execution_efficiency(entry: str, backend: str, games: int, n_jobs: int = 2) -> tuple[float, float]:
    """Wall seconds of the same ``robustness`` or ``ladder`` call (:func:`efficiency_calls`) run serially and on
    ``n_jobs`` workers of ``backend`` (``"loky"``, or ``"dask"``: a LocalCluster of ``n_jobs`` single-threaded
    worker processes started for the measurement): ``(serial, parallel)``.  Workers are started and warmed up
    (modules imported, kernels loaded) by an untimed parallel call first."""
    import contextlib

    from .engine.registry import lazy

    target, kwargs, key, _ = efficiency_calls()[entry]
    fn = lazy(target).resolve()
    if is_tiny():  # inside ``tiny()`` no worker pool and no cluster is started
        n_jobs, backend = 1, "loky"
    with contextlib.ExitStack() as stack:
        extra: dict = {"n_jobs": n_jobs, "backend": backend}
        if backend == "dask":
            from distributed import Client

            from .engine.execution import local_cluster

            cluster = stack.enter_context(local_cluster(n_jobs))
            extra["scheduler"] = stack.enter_context(Client(cluster))

        def once(**kw) -> float:
            t0 = time.perf_counter()
            fn(**kwargs, **{key: games}, **kw)
            return time.perf_counter() - t0

        once(**extra)  # start and warm the workers, untimed
        parallel = once(**extra)
    serial = once()
    return serial, parallel


def execution_cases(quick: bool = False) -> list[BenchCase]:
    """Parallel efficiency of ``robustness`` and ``ladder`` at 2 workers on loky and on a dask LocalCluster: each
    row times the call on 2 workers against the same call on 1 job (ratio / 2 = parallel efficiency; goal 0.8 on
    idle cores)."""
    cases = []
    for entry, (_, _, _, blocks) in efficiency_calls().items():
        games = sized(300 if quick else 1500, tiny=10)  # calls of 5-20 s: start-up noise stays small
        for backend in ("loky", "dask"):
            times: list[float] = []

            def parallel(entry=entry, backend=backend, games=games, times=times, blocks=blocks) -> Measured:
                serial, par = execution_efficiency(entry, backend, games)
                times.append(serial)
                return Measured(blocks, par)

            def serial(parallel=parallel, times=times, blocks=blocks) -> Measured:
                if not times:
                    parallel()
                return Measured(blocks, times.pop())

            where = "loky" if backend == "loky" else "dask LocalCluster"
            cases.append(BenchCase(f"{entry} of {blocks} blocks, 2 workers on {where} (ratio/2 = parallel "
                                   "efficiency)", "blocks", parallel, serial, "the same call, 1 job",
                                   min_ratio=1.6, repeat=1))
    return cases


def game_cases(game: str, quick: bool = False, long: bool = False) -> list[BenchCase]:
    """The rows every game with a bench plan (:func:`bench_plan`) gets: its first ``simulate_games(100 games)`` in
    a fresh process with an empty numba cache (CPU seconds, target 3 s; unless the game's own bench has that row),
    and the peak memory of a process that simulates 10**5 games (10**4 with ``quick``; also 10**6 with ``long``:
    tens of minutes)."""
    from .engine import registry

    rows = bench_plan(game)
    if rows is None:
        return []
    target = f"{registry.get_game(game).package}:simulate_games"
    cases = []
    if rows.cold is not None:
        cases.append(BenchCase(f"{game} first simulate_games(100 games), empty numba cache", "calls",
                               cold_start(target, n_games=100, rng=0, **rows.cold), max_seconds=3.0, cpu=True,
                               game=game, repeat=1))
    if rows.multifidelity is not None:
        cases.append(multifidelity_case(game, rows.multifidelity, quick))
    if rows.controls is not None:
        cases.append(controls_case(game, rows.controls, quick))
    counts = [10 ** 4] if quick else [10 ** 5] + ([10 ** 6] if long else [])
    for n in counts if rows.memory is not None else ():
        desc = ", ".join(f"{k}={v}" for k, v in rows.memory.items())
        played = sized(n, tiny=2)
        cases.append(BenchCase(f"{game} simulate_games({n:.0e} games; {desc}): peak memory", "games",
                               peak_rss(target, n_games=played, rng=0, units=played, **rows.memory),
                               max_peak_mb=rows.memory_bound_mb[n], game=game, repeat=1))
    return cases


#: The position of every game's first-advise row: turn 2 of the game of seed 1 (``position_from_game``).
FIRST_ADVISE = {"seed": 1, "turn": 2}


def position_doc(game: str) -> dict:
    """The position document of ``game``'s first-advise row (:data:`FIRST_ADVISE`; played in this process)."""
    from .engine import registry

    spec = registry.get_game(game)
    return spec.part("position_from_game")(FIRST_ADVISE["seed"], FIRST_ADVISE["turn"]).document()


def first_advise(game: str, doc: dict) -> int:
    """``advise`` of ``game`` on the position document ``doc`` with the game's default player: the call a fresh
    process times in the first-use row (loading the position is part of it)."""
    from .engine import registry

    spec = registry.get_game(game)
    spec.part("advise")(spec.part("load_position")(doc))
    return 1


def _first_advise_case(game: str, built: bool = True) -> BenchCase:
    """The row of ``game``'s first ``advise`` (target 3 CPU s); ``built=False``: the same call with the
    ahead-of-time builds switched off (``PYRADICE_LAB_AOT=0``: numba alone, no target)."""
    from .engine.aot import AOT_ENV

    def run() -> Measured:
        doc = position_doc(game)   # the position is made here, untimed
        r = fresh_process("pyradice_lab.bench:first_advise", {"game": game, "doc": doc}, empty_numba_cache=True,
                          env=None if built else {AOT_ENV: "0"})
        return Measured(1, r["cpu"], r["peak_mb"])

    if not built:
        return BenchCase(f"{game} first advise, empty numba cache, no ahead-of-time build", "calls", run, cpu=True,
                         game=game, repeat=1)
    return BenchCase(f"{game} first advise (turn {FIRST_ADVISE['turn']} of seed {FIRST_ADVISE['seed']}), empty "
                     f"numba cache{_built_note(game, bench_plan(game))}", "calls", run, max_seconds=3.0, cpu=True,
                     game=game, repeat=1)


def _built_note(game: str, plan) -> str:
    """What a first-use row of ``game`` runs besides numba: the ahead-of-time build (``pyradice-lab compile``,
    :mod:`.engine.aot`) when the game declares one, present for the current sources or not."""
    if plan is None or not plan.ahead_of_time:
        return ""
    from ._bench_compile import is_built

    return ", ahead-of-time build" if is_built(game) else ", no ahead-of-time build (run pyradice-lab compile)"


def multifidelity_case(game: str, kwargs, quick: bool = False) -> BenchCase:
    """The row "variance-reduction factor at equal CPU" of the multi-fidelity estimate of one of the game's metrics
    (issue 47 item 1): the report player and the heuristic on common seeds, their per-game correlation and CPU
    costs measured in one run (:func:`pyradice_lab.design.multifidelity.multifidelity`).  The ratio column is the
    factor: precision per CPU-second of the estimate at the best split over that of the report player's games
    alone; below :data:`~pyradice_lab.design.multifidelity.WORTH_USING` the estimator is not used."""
    from .design.multifidelity import WORTH_USING, multifidelity

    kw = dict(kwargs)
    if quick or is_tiny():
        kw.update(strong_games=10, cheap_games=20)
    return _factor_case(game, lambda: multifidelity(game, **kw).factor,
                        f"{game} multi-fidelity estimate of {kw['metric']} ({kw.get('strong_games', 100)} "
                        f"report-player games, heuristic on common seeds): variance-reduction factor at equal CPU "
                        f"(ratio; below {WORTH_USING}: not used)", "report player alone")


def _factor_case(game: str, factor, kernel: str, reference_label: str) -> BenchCase:
    """A row whose ratio column is a variance-reduction factor: ``factor()`` run once, its result in thousandths
    over the run's CPU seconds against 1000 in the same seconds."""
    took = {}

    def fast():
        t0 = time.process_time()
        value = factor()
        took["s"] = max(time.process_time() - t0, 1e-9)
        return int(round(1000 * value)), took["s"]

    def reference():
        return 1000, took.get("s", 1.0)

    return BenchCase(kernel, "precision/1000", fast, reference, reference_label, game=game, repeat=1)


def controls_case(game: str, kwargs, quick: bool = False) -> BenchCase:
    """The row "variance-reduction factor at equal CPU" of the estimate with the game's exogenous controls (issue 47
    item 1; :func:`pyradice_lab.design.controlvariates.exogenous_estimate`): the report player's games, the same
    games' deal as control variates.  The ratio column is the factor; below
    :data:`~pyradice_lab.design.multifidelity.WORTH_USING` the estimator is not used."""
    from .design.controlvariates import exogenous_estimate
    from .design.multifidelity import WORTH_USING
    from .engine import registry

    kw = dict(kwargs)
    if quick or is_tiny():
        kw.update(games=40)
    declared = registry.get_game(game).part("controls")
    if declared.from_games is None:
        what, means = "exogenous control variates", "the deal's exact means"
    else:
        what, means = f"control variates ({declared.short})", "read off the same games, mean 0"
    at = f", {kw['players']} players" if "players" in kw else ""
    return _factor_case(game, lambda: exogenous_estimate(game, **kw).factor,
                        f"{game} {what} for {kw['metric']} ({kw.get('games', 200)} report-player games{at}, "
                        f"{means}): variance-reduction factor at equal CPU (ratio; below {WORTH_USING}: not used)",
                        "the games alone")


def first_use_cases(quick: bool = False, games: Sequence[str] | None = None, *,
                    extra: bool = True) -> list[BenchCase]:
    """The rows of issue 16's targets only, cheap enough to run in one go (``pyradice-lab bench --first-use``):
    import and CLI start-up costs, the sweep parallel-efficiency rows (pool reused; first sweep of a new
    process) and, for every game, its first ``simulate_games(100 games)`` and its first ``advise`` (issue 45; a
    position of :data:`FIRST_ADVISE`, made untimed in this process) measured one way for all games
    (:func:`cold_start`: CPU seconds from after ``import pyradice_lab`` to the end of the call, in a fresh
    process with an empty ``NUMBA_CACHE_DIR``; target 3 s).  ``games``: ``core`` and/or game names (default:
    all); ``extra`` adds the informational first calls of the games' bench plans (``first_use_extra``, no
    target).  A game without a bench plan has no first-use rows."""
    from .engine import registry
    from .engine.aot import AOT_ENV

    known = registry.games()
    names = ["core", *known] if games is None else list(games)
    for g in names:
        if g != "core" and g not in known:
            raise ValueError(f"game must be 'core' or one of {sorted(known)}, got {g!r}")
    cases: list[BenchCase] = []
    if "core" in names:
        cases += [c for c in core_cases(quick) if "peak memory" not in c.kernel]
    for g in names:
        rows = None if g == "core" else bench_plan(g)
        if rows is None:
            continue
        target = f"{known[g].package}:simulate_games"
        built = _built_note(g, rows)
        cases.append(BenchCase(f"{g} first simulate_games(100 games), empty numba cache{built}", "calls",
                               cold_start(target, n_games=100, rng=0, **rows.first_call),
                               max_seconds=3.0, cpu=True, game=g, repeat=1))
        if rows.ahead_of_time and not quick:   # the same first calls as numba alone makes them (no target)
            cases.append(BenchCase(f"{g} first simulate_games(100 games), empty numba cache, no ahead-of-time "
                                   "build", "calls", cold_start(target, n_games=100, rng=0, child_env={AOT_ENV: "0"},
                                                                **rows.first_call), cpu=True, game=g, repeat=1))
            if known[g].part("advise", None) is not None and known[g].part("position_from_game", None) is not None:
                cases.append(_first_advise_case(g, built=False))
        if not quick:
            cases.append(BenchCase(f"{g} first simulate_games(100 games) of a later process (numba cache filled)",
                                   "calls", warm_start(target, n_games=100, rng=0, **rows.first_call),
                                   cpu=True, game=g, repeat=1))
        if known[g].part("advise", None) is not None and known[g].part("position_from_game", None) is not None:
            cases.append(_first_advise_case(g))
        if extra and not quick:
            for kernel, kwargs in rows.first_use_extra:
                kwargs = dict(kwargs, n_games=sized(kwargs["n_games"], tiny=1))
                cases.append(BenchCase(kernel, "calls", cold_start(target, **kwargs), cpu=True, game=g, repeat=1))
    return cases


def all_cases(quick: bool = False, games: Sequence[str] | None = None, long: bool = False) -> list[BenchCase]:
    """Core cases plus every registered game's cases (optionally only some games); ``long`` adds the
    10**6-game memory rows."""
    from .engine import registry

    known = registry.games()
    names = list(known) if games is None else list(games)
    cases = list(dice_cases(quick)) + core_cases(quick) if games is None or "core" in names else []
    for g in names:
        if g == "core":
            continue
        if g not in known:
            raise ValueError(f"game must be 'core' or one of {sorted(known)}, got {g!r}")
        if known[g].bench_cases is not None:
            cases.extend(known[g].bench_cases(quick))
        cases.extend(game_cases(g, quick, long))
    return cases


def write_bench(df: pd.DataFrame, path: str | Path = Path("reports") / "bench.csv") -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False)
    return path
