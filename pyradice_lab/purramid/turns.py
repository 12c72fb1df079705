"""Batched Monte Carlo of single turns (bonus turns included) under any policy.

``n`` turns are held as arrays (batch axis first): board, placed spaces, dice left, dice of the turn
segment, tokens, tiles so far.  Each step, the turns about to roll are grouped by state; each group draws
its rolls as uniform codes in ``[0, 6**d)`` -- one code is one ordered roll of ``d`` dice -- mapped to
sorted-roll rows by :func:`.chance.code_rows`, and looks its choices up in the policy's per-row table
(:meth:`~.advisor.TurnSolver.decision_table` for the optimal policy, the compiled greedy rule for the
human-style ones).  So the sampler and the exact solver read the same chance description, and the
optimal policy's Monte Carlo mean must match its exact value within the confidence interval.

Also here: the random-core kernel of the benchmark, :func:`placeable_rolls` (roll + "can anything be
placed" for a board), and :func:`placeable_table`.

Examples
--------
>>> df = simulate_turns(2000, "A", policy="greedy", rng=1)
>>> est = turn_value(df)
>>> est.value > 0 and est.n == 2000
True
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ..engine.limits import check_result_size
from ..engine.rng import as_generator, block_ranges
from ..engine.stats import Estimate, mean_estimate, proportion_estimate
from .board import is_valid, rows_spanned
from .chance import code_rows, count_masks
from .components import coerce_components, default_components, load_layout

__all__ = ["simulate_turns", "turn_value", "summarize_turns", "placeable_table", "placeable_rolls", "TURN_BLOCK",
           "ROW_BYTES"]

#: Turns simulated at a time (a fixed constant, so the numbers never depend on it; up to one block the
#: turns are those of a single batch).
TURN_BLOCK = 1 << 18
#: Memory of one row of the result, counting the copy made when blocks are joined.
ROW_BYTES = 150


def _resolve_policy(policy, objective, yarn_value, bonus, engine):
    from .policies import OptimalPolicy, optimal, parse_policy

    if policy is None or (isinstance(policy, str) and policy == "optimal"):
        return optimal(objective, yarn_value, bonus, engine=engine)
    if isinstance(policy, OptimalPolicy):
        return policy
    return parse_policy(policy)


def simulate_turns(n: int, layout="A", covered=(), *, policy="optimal", turn_dice: int = 5, yarn: int = 0,
                   objective="tiles", yarn_value: float | None = None, bonus: str = "auto",
                   rng=None, engine: str = "compiled", yarn_tokens: bool = True, components=None) -> pd.DataFrame:
    """Simulate ``n`` independent turns from the same board; one row per turn.

    Parameters
    ----------
    n : int
        Number of turns.
    layout, covered : board side and the covered spaces ``[(row, col), ...]`` at the start of the turn.
    policy : "optimal", "greedy", "stop_after:K", "risk:P" or a policy object
    turn_dice, yarn : dice of the turn (5; fewer for a bonus turn) and yarn tokens held.
    objective, yarn_value, bonus, engine, yarn_tokens : as in :func:`~.advisor.advise` (used by the
        optimal policy and for the ``value`` column; ``yarn_tokens=False``: no tokens on the 8s).
    rng : seed or Generator
        Turns are simulated in blocks of :data:`TURN_BLOCK` (bounded working memory), each drawing from
        this one generator in turn; the result (one row per turn) is limited by
        :mod:`pyradice_lab.engine.limits` (``n`` times :data:`ROW_BYTES`).
    components : path or Components, optional
        The sides ``layout`` names and the default ``yarn_value`` (default: the packaged components).

    Returns
    -------
    DataFrame
        ``tiles`` (this turn, bonus turns included), ``value`` (tiles + yarn_value x (tokens won -
        tokens spent), or 1/0 for reaching ``k`` tiles with the ``("at_least", k)`` objective),
        ``burst`` (the first turn segment burst), ``segments``, ``bonus_turns``, ``yarn_won``,
        ``yarn_spent``, ``placements``.

    Raises
    ------
    ValueError
        If ``n`` is not a non-negative integer (or the table would be too large), ``layout`` is unknown or has
        more than 64 spaces, ``covered`` names spaces not on the board, ``turn_dice`` is not in 1..5, ``yarn``
        not in 0..12 (or not 0 with ``yarn_tokens=False``), or ``policy``/``objective``/``bonus``/``engine``
        is not one of the allowed values.
    TypeError
        If ``yarn_tokens`` is not a bool, or ``rng`` is not a seed or Generator.

    Examples
    --------
    >>> df = simulate_turns(200, policy="stop_after:2", rng=1)
    >>> df.shape, round(float(df["tiles"].mean()), 2)
    ((200, 8), 2.66)
    """
    from .advisor import MAX_TURN_DICE, MAX_YARN, _check_int, _spaces_mask, parse_objective

    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be a positive integer number of turns, got {n!r}")
    n = check_result_size(int(n), ROW_BYTES, name="n", item="turn")
    comp = coerce_components(components)
    if yarn_value is None and comp.config.yarn_value != default_components().config.yarn_value:
        yarn_value = comp.config.yarn_value
    L = load_layout(layout, comp)
    if L.n_spaces > 64:
        raise ValueError(f"layout has {L.n_spaces} spaces; the turn simulator handles at most 64")
    D0 = _check_int(turn_dice, "turn_dice", 1, MAX_TURN_DICE)
    y0 = _check_int(yarn, "yarn", 0, MAX_YARN)
    cov0 = _spaces_mask(L, covered, "covered")
    obj = parse_objective(objective)
    pol = _resolve_policy(policy, obj, yarn_value, bonus, engine)
    if hasattr(pol, "turn_value"):  # an optimal policy plays (and is scored by) its own objective
        obj = parse_objective(pol.objective)
    if not isinstance(yarn_tokens, bool):
        raise TypeError(f"yarn_tokens must be True or False, got {yarn_tokens!r}")
    if not yarn_tokens and yarn:
        raise ValueError(f"yarn must be 0 when yarn_tokens is False, got {yarn}")
    yv = comp.config.yarn_value if yarn_value is None else float(yarn_value)
    gen = as_generator(rng)
    tables: dict = {}
    stops: dict = {}
    frames = [_simulate_block(stop - start, L, cov0, D0, y0, obj, pol, yv, yarn_tokens, gen, tables, stops)
              for start, stop in block_ranges(n, TURN_BLOCK)]
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def _simulate_block(n, L, cov0, D0, y0, obj, pol, yv, yarn_tokens, gen, tables, stops) -> pd.DataFrame:
    """``n`` turns in lockstep (batch axis first), drawing from ``gen``; ``tables``/``stops`` cache the
    policy's choices by state across blocks."""
    cov = np.full(n, cov0, dtype=np.uint64)
    P = np.zeros(n, dtype=np.uint64)
    d = np.full(n, D0, dtype=np.int64)
    D = np.full(n, D0, dtype=np.int64)
    y = np.full(n, y0, dtype=np.int64)
    nplace = np.zeros(n, dtype=np.int64)
    phase = np.zeros(n, dtype=np.int64)  # 0 roll, 1 decide, 2 done
    tiles = np.zeros(n, dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    spent = np.zeros(n, dtype=np.int64)
    bonus_n = np.zeros(n, dtype=np.int64)
    segs = np.ones(n, dtype=np.int64)
    first_burst = np.zeros(n, dtype=bool)
    placements = np.zeros(n, dtype=np.int64)
    tokens0 = L.eights_mask() if yarn_tokens else 0

    def need_of(t):
        return max(obj.k - int(t), 0) if obj.kind == "at_least" else 0

    while True:
        rolling = np.flatnonzero(phase == 0)
        deciding = np.flatnonzero(phase == 1)
        if len(rolling) == 0 and len(deciding) == 0:
            break
        if len(rolling):
            # one code per rolling turn, drawn in index order per dice count
            rows = np.empty(len(rolling), dtype=np.int64)
            for dd in np.unique(d[rolling]):
                sel = d[rolling] == dd
                rows[sel] = code_rows(int(dd))[gen.integers(0, 6 ** int(dd), size=int(sel.sum()))]
            keys = np.stack([cov[rolling], P[rolling], d[rolling].astype(np.uint64), D[rolling].astype(np.uint64),
                             y[rolling].astype(np.uint64), tiles[rolling].astype(np.uint64)], axis=1)
            uniq, inv = np.unique(keys, axis=0, return_inverse=True)
            inv = inv.ravel()
            for gi, key in enumerate(uniq):
                c_, p_, dd, DD, yy, tt = (int(v) for v in key)
                tk = (c_, p_, dd, DD, yy, need_of(tt))
                tab = tables.get(tk)
                if tab is None:
                    tab = pol.table(L, c_, p_, dd, DD, yy, need_of(tt), yarn_tokens=yarn_tokens)
                    tables[tk] = tab
                kind_t, space_t, count_t = tab
                members = np.flatnonzero(inv == gi)
                idx = rolling[members]
                r = rows[members]
                kind = kind_t[r]
                burst = idx[kind == 0]
                first_burst[burst] |= segs[burst] == 1
                phase[burst] = 2
                rer = idx[kind == 2]
                y[rer] -= 1
                spent[rer] += 1
                pl = kind == 1
                ip = idx[pl]
                P[ip] |= np.left_shift(np.uint64(1), space_t[r[pl]].astype(np.uint64))
                d[ip] -= count_t[r[pl]]
                nplace[ip] += 1
                placements[ip] += 1
                phase[ip] = 1
        if len(deciding):
            keys = np.stack([cov[deciding], P[deciding], d[deciding].astype(np.uint64),
                             D[deciding].astype(np.uint64), y[deciding].astype(np.uint64),
                             tiles[deciding].astype(np.uint64), nplace[deciding].astype(np.uint64)], axis=1)
            uniq, inv = np.unique(keys, axis=0, return_inverse=True)
            inv = inv.ravel()
            for gi, key in enumerate(uniq):
                c_, p_, dd, DD, yy, tt, npl = (int(v) for v in key)
                sk = (c_, p_, dd, DD, yy, need_of(tt), npl)
                st = stops.get(sk)
                if st is None:
                    stop = dd == 0 or pol.should_stop(L, c_, p_, dd, DD, yy, need_of(tt), placements=npl,
                                                                yarn_tokens=yarn_tokens)
                    ok = stop and is_valid(L, p_, c_)
                    st = (stop, ok, L.tiles_of(p_) if ok else 0, (p_ & tokens0 & ~c_).bit_count() if ok else 0,
                          ok and DD > 1 and (dd == 0 or rows_spanned(L, p_) >= 3))
                    stops[sk] = st
                idx = deciding[inv == gi]
                stop, ok, t, e, bon = st
                if not stop:
                    phase[idx] = 0
                    continue
                if not ok:
                    first_burst[idx] |= segs[idx] == 1
                    phase[idx] = 2
                    continue
                tiles[idx] += t
                won[idx] += e
                y[idx] = np.minimum(y[idx] + e, 12)
                cov[idx] |= np.uint64(p_)
                if bon:
                    D[idx] -= 1
                    d[idx] = D[idx]
                    P[idx] = 0
                    nplace[idx] = 0
                    bonus_n[idx] += 1
                    segs[idx] += 1
                    phase[idx] = 0
                else:
                    phase[idx] = 2
    if obj.kind == "tiles":
        value = tiles + yv * (won - spent)
    else:
        value = (tiles >= obj.k).astype(float)
    return pd.DataFrame({"tiles": tiles, "value": value.astype(float), "burst": first_burst, "segments": segs,
                         "bonus_turns": bonus_n, "yarn_won": won, "yarn_spent": spent, "placements": placements})


def turn_value(df: pd.DataFrame) -> Estimate:
    """Mean of the ``value`` column with its standard error and 95% CI."""
    return mean_estimate(df["value"].to_numpy())


def summarize_turns(df: pd.DataFrame) -> dict:
    """Value, tiles and first-segment burst rate of simulated turns, each with SE and CI (flat dict)."""
    out = {}
    out.update(mean_estimate(df["value"].to_numpy()).to_dict("value"))
    out.update(mean_estimate(df["tiles"].to_numpy()).to_dict("tiles"))
    out.update(proportion_estimate(int(df["burst"].sum()), len(df)).to_dict("burst"))
    out.update(mean_estimate(df["bonus_turns"].to_numpy()).to_dict("bonus_turns"))
    out["n"] = len(df)
    return out


# ------------------------------------------------------------------------------------------ random core
def placeable_table(layout, covered: int = 0, placed: int = 0, d: int = 5) -> np.ndarray:
    """Bool per ordered roll code of ``d`` dice: can any die subset go on some empty space (any space, no
    conditions -- the rules' immediate burst test)?"""
    L = load_layout(layout)
    cm = count_masks(d)
    free = L.all_mask & ~covered & ~placed
    targets = sorted({L.numbers[i] for i in range(L.n_spaces) if free >> i & 1 and L.numbers[i] <= 6 * d})
    by_row = (cm[:, targets] != 0).any(axis=1) if targets else np.zeros(cm.shape[0], dtype=bool)
    return by_row[code_rows(d)]


def placeable_rolls(n: int, table: np.ndarray, *, rng=None) -> int:
    """Roll ``n`` times (the dice of ``table``'s size) and count the rolls that can be placed."""
    gen = as_generator(rng)
    codes = gen.integers(0, len(table), size=n, dtype=np.int16 if len(table) <= 32767 else np.int32)
    return int(np.count_nonzero(table[codes]))
