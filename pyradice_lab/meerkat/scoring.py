"""Majority scoring: the vectorised tile kernel :func:`score_tile` and whole-board :func:`score_game`.

Ties cancel completely: players with equal strength on a tile are treated as absent and the next one down
takes the place.  A queen counts 2.5 (strength is kept in half units, so everything stays integer).

Examples
--------
>>> from pyradice_lab.meerkat.scoring import score_tile
>>> score_tile([3, 3, 2, 1], values=(6, 3)).tolist()    # rules Example 1 on tile 6
[0, 0, 6, 3]
>>> score_tile([1, 2, 1], queens=[True, False, False], values=(6, 3)).tolist()
[6, 3, 0]
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ..engine._jit import njit
from .components import TILES, Components, coerce_components

__all__ = ["score_tile", "score_game"]


@njit(cache=True)
def _score_rows(counts, queens, has_q, vals, reverse, literal, bonus, out):
    """Tile scoring of each row: O(players^2) per row, strength in half units (queen = 5).  ``literal`` (with
    ``reverse``): the second fewest takes the lowest value and nobody after it scores."""
    n_rows, n = counts.shape
    nv = vals.shape[0]
    st = np.empty(n, np.int64)
    alive = np.empty(n, np.bool_)
    for r in range(n_rows):
        for i in range(n):
            st[i] = 2 * counts[r, i] + (5 if has_q and queens[r, i] else 0)
        for i in range(n):
            ok = st[i] > 0
            if ok:
                for j in range(n):
                    if j != i and st[j] == st[i]:
                        ok = False
                        break
            alive[i] = ok
        for i in range(n):
            out[r, i] = 0
            if alive[i]:
                rank = 0
                for j in range(n):
                    if alive[j] and ((st[j] > st[i]) != reverse) and st[j] != st[i]:
                        rank += 1
                if reverse and literal and rank >= 1:
                    rank = nv - 1 if rank == 1 and nv >= 2 else nv
                if rank < nv:
                    out[r, i] = vals[rank] + bonus
    return n_rows


#: Largest count a tile kernel accepts: strength is 2 * count + 5 in int64, far beyond any real tile.
MAX_COUNT = 10**9
#: Largest |value| or |bonus| (points stay exact in int64 and float64).
MAX_POINTS = 10**9


def _check_counts(counts, name: str = "counts", high: int = MAX_COUNT) -> np.ndarray:
    try:
        arr = np.asarray(counts)
    except (ValueError, TypeError):
        raise ValueError(f"{name} must be a rectangular array of whole numbers (..., players), got {counts!r}"
                         ) from None
    if arr.ndim < 1 or arr.shape[-1] < 1:
        raise ValueError(f"{name} must be an array (..., players) with at least one player, got shape {arr.shape}")
    if arr.size and not (np.issubdtype(arr.dtype, np.integer) or arr.dtype == bool):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise ValueError(f"{name} must hold whole numbers of meerkats, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    if arr.size and arr.min() < 0:
        raise ValueError(f"{name} must be non-negative meerkat counts, got a minimum of {arr.min()}")
    if arr.size and arr.max() > high:
        raise ValueError(f"{name} must be at most {high}, got a maximum of {arr.max()}")
    return arr


def _check_values(values) -> tuple:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__") or not 1 <= len(values) <= 4:
        raise ValueError(f"values must be (high, low) or (high, mid, low), got {values!r}")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not np.isfinite(v) or not 0 <= v <= MAX_POINTS:
            raise ValueError(f"values must be finite numbers in 0..{MAX_POINTS}, got {values!r}")
        out.append(v)
    if any(a < b for a, b in zip(out, out[1:])):
        raise ValueError(f"values must be in decreasing order (high, ..., low), got {values!r}")
    return tuple(out)


REVERSE_READINGS = ("literal", "extended")


def _check_reading(reverse_reading) -> bool:
    if not isinstance(reverse_reading, str) or reverse_reading not in REVERSE_READINGS:
        raise ValueError(f"reverse_reading must be one of {REVERSE_READINGS} (the first is the rules text), "
                         f"got {reverse_reading!r}")
    return reverse_reading == "literal"


def score_tile(counts, queens=None, values=(6, 3), reverse: bool = False, bonus=0, *,
               reverse_reading: str = "literal") -> np.ndarray:
    """Points of every player on one tile, vectorised over any leading axes.

    Parameters
    ----------
    counts : array_like of int, shape (..., players)
        Regular meerkats of each player on the tile (non-negative).
    queens : array_like of bool, same shape, optional
        Whether each player's queen is on the tile (she adds 2.5).
    values : tuple
        (high, low) or (high, mid, low): the k-th strongest non-cancelled player takes ``values[k]``.
    reverse : bool
        Reverse scoring token: the fewest (non-zero) takes the highest value (ties still cancel).
    bonus : number
        Added to every awarded value (the tan +3 token).
    reverse_reading : {"literal", "extended"}
        Who else scores under ``reverse``.  ``"literal"`` (default, the rules text: "the second fewest takes the
        lowest value"): the second fewest takes the last value and nobody else scores; ``"extended"``: the k-th
        fewest takes ``values[k]`` (the middle value on three-value tiles).  Both agree on two-value tiles.

    Returns
    -------
    ndarray with the shape of ``counts`` (int64 for integer values and bonus, else float64).

    Raises
    ------
    ValueError
        If ``queens`` is not booleans of the shape of ``counts``, ``bonus`` is not a finite number in range,
        or ``reverse`` is not a bool.

    Examples
    --------
    >>> score_tile([[2, 2, 1], [1, 2, 0]], values=(6, 3)).tolist()
    [[0, 0, 6], [3, 6, 0]]
    >>> score_tile([1, 4, 2], values=(6, 3), reverse=True).tolist()
    [6, 0, 3]
    >>> score_tile([1, 2, 3], values=(7, 4, 2), reverse=True).tolist()     # literal: fewest high, next lowest
    [7, 2, 0]
    >>> score_tile([1, 2, 3], values=(7, 4, 2), reverse=True, reverse_reading="extended").tolist()
    [7, 4, 2]
    >>> score_tile([2, 0], queens=[False, True], values=(6, 3)).tolist()  # the queen alone (2.5) beats 2
    [3, 6]
    """
    c = _check_counts(counts)
    vals = _check_values(values)
    literal = _check_reading(reverse_reading)
    if not isinstance(reverse, (bool, np.bool_)):
        raise ValueError(f"reverse must be True or False, got {reverse!r}")
    if isinstance(bonus, bool) or not isinstance(bonus, numbers.Real) or not np.isfinite(bonus) \
            or abs(bonus) > MAX_POINTS:
        raise ValueError(f"bonus must be a finite number in -{MAX_POINTS}..{MAX_POINTS}, got {bonus!r}")
    if queens is None:
        q = None
    else:
        try:
            q = np.asarray(queens)
        except (ValueError, TypeError):
            raise ValueError(f"queens must be booleans with the shape of counts {c.shape}, got {queens!r:.80}"
                             ) from None
        if q.shape != c.shape:
            raise ValueError(f"queens must have the shape of counts {c.shape}, got {q.shape}")
        if q.size and not (q.dtype == bool or np.isin(q, (0, 1)).all()):
            raise ValueError("queens must be booleans (queen on the tile or not)")
        q = q.astype(bool)
    integral = all(float(v).is_integer() for v in vals) and float(bonus).is_integer()
    dtype = np.int64 if integral else np.float64
    flat = np.ascontiguousarray(c.reshape(-1, c.shape[-1]))
    out = np.empty(flat.shape, dtype=dtype)
    if flat.shape[0]:
        qf = np.ascontiguousarray(q.reshape(flat.shape)) if queens is not None else np.zeros((1, 1), dtype=bool)
        _score_rows(flat, qf, queens is not None, np.asarray(vals, dtype=dtype), bool(reverse), literal,
                    dtype(bonus), out)
    return out.reshape(c.shape)


def _board_adjacency(comp: Components, adjacency) -> np.ndarray:
    if adjacency is None:  # tile t on layout position t - 3
        return comp.position_adjacency()
    try:
        raw = np.asarray(adjacency)
    except (ValueError, TypeError):  # ragged rows
        raise ValueError("adjacency must be a symmetric (10, 10) boolean matrix over tiles 3..12 (0/1 or "
                         "True/False), got rows of different lengths") from None
    if raw.shape != (10, 10):
        raise ValueError(f"adjacency must be a symmetric (10, 10) boolean matrix over tiles 3..12, got shape "
                         f"{raw.shape}")
    if raw.dtype != bool:  # NaN, 0.5, strings: not a 0/1 matrix
        bad = raw.ravel()[:1].tolist() if raw.dtype.kind not in "iuf" else raw[~np.isin(raw, (0, 1))].ravel()[:1].tolist()
        if bad:
            raise ValueError("adjacency must be a symmetric (10, 10) boolean matrix over tiles 3..12 (0/1 or "
                             f"True/False), got values such as {bad}")
    adj = raw.astype(bool)
    if not np.array_equal(adj, adj.T):
        raise ValueError("adjacency must be a symmetric (10, 10) boolean matrix over tiles 3..12 (tile a next to "
                         "b means b next to a)")
    if np.diag(adj).any():
        raise ValueError("adjacency must not make a tile adjacent to itself (the diagonal must be False)")
    return adj


def _per_player(x, n: int, name: str, default=0, high: int = MAX_COUNT) -> np.ndarray:
    if x is None:
        x = default
    try:
        arr = np.broadcast_to(np.asarray(x), (n,)) if np.ndim(x) == 0 else np.asarray(x)
    except (ValueError, TypeError):
        raise ValueError(f"{name} must be a number or one value per player ({n}), got {x!r}") from None
    if arr.shape != (n,):
        raise ValueError(f"{name} must be a number or one value per player ({n}), got shape {arr.shape}")
    return _check_counts(arr, name, high)


def _check_out_order(order: np.ndarray) -> np.ndarray:
    ranks = sorted(int(v) for v in order if v > 0)
    if ranks != list(range(1, len(ranks) + 1)):
        raise ValueError(f"out_order must number the players who ran out 1, 2, ... in order (0: never), "
                         f"got {order.tolist()}")
    return order


def score_game(counts, queens=None, *, guardians=None, pups=None, bonus=None, out_order=None,
               tokens=None, adjacency=None, guardian_policy: str = "best",
               components: Components | None = None, reverse_reading: str = "literal") -> pd.DataFrame:
    """End-of-game scoring of a whole board, tiles 3..12 in order.

    After each tile, the player who took its high value may move one guardian from the reserve onto an
    adjacent tile not yet scored (two with the tan two-guardians token); ``guardian_policy="best"`` moves it
    where it gains the most own points net of the pups x guardians it costs (and only if that gain is
    positive), ``"none"`` never moves.  Then pups x guardians left in the reserve, then bonus tokens.

    Parameters
    ----------
    counts : array_like of int, shape (players, 10)
        Regular meerkats per player on tiles 3..12 (column j = tile j + 3).
    queens : array_like of bool, shape (players, 10), optional
        Where each player's queen stands.
    guardians, pups, bonus : int or array (players,), optional
        Guardians in the reserve, pups (max 4 each by the rules) and bonus-token points.
    out_order : array (players,), optional
        1 = ran out of meerkats first, 2 = second ...; 0 = never (the tie-break).
    tokens : dict tile -> "plus3" | "reverse" | "two_guardians", optional
        Tan oasis tokens that change scoring.
    adjacency : (10, 10) bool, optional
        Tile adjacency (default: tile t on layout position t - 3 of the components' layout).
    reverse_reading : {"literal", "extended"}
        How a reverse scoring token pays (see :func:`score_tile`).

    Returns
    -------
    DataFrame
        One row per player: ``tile_points``, ``guardians_moved``, ``pup_points``, ``bonus``, ``total``,
        ``won`` (tiles whose high value the player took), ``winner`` (bool; all False if shared).

    Raises
    ------
    ValueError
        If ``counts`` is not of shape (players, 10), ``queens`` does not have its shape or places more than one
        queen per player, a token is not a tan token kind on an integer tile 3..12, ``adjacency`` is not a
        symmetric (10, 10) 0/1 matrix with a False diagonal, or ``guardian_policy`` is not ``"best"`` or ``"none"``.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.zeros((2, 10), int); counts[0, 4] = 2; counts[1, 4] = 1   # tile 7: 2 vs 1
    >>> score_game(counts, guardians=[0, 0])["tile_points"].tolist()
    [6, 3]
    """
    comp = coerce_components(components)
    c = _check_counts(counts).copy()
    if c.ndim != 2 or c.shape[1] != 10:
        raise ValueError(f"counts must have shape (players, 10) for tiles 3..12, got {c.shape}")
    n = c.shape[0]
    if queens is None:
        q = np.zeros_like(c, dtype=bool)
    else:
        q = _check_counts(queens, "queens", 1)
        if q.shape != c.shape:
            raise ValueError(f"queens must have the shape of counts {c.shape}, got {q.shape}")
        q = q.astype(bool)
        if (q.sum(axis=1) > 1).any():
            raise ValueError(f"queens must place at most one queen per player (a row holds one True), got "
                             f"{q.sum(axis=1).tolist()} per player")
    res = _per_player(guardians, n, "guardians", high=comp.max_guardians).copy()
    pup = _per_player(pups, n, "pups", high=comp.max_pups)
    bon = _per_player(bonus, n, "bonus")
    order = _check_out_order(_per_player(out_order, n, "out_order", high=n))
    tokens = dict(tokens or {})
    for t, kind in tokens.items():
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t not in TILES or kind not in ("plus3", "reverse", "two_guardians", "move", "swap"):
            raise ValueError(f"tokens must map tiles 3..12 to a tan token kind, got {t!r}: {kind!r}")
    if not isinstance(guardian_policy, str) or guardian_policy not in ("best", "none"):
        raise ValueError(f"guardian_policy must be 'best' or 'none', got {guardian_policy!r}")
    _check_reading(reverse_reading)
    adj = _board_adjacency(comp, adjacency)
    tile_pts = np.zeros(n, dtype=np.int64)
    moved = np.zeros(n, dtype=np.int64)
    won: list[list[int]] = [[] for _ in range(n)]

    def points(j):
        t = j + 3
        kind = tokens.get(t)
        return score_tile(c[:, j], q[:, j], comp.tile(t).values, reverse=kind == "reverse",
                          bonus=3 if kind == "plus3" else 0, reverse_reading=reverse_reading)

    for j in range(10):
        t = j + 3
        pts = points(j)
        tile_pts += pts
        strength = 2 * c[:, j] + 5 * q[:, j]
        alive = [i for i in range(n) if strength[i] > 0 and (strength == strength[i]).sum() == 1]
        if not alive:
            continue
        rev = tokens.get(t) == "reverse"
        w = min(alive, key=lambda i: strength[i]) if rev else max(alive, key=lambda i: strength[i])
        won[w].append(t)
        for _ in range(2 if tokens.get(t) == "two_guardians" else 1):
            if guardian_policy == "none" or res[w] == 0:
                break
            best_gain, best_u = 0, None
            for u in range(j + 1, 10):
                if adj[j, u]:
                    before = points(u)[w]
                    c[w, u] += 1
                    gain = points(u)[w] - before - pup[w]
                    c[w, u] -= 1
                    if gain > best_gain:
                        best_gain, best_u = gain, u
            if best_u is None:
                break
            c[w, best_u] += 1
            res[w] -= 1
            moved[w] += 1
    pup_pts = pup * res
    total = tile_pts + pup_pts + bon
    key = [(int(total[i]), -(order[i] if order[i] > 0 else 10 ** 6)) for i in range(n)]
    best = max(key)
    winners = [i for i in range(n) if key[i] == best]
    return pd.DataFrame({
        "player": np.arange(n), "tile_points": tile_pts, "guardians_moved": moved, "guardians_left": res,
        "pup_points": pup_pts, "bonus": bon, "total": total, "won": [",".join(map(str, w)) for w in won],
        "winner": [len(winners) == 1 and i == winners[0] for i in range(n)]})
