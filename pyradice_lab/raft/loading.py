"""Optimal loading of gems onto lifeboats (colours must match; the wild black fills any slot).

:func:`load` maximises, in this order: the points of the lifeboats completed, the number of slots
filled, and the number of ordinary-colour gems placed (an unplaced ordinary gem is a gift to the next
player, an unplaced black just goes back to the raft).  The algorithm enumerates which set ``S`` of
lifeboats to complete (feasible when the colour shortfalls of ``S`` can be covered by the black gems),
completes ``S`` with ordinary gems first and blacks for the shortfall, then fills the other lifeboats as
far as possible: ordinary gems on matching slots, then blacks.  Exchange argument: using an ordinary
gem instead of a black never hurts (the black fits wherever the ordinary gem would), so for each ``S``
this is the best placement, and the best over all ``S`` is optimal; the tests check it against
brute-force enumeration of every assignment of gems to slots.

Deterministic tie-breaks (they shape later turns, so they are part of the rules model): among equal
placements the lower subset mask wins; partial lifeboats receive gems closest-to-complete first; a black
on a partial lifeboat fills the slot colour with the most empty slots (first colour on ties), keeping
the remaining needs spread.

Examples
--------
>>> from pyradice_lab.raft.loading import load
>>> res = load({"red": 2, "black": 1}, [{"slots": {"red": 2, "blue": 1}, "points": 3},
...                                      {"slots": {"yellow": 2}, "points": 2}])
>>> res.completed, res.points, res.leftover.tolist()
((0,), 3, [0, 0, 0, 0])
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .components import Lifeboat, default_components

__all__ = ["load", "Loading", "load_scalar", "load_batch", "MAX_BOATS"]

MAX_BOATS = 10


def _ordered(boats: list[int], key) -> list[int]:
    """Boats sorted by ``key`` ascending, ties by index (stable)."""
    return sorted(boats, key=lambda i: (key(i), i))


def load_scalar(gems, empty, points) -> tuple[list[list[int]], list[list[int]]]:
    """The readable algorithm on plain lists: ``gems`` (C counts, wild last), ``empty`` (per boat, K empty
    slots per ordinary colour), ``points``.  Returns ``(held, fill)``: per boat the gems placed per gem
    colour and the slots filled per slot colour."""
    m, k = len(empty), len(gems) - 1
    wild = k
    best, best_key = ([[0] * (k + 1) for _ in range(m)], [[0] * k for _ in range(m)]), None
    for mask in range(1 << m):
        chosen = [i for i in range(m) if mask >> i & 1]
        need = [sum(empty[i][c] for i in chosen) for c in range(k)]
        if sum(max(0, need[c] - gems[c]) for c in range(k)) > gems[wild]:
            continue  # the black gems cannot cover the shortfall
        held = [[0] * (k + 1) for _ in range(m)]
        fill = [[0] * k for _ in range(m)]
        rem = list(gems)
        for i in chosen:  # complete: ordinary gems first, blacks for the rest
            for c in range(k):
                a = min(empty[i][c], rem[c])
                held[i][c] += a
                rem[c] -= a
                held[i][wild] += empty[i][c] - a
                rem[wild] -= empty[i][c] - a
                fill[i][c] = empty[i][c]
        others = [i for i in range(m) if not mask >> i & 1]
        for i in _ordered(others, lambda i: sum(empty[i])):  # closest to complete first
            for c in range(k):
                a = min(empty[i][c] - fill[i][c], rem[c])
                held[i][c] += a
                fill[i][c] += a
                rem[c] -= a
        room_left = {i: sum(empty[i]) - sum(fill[i]) for i in others}
        for i in _ordered(others, room_left.__getitem__):
            while rem[wild] > 0:
                room = [empty[i][c] - fill[i][c] for c in range(k)]
                if max(room) <= 0:
                    break
                c = room.index(max(room))  # the colour with most empty slots, first on ties
                fill[i][c] += 1
                held[i][wild] += 1
                rem[wild] -= 1
        pts = sum(points[i] for i in range(m) if fill[i] == list(empty[i]))
        key = (pts, sum(map(sum, fill)), -sum(rem[:k]))
        if best_key is None or key > best_key:
            best, best_key = (held, fill), key
    return best


def load_batch(gems: np.ndarray, empty: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`load_scalar` vectorised over ``n`` games: ``gems`` (n, C), ``empty`` (n, m, K) (unused
    boats all zero), ``points`` (n, m).  Returns ``held`` (n, m, C) and ``fill`` (n, m, K)."""
    n, m, k = empty.shape
    wild = k
    rows = np.arange(n)
    size = empty.sum(axis=2)
    best_held = np.zeros((n, m, k + 1), dtype=np.int64)
    best_fill = np.zeros((n, m, k), dtype=np.int64)
    best_key = np.full((n, 3), -(1 << 40), dtype=np.int64)
    for mask in range(1 << m):
        inside = np.array([mask >> i & 1 for i in range(m)], dtype=bool)
        need = empty[:, inside, :].sum(axis=1)
        ok = np.maximum(need - gems[:, :k], 0).sum(axis=1) <= gems[:, wild]
        if not ok.any():
            continue
        held = np.zeros((n, m, k + 1), dtype=np.int64)
        fill = np.zeros((n, m, k), dtype=np.int64)
        rem = gems.copy()
        for i in np.flatnonzero(inside):
            a = np.minimum(empty[:, i, :], rem[:, :k])
            held[:, i, :k] = a
            rem[:, :k] -= a
            held[:, i, wild] = (empty[:, i, :] - a).sum(axis=1)
            rem[:, wild] -= held[:, i, wild]
            fill[:, i, :] = empty[:, i, :]
        others = np.flatnonzero(~inside)
        if len(others):
            order = others[np.argsort(size[:, others], axis=1, kind="stable")]
            for t in range(len(others)):
                i = order[:, t]
                a = np.minimum(empty[rows, i, :] - fill[rows, i, :], rem[:, :k])
                held[rows, i, :k] += a
                fill[rows, i, :] += a
                rem[:, :k] -= a
            room_total = size[:, others] - fill[:, others, :].sum(axis=2)
            order = others[np.argsort(room_total, axis=1, kind="stable")]
            for t in range(len(others)):
                i = order[:, t]
                while True:
                    room = empty[rows, i, :] - fill[rows, i, :]
                    go = (rem[:, wild] > 0) & (room.max(axis=1) > 0)
                    if not go.any():
                        break
                    c = np.argmax(room, axis=1)
                    g = np.flatnonzero(go)
                    fill[g, i[g], c[g]] += 1
                    held[g, i[g], wild] += 1
                    rem[g, wild] -= 1
        full = (fill == empty).all(axis=2)
        key = np.stack([(points * full).sum(axis=1), fill.sum(axis=(1, 2)), -rem[:, :k].sum(axis=1)], axis=1)
        better = ok & ((key[:, 0] > best_key[:, 0]) | ((key[:, 0] == best_key[:, 0]) & (
            (key[:, 1] > best_key[:, 1]) | ((key[:, 1] == best_key[:, 1]) & (key[:, 2] > best_key[:, 2])))))
        best_key[better] = key[better]
        best_held[better] = held[better]
        best_fill[better] = fill[better]
    return best_held, best_fill


@dataclass(frozen=True)
class Loading:
    """Result of :func:`load`.

    ``held[i, g]`` gems of colour ``g`` placed on lifeboat ``i``; ``fill[i, c]`` its slots of colour ``c``
    filled (by ordinary or black gems); ``leftover[g]`` gems not placed; ``completed`` the indices of the
    lifeboats now full; ``points`` their points; ``filled`` the slots filled in all.
    """

    held: np.ndarray
    fill: np.ndarray
    leftover: np.ndarray
    completed: tuple[int, ...]
    points: int
    filled: int
    colours: tuple[str, ...]

    def to_frame(self) -> pd.DataFrame:
        """One row per lifeboat: gems placed per colour and whether it is complete."""
        df = pd.DataFrame(self.held, columns=list(self.colours))
        df.insert(0, "lifeboat", range(len(df)))
        df["complete"] = [i in self.completed for i in range(len(df))]
        return df


#: Largest gem count of one colour :func:`load` accepts (a real game has a few dozen gems in all).
MAX_GEMS_PER_COLOUR = 10**6


def _colour_vector(value, colours, name) -> np.ndarray:
    if isinstance(value, Mapping):
        unknown = set(value) - set(colours)
        if unknown:
            raise ValueError(f"{name} has unknown colours {sorted(unknown)}; colours are {list(colours)}")
        vec = [value.get(c, 0) for c in colours]
    elif isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, str):
        try:
            vec = list(np.asarray(value).ravel())
        except (ValueError, TypeError):
            raise ValueError(f"{name} must be a flat sequence of {len(colours)} counts, got {value!r}") from None
        if len(vec) != len(colours):
            raise ValueError(f"{name} must give {len(colours)} counts {list(colours)}, got {len(vec)}")
    else:
        raise ValueError(f"{name} must be a dict colour -> count or a sequence of counts, got {value!r}")
    for c, v in zip(colours, vec):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 0 <= v <= MAX_GEMS_PER_COLOUR:
            raise ValueError(f"{name}[{c!r}] must be an integer in 0..{MAX_GEMS_PER_COLOUR}, got {v!r}")
    return np.array(vec, dtype=np.int64)


def _boat_arrays(lifeboats, slot_colours) -> tuple[np.ndarray, np.ndarray]:
    if isinstance(lifeboats, (Lifeboat, Mapping)) or not isinstance(lifeboats, Sequence):
        raise ValueError("lifeboats must be a list of Lifeboat cards or dicts with 'slots' and 'points'")
    if len(lifeboats) > MAX_BOATS:
        raise ValueError(f"lifeboats must hold at most {MAX_BOATS} cards, got {len(lifeboats)}")
    empty, pts = [], []
    for i, b in enumerate(lifeboats):
        if isinstance(b, Lifeboat):
            slots, points, filled = np.array(b.slots, dtype=np.int64), b.points, np.zeros(len(slot_colours), np.int64)
        elif isinstance(b, Mapping):
            slots = _colour_vector(b.get("slots", {}), slot_colours, f"lifeboats[{i}].slots")
            points = b.get("points")
            filled = _colour_vector(b.get("filled", {}), slot_colours, f"lifeboats[{i}].filled")
        else:
            raise ValueError(f"lifeboats[{i}] must be a Lifeboat or a dict, got {type(b).__name__}")
        if isinstance(points, bool) or not isinstance(points, numbers.Integral) or points < 1:
            raise ValueError(f"lifeboats[{i}].points must be a positive integer, got {points!r}")
        if (filled > slots).any():
            raise ValueError(f"lifeboats[{i}].filled exceeds its slots")
        if (slots - filled).sum() == 0:
            raise ValueError(f"lifeboats[{i}] is already complete (no empty slot)")
        empty.append(slots - filled)
        pts.append(int(points))
    return (np.array(empty, dtype=np.int64).reshape(len(empty), len(slot_colours)), np.array(pts, dtype=np.int64))


def load(gems, lifeboats) -> Loading:
    """Optimal placement of fallen ``gems`` onto a player's ``lifeboats``.

    Parameters
    ----------
    gems : dict colour -> count, or sequence of counts (red, yellow, blue, black)
    lifeboats : list of :class:`~pyradice_lab.raft.components.Lifeboat` (all slots empty) or of dicts
        ``{"slots": {colour: n}, "points": p, "filled": {colour: n}}`` (``filled`` optional: slots
        already holding a gem).

    Returns
    -------
    Loading
        Maximises completed points, then slots filled, then ordinary gems placed.

    Examples
    --------
    >>> deck = default_components().deck
    >>> res = load([1, 0, 1, 1], [deck[0], deck[4]])   # RR and BB lifeboats
    >>> res.held.tolist(), res.leftover.tolist()
    ([[1, 0, 0, 1], [0, 0, 1, 0]], [0, 0, 0, 0])
    """
    comp = default_components()
    colours = comp.gems.colours
    g = _colour_vector(gems, colours, "gems")
    empty, pts = _boat_arrays(lifeboats, comp.gems.slot_colours)
    m = len(pts)
    h, f = load_scalar(g.tolist(), empty.tolist(), pts.tolist())
    held = np.array(h, dtype=np.int64).reshape(m, len(colours))
    fill = np.array(f, dtype=np.int64).reshape(m, len(colours) - 1)
    done = tuple(i for i in range(m) if (fill[i] == empty[i]).all())
    return Loading(held, fill, g - held.sum(axis=0), done, int(pts[list(done)].sum()), int(fill.sum()), colours)
