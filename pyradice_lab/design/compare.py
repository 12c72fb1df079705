"""Did my change make the game better?  Paired comparisons of two component sets with common random numbers.

:func:`compare` plays the same games twice, once with the base components and once with the variant, on
the same per-game random streams (common random numbers), and estimates the difference of a metric from
the per-game differences.  Both runs of game ``i`` get the same seed, so the dice that decide a game are
the same dice in both worlds until the variant changes what is rolled or chosen; the noise the two runs
share cancels in the difference, and the interval of the difference is narrower than the one two
independent runs give.  The result reports that gain as the measured variance-reduction factor
``(var_base + var_variant) / var(difference)`` (per-game variances, so: how many times more games two
independent runs would need for the same interval).

Seeds: the root seed spawns one child per block of :data:`BLOCK` games (``SeedSequence.spawn``, in order);
base and variant each get a fresh copy of block ``k``'s child, and every game's ``simulate_games``
derives its per-game streams from it (Purramid, Pyradice, Rocking Raft: one spawned child per game;
Meerkat Kingdom: fixed-length dice and choice tapes per game drawn in fixed chunks).  None of these depend on
the components, so game ``i`` of the base and of the variant start from the same stream.  The blocks make
``until=`` reproducible: a run stops at a block boundary, and its first ``k`` blocks are exactly those of a
run of ``k`` blocks.

Metrics are per-game numbers, or ratios of per-game sums (``burst_rate`` = bursts / turns over all games),
estimated by the ratio estimator with the delta-method standard error (per-game linearised values, paired
the same way).  A few are smooth functions of several per-game sums, e.g. a difference of two ratios
(Meerkat's ``tile_pay_excess:T`` = tile T's points per meerkat minus all tiles' points per meerkat): they are
estimated by the same delta method, with the function's gradient at the column means.

Examples
--------
>>> from pyradice_lab import compare
>>> from pyradice_lab.meerkat import default_components
>>> base = default_components()
>>> res = compare("meerkat", base, base, "start_player_win", games=50, players=3, rng=1)
>>> res.difference.value, res.n_games
(0.0, 50)
"""

from __future__ import annotations

import importlib
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..engine.rng import fresh_copy as _fresh, seed_sequence
from ..engine.stats import Estimate

__all__ = ["compare", "Comparison", "metrics", "metric_values", "metric_estimate", "paired_estimates", "check_metric",
           "BLOCK", "GAMES"]

#: Games per seed block (a fixed constant: the numbers never depend on anything but the seed and the count).
BLOCK = 500
#: The four games.
GAMES = ("purramid", "pyradice", "raft", "meerkat")
_Z = 1.959963984540054  # the 97.5% normal quantile: intervals are normal (hundreds of games at least)


# ------------------------------------------------------------------------------------------------ metrics
@dataclass(frozen=True)
class _Metric:
    description: str
    fn: Callable           # (df, outcomes, arg) -> (numerator, denominator) per game, or a _Smooth
    arg: str = ""          # what ":ARG" means ("" = takes none)
    needs_arg: bool = False
    example: str = "0"     # an argument for the error message of a metric that needs one


@dataclass(frozen=True)
class _Smooth:
    """A metric that is a smooth function of the means of several per-game columns (delta method).

    ``columns``: (games, k) per-game values; ``fn(means)`` the metric; ``grad(means)`` its gradient (k,).  The
    per-game linearised value of game ``i`` is ``grad(means) . (columns[i] - means)``.  A metric function
    returns one of these instead of ``(numerator, denominator)`` when a single ratio cannot express it.
    """

    columns: np.ndarray
    fn: Callable
    grad: Callable


def _ratio_difference(a_num, a_den, b_num, b_den) -> _Smooth:
    """``sum(a_num)/sum(a_den) - sum(b_num)/sum(b_den)`` as a smooth function of four per-game columns."""
    cols = np.column_stack([np.asarray(x, dtype=float) for x in (a_num, a_den, b_num, b_den)])
    return _Smooth(cols, lambda m: m[0] / m[1] - m[2] / m[3],
                   lambda m: np.array([1 / m[1], -m[0] / m[1] ** 2, -1 / m[3], m[2] / m[3] ** 2]))


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


def _raft_boat_rates(df, name: str, pick: Callable) -> _Smooth:
    """A function of the points per own turn held by card size, as a smooth function of the per-card means.

    As in :func:`pyradice_lab.raft.analysis.points_per_turn_by_size`: card ``c`` holds ``tpc_c = T_c /
    max(C_c, 1)`` own turns per completion (``T_c``, ``C_c``: its turns held and completions summed over the
    games); a size's rate is the sum of its cards' points over the sum of their ``tpc``; the deck's rate the
    same over all cards.  ``pick(rates by size, deck rate)`` -> the metric, with ``rates`` a dict size -> rate.
    """
    cols, sizes, points, m = _raft_card_rates(df, name)
    n = len(df)
    groups = {int(k): sizes == k for k in sorted(set(sizes.tolist()))}

    def tpc(means):
        c, t = means[:m], means[m:]
        # C_c = 0 (never completed): max(C_c, 1) = 1, i.e. tpc = T_c = n * mean
        done = c > 0
        return np.where(done, t / np.where(done, c, 1.0), n * t), done, c, t

    def parts(means):
        v, _, _, _ = tpc(means)
        rates = {k: points[g].sum() / v[g].sum() for k, g in groups.items()}
        return v, rates, points.sum() / v.sum()

    def fn(means):
        _, rates, deck = parts(means)
        return pick(rates, deck)

    def grad(means):
        v, rates, deck = parts(means)
        # d metric / d tpc_c: through each rate (d rate_k / d tpc_c = -rate_k / D_k for c of size k) and the deck's
        d_tpc = np.zeros(m)
        eps = 1.0
        base = pick(rates, deck)
        for k, g in groups.items():  # the metric is linear in the rates: read its coefficients
            coef = pick({**rates, k: rates[k] + eps}, deck) - base
            d_tpc[g] += coef * (-rates[k] / v[g].sum())
        coef = pick(rates, deck + eps) - base
        d_tpc += coef * (-deck / v.sum())
        _, done, c, t = tpc(means)
        d_c = np.where(done, -d_tpc * t / np.where(done, c, 1.0) ** 2, 0.0)
        d_t = np.where(done, d_tpc / np.where(done, c, 1.0), d_tpc * n)
        return np.concatenate([d_c, d_t])

    return _Smooth(cols, fn, grad)


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
    return _raft_boat_rates(df, "boat_pay_excess", lambda rates, deck: rates[k] - deck)


def _raft_boat_pay_spread(df, out, arg):
    return _raft_boat_rates(df, "boat_pay_spread", lambda rates, deck: rates[max(rates)] - rates[min(rates)])


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
    "seat_win": _Metric("win share of seat K (ties shared)", _seat_win, "K = seat", True),
    "position_win": _Metric("win share of the player taking turn position K (0 = start player)",
                            _position_win, "K = turn position", True),
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
                                   "K = lifeboat size (slots)", True, "4"),
        "boat_pay_spread": _Metric("points per own turn held, the largest lifeboats minus the smallest (needs "
                                   "simulate_games(..., card_columns=True))", _raft_boat_pay_spread),
    },
    "meerkat": {
        "game_length": _Metric("turns in a game", _column("turns")),
        "points_per_meerkat": _Metric("points a tile pays per meerkat on it when scored (all tiles, or tile T;"
                                      " over all games)", _meerkat_points_per_meerkat, "tile T, optional"),
        "tile_pay_excess": _Metric("tile T's points per meerkat minus all tiles' points per meerkat (over all "
                                   "games; 0 = the tile pays the board mean)", _meerkat_tile_pay_excess,
                                   "tile T", True, "12"),
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


def metric_estimate(num, den, metric: str = "metric") -> Estimate:
    """The ratio estimate ``sum(num) / sum(den)`` with its delta-method SE and 95% normal interval."""
    value, z = _linearised(np.asarray(num, dtype=float), np.asarray(den, dtype=float), metric)
    return _estimate(value, z)


def paired_estimates(base, variant, metric: str = "metric") -> tuple[Estimate, Estimate, Estimate, float]:
    """Estimates of ``metric`` from two runs of the same games (common random numbers).

    ``base`` and ``variant`` are ``(numerator, denominator)`` per game (:func:`metric_values`) of the same games
    in the same order.  Returns the base and variant estimates, the difference variant - base (its SE from the
    per-game paired differences of the linearised values) and the SE two independent runs would give.
    """
    rb, zb = _linear(base, metric)
    rv, zv = _linear(variant, metric)
    if len(zb) != len(zv):
        raise ValueError(f"paired estimates need the same games in both runs, got {len(zb)} and {len(zv)} games")
    b, v = _estimate(rb, zb), _estimate(rv, zv)
    return b, v, _estimate(rv - rb, zv - zb), math.sqrt(b.se ** 2 + v.se ** 2)


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


# ------------------------------------------------------------------------------------------------ result
@dataclass(frozen=True)
class Comparison:
    """A paired comparison of a metric between two component sets (see :func:`compare`).

    ``difference`` is variant minus base; ``base`` and ``variant`` are the two estimates; ``independent_se``
    is the standard error the difference would have from two independent runs of ``n_games`` games each
    (estimated from the same games) and ``variance_reduction`` = ``(independent_se / difference.se)**2``
    (``inf`` when every paired difference is 0).
    """

    game: str
    metric: str
    description: str
    base: Estimate
    variant: Estimate
    difference: Estimate
    independent_se: float
    variance_reduction: float
    n_games: int
    base_label: str
    variant_label: str
    until: float | None = None
    max_games: int | None = None
    settings: dict = field(default_factory=dict)

    @property
    def reached(self) -> bool | None:
        """With ``until``: whether the interval of the difference reached that half-width (else None)."""
        return None if self.until is None else bool(self.difference.halfwidth <= self.until)

    def to_frame(self) -> pd.DataFrame:
        """Rows ``base``, ``variant``, ``difference``: ``value``, ``se``, ``ci_low``, ``ci_high``, ``n_games``;
        the settings, the independent SE and the variance-reduction factor in ``attrs``."""
        rows = [(k, e.value, e.se, e.ci_low, e.ci_high, self.n_games)
                for k, e in (("base", self.base), ("variant", self.variant), ("difference", self.difference))]
        df = pd.DataFrame(rows, columns=["estimate", "value", "se", "ci_low", "ci_high", "n_games"])
        df.attrs.update(game=self.game, metric=self.metric, base=self.base_label, variant=self.variant_label,
                        independent_se=self.independent_se, variance_reduction=self.variance_reduction,
                        until=self.until, reached=self.reached, **self.settings)
        return df

    def __str__(self) -> str:
        d = self.difference
        lines = [f"{self.game} {self.metric}: {self.description}",
                 f"  base     {self.base_label}: {_fmt(self.base)}",
                 f"  variant  {self.variant_label}: {_fmt(self.variant)}",
                 f"  variant - base: {_fmt(d, '+')}, {self.n_games} paired games"]
        if d.se > 0:
            k = _decimals(d.se)
            lines.append(f"  common random numbers: SE {d.se:.{k}f} vs {self.independent_se:.{k}f} from independent "
                         f"runs (variance-reduction factor {self.variance_reduction:.1f})")
        else:
            lines.append("  every paired game gave the same value: the difference is exactly 0")
        if self.until is not None:
            lines.append(f"  until half-width {self.until:g}: " + (
                f"reached (half-width {d.halfwidth:.{_decimals(d.se)}f})" if self.reached else
                f"not reached by max_games={self.max_games} (half-width {d.halfwidth:.{_decimals(d.se)}f})"))
        if d.se > 0:
            verdict = "0 is inside the interval: no detectable change" if d.contains(0.0) else (
                "the variant is higher" if d.ci_low > 0 else "the variant is lower")
            lines.append(f"  {verdict}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Comparison\n{self}\n>"


def _decimals(se: float) -> int:
    """Decimals that show two significant digits of ``se``."""
    if not (se > 0 and math.isfinite(se)):
        return 4
    return int(min(max(1 - math.floor(math.log10(se)), 1), 10))


def _fmt(e: Estimate, sign: str = "") -> str:
    k = _decimals(e.se)
    return f"{e.value:{sign}.{k}f} ± {e.se:.{k}f} (95% CI {e.ci_low:{sign}.{k}f}..{e.ci_high:{sign}.{k}f})"


# ------------------------------------------------------------------------------------------------ compare
def _label(x) -> str:
    if x is None:
        return "packaged"
    if isinstance(x, (str, bytes)) or hasattr(x, "__fspath__"):
        return str(x)
    h = getattr(x, "content_hash", None)
    return f"components {h()[:12]}" if callable(h) else type(x).__name__


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
        return _Smooth(np.concatenate([p.columns for p in parts]), parts[0].fn, parts[0].grad)
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


def _estimate(value: float, z: np.ndarray) -> Estimate:
    n = len(z)
    se = float(np.std(z, ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return Estimate(value, se, n, value - _Z * se, value + _Z * se, 0.95)


def _check_pos(x, name: str, allow_none: bool = False):
    if x is None and allow_none:
        return None
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < 1:
        raise ValueError(f"{name} must be a positive integer, got {x!r}")
    return int(x)


def compare(game: str, base, variant, metric: str = "start_player_win", *, games: int = 2000,
            players: int | None = None, policies=None, rng=None, until: float | None = None,
            max_games: int | None = None, options: dict | None = None, progress: bool = False) -> Comparison:
    """Compare ``metric`` between the ``base`` and ``variant`` components on common random numbers.

    Parameters
    ----------
    game : {"purramid", "pyradice", "raft", "meerkat"}
    base, variant : None, path or loaded components
        ``None`` = the packaged components; a path to a (partial) components TOML; or components from the
        game's ``load_components`` / ``default_components`` / ``comp.replace(...)``.  Both are validated
        before any game is played.
    metric : str
        A name from :func:`metrics` (``"start_player_win"``, ``"seat_win:1"``, ``"mean_score"``,
        ``"score_spread"``, ``"game_length"``, and per game e.g. ``"burst_rate"``, ``"points_per_meerkat:7"``).
    games : int
        Games played with each component set (default 2000); with ``until``, the minimum.
    players, policies : as the game's ``simulate_games`` (default: its defaults).
    rng : int, SeedSequence, Generator or None
        Root seed: same seed -> the same games, the same result.
    until : float, optional
        Keep adding blocks of :data:`BLOCK` games until the 95% interval of the difference has at most this
        half-width (or ``max_games`` is reached; see :attr:`Comparison.reached`).
    max_games : int, optional
        Cap on the games per component set with ``until`` (default: 100 x ``games``).
    options : dict, optional
        Further keyword arguments of the game's ``simulate_games`` (e.g. ``{"layout": "B"}`` for Purramid,
        ``{"variant": "sinking"}`` for Rocking Raft), the same for both runs.
    progress : bool
        tqdm progress bar on stderr.

    Returns
    -------
    Comparison
        ``difference`` (variant - base) with SE and 95% CI, ``base`` and ``variant`` estimates, ``n_games``,
        ``independent_se`` and ``variance_reduction``; ``.to_frame()``; printing it gives a short summary.

    Raises
    ------
    ValueError
        If ``game`` or ``metric`` is unknown (or the metric is undefined in these games), a component set
        fails validation, ``games``/``max_games`` is not a positive integer (``max_games`` without ``until``
        or below ``games``), ``until`` is not positive, or ``options`` sets compare's own arguments or
        arguments ``simulate_games`` does not take.
    TypeError
        If ``game`` or ``metric`` is not a string or ``options`` is not a dict.

    Examples
    --------
    Rocking Raft's cards 1 and 2 worth 4 points: points per lifeboat go up (100 paired games; the README
    shows 1000):

    >>> from pyradice_lab import raft
    >>> v = raft.default_components().replace({"card.1.points": 4, "card.2.points": 4})
    >>> res = compare("raft", None, v, "points_per_boat", games=100, players=2, rng=1)
    >>> round(res.difference.value, 3), res.difference.ci_low > 0
    (0.109, True)
    """
    game = _check_game(game)
    name, m, arg = _parse_metric(game, metric)
    games = _check_pos(games, "games")
    if until is not None:
        if isinstance(until, bool) or not isinstance(until, numbers.Real) or not (0 < until < math.inf):
            raise ValueError(f"until must be a positive half-width of the difference's 95% interval, got {until!r}")
        until = float(until)
    if max_games is not None and until is None:
        raise ValueError("max_games caps an until= run; without until the run plays exactly games= games")
    max_games = _check_pos(max_games, "max_games", allow_none=True)
    if until is not None:
        max_games = 100 * games if max_games is None else max_games
        if max_games < games:
            raise ValueError(f"max_games must be at least games ({games}), got {max_games}")
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"options must be a dict of simulate_games keyword arguments, got {type(options).__name__}")
    options = dict(options or {})
    clash = {"n_games", "players", "policies", "rng", "components", "progress"} & set(options)
    if clash:
        raise ValueError(f"options must not set {', '.join(sorted(clash))} (compare's own arguments)")
    mod = importlib.import_module(f"pyradice_lab.{game}")
    import inspect

    allowed = [k for k in inspect.signature(mod.simulate_games).parameters
               if k not in {"n_games", "players", "policies", "rng", "components", "progress"}]
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"options: {game}.simulate_games has no {', '.join(map(repr, unknown))} (allowed: "
                         f"{', '.join(allowed)})")
    coerce = importlib.import_module(f"pyradice_lab.{game}.components").coerce_components
    comps = {"base": coerce(base, "base"), "variant": coerce(variant, "variant")}
    sim_kw = dict(options)
    if players is not None:
        sim_kw["players"] = players
    if policies is not None:
        sim_kw["policies"] = policies
    root = seed_sequence(rng, name="rng")
    sim = importlib.import_module(f"pyradice_lab.{game}.sim")

    from tqdm.auto import tqdm

    parts: dict[str, list] = {"base": [], "variant": []}
    n = 0
    bar = tqdm(total=games, desc=f"{game} compare", unit="game", disable=not progress, leave=False)
    try:
        while True:
            size = min(BLOCK, (max_games if until is not None and n >= games else games) - n)
            seed = root.spawn(1)[0]
            if n + size > bar.total:      # until=: the target grows a block at a time
                bar.total = n + size
                bar.refresh()
            for side in ("base", "variant"):
                df = mod.simulate_games(size, rng=_fresh(seed), components=comps[side], **sim_kw)
                parts[side].append(m.fn(df, sim.outcomes(df), arg))
                bar.update(size // 2 if side == "base" else size - size // 2)
            n += size
            if n < games:
                continue
            if until is None:
                break
            res = _summarise(parts, name)
            if res[2].halfwidth <= until or n >= max_games:
                break
    finally:
        bar.close()
    b, v, d, ind_se = _summarise(parts, name)
    vrf = (ind_se / d.se) ** 2 if d.se > 0 else math.inf
    return Comparison(game, metric.strip(), m.description, b, v, d, ind_se, vrf, n, _label(base),
                      _label(variant), until, max_games,
                      {"players": players, "policies": policies, "games": games, "block": BLOCK, **options})


def _summarise(parts, name):
    return paired_estimates(_concat(parts["base"]), _concat(parts["variant"]), name)
