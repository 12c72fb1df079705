"""Control variates that cost no games: a game's exogenous variables, whose means are known exactly (issue 47 item 1).

:mod:`.multifidelity` pays for its control (the heuristic's games) and gains little, because the heuristic's games
drift away from the strong player's.  A game's *exogenous* variables (the deck order, the tiles dealt: what its
seed draws before anyone plays) are read off the very games the strong player plays, and their means are known
exactly from the components (the contract part ``controls``, :class:`~pyradice_lab.engine.controls.GameControls`).
With ``n`` games, per-game metric values ``y`` and ``k`` controls ``X`` of exact means ``mu``, the estimate is

    estimate = mean(y) - b . (mean(X) - mu),

``b`` the least-squares slopes of ``y`` on ``X``: the intercept of the regression of ``y`` on ``X - mu``, with its
ordinary least-squares standard error and a Student-t interval of ``n - 1 - k`` degrees of freedom (exact for a
linear model with normal errors; its coverage on a real game is tested).  The variance shrinks by about
``1 / (1 - R^2)`` at no extra games; the recomputed deal costs a little CPU, counted in the factor at equal CPU.
Below :data:`~pyradice_lab.design.multifidelity.WORTH_USING` the plain estimate stands.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> x = rng.normal(size=(400, 1)); y = 2 + 0.9 * x[:, 0] + 0.3 * rng.normal(size=400)
>>> e = regression_estimate(y, x, [0.0])
>>> round(e.value, 1), bool(e.se < np.std(y, ddof=1) / 20 / 2)
(2.0, True)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..engine import registry
from ..engine.controls import regression_estimate
from ..engine.stats import Estimate
from .multifidelity import WORTH_USING, _per_game

__all__ = ["regression_estimate", "exogenous_estimate", "ExogenousEstimate", "Controlled", "controlled_paired",
           "variance_factor"]


@dataclass(frozen=True)
class ExogenousEstimate:
    """A measured estimate of one metric with a game's exogenous controls (:func:`exogenous_estimate`)."""

    game: str
    metric: str
    player: str
    players: int
    controls: tuple[str, ...]
    estimate: Estimate          # with the controls
    plain: Estimate             # the same games alone
    r2: float                   # share of the per-game variance the controls explain
    cost_games: float           # CPU seconds of the games
    cost_controls: float        # CPU seconds of recomputing the controls
    seed: int

    @property
    def factor(self) -> float:
        """The variance-reduction factor at equal CPU: the plain estimate's variance over the controlled one's,
        times the games' share of the CPU (the controls' recomputation is paid too)."""
        if self.estimate.se == 0:
            return math.inf if self.plain.se > 0 else 1.0
        return (self.plain.se / self.estimate.se) ** 2 * self.cost_games / (self.cost_games + self.cost_controls)

    @property
    def used(self) -> bool:
        return self.factor >= WORTH_USING

    def __str__(self) -> str:
        e, p = self.estimate, self.plain
        verdict = "worth using" if self.used else f"not used (below {WORTH_USING}): the plain estimate stands"
        return (f"{self.game} {self.metric}, {self.players} players, {self.player} in every seat (seed {self.seed}, "
                f"{e.n} games): {registry.get_game(self.game).part('controls').label} ({', '.join(self.controls)}) "
                f"explain R^2 {self.r2:.2f}; variance "
                f"{self.factor:.2f}x smaller at equal CPU: {verdict}. Estimate {e.value:.4f} [{e.ci_low:.4f}, "
                f"{e.ci_high:.4f}]; the games alone {p.value:.4f} [{p.ci_low:.4f}, {p.ci_high:.4f}]")


def exogenous_estimate(game: str, metric: str, *, games: int = 200, players: int | None = None,
                       player: str | None = None, rng: int = 0, components=None) -> ExogenousEstimate:
    """Play ``games`` games of ``player`` (default: the report player at that count) in every seat and estimate
    ``metric`` with the game's exogenous controls (its contract part ``controls``), beside the plain estimate of
    the same games.  ValueError when the game declares no controls."""
    from .metrics import _check_game, check_metric, metric_values

    game = _check_game(game)
    check_metric(game, metric)
    spec = registry.get_game(game)
    declared = spec.part("controls", None)
    if declared is None:
        raise ValueError(f"game: {game} declares no exogenous controls (its metrics.CONTROLS)")
    if isinstance(games, bool) or not isinstance(games, int) or not 10 <= games <= 100_000:
        raise ValueError(f"games must be an int in 10..100000, got {games!r}")
    if isinstance(rng, bool) or not isinstance(rng, int) or rng < 0:
        raise ValueError(f"rng must be an int >= 0, got {rng!r}")
    player = player or spec.report_player_at(players)
    if player not in spec.policies:
        raise ValueError(f"player must be a {game} policy ({', '.join(spec.policies)}), got {player!r}")
    players = spec.default_players if players is None else players
    declared.check_players(player)
    t0 = time.process_time()
    df = spec.module("sim").simulate_games(games, players=players, policies=[player] * players, rng=rng,
                                           components=components)
    num, den = metric_values(game, df, metric)
    y = _per_game(num, den)
    t1 = time.process_time()
    c = declared.controls(df, games, players=players, rng=rng, components=components)
    t2 = time.process_time()
    est = regression_estimate(y, c.values, c.means)
    plain = regression_estimate(y, np.zeros((games, 0)), [])
    if c.n != games:
        raise ValueError(f"controls: {game} computed {c.n} rows of controls for {games} games")
    return ExogenousEstimate(game, metric, player, players, c.names, est, plain, _r2(y, c.values), t1 - t0, t2 - t1,
                             rng)


def _r2(y: np.ndarray, X: np.ndarray) -> float:
    if np.std(y) == 0:
        return 0.0
    Z = np.column_stack([np.ones(len(y)), X])
    coef, *_ = np.linalg.lstsq(Z, y, rcond=None)
    return float(1 - np.var(y - Z @ coef) / np.var(y))


# ------------------------------------------------------------------------- compare(..., controls=True)
@dataclass(frozen=True)
class Controlled:
    """A paired comparison's estimates with the games' exogenous controls (:func:`controlled_paired`): the base,
    variant and difference estimates, the difference without controls (``plain``), the controls' names and the
    variance-reduction factor of the difference, ``(plain SE / controlled SE)^2`` on the same games."""

    base: Estimate
    variant: Estimate
    difference: Estimate
    plain: Estimate
    names: tuple[str, ...]

    @property
    def factor(self) -> float:
        return variance_factor(self.plain, self.difference)


def variance_factor(plain: Estimate, controlled: Estimate) -> float:
    """``(plain SE / controlled SE)^2``: how many times more games the plain estimate needs for the same interval
    (``inf`` when only the controlled SE is 0, 1 when both are)."""
    if controlled.se == 0:
        return math.inf if plain.se > 0 else 1.0
    return (plain.se / controlled.se) ** 2


def controlled_paired(base_values, variant_values, Xb, mub, Xv, muv, plain: Estimate, names=()) -> Controlled:
    """Base, variant and paired-difference estimates with exogenous controls.

    ``base_values`` / ``variant_values``: per-game values whose means are the two metrics (a ratio's linearised
    values, :func:`pyradice_lab.design.metrics._linear`), the same games in the same order; ``Xb``/``Xv`` the
    controls of each side's games (``(n, k)``; the variant's deck may differ from the base's) and ``mub``/``muv``
    their exact means.  Each side is regressed on its own controls, the difference on both sides' controls
    (:func:`regression_estimate`: Student-t with ``n - 1 - k`` degrees of freedom).

    >>> rng = np.random.default_rng(1)
    >>> x = rng.normal(size=(300, 1)); y = x[:, 0] + 0.1 * rng.normal(size=300)
    >>> plain = regression_estimate(0.5 * y + 0.2, np.zeros((300, 0)), [])
    >>> c = controlled_paired(y, 1.5 * y + 0.2, x, [0.0], x, [0.0], plain)
    >>> round(c.difference.value, 1), c.factor > 10
    (0.2, True)
    """
    yb, yv = np.asarray(base_values, dtype=float), np.asarray(variant_values, dtype=float)
    Xb, Xv = np.asarray(Xb, dtype=float), np.asarray(Xv, dtype=float)
    b = regression_estimate(yb, Xb, mub)
    v = regression_estimate(yv, Xv, muv)
    d = regression_estimate(yv - yb, np.hstack([Xb, Xv]), np.concatenate([np.ravel(mub), np.ravel(muv)]))
    return Controlled(b, v, d, plain, tuple(names))
