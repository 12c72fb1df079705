"""The designer metric declaration (:class:`Metric`), smooth metrics (:class:`Smooth`) and the common metrics.

A game declares its own metrics in ``<game>/metrics.py`` as ``METRICS`` (name -> :class:`Metric`); the designer's
tools (:mod:`pyradice_lab.design.metrics`) offer :data:`COMMON` (the metrics every game has: win shares of the
start player, a seat or a turn position, the start player's edge, mean score and score spread, all read from the
game's outcomes frame, :mod:`pyradice_lab.engine.outcomes`) followed by the game's ``METRICS``.

A metric function takes ``(df, outcomes, arg)``: the game's ``simulate_games`` frame, its outcomes frame and the
text after ``name:`` ("" when none), and returns per-game ``(numerator, denominator)`` arrays (the metric over many
games is ``sum(numerator) / sum(denominator)``, a plain mean when the denominator is 1) or a :class:`Smooth` (a
smooth function of the means of several per-game columns, estimated by the delta method).

A :class:`Smooth` names its function: ``form`` is a key of :data:`SMOOTH_FORMS`, where :func:`register_smooth`
puts ``(function of the means, its gradient)``.  The engine registers ``"ratio_difference"``
(:func:`ratio_difference`); a game registers its own forms when its metrics module is imported.

Examples
--------
>>> import numpy as np
>>> s = ratio_difference([1, 2], [2, 2], [1, 1], [4, 4])   # 3/4 - 2/8
>>> float(s.fn(s.columns.mean(axis=0)))
0.5
>>> sorted(COMMON)[:2]
['mean_score', 'position_win']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

__all__ = ["Metric", "Smooth", "SMOOTH_FORMS", "register_smooth", "ratio_difference", "COMMON", "column", "ratio",
           "ones", "per_game", "humans", "seat_columns"]


@dataclass(frozen=True)
class Metric:
    """One designer metric, as a game declares it in its ``METRICS``.

    Attributes
    ----------
    description : str
        What the metric measures, one line (``metrics(game)``'s "meaning" column).
    fn : callable ``(df, outcomes, arg) -> (numerator, denominator) | Smooth``
        Per-game numerator and denominator arrays (or a :class:`Smooth`) on a ``simulate_games`` frame ``df`` and
        its outcomes frame; ``arg`` is the text after ``name:`` ("" when none).  Raises ValueError naming the
        metric for a bad argument.
    arg : str
        What ``:ARG`` means ("" = the metric takes no argument).
    needs_arg : bool
        Whether the argument is required.
    example : str
        An argument for the error message of a metric that needs one.
    family : callable ``(df) -> list[str]`` or None
        Every argument the metric takes on these games (``name:*``).
    options : tuple of (key, value) pairs
        ``simulate_games`` keyword arguments the metric needs (e.g. ``(("card_columns", True),)``).
    lineup : callable ``(arg, players, i) -> tuple of str`` or None
        A metric of restricted play: the restriction of every human seat in game ``i`` (``""``: none; a name the
        game registers, e.g. ``"no_tile:7"``).  Its games are not ordinary ones: the designer's tools play each game
        with one policy in every seat, restricted as this says (:mod:`pyradice_lab.design._restricted_games`).
    """

    description: str
    fn: Callable
    arg: str = ""
    needs_arg: bool = False
    example: str = "0"
    family: Callable | None = None
    options: tuple = ()
    lineup: Callable | None = None


@dataclass(frozen=True, eq=False)
class Smooth:
    """A metric that is a smooth function of the means of several per-game columns (delta method).

    ``columns``: (games, k) per-game values; ``fn(means)`` the metric; ``grad(means)`` its gradient (k,).  The
    per-game linearised value of game ``i`` is ``grad(means) . (columns[i] - means)``.  A metric function
    returns one of these instead of ``(numerator, denominator)`` when a single ratio cannot express it.

    The function is named, not held: ``form`` is a key of :data:`SMOOTH_FORMS` (:func:`register_smooth`) and
    ``params`` its plain data (numbers, strings, arrays), so a block's result is stored and read back as data
    (:func:`~pyradice_lab.engine.execution.encode`: a resumed comparison of a smooth metric reads its finished
    blocks) and the blocks of a run join by their columns, the function then seeing every game.
    """

    columns: np.ndarray
    form: str
    params: dict = field(default_factory=dict)

    def __post_init__(self):
        # one memory layout (C order) whatever the frame's: the column means' summation order, and so their last
        # bits, must not depend on whether the columns were computed or read back from a block file
        object.__setattr__(self, "columns", np.ascontiguousarray(self.columns, dtype=float))

    def _form(self) -> tuple[Callable, Callable]:
        try:
            return SMOOTH_FORMS[self.form]
        except KeyError:
            raise ValueError(f"smooth metric form {self.form!r} is not registered (known: "
                             f"{', '.join(sorted(SMOOTH_FORMS))}); the game's metrics module registers it with "
                             "register_smooth") from None

    def fn(self, means) -> float:
        return self._form()[0](self, np.asarray(means, dtype=float))

    def grad(self, means) -> np.ndarray:
        return self._form()[1](self, np.asarray(means, dtype=float))


#: The smooth functions a :class:`Smooth` names: form -> (function of the means, its gradient), each called as
#: ``f(smooth, means)``.
SMOOTH_FORMS: dict[str, tuple[Callable, Callable]] = {}


def register_smooth(form: str, fn: Callable, grad: Callable) -> None:
    """Register (or re-register, e.g. on module reload) the smooth function ``form``: ``fn(smooth, means)`` the
    metric and ``grad(smooth, means)`` its gradient at the column means.

    >>> "ratio_difference" in SMOOTH_FORMS      # the engine's own form; a game's register when imported
    True
    """
    if not isinstance(form, str) or not form:
        raise ValueError(f"form must be a non-empty name, got {form!r}")
    if not (callable(fn) and callable(grad)):
        raise TypeError("fn and grad must be callables (smooth, means) -> value / gradient")
    SMOOTH_FORMS[form] = (fn, grad)


def ratio_difference(a_num, a_den, b_num, b_den) -> Smooth:
    """``sum(a_num)/sum(a_den) - sum(b_num)/sum(b_den)`` as a smooth function of four per-game columns."""
    cols = np.column_stack([np.asarray(x, dtype=float) for x in (a_num, a_den, b_num, b_den)])
    return Smooth(cols, "ratio_difference")


def _ratio_difference_fn(s: Smooth, m):
    return m[0] / m[1] - m[2] / m[3]


def _ratio_difference_grad(s: Smooth, m):
    return np.array([1 / m[1], -m[0] / m[1] ** 2, -1 / m[3], m[2] / m[3] ** 2])


register_smooth("ratio_difference", _ratio_difference_fn, _ratio_difference_grad)


# ------------------------------------------------------------------------------------------------ helpers
def humans(out: pd.DataFrame) -> pd.DataFrame:
    """The outcomes frame's players (an automa's rows left out)."""
    return out[out["policy"] != "automa"]


def per_game(out: pd.DataFrame, values, how: str, n: int) -> np.ndarray:
    """``values`` (one per row of the outcomes frame ``out``) aggregated per game with ``how``; ``n`` games."""
    s = pd.Series(np.asarray(values, dtype=float), index=out.index).groupby(out["game"].to_numpy()).agg(how)
    return s.reindex(range(n)).to_numpy(dtype=float)


def ones(df) -> np.ndarray:
    """A denominator of 1 per game."""
    return np.ones(len(df))


def seat_columns(df, pattern: str) -> list[str]:
    """``pattern`` formatted with every seat ``s`` of the frame's games (its ``players`` column)."""
    seats = int(df["players"].iloc[0])
    return [pattern.format(s=s) for s in range(seats)]


def column(col: str) -> Callable:
    """The metric function of a per-game column of the ``simulate_games`` frame (a mean over the games)."""
    def fn(df, out, arg):
        return df[col].to_numpy(dtype=float), ones(df)
    return fn


def ratio(num: str, den: str) -> Callable:
    """The metric function ``sum(df[num]) / sum(df[den])`` over the games (a ratio estimate)."""
    def fn(df, out, arg):
        return df[num].to_numpy(dtype=float), df[den].to_numpy(dtype=float)
    return fn


# ------------------------------------------------------------------------------------------------ common metrics
def _start_player_win(df, out, arg):
    return per_game(out, out["win"].where(out["start"], 0.0), "sum", len(df)), ones(df)


def _start_player_edge(df, out, arg):
    h = humans(out)
    players = per_game(h, np.ones(len(h)), "sum", len(df))
    start = per_game(h, h["win"].where(h["start"], 0.0), "sum", len(df))
    others = per_game(h, h["win"].where(~h["start"].astype(bool), 0.0), "sum", len(df))
    return start - others / (players - 1), ones(df)


def _number(arg: str, column, what: str) -> int:
    """The 0-based index of a metric argument numbered from 1 (``seat_win:1`` is the first seat)."""
    n = int(column.max()) + 1
    try:
        k = int(arg)
    except ValueError:
        raise ValueError(f"metric: the {what} must be an integer 1..{n} (numbered from 1), got {arg!r}") from None
    if not 1 <= k <= n:
        raise ValueError(f"metric: {what} {k} is not in this game (1..{n}, numbered from 1)")
    return k - 1


def _seat_win(df, out, arg):
    k = _number(arg, out["seat"], "seat")
    return per_game(out, out["win"].where(out["seat"] == k, 0.0), "sum", len(df)), ones(df)


def _position_win(df, out, arg):
    k = _number(arg, out["position"], "turn position")
    return per_game(out, out["win"].where(out["position"] == k, 0.0), "sum", len(df)), ones(df)


def _mean_score(df, out, arg):
    h = humans(out)
    return per_game(h, h["score"], "mean", len(df)), ones(df)


def _score_spread(df, out, arg):
    h = humans(out)
    return per_game(h, h["score"], "max", len(df)) - per_game(h, h["score"], "min", len(df)), ones(df)


#: The metrics every game has, read from its outcomes frame; listed before the game's own ``METRICS``.
COMMON: dict[str, Metric] = {
    "start_player_win": Metric("win share of the start player (ties shared)", _start_player_win),
    "start_player_edge": Metric("start player's win share minus the mean of the other players' (the automa "
                                "excluded; ties shared)", _start_player_edge),
    "seat_win": Metric("win share of seat K, numbered from 1 (ties shared)", _seat_win, "K = seat, from 1", True, example="1",
                       family=lambda df: [str(int(s) + 1) for s in seat_columns(df, "{s}")]),
    "position_win": Metric("win share of the player taking turn position K (1 = start player)",
                           _position_win, "K = turn position, from 1", True, example="1",
                           family=lambda df: [str(k + 1) for k in range(len(seat_columns(df, "{s}")))]),
    "mean_score": Metric("mean final score of the players (the automa excluded)", _mean_score),
    "score_spread": Metric("best minus worst final score of the players in a game (the automa excluded)",
                           _score_spread),
}
