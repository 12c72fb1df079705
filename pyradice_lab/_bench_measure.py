"""How the bench measures (private; :mod:`pyradice_lab.bench` re-exports every name): the best rate of a call
(:func:`measure`) and the costs paid once per process or machine, measured in a fresh interpreter
(:func:`fresh_process`, :func:`cold_start`, :func:`warm_start`, :func:`peak_rss`, :func:`cli_cpu`, :func:`import_cpu`).
"""

from __future__ import annotations

import gc
import json
import math
import resource
import tempfile
import time
from collections.abc import Callable

from .engine.benchcase import Measured, run_python


def measure(fn: Callable[[], int | tuple], *, setup: Callable[[], None] | None = None, repeat: int = 3,
            min_time: float = 0.2) -> tuple[float, float]:
    """Best (rate, seconds per call) of ``fn`` over ``repeat`` rounds of at least ``min_time`` seconds."""
    rate, call, _ = _measure(fn, setup=setup, repeat=repeat, min_time=min_time)
    return rate, call


def _measure(fn, *, setup=None, repeat: int = 3, min_time: float = 0.2) -> tuple[float, float, float]:
    """``measure`` plus the largest peak memory any call reported (NaN if none did)."""
    best_rate, best_call, peak = 0.0, float("inf"), math.nan
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
            if gc_was:
                gc.enable()
            if isinstance(out, tuple):  # (units, seconds[, peak_mb]) measured by the callee
                m = Measured(*out)
                out, dt = m.units, m.seconds
                if not math.isnan(m.peak_mb):
                    peak = m.peak_mb if math.isnan(peak) else max(peak, m.peak_mb)
            units += int(out)
            elapsed += dt
            calls += 1
            best_call = min(best_call, dt)
        best_rate = max(best_rate, units / elapsed if elapsed > 0 else float("inf"))
    return best_rate, best_call, peak


_CHILD = r"""
import importlib, json, resource, sys, time


def peak_mb():
    # VmHWM: this process's own high-water mark.  ru_maxrss is not used where VmHWM exists: Linux carries the
    # parent's peak into a child started by fork/vfork + exec, so a large parent would inflate it.
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


importlib.import_module("pyradice_lab")  # the library's own import is not part of the measured call,
importlib.import_module("numpy")  # nor numpy's (``import pyradice_lab`` no longer imports it; pandas is measured)
spec = json.loads(sys.argv[1])
module, _, func = spec["target"].partition(":")
base = peak_mb()
c0, w0 = time.process_time(), time.perf_counter()
f = getattr(importlib.import_module(module), func)   # importing the target's modules is part of the call
out = f(**spec["kwargs"])
c1, w1 = time.process_time(), time.perf_counter()
peak = peak_mb()
units = int(out) if isinstance(out, int) and not isinstance(out, bool) else None
try:
    value = json.loads(json.dumps(out))
except (TypeError, ValueError):
    value = None
print(json.dumps({"cpu": c1 - c0, "wall": w1 - w0, "base_mb": base, "peak_mb": peak, "units": units,
                  "value": value}))
"""


def fresh_process(target: str, kwargs: dict | None = None, *, empty_numba_cache: bool = False,
                  env: dict | None = None, timeout: float | None = None) -> dict:
    """Call ``module:function(**kwargs)`` once in a new interpreter (after ``import pyradice_lab``).

    Returns ``cpu`` and ``wall`` seconds of the call (importing the target's module included),
    ``base_mb`` (peak resident memory before the call), ``peak_mb`` (peak resident memory of the process: its
    own high-water mark ``VmHWM`` on Linux, not ``ru_maxrss``, which a child inherits from a big parent),
    ``units`` (the call's return value if it is an int) and ``value`` (the return value if it is JSON).
    With ``empty_numba_cache`` the child gets a new, empty ``NUMBA_CACHE_DIR``: every compiled function it
    needs is compiled.  ``kwargs`` must be JSON-serialisable.
    """
    if not isinstance(target, str) or ":" not in target:
        raise ValueError(f"target must be 'module:function', got {target!r}")
    child_env = dict(env or {})
    spec = json.dumps({"target": target, "kwargs": dict(kwargs or {})})
    with tempfile.TemporaryDirectory(prefix="pyradice_lab_bench_") as tmp:
        if empty_numba_cache:
            child_env["NUMBA_CACHE_DIR"] = tmp
        out = run_python(_CHILD, [spec], env=child_env, timeout=timeout)  # in this process inside ``tiny()``
    if out.returncode != 0:
        tail = " ".join(out.stderr.strip().splitlines()[-1:])
        raise RuntimeError(f"{target} failed in a fresh process: {tail}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def cold_start(target: str, *, units: int = 1, child_env: dict | None = None, **kwargs) -> Callable[[], Measured]:
    """A bench callable: CPU seconds of the first ``target(**kwargs)`` call in a fresh process with an empty
    numba cache (the library imported first, as a notebook user would; the call imports the game's modules
    and numba, compiles what it needs and runs).  Any game can use it for its cold-start row::

        BenchCase("purramid first simulate_games(100), cold numba cache", "calls",
                  cold_start("pyradice_lab.purramid:simulate_games", n_games=100, rng=0),
                  max_seconds=3.0, cpu=True, repeat=1)

    ``child_env``: environment variables set in the fresh process besides the empty cache.
    """
    def run() -> Measured:
        r = fresh_process(target, kwargs, empty_numba_cache=True, env=child_env)
        return Measured(units, r["cpu"], r["peak_mb"])

    return run


def warm_start(target: str, *, units: int = 1, **kwargs) -> Callable[[], Measured]:
    """A bench callable: CPU seconds of the first ``target(**kwargs)`` call of a fresh process whose numba cache
    already holds the compiled code (filled by an untimed fresh process first, in a new ``NUMBA_CACHE_DIR``):
    what every later process pays -- importing the game and numba, numba's own start-up (its registries,
    ``scipy.linalg``), loading the kernels and running.  The floor under :func:`cold_start`'s row."""
    def run() -> Measured:
        with tempfile.TemporaryDirectory(prefix="pyradice_lab_bench_cache_") as cache:
            env = {"NUMBA_CACHE_DIR": cache}
            fresh_process(target, kwargs, env=env)  # compiles and fills the cache, untimed
            r = fresh_process(target, kwargs, env=env)
        return Measured(units, r["cpu"], r["peak_mb"])

    return run


def peak_rss(target: str, *, units: int = 1, **kwargs) -> Callable[[], Measured]:
    """A bench callable: peak resident memory (MB) of a fresh process that imports the library and calls
    ``target(**kwargs)`` once (numba's normal cache: a warm cache loads, a cold one compiles); the seconds
    are the call's wall time."""
    def run() -> Measured:
        r = fresh_process(target, kwargs)
        return Measured(units, r["wall"], r["peak_mb"])

    return run


def _entry_code() -> str:
    return "import sys\nfrom pyradice_lab.cli import main\nsys.exit(main(sys.argv[1:]))\n"


def cli_cpu(*args: str) -> Callable[[], Measured]:
    """A bench callable: CPU seconds (user + system) of ``pyradice-lab ARGS`` in a fresh interpreter,
    interpreter start-up included -- what a user's shell pays."""
    def run() -> Measured:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        run_python(_entry_code(), args, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return Measured(1, cpu)

    return run


_IMPORT_CHILD = r"""
import json, sys, time
t0 = time.process_time()
import numpy, pandas  # noqa: E401,F401
t1 = time.process_time()
for name in sys.argv[1:]:
    __import__(name)
t2 = time.process_time()
print(json.dumps({"base": t1 - t0, "extra": t2 - t1}))
"""


def import_cpu(*modules: str) -> Callable[[], Measured]:
    """A bench callable: CPU seconds of importing ``modules`` in a fresh interpreter, above what
    ``import numpy, pandas`` costs there (measured first, in the same process)."""
    def run() -> Measured:
        out = run_python(_IMPORT_CHILD, modules, check=True)
        return Measured(1, json.loads(out.stdout.strip().splitlines()[-1])["extra"])

    return run
