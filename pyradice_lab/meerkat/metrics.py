"""Meerkat Kingdom's designer metrics (:data:`METRICS`), offered after the common ones
(:data:`pyradice_lab.engine.metrics.COMMON`) by :func:`pyradice_lab.design.metrics.metrics`: what a tile pays per
meerkat on it, a tile's pay against the board mean, and the hazards that fired.

>>> sorted(METRICS)
['game_length', 'hazards_per_game', 'meerkats_on_tile', 'points_per_meerkat', 'tile_pay_excess']
"""

from __future__ import annotations

from ..engine.metrics import Metric, column, ones, ratio_difference

__all__ = ["METRICS"]


def _tiles(df, arg, name: str = "points_per_meerkat") -> list[int]:
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


def _hazards(df, out, arg):
    return df[["hawk", "fire", "jackal"]].to_numpy(dtype=float).sum(axis=1), ones(df)


def _points_per_meerkat(df, out, arg):
    tiles = _tiles(df, arg)
    return (df[[f"paid_t{t}" for t in tiles]].to_numpy(dtype=float).sum(axis=1),
            df[[f"present_t{t}" for t in tiles]].to_numpy(dtype=float).sum(axis=1))


def _tile_pay_excess(df, out, arg):
    (t,) = _tiles(df, arg, "tile_pay_excess")
    tiles = _tiles(df, "")
    return ratio_difference(df[f"paid_t{t}"], df[f"present_t{t}"],
                            df[[f"paid_t{u}" for u in tiles]].to_numpy(dtype=float).sum(axis=1),
                            df[[f"present_t{u}" for u in tiles]].to_numpy(dtype=float).sum(axis=1))


def _meerkats_on_tile(df, out, arg):
    (t,) = _tiles(df, arg, "meerkats_on_tile")
    return df[f"present_t{t}"].to_numpy(dtype=float), ones(df)


#: name -> :class:`~pyradice_lab.engine.metrics.Metric`: Meerkat Kingdom's own designer metrics.
METRICS: dict[str, Metric] = {
    "game_length": Metric("turns in a game", column("turns")),
    "points_per_meerkat": Metric("points a tile pays per meerkat on it when scored (all tiles, or tile T;"
                                 " over all games)", _points_per_meerkat, "tile T, optional",
                                 family=lambda df: [str(t) for t in _tiles(df, "")]),
    "tile_pay_excess": Metric("tile T's points per meerkat minus all tiles' points per meerkat (over all "
                              "games; 0 = the tile pays the board mean)", _tile_pay_excess,
                              "tile T", True, "12", family=lambda df: [str(t) for t in _tiles(df, "")]),
    "hazards_per_game": Metric("hazard tokens that fired in a game (hawk, fire, jackal)", _hazards),
    "meerkats_on_tile": Metric("meerkats on tile T when it is scored, per game (the pieces the players commit "
                               "there)", _meerkats_on_tile, "tile T", True, "12",
                               family=lambda df: [str(t) for t in _tiles(df, "")]),
}
