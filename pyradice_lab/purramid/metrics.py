"""Purramid's designer metrics (:data:`METRICS`), offered after the common ones
(:data:`pyradice_lab.engine.metrics.COMMON`) by :func:`pyradice_lab.design.metrics.metrics`.

>>> sorted(METRICS)
['burst_rate', 'game_length', 'tiles_per_turn']
"""

from __future__ import annotations

import numpy as np

from ..engine.controls import Controls, GameControls
from ..engine.metrics import Metric, column, ratio

__all__ = ["METRICS", "CONTROLS", "turn_luck"]

#: name -> :class:`~pyradice_lab.engine.metrics.Metric`: Purramid's own designer metrics.
METRICS: dict[str, Metric] = {
    "game_length": Metric("normal turns in a game", column("turns")),
    "burst_rate": Metric("bursts per normal turn (over all games)", ratio("bursts", "turns")),
    "tiles_per_turn": Metric("tiles on the board at the end per normal turn (over all games)",
                             ratio("tiles_on_board", "turns")),
}


def turn_luck(frame) -> Controls:
    """Each optimal seat's *turn luck* in the games of ``frame`` (a :func:`~.sim.simulate_games` frame): the sum
    over its turns of what the turn realised under its objective minus the exact value the solver gave the turn
    at its start (``value_p - expected_p``).  Each turn's term has mean 0 given the position it starts from (the
    seat plays the policy it solved, and the solver's dice are the game's), so the sum has mean 0 exactly: a
    control variate with a known mean, read off the games already played (the rollouts' "luck" correction of
    backgammon programs).  Seats that do not play ``optimal`` have no such values and give no control.

    >>> import pandas as pd
    >>> f = pd.DataFrame({"players": [2, 2], "value_0": [9.0, 7.0], "expected_0": [8.0, 8.5],
    ...                   "value_1": [float("nan")] * 2, "expected_1": [float("nan")] * 2})
    >>> c = turn_luck(f)
    >>> c.names, c.values[:, 0].tolist(), c.means.tolist()
    (("seat 1's turn luck",), [1.0, -1.5], [0.0])
    """
    players = int(frame["players"].iloc[0]) if len(frame) else 0
    seats = [p for p in range(players) if f"value_{p}" in frame and f"expected_{p}" in frame
             and frame[f"value_{p}"].notna().all() and frame[f"expected_{p}"].notna().all()]
    if not seats:
        raise ValueError("controls: Purramid's turn luck needs a seat playing 'optimal' (the exact values of its "
                         "turns); these games have none")
    values = np.stack([frame[f"value_{p}"].to_numpy(float) - frame[f"expected_{p}"].to_numpy(float)
                       for p in seats], axis=1)
    return Controls(tuple(f"seat {p + 1}'s turn luck" for p in seats), values, np.zeros(len(seats)))


#: the contract part ``controls``: the optimal seats' turn luck (mean 0 exactly), read off the games played
CONTROLS = GameControls(None, "each optimal seat's turn luck (realised minus the exact turn values solved; mean 0)",
                        from_games=turn_luck, needs="optimal", short="turn-luck controls")
