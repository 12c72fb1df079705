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

from typing import TYPE_CHECKING  # noqa: E402

from . import dice, rng, stats  # noqa: E402
from ._lazy import attach  # noqa: E402
from .rng import as_generator, spawn  # noqa: E402
from .stats import Estimate, mean_estimate, proportion_estimate, run_until  # noqa: E402

# heavier modules and the games load on first use, so `import pyradice_lab` stays fast
__all__ = ["__version__", "dice", "rng", "stats", "as_generator", "spawn", "Estimate", "mean_estimate",
           "proportion_estimate", "run_until"]
__getattr__, __dir__, __all__ = attach(globals(), {
    "sweep": ["run_sweep"], "designer": ["compare", "Comparison"], "plausible": ["robustness"],
    "balancing": ["balance"]}, submodules=[
    "sweep", "designer", "plausible", "balancing", "report", "registry", "bench", "cli", "overview", "purramid",
    "pyradice", "raft", "meerkat"])

if TYPE_CHECKING:  # pragma: no cover - what static tools see
    from . import (
        bench as bench,
        cli as cli,
        designer as designer,
        meerkat as meerkat,
        overview as overview,
        purramid as purramid,
        pyradice as pyradice,
        raft as raft,
        registry as registry,
        report as report,
        sweep as sweep,
    )
    from .balancing import balance as balance
    from .designer import Comparison as Comparison, compare as compare
    from .plausible import robustness as robustness
    from .sweep import run_sweep as run_sweep
