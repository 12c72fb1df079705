"""Exact calculations: tilt outcome pmfs under the model, setup and deck distributions.

Given the timing node the gems' fates are independent (:mod:`.physics`), so the number of gems of each
colour that fall is a Poisson-binomial variable computed by dynamic programming, the colours are
independent given the node, and the exact pmf is the node-weighted mixture.  These are exact *under the
model* (floating point, no sampling); the samplers of :mod:`.tilting` are tested against them.

The setup and deck tables are exact rationals (``fractions.Fraction``).

Examples
--------
>>> import numpy as np
>>> from pyradice_lab.raft import odds
>>> state = np.zeros((9, 4), dtype=int); state[4, 0] = 3   # three red gems in the centre
>>> pmf = odds.fallen_total_pmf(state, "north", "centre", 1.0)
>>> len(pmf), round(float(pmf.sum()), 12)
(4, 1.0)
>>> odds.setup_ring_black_pmf(4)[0]
Fraction(323, 975)
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd

from .components import Components, default_components
from .physics import FALLEN, fate_table

__all__ = ["fallen_total_pmf", "fallen_joint_pmf", "expected_fallen", "check_state", "setup_ring_black_pmf",
           "deck_points_pmf", "poisson_binomial", "count_pmfs_by_node"]


def check_state(state, components: Components | None = None, name: str = "state") -> np.ndarray:
    """Validate a raft state: non-negative integer gem counts, shape (9, colours) or (3, 3, colours),
    at most the component total of gems.  Returns an int64 (9, colours) array."""
    comp = components if components is not None else default_components()
    ncol = comp.gems.n_colours
    try:
        arr = np.asarray(state)
    except Exception as exc:  # noqa: BLE001 - any conversion failure is bad input
        raise ValueError(f"{name} must be an array of gem counts, got {type(state).__name__}") from exc
    if arr.shape == (3, 3, ncol):
        arr = arr.reshape(9, ncol)
    if arr.shape != (9, ncol):
        raise ValueError(f"{name} must have shape (9, {ncol}) or (3, 3, {ncol}): gem counts per space per colour "
                         f"{comp.gems.colours}, got shape {arr.shape}")
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or
                                 (np.issubdtype(arr.dtype, np.floating) and np.all(arr == np.round(arr)))):
        raise ValueError(f"{name} must hold integer gem counts, got dtype {arr.dtype}")
    arr = arr.astype(np.int64)
    if (arr < 0).any():
        raise ValueError(f"{name} must not hold negative gem counts")
    per = arr.sum(axis=0)
    if (per > np.array(comp.gems.counts)).any() or arr.sum() > comp.gems.total:
        raise ValueError(f"{name} holds {per.tolist()} gems per colour ({int(arr.sum())} in all): more than the "
                         f"component total {list(comp.gems.counts)} ({comp.gems.total})")
    return arr


def poisson_binomial(p_rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """pmf of the number of successes when ``counts[s]`` independent trials have success probability
    ``p_rows[..., s]``; leading axes of ``p_rows`` are kept.  Returns shape (..., sum(counts) + 1)."""
    p_rows = np.asarray(p_rows, dtype=float)
    total = int(np.sum(counts))
    dp = np.zeros(p_rows.shape[:-1] + (total + 1,))
    dp[..., 0] = 1.0
    k = 0
    for s, m in enumerate(np.asarray(counts)):
        p = p_rows[..., s:s + 1]
        for _ in range(int(m)):
            new = dp * (1.0 - p)
            new[..., 1:k + 2] += dp[..., 0:k + 1] * p
            dp = new
            k += 1
    return dp


def count_pmfs_by_node(state, edge, finger, duration, params=None, geometry=None):
    """Node weights and, per colour, the pmf of gems of that colour falling given each node."""
    state = check_state(state)
    w, fates = fate_table(edge, finger, duration, params, geometry)
    pf = fates[:, :, FALLEN]  # (J, 9)
    return w, [poisson_binomial(pf, state[:, c]) for c in range(state.shape[1])]


def fallen_joint_pmf(state, edge, finger, duration, params=None, geometry=None) -> pd.DataFrame:
    """Exact (under the model) joint pmf of the gems falling per colour.

    Returns one row per outcome: a column per colour, ``total`` and ``p``; the ``p`` column sums to 1.
    """
    comp = default_components()
    w, pmfs = count_pmfs_by_node(state, edge, finger, duration, params, geometry)
    joint = w[:, None] * pmfs[0]
    for pm in pmfs[1:]:
        joint = (joint[..., None] * pm.reshape((pm.shape[0],) + (1,) * (joint.ndim - 1) + (pm.shape[1],)))
    joint = joint.sum(axis=0)
    rows = list(itertools.product(*[range(n) for n in joint.shape]))
    df = pd.DataFrame(rows, columns=list(comp.gems.colours))
    df["total"] = df.sum(axis=1)
    df["p"] = joint.ravel()
    return df


def fallen_total_pmf(state, edge, finger, duration, params=None, geometry=None) -> np.ndarray:
    """Exact (under the model) pmf of the total number of gems falling: array of length gems + 1."""
    state = check_state(state)
    w, fates = fate_table(edge, finger, duration, params, geometry)
    return w @ poisson_binomial(fates[:, :, FALLEN], state.sum(axis=1))


def expected_fallen(state, edge, finger, duration, params=None, geometry=None) -> np.ndarray:
    """Exact expected number of gems falling, per colour."""
    state = check_state(state)
    w, fates = fate_table(edge, finger, duration, params, geometry)
    pf = w @ fates[:, :, FALLEN]
    return pf @ state


def setup_ring_black_pmf(players: int, components: Components | None = None) -> list[Fraction]:
    """Exact pmf of the number of black gems on the 8 outer spaces at setup (hypergeometric).

    At setup one random gem goes on each of the 8 outer spaces, so the count of wild gems there is
    hypergeometric: ``C(K, k) C(G - K, 8 - k) / C(G, 8)``.
    """
    comp = components if components is not None else default_components()
    players = comp.check_players(players)
    g = comp.gems.in_play(players)
    total, black = int(g.sum()), int(g[-1])
    denom = comb(total, 8)
    return [Fraction(comb(black, k) * comb(total - black, 8 - k), denom) for k in range(black + 1)]


def deck_points_pmf(components: Components | None = None) -> dict[int, Fraction]:
    """Exact pmf of the points of a random lifeboat card of the deck."""
    comp = components if components is not None else default_components()
    n = len(comp.deck)
    out: dict[int, Fraction] = {}
    for c in comp.deck:
        out[c.points] = out.get(c.points, Fraction(0)) + Fraction(1, n)
    return dict(sorted(out.items()))
