"""Exact d6 machinery shared by the games.

Every sorted roll of ``k`` fair six-sided dice is one *multiset*; its integer weight is the number of
ordered rolls it stands for (the multinomial coefficient).  Exact calculations enumerate the multisets
with their weights (there are 252 for five dice instead of 7776 ordered rolls); samplers map sampled
rolls back onto the same rows with :func:`classify`, so the exact engine and the sampler share one
description of what can happen.

Examples
--------
>>> from pyradice_lab.engine import dice
>>> faces, weights = dice.multisets(2)
>>> faces.shape, int(weights.sum())
((21, 2), 36)
>>> bin(int(dice.subset_sum_masks(faces[-1:])[0]))   # (6, 6): sums 6 and 12
'0b1000001000000'
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement

import numpy as np

__all__ = ["MAX_DICE", "FACES", "ROLL_BLOCK", "multisets", "subset_sum_masks", "classify", "roll", "check_dice_count"]

MAX_DICE = 8
FACES = 6
#: Rolls drawn at a time by samplers that work in blocks (a fixed constant: results never depend on it
#: varying, and a count up to one block draws exactly what one call of :func:`roll` draws).
ROLL_BLOCK = 1 << 20


def check_dice_count(k, name: str = "k", *, low: int = 0, high: int = MAX_DICE) -> int:
    """Validate a number of dice and return it as ``int``.

    Raises ``TypeError`` for non-integers (bools included) and ``ValueError`` outside ``low..high``.
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"{name} must be an integer number of dice in {low}..{high}, got {k!r}")
    if not low <= int(k) <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {int(k)}")
    return int(k)


@cache
def _multisets(k: int) -> tuple[np.ndarray, np.ndarray]:
    rows = list(combinations_with_replacement(range(1, FACES + 1), k))
    faces = np.array(rows, dtype=np.int64).reshape(len(rows), k)
    fact_k = math.factorial(k)
    weights = np.array(
        [fact_k // math.prod(math.factorial(c) for c in Counter(r).values()) for r in rows], dtype=np.int64
    )
    faces.setflags(write=False)
    weights.setflags(write=False)
    return faces, weights


def multisets(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every sorted roll of ``k`` fair d6 with its integer weight.

    Parameters
    ----------
    k : int
        Number of dice, 0..8.

    Returns
    -------
    faces : ndarray of int64, shape (M, k)
        One row per multiset, each row ascending; rows in lexicographic order.
    weights : ndarray of int64, shape (M,)
        Number of ordered rolls each row stands for; ``weights.sum() == 6**k``.

    The arrays are cached and read-only.

    Examples
    --------
    >>> faces, weights = multisets(5)
    >>> len(faces), int(weights.sum())
    (252, 7776)
    """
    return _multisets(check_dice_count(k))


def subset_sum_masks(faces) -> np.ndarray:
    """Bit masks of the sums reachable by non-empty sub-multisets of each row.

    Parameters
    ----------
    faces : array_like of int, shape (M, k)
        Die values 1..6; ``k`` up to 8 (so every sum is below 64).

    Returns
    -------
    ndarray of uint64, shape (M,)
        Bit ``s`` is set iff some non-empty sub-multiset of the row sums to ``s``.

    Examples
    --------
    >>> int(subset_sum_masks([[1, 2]])[0]) == (1 << 1) | (1 << 2) | (1 << 3)
    True
    """
    arr = _as_rolls(faces, "faces")
    masks = np.zeros(arr.shape[0], dtype=np.uint64)
    one = np.uint64(1)
    for j in range(arr.shape[1]):
        v = arr[:, j].astype(np.uint64)
        masks = masks | (masks << v) | (one << v)
    return masks


@cache
def _classify_table(k: int) -> tuple[np.ndarray, np.ndarray]:
    faces, _ = _multisets(k)
    base = k + 1
    powers = base ** np.arange(FACES, dtype=np.int64)
    # code of a roll = sum over dice of base**(face-1) = the count vector written in base k+1
    codes = powers[faces - 1].sum(axis=1)
    table = np.full(int(k * powers[-1]) + 1, -1, dtype=np.intp)
    table[codes] = np.arange(len(faces), dtype=np.intp)
    # power lookup indexed directly by face value (index 0 unused)
    pow_by_face = np.zeros(FACES + 1, dtype=np.int32)
    pow_by_face[1:] = powers
    return table, pow_by_face


def classify(rolls) -> np.ndarray:
    """Map sampled rolls to their row in :func:`multisets`, vectorised.

    Parameters
    ----------
    rolls : array_like of int, shape (n, k)
        Die values 1..6, any order within a row; ``k`` 0..8.

    Returns
    -------
    ndarray of intp, shape (n,)
        ``multisets(k)[0][classify(rolls)]`` equals ``np.sort(rolls, axis=1)``.

    Examples
    --------
    >>> faces, _ = multisets(3)
    >>> faces[classify([[6, 1, 3]])].tolist()
    [[1, 3, 6]]
    """
    arr = _as_rolls(rolls, "rolls")
    k = arr.shape[1]
    table, pow_by_face = _classify_table(k)
    if k == 0:
        return np.zeros(arr.shape[0], dtype=np.intp)
    # column by column with np.take: ~4x faster than fancy indexing + sum over a short axis
    codes = np.take(pow_by_face, arr[:, 0])
    for j in range(1, k):
        codes += np.take(pow_by_face, arr[:, j])
    return np.take(table, codes)


def roll(n: int, k: int, *, rng=None) -> np.ndarray:
    """Sample ``n`` ordered rolls of ``k`` fair d6 as an int8 array of shape (n, k).

    The array is the result, so its size is limited (:mod:`pyradice_lab.engine.limits`: ``n * k`` bytes, 4 GiB by
    default); to sample more rolls than fit, draw blocks of at most :data:`ROLL_BLOCK` rolls in turn from
    the same generator, as :func:`pyradice_lab.report.overview.subset_sum_cell` does.
    """
    from .limits import check_result_size
    from .rng import as_generator

    k = check_dice_count(k)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"n must be a non-negative integer, got {n!r}")
    check_result_size(int(n), max(k, 1), name="n", item="roll")
    return as_generator(rng).integers(1, FACES + 1, size=(int(n), k), dtype=np.int8)


def _as_rolls(values, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array of shape (n, k), got shape {arr.shape}")
    check_dice_count(arr.shape[1], f"{name}.shape[1] (number of dice)")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold integer die values 1..6, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 1 or arr.max() > FACES):
        raise ValueError(f"{name} must hold die values in 1..6, got values in {arr.min()}..{arr.max()}")
    return arr if arr.size else arr.astype(np.intp)
