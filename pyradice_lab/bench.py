"""Throughput benchmarks: each kernel against its reference path, as ratios measured within one run.

A :class:`BenchCase` times a fast kernel and (optionally) a reference path doing the same kind of work —
the pure-Python one-at-a-time version of the same rules, or raw RNG speed for the same dice — and states
its targets: a minimum ratio, a minimum rate (work per second) and/or a maximum time per call.  Rates on
these shared machines are noisy, so each side is timed repeatedly and its best rate kept; the ratio of
two best rates taken in the same run is the robust number.

``pyradice-lab bench`` prints the table (kernel, work per second, reference path, ratio, target, ok) and
writes it to ``reports/bench.csv``.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["BenchCase", "run_bench", "format_bench", "dice_cases", "measure", "jit_disabled", "all_cases",
           "write_bench"]


@dataclass(frozen=True)
class BenchCase:
    """One benchmark row.

    ``fast()`` and ``reference()`` each do some work and return how many units they did (rolls, games,
    tables...), or a tuple ``(units, seconds)`` when they measure their own time (see
    :func:`jit_disabled`).  ``setup()`` runs untimed before every timed call (e.g. to clear a cache for a cold
    timing).  Targets: ``min_ratio`` on fast rate / reference rate, ``min_rate`` on the fast rate (units
    per second), ``max_seconds`` on the best time of one ``fast()`` call.
    """

    kernel: str
    unit: str
    fast: Callable[[], int]
    reference: Callable[[], int] | None = None
    reference_name: str = ""
    setup: Callable[[], None] | None = None
    min_ratio: float | None = None
    min_rate: float | None = None
    max_seconds: float | None = None
    game: str = "core"
    repeat: int = 3


def measure(fn: Callable[[], int], *, setup: Callable[[], None] | None = None, repeat: int = 3,
            min_time: float = 0.2) -> tuple[float, float]:
    """Best (rate, seconds per call) of ``fn`` over ``repeat`` rounds of at least ``min_time`` seconds."""
    best_rate, best_call = 0.0, float("inf")
    for _ in range(max(1, repeat)):
        units = 0
        elapsed = 0.0
        calls = 0
        while elapsed < min_time or calls == 0:
            if setup is not None:
                setup()
            gc_was = gc.isenabled()
            gc.disable()
            t0 = time.perf_counter()
            out = fn()
            dt = time.perf_counter() - t0
            if isinstance(out, tuple):  # (units, seconds) measured by the callee
                out, dt = out
            units += int(out)
            if gc_was:
                gc.enable()
            elapsed += dt
            calls += 1
            best_call = min(best_call, dt)
        best_rate = max(best_rate, units / elapsed if elapsed > 0 else float("inf"))
    return best_rate, best_call


def jit_disabled(target: str, **kwargs) -> Callable[[], tuple[int, float]]:
    """A reference path: ``module:function(**kwargs)`` run in a fresh interpreter with ``NUMBA_DISABLE_JIT=1``.

    This is "the same code with the JIT disabled": every numba-compiled function the target calls runs
    as plain Python.  The function returns its units of work; the time is measured inside the child
    (import time excluded).  ``kwargs`` must be JSON-serialisable.
    """
    import json
    import os
    import subprocess
    import sys

    module, _, func = target.partition(":")
    code = (
        "import json, sys, time, importlib\n"
        f"f = getattr(importlib.import_module({module!r}), {func!r})\n"
        "kw = json.loads(sys.argv[1])\n"
        "t0 = time.perf_counter(); units = f(**kw); dt = time.perf_counter() - t0\n"
        "print(json.dumps([int(units), dt]))\n"
    )

    def run() -> tuple[int, float]:
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        out = subprocess.run([sys.executable, "-c", code, json.dumps(kwargs)], env=env, check=True,
                             capture_output=True, text=True)
        units, dt = json.loads(out.stdout.strip().splitlines()[-1])
        return int(units), float(dt)

    return run


def _target_text(case: BenchCase) -> str:
    parts = []
    if case.min_ratio is not None:
        parts.append(f"ratio >= {case.min_ratio:g}")
    if case.min_rate is not None:
        parts.append(f">= {case.min_rate:.3g} {case.unit}/s")
    if case.max_seconds is not None:
        parts.append(f"<= {case.max_seconds * 1000:g} ms" if case.max_seconds < 1 else f"<= {case.max_seconds:g} s")
    return "; ".join(parts) or "-"


def run_bench(cases: Sequence[BenchCase], *, quick: bool = False, progress: bool = False) -> pd.DataFrame:
    """Time every case; one row per case."""
    from tqdm.auto import tqdm

    min_time = 0.05 if quick else 0.25
    rows = []
    for case in tqdm(cases, desc="bench", unit="case", disable=not progress, leave=False):
        repeat = 1 if quick else case.repeat
        rate, call = measure(case.fast, setup=case.setup, repeat=repeat, min_time=min_time)
        ref_rate = ratio = np.nan
        if case.reference is not None:
            ref_rate, _ = measure(case.reference, repeat=repeat, min_time=min_time)
            ratio = rate / ref_rate if ref_rate > 0 else np.nan
        ok = True
        if case.min_ratio is not None:
            ok &= bool(ratio >= case.min_ratio)
        if case.min_rate is not None:
            ok &= bool(rate >= case.min_rate)
        if case.max_seconds is not None:
            ok &= bool(call <= case.max_seconds)
        rows.append({"game": case.game, "kernel": case.kernel, "unit": case.unit, "work_per_s": rate,
                     "seconds_per_call": call, "reference": case.reference_name or "-",
                     "reference_per_s": ref_rate, "ratio": ratio, "target": _target_text(case), "ok": ok})
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

    shown = pd.DataFrame({
        "kernel": df["kernel"],
        "work per second": [rate(v, u) for v, u in zip(df["work_per_s"], df["unit"])],
        "time/call": [f"{s * 1000:.3g} ms" for s in df["seconds_per_call"]],
        "reference path": df["reference"],
        "ratio": ["-" if not np.isfinite(r) else f"{r:.3g}" for r in df["ratio"]],
        "target": df["target"],
        "ok": ["yes" if o else "NO" for o in df["ok"]],
    })
    return shown.to_string(index=False)


# ----------------------------------------------------------------------------------------- core cases
def dice_cases(quick: bool = False) -> list[BenchCase]:
    """The dice-kernel rows: ``dice.classify`` vs raw ``Generator.integers`` on the same number of dice."""
    from . import dice

    n = 200_000 if quick else 1_000_000
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


def all_cases(quick: bool = False, games: Sequence[str] | None = None) -> list[BenchCase]:
    """Core cases plus every registered game's cases (optionally only some games)."""
    from . import registry

    known = registry.games()
    names = list(known) if games is None else list(games)
    cases = list(dice_cases(quick)) if games is None or "core" in names else []
    for g in names:
        if g == "core":
            continue
        if g not in known:
            raise ValueError(f"game must be 'core' or one of {sorted(known)}, got {g!r}")
        if known[g].bench_cases is not None:
            cases.extend(known[g].bench_cases(quick))
    return cases


def write_bench(df: pd.DataFrame, path: str | Path = Path("reports") / "bench.csv") -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False)
    return path
