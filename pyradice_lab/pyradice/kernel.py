"""Compiled Pyradice: the rules, scoring, skills and policies of :mod:`.rules` on plain arrays (numba).

Everything here mirrors a readable function of the spec (:mod:`.goals`, :mod:`.cards`, :mod:`.skills`,
:mod:`.scoring`, :mod:`.policies`) for the built-in kinds, dispatching on their integer ``kid``.  With
``NUMBA_DISABLE_JIT=1`` this is plain Python: the reference path of the benchmark.  The test suite checks
that these kernels and the readable engine play identical games from identical deals.

Conventions: pyramid ``vals``/``cols`` are int64 arrays of 21 (0 / -1 when empty); quarry arrays are flat with a
padding index ``n`` meaning "no die / off the board"; scores inside the search are int64 milli-VP.  Geometry and
setup travel as two packed int64 arrays (``geo``, ``tab``, built by :func:`pack_setup`) to keep signatures short
and compile time low.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .geometry import PYRAMID

__all__ = ["play_batch", "K_OPTIONS", "score_seat", "GEO", "pack_setup", "evaluate", "skill_options"]

K_OPTIONS = 200            # skill option buffer: the most options any built-in kind can produce (190)
#: Packed pyramid geometry, one row per space: level, the two supports, the six touching spaces (-1 padded).
GEO = np.ascontiguousarray(np.concatenate([PYRAMID.level_of[:, None], PYRAMID.supports, PYRAMID.adjacency], axis=1),
                           dtype=np.int64)
# Packed setup ``tab``: row 0 skill kind by level (-1 none), row 1 goal kind by level (-1 none), row 2 goal value
# mask by level, rows 3..9 the lookahead bonus (row 3 + e: level's bonus with e empty spaces, by level), rows
# 10..13 the four cards: [kind, table length, value mask, group size, points, table...].
_CARD = 10
_CT = 5


def pack_setup(skill_kind, goal_kind, goal_mask, goal_bonus, card_kind, card_tables, card_mask, card_size,
               card_pts) -> np.ndarray:
    """The ``tab`` array of the kernels (see the module comment)."""
    width = max(7, _CT + max(len(t) for t in card_tables))
    tab = np.zeros((_CARD + 4, width), dtype=np.int64)
    tab[0, :7] = skill_kind
    tab[1, :7] = goal_kind
    tab[2, :7] = goal_mask
    tab[3:10, :7] = np.asarray(goal_bonus).T
    for j in range(4):
        tab[_CARD + j, :_CT] = (card_kind[j], len(card_tables[j]), card_mask[j], card_size[j], card_pts[j])
        tab[_CARD + j, _CT:_CT + len(card_tables[j])] = card_tables[j]
    return tab


@njit(cache=True)
def _start(k):
    """First space of level k (levels hold 6, 5, 4, 3, 2, 1 spaces)."""
    return 7 * (k - 1) - (k - 1) * k // 2


# ----------------------------------------------------------------------------------------- goals
@njit(cache=True)
def goal_state(k, vals, cols, kind, mask, n_colours):
    """(empty spaces, ok) for level k: ok = goal met if complete, else still consistent (see goals.py)."""
    s0 = _start(k)
    n = 7 - k
    empty = 0
    ok = True
    seen = 0
    first_v = 0
    first_c = -1
    last_v = 0
    for i in range(n):
        v = vals[s0 + i]
        c = cols[s0 + i]
        if v == 0:
            empty += 1
        elif kind == 0:          # values_in
            if not (mask >> v) & 1:
                ok = False
        elif kind == 1:          # all_different
            if (seen >> v) & 1:
                ok = False
            seen |= 1 << v
        elif kind == 2:          # all_same
            if first_v == 0:
                first_v = v
            elif v != first_v:
                ok = False
        elif kind == 3:          # ascending (placed dice in order)
            if v < last_v:
                ok = False
            last_v = v
        elif kind == 4:          # mirror
            w = vals[s0 + n - 1 - i]
            if w != 0 and w != v:
                ok = False
        elif kind == 5:          # all_colours_different
            if (seen >> c) & 1:
                ok = False
            seen |= 1 << c
        elif kind == 6:          # all_colours_same
            if first_c < 0:
                first_c = c
            elif c != first_c:
                ok = False
        elif kind == 7:          # neighbours_differ
            if i + 1 < n and vals[s0 + i + 1] == v:
                ok = False
    if kind == 5 and n > n_colours:
        ok = False
    return empty, ok


# ----------------------------------------------------------------------------------------- cards
@njit(cache=True)
def card_points(j, vals, cols, colour, tab, geo, comp, stack):
    """cards.py score of card j (row _CARD + j of tab) for disc colour ``colour``."""
    row = _CARD + j
    kind = tab[row, 0]
    tlen = tab[row, 1]
    if kind == 2 or kind == 4:       # groups of touching matching dice
        for s in range(21):
            comp[s] = 0
        hits = 0
        largest = 0
        for s in range(21):
            if vals[s] == 0 or cols[s] != colour or comp[s]:
                continue
            comp[s] = 1
            size = 0
            top = 1
            stack[0] = s
            while top > 0:
                top -= 1
                x = stack[top]
                size += 1
                for a in range(3, 9):
                    y = geo[x, a]
                    if y >= 0 and vals[y] != 0 and cols[y] == colour and comp[y] == 0:
                        comp[y] = 1
                        stack[top] = y
                        top += 1
            if size == tab[row, 3]:
                hits += 1
            if size > largest:
                largest = size
        if kind == 2:
            return tab[row, 4] * hits
        return tab[row, _CT + min(largest, tlen - 1)]
    count = 0
    acc = 0
    bits = 0
    for s in range(21):
        if vals[s] == 0 or cols[s] != colour:
            continue
        count += 1
        if kind == 1:
            acc += tab[row, _CT + min(geo[s, 0], tlen - 1)]
        elif kind == 3:
            if (tab[row, 2] >> vals[s]) & 1:
                acc += tab[row, 4]
        elif kind == 5:
            bits |= 1 << vals[s]
        elif kind == 6:
            bits |= 1 << geo[s, 0]
    if kind == 0:
        return tab[row, _CT + min(count, tlen - 1)]
    if kind == 5 or kind == 6:
        n = 0
        while bits:
            n += bits & 1
            bits >>= 1
        return tab[row, _CT + min(n, tlen - 1)]
    return acc


@njit(cache=True)
def level_term(k, vals, cols, mode, tab, n_colours):
    """Level k's share of scoring.evaluate: 5000 if its goal is met, the lookahead bonus if still reachable."""
    if tab[1, k] < 0:
        return 0
    empty, ok = goal_state(k, vals, cols, tab[1, k], tab[2, k], n_colours)
    if empty == 0:
        return 5000 if ok else 0
    if mode == 2 and ok:
        return tab[3 + empty, k]
    return 0


@njit(cache=True)
def evaluate(vals, cols, mode, tab, n_colours, discs, geo, comp, stack):
    """scoring.evaluate in milli-VP: mode 1 greedy (score), 2 lookahead (score + reachable-goal bonus)."""
    total = 0
    for k in range(1, 6):
        total += level_term(k, vals, cols, mode, tab, n_colours)
    for j in range(4):
        total += 1000 * card_points(j, vals, cols, discs[j], tab, geo, comp, stack)
    return total


@njit(cache=True)
def score_seat(vals, cols, tab, n_colours, discs, geo, met_out, cards_out):
    """Final score of one pyramid: fills met_out (5 goal flags) and cards_out (4 card points); returns total."""
    comp = np.zeros(21, dtype=np.int64)
    stack = np.zeros(21, dtype=np.int64)
    total = 0
    for k in range(1, 6):
        met_out[k - 1] = 0
        if tab[1, k] < 0:
            continue
        empty, ok = goal_state(k, vals, cols, tab[1, k], tab[2, k], n_colours)
        if empty == 0 and ok:
            met_out[k - 1] = 1
            total += 5
    for j in range(4):
        p = card_points(j, vals, cols, discs[j], tab, geo, comp, stack)
        cards_out[j] = p
        total += p
    return total


# ----------------------------------------------------------------------------------------- skills
@njit(cache=True)
def skill_options(kind, vals, cols, placed, geo, opt, targets):
    """skills.py options of built-in kind ``kind`` in the same canonical order; returns the count.

    ``opt[o, 0]`` is the number m of assignments of option o, ``opt[o, 1 + 3a : 4 + 3a]`` its a-th assignment
    (space, value, colour).
    """
    nt = 0
    for s in range(21):
        if vals[s] != 0 and s != placed:
            targets[nt] = s
            nt += 1
    n = 0
    if kind == 3 or kind == 8 or kind == 9:      # pairs of dice: swap_adjacent, swap_any, flip_two
        for i in range(nt):
            a = targets[i]
            for jj in range(i + 1, nt):
                b = targets[jj]
                if kind == 3:
                    touching = False
                    for x in range(3, 9):
                        if geo[a, x] == b:
                            touching = True
                    if not touching:
                        continue
                if kind != 9 and vals[a] == vals[b] and cols[a] == cols[b]:
                    continue
                opt[n, 0] = 2
                opt[n, 1] = a
                opt[n, 4] = b
                opt[n, 3] = cols[a] if kind == 9 else cols[b]
                opt[n, 6] = cols[b] if kind == 9 else cols[a]
                opt[n, 2] = 7 - vals[a] if kind == 9 else vals[b]
                opt[n, 5] = 7 - vals[b] if kind == 9 else vals[a]
                n += 1
        return n
    if kind == 6 or kind == 7:                   # whole level: flip_level, raise_level
        for k in range(1, 7):
            m = 0
            for i in range(7 - k):
                s = _start(k) + i
                if vals[s] != 0 and s != placed and (kind == 6 or vals[s] < 6):
                    opt[n, 1 + 3 * m] = s
                    opt[n, 2 + 3 * m] = 7 - vals[s] if kind == 6 else vals[s] + 1
                    opt[n, 3 + 3 * m] = cols[s]
                    m += 1
            if m > 0:
                opt[n, 0] = m
                n += 1
        return n
    for i in range(nt):                          # one die: tip, nudge, flip, set, copy_neighbour
        s = targets[i]
        v = vals[s]
        seen = 0
        if kind == 5:
            for x in range(3, 9):
                t = geo[s, x]
                if t >= 0 and vals[t] != 0:
                    seen |= 1 << vals[t]
        for nv in range(1, 7):
            if nv == v:
                continue
            if kind == 0:
                keep = nv != 7 - v
            elif kind == 1:
                keep = nv == v - 1 or nv == v + 1
            elif kind == 2:
                keep = nv == 7 - v
            elif kind == 4:
                keep = True
            else:
                keep = (seen >> nv) & 1 == 1
            if keep:
                opt[n, 0] = 1
                opt[n, 1] = s
                opt[n, 2] = nv
                opt[n, 3] = cols[s]
                n += 1
    return n


@njit(cache=True)
def _apply(opt, o, vals, cols, saved):
    m = opt[o, 0]
    for a in range(m):
        s = opt[o, 1 + 3 * a]
        saved[2 * a] = vals[s]
        saved[2 * a + 1] = cols[s]
        vals[s] = opt[o, 2 + 3 * a]
        cols[s] = opt[o, 3 + 3 * a]


@njit(cache=True)
def _undo(opt, o, vals, cols, saved):
    for a in range(opt[o, 0] - 1, -1, -1):
        s = opt[o, 1 + 3 * a]
        vals[s] = saved[2 * a]
        cols[s] = saved[2 * a + 1]


# ----------------------------------------------------------------------------------------- game
@njit(cache=True)
def _best_after(vals, cols, place, dv, dc, mode, tab, n_colours, discs, geo, comp, stack, opt, targets, saved, terms):
    """policies.search: best value (and skill option, -1 none) after placing (dv, dc) on ``place``.

    The value is the sum of 5 level terms and 4 card terms; an option changing one die's value (same colour)
    only changes its level's term and the value-reading cards (kinds 3 and 5), so only those are recomputed:
    the same integers as a full :func:`evaluate`, faster.
    """
    vals[place] = dv
    cols[place] = dc
    best = 0
    for k in range(1, 6):
        terms[k] = level_term(k, vals, cols, mode, tab, n_colours)
        best += terms[k]
    for j in range(4):
        terms[6 + j] = 1000 * card_points(j, vals, cols, discs[j], tab, geo, comp, stack)
        best += terms[6 + j]
    base = best
    arg = -1
    kind = tab[0, geo[place, 0]]
    if kind >= 0:
        n_opt = skill_options(kind, vals, cols, place, geo, opt, targets)
        for o in range(n_opt):
            _apply(opt, o, vals, cols, saved)
            if opt[o, 0] == 1 and opt[o, 3] == saved[1]:
                k = geo[opt[o, 1], 0]
                val = base
                if k <= 5:
                    val += level_term(k, vals, cols, mode, tab, n_colours) - terms[k]
                for j in range(4):
                    ck = tab[_CARD + j, 0]
                    if ck == 3 or ck == 5:
                        val += 1000 * card_points(j, vals, cols, discs[j], tab, geo, comp, stack) - terms[6 + j]
            else:
                val = evaluate(vals, cols, mode, tab, n_colours, discs, geo, comp, stack)
            _undo(opt, o, vals, cols, saved)
            if val > best:
                best = val
                arg = o
    vals[place] = 0
    cols[place] = -1
    return best, arg


@njit(cache=True)
def _roll_off(rolls, contenders):
    players = rolls.shape[1]
    for s in range(players):
        contenders[s] = 1
    for r in range(rolls.shape[0]):
        best = 0
        for s in range(players):
            if contenders[s] and rolls[r, s] > best:
                best = rolls[r, s]
        left = 0
        for s in range(players):
            if contenders[s] and rolls[r, s] != best:
                contenders[s] = 0
            left += contenders[s]
        if left == 1:
            break
    for s in range(players):
        if contenders[s]:
            return s
    return 0


@njit(cache=True)
def play_batch(values, colours, discs, rolls, uniforms, policies, qgeo, tab, n_colours, geo,
               totals, met, cards, first_out, choices, moves, final_v, final_c, skills_used, ptab):
    """Play ``len(values)`` games; results go into the output arrays (see sim.play_deals).

    ``qgeo`` is the quarry geometry (n, 12): side neighbours, dice above, dice below (padding index n).
    ``ptab[seat]`` is the ``tab`` seat's policy values and offers skills with: ``tab`` itself, or for a
    restricted player (restricted play) ``tab`` without the skills, goals or cards it may not use.
    """
    n_games = values.shape[0]
    n = values.shape[1]
    players = rolls.shape[2]
    turns = uniforms.shape[1]
    occ = np.zeros(n, dtype=np.int64)
    vis = np.zeros(n, dtype=np.int64)
    cover = np.zeros(n, dtype=np.int64)
    avail = np.zeros(n, dtype=np.int64)
    places = np.zeros(21, dtype=np.int64)
    pv = np.zeros((players, 21), dtype=np.int64)
    pc = np.zeros((players, 21), dtype=np.int64)
    comp = np.zeros(21, dtype=np.int64)
    stack = np.zeros(21, dtype=np.int64)
    targets = np.zeros(21, dtype=np.int64)
    opt = np.zeros((K_OPTIONS, 19), dtype=np.int64)
    saved = np.zeros(12, dtype=np.int64)
    terms = np.zeros(10, dtype=np.int64)
    n_keys = 7 * (n_colours + 1) * 21
    stamp = np.zeros(n_keys, dtype=np.int64)
    cval = np.zeros(n_keys, dtype=np.int64)
    carg = np.zeros(n_keys, dtype=np.int64)
    met_tmp = np.zeros(5, dtype=np.int64)
    cards_tmp = np.zeros(4, dtype=np.int64)
    contenders = np.zeros(players, dtype=np.int64)
    stamp_now = 0
    for g in range(n_games):
        for i in range(n):                       # quarry: visible faces and dice resting on each die
            occ[i] = 1
            free = 0
            cov = 0
            for a in range(4):
                if qgeo[i, a] >= n:
                    free += 1
                if qgeo[i, 4 + a] < n:
                    cov += 1
            cover[i] = cov
            vis[i] = free + (1 if cov == 0 else 0)
        first = _roll_off(rolls[g], contenders)
        first_out[g] = first
        for s in range(players):
            skills_used[g, s] = 0
            for i in range(21):
                pv[s, i] = 0
                pc[s, i] = -1
        d = discs[g]
        for t in range(turns):
            seat = (first + t) % players
            vals = pv[seat]
            cols = pc[seat]
            n_av = 0
            for i in range(n):
                if occ[i] and vis[i] >= 3:
                    avail[n_av] = i
                    n_av += 1
            n_pl = 0
            for s in range(21):
                if vals[s] == 0 and (geo[s, 1] < 0 or (vals[geo[s, 1]] != 0 and vals[geo[s, 2]] != 0)):
                    places[n_pl] = s
                    n_pl += 1
            choices[g, t] = n_av
            mode = policies[seat]
            option = -1
            if mode == 0:                            # random_legal
                take = avail[int(uniforms[g, t, 0] * n_av)]
                place = places[int(uniforms[g, t, 1] * n_pl)]
                vals[place] = values[g, take]
                cols[place] = colours[g, take]
                kind = ptab[seat, 0, geo[place, 0]]
                n_opt = 0
                if kind >= 0:
                    n_opt = skill_options(kind, vals, cols, place, geo, opt, targets)
                option = int(uniforms[g, t, 2] * (n_opt + 1)) - 1
            else:                                    # greedy / lookahead search
                stamp_now += 1
                top = -(1 << 62)
                count = 0
                for ia in range(n_av):
                    for ip in range(n_pl):
                        key = (values[g, avail[ia]] * (n_colours + 1) + colours[g, avail[ia]]) * 21 + places[ip]
                        if stamp[key] != stamp_now:
                            b, o = _best_after(vals, cols, places[ip], values[g, avail[ia]], colours[g, avail[ia]],
                                               mode, ptab[seat], n_colours, d, geo, comp, stack, opt, targets,
                                               saved, terms)
                            stamp[key] = stamp_now
                            cval[key] = b
                            carg[key] = o
                        if cval[key] > top:
                            top = cval[key]
                            count = 1
                        elif cval[key] == top:
                            count += 1
                pick = int(uniforms[g, t, 0] * count)
                take = -1
                place = -1
                for ia in range(n_av):
                    for ip in range(n_pl):
                        key = (values[g, avail[ia]] * (n_colours + 1) + colours[g, avail[ia]]) * 21 + places[ip]
                        if take < 0 and cval[key] == top:
                            if pick == 0:
                                take = avail[ia]
                                place = places[ip]
                                option = carg[key]
                            pick -= 1
                vals[place] = values[g, take]
                cols[place] = colours[g, take]
            if option >= 0:
                skill_options(tab[0, geo[place, 0]], vals, cols, place, geo, opt, targets)
                _apply(opt, option, vals, cols, saved)
                skills_used[g, seat] += 1
            occ[take] = 0                            # take the die: neighbours and dice below see more
            for a in range(4):
                q = qgeo[take, a]
                if q < n and occ[q]:
                    vis[q] += 1
                q = qgeo[take, 8 + a]
                if q < n:
                    cover[q] -= 1
                    if cover[q] == 0 and occ[q]:
                        vis[q] += 1
            moves[g, t, 0] = take
            moves[g, t, 1] = place
            moves[g, t, 2] = option
        for s in range(players):
            totals[g, s] = score_seat(pv[s], pc[s], tab, n_colours, d, geo, met_tmp, cards_tmp)
            for k in range(5):
                met[g, s, k] = met_tmp[k]
            for j in range(4):
                cards[g, s, j] = cards_tmp[j]
            for i in range(21):
                final_v[g, s, i] = pv[s, i]
                final_c[g, s, i] = pc[s, i]
