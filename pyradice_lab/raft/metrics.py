"""Rocking Raft's designer metrics (:data:`METRICS`), offered after the common ones
(:data:`pyradice_lab.engine.metrics.COMMON`) by :func:`pyradice_lab.design.metrics.metrics`: points per lifeboat,
gift points, rounds, and the lifeboat pay rates per own turn held (by size, or per card).

The lifeboat pay rates are smooth functions of the per-card means (:class:`~pyradice_lab.engine.metrics.Smooth`
of the form ``"raft_boat_rates"``, registered here) and need the per-card columns of
``simulate_games(..., card_columns=True)`` (the metrics' ``options``).

>>> sorted(METRICS)[:3]
['boat_pay_excess', 'boat_pay_spread', 'boats_completed']
"""

from __future__ import annotations

import numpy as np

from ..engine.controls import Controls, GameControls
from ..engine.metrics import Metric, Smooth, column, register_smooth, seat_columns

__all__ = ["METRICS", "CONTROLS", "deck_controls"]


def _points_per_boat(df, out, arg):
    seats = seat_columns(df, "{s}")
    return (df[[f"score_{s}" for s in seats]].to_numpy(dtype=float).sum(axis=1),
            df[[f"boats_{s}" for s in seats]].to_numpy(dtype=float).sum(axis=1))


def _card_rates(df, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Per-game (completions, turns held) of every card, and the deck's sizes and points, from a frame of
    ``simulate_games(..., card_columns=True)``."""
    sizes, points = df.attrs.get("card_sizes"), df.attrs.get("card_points")
    if sizes is None or points is None or "completed_c0" not in df.columns:
        raise ValueError(f"metric {name} needs the per-card columns of simulate_games(..., card_columns=True)")
    m = len(sizes)
    done = df[[f"completed_c{i}" for i in range(m)]].to_numpy(dtype=float)
    held = df[[f"turns_held_c{i}" for i in range(m)]].to_numpy(dtype=float)
    return np.hstack([done, held]), np.asarray(sizes), np.asarray(points, dtype=float), m


def _boat_rates(df, name: str, pick: dict) -> Smooth:
    """A function of the points per own turn held by card size, as a smooth function of the per-card means.

    As in :func:`pyradice_lab.raft.analysis.points_per_turn_by_size`: card ``c`` holds ``tpc_c = T_c /
    max(C_c, 1)`` own turns per completion (``T_c``, ``C_c``: its turns held and completions summed over the
    games); a size's rate is the sum of its cards' points over the sum of their ``tpc``; the deck's rate the
    same over all cards.  ``pick``: ``{"pick": "excess", "size": k}`` (size ``k``'s rate minus the deck's) or
    ``{"pick": "spread"}`` (the largest size's rate minus the smallest's).
    """
    cols, sizes, points, m = _card_rates(df, name)
    return Smooth(cols, "raft_boat_rates", {"sizes": np.asarray(sizes), "points": points, "m": int(m), **pick})


def _pick(params: dict, rates: dict, deck: float) -> float:
    if params["pick"] == "excess":
        return rates[params["size"]] - deck
    return rates[max(rates)] - rates[min(rates)]


def _tpc(s: Smooth, means):
    m, n = s.params["m"], len(s.columns)  # n: every game of the run (the blocks joined), not one block's
    c, t = means[:m], means[m:]
    # C_c = 0 (never completed): max(C_c, 1) = 1, i.e. tpc = T_c = n * mean
    done = c > 0
    return np.where(done, t / np.where(done, c, 1.0), n * t), done, c, t


def _groups(s: Smooth) -> dict:
    sizes = np.asarray(s.params["sizes"])
    return {int(k): sizes == k for k in sorted(set(sizes.tolist()))}


def _parts(s: Smooth, means):
    points = np.asarray(s.params["points"], dtype=float)
    v, _, _, _ = _tpc(s, means)
    rates = {k: points[g].sum() / v[g].sum() for k, g in _groups(s).items()}
    return v, rates, points.sum() / v.sum()


def _boat_rates_fn(s: Smooth, means):
    _, rates, deck = _parts(s, means)
    return _pick(s.params, rates, deck)


def _boat_rates_grad(s: Smooth, means):
    v, rates, deck = _parts(s, means)
    n, m = len(s.columns), s.params["m"]
    # d metric / d tpc_c: through each rate (d rate_k / d tpc_c = -rate_k / D_k for c of size k) and the deck's
    d_tpc = np.zeros(m)
    eps = 1.0
    base = _pick(s.params, rates, deck)
    for k, g in _groups(s).items():  # the metric is linear in the rates: read its coefficients
        coef = _pick(s.params, {**rates, k: rates[k] + eps}, deck) - base
        d_tpc[g] += coef * (-rates[k] / v[g].sum())
    coef = _pick(s.params, rates, deck + eps) - base
    d_tpc += coef * (-deck / v.sum())
    _, done, c, t = _tpc(s, means)
    d_c = np.where(done, -d_tpc * t / np.where(done, c, 1.0) ** 2, 0.0)
    d_t = np.where(done, d_tpc / np.where(done, c, 1.0), d_tpc * n)
    return np.concatenate([d_c, d_t])


register_smooth("raft_boat_rates", _boat_rates_fn, _boat_rates_grad)


def _card_ids(df) -> list[int]:
    ids = df.attrs.get("card_ids")
    if ids is None or "completed_turns_c0" not in df.columns:
        raise ValueError("metric points_per_turn_held needs the per-card columns of simulate_games(..., "
                         "card_columns=True)")
    return [int(i) for i in ids]


def _points_per_turn_held(df, out, arg):
    """Card K's points per own turn held until completed: its points times its completions over the own turns it
    was held until completed, summed over the games (a ratio estimate)."""
    ids = _card_ids(df)
    try:
        k = int(arg)
    except ValueError:
        raise ValueError(f"metric: points_per_turn_held takes a card id {min(ids)}..{max(ids)}, got {arg!r}") from None
    if k not in ids:
        raise ValueError(f"metric: no card {k} in this deck (card ids {min(ids)}..{max(ids)})")
    i = ids.index(k)
    points = float(df.attrs["card_points"][i])
    return points * df[f"completed_c{i}"].to_numpy(dtype=float), df[f"completed_turns_c{i}"].to_numpy(dtype=float)


def _size(df, arg) -> int:
    sizes = sorted(set(df.attrs.get("card_sizes") or []))
    try:
        k = int(arg)
    except ValueError:
        raise ValueError(f"metric: boat_pay_excess takes a lifeboat size (slots) {', '.join(map(str, sizes))}, "
                         f"got {arg!r}") from None
    if sizes and k not in sizes:
        raise ValueError(f"metric: no {k}-slot lifeboats in this deck (sizes {', '.join(map(str, sizes))})")
    return k


def _boat_pay_excess(df, out, arg):
    k = _size(df, arg)
    return _boat_rates(df, "boat_pay_excess", {"pick": "excess", "size": k})


def _boat_pay_spread(df, out, arg):
    return _boat_rates(df, "boat_pay_spread", {"pick": "spread"})


_CARD_COLUMNS = (("card_columns", True),)


def _boats_completed(df, out, arg):
    """The K-slot lifeboats completed per game (every player's), from the per-card columns."""
    k = _size(df, arg)
    _, sizes, _, m = _card_rates(df, "boats_completed")
    cols = [f"completed_c{i}" for i in range(m) if sizes[i] == k]
    return df[cols].to_numpy(dtype=float).sum(axis=1), np.ones(len(df))

#: name -> :class:`~pyradice_lab.engine.metrics.Metric`: Rocking Raft's own designer metrics.
METRICS: dict[str, Metric] = {
    "game_length": Metric("turns in a game", column("turns")),
    "points_per_boat": Metric("points per completed lifeboat (over all games)", _points_per_boat),
    "gift_points": Metric("points completed by passed gems, per game", column("gift_points")),
    "rounds": Metric("rounds in a game (every player's turn once)", column("rounds")),
    "boat_pay_excess": Metric("points per own turn held of the K-slot lifeboats minus the deck's (a card's "
                              "points over the own turns it is held per completion; needs "
                              "simulate_games(..., card_columns=True))", _boat_pay_excess,
                              "K = lifeboat size (slots)", True, "4",
                              family=lambda df: [str(k) for k in sorted(set(df.attrs.get("card_sizes") or []))],
                              options=_CARD_COLUMNS),
    "points_per_turn_held": Metric("card K's points per own turn it is held until completed (its points x "
                                   "completions over the turns held until completed, over all games; needs "
                                   "simulate_games(..., card_columns=True))", _points_per_turn_held,
                                   "K = card id", True, "1", family=lambda df: [str(k) for k in _card_ids(df)],
                                   options=_CARD_COLUMNS),
    "boats_completed": Metric("K-slot lifeboats completed per game, every player's (how much the players use "
                              "them; needs simulate_games(..., card_columns=True))", _boats_completed,
                              "K = lifeboat size (slots)", True, "2",
                              family=lambda df: [str(k) for k in sorted(set(df.attrs.get("card_sizes") or []))],
                              options=_CARD_COLUMNS),
    "boat_pay_spread": Metric("points per own turn held, the largest lifeboats minus the smallest (needs "
                              "simulate_games(..., card_columns=True))", _boat_pay_spread,
                              options=_CARD_COLUMNS),
}


#: cards per block of the deck's draw order after the deal (:func:`deck_controls`)
CONTROL_BLOCK = 8


def deck_controls(n_games: int, *, players: int = 3, rng: int = 0, components=None):
    """The deck order's points, game by game, for ``simulate_games(n_games, players=players, rng=rng,
    components=components)``: the mean points of the lifeboats dealt, then of each block of
    :data:`CONTROL_BLOCK` cards drawn after them (up to 3 blocks, the pirate flag not counted), recomputed from
    each game's setup uniforms (its first draw, before any play: the kernel's own shuffle).  Every position of a
    shuffled deck holds a card of the deck's mean points in expectation, so each control's exact mean is the deck's
    mean points (a :class:`~pyradice_lab.engine.controls.Controls`).

    >>> c = deck_controls(4, players=3, rng=1)
    >>> c.names[0], c.values.shape, round(float(c.means[0]), 3)
    ('points dealt', (4, 4), 3.231)
    """
    from ..engine.rng import fresh_copy
    from .layouts import setup_block_size, shuffle_rows
    from .sim import MAX_TURNS, _Setup

    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise ValueError(f"n_games must be an int >= 1, got {n_games!r}")
    if isinstance(rng, np.random.SeedSequence):  # a block's seed (compare): its children, its counter untouched
        children = fresh_copy(rng).spawn(n_games)
    elif isinstance(rng, bool) or not isinstance(rng, int) or rng < 0:
        raise ValueError(f"rng must be an int seed >= 0 or a SeedSequence (the seed simulate_games was given), got "
                         f"{rng!r}")
    else:
        children = np.random.SeedSequence(rng).spawn(n_games)
    setup = _Setup(players, "standard", None, None, components, None, None, MAX_TURNS)
    spec = setup.spec()
    P, gems, points = spec[0], int(spec[2].sum()), np.asarray(spec[5], dtype=float)
    dealt, m = P * spec[7], len(points)
    u = np.stack([np.random.default_rng(s).random(setup_block_size(gems, m)) for s in children])
    order = np.tile(np.arange(m), (n_games, 1))
    shuffle_rows(order, u[:, 2 * gems:2 * gems + m])       # the kernel's setup: the same uniforms, the same deck
    pts = points[order]
    cuts = [(0, dealt)] + [(a, min(a + CONTROL_BLOCK, m)) for a in range(dealt, min(m, dealt + 3 * CONTROL_BLOCK),
                                                                     CONTROL_BLOCK)]
    names = ("points dealt",) + tuple(f"points of deck cards {a - dealt + 1}-{b - dealt}" for a, b in cuts[1:])
    values = np.stack([pts[:, a:b].mean(axis=1) for a, b in cuts], axis=1)
    return Controls(names, values, np.full(len(cuts), points.mean()))


#: the contract part ``controls``: exogenous variables for :mod:`pyradice_lab.design.controlvariates`
CONTROLS = GameControls(deck_controls, "the mean points of the lifeboats dealt and of the next 3 blocks of "
                                       f"{CONTROL_BLOCK} cards in the shuffled deck (exact mean: the deck's)")
