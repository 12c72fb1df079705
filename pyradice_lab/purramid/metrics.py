"""Purramid's designer metrics (:data:`METRICS`), offered after the common ones
(:data:`pyradice_lab.engine.metrics.COMMON`) by :func:`pyradice_lab.design.metrics.metrics`.

>>> sorted(METRICS)
['burst_rate', 'game_length', 'tiles_per_turn']
"""

from __future__ import annotations

from ..engine.metrics import Metric, column, ratio

__all__ = ["METRICS"]

#: name -> :class:`~pyradice_lab.engine.metrics.Metric`: Purramid's own designer metrics.
METRICS: dict[str, Metric] = {
    "game_length": Metric("normal turns in a game", column("turns")),
    "burst_rate": Metric("bursts per normal turn (over all games)", ratio("bursts", "turns")),
    "tiles_per_turn": Metric("tiles on the board at the end per normal turn (over all games)",
                             ratio("tiles_on_board", "turns")),
}
