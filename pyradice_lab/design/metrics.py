"""The designer metrics: per-game numbers (and ratios and smooth functions of per-game sums) a comparison,
a robustness check or a balancing objective is about.

Metrics are per-game numbers, or ratios of per-game sums (``burst_rate`` = bursts / turns over all games),
estimated by the ratio estimator with the delta-method standard error (per-game linearised values, paired
the same way).  A few are smooth functions of several per-game sums, e.g. a difference of two ratios
(Meerkat's ``tile_pay_excess:T`` = tile T's points per meerkat minus all tiles' points per meerkat): they are
estimated by the same delta method, with the function's gradient at the column means.  :func:`metrics` lists
a game's metrics; :func:`metric_values` computes one from a ``simulate_games`` frame.

Intervals (95%) hold at every number of games: a mean, a ratio or a smooth function (delta method) and a paired
difference of any of them get the Student-t interval with ``n - 1`` degrees of freedom (``n`` games) of their
per-game linearised values; a win share (:data:`SHARE_METRICS`: per-game values in [0, 1]) gets the Wilson
interval, and the paired difference of two win shares the Agresti-Min interval (the per-game differences with
half a pseudo-game of each sign added), so no share ever shows a zero-width interval, even when every game
agrees.  Below :data:`~pyradice_lab.engine.stats.SMALL_SAMPLE` (30) games the estimates warn with
:class:`~pyradice_lab.engine.stats.SmallSampleWarning`.

Examples
--------
>>> from pyradice_lab.design.metrics import metrics
>>> "start_player_win" in set(metrics("raft").metric)
True
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.stats import SMALL_SAMPLE, Z95, Estimate, SmallSampleWarning

__all__ = ["metrics", "metric_values", "metric_estimate", "paired_estimates", "check_metric", "GAMES",
           "SmallSampleWarning", "SHARE_METRICS", "expand_metric", "is_family", "simulate_options"]

#: The four games.
GAMES = ("purramid", "pyradice", "raft", "meerkat")
#: The win-share metrics (per-game values in [0, 1], ties shared): Wilson intervals, and the paired difference's
#: interval never has zero width (see :func:`paired_estimates`).
SHARE_METRICS = frozenset({"start_player_win", "seat_win", "position_win"})


# ------------------------------------------------------------------------------------------------ metrics
@dataclass(frozen=True)
class _Metric:
    description: str
    fn: Callable           # (df, outcomes, arg) -> (numerator, denominator) per game, or a _Smooth
    arg: str = ""          # what ":ARG" means ("" = takes none)
    needs_arg: bool = False
    example: str = "0"     # an argument for the error message of a metric that needs one
    family: Callable | None = None   # df -> every argument of the metric on these games ("name:*")
    options: tuple = ()    # simulate_games keyword arguments the metric needs, as (key, value) pairs


@dataclass(frozen=True, eq=False)
class _Smooth:
    """A metric that is a smooth function of the means of several per-game columns (delta method).

    ``columns``: (games, k) per-game values; ``fn(means)`` the metric; ``grad(means)`` its gradient (k,).  The
    per-game linearised value of game ``i`` is ``grad(means) . (columns[i] - means)``.  A metric function
    returns one of these instead of ``(numerator, denominator)`` when a single ratio cannot express it.

    The function is named, not held: ``form`` is a key of :data:`_FORMS` and ``params`` its plain data
    (numbers, strings, arrays), so a block's result is stored and read back as data
    (:func:`~pyradice_lab.engine.execution.encode`: a resumed comparison of a smooth metric reads its finished
    blocks) and the blocks of a run join by their columns (:func:`_concat`), the function then seeing every game.
    """

    columns: np.ndarray
    form: str
    params: dict = field(default_factory=dict)

    def __post_init__(self):
        # one memory layout (C order) whatever the frame's: the column means' summation order, and so their last
        # bits, must not depend on whether the columns were computed or read back from a block file
        object.__setattr__(self, "columns", np.ascontiguousarray(self.columns, dtype=float))

    def fn(self, means) -> float:
        return _FORMS[self.form][0](self, np.asarray(means, dtype=float))

    def grad(self, means) -> np.ndarray:
        return _FORMS[self.form][1](self, np.asarray(means, dtype=float))


def _ratio_difference(a_num, a_den, b_num, b_den) -> _Smooth:
    """``sum(a_num)/sum(a_den) - sum(b_num)/sum(b_den)`` as a smooth function of four per-game columns."""
    cols = np.column_stack([np.asarray(x, dtype=float) for x in (a_num, a_den, b_num, b_den)])
    return _Smooth(cols, "ratio_difference")


def _ratio_difference_fn(s: _Smooth, m):
    return m[0] / m[1] - m[2] / m[3]


def _ratio_difference_grad(s: _Smooth, m):
    return np.array([1 / m[1], -m[0] / m[1] ** 2, -1 / m[3], m[2] / m[3] ** 2])


def _humans(out: pd.DataFrame) -> pd.DataFrame:
    return out[out["policy"] != "automa"]


def _per_game(out: pd.DataFrame, values: pd.Series | np.ndarray, how: str, n: int) -> np.ndarray:
    s = pd.Series(np.asarray(values, dtype=float), index=out.index).groupby(out["game"].to_numpy()).agg(how)
    return s.reindex(range(n)).to_numpy(dtype=float)


def _ones(df) -> np.ndarray:
    return np.ones(len(df))


def _start_player_win(df, out, arg):
    return _per_game(out, out["win"].where(out["start"], 0.0), "sum", len(df)), _ones(df)


def _start_player_edge(df, out, arg):
    h = _humans(out)
    players = _per_game(h, np.ones(len(h)), "sum", len(df))
    start = _per_game(h, h["win"].where(h["start"], 0.0), "sum", len(df))
    others = _per_game(h, h["win"].where(~h["start"].astype(bool), 0.0), "sum", len(df))
    return start - others / (players - 1), _ones(df)


def _seat(arg: str, out) -> int:
    seats = int(out["seat"].max()) + 1
    try:
        k = int(arg)
    except ValueError:
        raise ValueError(f"metric: the seat must be an integer 0..{seats - 1}, got {arg!r}") from None
    if not 0 <= k < seats:
        raise ValueError(f"metric: seat {k} is not in this game (seats 0..{seats - 1})")
    return k


def _seat_win(df, out, arg):
    k = _seat(arg, out)
    return _per_game(out, out["win"].where(out["seat"] == k, 0.0), "sum", len(df)), _ones(df)


def _position_win(df, out, arg):
    seats = int(out["position"].max()) + 1
    try:
        k = int(arg)
    except ValueError:
        raise ValueError(f"metric: the turn position must be an integer 0..{seats - 1}, got {arg!r}") from None
    if not 0 <= k < seats:
        raise ValueError(f"metric: turn position {k} is not in this game (0..{seats - 1})")
    return _per_game(out, out["win"].where(out["position"] == k, 0.0), "sum", len(df)), _ones(df)


def _mean_score(df, out, arg):
    h = _humans(out)
    return _per_game(h, h["score"], "mean", len(df)), _ones(df)


def _score_spread(df, out, arg):
    h = _humans(out)
    return _per_game(h, h["score"], "max", len(df)) - _per_game(h, h["score"], "min", len(df)), _ones(df)


def _column(col: str):
    def fn(df, out, arg):
        return df[col].to_numpy(dtype=float), _ones(df)
    return fn


def _ratio(num: str, den: str):
    def fn(df, out, arg):
        return df[num].to_numpy(dtype=float), df[den].to_numpy(dtype=float)
    return fn


def _seat_columns(df, pattern: str) -> list[str]:
    seats = int(df["players"].iloc[0])
    return [pattern.format(s=s) for s in range(seats)]


def _pyradice_goal_rate(df, out, arg):
    seats = _seat_columns(df, "{s}")
    if arg:
        if arg not in {f"L{i}" for i in range(1, 6)}:
            raise ValueError(f"metric: goal_rate takes a goal level L1..L5, got {arg!r}")
        num = df[[f"goal_{arg}_s{s}" for s in seats]].to_numpy(dtype=float).sum(axis=1)
        return num, np.full(len(df), float(len(seats)))
    num = df[[f"goals_s{s}" for s in seats]].to_numpy(dtype=float).sum(axis=1)
    return num, np.full(len(df), 5.0 * len(seats))


def _pyradice_card(df, seats, card: str, name: str = "card_points") -> tuple[np.ndarray, np.ndarray]:
    """Per game: points per seat from ``card`` (a slot 1..4 of the line-up, or a card's name), and whether the
    game's line-up has it (a frame may join games of several line-ups)."""
    if card in ("1", "2", "3", "4"):
        return df[[f"card{card}_s{s}" for s in seats]].to_numpy(dtype=float).mean(axis=1), _ones(df)
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


def _pyradice_card_points(df, out, arg):
    seats = _seat_columns(df, "{s}")
    if arg:
        return _pyradice_card(df, seats, arg)
    cols = [f"card{c}_s{s}" for c in ("1", "2", "3", "4") for s in seats]
    return df[cols].to_numpy(dtype=float).sum(axis=1) / len(seats), _ones(df)


def _pyradice_card_points_difference(df, out, arg):
    parts = arg.split("-")
    if len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
        raise ValueError("metric: card_points_difference takes two different cards A-B (slots 1..4 or card "
                         f"names, e.g. card_points_difference:Height-Small), got {arg!r}")
    seats = _seat_columns(df, "{s}")
    (xa, ha), (xb, hb) = (_pyradice_card(df, seats, c, "card_points_difference") for c in parts)
    return _ratio_difference(xa, ha, xb, hb)


def _raft_points_per_boat(df, out, arg):
    seats = _seat_columns(df, "{s}")
    return (df[[f"score_{s}" for s in seats]].to_numpy(dtype=float).sum(axis=1),
            df[[f"boats_{s}" for s in seats]].to_numpy(dtype=float).sum(axis=1))


def _raft_card_rates(df, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Per-game (completions, turns held) of every card, and the deck's sizes and points, from a frame of
    ``simulate_games(..., card_columns=True)``."""
    sizes, points = df.attrs.get("card_sizes"), df.attrs.get("card_points")
    if sizes is None or points is None or "completed_c0" not in df.columns:
        raise ValueError(f"metric {name} needs the per-card columns of simulate_games(..., card_columns=True)")
    m = len(sizes)
    done = df[[f"completed_c{i}" for i in range(m)]].to_numpy(dtype=float)
    held = df[[f"turns_held_c{i}" for i in range(m)]].to_numpy(dtype=float)
    return np.hstack([done, held]), np.asarray(sizes), np.asarray(points, dtype=float), m


def _raft_boat_rates(df, name: str, pick: dict) -> _Smooth:
    """A function of the points per own turn held by card size, as a smooth function of the per-card means.

    As in :func:`pyradice_lab.raft.analysis.points_per_turn_by_size`: card ``c`` holds ``tpc_c = T_c /
    max(C_c, 1)`` own turns per completion (``T_c``, ``C_c``: its turns held and completions summed over the
    games); a size's rate is the sum of its cards' points over the sum of their ``tpc``; the deck's rate the
    same over all cards.  ``pick``: ``{"pick": "excess", "size": k}`` (size ``k``'s rate minus the deck's) or
    ``{"pick": "spread"}`` (the largest size's rate minus the smallest's).
    """
    cols, sizes, points, m = _raft_card_rates(df, name)
    return _Smooth(cols, "raft_boat_rates", {"sizes": np.asarray(sizes), "points": points, "m": int(m), **pick})


def _raft_pick(params: dict, rates: dict, deck: float) -> float:
    if params["pick"] == "excess":
        return rates[params["size"]] - deck
    return rates[max(rates)] - rates[min(rates)]


def _raft_tpc(s: _Smooth, means):
    m, n = s.params["m"], len(s.columns)  # n: every game of the run (the blocks joined), not one block's
    c, t = means[:m], means[m:]
    # C_c = 0 (never completed): max(C_c, 1) = 1, i.e. tpc = T_c = n * mean
    done = c > 0
    return np.where(done, t / np.where(done, c, 1.0), n * t), done, c, t


def _raft_groups(s: _Smooth) -> dict:
    sizes = np.asarray(s.params["sizes"])
    return {int(k): sizes == k for k in sorted(set(sizes.tolist()))}


def _raft_parts(s: _Smooth, means):
    points = np.asarray(s.params["points"], dtype=float)
    v, _, _, _ = _raft_tpc(s, means)
    rates = {k: points[g].sum() / v[g].sum() for k, g in _raft_groups(s).items()}
    return v, rates, points.sum() / v.sum()


def _raft_boat_rates_fn(s: _Smooth, means):
    _, rates, deck = _raft_parts(s, means)
    return _raft_pick(s.params, rates, deck)


def _raft_boat_rates_grad(s: _Smooth, means):
    v, rates, deck = _raft_parts(s, means)
    n, m = len(s.columns), s.params["m"]
    # d metric / d tpc_c: through each rate (d rate_k / d tpc_c = -rate_k / D_k for c of size k) and the deck's
    d_tpc = np.zeros(m)
    eps = 1.0
    base = _raft_pick(s.params, rates, deck)
    for k, g in _raft_groups(s).items():  # the metric is linear in the rates: read its coefficients
        coef = _raft_pick(s.params, {**rates, k: rates[k] + eps}, deck) - base
        d_tpc[g] += coef * (-rates[k] / v[g].sum())
    coef = _raft_pick(s.params, rates, deck + eps) - base
    d_tpc += coef * (-deck / v.sum())
    _, done, c, t = _raft_tpc(s, means)
    d_c = np.where(done, -d_tpc * t / np.where(done, c, 1.0) ** 2, 0.0)
    d_t = np.where(done, d_tpc / np.where(done, c, 1.0), d_tpc * n)
    return np.concatenate([d_c, d_t])


#: The smooth functions a :class:`_Smooth` names: form -> (function of the means, its gradient).
_FORMS: dict[str, tuple[Callable, Callable]] = {
    "ratio_difference": (_ratio_difference_fn, _ratio_difference_grad),
    "raft_boat_rates": (_raft_boat_rates_fn, _raft_boat_rates_grad),
}


def _raft_card_ids(df) -> list[int]:
    ids = df.attrs.get("card_ids")
    if ids is None or "completed_turns_c0" not in df.columns:
        raise ValueError("metric points_per_turn_held needs the per-card columns of simulate_games(..., "
                         "card_columns=True)")
    return [int(i) for i in ids]


def _raft_points_per_turn_held(df, out, arg):
    """Card K's points per own turn held until completed: its points times its completions over the own turns it
    was held until completed, summed over the games (a ratio estimate)."""
    ids = _raft_card_ids(df)
    try:
        k = int(arg)
    except ValueError:
        raise ValueError(f"metric: points_per_turn_held takes a card id {min(ids)}..{max(ids)}, got {arg!r}") from None
    if k not in ids:
        raise ValueError(f"metric: no card {k} in this deck (card ids {min(ids)}..{max(ids)})")
    i = ids.index(k)
    points = float(df.attrs["card_points"][i])
    return points * df[f"completed_c{i}"].to_numpy(dtype=float), df[f"completed_turns_c{i}"].to_numpy(dtype=float)


def _raft_size(df, arg) -> int:
    sizes = sorted(set(df.attrs.get("card_sizes") or []))
    try:
        k = int(arg)
    except ValueError:
        raise ValueError(f"metric: boat_pay_excess takes a lifeboat size (slots) {', '.join(map(str, sizes))}, "
                         f"got {arg!r}") from None
    if sizes and k not in sizes:
        raise ValueError(f"metric: no {k}-slot lifeboats in this deck (sizes {', '.join(map(str, sizes))})")
    return k


def _raft_boat_pay_excess(df, out, arg):
    k = _raft_size(df, arg)
    return _raft_boat_rates(df, "boat_pay_excess", {"pick": "excess", "size": k})


def _raft_boat_pay_spread(df, out, arg):
    return _raft_boat_rates(df, "boat_pay_spread", {"pick": "spread"})


def _meerkat_tiles(df, arg, name: str = "points_per_meerkat") -> list[int]:
    tiles = [int(c[len("present_t"):]) for c in df.columns if c.startswith("present_t")]
    if not arg:
        return tiles
    try:
        t = int(arg)
    except ValueError:
        raise ValueError(f"metric: {name} takes a tile number {min(tiles)}..{max(tiles)}, "
                         f"got {arg!r}") from None
    if t not in tiles:
        raise ValueError(f"metric: tile {t} is not in the game (tiles {min(tiles)}..{max(tiles)})")
    return [t]


def _meerkat_hazards(df, out, arg):
    return df[["hawk", "fire", "jackal"]].to_numpy(dtype=float).sum(axis=1), _ones(df)


def _meerkat_points_per_meerkat(df, out, arg):
    tiles = _meerkat_tiles(df, arg)
    return (df[[f"paid_t{t}" for t in tiles]].to_numpy(dtype=float).sum(axis=1),
            df[[f"present_t{t}" for t in tiles]].to_numpy(dtype=float).sum(axis=1))


def _meerkat_tile_pay_excess(df, out, arg):
    (t,) = _meerkat_tiles(df, arg, "tile_pay_excess")
    tiles = _meerkat_tiles(df, "")
    return _ratio_difference(df[f"paid_t{t}"], df[f"present_t{t}"],
                             df[[f"paid_t{u}" for u in tiles]].to_numpy(dtype=float).sum(axis=1),
                             df[[f"present_t{u}" for u in tiles]].to_numpy(dtype=float).sum(axis=1))


_COMMON = {
    "start_player_win": _Metric("win share of the start player (ties shared)", _start_player_win),
    "start_player_edge": _Metric("start player's win share minus the mean of the other players' (the automa "
                                 "excluded; ties shared)", _start_player_edge),
    "seat_win": _Metric("win share of seat K (ties shared)", _seat_win, "K = seat", True,
                        family=lambda df: [str(s) for s in _seat_columns(df, "{s}")]),
    "position_win": _Metric("win share of the player taking turn position K (0 = start player)",
                            _position_win, "K = turn position", True,
                            family=lambda df: [str(k) for k in range(len(_seat_columns(df, "{s}")))]),
    "mean_score": _Metric("mean final score of the players (the automa excluded)", _mean_score),
    "score_spread": _Metric("best minus worst final score of the players in a game (the automa excluded)",
                            _score_spread),
}
_SPECIFIC = {
    "purramid": {
        "game_length": _Metric("normal turns in a game", _column("turns")),
        "burst_rate": _Metric("bursts per normal turn (over all games)", _ratio("bursts", "turns")),
        "tiles_per_turn": _Metric("tiles on the board at the end per normal turn (over all games)",
                                  _ratio("tiles_on_board", "turns")),
    },
    "pyradice": {
        "game_length": _Metric("turns in a game", _column("turns")),
        "goal_rate": _Metric("share of goal tokens met per player (all levels, or level L1..L5)",
                             _pyradice_goal_rate, "level L1..L5, optional"),
        "card_points": _Metric("card points per player (all cards, or one card: its slot 1..4 in the line-up "
                               "or its name, over the games whose line-up has it)", _pyradice_card_points,
                               "card slot 1..4 or name, optional"),
        "card_points_difference": _Metric("card A's points per player minus card B's (slots 1..4 or names; each "
                                          "over the games whose line-up has it)",
                                          _pyradice_card_points_difference, "A-B = two cards", True, "Height-Small"),
    },
    "raft": {
        "game_length": _Metric("turns in a game", _column("turns")),
        "points_per_boat": _Metric("points per completed lifeboat (over all games)", _raft_points_per_boat),
        "gift_points": _Metric("points completed by passed gems, per game", _column("gift_points")),
        "rounds": _Metric("rounds in a game (every player's turn once)", _column("rounds")),
        "boat_pay_excess": _Metric("points per own turn held of the K-slot lifeboats minus the deck's (a card's "
                                   "points over the own turns it is held per completion; needs "
                                   "simulate_games(..., card_columns=True))", _raft_boat_pay_excess,
                                   "K = lifeboat size (slots)", True, "4",
                                   family=lambda df: [str(k) for k in sorted(set(df.attrs.get("card_sizes") or []))],
                                   options=(("card_columns", True),)),
        "points_per_turn_held": _Metric("card K's points per own turn it is held until completed (its points x "
                                        "completions over the turns held until completed, over all games; needs "
                                        "simulate_games(..., card_columns=True))", _raft_points_per_turn_held,
                                        "K = card id", True, "1", family=lambda df: [str(k) for k in
                                                                                     _raft_card_ids(df)],
                                        options=(("card_columns", True),)),
        "boat_pay_spread": _Metric("points per own turn held, the largest lifeboats minus the smallest (needs "
                                   "simulate_games(..., card_columns=True))", _raft_boat_pay_spread,
                                   options=(("card_columns", True),)),
    },
    "meerkat": {
        "game_length": _Metric("turns in a game", _column("turns")),
        "points_per_meerkat": _Metric("points a tile pays per meerkat on it when scored (all tiles, or tile T;"
                                      " over all games)", _meerkat_points_per_meerkat, "tile T, optional",
                                      family=lambda df: [str(t) for t in _meerkat_tiles(df, "")]),
        "tile_pay_excess": _Metric("tile T's points per meerkat minus all tiles' points per meerkat (over all "
                                   "games; 0 = the tile pays the board mean)", _meerkat_tile_pay_excess,
                                   "tile T", True, "12", family=lambda df: [str(t) for t in _meerkat_tiles(df, "")]),
        "hazards_per_game": _Metric("hazard tokens that fired in a game (hawk, fire, jackal)", _meerkat_hazards),
    },
}


def _check_game(game) -> str:
    if not isinstance(game, str):
        raise TypeError(f"game must be a game name (str), one of {', '.join(GAMES)}; got {type(game).__name__}")
    if game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    return game


def metrics(game: str) -> pd.DataFrame:
    """The metrics :func:`compare` knows for ``game``: ``metric``, ``argument`` (``NAME:ARG``), ``meaning``.

    Examples
    --------
    >>> "burst_rate" in set(metrics("purramid")["metric"])
    True
    """
    game = _check_game(game)
    table = {**_COMMON, **_SPECIFIC[game]}
    return pd.DataFrame([(k, m.arg + (" (required)" if m.needs_arg else ""), m.description)
                         for k, m in table.items()], columns=["metric", "argument", "meaning"])


def check_metric(game: str, metric: str) -> str:
    """``metric`` if ``game`` knows it (ValueError naming the allowed metrics otherwise)."""
    _parse_metric(_check_game(game), metric)
    return metric.strip()


def is_family(metric) -> bool:
    """Whether ``metric`` names a family of metrics, ``name:*`` (every argument the metric takes on the games)."""
    return isinstance(metric, str) and metric.strip().endswith(":*")


def _family_metric(game: str, metric: str) -> tuple[str, _Metric]:
    table = {**_COMMON, **_SPECIFIC[_check_game(game)]}
    name = metric.strip()[:-2]
    if name not in table:
        _parse_metric(game, name)  # raises, naming the allowed metrics
    m = table[name]
    if m.family is None:
        fams = sorted(k for k, v in table.items() if v.family is not None)
        raise ValueError(f"metric {metric!r}: {name} has no family ('name:*'); the {game} families are "
                         f"{', '.join(f'{k}:*' for k in fams)}")
    return name, m


def expand_metric(game: str, df: pd.DataFrame, metric: str) -> list[str]:
    """The metrics ``metric`` stands for on the games of ``df``: ``[metric]``, or for a family ``name:*`` one
    ``name:ARG`` per argument the metric takes on these games (every tile of a Meerkat board, every lifeboat
    size of a Rocking Raft deck, every seat).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"present_t2": [1], "present_t3": [1], "paid_t2": [3], "paid_t3": [2]})
    >>> expand_metric("meerkat", df, "tile_pay_excess:*")
    ['tile_pay_excess:2', 'tile_pay_excess:3']
    """
    if not is_family(metric):
        return [check_metric(game, metric)]
    name, m = _family_metric(game, metric)
    return [f"{name}:{arg}" for arg in m.family(df)]


def simulate_options(game: str, metric: str) -> dict:
    """The ``simulate_games`` keyword arguments ``metric`` (or a family ``name:*``) needs, e.g. Rocking Raft's
    ``card_columns=True`` for ``boat_pay_excess:K``."""
    if is_family(metric):
        return dict(_family_metric(game, metric)[1].options)
    return dict(_parse_metric(_check_game(game), metric)[1].options)


def metric_values(game: str, df: pd.DataFrame, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-game numerator and denominator of ``metric`` on a ``simulate_games`` frame of ``game``.

    The metric over many games is ``sum(numerator) / sum(denominator)`` (a plain mean when the denominator is 1
    in every game); :func:`metric_estimate` turns them into an estimate with its interval.  A metric that is not
    one ratio (e.g. ``tile_pay_excess:T``, a difference of two ratios) gives its per-game linearised values
    (the metric plus each game's delta-method influence) over a denominator of 1: their mean is the metric on
    these games and their spread its delta-method standard error, but unlike a ratio's numerator they depend
    on all the games of ``df`` (concatenate frames, not these values).
    """
    game = _check_game(game)
    name, m, arg = _parse_metric(game, metric)
    sim = importlib.import_module(f"pyradice_lab.{game}.sim")
    res = m.fn(df, sim.outcomes(df), arg)
    if isinstance(res, _Smooth):
        value, z = _linear(res, name)
        return value + z, np.ones(len(z))
    num, den = res
    return np.asarray(num, dtype=float), np.asarray(den, dtype=float)


def metric_estimate(num, den, metric: str = "metric", *, warn: bool = True) -> Estimate:
    """The ratio estimate ``sum(num) / sum(den)`` with its delta-method SE and 95% interval.

    The interval is Student-t with ``n - 1`` degrees of freedom on the per-game linearised values; for a win
    share (``metric`` one of :data:`SHARE_METRICS`, or an unnamed metric whose per-game values are all 0 or 1
    over a denominator of 1) it is the Wilson interval, never of zero width.

    Parameters
    ----------
    num, den : array_like, shape (n,)
        Per-game numerator and denominator (:func:`metric_values`).
    metric : str
        The metric's name (for error messages, and to recognise a win share).
    warn : bool
        Warn (:class:`SmallSampleWarning`) when ``n`` < 30.

    Returns
    -------
    Estimate

    Raises
    ------
    ValueError
        If a value is NaN or the denominator sums to 0.

    Examples
    --------
    >>> est = metric_estimate([1] * 30, [1] * 30, "start_player_win")
    >>> est.value, round(est.ci_low, 3), est.ci_high      # 30 wins in 30 games: Wilson, not "1..1"
    (1.0, 0.886, 1.0)
    >>> est = metric_estimate([3, 5, 4, 6] * 10, [10, 12, 9, 11] * 10, "burst_rate")
    >>> round(est.value, 4), round(est.ci_high - est.ci_low, 4)
    (0.4286, 0.0564)
    """
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    value, z = _linearised(num, den, metric)
    if warn:
        _warn_small(len(z), metric)
    if _is_share(metric, (num, den)):
        return _share_estimate(num)
    return _estimate(value, z)


def paired_estimates(base, variant, metric: str = "metric", *,
                     warn: bool = True) -> tuple[Estimate, Estimate, Estimate, float]:
    """Estimates of ``metric`` from two runs of the same games (common random numbers).

    ``base`` and ``variant`` are ``(numerator, denominator)`` per game (:func:`metric_values`) of the same games
    in the same order.  Returns the base and variant estimates, the difference variant - base (its SE from the
    per-game paired differences of the linearised values) and the SE two independent runs would give.

    The difference's interval is Student-t with ``n - 1`` degrees of freedom on the per-game differences; for
    a win share (:data:`SHARE_METRICS`) it is the Agresti-Min interval (Agresti & Min 2005: the per-game
    differences with half a pseudo-game at +1, half at -1 and one at 0 added), which keeps its level at small
    ``n`` and is never of zero width.  The SE itself stays that of the paired differences (0 when every game
    agrees), so ``(independent SE / SE)**2`` is the variance-reduction factor of common random numbers: above 1
    the pairing narrowed the interval, below 1 (it happens: a change that reshuffles every later roll can make
    the two runs' noise add rather than cancel) it widened it.

    Examples
    --------
    >>> b, v, d, ind = paired_estimates(([1, 0, 1, 1] * 10, [1] * 40), ([1, 0, 1, 1] * 10, [1] * 40),
    ...                                 "start_player_win")
    >>> d.value, d.se, d.ci_low < 0 < d.ci_high        # every game agrees: still an interval
    (0.0, 0.0, True)
    """
    rb, zb = _linear(base, metric)
    rv, zv = _linear(variant, metric)
    if len(zb) != len(zv):
        raise ValueError(f"paired estimates need the same games in both runs, got {len(zb)} and {len(zv)} games")
    if warn:
        _warn_small(len(zb), metric)
    if _is_share(metric, base) and _is_share(metric, variant):
        xb, xv = (np.asarray(p[0], dtype=float) for p in (base, variant))
        b, v = _share_estimate(xb), _share_estimate(xv)
        return b, v, _share_difference(xv - xb), math.sqrt(b.se ** 2 + v.se ** 2)
    b, v = _estimate(rb, zb), _estimate(rv, zv)
    return b, v, _estimate(rv - rb, zv - zb), math.sqrt(b.se ** 2 + v.se ** 2)


def _warn_small(n: int, metric: str, stacklevel: int = 3) -> None:
    if n < SMALL_SAMPLE:
        import warnings

        warnings.warn(f"{metric}: only {n} games (fewer than {SMALL_SAMPLE}): the interval holds its level but is "
                      "wide; play more games before acting on it", SmallSampleWarning, stacklevel=stacklevel)


def small_sample_note(n: int) -> str:
    """The line the designer's tools print under a result of fewer than 30 games ("" otherwise).

    Examples
    --------
    >>> small_sample_note(10)[:40]
    'only 10 games (fewer than 30): the inter'
    >>> small_sample_note(30)
    ''
    """
    if n >= SMALL_SAMPLE:
        return ""
    return (f"only {n} games (fewer than {SMALL_SAMPLE}): the intervals hold their level (Student-t, Wilson) but "
            "are wide; indicative only")


def _parse_metric(game: str, metric) -> tuple[str, _Metric, str]:
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric name (str), got {type(metric).__name__}")
    table = {**_COMMON, **_SPECIFIC[game]}
    name, _, arg = metric.strip().partition(":")
    if name not in table:
        import difflib

        close = difflib.get_close_matches(name, table, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"metric {metric!r} is not a {game} metric{hint}; allowed: {', '.join(table)} "
                         f"(seat_win:K and position_win:K take a seat / turn position)")
    m = table[name]
    if m.needs_arg and not arg:
        raise ValueError(f"metric {name} needs {m.arg}, e.g. {name}:{m.example}")
    if arg and not m.arg:
        raise ValueError(f"metric {name} takes no argument, got {metric!r}")
    return name, m, arg


# ------------------------------------------------------------------------------------------------ estimates
def _linear(res, metric: str) -> tuple[float, np.ndarray]:
    """The estimate and per-game linearised values of a metric function's result ((num, den) or _Smooth)."""
    if not isinstance(res, _Smooth):
        num, den = res
        return _linearised(np.asarray(num, dtype=float), np.asarray(den, dtype=float), metric)
    x = res.columns
    if not np.all(np.isfinite(x)):
        raise ValueError(f"metric {metric} is not defined in some games (NaN)")
    means = x.mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        value, grad = float(res.fn(means)), np.asarray(res.grad(means), dtype=float)
    if not (np.isfinite(value) and np.all(np.isfinite(grad))):
        raise ValueError(f"metric {metric} is not defined on these games (a denominator is 0 in every game)")
    return value, (x - means) @ grad


def _concat(parts: list):
    """The metric function results of consecutive blocks of games as one result."""
    if isinstance(parts[0], _Smooth):
        return _Smooth(np.concatenate([p.columns for p in parts]), parts[0].form, parts[0].params)
    return (np.concatenate([np.asarray(p[0], float) for p in parts]),
            np.concatenate([np.asarray(p[1], float) for p in parts]))


def _linearised(num: np.ndarray, den: np.ndarray, metric: str) -> tuple[float, np.ndarray]:
    """The ratio estimate sum(num)/sum(den) and its per-game linearised values (delta method)."""
    if not (np.all(np.isfinite(num)) and np.all(np.isfinite(den))):
        raise ValueError(f"metric {metric} is not defined in some games (NaN)")
    total = den.sum()
    if total == 0:
        raise ValueError(f"metric {metric} is not defined: its denominator is 0 in every game")
    r = float(num.sum() / total)
    return r, (num - r * den) / den.mean()


def _is_share(metric: str, res) -> bool:
    """Whether a metric's result is a win share: per-game values in [0, 1] over a denominator of 1 (by name, or for
    a metric this module does not know, by values that are all 0 or 1)."""
    if isinstance(res, _Smooth):
        return False
    num, den = (np.asarray(x, dtype=float) for x in res)
    if not (len(num) and np.all(den == 1) and np.all((num >= 0) & (num <= 1))):
        return False
    name = str(metric).strip().partition(":")[0]
    if name in _COMMON or any(name in t for t in _SPECIFIC.values()):
        return name in SHARE_METRICS
    return bool(np.all((num == 0) | (num == 1)))


def _estimate(value: float, z: np.ndarray) -> Estimate:
    """Student-t interval (``n - 1`` degrees of freedom) of the mean of per-game linearised values ``z``."""
    n = len(z)
    if n < 2:
        return Estimate(value, math.nan, n, math.nan, math.nan, 0.95)
    from scipy.special import stdtrit

    se = float(np.std(z, ddof=1) / math.sqrt(n))
    q = float(stdtrit(n - 1, 0.975))
    return Estimate(value, se, n, value - q * se, value + q * se, 0.95)


def _share_estimate(x: np.ndarray) -> Estimate:
    """A win share from per-game values in [0, 1] (ties shared): the mean, its SE and the Wilson interval (the
    binomial variance ``p (1 - p)`` bounds the variance of any [0, 1] value of mean ``p``)."""
    n = len(x)
    p = float(x.mean())
    se = float(np.std(x, ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n))
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return Estimate(p, se, n, low, high, 0.95)


def _share_difference(d: np.ndarray) -> Estimate:
    """A paired difference of win shares from per-game differences ``d`` in [-1, 1]: the mean, its SE and the
    Agresti-Min interval (half a pseudo-game at +1 and at -1, one at 0: never of zero width)."""
    n = len(d)
    value = float(d.mean())
    se = float(np.std(d, ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    m = n + 2
    centre = float(d.sum()) / m
    var = max((float(d @ d) + 1.0) / m - centre * centre, 0.0)
    from scipy.special import stdtrit

    half = float(stdtrit(n - 1, 0.975)) * math.sqrt(var / m) if n > 1 else math.inf
    return Estimate(value, se, n, max(-1.0, min(value, centre - half)), min(1.0, max(value, centre + half)), 0.95)
