"""Compiled Pyradice: the rules, scoring, skills and policies of :mod:`.rules` on plain arrays (numba).

Everything here mirrors a readable function of the spec (:mod:`.goals`, :mod:`.cards`, :mod:`.skills`,
:mod:`.scoring`, :mod:`.policies`) for the built-in kinds.  The kernels do not branch on kind names: every
built-in kind is translated once, in Python, into a few numbers of one generic form (:data:`GOAL_FORMS`,
:data:`CARD_FORMS`, :data:`SKILL_FORMS`), packed into one integer table ``tab`` by :func:`pack_setup`:

- a goal is a value mask every die must meet, plus a relation (``==``, ``!=``, ``<=``) on values or colours
  that must hold for every pair of dice of a set (all pairs, side-by-side pairs or mirror pairs), plus the most
  dice the goal can hold (colours all different: the number of colours);
- a card is either a sum of per-die weights (by value or by level) or ``table[statistic]`` (matching dice,
  groups of a given size, largest group, different values, levels spanned);
- a skill changes one die (``value map``: allowed new values for each old value, optionally only values shown
  by a touching die), two dice (swap or flip both, optionally touching only) or a whole level (flip or +1).

Three compiled functions (:func:`evaluate`, :func:`skill_options`, :func:`play_batch` with the search inlined)
keep the first call of a process with an empty numba cache short (bench row "pyradice first
simulate_games(100)"): numba's compile time grows with the amount of code and with every extra function (each
is compiled alone and again inside its callers), so the rules are written once, generically, without
allocations (scratch arrays come from :func:`workspace`), integer division (each ``//`` or ``%`` adds an
exception path) or literal arguments (a literal compiles a second specialisation); loop counters start from int64
constants (:data:`ZERO`: a literal start costs type inference one more pass over the function), ``np.int64(x)``
truncates floats (``int(x)`` is a separate numba compilation), and the kernels are compiled without reference
counting or numba's rewrite passes (:data:`KERNEL_OPTIONS`) at LLVM -O1 (:func:`compile_options`).  With ``NUMBA_DISABLE_JIT=1`` this is plain Python: the reference path of the
benchmark.  The test suite checks that these kernels and the readable engine play identical games from
identical deals.

Conventions: pyramid ``vals``/``cols`` are int64 arrays of 21 (0 / -1 when empty); quarry arrays are flat with a
padding index ``n`` meaning "no die / off the board"; scores inside the search are int64 milli-VP.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from ..engine._jit import njit
from .geometry import PYRAMID

__all__ = ["play_batch", "workspace", "compile_options", "K_OPTIONS", "GEO", "pack_setup", "evaluate", "skill_options",
           "GOAL_FORMS", "CARD_FORMS", "SKILL_FORMS", "score_pyramid_arrays"]

K_OPTIONS = 200            # skill option buffer: the most options any built-in kind can produce (190)
#: Packed pyramid geometry, one row per space: level, the two supports, the six touching spaces (-1 padded).
GEO = np.ascontiguousarray(np.concatenate([PYRAMID.level_of[:, None], PYRAMID.supports, PYRAMID.adjacency], axis=1),
                           dtype=np.int64)

# Rows of the packed setup ``tab`` (columns: level 0..6 unless stated).
R_SKF, R_SKA, R_SKB = 0, 1, 2      # skill family (-1 none, 0 one die, 1 two dice, 2 whole level) and its 2 flags
R_VMAP = 3                         # rows 3..9: one-die skills, row 3 + v: bit mask of new values for old value v
R_GPAIR = 10                       # goal pair set (-1 no goal, 0 none, 1 all pairs, 2 side by side, 3 mirror)
R_GMASK, R_GREL, R_GATTR, R_GCAP = 11, 12, 13, 14   # value mask, relation, 0 value / 1 colour, max dice
R_BONUS = 15                       # rows 15..21: lookahead bonus with e = 0..6 empty spaces (milli-VP)
R_START = 22                       # first space of each level
R_PAIRS = 23                       # rows 23..28: row 23 + i, bit j set when dice i < j of the level form a pair
R_CARD = 29                        # rows 29..32, one per card: stat, table length, group size, reads values,
C_WV, C_WL, C_TAB = 4, 11, 18      # weights by value (cols 4..10) and by level (11..17), table (18..)
GOAL_MVP = 5000                    # scoring.GOAL_VP in milli-VP
#: Starting values of the kernels' loop counters and accumulators, as int64 (not Python ints): a variable
#: started from a literal (``n = 0``) is typed ``Literal[int](0)`` until numba's type inference has seen the
#: loop that changes it, and every such change costs one more pass of type inference over the whole function.
#: Started from these, every function is typed in one pass plus the confirming one (issue 16: first call).
ZERO, ONE, MINUS_ONE, LOWEST = np.int64(0), np.int64(1), np.int64(-1), np.int64(-(1 << 62))

#: Relation -> allowed outcomes of comparing a < b, a == b, a > b (bits 0, 1, 2): ==, != and <=.
_RELATION = {0: 0b010, 1: 0b101, 2: 0b011}
#: Goal kind id -> (pair set, relation, attribute, cap): see the module docstring; cap -1 = number of colours.
GOAL_FORMS = {0: (0, 0, 0, 99),    # values_in: the value mask only
              1: (1, 1, 0, 99),    # all_different
              2: (1, 0, 0, 99),    # all_same
              3: (1, 2, 0, 99),    # ascending (every earlier die <= every later one)
              4: (3, 0, 0, 99),    # mirror
              5: (1, 1, 1, -1),    # all_colours_different (impossible beyond the number of colours)
              6: (1, 0, 1, 99),    # all_colours_same
              7: (2, 1, 0, 99),    # neighbours_differ
              8: (2, 1, 1, 99)}    # colour_neighbours_differ
#: Card kind id -> statistic: 0 matching dice, 1 sum of weights, 2 groups of exactly ``size``, 4 largest group,
#: 5 different values, 6 levels spanned (values_in and level_table are sums of weights).
CARD_FORMS = {0: 0, 1: 1, 2: 2, 3: 1, 4: 4, 5: 5, 6: 6}
_ALL = 0b1111110
#: Skill kind id -> (family, flag a, flag b, value map v -> mask of new values) (one die: b = copy a touching value;
#: two dice: a = touching only, b = flip both instead of swapping; whole level: a = +1 instead of flip).
SKILL_FORMS = {
    0: (0, 0, 0, lambda v: _ALL & ~(1 << v) & ~(1 << (7 - v))),                   # tip
    1: (0, 0, 0, lambda v: sum(1 << w for w in (v - 1, v + 1) if 1 <= w <= 6)),   # nudge
    2: (0, 0, 0, lambda v: 1 << (7 - v)),                                          # flip
    3: (1, 1, 0, None),                                                            # swap_adjacent
    4: (0, 0, 0, lambda v: _ALL & ~(1 << v)),                                      # set
    5: (0, 0, 1, lambda v: _ALL & ~(1 << v)),                                      # copy_neighbour
    6: (2, 0, 0, None),                                                            # flip_level
    7: (2, 1, 0, None),                                                            # raise_level
    8: (1, 0, 0, None),                                                            # swap_any
    9: (1, 0, 1, None),                                                            # flip_two
}


def pack_setup(skills: dict, goals: dict, cards, n_colours: int) -> np.ndarray:
    """The ``tab`` array of the kernels from resolved tokens.

    ``skills``: level -> (kind id, params); ``goals``: level -> (kind id, params, lookahead bonus by empty
    spaces); ``cards``: 4 x (kind id, params).  Every kind id must be a key of the ``*_FORMS`` tables.
    """
    width = C_TAB + 22
    tab = np.zeros((R_CARD + 4, width), dtype=np.int64)
    tab[R_SKF, :7] = -1
    tab[R_GPAIR, :7] = -1
    tab[R_START, 1:7] = PYRAMID.level_start[1:7]
    for lvl, (kid, _params) in skills.items():
        fam, a, b, vmap = SKILL_FORMS[kid]
        tab[R_SKF, lvl], tab[R_SKA, lvl], tab[R_SKB, lvl] = fam, a, b
        if vmap is not None:
            for v in range(1, 7):
                tab[R_VMAP + v, lvl] = vmap(v)
    for lvl, (kid, params, bonus) in goals.items():
        pair, rel, attr, cap = GOAL_FORMS[kid]
        tab[R_GPAIR, lvl], tab[R_GREL, lvl], tab[R_GATTR, lvl] = pair, _RELATION[rel], attr
        n = 7 - lvl
        for i in range(n):
            tab[R_PAIRS + i, lvl] = sum(1 << j for j in range(i + 1, n)
                                        if pair == 1 or (pair == 2 and j == i + 1) or (pair == 3 and j == n - 1 - i))
        tab[R_GCAP, lvl] = n_colours if cap < 0 else cap
        vals = params.get("values", ()) if kid == 0 else range(1, 7)
        tab[R_GMASK, lvl] = sum(1 << v for v in vals)
        tab[R_BONUS:R_BONUS + 7, lvl] = bonus
    for j, (kid, params) in enumerate(cards):
        r = R_CARD + j
        stat = CARD_FORMS[kid]
        table = list(params.get("table", (0,)))
        if kid == 1:                       # level_table: a weight per level
            tab[r, C_WL:C_WL + 7] = [table[min(k, len(table) - 1)] for k in range(7)]
        if kid == 3:                       # values_in: a weight per value
            tab[r, C_WV:C_WV + 7] = [params["points"] if v in params["values"] else 0 for v in range(7)]
        if kid == 2:                       # isolated_groups: points per group of the size
            table = [params["points"] * i for i in range(22)]
        tab[r, :4] = stat, len(table), params.get("size", 0), int(kid in (3, 5))
        tab[r, C_TAB:C_TAB + len(table)] = table
    return tab


@contextmanager
def compile_options():
    """Compile the kernels at LLVM optimisation level 1 instead of numba's default 3 (while inside).

    Measured: the compiled games run as fast (the kernels are branchy integer code that -O3 does not speed
    up) and the first call of a process with an empty cache spends about a third less time in LLVM.  Only
    numba's default level is lowered: an explicit ``NUMBA_OPT`` in the environment is left alone.  The level
    is a process-wide numba setting, so code compiled by another thread meanwhile also gets -O1.
    """
    import os

    from numba.core import config

    old = config.OPT
    lower = "NUMBA_OPT" not in os.environ and int(old) > 1
    if lower:
        config.OPT = type(old)(1)
    try:
        yield
    finally:
        if lower:
            config.OPT = old


def _kernel_options() -> dict:
    """numba options of the three kernels (issue 16: the first call of a process with an empty numba cache).

    - ``cache``: compiled once per machine (:mod:`pyradice_lab.engine._jit` keys the cache on the sources);
    - ``_nrt=False`` (numba's private switch, used only where ``numba.core.options.DefaultOptions`` has it): no
      reference counting.  The kernels allocate nothing (scratch arrays come from :func:`workspace`) and
      return only integers, so the reference counts of their array arguments and views never need updating;
      without the updates numba emits about a fifth less LLVM IR (compiles ~0.3 s faster) and the greedy games
      run ~1.2x faster;
    - ``no_rewrites=True``: skips numba's IR rewrite passes (constant getitems and raises, array expressions,
      dead-branch pruning), which have nothing to rewrite in these kernels (~0.1 s less compiling).

    The games are bit-identical with and without these options (``tests/pyradice/test_kernel_frozen.py``).
    """
    opts: dict = {"cache": True}
    try:
        from numba.core.options import DefaultOptions
    except ImportError:  # pragma: no cover - depends on the numba version: plain cached kernels
        return opts
    for name, value in (("_nrt", False), ("no_rewrites", True)):
        if hasattr(DefaultOptions, name):
            opts[name] = value
    return opts


KERNEL_OPTIONS = _kernel_options()


# ----------------------------------------------------------------------------------------- scoring
@njit(**KERNEL_OPTIONS)
def evaluate(vals, cols, mode, only, tab, discs, geo, work, base, out):
    """scoring.evaluate in milli-VP (mode 1 greedy / final score, 2 lookahead); returns the total.

    Writes the nine terms (levels 1..5 at ``out[1..5]``, cards at ``out[6..9]``).  ``only < 0`` computes every
    term; ``only = k`` recomputes level k's goal and the cards reading values and copies the rest from ``base``
    (only dice values of level k changed since ``base`` was computed).  ``work``: 46 ints of scratch; with
    ``only < 0`` the last 4 receive the points of each card.
    """
    total = ZERO
    for k in range(1, 6):
        term = base[k]
        if only < 0 or only == k:
            term = 0
            pair = tab[R_GPAIR, k]
            if pair >= 0:                              # goals.py: check (complete) / consistent (partial)
                s0 = tab[R_START, k]
                n = 7 - k
                mask = tab[R_GMASK, k]
                rel = tab[R_GREL, k]
                attr = tab[R_GATTR, k]
                empty = ZERO
                ok = n <= tab[R_GCAP, k]
                for i in range(n):
                    v = vals[s0 + i]
                    if v == 0:
                        empty += 1
                    elif (mask >> v) & 1 == 0:
                        ok = False
                    pairs = tab[R_PAIRS + i, k]
                    for jj in range(i + 1, n):
                        if v != 0 and vals[s0 + jj] != 0 and (pairs >> jj) & 1 == 1:
                            a = v + attr * (cols[s0 + i] - v)             # the value, or the colour
                            b = vals[s0 + jj] + attr * (cols[s0 + jj] - vals[s0 + jj])
                            if (rel >> (1 + (a > b) - (a < b))) & 1 == 0:
                                ok = False
                if ok and empty == 0:
                    term = GOAL_MVP
                elif ok and mode == 2:
                    term = tab[R_BONUS + empty, k]
        out[k] = term
        total += term
    for j in range(4):                                 # cards.py
        r = R_CARD + j
        stat = tab[r, 0]
        pts = base[6 + j]
        if only < 0 or tab[r, 3] == 1:
            colour = discs[j]
            count = ZERO
            acc = ZERO
            vbits = ZERO
            bits = ZERO
            for s in range(21):
                if vals[s] != 0 and cols[s] == colour:
                    count += 1
                    acc += tab[r, C_WV + vals[s]] + tab[r, C_WL + geo[s, 0]]
                    vbits |= 1 << vals[s]
                    bits |= 1 << geo[s, 0]
            x = count
            if stat == 5:
                bits = vbits
            if stat == 5 or stat == 6:
                x = ZERO
                while bits:
                    x += bits & 1
                    bits >>= 1
            elif stat == 2 or stat == 4:               # groups of touching matching dice (work: seen, stack)
                x = ZERO
                for s in range(21):
                    work[s] = 0
                for s in range(21):
                    if vals[s] == 0 or cols[s] != colour or work[s] == 1:
                        continue
                    work[s] = 1
                    work[21] = s
                    top = ONE
                    size = ZERO
                    while top > 0:
                        top -= 1
                        y = work[21 + top]
                        size += 1
                        for e in range(3, 9):
                            z = geo[y, e]
                            if z >= 0 and vals[z] != 0 and cols[z] == colour and work[z] == 0:
                                work[z] = 1
                                work[21 + top] = z
                                top += 1
                    if stat == 2 and size == tab[r, 2]:
                        x += 1
                    elif stat == 4 and size > x:
                        x = size
            if x >= tab[r, 1]:
                x = tab[r, 1] - 1
            if stat != 1:
                acc = tab[r, C_TAB + x]
            work[42 + j] = acc                         # the card's points (read by the final scoring)
            pts = 1000 * acc
        out[6 + j] = pts
        total += pts
    return total


# ----------------------------------------------------------------------------------------- skills
@njit(**KERNEL_OPTIONS)
def skill_options(level, vals, cols, placed, tab, geo, opt):
    """skills.py options of the skill of ``level`` (0 if none), in the same canonical order; returns the count.

    ``opt[o, 0]`` is the number m of assignments of option o, ``opt[o, 1 + 3a : 4 + 3a]`` its a-th assignment
    (space, value, colour).
    """
    fam = tab[R_SKF, level]
    fa = tab[R_SKA, level]
    fb = tab[R_SKB, level]
    n = ZERO
    if fam == 0:                                       # one die: tip, nudge, flip, set, copy_neighbour
        for s in range(21):
            v = vals[s]
            if v == 0 or s == placed:
                continue
            allowed = tab[R_VMAP + v, level]
            if fb == 1:
                seen = ZERO
                for e in range(3, 9):
                    t = geo[s, e]
                    if t >= 0:
                        seen |= 1 << vals[t]
                allowed &= seen
            for nv in range(1, 7):
                if (allowed >> nv) & 1:
                    opt[n, 0] = 1
                    opt[n, 1] = s
                    opt[n, 2] = nv
                    opt[n, 3] = cols[s]
                    n += 1
    elif fam == 1:                                     # two dice: swap_adjacent, swap_any, flip_two
        for p in range(21):
            if vals[p] == 0 or p == placed:
                continue
            for q in range(p + 1, 21):
                if vals[q] == 0 or q == placed or (fb == 0 and vals[p] == vals[q] and cols[p] == cols[q]):
                    continue
                touching = fa == 0
                for e in range(3, 9):
                    if geo[p, e] == q:
                        touching = True
                if not touching:
                    continue
                opt[n, 0] = 2
                opt[n, 1] = p
                opt[n, 4] = q
                opt[n, 2] = vals[q]                    # swap: p takes q's die and q takes p's
                opt[n, 3] = cols[q]
                opt[n, 5] = vals[p]
                opt[n, 6] = cols[p]
                if fb == 1:                            # flip both in place
                    opt[n, 2] = 7 - vals[p]
                    opt[n, 3] = cols[p]
                    opt[n, 5] = 7 - vals[q]
                    opt[n, 6] = cols[q]
                n += 1
    elif fam == 2:                                     # a whole level: flip_level, raise_level
        for k in range(1, 7):
            m = ZERO
            for s in range(tab[R_START, k], tab[R_START, k] + 7 - k):
                v = vals[s]
                if v != 0 and s != placed and (fa == 0 or v < 6):
                    opt[n, 1 + 3 * m] = s
                    opt[n, 2 + 3 * m] = 7 - v + fa * (2 * v - 6)    # flip (7 - v) or raise (v + 1)
                    opt[n, 3 + 3 * m] = cols[s]
                    m += 1
            if m > 0:
                opt[n, 0] = m
                n += 1
    return n


# ----------------------------------------------------------------------------------------- game
def workspace(n: int, n_colours: int) -> tuple[np.ndarray, ...]:
    """Scratch arrays of :func:`play_batch` for a quarry of ``n`` dice (allocated here: an allocation inside
    compiled code costs compile time): occ, vis, cover, avail, places, work, opt, saved, terms, tmp, cand,
    stamp, cval, carg."""
    n_keys = 7 * (n_colours + 1) * 21              # (value, colour, place): identical dice are searched once
    z = np.zeros
    return (z(n, np.int64), z(n, np.int64), z(n, np.int64), z(n, np.int64), z(21, np.int64), z(46, np.int64),
            z((K_OPTIONS, 19), np.int64), z(12, np.int64), z(10, np.int64), z(10, np.int64), z(3 * 21 * n, np.int64),
            z(n_keys, np.int64), z(n_keys, np.int64), z(n_keys, np.int64))


@njit(**KERNEL_OPTIONS)
def play_batch(values, colours, discs, first, start, stop, qocc, uniforms, policies, ptab, qgeo, tab, n_colours,
               geo, pv, pc, totals, met, cards, choices, moves, skills_used,
               occ, vis, cover, avail, places, work, opt, saved, terms, tmp, cand, stamp, cval, carg):
    """Play turns ``start[g]`` .. ``stop - 1`` of ``len(values)`` games; results go into the output arrays (see
    sim.play_deals).

    A whole game is ``start = 0``, ``stop = turns``, a full quarry ``qocc`` and empty pyramids; a game in
    progress (the search players' rollouts, :mod:`.search`) starts from its quarry occupancy ``qocc[g]`` (1 = a
    die is there) and its pyramids ``pv``/``pc`` (games, players, 21; 0 / -1 when empty), which end as the
    pyramids after turn ``stop - 1``.  A turn whose ``moves[g, t, 0]`` is >= 0 on entry plays that move
    (take, place, option) instead of asking the seat's policy (forced moves); otherwise ``moves`` receives the
    move played.  ``totals``, ``met`` and ``cards`` are written only when ``stop`` is the last turn.

    ``ptab[seat]`` is the table seat ``seat`` chooses with (values pyramids, is offered skills): ``tab``
    itself, or for a restricted player (restricted play) ``tab`` without the skills, goals or cards it may
    not use; the final scores always use ``tab``.  ``qgeo`` is the quarry geometry (n, 12): side neighbours,
    dice above, dice below (padding index n); the last 14 arguments are the scratch arrays of :func:`workspace`.
    """
    n_games = values.shape[0]
    n = values.shape[1]
    players = pv.shape[1]
    turns = uniforms.shape[1]
    stamp_now = ZERO                               # stamp: zeros from workspace()
    for g in range(n_games):
        for i in range(n):
            occ[i] = qocc[g, i]
        for i in range(n):                         # quarry: visible faces and dice resting on each die
            vis[i] = 0
            cover[i] = 0
            for a in range(4):
                q = qgeo[i, a]
                if q >= n or occ[q] == 0:
                    vis[i] += 1
                q = qgeo[i, 4 + a]
                if q < n and occ[q] == 1:
                    cover[i] += 1
            if cover[i] == 0:
                vis[i] += 1
        d = discs[g]
        seat = first[g] - 1
        for _t in range(start[g]):                  # the seat to move at turn start[g]
            seat += 1
            if seat == players:
                seat = 0
        for t in range(start[g], stop):
            seat += 1                                # turns rotate from the first player (no division:
            if seat == players:                      # each // or % adds a ZeroDivisionError path to compile)
                seat = 0
            vals = pv[g, seat]
            cols = pc[g, seat]
            n_av = ZERO
            for i in range(n):
                if occ[i] == 1 and vis[i] >= 3:
                    avail[n_av] = i
                    n_av += 1
            n_pl = ZERO
            for s in range(21):
                if vals[s] == 0 and (geo[s, 1] < 0 or (vals[geo[s, 1]] != 0 and vals[geo[s, 2]] != 0)):
                    places[n_pl] = s
                    n_pl += 1
            choices[g, t] = n_av
            mode = policies[seat]
            ptb = ptab[seat]
            option = -1
            forced = moves[g, t, 0] >= 0
            if forced:                               # a move chosen outside (a search player)
                take = moves[g, t, 0]
                place = moves[g, t, 1]
                option = moves[g, t, 2]
            elif mode == 0:                          # random_legal
                take = avail[np.int64(uniforms[g, t, 0] * n_av)]
                place = places[np.int64(uniforms[g, t, 1] * n_pl)]
            else:                                    # greedy / lookahead search, uniform tie-break
                stamp_now += 1
                top = LOWEST
                count = ZERO
                c = ZERO
                for ia in range(n_av):
                    i = avail[ia]
                    for ip in range(n_pl):
                        key = (values[g, i] * (n_colours + 1) + colours[g, i]) * 21 + places[ip]
                        cand[3 * c] = key
                        cand[3 * c + 1] = i
                        cand[3 * c + 2] = places[ip]
                        c += 1
                        if stamp[key] != stamp_now:          # policies.search: best value and skill option
                            stamp[key] = stamp_now           # after placing this die on this space; an option
                            pl = places[ip]                  # changing values of one level only (one-die and
                            # whole-level skills) recomputes that level's goal and the value-reading cards only
                            vals[pl] = values[g, i]
                            cols[pl] = colours[g, i]
                            n_opt = skill_options(geo[pl, 0], vals, cols, pl, ptb, geo, opt)
                            best = ZERO
                            arg = MINUS_ONE
                            for o in range(-1, n_opt):
                                only = -1
                                out = terms
                                if o >= 0:
                                    for a in range(opt[o, 0]):
                                        s = opt[o, 1 + 3 * a]
                                        saved[2 * a] = vals[s]
                                        saved[2 * a + 1] = cols[s]
                                        vals[s] = opt[o, 2 + 3 * a]
                                        cols[s] = opt[o, 3 + 3 * a]
                                    out = tmp
                                    if ptb[R_SKF, geo[pl, 0]] != 1:
                                        only = geo[opt[o, 1], 0]
                                val = evaluate(vals, cols, mode, only, ptb, d, geo, work, terms, out)
                                if o >= 0:
                                    for a in range(opt[o, 0]):
                                        s = opt[o, 1 + 3 * a]
                                        vals[s] = saved[2 * a]
                                        cols[s] = saved[2 * a + 1]
                                if o < 0 or val > best:
                                    best = val
                                    arg = o
                            vals[pl] = 0
                            cols[pl] = -1
                            cval[key] = best
                            carg[key] = arg
                        if cval[key] > top:
                            top = cval[key]
                            count = 0
                        if cval[key] == top:
                            count += 1
                pick = np.int64(uniforms[g, t, 0] * count)
                c = ZERO
                while cval[cand[3 * c]] != top or pick > 0:
                    if cval[cand[3 * c]] == top:
                        pick -= 1
                    c += 1
                take = cand[3 * c + 1]
                place = cand[3 * c + 2]
                option = carg[cand[3 * c]]
            vals[place] = values[g, take]
            cols[place] = colours[g, take]
            if option >= 0 or (mode == 0 and not forced):
                n_opt = skill_options(geo[place, 0], vals, cols, place, ptb, geo, opt)
                if mode == 0 and not forced:
                    option = np.int64(uniforms[g, t, 2] * (n_opt + 1)) - 1
                if option >= 0:
                    for a in range(opt[option, 0]):
                        vals[opt[option, 1 + 3 * a]] = opt[option, 2 + 3 * a]
                        cols[opt[option, 1 + 3 * a]] = opt[option, 3 + 3 * a]
                    skills_used[g, seat] += 1
            occ[take] = 0                            # take the die: neighbours and dice below see more
            for a in range(4):
                q = qgeo[take, a]
                if q < n and occ[q] == 1:
                    vis[q] += 1
                q = qgeo[take, 8 + a]
                if q < n:
                    cover[q] -= 1
                    if cover[q] == 0 and occ[q] == 1:
                        vis[q] += 1
            moves[g, t, 0] = take
            moves[g, t, 1] = place
            moves[g, t, 2] = option
        for s in range(players):                     # final scores (scoring.score_pyramid)
            if stop < turns:
                break
            # np.int64: a literal argument would compile a second specialisation of evaluate
            evaluate(pv[g, s], pc[g, s], np.int64(1), np.int64(-1), tab, d, geo, work, terms, terms)
            totals[g, s] = 0
            for k in range(5):
                met[g, s, k] = terms[k + 1] == GOAL_MVP
                totals[g, s] += 5 * met[g, s, k]
            for j in range(4):
                cards[g, s, j] = work[42 + j]
                totals[g, s] += work[42 + j]


def score_pyramid_arrays(vals, cols, tab, discs) -> tuple[int, tuple[int, ...], tuple[bool, ...]]:
    """(total, card points, goals met) of one pyramid through the compiled :func:`evaluate` (for tests)."""
    terms = np.zeros(10, dtype=np.int64)
    work = np.zeros(46, dtype=np.int64)
    total = evaluate(np.asarray(vals, np.int64), np.asarray(cols, np.int64), 1, -1, tab,
                     np.asarray(discs, np.int64), GEO, work, terms, terms)
    return (int(total) // 1000, tuple(int(x) for x in work[42:]), tuple(bool(x == GOAL_MVP) for x in terms[1:6]))
