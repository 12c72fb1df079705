"""The chance outcomes of Purramid, declared once: rolls of ``d`` fair d6 and what each roll can pay for.

Both the exact engines (:mod:`.odds`, :mod:`.advisor`) and the samplers (:mod:`.turns`, :mod:`.sim`)
read these tables, built from :func:`pyradice_lab.engine.dice.multisets` (sorted rolls with integer weights):

- ``count_masks(d)[row, n]``: bit ``c`` is set iff some ``c`` dice of multiset ``row`` sum to ``n``
  (only the number of dice used matters once they are placed: the rest are rerolled);
- ``code_rows(d)``: the multiset row of every ordered roll, indexed by its code
  ``sum_j (die_j - 1) * 6**j`` (built with :func:`pyradice_lab.engine.dice.classify`), so a sampler that draws a
  uniform code in ``[0, 6**d)`` -- exactly one uniform ordered roll of ``d`` dice -- lands on the same rows
  the exact engine sums over.

Examples
--------
>>> m = count_masks(2)
>>> faces, _ = multisets(2)
>>> row = [tuple(f) for f in faces.tolist()].index((3, 3))
>>> bin(int(m[row, 6])), bin(int(m[row, 3]))      # 6 = 3+3 (two dice); 3 = one die
('0b100', '0b10')
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

from ..engine import dice

__all__ = ["MAX_SUM", "multisets", "count_masks", "option_table", "code_rows", "sub_multisets"]

MAX_SUM = 30  # five dice sum to at most 30; layout numbers are 1..30


def multisets(d: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted rolls of ``d`` dice and their integer weights (``pyradice_lab.engine.dice.multisets``)."""
    return dice.multisets(d)


@cache
def count_masks(d: int) -> np.ndarray:
    """``(rows, 6*d+1)`` uint16 array: bit ``c`` of ``[row, n]`` set iff ``c`` dice of the row sum to ``n``."""
    faces, _ = dice.multisets(d)
    out = np.zeros((len(faces), 6 * d + 1), dtype=np.uint16)
    for r, row in enumerate(faces.tolist()):
        for sub in range(1, 1 << d):
            s = 0
            c = 0
            for k in range(d):
                if sub >> k & 1:
                    s += row[k]
                    c += 1
            out[r, s] |= 1 << c
    out.setflags(write=False)
    return out


@cache
def option_table(d: int, max_number: int = MAX_SUM) -> np.ndarray:
    """``(rows, max_number+1, d+1)`` bool array: ``[row, n, c]`` = some ``c`` dice of the row sum to ``n``."""
    cm = count_masks(d)
    out = np.zeros((cm.shape[0], max_number + 1, d + 1), dtype=bool)
    width = min(cm.shape[1], max_number + 1)
    for c in range(1, d + 1):
        out[:, :width, c] = (cm[:, :width] >> c) & 1
    out.setflags(write=False)
    return out


@cache
def code_rows(d: int) -> np.ndarray:
    """Multiset row of every ordered roll code ``sum_j (die_j - 1) * 6**j`` (int16, length ``6**d``)."""
    codes = np.arange(6 ** d)
    rolls = (codes[:, None] // 6 ** np.arange(d)) % 6 + 1
    rows = dice.classify(rolls.reshape(len(codes), d)).astype(np.int16)
    rows.setflags(write=False)
    return rows


def sub_multisets(roll, n: int) -> list[tuple[int, ...]]:
    """Distinct sorted sub-multisets of ``roll`` summing to ``n`` (fewest dice first)."""
    vals = sorted(int(v) for v in roll)
    out = set()
    for c in range(1, len(vals) + 1):
        for combo in combinations(vals, c):
            if sum(combo) == n:
                out.add(combo)
    return sorted(out, key=lambda t: (len(t), t))
