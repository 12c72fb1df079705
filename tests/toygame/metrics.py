"""The toy race's designer metrics (:data:`METRICS`), offered after the common ones
(:data:`pyradice_lab.engine.metrics.COMMON`): the game's length and how often a turn busts.

>>> sorted(METRICS)
['bust_rate', 'game_length']
"""

from __future__ import annotations

from pyradice_lab.engine.metrics import Metric, column

__all__ = ["METRICS"]


def _bust_rate(df, out, arg):
    return df[["busts_0", "busts_1"]].to_numpy(dtype=float).sum(axis=1), df["turns"].to_numpy(dtype=float)


#: name -> :class:`~pyradice_lab.engine.metrics.Metric`: the toy race's own designer metrics.
METRICS: dict[str, Metric] = {
    "game_length": Metric("turns in a game", column("turns")),
    "bust_rate": Metric("share of turns that end in a bust (over all games)", _bust_rate),
}
