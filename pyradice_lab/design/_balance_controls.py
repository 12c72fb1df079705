"""``balance(..., controls=True)``: every estimate of the search and of its verification with the game's controls
read off the same games (issue 47 item 1: Purramid's turn luck, mean 0 exactly; the contract part ``controls``).

A run of the search plays ``simulate_games`` once; with controls it also returns the games' controls as
pseudo-metrics ``@control:<j>`` (the values over a "denominator" holding the control's exact mean), so that they
travel with the metrics through the rounds, the workers, the in-memory runs of a proposal and the on-disk cache
(whose key holds the metrics' names: a controlled run is never read for a plain one).  An estimate is then the
intercept of the regression of the metric's per-game values on the controls
(:func:`pyradice_lab.engine.controls.regression_estimate`, Student-t interval), as in ``robustness(...,
controls=True)``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CONTROLS_KEY", "PREFIX", "check_controls", "add_controls", "estimate", "is_control", "available"]

#: the entry of a run's metrics list that asks for the controls
CONTROLS_KEY = "@controls"
#: the names of the controls' columns among a run's metrics
PREFIX = "@control:"


def is_control(name: str) -> bool:
    """Whether a run's entry ``name`` is a control column or the request for them (not a metric)."""
    return name == CONTROLS_KEY or name.startswith(PREFIX)


def check_controls(game: str, controls, metrics, kwargs, verify_policies=None) -> None:
    """``controls=`` checked before any game: robustness's checks (a bool; the game declares controls read off its
    games; a search seat plays what they need), then no objective of restricted play (its games are others) and
    the verification's seats too."""
    from .robustness import _check_robustness_controls

    _check_robustness_controls(game, controls, False, kwargs, None)
    if not controls:
        return
    from ..engine import registry
    from ._restricted_games import is_restricted

    restricted = [m for m in metrics if is_restricted(game, m)]
    if restricted:
        raise ValueError(f"controls: an objective of restricted play ({restricted[0]}) is measured on its own games; "
                         "balance with controls takes objectives of the search's games only")
    if verify_policies is not None:
        registry.get_game(game).part("controls").check_players(verify_policies)


def available(game: str, metric: str, policies, verify_policies=None) -> bool:
    """Whether a proposal (``balance --finding``, the report's) searches ``metric`` with the game's controls: the
    game declares controls read off its games, ``metric`` is measured on the search's games, and the seats of the
    search and of its verification can give them (Purramid: every seat ``optimal``)."""
    try:
        check_controls(game, True, [metric], {"policies": policies}, verify_policies)
    except (ValueError, TypeError):
        return False
    return True


def add_controls(game: str, df, out: dict, kwargs) -> None:
    """The controls of the games of ``df`` (one run's frame) into ``out`` as ``@control:<j>`` columns."""
    from ..engine.registry import get_game

    ctl = get_game(game).part("controls").controls(df, len(df), players=kwargs.get("players"), rng=None)
    for j in range(ctl.values.shape[1]):
        out[f"{PREFIX}{j}"] = (np.asarray(ctl.values[:, j], dtype=float), np.full(len(df), float(ctl.means[j])))


def estimate(values: dict, metric: str):
    """The estimate of ``metric`` from a run's ``values`` (``{name: (numerator, denominator)}``, rounds joined):
    with its games' controls when they are among ``values`` and there are at least ``SMALL_SAMPLE`` games (the
    regression's intervals are coverage-tested from there: a first round of 10 games is estimated plainly), else
    the plain one."""
    from ..engine.stats import SMALL_SAMPLE
    from .compare import metric_estimate

    cols = sorted((k for k in values if k.startswith(PREFIX)), key=lambda k: int(k[len(PREFIX):]))
    if not cols or len(values[cols[0]][0]) < SMALL_SAMPLE:
        return metric_estimate(*values[metric], metric, warn=False)
    from ..engine.controls import regression_estimate
    from .multifidelity import _per_game

    num, den = (np.asarray(a, dtype=float) for a in values[metric])
    X = np.column_stack([values[k][0] for k in cols])
    return regression_estimate(_per_game(num, den), X, [float(values[k][1][0]) for k in cols])
