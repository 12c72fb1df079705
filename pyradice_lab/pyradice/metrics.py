"""Pyradice's designer metrics (:data:`METRICS`), offered after the common ones
(:data:`pyradice_lab.engine.metrics.COMMON`) by :func:`pyradice_lab.design.metrics.metrics`: goal tokens met, card
points per player (all cards, one slot or one card by name) and the difference of two cards' points.

>>> sorted(METRICS)
['card_points', 'card_points_difference', 'game_length', 'goal_rate']
"""

from __future__ import annotations

import numpy as np

from ..engine.metrics import Metric, column, ones, ratio_difference, seat_columns

__all__ = ["METRICS"]


def _goal_rate(df, out, arg):
    seats = seat_columns(df, "{s}")
    if arg:
        if arg not in {f"L{i}" for i in range(1, 6)}:
            raise ValueError(f"metric: goal_rate takes a goal level L1..L5, got {arg!r}")
        num = df[[f"goal_{arg}_s{s}" for s in seats]].to_numpy(dtype=float).sum(axis=1)
        return num, np.full(len(df), float(len(seats)))
    num = df[[f"goals_s{s}" for s in seats]].to_numpy(dtype=float).sum(axis=1)
    return num, np.full(len(df), 5.0 * len(seats))


def _card(df, seats, card: str, name: str = "card_points") -> tuple[np.ndarray, np.ndarray]:
    """Per game: points per seat from ``card`` (a slot 1..4 of the line-up, or a card's name), and whether the
    game's line-up has it (a frame may join games of several line-ups)."""
    if card in ("1", "2", "3", "4"):
        return df[[f"card{card}_s{s}" for s in seats]].to_numpy(dtype=float).mean(axis=1), ones(df)
    names = sorted({str(x) for j in range(1, 5) for x in df[f"card{j}"].unique()})
    if card not in names:
        raise ValueError(f"metric: {name} takes a card slot 1..4 or the name of a card in these games' line-ups "
                         f"({', '.join(names)}), got {card!r}")
    x, has = np.zeros(len(df)), np.zeros(len(df))
    for j in range(1, 5):
        here = (df[f"card{j}"] == card).to_numpy()
        x += np.where(here, df[[f"card{j}_s{s}" for s in seats]].to_numpy(dtype=float).mean(axis=1), 0.0)
        has += here
    return x, has


def _card_points(df, out, arg):
    seats = seat_columns(df, "{s}")
    if arg:
        return _card(df, seats, arg)
    cols = [f"card{c}_s{s}" for c in ("1", "2", "3", "4") for s in seats]
    return df[cols].to_numpy(dtype=float).sum(axis=1) / len(seats), ones(df)


def _card_points_difference(df, out, arg):
    parts = arg.split("-")
    if len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
        raise ValueError("metric: card_points_difference takes two different cards A-B (slots 1..4 or card "
                         f"names, e.g. card_points_difference:Height-Small), got {arg!r}")
    seats = seat_columns(df, "{s}")
    (xa, ha), (xb, hb) = (_card(df, seats, c, "card_points_difference") for c in parts)
    return ratio_difference(xa, ha, xb, hb)


#: name -> :class:`~pyradice_lab.engine.metrics.Metric`: Pyradice's own designer metrics.
METRICS: dict[str, Metric] = {
    "game_length": Metric("turns in a game", column("turns")),
    "goal_rate": Metric("share of goal tokens met per player (all levels, or level L1..L5)",
                        _goal_rate, "level L1..L5, optional"),
    "card_points": Metric("card points per player (all cards, or one card: its slot 1..4 in the line-up "
                          "or its name, over the games whose line-up has it)", _card_points,
                          "card slot 1..4 or name, optional"),
    "card_points_difference": Metric("card A's points per player minus card B's (slots 1..4 or names; each "
                                     "over the games whose line-up has it)",
                                     _card_points_difference, "A-B = two cards", True, "Height-Small"),
}
