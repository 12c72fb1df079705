"""Compiled Pyradice: the rules, scoring, skills and policies of :mod:`.rules` on plain arrays (numba).

Everything here mirrors a readable function of the spec (:mod:`.goals`, :mod:`.cards`, :mod:`.skills`,
:mod:`.scoring`, :mod:`.policies`) for the built-in kinds, dispatching on their integer ``kid``.  With
``NUMBA_DISABLE_JIT=1`` this is plain Python: the reference path of the benchmark.  The test suite checks
that these kernels and the readable engine play identical games from identical deals.

Conventions: pyramid ``vals``/``cols`` are int64 arrays of 21 (0 / -1 when empty); quarry arrays are flat with a
padding index ``n`` meaning "no die / off the board"; all scores are int64 milli-VP inside the search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .geometry import PYRAMID

__all__ = ["play_batch", "K_OPTIONS", "score_seat"]

K_OPTIONS = 200            # skill option buffer: the most options any built-in kind can produce (190)
_LEVEL = np.ascontiguousarray(PYRAMID.level_of, dtype=np.int64)
_START = np.ascontiguousarray(PYRAMID.level_start, dtype=np.int64)
_SUP = np.ascontiguousarray(PYRAMID.supports, dtype=np.int64)
_ADJ = np.ascontiguousarray(PYRAMID.adjacency, dtype=np.int64)
_ADJM = np.ascontiguousarray(PYRAMID.adjacent, dtype=np.int64)


# ----------------------------------------------------------------------------------------- goals
@njit(cache=True)
def goal_state(k, vals, cols, kind, mask, n_colours):
    """(complete, ok) for level k: ok = goal met if complete, else still consistent (see goals.py)."""
    s0 = _START[k]
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
            continue
        if kind == 0:          # values_in
            if not (mask >> v) & 1:
                ok = False
        elif kind == 1:        # all_different
            if (seen >> v) & 1:
                ok = False
            seen |= 1 << v
        elif kind == 2:        # all_same
            if first_v == 0:
                first_v = v
            elif v != first_v:
                ok = False
        elif kind == 3:        # ascending (placed dice in order)
            if v < last_v:
                ok = False
            last_v = v
        elif kind == 4:        # mirror
            w = vals[s0 + n - 1 - i]
            if w != 0 and w != v:
                ok = False
        elif kind == 5:        # all_colours_different
            if (seen >> c) & 1:
                ok = False
            seen |= 1 << c
        elif kind == 6:        # all_colours_same
            if first_c < 0:
                first_c = c
            elif c != first_c:
                ok = False
        elif kind == 7:        # neighbours_differ
            if i + 1 < n and vals[s0 + i + 1] == v:
                ok = False
    if kind == 5 and n > n_colours:
        ok = False
    return empty, ok


# ----------------------------------------------------------------------------------------- cards
@njit(cache=True)
def _lookup(table, tlen, i):
    return table[i] if i < tlen else table[tlen - 1]


@njit(cache=True)
def card_points(j, vals, cols, colour, card_kind, card_table, card_tlen, card_mask, card_size, card_points_,
                comp, stack):
    kind = card_kind[j]
    tab = card_table[j]
    tlen = card_tlen[j]
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
            top = 0
            stack[top] = s
            top += 1
            while top > 0:
                top -= 1
                x = stack[top]
                size += 1
                for a in range(6):
                    y = _ADJ[x, a]
                    if y >= 0 and vals[y] != 0 and cols[y] == colour and comp[y] == 0:
                        comp[y] = 1
                        stack[top] = y
                        top += 1
            if size == card_size[j]:
                hits += 1
            if size > largest:
                largest = size
        if kind == 2:
            return card_points_[j] * hits
        return _lookup(tab, tlen, largest)
    count = 0
    acc = 0
    bits = 0
    for s in range(21):
        if vals[s] == 0 or cols[s] != colour:
            continue
        count += 1
        if kind == 1:
            acc += _lookup(tab, tlen, _LEVEL[s])
        elif kind == 3:
            if (card_mask[j] >> vals[s]) & 1:
                acc += card_points_[j]
        elif kind == 5:
            bits |= 1 << vals[s]
        elif kind == 6:
            bits |= 1 << _LEVEL[s]
    if kind == 0:
        return _lookup(tab, tlen, count)
    if kind == 5 or kind == 6:
        n = 0
        while bits:
            n += bits & 1
            bits >>= 1
        return _lookup(tab, tlen, n)
    return acc


@njit(cache=True)
def evaluate(vals, cols, mode, goal_kind, goal_mask, goal_bonus, n_colours, discs, card_kind, card_table,
             card_tlen, card_mask, card_size, card_pts, comp, stack):
    """scoring.evaluate in milli-VP: mode 1 greedy (score), 2 lookahead (score + reachable-goal bonus)."""
    total = 0
    for k in range(1, 6):
        if goal_kind[k] < 0:
            continue
        empty, ok = goal_state(k, vals, cols, goal_kind[k], goal_mask[k], n_colours)
        if empty == 0:
            if ok:
                total += 5000
        elif mode == 2 and ok:
            total += goal_bonus[k, empty]
    for j in range(4):
        total += 1000 * card_points(j, vals, cols, discs[j], card_kind, card_table, card_tlen, card_mask,
                                    card_size, card_pts, comp, stack)
    return total


@njit(cache=True)
def score_seat(vals, cols, goal_kind, goal_mask, n_colours, discs, card_kind, card_table, card_tlen, card_mask,
               card_size, card_pts, met_out, cards_out):
    """Final score of one pyramid: fills met_out (5 goal flags) and cards_out (4 card points); returns total."""
    comp = np.zeros(21, dtype=np.int64)
    stack = np.zeros(21, dtype=np.int64)
    total = 0
    for k in range(1, 6):
        met_out[k - 1] = 0
        if goal_kind[k] < 0:
            continue
        empty, ok = goal_state(k, vals, cols, goal_kind[k], goal_mask[k], n_colours)
        if empty == 0 and ok:
            met_out[k - 1] = 1
            total += 5
    for j in range(4):
        p = card_points(j, vals, cols, discs[j], card_kind, card_table, card_tlen, card_mask, card_size,
                        card_pts, comp, stack)
        cards_out[j] = p
        total += p
    return total


# ----------------------------------------------------------------------------------------- skills
@njit(cache=True)
def _add1(n, os, ov, oc, opt_n, s, v, c):
    opt_n[n] = 1
    os[n, 0] = s
    ov[n, 0] = v
    oc[n, 0] = c
    return n + 1


@njit(cache=True)
def skill_options(kind, vals, cols, placed, opt_n, os, ov, oc, targets):
    """skills.py options for built-in kind ``kind``, in the same canonical order; returns the count."""
    nt = 0
    for s in range(21):
        if vals[s] != 0 and s != placed:
            targets[nt] = s
            nt += 1
    n = 0
    if kind == 0 or kind == 1 or kind == 2 or kind == 4 or kind == 5:
        for i in range(nt):
            s = targets[i]
            v = vals[s]
            c = cols[s]
            if kind == 0:                    # tip
                for nv in range(1, 7):
                    if nv != v and nv != 7 - v:
                        n = _add1(n, os, ov, oc, opt_n, s, nv, c)
            elif kind == 1:                  # nudge
                if v - 1 >= 1:
                    n = _add1(n, os, ov, oc, opt_n, s, v - 1, c)
                if v + 1 <= 6:
                    n = _add1(n, os, ov, oc, opt_n, s, v + 1, c)
            elif kind == 2:                  # flip
                n = _add1(n, os, ov, oc, opt_n, s, 7 - v, c)
            elif kind == 4:                  # set
                for nv in range(1, 7):
                    if nv != v:
                        n = _add1(n, os, ov, oc, opt_n, s, nv, c)
            else:                            # copy_neighbour
                seen = 0
                for a in range(6):
                    t = _ADJ[s, a]
                    if t >= 0 and vals[t] != 0:
                        seen |= 1 << vals[t]
                for nv in range(1, 7):
                    if (seen >> nv) & 1 and nv != v:
                        n = _add1(n, os, ov, oc, opt_n, s, nv, c)
    elif kind == 3 or kind == 8 or kind == 9:  # pairs of dice
        for i in range(nt):
            a = targets[i]
            for jj in range(i + 1, nt):
                b = targets[jj]
                if kind == 3 and _ADJM[a, b] == 0:
                    continue
                if kind != 9 and vals[a] == vals[b] and cols[a] == cols[b]:
                    continue
                opt_n[n] = 2
                os[n, 0] = a
                os[n, 1] = b
                if kind == 9:
                    ov[n, 0] = 7 - vals[a]
                    oc[n, 0] = cols[a]
                    ov[n, 1] = 7 - vals[b]
                    oc[n, 1] = cols[b]
                else:
                    ov[n, 0] = vals[b]
                    oc[n, 0] = cols[b]
                    ov[n, 1] = vals[a]
                    oc[n, 1] = cols[a]
                n += 1
    elif kind == 6 or kind == 7:             # whole level
        for k in range(1, 7):
            m = 0
            for i in range(7 - k):
                s = _START[k] + i
                if vals[s] != 0 and s != placed and (kind == 6 or vals[s] < 6):
                    os[n, m] = s
                    ov[n, m] = 7 - vals[s] if kind == 6 else vals[s] + 1
                    oc[n, m] = cols[s]
                    m += 1
            if m > 0:
                opt_n[n] = m
                n += 1
    return n


# ----------------------------------------------------------------------------------------- quarry
@njit(cache=True)
def _take(p, occ, vis, cover, sides, supports, n):
    occ[p] = 0
    for a in range(4):
        q = sides[p, a]
        if q < n and occ[q]:
            vis[q] += 1
        q = supports[p, a]
        if q < n:
            cover[q] -= 1
            if cover[q] == 0 and occ[q]:
                vis[q] += 1


# ----------------------------------------------------------------------------------------- game
@njit(cache=True)
def _best_after(vals, cols, place, dv, dc, mode, skill_k, goal_kind, goal_mask, goal_bonus, n_colours, discs,
                card_kind, card_table, card_tlen, card_mask, card_size, card_pts, comp, stack, opt_n, os, ov, oc,
                targets, old_v, old_c):
    vals[place] = dv
    cols[place] = dc
    best = evaluate(vals, cols, mode, goal_kind, goal_mask, goal_bonus, n_colours, discs, card_kind, card_table,
                    card_tlen, card_mask, card_size, card_pts, comp, stack)
    arg = -1
    if skill_k >= 0:
        n_opt = skill_options(skill_k, vals, cols, place, opt_n, os, ov, oc, targets)
        for o in range(n_opt):
            m = opt_n[o]
            for a in range(m):
                s = os[o, a]
                old_v[a] = vals[s]
                old_c[a] = cols[s]
                vals[s] = ov[o, a]
                cols[s] = oc[o, a]
            val = evaluate(vals, cols, mode, goal_kind, goal_mask, goal_bonus, n_colours, discs, card_kind,
                           card_table, card_tlen, card_mask, card_size, card_pts, comp, stack)
            for a in range(m - 1, -1, -1):
                s = os[o, a]
                vals[s] = old_v[a]
                cols[s] = old_c[a]
            if val > best:
                best = val
                arg = o
    vals[place] = 0
    cols[place] = -1
    return best, arg


@njit(cache=True)
def play_batch(values, colours, discs, rolls, uniforms, policies, sides, supports, covers, skill_kind, goal_kind,
               goal_mask, goal_bonus, n_colours, card_kind, card_table, card_tlen, card_mask, card_size, card_pts,
               totals, met, cards, first_out, choices, moves, final_v, final_c, skills_used):
    """Play ``len(values)`` games; results go into the output arrays (see sim.simulate_games)."""
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
    opt_n = np.zeros(K_OPTIONS, dtype=np.int64)
    os = np.zeros((K_OPTIONS, 6), dtype=np.int64)
    ov = np.zeros((K_OPTIONS, 6), dtype=np.int64)
    oc = np.zeros((K_OPTIONS, 6), dtype=np.int64)
    old_v = np.zeros(6, dtype=np.int64)
    old_c = np.zeros(6, dtype=np.int64)
    n_keys = 7 * (n_colours + 1) * 21
    stamp = np.zeros(n_keys, dtype=np.int64)
    cval = np.zeros(n_keys, dtype=np.int64)
    carg = np.zeros(n_keys, dtype=np.int64)
    met_tmp = np.zeros(5, dtype=np.int64)
    cards_tmp = np.zeros(4, dtype=np.int64)
    contenders = np.zeros(players, dtype=np.int64)
    stamp_now = 0
    for g in range(n_games):
        # quarry
        for i in range(n):
            occ[i] = 1
        for i in range(n):
            free = 0
            cov = 0
            for a in range(4):
                if sides[i, a] >= n:
                    free += 1
                if covers[i, a] < n:
                    cov += 1
            cover[i] = cov
            vis[i] = free + (1 if cov == 0 else 0)
        # first player roll-off
        for s in range(players):
            contenders[s] = 1
        for r in range(rolls.shape[1]):
            best = 0
            for s in range(players):
                if contenders[s] and rolls[g, r, s] > best:
                    best = rolls[g, r, s]
            left = 0
            for s in range(players):
                if contenders[s] and rolls[g, r, s] != best:
                    contenders[s] = 0
                left += contenders[s]
            if left == 1:
                break
        first = 0
        for s in range(players - 1, -1, -1):
            if contenders[s]:
                first = s
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
                if vals[s] == 0 and (_SUP[s, 0] < 0 or (vals[_SUP[s, 0]] != 0 and vals[_SUP[s, 1]] != 0)):
                    places[n_pl] = s
                    n_pl += 1
            choices[g, t] = n_av
            u0 = uniforms[g, t, 0]
            mode = policies[seat]
            option = -1
            if mode == 0:
                take = avail[int(u0 * n_av)]
                place = places[int(uniforms[g, t, 1] * n_pl)]
                vals[place] = values[g, take]
                cols[place] = colours[g, take]
                k = skill_kind[_LEVEL[place]]
                n_opt = 0
                if k >= 0:
                    n_opt = skill_options(k, vals, cols, place, opt_n, os, ov, oc, targets)
                option = int(uniforms[g, t, 2] * (n_opt + 1)) - 1
            else:
                stamp_now += 1
                top = -(1 << 62)
                count = 0
                for ia in range(n_av):
                    take = avail[ia]
                    dv = values[g, take]
                    dc = colours[g, take]
                    for ip in range(n_pl):
                        place = places[ip]
                        key = ((dv * (n_colours + 1)) + dc) * 21 + place
                        if stamp[key] != stamp_now:
                            b, o = _best_after(vals, cols, place, dv, dc, mode, skill_kind[_LEVEL[place]], goal_kind,
                                               goal_mask, goal_bonus, n_colours, d, card_kind, card_table,
                                               card_tlen, card_mask, card_size, card_pts, comp, stack, opt_n, os,
                                               ov, oc, targets, old_v, old_c)
                            stamp[key] = stamp_now
                            cval[key] = b
                            carg[key] = o
                        if cval[key] > top:
                            top = cval[key]
                            count = 1
                        elif cval[key] == top:
                            count += 1
                pick = int(u0 * count)
                found = False
                for ia in range(n_av):
                    if found:
                        break
                    take = avail[ia]
                    dv = values[g, take]
                    dc = colours[g, take]
                    for ip in range(n_pl):
                        place = places[ip]
                        key = ((dv * (n_colours + 1)) + dc) * 21 + place
                        if cval[key] == top:
                            if pick == 0:
                                option = carg[key]
                                found = True
                                break
                            pick -= 1
                vals[place] = values[g, take]
                cols[place] = colours[g, take]
            if option >= 0:
                k = skill_kind[_LEVEL[place]]
                skill_options(k, vals, cols, place, opt_n, os, ov, oc, targets)
                for a in range(opt_n[option]):
                    vals[os[option, a]] = ov[option, a]
                    cols[os[option, a]] = oc[option, a]
                skills_used[g, seat] += 1
            _take(take, occ, vis, cover, sides, supports, n)
            moves[g, t, 0] = take
            moves[g, t, 1] = place
            moves[g, t, 2] = option
        for s in range(players):
            totals[g, s] = score_seat(pv[s], pc[s], goal_kind, goal_mask, n_colours, d, card_kind, card_table,
                                      card_tlen, card_mask, card_size, card_pts, met_tmp, cards_tmp)
            for k in range(5):
                met[g, s, k] = met_tmp[k]
            for j in range(4):
                cards[g, s, j] = cards_tmp[j]
            for i in range(21):
                final_v[g, s, i] = pv[s, i]
                final_c[g, s, i] = pc[s, i]
