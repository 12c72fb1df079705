"""pyradice_lab: exact probability and honest Monte Carlo for four dice/dexterity board games.

Games (each a subpackage with the same shape): ``purramid``, ``pyradice``, ``raft`` (Rocking Raft) and
``meerkat`` (Meerkat Kingdom).  Shared machinery: :mod:`~pyradice_lab.dice` (exact d6 multisets),
:mod:`~pyradice_lab.rng`, :mod:`~pyradice_lab.stats` (estimates with confidence intervals),
:mod:`~pyradice_lab.sweep` (parallel, resumable parameter sweeps), :mod:`~pyradice_lab.report` (PDF),
:mod:`~pyradice_lab.bench` and :mod:`~pyradice_lab.registry`.

>>> import pyradice_lab as pl
>>> pl.proportion_estimate(50, 100).value
0.5
"""

__version__ = "0.1.0"

from . import dice, rng, stats  # noqa: E402
from .rng import as_generator, spawn  # noqa: E402
from .stats import Estimate, mean_estimate, proportion_estimate, run_until  # noqa: E402


def __getattr__(name):
    # heavier modules load on first use so `import pyradice_lab` stays fast
    import importlib

    if name in ("sweep", "report", "registry", "bench", "cli", "overview",
                "purramid", "pyradice", "raft", "meerkat"):
        return importlib.import_module(f"{__name__}.{name}")
    if name == "run_sweep":
        from .sweep import run_sweep

        return run_sweep
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["__version__", "dice", "rng", "stats", "as_generator", "spawn", "Estimate", "mean_estimate",
           "proportion_estimate", "run_until", "run_sweep"]
