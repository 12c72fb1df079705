"""Compiled Purramid rules on plain arrays (numba ``@njit(cache=True)``; runs as plain Python with
``NUMBA_DISABLE_JIT=1``, which is the pure-Python reference of the speed benchmark).

Sets of spaces are ``uint64`` bit masks (a layout has at most 64 spaces).  Spaces are numbered row by
row from the bottom, so every space directly below space ``i`` has a smaller index -- one descending pass
computes a downward closure.  The functions mirror :mod:`.board` (the readable Python version; tests check
they agree) and add the human-style policy decisions and the whole-game loop used by :mod:`.sim`.

Board arrays (see :func:`board_arrays`): ``below``, ``adj`` (uint64 per space), ``numbers``, ``tiles``,
``rows`` (int64 per space), ``n`` and ``full`` (mask of all spaces).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["board_arrays", "risk_tables", "closure", "component", "min_completion", "is_valid", "roll_masks",
           "choose", "burst_risk", "policy_stops", "run_games", "INF", "END_NAMES",
           "KIND_GREEDY", "KIND_STOP_AFTER", "KIND_RISK", "DICE_PER_TURN_MAX"]

INF = 1 << 20
U0 = np.uint64(0)
U1 = np.uint64(1)
KIND_GREEDY, KIND_STOP_AFTER, KIND_RISK = 0, 1, 2
END_NONE, END_BOARD_FULL, END_SECOND_OUT, END_GOLD_OUT, END_TURN_LIMIT = 0, 1, 2, 3, 4
END_NAMES = ("running", "board_full", "second_player_out", "gold_placed", "turn_limit")
# dice one whole turn can consume: bonus chain 5+4+3+2+1 placements at most rolls 15+10+6+3+1 = 35 dice,
# plus at most 12 rerolls (12 tokens exist) of at most 5 dice
DICE_PER_TURN_MAX = 95


def board_arrays(layout) -> tuple:
    """``(below, adj, numbers, tiles, rows, n, full)`` plain arrays of a Layout for the kernels."""
    n = layout.n_spaces
    if n > 64:
        raise ValueError(f"layout has {n} spaces; the compiled simulators handle at most 64")
    below = np.array(layout.below_mask, dtype=np.uint64)
    adj = np.array(layout.adj_mask, dtype=np.uint64)
    numbers = np.array(layout.numbers, dtype=np.int64)
    tiles = np.array(layout.tile_counts, dtype=np.int64)
    rows = np.array(layout.row_of, dtype=np.int64)
    return below, adj, numbers, tiles, rows, n, np.uint64(layout.all_mask)


def risk_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count masks and weights of every sorted roll of 1..5 dice, padded: ``(cm[d, row, n], w[d, row], rows[d])``."""
    from .chance import count_masks, multisets

    cm = np.zeros((6, 252, 31), dtype=np.int64)
    w = np.zeros((6, 252), dtype=np.int64)
    nrows = np.zeros(6, dtype=np.int64)
    for d in range(1, 6):
        m = count_masks(d)
        _, wt = multisets(d)
        cm[d, :m.shape[0], :m.shape[1]] = m
        w[d, :len(wt)] = wt
        nrows[d] = len(wt)
    return cm, w, nrows


@njit(cache=True)
def _bit(i):
    return U1 << np.uint64(i)


@njit(cache=True)
def _has(mask, i):
    return (mask >> np.uint64(i)) & U1 != U0


@njit(cache=True)
def popcount(mask):
    c = 0
    while mask != U0:
        mask &= mask - U1
        c += 1
    return c


@njit(cache=True)
def closure(placed, cov, below, n):
    """``placed`` plus every uncovered space below it, recursively (one descending pass)."""
    result = placed
    for i in range(n - 1, -1, -1):
        if _has(result, i):
            result |= below[i] & ~cov
    return result


@njit(cache=True)
def component(mask, adj, n):
    """The connected component of ``mask`` holding its lowest space."""
    seen = mask & (~mask + U1)
    grown = True
    while grown:
        grown = False
        for i in range(n):
            if _has(seen, i):
                new = adj[i] & mask & ~seen
                if new != U0:
                    seen |= new
                    grown = True
    return seen


@njit(cache=True)
def _need(cov, q, budget, below, adj, free, n):
    if q == U0:
        return 0
    comp = component(q, adj, n)
    if comp == q:
        return 0
    if budget <= 0:
        return INF
    border = U0
    for i in range(n):
        if _has(comp, i):
            border |= adj[i]
    border &= free & ~q
    best = INF
    pc = popcount(q)
    for x in range(n):
        if _has(border, x):
            q2 = closure(q | _bit(x), cov, below, n)
            cost = popcount(q2) - pc
            if cost > budget or cost >= best:
                continue
            lim = min(budget, best - 1) - cost
            rest = _need(cov, q2, lim, below, adj, free, n)
            if rest < INF and cost + rest < best:
                best = cost + rest
    return best


@njit(cache=True)
def min_completion(cov, placed, budget, below, adj, full, n):
    """Fewest extra spaces making ``placed`` connected and supported; ``INF`` if more than ``budget``."""
    free = full & ~cov
    if placed & ~free != U0:
        return INF
    q = closure(placed, cov, below, n)
    forced = popcount(q) - popcount(placed)
    if forced > budget:
        return INF
    rest = _need(cov, q, budget - forced, below, adj, free, n)
    if rest >= INF:
        return INF
    return forced + rest


@njit(cache=True)
def is_valid(cov, placed, below, adj, n):
    """Both tile placement conditions hold (non-empty, supported, connected)."""
    if placed == U0:
        return False
    if closure(placed, cov, below, n) != placed:
        return False
    return component(placed, adj, n) == placed


@njit(cache=True)
def roll_masks(vals, d, cm):
    """``cm[s]``: bit ``c`` set iff ``c`` of the ``d`` dice in ``vals`` sum to ``s`` (``cm`` has 31 slots)."""
    for s in range(cm.shape[0]):
        cm[s] = 0
    for sub in range(1, 1 << d):
        s = 0
        c = 0
        for k in range(d):
            if (sub >> k) & 1:
                s += vals[k]
                c += 1
        cm[s] |= 1 << c


@njit(cache=True)
def choose(cov, placed, d, vals, below, adj, numbers, tiles, full, n, cm):
    """The greedy placement for a roll: ``(space, dice used)``, or ``(-1, 0)`` if nothing completable.

    Candidates use the fewest dice that sum to the space's number.  Preference: the placed set is valid
    right away (stop-safe), then completable with the dice left; more tiles; fewer dice; fewer extra
    spaces still needed; lowest space index.
    """
    roll_masks(vals, d, cm)
    free = full & ~cov & ~placed
    best_s = -1
    best_c = 0
    b_cat = 3
    b_tiles = 0
    b_need = INF
    for s in range(n):
        if not _has(free, s):
            continue
        num = numbers[s]
        if num > 6 * d:
            continue
        m = cm[num]
        if m == 0:
            continue
        c = 1
        while not (m >> c) & 1:
            c += 1
        need = min_completion(cov, placed | _bit(s), d - c, below, adj, full, n)
        if need >= INF:
            continue
        cat = 0 if need == 0 else 1
        t = tiles[s]
        better = False
        if cat != b_cat:
            better = cat < b_cat
        elif t != b_tiles:
            better = t > b_tiles
        elif c != best_c:
            better = c < best_c
        elif need != b_need:
            better = need < b_need
        if better:
            best_s, best_c, b_cat, b_tiles, b_need = s, c, cat, t, need
    return best_s, best_c


@njit(cache=True)
def burst_risk(cov, placed, d, below, adj, numbers, full, n, rcm, rw, rrows):
    """Exact chance that a roll of ``d`` dice offers no placement that can still become valid."""
    if d == 0:
        return 1.0
    free = full & ~cov & ~placed
    maxc = np.zeros(n, dtype=np.int64)
    any_space = False
    for s in range(n):
        if _has(free, s) and numbers[s] <= 6 * d:
            need = min_completion(cov, placed | _bit(s), d - 1, below, adj, full, n)
            if need < INF:
                maxc[s] = d - need
                any_space = True
    if not any_space:
        return 1.0
    unsafe = 0
    for r in range(rrows[d]):
        safe = False
        for s in range(n):
            if maxc[s] > 0 and (rcm[d, r, numbers[s]] & ((2 << maxc[s]) - 2)) != 0:
                safe = True
                break
        if not safe:
            unsafe += rw[d, r]
    return unsafe / 6.0 ** d


@njit(cache=True)
def policy_stops(kind, param, placements, cov, placed, d, below, adj, numbers, full, n, rcm, rw, rrows):
    """Whether a human-style policy stops now (called only when the placed set is valid and dice remain)."""
    if kind == KIND_GREEDY:
        return False
    if kind == KIND_STOP_AFTER:
        return placements >= param
    return burst_risk(cov, placed, d, below, adj, numbers, full, n, rcm, rw, rrows) > param


@njit(cache=True)
def _place_tiles(g, p, t, hands, gold_hand, gold_supply, gold_placed, winner, tiles_board, done, end):
    """Seat ``p`` puts ``t`` tiles on the board: regular ones, then gold once it has won."""
    if winner[g] == p:
        k = min(t, gold_hand[g])
        gold_hand[g] -= k
        gold_placed[g] += k
        tiles_board[g] += k
        if gold_hand[g] == 0:
            done[g] = True
            end[g] = END_GOLD_OUT
        return
    h = hands[g, p]
    if t < h:
        hands[g, p] = h - t
        tiles_board[g] += t
        return
    hands[g, p] = 0
    tiles_board[g] += h
    if winner[g] >= 0:  # a second player has placed all regular tiles
        done[g] = True
        end[g] = END_SECOND_OUT
        return
    winner[g] = p
    gold_hand[g] = gold_supply[g]
    gold_supply[g] = 0
    r = t - h
    if r > 0:
        k = min(r, gold_hand[g])
        gold_hand[g] -= k
        gold_placed[g] += k
        tiles_board[g] += k
        if gold_hand[g] == 0:
            done[g] = True
            end[g] = END_GOLD_OUT


@njit(cache=True)
def run_games(players, ndice, turn_limit, pol_kind, pol_param,
              below, adj, numbers, tiles, rows, full, n, rcm, rw, rrows,
              buf, pos, blen,
              cov, tokens, hands, yarn, gold_hand, gold_supply, gold_placed, winner, tiles_board,
              seat, turns, done, end, bursts, bonus_turns, yarn_won, yarn_spent):
    """Play every unfinished game until it ends or its dice buffer runs low at a turn boundary.

    All state lives in the arrays (one row per game), so a suspended game resumes exactly where it
    stopped once Python has appended dice to its buffer.  Returns the number of suspended games.
    """
    n_games = cov.shape[0]
    cm = np.zeros(31, dtype=np.int64)
    vals = np.zeros(8, dtype=np.int64)
    suspended = 0
    for g in range(n_games):
        while not done[g]:
            if blen[g] - pos[g] < DICE_PER_TURN_MAX:
                suspended += 1
                break
            p = seat[g]
            kind = pol_kind[p]
            param = pol_param[p]
            D = ndice
            while D >= 1:
                P = U0
                d = D
                nplace = 0
                ok = False
                while True:
                    for k in range(d):
                        vals[k] = buf[g, pos[g] + k]
                    pos[g] += d
                    s, c = choose(cov[g], P, d, vals, below, adj, numbers, tiles, full, n, cm)
                    while s < 0 and yarn[g, p] > 0:
                        yarn[g, p] -= 1
                        yarn_spent[g] += 1
                        for k in range(d):
                            vals[k] = buf[g, pos[g] + k]
                        pos[g] += d
                        s, c = choose(cov[g], P, d, vals, below, adj, numbers, tiles, full, n, cm)
                    if s < 0:
                        bursts[g] += 1
                        break
                    P |= _bit(s)
                    d -= c
                    nplace += 1
                    if is_valid(cov[g], P, below, adj, n):
                        if d == 0 or policy_stops(kind, param, nplace, cov[g], P, d, below, adj, numbers,
                                                   full, n, rcm, rw, rrows):
                            ok = True
                            break
                if not ok:
                    break
                won = popcount(P & tokens[g])
                tokens[g] &= ~P
                yarn[g, p] += won
                yarn_won[g] += won
                t = 0
                rowmask = 0
                for i in range(n):
                    if _has(P, i):
                        t += tiles[i]
                        rowmask |= 1 << rows[i]
                cov[g] |= P
                _place_tiles(g, p, t, hands, gold_hand, gold_supply, gold_placed, winner, tiles_board, done, end)
                if done[g]:
                    break
                if cov[g] == full:
                    done[g] = True
                    end[g] = END_BOARD_FULL
                    break
                nrows_used = 0
                while rowmask:
                    rowmask &= rowmask - 1
                    nrows_used += 1
                if not (d == 0 or nrows_used >= 3) or D == 1:
                    break
                D -= 1
                bonus_turns[g] += 1
            turns[g] += 1
            if not done[g]:
                seat[g] = (p + 1) % players
                if turns[g] >= turn_limit:
                    done[g] = True
                    end[g] = END_TURN_LIMIT
    return suspended
