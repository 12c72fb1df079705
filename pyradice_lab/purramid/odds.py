"""Exact burst odds: the chance that a roll cannot be placed on any of a set of numbers.

A roll of ``n`` dice *bursts* against target numbers ``T`` when no non-empty subset of the dice sums to a
number of ``T``.  Everything is computed from the integer-weighted sorted rolls of
:func:`pyradice_lab.engine.dice.multisets` and their subset-sum masks, so results are exact
(:class:`fractions.Fraction` on request).

:func:`burst_table` answers every non-empty target set of up to 16 numbers at once: each sorted roll is
reduced to the set of target numbers it can reach (a bit mask), the weights are binned by that mask, and
one subset-sum (zeta) transform over the lattice of target sets gives, for every set ``S``, the weight of
the rolls reaching nothing in ``S`` -- 5 x 4096 integers instead of 4095 separate enumerations.

Examples
--------
>>> burst_probability(1, [6], exact=True)
Fraction(5, 6)
>>> burst_probability(2, [12], exact=True)
Fraction(35, 36)
>>> round(float(burst_table(2, [2, 12]).loc[[(2, 12)], 2].iloc[0]), 4)   # no 2, no 1+1 and no 6+6
0.6389
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from fractions import Fraction

import numpy as np
import pandas as pd

from ..engine import dice

__all__ = ["burst_probability", "burst_weights", "burst_table", "burst_counts", "reach_distribution"]

_MAX_TARGET = 6 * dice.MAX_DICE


def _check_targets(targets, name: str = "targets") -> list[int]:
    if isinstance(targets, (str, bytes)) or not isinstance(targets, Iterable):
        raise TypeError(f"{name} must be an iterable of integers, got {type(targets).__name__}")
    out = []
    for t in targets:
        if isinstance(t, bool) or not isinstance(t, numbers.Integral):
            raise TypeError(f"{name} must hold integers, got {t!r}")
        if not 1 <= int(t) <= _MAX_TARGET:
            raise ValueError(f"{name} must hold numbers in 1..{_MAX_TARGET}, got {int(t)}")
        out.append(int(t))
    return sorted(set(out))


def burst_weights(n_dice: int, targets) -> tuple[int, int]:
    """``(bursting ordered rolls, 6**n_dice)``: integer numerator and denominator of the burst odds."""
    n = dice.check_dice_count(n_dice, "n_dice")
    tset = _check_targets(targets)
    faces, weights = dice.multisets(n)
    if n == 0 or not tset:
        return 6 ** n, 6 ** n
    tmask = np.uint64(sum(1 << t for t in tset if t <= 6 * n))
    masks = dice.subset_sum_masks(faces)
    burst = (masks & tmask) == 0
    return int(weights[burst].sum()), 6 ** n


def burst_probability(n_dice: int, targets, exact: bool = False) -> float | Fraction:
    """Probability that no non-empty subset of ``n_dice`` fair d6 sums to a number in ``targets``.

    Parameters
    ----------
    n_dice : int
        Number of dice rolled, 0..8 (0 dice always burst).
    targets : iterable of int
        Numbers of the spaces the dice could go on, each in 1..48 (an empty set always bursts).
    exact : bool
        Return a :class:`fractions.Fraction` instead of a float.

    Returns
    -------
    float or fractions.Fraction
        The burst probability (a Fraction with ``exact=True``).

    Raises
    ------
    ValueError
        If ``n_dice`` is not in 0..8 or a target is not in 1..48.
    TypeError
        If ``n_dice`` is not an integer, ``targets`` is not an iterable of integers or ``exact`` is not a
        bool.

    Examples
    --------
    >>> burst_probability(3, [6, 8], exact=True)
    Fraction(23, 216)
    >>> round(burst_probability(5, range(1, 7)), 6)
    0.0
    """
    exact = _check_exact(exact)
    num, den = burst_weights(n_dice, targets)
    return Fraction(num, den) if exact else num / den


def _check_exact(exact) -> bool:
    if not isinstance(exact, (bool, np.bool_)):
        raise TypeError(f"exact must be True or False, got {exact!r}")
    return bool(exact)


def _check_numbers(numbers_, name: str = "numbers") -> list[int]:
    nums = _check_targets(numbers_, name)
    if not nums:
        raise ValueError(f"{name} must hold at least one number")
    if len(nums) > 16:
        raise ValueError(f"{name} may hold at most 16 distinct numbers (2**16 target sets), got {len(nums)}")
    return nums


def _reach_counts(n: int, nums: list[int]) -> np.ndarray:
    """Integer weight of the rolls of ``n`` dice binned by which of ``nums`` they reach (bit j = nums[j])."""
    faces, weights = dice.multisets(n)
    masks = dice.subset_sum_masks(faces)
    reach = np.zeros(len(faces), dtype=np.int64)
    for j, t in enumerate(nums):
        reach |= ((masks >> np.uint64(t)) & np.uint64(1)).astype(np.int64) << j
    out = np.zeros(1 << len(nums), dtype=np.int64)
    np.add.at(out, reach, weights)
    return out


def reach_distribution(n_dice: int, numbers_) -> pd.Series:
    """Exact distribution (Fractions) of *which* of ``numbers_`` a roll of ``n_dice`` can reach.

    Index: the reachable numbers as a sorted tuple; only outcomes with positive probability are listed.

    Examples
    --------
    >>> reach_distribution(1, [1, 7]).to_dict()
    {(): Fraction(5, 6), (1,): Fraction(1, 6)}
    """
    n = dice.check_dice_count(n_dice, "n_dice")
    nums = _check_numbers(numbers_)
    counts = _reach_counts(n, nums)
    den = 6 ** n
    idx, vals = [], []
    for v in np.flatnonzero(counts):
        idx.append(tuple(nums[j] for j in range(len(nums)) if v >> j & 1))
        vals.append(Fraction(int(counts[v]), den))
    return pd.Series(vals, index=pd.Index(idx, tupleize_cols=False, name="reachable"), name="probability")


def burst_counts(max_dice: int = 5, numbers=range(1, 13)) -> np.ndarray:
    """The arithmetic of :func:`burst_table` without the table: burst rolls per target set and dice count.

    Returns
    -------
    ndarray of int64, shape (2**len(numbers) - 1, max_dice)
        Row ``s - 1`` is the target set with bit mask ``s`` over ``numbers``; column ``n - 1`` counts the
        ordered rolls of ``n`` dice (out of ``6**n``) from which no subset sums to any number of the set.

    Examples
    --------
    >>> burst_counts(2, [2, 12])[-1].tolist()   # target set (2, 12): no 2 on one die; no 2, 1+1, 6+6 on two
    [5, 23]
    """
    return _burst_counts(dice.check_dice_count(max_dice, "max_dice", low=1), _check_numbers(numbers))


def _burst_counts(k: int, nums: list[int]) -> np.ndarray:
    m = len(nums)
    full = (1 << m) - 1
    subsets = np.arange(1, 1 << m)
    out = np.empty((len(subsets), k), dtype=np.int64)
    for n in range(1, k + 1):
        f = _reach_counts(n, nums).copy()
        # zeta transform: f[S] <- sum of counts over reach-masks contained in S
        for j in range(m):
            f = f.reshape(-1, 2, 1 << j)
            f[:, 1, :] += f[:, 0, :]
            f = f.reshape(-1)
        out[:, n - 1] = f[full ^ subsets]  # rolls whose reach avoids every number of the target set
    return out


def burst_table(max_dice: int = 5, numbers=range(1, 13), *, exact: bool = False) -> pd.DataFrame:
    """P(burst) for every non-empty subset of ``numbers`` and every dice count ``1..max_dice``.

    Parameters
    ----------
    max_dice : int
        Largest number of dice, 1..8.
    numbers : iterable of int
        Candidate space numbers (distinct, 1..48, at most 16 of them).
    exact : bool
        Fractions (object dtype) instead of floats.

    Returns
    -------
    DataFrame
        Index ``targets``: the target set as a sorted tuple (``2**len(numbers) - 1`` rows, in the order
        of the bit masks of ``numbers``); columns ``1..max_dice`` (name ``dice``).  Tuples as labels: read
        one value with ``t.at[(6, 8), 3]`` (``t.loc[(6, 8), 3]`` does not work: pandas reads a tuple in
        ``.loc`` as one key per axis), or rows with ``t.loc[[(6, 8), (2, 12)], 3]``.

    Examples
    --------
    >>> t = burst_table()
    >>> t.shape
    (4095, 5)
    >>> round(float(t.at[(6, 8), 3]), 6)        # 3 dice, a "6" and an "8" free: 23/216
    0.106481
    >>> float(t.loc[[(1, 2, 3, 4, 5, 6)], 1].iloc[0])
    0.0
    """
    exact = _check_exact(exact)
    k = dice.check_dice_count(max_dice, "max_dice", low=1)
    nums = _check_numbers(numbers)
    return _burst_frame(_burst_counts(k, nums), nums, exact)


def _burst_frame(counts: np.ndarray, nums: list[int], exact: bool = False) -> pd.DataFrame:
    """The table of :func:`burst_table` from the counts of :func:`burst_counts` (the pandas part)."""
    m = len(nums)
    subsets = np.arange(1, 1 << m)
    cols = {}
    for n in range(1, counts.shape[1] + 1):
        burst = counts[:, n - 1]
        den = 6 ** n
        cols[n] = [Fraction(int(b), den) for b in burst] if exact else burst / den
    index = pd.Index([tuple(nums[j] for j in range(m) if s >> j & 1) for s in subsets.tolist()],
                     tupleize_cols=False, name="targets")
    out = pd.DataFrame(cols, index=index)
    out.columns.name = "dice"
    return out
