"""pyradice_lab: exact probability and honest Monte Carlo for four dice/dexterity board games.

The tree is the architecture, in layers that import only downwards (``docs/architecture.md``):

- :mod:`~pyradice_lab.engine`: shared machinery (exact dice, seeding, estimates with intervals, sweeps, the
  registry, component files).
- the games, each a subpackage with the same shape: ``purramid``, ``pyradice``, ``raft`` (Rocking Raft) and
  ``meerkat`` (Meerkat Kingdom).
- :mod:`~pyradice_lab.design`: the designer's tools (compare, robustness, balance, the strength ladder).
- :mod:`~pyradice_lab.report`: the PDF report.
- :mod:`~pyradice_lab.cli` and :mod:`~pyradice_lab.bench`: the front ends.

>>> import pyradice_lab as pl
>>> pl.proportion_estimate(50, 100).value
0.5
"""

from typing import TYPE_CHECKING

from .engine._lazy import attach
from .engine._version import __version__

# everything loads on first use, numpy included: `import pyradice_lab` stays fast, and `pyradice-lab --help`
# or `pyradice-lab games` (which import the package and the games' __init__ only) never import numpy
__all__ = ["__version__"]
__getattr__, __dir__, __all__ = attach(globals(), {
    "engine.rng": ["as_generator", "spawn"],
    "engine.stats": ["Estimate", "mean_estimate", "proportion_estimate", "run_until", "SmallSampleWarning"],
    "engine.sweep": ["run_sweep"], "engine.notices": ["CompileWarning"],
    "design.compare": ["compare", "Comparison", "compare_settings"],
    "design.robustness": ["robustness", "robustness_many"], "design.balance": ["balance", "balance_finding"]}, submodules=[
    "engine", "design", "report", "bench", "cli", "purramid", "pyradice", "raft", "meerkat"])

if TYPE_CHECKING:  # pragma: no cover - what static tools see
    from . import (
        bench as bench,
        cli as cli,
        design as design,
        engine as engine,
        meerkat as meerkat,
        purramid as purramid,
        pyradice as pyradice,
        raft as raft,
        report as report,
    )
    from .design.balance import balance as balance, balance_finding as balance_finding
    from .design.compare import (
        Comparison as Comparison,
        compare as compare,
        compare_settings as compare_settings,
    )
    from .design.robustness import robustness as robustness, robustness_many as robustness_many
    from .engine.notices import CompileWarning as CompileWarning
    from .engine.rng import as_generator as as_generator, spawn as spawn
    from .engine.stats import (
        Estimate as Estimate,
        SmallSampleWarning as SmallSampleWarning,
        mean_estimate as mean_estimate,
        proportion_estimate as proportion_estimate,
        run_until as run_until,
    )
    from .engine.sweep import run_sweep as run_sweep
