"""Exact dice odds of Meerkat Kingdom: placement chances with the optional reroll, the automa's placements.

Everything is enumerated with integers (216 ordered rolls x 8 keep-sets x every reroll outcome) and
returned as :class:`fractions.Fraction` by the ``*_exact`` functions; floats only at the edge.  The dice
rules come from :func:`.rules.roll_allows` and :func:`.rules.automa_split`, the very functions the game
engine uses.

Examples
--------
>>> from pyradice_lab.meerkat.odds import placement_odds_exact
>>> placement_odds_exact(7, 1, reroll=False)
Fraction(103, 216)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pandas as pd

from .components import TILES

__all__ = ["placement_odds", "placement_odds_exact", "placement_table", "automa_placement_table",
           "success_table", "COUNTS"]

COUNTS = (1, 2, 3, "queen")


def _need(count) -> int:
    if isinstance(count, str):
        if count == "queen":
            return 4
    elif not isinstance(count, bool) and isinstance(count, (int, np.integer)) and 1 <= count <= 3:
        return int(count)
    raise ValueError(f"count must be 1, 2, 3 or 'queen', got {count!r}")


def _tile(tile) -> int:
    if isinstance(tile, bool) or not isinstance(tile, (int, np.integer)) or not 3 <= tile <= 12:
        raise ValueError(f"tile must be an integer desert tile in 3..12, got {tile!r}")
    return int(tile)


def _k(components=None) -> np.ndarray:
    """The constants row of the components' count die and queen faces (packaged components by default)."""
    from .components import coerce_components, default_components
    from .sim import Setup, _default_setup

    comp = coerce_components(components)
    return _default_setup().K if comp is default_components() else Setup(comp).K


def success_table(tile: int, need: int, components=None) -> np.ndarray:
    """Boolean (6, 6, 6): ordered roll (a, b, c) (index = face - 1) allows placing ``need`` on ``tile``.

    ``components`` (a path or loaded components; default packaged) gives the count die and the queen faces.
    """
    return _success(tile, need, _k(components).tobytes())


@cache
def _success(tile: int, need: int, kbytes: bytes) -> np.ndarray:
    from .rules import roll_allows

    allows = roll_allows.py_func  # plain Python: no compilation for 216 look-ups
    K = np.frombuffer(kbytes, dtype=np.int64)
    out = np.zeros((6, 6, 6), dtype=bool)
    for a, b, c in product(range(1, 7), repeat=3):
        out[a - 1, b - 1, c - 1] = allows(a, b, c, tile, need, K)
    out.setflags(write=False)
    return out


def _best_after_reroll(ok: np.ndarray) -> np.ndarray:
    """Per roll: max over the 8 keep-sets of (#successful reroll outcomes) scaled to a denominator of 216."""
    counts = ok.astype(np.int64)
    best = np.zeros((6, 6, 6), dtype=np.int64)
    for mask in range(8):  # bit i set = keep die i
        m = counts
        rerolled = 0
        for axis in range(3):
            if not mask >> axis & 1:
                m = m.sum(axis=axis, keepdims=True)
                rerolled += 1
        scaled = np.broadcast_to(m, (6, 6, 6)) * 6 ** (3 - rerolled)  # successes out of 216
        best = np.maximum(best, scaled)
    return best


def placement_odds_exact(tile: int, count=1, reroll: bool = True, *, components=None) -> Fraction:
    """Exact probability (Fraction) behind :func:`placement_odds`.

    Parameters
    ----------
    tile : int
        Desert tile 3..12.
    count : 1, 2, 3 or "queen"
        Meerkats to place (a count die of 1-2 gives 1, 3-4 gives 2, 5-6 gives 3) or the queen (5-6).
    reroll : bool
        Use the optional single reroll of any subset of the dice, chosen to maximise this probability
        (``False``: the first roll only).
    components : path or Components, optional
        The count die and queen faces (default: the packaged components).

    Returns
    -------
    fractions.Fraction
        The probability, with denominator 216 (no reroll) or 216**2 (best reroll) before reduction.

    Raises
    ------
    ValueError
        If ``tile`` is not an integer in 3..12, ``count`` is not 1, 2, 3 or ``"queen"``, or ``reroll`` is not
        a bool.

    Examples
    --------
    >>> placement_odds_exact(7, 2, reroll=False), placement_odds_exact(7, 2)
    (Fraction(1, 3), Fraction(2449, 3888))
    """
    tile, need = _tile(tile), _need(count)
    if not isinstance(reroll, (bool, np.bool_)):
        raise ValueError(f"reroll must be True or False, got {reroll!r}")
    ok = success_table(tile, need, components)
    if not reroll:
        return Fraction(int(ok.sum()), 216)
    return Fraction(int(_best_after_reroll(ok).sum()), 216 * 216)


def placement_odds(tile: int, count=1, reroll: bool = True, *, components=None) -> float:
    """Probability that a turn's dice allow placing at least ``count`` meerkats on desert tile ``tile``.

    Parameters
    ----------
    tile : int
        Desert tile 3..12.
    count : 1, 2, 3 or "queen"
        Meerkats to place (a count die of 1-2 gives 1, 3-4 gives 2, 5-6 gives 3) or the queen (5-6).
    reroll : bool
        Use the optional single reroll of any subset of the dice, chosen to maximise this same
        probability (``False``: the first roll only).
    components : path or Components, optional
        The count die and queen faces (default: the packaged components).

    Returns
    -------
    float
        Exact by enumeration of 216 rolls x 8 keep-sets (see :func:`placement_odds_exact`).

    Examples
    --------
    >>> round(placement_odds(7, 2, reroll=False), 4)
    0.3333
    >>> placement_odds(12, "queen") < placement_odds(7, "queen")
    True
    """
    return float(placement_odds_exact(tile, count, reroll, components=components))


def placement_table(reroll: bool = True, automa: bool = False, *, components=None) -> pd.DataFrame:
    """Placement odds of every tile (rows 3..12) and count (columns 1, 2, 3, queen).

    With ``automa=True`` return the automa's exact placement distribution instead
    (:func:`automa_placement_table`).

    Parameters
    ----------
    reroll : bool
        Use the best optional reroll (as :func:`placement_odds`); ``False``: the first roll only.
    automa : bool
        Return :func:`automa_placement_table` (float probabilities) instead.
    components : path or Components, optional
        The count die, queen and automa faces (default: the packaged components).

    Returns
    -------
    pandas.DataFrame
        Index ``tile`` (3..12), columns ``1``, ``2``, ``3``, ``"queen"``: the float probability of
        :func:`placement_odds`; with ``automa=True`` the automa table's columns ``face``, ``tile``,
        ``count``, ``probability``.

    Raises
    ------
    ValueError
        If ``reroll`` is not a bool or the components are invalid.

    Examples
    --------
    >>> placement_table(reroll=False).loc[7, 1].round(4)
    np.float64(0.4769)
    """
    if automa:
        return automa_placement_table(components=components)
    rows = {t: [placement_odds(t, c, reroll, components=components) for c in COUNTS] for t in TILES}
    df = pd.DataFrame.from_dict(rows, orient="index", columns=list(COUNTS))
    df.index.name = "tile"
    return df


@cache
def _automa_exact(kbytes: bytes) -> dict:
    from .rules import automa_split

    split = automa_split.py_func
    K = np.frombuffer(kbytes, dtype=np.int64)
    dist = {}
    for face in range(3):
        weights: dict[tuple[int, int], int] = {}
        total = 0
        for a, b, c in product(range(1, 7), repeat=3):
            cd, x, y = split(a, b, c, face)
            if x == 1 and y == 1:  # 1+1: the automa rerolls its three dice
                continue
            key = (x + y, int(K[cd]))
            weights[key] = weights.get(key, 0) + 1
            total += 1
        dist[face] = {k: Fraction(w, total) for k, w in sorted(weights.items())}
    return dist


def automa_placement_table(exact: bool = False, *, components=None) -> pd.DataFrame:
    """The automa's placement distribution: one row per (face, tile, count) with its probability.

    Faces L, M, H choose the lowest, middle or highest die as the count die; a 1+1 tile pair is rerolled,
    so each face's distribution is conditional on a valid pair.  Rows with face ``"any"`` mix the faces by
    the automa die's faces.

    Parameters
    ----------
    exact : bool
        Probabilities as :class:`fractions.Fraction` (``True``) or float.
    components : path or Components, optional
        The count die and the automa die's faces (default: the packaged components).

    Returns
    -------
    pandas.DataFrame
        Columns ``face`` (``"L"``, ``"M"``, ``"H"`` or ``"any"``), ``tile`` (the tile pair's sum),
        ``count`` (meerkats placed) and ``probability``; each face's probabilities sum to 1.

    Raises
    ------
    ValueError
        If ``components`` is not a valid components file or object.

    Examples
    --------
    >>> t = automa_placement_table(exact=True)
    >>> sum(t.loc[t.face == "H", "probability"])
    Fraction(1, 1)
    """
    from .components import coerce_components

    comp = coerce_components(components)
    dist = _automa_exact(_k(comp).tobytes())
    faces = comp.automa_faces
    share = {f: Fraction(faces.count(f), len(faces)) for f in "LMH"}
    rows = []
    mixed: dict[tuple[int, int], Fraction] = {}
    for face in range(3):
        for (tile, count), p in dist[face].items():
            rows.append(("LMH"[face], tile, count, p))
            mixed[(tile, count)] = mixed.get((tile, count), Fraction(0)) + share["LMH"[face]] * p
    rows += [("any", t, c, p) for (t, c), p in sorted(mixed.items())]
    df = pd.DataFrame(rows, columns=["face", "tile", "count", "probability"])
    if not exact:
        df["probability"] = df["probability"].astype(float)
    return df
