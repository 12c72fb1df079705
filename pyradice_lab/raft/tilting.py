"""Vectorised sampling of tilts: ``tilt`` (batch axis first) and ``tilt_distribution``.

The sampler reads the chance outcomes declared once by :func:`~pyradice_lab.raft.physics.fate_table`:
per tilt it draws the timing node from one uniform, then each gem's fate from one uniform (gems in
space order 0..8, colours in order), inside a numba-compiled loop that takes the numpy ``Generator``
itself.  A game engine that tilts once per turn therefore consumes exactly the same numbers as
``tilt(..., n=1)``.  With ``NUMBA_DISABLE_JIT=1`` the same loop runs as plain Python: that is the
one-tilt-at-a-time reference path of the benchmark.

Gems are conserved by construction: every gem on the raft is written to exactly one outcome (fallen, or
one of the nine spaces after release).

Examples
--------
>>> import numpy as np
>>> from pyradice_lab.raft import tilting
>>> state = tilting.reference_state(4)
>>> res = tilting.tilt(state, "north", "centre", 1.0, n=1000, rng=1)
>>> res.fallen.shape, res.states.shape
((1000, 4), (1000, 9, 4))
>>> bool(((res.fallen + res.states.sum(axis=1)) == state.sum(axis=0)).all())
True
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..engine._jit import njit
from ..engine.limits import check_count, check_result_size
from ..engine.rng import as_generator, block_ranges
from ..engine.stats import proportion_estimate
from .components import RaftGeometry
from .layouts import RandomSetup, reference_state
from .odds import fallen_joint_pmf, resolve
from .physics import check_duration, check_edge, coerce_params, fate_table
from .sampling import cumulative_tables, sample_batch

#: the first compile of the tilt kernel, announced (:func:`pyradice_lab.engine._jit.compile_notice`): typical CPU
#: seconds with an empty numba cache (0.74 s)
COMPILE_NOTICE = ("the Rocking Raft tilt model", 1)

__all__ = ["tilt", "tilt_blocks", "tilt_distribution", "TiltResult", "TILT_BLOCK", "reference_state", "RandomSetup",
           "tilt_kernel", "cumulative_tables", "reference_tilts", "sample_batch"]

#: Tilts per block of :func:`tilt_blocks` (about 21 MB of outcomes with four colours; a fixed constant, so
#: results never depend on it varying).
TILT_BLOCK = 1 << 18


class TiltResult(NamedTuple):
    """Outcome of :func:`tilt`: ``fallen`` (n, colours) and the raft ``states`` after release (n, 9, colours)."""

    fallen: np.ndarray
    states: np.ndarray


@njit(cache=True)
def tilt_kernel(rng, counts, cumw, cumf, fallen, after):  # pragma: no cover - compiled
    """Sample ``fallen.shape[0]`` tilts, tilt ``i`` of the raft ``counts[i]`` (n, 9, C; a broadcast view
    for one fixed raft), into the zeroed outputs."""
    n = fallen.shape[0]
    ncol = counts.shape[2]
    nodes = cumw.shape[0]
    for i in range(n):
        u = rng.random()
        j = 0
        while j < nodes - 1 and u >= cumw[j]:
            j += 1
        for s in range(9):
            for c in range(ncol):
                for _ in range(counts[i, s, c]):
                    v = rng.random()
                    y = 0
                    while y < 9 and v >= cumf[j, s, y]:
                        y += 1
                    if y == 9:
                        fallen[i, c] += 1
                    else:
                        after[i, y, c] += 1


def _check_n(n, name="n") -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    return int(n)


def tilt(state, edge, finger, duration, *, n: int, rng, params=None,
         geometry: RaftGeometry | None = None, components=None) -> TiltResult:
    """Simulate ``n`` independent tilts of the raft ``state``.

    Parameters
    ----------
    state : array_like of int, shape (9, colours) or (3, 3, colours); or RandomSetup
        Gems per space (row by row from the north-west corner, centre 4) per colour
        (red, yellow, blue, black).  A :class:`~pyradice_lab.raft.layouts.RandomSetup` draws a fresh
        rules setup for every tilt (all setups first, then the tilts, from ``rng``).
    edge : {"north", "east", "south", "west"}
        The raft edge lowered toward the player (after rotating the raft).
    finger : str or int
        A finger space of that edge (``"left"``, ``"centre"``, ``"right"``, as the edge has them) or its index.
    duration : float
        Intended tilt time in seconds (0..``params.max_duration``); the executed time is noisy.
    n : int
        Number of tilts (batch size).  The result holds 20 bytes per tilt and colour (more with a
        RandomSetup), so ``n`` is limited (:mod:`pyradice_lab.engine.limits`, 4 GiB by default); :func:`tilt_blocks`
        gives any number of tilts a block at a time.
    rng : seed or Generator
    params : TiltParams or dict, optional
        Tilt model parameters (default ``data/tilt.toml``).
    geometry, components : optional
        The raft's geometry, and the components (a path or loaded components) whose gems and raft the state
        uses; default: a RandomSetup's own components, else the packaged ones.

    Returns
    -------
    TiltResult
        ``fallen`` int16 (n, colours) and ``states`` int16 (n, 9, colours); for every tilt
        ``fallen + states.sum(axis=1)`` equals the gems per colour of ``state`` (of the setup's gems in play).

    Examples
    --------
    >>> res = tilt(reference_state(3), "east", "left", 2.0, n=5, rng=7)
    >>> res.fallen.sum(axis=1).tolist()  # gems that fell in each of 5 tilts
    [4, 5, 5, 5, 12]
    """
    params = coerce_params(params)
    _, state, geometry = resolve(state, components, geometry)
    setup = state if isinstance(state, RandomSetup) else None
    edge = check_edge(edge)
    duration = check_duration(duration, params)
    n = check_result_size(_check_n(n), _tilt_bytes(state), name="n", item="tilt")
    gen = as_generator(rng)
    w, fates = fate_table(edge, finger, duration, params, geometry)
    cumw, cumf = cumulative_tables(w, fates)
    return _tilts(n, state, setup, gen, cumw, cumf, params)


def _tilt_bytes(state) -> int:
    """Memory per tilt of :func:`tilt`: the outcomes (20 bytes per colour), plus each tilt's setup with a
    RandomSetup."""
    if isinstance(state, RandomSetup):
        ncol = len(state.in_play)
        return 20 * ncol + 9 * ncol * 8 + 16 * int(np.sum(state.in_play))
    return 20 * state.shape[1]


def _tilts(n, state, setup, gen, cumw, cumf, params) -> TiltResult:
    counts = setup.sample(n, gen, params.spill) if setup is not None else np.broadcast_to(state, (n,) + state.shape)
    ncol = counts.shape[2]
    fallen = np.zeros((n, ncol), dtype=np.int16)
    after = np.zeros((n, 9, ncol), dtype=np.int16)
    tilt_kernel(gen, counts, cumw, cumf, fallen, after)
    return TiltResult(fallen, after)


def tilt_blocks(state, edge, finger, duration, *, n: int, rng, params=None, geometry: RaftGeometry | None = None,
                block: int = TILT_BLOCK, components=None) -> Iterator[TiltResult]:
    """:func:`tilt` for any ``n``, as consecutive blocks of at most ``block`` tilts (bounded memory).

    For a fixed raft the kernel draws its uniforms one at a time from the one generator, so the blocks
    concatenated are exactly ``tilt(..., n=n, rng=rng)`` whatever ``block`` is.  With a RandomSetup each
    block draws its setups, then its tilts (up to one block, the draws of one :func:`tilt` call).  Inputs
    are validated before the first block; ``components`` as for :func:`tilt`.
    """
    params = coerce_params(params)
    _, state, geometry = resolve(state, components, geometry)
    setup = state if isinstance(state, RandomSetup) else None
    edge = check_edge(edge)
    duration = check_duration(duration, params)
    ranges = block_ranges(_check_n(n), _check_n(block, "block"))
    gen = as_generator(rng)
    w, fates = fate_table(edge, finger, duration, params, geometry)
    cumw, cumf = cumulative_tables(w, fates)
    return (_tilts(stop - start, state, setup, gen, cumw, cumf, params) for start, stop in ranges)


def tilt_distribution(state, edge, finger, duration, *, params=None, trials: int = 100_000, rng=None,
                      geometry: RaftGeometry | None = None, model: bool = True, components=None) -> pd.DataFrame:
    """Monte Carlo distribution of the fallen gems (counts per colour), with 95% CIs.

    One row per outcome seen, most likely first: a column per colour, ``total``, ``count``, ``p`` with
    ``p_se``, ``p_ci_low``, ``p_ci_high`` (Wilson) and, with ``model=True``, ``p_model``: the exact
    probability under the tilt model (:func:`~pyradice_lab.raft.odds.fallen_joint_pmf`).

    The tilts run in blocks of :data:`TILT_BLOCK` (:func:`tilt_blocks`; for a fixed raft the same draws as one
    :func:`tilt` call) and only the counts per outcome are kept, so memory does not grow with ``trials``.

    ``state`` is one fixed raft (e.g. :func:`reference_state`, or :func:`~pyradice_lab.raft.setup_state`
    for one random setup) or :class:`~pyradice_lab.raft.layouts.RandomSetup` ``(players)``, which draws a
    new rules setup for every trial and gives the exact average over setups as ``p_model`` (about 1 s):
    the answer for the first tilt of a real game.  There is no default layout: the question decides.

    Parameters
    ----------
    state : array_like of int, shape (9, colours) or (3, 3, colours); or RandomSetup
        Gems per space (row by row from the north-west corner, centre 4) per colour, or a
        :class:`~pyradice_lab.raft.layouts.RandomSetup`.
    edge : {"north", "east", "south", "west"}
        The raft edge lowered toward the player.
    finger : str or int
        A finger space of that edge (``"left"``, ``"centre"``, ``"right"``, as the edge has them) or its index.
    duration : float
        Intended tilt time in seconds (0..``params.max_duration``).
    params : TiltParams or dict, optional
        Tilt model parameters (default ``data/tilt.toml``).
    trials : int
        Number of tilts, >= 1 (at most ``limits.count_limit("tilt_trials")``, 10**10;
        ``PYRADICE_LAB_MAX_TILT_TRIALS`` raises it).
    rng : seed or Generator, optional
        Fixes the tilts.
    geometry : RaftGeometry, optional
        The raft's geometry (default: the components').
    model : bool
        Add ``p_model``, the exact probability under the tilt model.
    components : path or Components, optional
        The gems and raft the state uses (default: a RandomSetup's own components, else the packaged ones).

    Returns
    -------
    pandas.DataFrame
        One row per outcome seen, most likely first (columns above); ``df.attrs["trials"]`` is ``trials``.

    Raises
    ------
    ValueError
        If ``state`` is not a valid raft for the components, ``edge`` or ``finger`` is unknown, ``duration``
        is out of range, ``trials`` is not a positive integer, or ``params`` is invalid.

    Examples
    --------
    >>> df = tilt_distribution(reference_state(4), "north", "centre", 1.0, trials=2000, rng=3)
    >>> list(df.columns[:6])
    ['red', 'yellow', 'blue', 'black', 'total', 'count']
    >>> int(df["count"].sum())
    2000
    >>> df = tilt_distribution(RandomSetup(2), "east", "left", 1.5, trials=20_000, rng=1)
    >>> round(float(df.loc[df["red"] >= 1, "p"].sum()), 2)  # at least one red gem; exact: odds.chance_at_least
    0.62
    """
    trials = check_count(_check_n(trials, "trials"), "tilt_trials", name="trials")  # limits.COUNT_LIMITS
    comp = resolve(state, components, geometry)[0]
    colours = list(comp.gems.colours)
    tally: dict[tuple[int, ...], int] = {}
    for res in tilt_blocks(state, edge, finger, duration, n=trials, rng=rng, params=params, geometry=geometry,
                           block=TILT_BLOCK, components=comp):
        for u, k in zip(*np.unique(res.fallen, axis=0, return_counts=True)):
            key = tuple(int(v) for v in u)
            tally[key] = tally.get(key, 0) + int(k)
    uniq = sorted(tally)  # lexicographic, as np.unique(axis=0)
    counts = [tally[u] for u in uniq]
    rows = []
    for u, k in zip(uniq, counts):
        est = proportion_estimate(int(k), trials)
        rows.append([*u, sum(u), int(k), est.value, est.se, est.ci_low, est.ci_high])
    df = pd.DataFrame(rows, columns=colours + ["total", "count", "p", "p_se", "p_ci_low", "p_ci_high"])
    if model:
        exact = fallen_joint_pmf(state, edge, finger, duration, params, geometry, components=comp)
        df = df.merge(exact.drop(columns="total").rename(columns={"p": "p_model"}), on=colours, how="left")
    df = df.sort_values(["count", "total"], ascending=[False, True], kind="stable").reset_index(drop=True)
    df.attrs["trials"] = trials
    return df


def reference_tilts(n: int = 2000, players: int = 4) -> int:
    """Bench reference: ``n`` tilts one at a time through the same kernel (run with NUMBA_DISABLE_JIT=1)."""
    state = reference_state(players)
    gen = np.random.default_rng(0)
    w, fates = fate_table("north", "centre", 1.0)
    cumw, cumf = cumulative_tables(w, fates)
    fallen = np.zeros((1, state.shape[1]), dtype=np.int16)
    after = np.zeros((1, 9, state.shape[1]), dtype=np.int16)
    state = state[None]
    for _ in range(n):
        fallen[:] = 0
        after[:] = 0
        tilt_kernel(gen, state, cumw, cumf, fallen, after)
    return n
