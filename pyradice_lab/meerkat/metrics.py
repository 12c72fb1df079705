"""Meerkat Kingdom's designer metrics (:data:`METRICS`), offered after the common ones
(:data:`pyradice_lab.engine.metrics.COMMON`) by :func:`pyradice_lab.design.metrics.metrics`: what a tile pays per
meerkat on it, a tile's pay against the board mean, the hazards that fired, and what committing to a tile is
worth to winning (``commit_win_excess:T``, a metric of restricted play: its games forbid tiles to seats in turn).

>>> sorted(METRICS)
['commit_win_excess', 'game_length', 'hazards_per_game', 'meerkats_on_tile', 'points_per_meerkat', 'tile_pay_excess']
>>> [_commit_lineup("7", 3, i) for i in range(2)]
[('no_tile:7', 'no_tile:3', ''), ('no_tile:7', '', 'no_tile:4')]
"""

from __future__ import annotations

from ..engine.metrics import Metric, column, humans, ones, per_game, ratio_difference

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


#: the tiles of the board (the two-dice sums), the arguments of ``no_tile:T``
BOARD = tuple(range(3, 13))


def _board_tile(arg: str) -> int:
    try:
        t = int(arg)
    except ValueError:
        t = None
    if t not in BOARD:
        raise ValueError(f"metric: commit_win_excess takes a tile number {BOARD[0]}..{BOARD[-1]}, got {arg!r}")
    return t


def _commit_lineup(arg: str, players: int, i: int) -> tuple:
    """Game ``i`` of ``commit_win_excess:T``: one seat never commits to tile T, another never to tile U (the other
    tiles in turn, ``i`` mod 9), the two seats taking every ordered pair of seats in turn (``i`` mod p(p-1)); any
    further seat plays unrestricted."""
    t = _board_tile(arg)
    if players < 2:
        raise ValueError(f"metric: commit_win_excess needs at least 2 human players (one never commits to tile {t}, "
                         f"another to another tile), got {players}")
    others = [u for u in BOARD if u != t]
    pairs = [(a, b) for a in range(players) for b in range(players) if a != b]
    a, b = pairs[i % len(pairs)]
    seats = [""] * players
    seats[a], seats[b] = f"no_tile:{t}", f"no_tile:{others[i % len(others)]}"
    return tuple(seats)


def _commit_win_excess(df, out, arg):
    t = _board_tile(arg)
    h = humans(out)
    pol = h["policy"].astype(str)
    mine = pol.str.endswith(f"/no_tile:{t}")
    other = pol.str.contains("/no_tile:", regex=False) & ~mine
    n = len(df)
    if not (per_game(h, mine, "sum", n) == 1).all() or not (per_game(h, other, "sum", n) == 1).all():
        raise ValueError(f"metric commit_win_excess:{t} is a metric of restricted play: its games seat one player "
                         f"never committing to tile {t} and one never committing to another tile (balance and the "
                         "guards play them); these games do not")
    win = h["win"].to_numpy(dtype=float)
    return (per_game(h, win * other.to_numpy(), "sum", n) - per_game(h, win * mine.to_numpy(), "sum", n),
            ones(df))


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
    "commit_win_excess": Metric("how much more winning committing to tile T is worth than committing to another "
                                "tile: in games where one seat never commits a meerkat or the queen to T and another "
                                "never to a tile U (the other tiles and the seats in turn; restricted play, "
                                "<policy>/no_tile:T), the U seat's win share minus the T seat's (0 = tile T is worth "
                                "the other tiles' mean to winning)", _commit_win_excess, "tile T", True, "7",
                                lineup=_commit_lineup),
}
