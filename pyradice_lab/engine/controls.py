"""Exogenous control variables of a game (the contract part ``controls``: ``<game>/metrics.py``'s ``CONTROLS``).

A game's *exogenous* variables depend only on the chance draws a seed makes before anyone plays (the deck order,
the tile layout, the objective cards dealt), never on play, so their expectations are known exactly from the
components.  :func:`pyradice_lab.design.controlvariates.exogenous_estimate` uses them as control variates on the
very games it plays (no extra games).  A game declares them with :class:`GameControls`; its ``compute`` returns a
:class:`Controls` for the games ``simulate_games(n_games, players=..., rng=seed, components=...)`` plays, recomputed
from the same seed stream (the deal only: no game is played), so game ``i``'s row belongs to game ``i``.

>>> c = Controls(("a",), np.array([[1.0], [3.0]]), np.array([2.0]))
>>> c.values.shape, c.n
((2, 1), 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["Controls", "GameControls"]


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
    ``simulate_games`` with the same arguments (``rng`` an int seed), and a sentence saying what they are."""

    compute: Callable[..., Controls]
    describe: str
