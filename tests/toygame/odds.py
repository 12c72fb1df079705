"""Exact odds of the toy race: the die (integer weights), one turn's banked points (Fractions) and the optimal
player's win probabilities (value iteration over (my score, opponent's score, turn total), as for Pig).

>>> float(sum(turn_points_pmf(20).values()))
1.0
>>> round(solve().win(0, 0, 0), 4)   # the start player's chance under optimal play on both sides
0.5462
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .components import coerce_components

__all__ = ["chance_outcomes", "turn_points_pmf", "Solution", "solve"]


def chance_outcomes(components=None) -> dict[int, Fraction]:
    """Each face of the die with its probability (the one description the sampler and the solver share)."""
    faces = coerce_components(components).faces
    return {f: Fraction(1, len(faces)) for f in faces}


def turn_points_pmf(hold_at: int, components=None) -> dict[int, Fraction]:
    """Points banked in one turn by a player who holds once the turn total reaches ``hold_at`` (0: a bust)."""
    if isinstance(hold_at, bool) or not isinstance(hold_at, int) or hold_at < 1:
        raise ValueError(f"hold_at must be a positive integer, got {hold_at!r}")
    comp = coerce_components(components)
    odds = chance_outcomes(comp)
    out: dict[int, Fraction] = {}
    todo = {0: Fraction(1)}                    # turn totals still rolling, with their probability
    while todo:
        k = min(todo)
        p = todo.pop(k)
        for face, q in odds.items():
            if face in comp.bust:
                out[0] = out.get(0, Fraction(0)) + p * q
            elif k + face >= hold_at:
                out[k + face] = out.get(k + face, Fraction(0)) + p * q
            else:
                todo[k + face] = todo.get(k + face, Fraction(0)) + p * q
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class Solution:
    """Win probability of the player to move, by (my score, opponent's score, turn total), under optimal play;
    ``roll`` and ``hold`` are the values of each option (``hold`` is -inf where the turn total is 0)."""

    target: int
    p: np.ndarray
    roll: np.ndarray
    hold: np.ndarray

    def win(self, mine: int, theirs: int, turn_total: int) -> float:
        return float(self.p[mine, theirs, turn_total])

    def best(self, mine: int, theirs: int, turn_total: int) -> str:
        return "hold" if self.hold[mine, theirs, turn_total] > self.roll[mine, theirs, turn_total] else "roll"


def solve(components=None, *, tol: float = 1e-13) -> Solution:
    """The optimal player's values for these components (cached per die and target)."""
    comp = coerce_components(components)
    return _solve(comp.faces, comp.bust, comp.target, tol)


@functools.lru_cache(maxsize=16)
def _solve(faces: tuple, bust: tuple, target: int, tol: float) -> Solution:
    """Value iteration on the turn-start values ``p[:, :, 0]``; each sweep solves every turn total backwards
    (a roll only raises the turn total), so only the value of the opponent's next turn is iterated."""
    t, q = target, 1.0 / len(faces)
    good = [f for f in faces if f not in bust]
    i, j = np.meshgrid(np.arange(t), np.arange(t), indexing="ij")
    p = np.ones((t, t, t + max(faces) + 1))            # i + k >= t: the race is won (1)
    roll, hold = np.full((t, t, t), np.nan), np.full((t, t, t), np.nan)
    p0 = np.zeros((t, t))
    for _ in range(100_000):
        for k in range(t - 1, -1, -1):
            valid = i + k < t
            r = q * len(bust) * (1.0 - p0.T) + q * sum(p[:, :, k + f] for f in good)
            h = 1.0 - p0[j, np.minimum(i + k, t - 1)] if k else np.full((t, t), -np.inf)
            p[:, :, k] = np.where(valid, np.maximum(r, h), 1.0)
            roll[:, :, k], hold[:, :, k] = np.where(valid, r, np.nan), np.where(valid, h, np.nan)
        done = np.max(np.abs(p[:, :, 0] - p0)) < tol
        p0 = p[:, :, 0].copy()
        if done:
            break
    return Solution(t, np.where(~np.isnan(roll), p[:, :, :t], 0.0), roll, hold)
