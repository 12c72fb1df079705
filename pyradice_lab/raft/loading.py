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
from numba import njit

from .components import Lifeboat, default_components

__all__ = ["load", "Loading", "load_kernel", "MAX_BOATS"]

MAX_BOATS = 12


@njit(cache=True)
def load_kernel(gems, empty, points, held, fill):  # pragma: no cover - compiled
    """Best placement of ``gems`` (C,) on boats with ``empty`` (m, C-1) slots and ``points`` (m,).

    Writes the gems placed per boat per gem colour into ``held`` (m, C) and the slots filled per boat
    per slot colour into ``fill`` (m, C-1) (both zeroed by the caller)."""
    m = empty.shape[0]
    k = empty.shape[1]
    wild = k
    best_pts = -1
    best_filled = -1
    best_left = 1 << 30
    th = np.zeros((m, k + 1), dtype=np.int64)
    tf = np.zeros((m, k), dtype=np.int64)
    rem = np.zeros(k + 1, dtype=np.int64)
    order = np.zeros(m, dtype=np.int64)
    key = np.zeros(m, dtype=np.int64)
    for mask in range(1 << m):
        deficit = 0
        for c in range(k):
            need = 0
            for i in range(m):
                if (mask >> i) & 1:
                    need += empty[i, c]
            if need > gems[c]:
                deficit += need - gems[c]
        if deficit > gems[wild]:
            continue
        th[:, :] = 0
        tf[:, :] = 0
        for c in range(k + 1):
            rem[c] = gems[c]
        # complete the chosen boats: ordinary gems first, blacks for the shortfall
        for i in range(m):
            if (mask >> i) & 1:
                for c in range(k):
                    a = min(empty[i, c], rem[c])
                    th[i, c] += a
                    rem[c] -= a
                    b = empty[i, c] - a
                    th[i, wild] += b
                    rem[wild] -= b
                    tf[i, c] = empty[i, c]
        # the other boats, closest to complete first (ties: lower index)
        n = 0
        for i in range(m):
            if not (mask >> i) & 1:
                order[n] = i
                s = 0
                for c in range(k):
                    s += empty[i, c]
                key[n] = s
                n += 1
        for a in range(1, n):  # insertion sort, stable
            x, kx = order[a], key[a]
            b = a - 1
            while b >= 0 and key[b] > kx:
                order[b + 1] = order[b]
                key[b + 1] = key[b]
                b -= 1
            order[b + 1] = x
            key[b + 1] = kx
        for t in range(n):
            i = order[t]
            for c in range(k):
                a = min(empty[i, c], rem[c])
                th[i, c] += a
                tf[i, c] += a
                rem[c] -= a
        # blacks: again closest to complete first (after the ordinary gems)
        for t in range(n):
            key[t] = 0
            for c in range(k):
                key[t] += empty[order[t], c] - tf[order[t], c]
        for a in range(1, n):
            x, kx = order[a], key[a]
            b = a - 1
            while b >= 0 and key[b] > kx:
                order[b + 1] = order[b]
                key[b + 1] = key[b]
                b -= 1
            order[b + 1] = x
            key[b + 1] = kx
        for t in range(n):
            i = order[t]
            while rem[wild] > 0:
                best_c = -1
                most = 0
                for c in range(k):
                    r = empty[i, c] - tf[i, c]
                    if r > most:
                        most = r
                        best_c = c
                if best_c < 0:
                    break
                tf[i, best_c] += 1
                th[i, wild] += 1
                rem[wild] -= 1
        pts = 0
        filled = 0
        for i in range(m):
            full = True
            for c in range(k):
                filled += tf[i, c]
                if tf[i, c] < empty[i, c]:
                    full = False
            if full:
                pts += points[i]
        left = 0
        for c in range(k):
            left += rem[c]
        if pts > best_pts or (pts == best_pts and (filled > best_filled or
                                                   (filled == best_filled and left < best_left))):
            best_pts = pts
            best_filled = filled
            best_left = left
            held[:, :] = th
            fill[:, :] = tf


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


def _colour_vector(value, colours, name) -> np.ndarray:
    if isinstance(value, Mapping):
        unknown = set(value) - set(colours)
        if unknown:
            raise ValueError(f"{name} has unknown colours {sorted(unknown)}; colours are {list(colours)}")
        vec = [value.get(c, 0) for c in colours]
    elif isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, str):
        vec = list(np.asarray(value).ravel())
        if len(vec) != len(colours):
            raise ValueError(f"{name} must give {len(colours)} counts {list(colours)}, got {len(vec)}")
    else:
        raise ValueError(f"{name} must be a dict colour -> count or a sequence of counts, got {value!r}")
    for c, v in zip(colours, vec):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
            raise ValueError(f"{name}[{c!r}] must be a non-negative integer, got {v!r}")
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
    held = np.zeros((m, len(colours)), dtype=np.int64)
    fill = np.zeros((m, len(colours) - 1), dtype=np.int64)
    if m:
        load_kernel(g, empty, pts, held, fill)
    done = tuple(i for i in range(m) if (fill[i] == empty[i]).all())
    return Loading(held, fill, g - held.sum(axis=0), done, int(pts[list(done)].sum()), int(fill.sum()), colours)
