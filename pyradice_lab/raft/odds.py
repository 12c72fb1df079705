"""Exact calculations: tilt outcome pmfs under the model, setup and deck distributions.

Given the timing node the gems' fates are independent (:mod:`.physics`), so the number of gems of each
colour that fall is a Poisson-binomial variable computed by dynamic programming, the colours are
independent given the node, and the exact pmf is the node-weighted mixture.  These are exact *under the
model* (floating point, no sampling); the samplers of :mod:`.tilting` are tested against them.

Every tilt function takes a fixed raft ``state`` or a :class:`~pyradice_lab.raft.layouts.RandomSetup`,
which averages exactly over the rules' random setups: the 8 outer spaces hold the first 8 gems of a
shuffled set (a colour-by-colour dynamic programme over those spaces), and every other gem was dropped
into the centre and independently rolled into a side neighbour with probability ``spill``, so given the
timing node each such gem falls with the same mixed probability (a binomial per colour).

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
>>> round(odds.chance_at_least(odds.RandomSetup(2), "east", "left", 1.5, red=1), 3)  # over random setups
0.624
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pandas as pd

from .components import coerce_components, default_components
from .layouts import OUTER_CELLS, SPILL_CELLS, RandomSetup
from .physics import FALLEN, coerce_params, fate_table

__all__ = ["fallen_total_pmf", "fallen_joint_pmf", "expected_fallen", "chance_at_least", "check_state",
           "setup_ring_black_pmf", "deck_points_pmf", "poisson_binomial", "count_pmfs_by_node", "RandomSetup",
           "setup_mean_state", "capped_count_pmfs"]


def resolve(state, components=None, geometry=None):
    """``(components, state, geometry)`` of a tilt question: the components are ``components`` (a path or loaded
    components) or, for a :class:`RandomSetup` state, its own (default: packaged); the geometry is ``geometry``
    or the components' raft; a fixed raft is checked against the components' gems (:func:`check_state`)."""
    own = state.comp if isinstance(state, RandomSetup) else None
    comp = coerce_components(components) if components is not None else (own or default_components())
    if own is not None and components is not None and own != comp:
        raise ValueError("components differ from the components of the RandomSetup state; give them once")
    if not isinstance(state, RandomSetup):
        state = check_state(state, comp)
    return comp, state, geometry if geometry is not None else comp.raft


def check_state(state, components=None, name: str = "state") -> np.ndarray:
    """Validate a raft state: non-negative integer gem counts, shape (9, colours) or (3, 3, colours),
    at most the component total of gems.  Returns an int64 (9, colours) array."""
    comp = coerce_components(components)
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


def count_pmfs_by_node(state, edge, finger, duration, params=None, geometry=None, *, components=None):
    """Node weights and, per colour, the pmf of gems of that colour falling given each node."""
    comp, state, geometry = resolve(check_state(state, components), components, geometry)
    w, fates = fate_table(edge, finger, duration, params, geometry)
    pf = fates[:, :, FALLEN]  # (J, 9)
    return w, [poisson_binomial(pf, state[:, c]) for c in range(state.shape[1])]


def capped_count_pmfs(raft: np.ndarray, node_fall: np.ndarray, caps: np.ndarray) -> list[np.ndarray]:
    """Batch twin of :func:`count_pmfs_by_node` for many rafts at once, with counts capped.

    Parameters
    ----------
    raft : (n, 9, C) int
        Gem counts per space and colour of ``n`` rafts.
    node_fall : (n, ..., 9) float
        Probability that a gem on each space falls, given any middle axes (e.g. option and timing node).
    caps : (n, C) int
        Per raft and colour, the count from which outcomes are lumped: entry ``caps`` of a pmf is
        P(X >= caps) (a caller whose valuation is flat from there on loses nothing).

    Returns
    -------
    list of C arrays (n, ..., max(caps[:, c]) + 1)
        ``out[c][i, ..., x]`` = P(min(X_c, caps[i, c]) = x) for raft ``i``; entries above the cap are 0.

    A dynamic programme over the gems of each raft (space by space, in a fixed order): every step is
    elementwise, so a raft's pmf does not depend on the batch it is computed in (the readable game engine
    calls this with n = 1, the batch engine with many).

    >>> raft = np.zeros((1, 9, 2), dtype=int); raft[0, 4, 0] = 3
    >>> pf = np.full((1, 9), 0.5)
    >>> [a.round(3).tolist() for a in capped_count_pmfs(raft, pf, np.array([[2, 0]]))]
    [[[0.125, 0.375, 0.5]], [[1.0]]]
    """
    raft = np.asarray(raft)
    node_fall = np.asarray(node_fall, dtype=np.float64)
    caps = np.asarray(caps)
    n, _, ncol = raft.shape
    mid = node_fall.shape[1:-1]
    expand = (n,) + (1,) * len(mid)
    rows = np.arange(n)
    # space 9 is a padding step: fall probability 0 leaves the pmf exactly as it is.  The count axis goes
    # first inside the loop (contiguous, in place), and is moved last in the result.
    pad = np.moveaxis(np.concatenate([node_fall, np.zeros(node_fall.shape[:-1] + (1,))], axis=-1), -1, 1)
    pad = np.ascontiguousarray(pad)                     # (n, 10, ...)
    out = []
    for c in range(ncol):
        counts = raft[:, :, c]
        cap = np.minimum(caps[:, c], counts.sum(axis=1))
        size = int(cap.max(initial=0)) + 1
        dp = np.zeros((size, n) + mid)
        dp[0] = 1.0
        if size > 1:
            # each raft's gems of colour c as a list of spaces (ascending), padded with the space 9
            m = counts.sum(axis=1)
            cells = np.full((n, int(m.max(initial=0))), 9, dtype=np.int64)
            for i in range(n):
                cells[i, :m[i]] = np.repeat(np.arange(9), counts[i])
            for t in range(cells.shape[1]):
                p = pad[rows, cells[:, t]]                     # (n, ...)
                moved = dp[:-1] * p                            # counts above size - 1 are dropped: the
                dp *= 1.0 - p                                  # entries below stay exact
                dp[1:] += moved
        # lump the tail: entry cap = 1 - sum of the entries below it (summed in a fixed order), zero above
        below = np.zeros((n,) + mid)
        capx = cap.reshape(expand)
        for x in range(size - 1):
            below += np.where(x < capx, dp[x], 0.0)
        tail = np.maximum(1.0 - below, 0.0)
        for x in range(size):
            dp[x] = np.where(x < capx, dp[x], np.where(x == capx, tail, 0.0))
        out.append(np.moveaxis(dp, 0, -1))
    return out


def _dropped_fall(pf: np.ndarray, spill: float) -> np.ndarray:
    """Per node, the fall probability of a gem dropped into the centre at setup (it may have rolled)."""
    return (1.0 - spill) * pf[:, 4] + spill / 4.0 * pf[:, list(SPILL_CELLS)].sum(axis=1)


def _setup_joint(setup: RandomSetup, pf: np.ndarray, spill: float) -> np.ndarray:
    """(J, n_0 + 1, ..., n_C + 1): joint pmf of the gems falling per colour given each node, averaged over
    the random setups."""
    from scipy.stats import binom

    n = setup.in_play
    g, ncol, nodes = int(n.sum()), len(n), pf.shape[0]
    layers = {(0,) * ncol: np.ones((nodes,) + (1,) * ncol)}
    for k, cell in enumerate(OUTER_CELLS[:min(8, g)]):   # space k gets colour c w.p. (n_c - used_c) / (g - k)
        p = pf[:, cell].reshape((nodes,) + (1,) * ncol)
        new: dict = {}
        for used, a in layers.items():
            for c in range(ncol):
                left = int(n[c]) - used[c]
                if left == 0:
                    continue
                b = np.zeros(a.shape[:1 + c] + (a.shape[1 + c] + 1,) + a.shape[2 + c:])
                lo = (slice(None),) * (1 + c) + (slice(0, -1),)
                hi = (slice(None),) * (1 + c) + (slice(1, None),)
                b[lo] += a * (1.0 - p)
                b[hi] += a * p
                key = used[:c] + (used[c] + 1,) + used[c + 1:]
                new[key] = new[key] + b * (left / (g - k)) if key in new else b * (left / (g - k))
        layers = new
    p_drop = _dropped_fall(pf, spill)
    out = np.zeros((nodes,) + tuple(int(x) + 1 for x in n))
    for used, a in layers.items():
        for c in range(ncol):
            m = int(n[c]) - used[c]
            if m == 0:
                continue
            pm = binom.pmf(np.arange(m + 1)[None, :], m, p_drop[:, None])  # (J, m + 1)
            conv = np.zeros(a.shape[:1 + c] + (a.shape[1 + c] + m,) + a.shape[2 + c:])
            for j in range(m + 1):
                sl = (slice(None),) * (1 + c) + (slice(j, j + a.shape[1 + c]),)
                conv[sl] += a * pm[:, j].reshape((nodes,) + (1,) * ncol)
            a = conv
        out += a
    return out


def setup_mean_state(setup: RandomSetup, spill: float) -> np.ndarray:
    """Expected gems per space and colour (9, colours) of a random setup."""
    n = setup.in_play.astype(float)
    g = n.sum()
    k = min(8, int(g))
    mean = np.zeros((9, len(n)))
    for cell in OUTER_CELLS[:k]:
        mean[cell] = n / g
    rest = n * (g - k) / g
    mean[4] += (1.0 - spill) * rest
    for cell in SPILL_CELLS:
        mean[cell] += spill / 4.0 * rest
    return mean


def _tables(state, edge, finger, duration, params, geometry, components=None):
    params = coerce_params(params)
    comp, state, geometry = resolve(state, components, geometry)
    w, fates = fate_table(edge, finger, duration, params, geometry)
    return state, w, fates[:, :, FALLEN], params.spill


def fallen_joint_pmf(state, edge, finger, duration, params=None, geometry=None, *, components=None
                     ) -> pd.DataFrame:
    """Exact (under the model) joint pmf of the gems falling per colour.

    ``state`` is a raft (9, colours) or a :class:`RandomSetup` (exact average over the rules' setups);
    ``components`` (a path or loaded components; default: the state's or the packaged ones) give the gems and
    the raft's geometry.  Returns one row per outcome: a column per colour, ``total`` and ``p``; the ``p``
    column sums to 1.
    """
    comp = resolve(state, components, geometry)[0]
    state, w, pf, spill = _tables(state, edge, finger, duration, params, geometry, comp)
    if isinstance(state, RandomSetup):
        joint = np.tensordot(w, _setup_joint(state, pf, spill), axes=1)
    else:
        pmfs = [poisson_binomial(pf, state[:, c]) for c in range(state.shape[1])]
        joint = w[:, None] * pmfs[0]
        for pm in pmfs[1:]:
            joint = (joint[..., None] * pm.reshape((pm.shape[0],) + (1,) * (joint.ndim - 1) + (pm.shape[1],)))
        joint = joint.sum(axis=0)
    rows = list(itertools.product(*[range(n) for n in joint.shape]))
    df = pd.DataFrame(rows, columns=list(comp.gems.colours))
    df["total"] = df.sum(axis=1)
    df["p"] = joint.ravel()
    return df


def fallen_total_pmf(state, edge, finger, duration, params=None, geometry=None, *, components=None) -> np.ndarray:
    """Exact (under the model) pmf of the total number of gems falling: array of length gems + 1.

    ``state`` is a raft or a :class:`RandomSetup` (each outer space holds one gem whatever its colour, the
    others were dropped into the centre, so the total needs no colour bookkeeping)."""
    state, w, pf, spill = _tables(state, edge, finger, duration, params, geometry, components)
    if isinstance(state, RandomSetup):
        g = int(state.in_play.sum())
        k = min(8, g)
        rows = np.concatenate([pf[:, list(OUTER_CELLS[:k])], _dropped_fall(pf, spill)[:, None]], axis=1)
        return w @ poisson_binomial(rows, np.array([1] * k + [g - k]))
    return w @ poisson_binomial(pf, state.sum(axis=1))


def expected_fallen(state, edge, finger, duration, params=None, geometry=None, *, components=None) -> np.ndarray:
    """Exact expected number of gems falling, per colour (``state``: a raft or a :class:`RandomSetup`)."""
    state, w, pf, spill = _tables(state, edge, finger, duration, params, geometry, components)
    mean = setup_mean_state(state, spill) if isinstance(state, RandomSetup) else state
    return (w @ pf) @ mean


def chance_at_least(state, edge, finger, duration, params=None, geometry=None, *, components=None,
                    **at_least) -> float:
    """Exact probability that a tilt drops at least the given numbers of gems of each colour named,
    e.g. ``chance_at_least(RandomSetup(2), "east", "left", 1.5, red=1)``; ``total=k`` asks for at least
    ``k`` gems in all.  ``state`` is a raft or a :class:`RandomSetup`.

    >>> from pyradice_lab.raft.layouts import reference_state
    >>> round(chance_at_least(reference_state(2), "east", "left", 1.5, red=1), 3)   # one fixed layout
    0.525
    """
    comp = resolve(state, components, geometry)[0]
    colours = list(comp.gems.colours)
    if not at_least:
        raise ValueError(f"chance_at_least needs at least one of {colours + ['total']} as a keyword, e.g. red=1")
    for name, k in at_least.items():
        if name not in colours + ["total"]:
            raise ValueError(f"chance_at_least: unknown colour {name!r}; colours are {colours} (or total)")
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
            raise ValueError(f"chance_at_least: {name} must be a non-negative integer, got {k!r}")
    df = fallen_joint_pmf(state, edge, finger, duration, params, geometry, components=comp)
    keep = np.ones(len(df), dtype=bool)
    for name, k in at_least.items():
        keep &= df[name].to_numpy() >= k
    return float(df.loc[keep, "p"].sum())


def setup_ring_black_pmf(players: int, components=None) -> list[Fraction]:
    """Exact pmf of the number of black gems on the 8 outer spaces at setup (hypergeometric).

    At setup one random gem goes on each of the 8 outer spaces, so the count of wild gems there is
    hypergeometric: ``C(K, k) C(G - K, 8 - k) / C(G, 8)``.  ``components``: a path or loaded components.
    """
    comp = coerce_components(components)
    players = comp.check_players(players)
    g = comp.gems.in_play(players)
    total, black = int(g.sum()), int(g[-1])
    denom = comb(total, 8)
    return [Fraction(comb(black, k) * comb(total - black, 8 - k), denom) for k in range(black + 1)]


def deck_points_pmf(components=None) -> dict[int, Fraction]:
    """Exact pmf of the points of a random lifeboat card of the deck (``components``: a path or loaded ones)."""
    comp = coerce_components(components)
    n = len(comp.deck)
    out: dict[int, Fraction] = {}
    for c in comp.deck:
        out[c.points] = out.get(c.points, Fraction(0)) + Fraction(1, n)
    return dict(sorted(out.items()))
