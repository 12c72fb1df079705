"""What the search player sees and which moves it considers (private; :mod:`.search` re-exports every name).

:func:`observe` (the visible quarry), :func:`box_counts` and :func:`determinize` (sampling the hidden quarry),
:func:`move_values` (compiled: every move of a turn valued) and :func:`candidates` (the ``k`` best).
"""

from __future__ import annotations

import functools

import numpy as np

from ..engine import aot
from ..engine._jit import njit
from .geometry import PYRAMID, quarry_geometry
from .kernel import GEO, K_OPTIONS, KERNEL_OPTIONS, R_SKF, ZERO, compile_options, evaluate, skill_options


# ----------------------------------------------------------------------------------------- what a seat sees
def observe(values, colours, occupied, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The quarry as a player sees it: ``(values, colours)`` with 0 / -1 where hidden or empty.

    A value is visible when no die rests on the die (its top face); a colour when the die shows any face (its
    top, or a side without a die beside it).  Arrays are flat quarry positions (:func:`.geometry.quarry_geometry`).

    Examples
    --------
    >>> import numpy as np
    >>> v, c = observe(np.full(47, 4), np.zeros(47, int), np.ones(47, bool), 2)
    >>> int((v > 0).sum()), int((c >= 0).sum())        # the top layer's values; colours of every outer face
    (8, 36)
    """
    geom = quarry_geometry(players)
    occ = np.asarray(occupied, dtype=bool)
    pad = np.concatenate([occ, [False]])
    top_free = ~pad[geom.covers].any(axis=1)
    side_free = ~pad[geom.sides].all(axis=1)
    val_known = occ & top_free
    col_known = occ & (top_free | side_free)
    return (np.where(val_known, values, 0).astype(np.int64), np.where(col_known, colours, -1).astype(np.int64))


def box_counts(setup, players: int) -> np.ndarray:
    """Dice of each colour in the box for ``players`` (one copy for 2 players, two for 3-4)."""
    return np.array(setup.catalogue.palette.counts, dtype=np.int64) * (1 if players == 2 else 2)


def determinize(obs_values, obs_colours, occupied, seen_colours, box, n_samples: int, *, rng) -> tuple:
    """``n_samples`` quarries consistent with an observation: arrays ``(values, colours)`` of shape (n_samples, n).

    Hidden values are fair d6 rolls; hidden colours are drawn without replacement from ``box`` (dice per colour)
    minus every colour seen (``obs_colours`` and ``seen_colours``, e.g. the dice in the pyramids).  Visible
    entries are copied; empty positions get value 1 and colour 0 (never read).

    Examples
    --------
    >>> import numpy as np
    >>> occ = np.ones(47, bool)
    >>> v, c = determinize(np.zeros(47, int), np.full(47, -1), occ, [], np.array([12] * 5), 3, rng=0)
    >>> v.shape, bool(((v >= 1) & (v <= 6)).all()), bool(np.bincount(c[0], minlength=5).max() <= 12)
    ((3, 47), True, True)
    """
    gen = np.random.default_rng(rng)
    obs_values = np.asarray(obs_values, dtype=np.int64)
    obs_colours = np.asarray(obs_colours, dtype=np.int64)
    occ = np.asarray(occupied, dtype=bool)
    if obs_colours.shape != obs_values.shape or occ.shape != obs_values.shape:
        raise ValueError(f"obs_values, obs_colours and occupied must have one shape, got {obs_values.shape}, "
                         f"{obs_colours.shape} and {occ.shape}")
    hv = occ & (obs_values == 0)
    hc = occ & (obs_colours < 0)
    left = np.asarray(box, dtype=np.int64).copy()
    seen = np.concatenate([obs_colours[obs_colours >= 0], np.asarray(seen_colours, dtype=np.int64).ravel()])
    seen = seen[seen >= 0]
    left -= np.bincount(seen, minlength=len(left))[:len(left)]
    if (left < 0).any() or left.sum() < hc.sum():
        raise ValueError("obs_colours: more dice of a colour seen than the box holds")
    values = np.where(occ, obs_values, 1)[None, :].repeat(n_samples, axis=0)
    colours = np.where(occ, obs_colours, 0)[None, :].repeat(n_samples, axis=0)
    values[:, hv] = gen.integers(1, 7, size=(n_samples, int(hv.sum())))
    k = int(hc.sum())
    if k:
        pool = np.repeat(np.arange(len(left), dtype=np.int64), left)
        colours[:, hc] = gen.permuted(np.broadcast_to(pool, (n_samples, len(pool))), axis=1)[:, :k]
    return np.ascontiguousarray(values), np.ascontiguousarray(colours)


# ----------------------------------------------------------------------------------------- candidates
@njit(**KERNEL_OPTIONS)  # as the game kernels: no reference counting (it allocates nothing), no rewrite passes
def move_values(vals, cols, qvals, qcols, avail, places, mode, tab, discs, geo, work, opt, saved, terms, tmp, out):
    """Every (die, space, skill option) of one turn with its value (the search of :mod:`.policies` without the
    choice): ``out[m] = (take, place, option, milli-VP)``; returns the number of moves.

    ``vals``/``cols``: the mover's pyramid (restored on return); ``qvals``/``qcols``: the quarry (only the
    ``avail`` entries are read); ``mode`` 1 greedy / 2 lookahead valuation.
    """
    m = ZERO                      # an int64 start, not a literal: one type-inference pass less (kernel.ZERO)
    for ia in range(avail.shape[0]):
        i = avail[ia]
        for ip in range(places.shape[0]):
            pl = places[ip]
            vals[pl] = qvals[i]
            cols[pl] = qcols[i]
            n_opt = skill_options(geo[pl, 0], vals, cols, pl, tab, geo, opt)
            for o in range(-1, n_opt):
                only = -1
                dst = terms
                if o >= 0:
                    for a in range(opt[o, 0]):
                        s = opt[o, 1 + 3 * a]
                        saved[2 * a] = vals[s]
                        saved[2 * a + 1] = cols[s]
                        vals[s] = opt[o, 2 + 3 * a]
                        cols[s] = opt[o, 3 + 3 * a]
                    dst = tmp
                    if tab[R_SKF, geo[pl, 0]] != 1:
                        only = geo[opt[o, 1], 0]
                val = evaluate(vals, cols, mode, only, tab, discs, geo, work, terms, dst)
                if o >= 0:
                    for a in range(opt[o, 0]):
                        s = opt[o, 1 + 3 * a]
                        vals[s] = saved[2 * a]
                        cols[s] = saved[2 * a + 1]
                out[m, 0] = i
                out[m, 1] = pl
                out[m, 2] = o
                out[m, 3] = val
                m += 1
            vals[pl] = 0
            cols[pl] = -1
    return m


#: :func:`move_values` called from Python: its ahead-of-time build when ``pyradice-lab compile`` made one
_MOVE_VALUES = aot.entry(move_values)


@njit(**KERNEL_OPTIONS)
def avail_places(occ, qgeo, vals, geo, avail, places):
    """The dice that may be taken (an occupied quarry position showing at least 3 faces: free sides and an
    uncovered top) into ``avail`` and the pyramid spaces a die may go (empty, on the ground or on two placed
    dice) into ``places``, both in index order, as the game kernel finds them; returns ``(n_avail, n_places)``.
    ``qgeo``: :func:`.sim.quarry_table` (side neighbours, then the dice above)."""
    n = occ.shape[0]
    n_av = ZERO
    for i in range(n):
        if occ[i] == 0:
            continue
        faces = ZERO
        top = True
        for a in range(4):
            q = qgeo[i, a]
            if q >= n or occ[q] == 0:
                faces += 1
            q = qgeo[i, 4 + a]
            if q < n and occ[q] != 0:
                top = False
        if top:
            faces += 1
        if faces >= 3:
            avail[n_av] = i
            n_av += 1
    n_pl = ZERO
    for s in range(vals.shape[0]):
        if vals[s] == 0 and (geo[s, 1] < 0 or (vals[geo[s, 1]] != 0 and vals[geo[s, 2]] != 0)):
            places[n_pl] = s
            n_pl += 1
    return n_av, n_pl


@njit(**KERNEL_OPTIONS)
def best_moves(moves, m, n_spaces, k, per_pair, order, seen, out):
    """The ``k`` best of the ``m`` valued moves (rows ``(take, place, option, milli-VP)``) into ``out``, best
    first, ties in enumeration order, at most ``per_pair`` of one (die, space); returns how many.  ``order``
    (m,) and ``seen`` (quarry positions x ``n_spaces``) are scratch."""
    for i in range(m):        # a stable insertion sort, best first
        v = moves[i, 3]
        j = i
        while j > 0 and moves[order[j - 1], 3] < v:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    for i in range(m):
        seen[moves[i, 0] * n_spaces + moves[i, 1]] = 0
    c = ZERO
    for j in range(m):
        if c == k:
            break
        r = order[j]
        key = moves[r, 0] * n_spaces + moves[r, 1]
        if seen[key] < per_pair:
            for a in range(4):
                out[c, a] = moves[r, a]
            c += 1
        seen[key] += 1
    return c


_AVAIL_PLACES = aot.entry(avail_places)
_BEST_MOVES = aot.entry(best_moves)


@functools.cache
def _quarry_table(players: int) -> np.ndarray:
    """:func:`.sim.quarry_table` for ``players``, made once per process (read-only: it is shared)."""
    from .sim import quarry_table

    t = quarry_table(players)
    t.setflags(write=False)
    return t


def _available(occ, geom) -> np.ndarray:
    """The quarry positions that may be taken (numpy; the readable position and the advisor use it)."""
    pad = np.concatenate([occ.astype(bool), [False]])
    faces = (~pad[geom.sides]).sum(axis=1) + ~pad[geom.covers].any(axis=1)
    return np.flatnonzero(occ.astype(bool) & (faces >= 3)).astype(np.int64)


def candidates(vals, cols, obs_values, obs_colours, occupied, tab, discs, players: int, *, k: int = 8,
               per_pair: int = 2) -> np.ndarray:
    """The ``k`` best moves of one turn by the lookahead valuation: rows ``(take, place, option, milli-VP)``.

    At most ``per_pair`` skill options of one (die, space) are kept, so the candidates are different moves
    rather than one move with many equivalent skill uses.  Ties keep the enumeration order (die, space, option).
    (Compiled: :func:`avail_places`, :func:`move_values` and :func:`best_moves`.)
    """
    occ = np.ascontiguousarray(occupied, dtype=np.int64)
    n = occ.shape[0]
    v = np.array(vals, dtype=np.int64)
    c = np.array(cols, dtype=np.int64)
    ov = np.ascontiguousarray(obs_values, dtype=np.int64)
    avail = np.empty(n, np.int64)
    places = np.empty(PYRAMID.n, np.int64)
    with compile_options():
        n_av, n_pl = _AVAIL_PLACES(occ, _quarry_table(players), v, GEO, avail, places)
    avail, places = avail[:n_av], places[:n_pl]
    if (ov[avail] == 0).any():          # cannot happen (module docstring): a guard, not a branch
        raise AssertionError("an available die's value is hidden")
    moves = np.empty((n_av * n_pl * (K_OPTIONS + 1), 4), dtype=np.int64)   # rows :m written
    z = np.zeros                  # the scratch arrays of workspace() move_values uses: work, opt, saved, terms, tmp
    out = np.empty((max(int(k), 0), 4), np.int64)
    with compile_options():
        m = _MOVE_VALUES(v, c, ov, np.ascontiguousarray(obs_colours, dtype=np.int64), avail, places, np.int64(2), tab,
                         np.ascontiguousarray(discs, dtype=np.int64), GEO, z(46, np.int64),
                         z((K_OPTIONS, 19), np.int64), z(12, np.int64), z(10, np.int64), z(10, np.int64), moves)
        got = _BEST_MOVES(moves, np.int64(m), np.int64(PYRAMID.n), np.int64(k), np.int64(per_pair),
                          np.empty(max(m, 1), np.int64), np.empty(n * PYRAMID.n, np.int64), out)
    return out[:got]
