"""One benchmark row (:class:`BenchCase`) and the reference paths a game's ``bench.py`` builds its rows from.

It sits in the engine so that the games' bench modules never import :mod:`pyradice_lab.bench` (the table
runner above them, which imports the games).  ``pyradice-lab bench`` collects every game's rows through the
registry and times them (:func:`pyradice_lab.bench.run_bench`).

Inside :func:`tiny` every row is built at its smallest size (:func:`sized`) and every fresh-interpreter path
(:func:`run_python`) runs in this process instead: the numbers mean nothing, but each row's code runs once in
seconds, so a test can check that no row is broken (``tests/test_bench_rows.py``).

>>> case = BenchCase("demo", "units", fast=lambda: 10)
>>> case.kernel, case.game
('demo', 'core')
>>> with tiny():
...     sized(1_000_000, tiny=10)
10
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["BenchCase", "Measured", "jit_disabled", "tiny", "is_tiny", "sized", "run_python"]

_TINY = [False]


@contextlib.contextmanager
def tiny() -> Iterator[None]:
    """Build and run bench rows at their smallest size, in this process (a smoke test of every row).

    Inside the block :func:`sized` returns its ``tiny`` value and :func:`run_python` executes its code in this
    process (stdout captured) instead of a fresh interpreter, so environment settings such as
    ``NUMBA_DISABLE_JIT`` or an empty ``NUMBA_CACHE_DIR`` do not apply: the timings are meaningless, only that
    every row runs is checked.

    Examples
    --------
    >>> with tiny():
    ...     is_tiny()
    True
    >>> is_tiny()
    False
    """
    before = _TINY[0]
    _TINY[0] = True
    try:
        yield
    finally:
        _TINY[0] = before


def is_tiny() -> bool:
    """True inside :func:`tiny`."""
    return _TINY[0]


def sized(n, *, tiny):
    """A bench row's work size: ``n``, or ``tiny`` inside :func:`tiny` (the smallest size that runs the row's
    code)."""
    return tiny if _TINY[0] else n


def run_python(code: str, args: Sequence[str] = (), *, env: dict | None = None, timeout: float | None = None,
               check: bool = False) -> subprocess.CompletedProcess:
    """Run ``python -c code args`` in a fresh interpreter (``env`` added to this process's environment).

    Returns the :class:`subprocess.CompletedProcess` (text stdout and stderr); ``check`` raises
    :class:`subprocess.CalledProcessError` on a non-zero exit.  Inside :func:`tiny` the code runs in this
    process instead (``sys.argv`` set to ``["-c", *args]``, stdout captured, ``env`` ignored).
    """
    argv = ["-c", *map(str, args)]
    if not _TINY[0]:
        return subprocess.run([sys.executable, *argv[:1], code, *argv[1:]], env=dict(os.environ, **(env or {})),
                              capture_output=True, text=True, timeout=timeout, check=check)
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv
    code_rc = 0
    sys.argv = argv
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            exec(compile(code, "<bench child>", "exec"), {"__name__": "__main__"})
    except SystemExit as exc:
        code_rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = saved
    res = subprocess.CompletedProcess(argv, code_rc, out.getvalue(), err.getvalue())
    if check:
        res.check_returncode()
    return res


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


#: every ``(target, kwargs)`` a :func:`jit_disabled` row was built with in this process (a test runs them all in one
#: real child with the JIT disabled: :func:`tiny` runs child code in-process, where the JIT is on)
JIT_DISABLED_TARGETS: list = []


def jit_disabled(target: str, **kwargs) -> Callable[[], tuple[int, float]]:
    """A reference path: ``module:function(**kwargs)`` run in a fresh interpreter with ``NUMBA_DISABLE_JIT=1``.

    This is "the same code with the JIT disabled": every numba-compiled function the target calls runs
    as plain Python.  The function returns its units of work; the time is measured inside the child
    (import time excluded).  ``kwargs`` must be JSON-serialisable.
    """
    import json

    JIT_DISABLED_TARGETS.append((target, dict(kwargs)))
    module, _, func = target.partition(":")
    code = (
        "import json, sys, time, importlib\n"
        f"f = getattr(importlib.import_module({module!r}), {func!r})\n"
        "kw = json.loads(sys.argv[1])\n"
        "t0 = time.perf_counter(); units = f(**kw); dt = time.perf_counter() - t0\n"
        "print(json.dumps([int(units), dt]))\n"
    )

    def run() -> tuple[int, float]:
        out = run_python(code, [json.dumps(kwargs)], env={"NUMBA_DISABLE_JIT": "1"}, check=True)
        units, dt = json.loads(out.stdout.strip().splitlines()[-1])
        return int(units), float(dt)

    return run
