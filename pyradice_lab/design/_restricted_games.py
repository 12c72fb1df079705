"""The games of a restricted-play metric (private; ``balance`` and the guards' paired run read their metrics here).

A game may declare a metric of **restricted play** (:class:`pyradice_lab.engine.metrics.Metric` with a
``lineup``): its games are not ordinary ones, but games where some seats are forbidden an option in turn (Meerkat
Kingdom's ``commit_win_excess:T``: one seat never commits to tile T, another never to a tile U, the other tiles
and the seats in turn).  :func:`play_metrics` plays every metric on its own games from one seed: the ordinary
metrics on one ``simulate_games`` run (exactly the run ``balance`` always played, so their values do not change),
each restricted-play metric on games grouped by lineup (one policy in every seat, ``"<policy>/<restriction>"``
where the lineup restricts it; each group from its own child of the seed, so two components played from the same
seed meet the same dice: common random numbers).  Every metric gets one value per game, ``games`` games.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["metric_lineup", "play_metrics", "is_restricted"]


def metric_lineup(game: str, metric: str):
    """``lineup(players, i) -> tuple of str`` of a restricted-play metric (its declared ``lineup`` with the metric's
    argument bound), or None for an ordinary metric (a family ``name:*`` is always ordinary)."""
    from .metrics import _check_game, _family_metric, _parse_metric, is_family

    game = _check_game(game)
    if is_family(metric):
        name, m = _family_metric(game, metric)
        if m.lineup is not None:  # pragma: no cover - a game's declaration error
            raise ValueError(f"metric {metric!r}: a metric of restricted play has no family ('name:*')")
        return None
    _, m, arg = _parse_metric(game, metric)
    if m.lineup is None:
        return None
    return lambda players, i: tuple(m.lineup(arg, players, i))


def is_restricted(game: str, metric: str) -> bool:
    """Whether ``metric`` is measured on restricted-play games (:func:`metric_lineup`)."""
    return metric_lineup(game, metric) is not None


def _base_policy(game: str, metric: str, kwargs: dict) -> str:
    """The one policy every seat of a restricted-play game plays (``kwargs["policies"]``: one name, or the same name
    for every seat; None: the game's restricted-play player), checked to take restrictions."""
    from ..engine.registry import get_game, restricted_player

    spec = get_game(game)
    p = kwargs.get("policies")
    if p is None:
        p = restricted_player(spec)
    elif not isinstance(p, str):
        names = list(p) if isinstance(p, (list, tuple)) else [p]
        if not names or not all(isinstance(x, str) and x == names[0] for x in names):
            raise ValueError(f"policies: {metric} is a metric of restricted play: one policy plays every seat "
                             f"(restricted in turn), got {p!r}")
        p = names[0]
    if p.split("/")[0].partition(":")[0] in spec.unrestrictable or p.split("/")[0] in spec.unrestrictable:
        raise ValueError(f"policies: {metric} is a metric of restricted play and {p} takes no restriction (the "
                         f"{spec.name} players that do: "
                         f"{', '.join(q for q in spec.policies if q not in spec.unrestrictable)})")
    return p


def _restricted_frame(game: str, metric: str, games: int, seed, comp, kwargs: dict) -> pd.DataFrame:
    """``games`` games of ``metric``'s lineups: grouped by lineup (in order of first appearance), group ``k`` from
    the ``k``-th child of a fresh copy of ``seed``; one frame, games numbered 0..games-1."""
    from ..engine.registry import get_game
    from ..engine.rng import fresh_copy

    spec = get_game(game)
    lineup = metric_lineup(game, metric)
    base = _base_policy(game, metric, kwargs)
    players = int(kwargs.get("players") or spec.default_players or 2)
    rows = [lineup(players, i) for i in range(int(games))]
    order = list(dict.fromkeys(rows))
    counts = {key: rows.count(key) for key in order}
    parts = []
    for key, child in zip(order, fresh_copy(seed).spawn(len(order))):
        pols = [f"{base}/{r}" if r else base for r in key]
        parts.append(spec.simulate_games(counts[key], rng=np.random.default_rng(child), components=comp,
                                         **{**kwargs, "policies": pols}))
    df = pd.concat(parts, ignore_index=True)
    df["game"] = np.arange(len(df))
    return df


def play_metrics(game: str, metrics: list, games: int, seed, comp, kwargs: dict) -> tuple[dict, int]:
    """``({metric: (numerator, denominator)}, rows)`` of ``metrics`` over ``games`` games from ``seed`` on ``comp``:
    the ordinary ones (a family ``name:*`` expanded) on one ``simulate_games`` run with ``kwargs``, each
    restricted-play one on its own games (module docstring); ``rows``: the games of a run."""
    from ..engine.registry import get_game
    from ..engine.rng import fresh_copy
    from ._balance_controls import CONTROLS_KEY, add_controls
    from .compare import metric_values
    from .metrics import expand_metric

    controls = CONTROLS_KEY in metrics   # balance(controls=True): the games' controls beside the metrics
    metrics = [m for m in metrics if m != CONTROLS_KEY]
    plain = [m for m in metrics if not is_restricted(game, m)]
    out, rows = {}, int(games)
    if plain:
        df = get_game(game).simulate_games(games, rng=np.random.default_rng(fresh_copy(seed)), components=comp,
                                           **kwargs)
        rows = len(df)
        for spec in plain:
            for metric in expand_metric(game, df, spec):
                out[metric] = tuple(np.asarray(a, dtype=float) for a in metric_values(game, df, metric))
        if controls:
            add_controls(game, df, out, kwargs)
    for metric in (m for m in metrics if m not in plain):
        df = _restricted_frame(game, metric, games, seed, comp, kwargs)
        out[metric.strip()] = tuple(np.asarray(a, dtype=float) for a in metric_values(game, df, metric))
    return out, rows
