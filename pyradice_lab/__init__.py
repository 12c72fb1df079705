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

from ._lazy import attach  # noqa: E402

# everything loads on first use, numpy included: `import pyradice_lab` stays fast, and `pyradice-lab --help`
# or `pyradice-lab games` (which import the package and the games' __init__ only) never import numpy
__all__ = ["__version__"]
__getattr__, __dir__, __all__ = attach(globals(), {
    "rng": ["as_generator", "spawn"], "stats": ["Estimate", "mean_estimate", "proportion_estimate", "run_until"],
    "sweep": ["run_sweep"], "designer": ["compare", "Comparison"], "plausible": ["robustness"],
    "balancing": ["balance"]}, submodules=[
    "dice", "rng", "stats", "sweep", "designer", "plausible", "balancing", "report", "registry", "bench", "cli",
    "overview", "purramid", "pyradice", "raft", "meerkat"])

if TYPE_CHECKING:  # pragma: no cover - what static tools see
    from . import (
        bench as bench,
        cli as cli,
        designer as designer,
        dice as dice,
        meerkat as meerkat,
        overview as overview,
        purramid as purramid,
        pyradice as pyradice,
        raft as raft,
        registry as registry,
        report as report,
        rng as rng,
        stats as stats,
        sweep as sweep,
    )
    from .balancing import balance as balance
    from .designer import Comparison as Comparison, compare as compare
    from .plausible import robustness as robustness
    from .rng import as_generator as as_generator, spawn as spawn
    from .stats import (
        Estimate as Estimate,
        mean_estimate as mean_estimate,
        proportion_estimate as proportion_estimate,
        run_until as run_until,
    )
    from .sweep import run_sweep as run_sweep
