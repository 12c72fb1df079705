"""Shared machinery, below everything else: nothing here imports a game, the designer's tools or the report.

- :mod:`~pyradice_lab.engine.dice`: exact d6 multisets and subset-sum odds.
- :mod:`~pyradice_lab.engine.rng`: ``SeedSequence`` spawning (every game's seed from the root seed by index).
- :mod:`~pyradice_lab.engine.stats`: :class:`~pyradice_lab.engine.stats.Estimate`, t and Wilson intervals,
  run-until-precision.
- :mod:`~pyradice_lab.engine.sweep`: a grid of cells to a tidy frame on loky or dask, cached and resumable.
- :mod:`~pyradice_lab.engine.execution`: the one execution layer: deterministic blocks on loky, dask or threads,
  joined in order, resumable, with progress (every heavy entry point runs on it).
- :mod:`~pyradice_lab.engine.outcomes`: the common outcomes frame every game's simulation converts to.
- :mod:`~pyradice_lab.engine.limits`: the size limits every public function checks.
- :mod:`~pyradice_lab.engine.schema`: component files (TOML) validated with errors that name the key.
- :mod:`~pyradice_lab.engine.registry`: what each game package tells the rest of the library about itself.
- :mod:`~pyradice_lab.engine.metrics`: the designer metric declaration (``Metric``), smooth metrics (``Smooth`` and
  its registry of forms) and the metrics every game has; each game declares its own in ``<game>/metrics.py``.
- :mod:`~pyradice_lab.engine.checkspec`: the robustness checks a game declares for its findings (``checks.CHECKS``).
- :mod:`~pyradice_lab.engine.sampling`: plausible component sets (the primitive the games' ``sample_plausible``
  share).
- :mod:`~pyradice_lab.engine.cliargs`: argument types and output paths for the CLI (the games' and the top one).
- :mod:`~pyradice_lab.engine.levers`: the balance levers a game declares (:class:`~pyradice_lab.engine.levers.GameLevers`).
- :mod:`~pyradice_lab.engine.benchcase`: one benchmark row (:class:`BenchCase`) for the games' bench modules.
- :mod:`~pyradice_lab.engine.plan`: a game's report plan and bench plan (the types of its ``plan.py``).
- :mod:`~pyradice_lab.engine.aot`: ahead-of-time builds of what first calls compile (``pyradice-lab compile``).
- :mod:`~pyradice_lab.engine.reportplayers`: a game's report player per player count and the ladder that chose it
  (the type of its ``strength.py``).
- private: ``_jit`` (numba with a pure-Python fallback), ``_sources`` (code fingerprints), ``_lazy`` (lazy
  package attributes), ``_version``.

>>> from pyradice_lab.engine import dice
>>> dice.multisets(2)[0].shape
(21, 2)
"""

from ._lazy import attach

__getattr__, __dir__, __all__ = attach(globals(), {}, submodules=[
    "dice", "rng", "stats", "sweep", "execution", "outcomes", "limits", "schema", "registry", "sampling", "cliargs", "benchcase",
    "findings", "results", "figures", "metrics", "levers", "checkspec", "plan", "reportplayers", "aot"])
