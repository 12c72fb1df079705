"""The designer's tools, above the games (which they reach through the registry) and below the report.

- :mod:`~pyradice_lab.design.compare`: paired comparison of two component sets on the same games (common
  random numbers) (``pl.compare``).
- :mod:`~pyradice_lab.design.metrics`: the designer metrics (per-game numbers and ratios, delta-method SEs).
- :mod:`~pyradice_lab.design.robustness`: does a finding hold on plausible component sets? (``pl.robustness``)
- :mod:`~pyradice_lab.design.checks`: the report's robustness column: every game's declared checks
  (``<game>/checks.py``) run, matched to the findings they assess and sized by their claims.
- :mod:`~pyradice_lab.design.balance`: search component values for an objective, verified on fresh games
  (``pl.balance``).
- :mod:`~pyradice_lab.design.strength`: the strength ladder and restricted play.
- :mod:`~pyradice_lab.design.proposals`: the report's proposed component changes (a ``balance`` run per claimed,
  robust component finding, with the game's levers).
- :mod:`~pyradice_lab.design.strength_report`: the report's strength experiments, computed from each game's plan.
- :mod:`~pyradice_lab.design.multifidelity`: a strong player's metric with many cheap games as a control variate,
  and what that buys at equal CPU.
- :mod:`~pyradice_lab.design.controlvariates`: the same games' exogenous variables (exact means) as control
  variates, at no extra games.

>>> import pyradice_lab.design as design
>>> "compare" in dir(design)
True
"""

from ..engine._lazy import attach

__getattr__, __dir__, __all__ = attach(globals(), {}, submodules=["compare", "metrics", "robustness", "checks", "balance",
                                                               "strength", "strength_report", "proposals",
                                                               "multifidelity", "controlvariates"])
