"""One benchmark row (:class:`BenchCase`) and the reference paths a game's ``bench.py`` builds its rows from.

It sits in the engine so that the games' bench modules never import :mod:`pyradice_lab.bench` (the table
runner above them, which imports the games).  ``pyradice-lab bench`` collects every game's rows through the
registry and times them (:func:`pyradice_lab.bench.run_bench`).

>>> case = BenchCase("demo", "units", fast=lambda: 10)
>>> case.kernel, case.game
('demo', 'core')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["BenchCase", "Measured", "jit_disabled"]


class Measured(NamedTuple):
    """What a benchmark callable may return instead of a plain unit count: the units of work, the seconds
    they took as measured by the callee (wall or CPU, as the case says) and the peak resident memory."""

    units: int
    seconds: float
    peak_mb: float = math.nan


@dataclass(frozen=True)
class BenchCase:
    """One benchmark row.

    ``fast()`` and ``reference()`` each do some work and return how many units they did (rolls, games,
    tables...), or a tuple ``(units, seconds)`` when they measure their own time (see
    :func:`jit_disabled`).  ``setup()`` runs untimed before every timed call (e.g. to clear a cache for a cold
    timing).  Targets: ``min_ratio`` on fast rate / reference rate, ``min_rate`` on the fast rate (units
    per second), ``max_seconds`` on the best time of one ``fast()`` call (CPU seconds when ``cpu``: the
    callable then returns a :class:`Measured` with CPU time), ``max_peak_mb`` on the peak memory a
    :class:`Measured` reports.
    """

    kernel: str
    unit: str
    fast: Callable[[], int | tuple]
    reference: Callable[[], int | tuple] | None = None
    reference_name: str = ""
    setup: Callable[[], None] | None = None
    min_ratio: float | None = None
    min_rate: float | None = None
    max_seconds: float | None = None
    max_peak_mb: float | None = None
    cpu: bool = False
    game: str = "core"
    repeat: int = 3


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
