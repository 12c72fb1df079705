"""Geometry of the quarry (3 stacked grids of dice) and of the 21-space pyramid, as index arrays.

Quarry positions are ``(layer, row, col)`` with layer 0 at the bottom; they are flattened layer by layer,
row by row (:func:`quarry_geometry`).  A die at ``(L, r, c)`` with ``L >= 1`` rests on the four dice
``(L-1, r, c)``, ``(L-1, r+1, c)``, ``(L-1, r, c+1)``, ``(L-1, r+1, c+1)`` (rules).  Its side faces are
hidden by the dice at ``(L, r±1, c)`` and ``(L, r, c±1)``; its top face by any die resting on it; its bottom
face is never visible.  Every relation is a fixed index array per quarry size, so availability of many
quarries at once is a handful of numpy operations (see :mod:`.quarry`).

Pyramid spaces are ``(level, index)`` with levels 1..6 holding 6, 5, 4, 3, 2, 1 spaces, flattened level by
level (space 0..5 is level 1, ..., space 20 is level 6).  Space ``(k, i)`` with ``k >= 2`` lies directly above
``(k-1, i)`` and ``(k-1, i+1)``.

Examples
--------
>>> g = quarry_geometry(2)
>>> g.n, g.shapes
(47, ((4, 6), (3, 5), (2, 4)))
>>> g.index(2, 0, 0), g.position(46)
(39, (2, 1, 3))
>>> PYRAMID.n, int(PYRAMID.level_of[20]), PYRAMID.supports[6].tolist()
(21, 6, [0, 1])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

__all__ = ["QuarryGeometry", "quarry_geometry", "QUARRY_SHAPES", "PyramidGeometry", "PYRAMID", "check_players"]

#: (rows, cols) of each quarry layer, bottom first, by quarry side (rules).
QUARRY_SHAPES = {
    "2p": ((4, 6), (3, 5), (2, 4)),
    "3-4p": ((4, 11), (3, 10), (2, 9)),
}


def check_players(players, name: str = "players") -> int:
    """Validate a player count (2..4) and return it as ``int``."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise TypeError(f"{name} must be an integer in 2..4, got {players!r}")
    if not 2 <= int(players) <= 4:
        raise ValueError(f"{name} must be in 2..4, got {int(players)}")
    return int(players)


@dataclass(frozen=True, eq=False)
class QuarryGeometry:
    """Index arrays of one quarry size.

    Attributes
    ----------
    shapes : tuple of (rows, cols) per layer, bottom first
    n : int, number of positions
    coords : (n, 3) int array of (layer, row, col)
    sides : (n, 4) int array, the side neighbours N, S, W, E in the same layer; ``n`` (a padding slot that is
        always empty) where the neighbour would be off the board
    covers : (n, 4) int array, the dice of the layer above resting on this die; ``n`` where there is none
    supports : (n, 4) int array, the four dice of the layer below this die rests on; ``n`` for layer 0
    """

    shapes: tuple
    n: int
    coords: np.ndarray
    sides: np.ndarray
    covers: np.ndarray
    supports: np.ndarray
    offsets: tuple

    def index(self, layer: int, row: int, col: int) -> int:
        """Flat index of ``(layer, row, col)`` (ValueError if not integers or off the board)."""
        if not all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in (layer, row, col)):
            raise ValueError(f"pos must be a (layer, row, col) tuple of integers, got {(layer, row, col)!r}")
        if not (0 <= layer < 3):
            raise ValueError(f"pos layer must be in 0..2, got {layer}")
        rows, cols = self.shapes[layer]
        if not (0 <= row < rows and 0 <= col < cols):
            raise ValueError(f"pos {(layer, row, col)} is off the board: layer {layer} has {rows} rows x {cols} cols")
        return self.offsets[layer] + row * cols + col

    def position(self, i: int) -> tuple[int, int, int]:
        """``(layer, row, col)`` of flat index ``i``."""
        layer, row, col = self.coords[i]
        return int(layer), int(row), int(col)

    @property
    def top_corners(self) -> list[tuple[int, int, int]]:
        rows, cols = self.shapes[2]
        return [(2, 0, 0), (2, 0, cols - 1), (2, rows - 1, 0), (2, rows - 1, cols - 1)]


@cache
def _geometry(side: str) -> QuarryGeometry:
    shapes = QUARRY_SHAPES[side]
    offsets, coords = [], []
    for layer, (rows, cols) in enumerate(shapes):
        offsets.append(len(coords))
        coords.extend((layer, r, c) for r in range(rows) for c in range(cols))
    n = len(coords)
    offsets = tuple(offsets)

    def idx(layer, r, c):
        if not 0 <= layer < 3:
            return n
        rows, cols = shapes[layer]
        return offsets[layer] + r * cols + c if (0 <= r < rows and 0 <= c < cols) else n

    sides = np.full((n, 4), n, dtype=np.int64)
    covers = np.full((n, 4), n, dtype=np.int64)
    supports = np.full((n, 4), n, dtype=np.int64)
    for i, (layer, r, c) in enumerate(coords):
        sides[i] = [idx(layer, r - 1, c), idx(layer, r + 1, c), idx(layer, r, c - 1), idx(layer, r, c + 1)]
        if layer < 2:  # dice above at (r', c') rest on (r, c) when r' in {r-1, r} and c' in {c-1, c}
            covers[i] = [idx(layer + 1, r - 1, c - 1), idx(layer + 1, r - 1, c), idx(layer + 1, r, c - 1),
                         idx(layer + 1, r, c)]
        if layer > 0:
            supports[i] = [idx(layer - 1, r, c), idx(layer - 1, r + 1, c), idx(layer - 1, r, c + 1),
                           idx(layer - 1, r + 1, c + 1)]
    coords_arr = np.array(coords, dtype=np.int64)
    for a in (coords_arr, sides, covers, supports):
        a.setflags(write=False)
    return QuarryGeometry(shapes, n, coords_arr, sides, covers, supports, offsets)


def quarry_geometry(players: int = 2) -> QuarryGeometry:
    """The quarry geometry for ``players`` (2: the 2-player side, 47 dice; 3-4: the 3/4-player side, 92 dice).

    Parameters
    ----------
    players : int
        2..4.

    Returns
    -------
    QuarryGeometry
        Read-only index arrays: ``shapes`` (rows, cols) of the layers, ``n`` positions, ``coords``, ``sides``,
        ``covers`` and ``supports`` of every position (cached: the same object per quarry side).

    Raises
    ------
    ValueError
        If ``players`` is not in 2..4.
    TypeError
        If ``players`` is not an integer.

    Examples
    --------
    >>> g = quarry_geometry(2)
    >>> g.n, g.shapes, g.coords.shape
    (47, ((4, 6), (3, 5), (2, 4)), (47, 3))
    """
    players = check_players(players)
    return _geometry("2p" if players == 2 else "3-4p")


@dataclass(frozen=True, eq=False)
class PyramidGeometry:
    """Index arrays of the 21-space pyramid.

    Attributes
    ----------
    n : 21
    level_of : (21,) level (1..6) of each space
    index_in_level : (21,) position 0.. within the level, left to right
    level_start : (7,) first space of each level (``level_start[6] == 20``, entry 0 unused)
    level_size : (7,) spaces per level (entry 0 unused)
    supports : (21, 2) the two spaces below (``-1`` on level 1)
    adjacency : (21, 6) neighbouring spaces (same level left/right, the two below, the two above), ``-1`` padded
    adjacent : (21, 21) bool matrix of the same relation
    """

    n: int
    level_of: np.ndarray
    index_in_level: np.ndarray
    level_start: np.ndarray
    level_size: np.ndarray
    supports: np.ndarray
    adjacency: np.ndarray
    adjacent: np.ndarray

    def space(self, level: int, index: int) -> int:
        """Flat space number of ``(level, index)``."""
        if not 1 <= level <= 6:
            raise ValueError(f"level must be in 1..6, got {level}")
        if not 0 <= index < 7 - level:
            raise ValueError(f"index must be in 0..{6 - level} on level {level}, got {index}")
        return int(self.level_start[level]) + index

    def spaces_of(self, level: int) -> range:
        s = int(self.level_start[level])
        return range(s, s + 7 - level)

    def label(self, space: int) -> str:
        return f"L{int(self.level_of[space])}.{int(self.index_in_level[space]) + 1}"


def _pyramid() -> PyramidGeometry:
    level_of, index_in, start = [], [], [0] * 7
    for k in range(1, 7):
        start[k] = len(level_of)
        for i in range(7 - k):
            level_of.append(k)
            index_in.append(i)
    n = len(level_of)

    def sp(k, i):
        return start[k] + i if 1 <= k <= 6 and 0 <= i < 7 - k else -1

    supports = np.full((n, 2), -1, dtype=np.int64)
    adjacency = np.full((n, 6), -1, dtype=np.int64)
    for s in range(n):
        k, i = level_of[s], index_in[s]
        if k >= 2:
            supports[s] = [sp(k - 1, i), sp(k - 1, i + 1)]
        nb = [sp(k, i - 1), sp(k, i + 1), sp(k - 1, i), sp(k - 1, i + 1), sp(k + 1, i - 1), sp(k + 1, i)]
        nb = [x for x in nb if x >= 0]
        adjacency[s, :len(nb)] = nb
    adjacent = np.zeros((n, n), dtype=bool)
    for s in range(n):
        for t in adjacency[s]:
            if t >= 0:
                adjacent[s, t] = True
    arrays = [np.array(level_of, dtype=np.int64), np.array(index_in, dtype=np.int64), np.array(start, dtype=np.int64),
              np.array([0] + [7 - k for k in range(1, 7)], dtype=np.int64), supports, adjacency, adjacent]
    for a in arrays:
        a.setflags(write=False)
    return PyramidGeometry(n, *arrays)


#: The pyramid (the same for every player).
PYRAMID = _pyramid()
