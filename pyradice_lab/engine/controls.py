"""Exogenous control variables of a game (the contract part ``controls``: ``<game>/metrics.py``'s ``CONTROLS``).

A game's *exogenous* variables depend only on the chance draws a seed makes before anyone plays (the deck order,
the tile layout, the objective cards dealt), never on play, so their expectations are known exactly from the
components.  :func:`pyradice_lab.design.controlvariates.exogenous_estimate` uses them as control variates on the
very games it plays (no extra games).  A game declares them with :class:`GameControls`; its ``compute`` returns a
:class:`Controls` for the games ``simulate_games(n_games, players=..., rng=seed, components=...)`` plays, recomputed
from the same seed stream (the deal only: no game is played), so game ``i``'s row belongs to game ``i``.

A game may instead (or also) declare controls read off the played games whose means are known exactly for
another reason: ``from_games``.  Purramid's are each optimal seat's *turn luck*, the sum over its turns of what
the turn realised minus the exact value the solver gave it at the turn's start: a sum of martingale differences,
mean 0 exactly (the backgammon rollouts' "luck" variance reduction).  Such controls exist only for some players
(``needs``: a policy name prefix one seat at least must play, e.g. ``"optimal"``).

>>> c = Controls(("a",), np.array([[1.0], [3.0]]), np.array([2.0]))
>>> c.values.shape, c.n
((2, 1), 2)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .stats import Estimate

__all__ = ["Controls", "GameControls", "regression_estimate"]


@dataclass(frozen=True)
class Controls:
    """Per-game values of ``k`` exogenous variables (``values``: shape ``(n_games, k)``) and their exact means."""

    names: tuple[str, ...]
    values: np.ndarray
    means: np.ndarray

    def __post_init__(self):
        v, m = np.asarray(self.values, dtype=float), np.asarray(self.means, dtype=float).ravel()
        if v.ndim != 2 or v.shape[1] != len(self.names) or m.shape != (len(self.names),):
            raise ValueError(f"controls: values must be (games, {len(self.names)}) and means ({len(self.names)},), "
                             f"got {v.shape} and {m.shape}")
        if not (np.all(np.isfinite(v)) and np.all(np.isfinite(m))):
            raise ValueError("controls: values and means must be finite")
        object.__setattr__(self, "values", v)
        object.__setattr__(self, "means", m)
        object.__setattr__(self, "names", tuple(self.names))

    @property
    def n(self) -> int:
        return len(self.values)


@dataclass(frozen=True)
class GameControls:
    """What a game declares: ``compute(n_games, *, players, rng, components=None) -> Controls`` for the games of
    ``simulate_games`` with the same arguments (``rng`` an int seed), and a sentence saying what they are; or
    ``from_games(frame) -> Controls`` reading them off a ``simulate_games`` frame (``compute`` then None), with
    ``needs`` the policy-name prefix they require at one seat at least (see the module docstring); ``short``: what
    a robustness column calls them ("turn-luck controls")."""

    compute: Callable[..., Controls] | None
    describe: str
    from_games: Callable[..., Controls] | None = None
    needs: str | None = None
    short: str = "controls"

    def __post_init__(self):
        if (self.compute is None) == (self.from_games is None):
            raise ValueError("GameControls: give exactly one of compute and from_games")

    @property
    def label(self) -> str:
        """What outputs call them: "exogenous controls" (drawn before play) or :attr:`short`."""
        return "exogenous controls" if self.from_games is None else self.short

    def check_players(self, policies) -> None:
        """ValueError before any game when the seats' ``policies`` (names, or one name for every seat) cannot
        give these controls (no seat plays a policy starting with :attr:`needs`)."""
        if self.needs is None:
            return
        names = [policies] if isinstance(policies, str) else list(policies or [])
        names = [str(getattr(p, "name", p)) for p in names]
        if not any(n.startswith(self.needs) for n in names):
            raise ValueError(f"controls: {self.describe} need a seat playing {self.needs!r}; the seats play "
                             f"{', '.join(names) or 'the default'}")

    def controls(self, frame, n_games: int, *, players: int, rng, components=None) -> Controls:
        """The controls of the games of ``frame`` (``simulate_games(n_games, players=players, rng=rng,
        components=components)``): read off the frame, or recomputed from the seed."""
        c = self.from_games(frame) if self.from_games is not None else \
            self.compute(n_games, players=players, rng=rng, components=components)
        if c.n != n_games:
            raise ValueError(f"controls: {c.n} rows of controls for {n_games} games")
        return c


def regression_estimate(y, X, mu, *, confidence: float = 0.95) -> Estimate:
    """The mean of ``y`` with the controls ``X`` (shape ``(n, k)``) of exact means ``mu`` (``k`` values): the
    intercept of the least-squares fit of ``y`` on ``X - mu``, its OLS standard error and Student-t interval with
    ``n - 1 - k`` degrees of freedom.  Controls that do not vary are dropped; ``k`` is the rank of the others
    (a control that repeats another, or a sum of others, adds nothing and costs no degree of freedom)."""
    y = np.asarray(y, dtype=float).ravel()
    X = np.asarray(X, dtype=float)
    X = X.reshape(len(X), -1) if X.ndim != 2 else X
    mu = np.asarray(mu, dtype=float).ravel()
    n = len(y)
    if X.shape[0] != n:
        raise ValueError(f"X must hold one row of controls per value of y: got {X.shape[0]} rows for {n}")
    if mu.shape != (X.shape[1],):
        raise ValueError(f"mu must give one exact mean per control ({X.shape[1]}), got {mu.shape[0]}")
    if not (np.all(np.isfinite(y)) and np.all(np.isfinite(X)) and np.all(np.isfinite(mu))):
        raise ValueError("y, X and mu must hold finite numbers")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    keep = np.ptp(X, axis=0) > 0 if n else np.zeros(X.shape[1], bool)
    Z = np.column_stack([np.ones(n), X[:, keep] - mu[keep]])
    k = int(np.linalg.matrix_rank(Z)) - 1 if n else Z.shape[1] - 1  # a control repeated (both sides' decks) counts once
    if n < k + 3:
        raise ValueError(f"y needs at least {k + 3} games for {k} controls, got {n}")
    from scipy.special import stdtrit

    coef, *_ = np.linalg.lstsq(Z, y, rcond=None)
    resid = y - Z @ coef
    s2 = float(resid @ resid) / (n - 1 - k)
    se = math.sqrt(s2 * float(np.linalg.pinv(Z.T @ Z)[0, 0]))
    q = float(stdtrit(n - 1 - k, 0.5 + confidence / 2))
    value = float(coef[0])
    return Estimate(value, se, n, value - q * se, value + q * se, confidence, "t", n - 1 - k)
