"""Compiled Purramid rules on plain arrays (numba ``@njit(cache=True)``; runs as plain Python with
``NUMBA_DISABLE_JIT=1``, which is the pure-Python reference of the speed benchmark).

Sets of spaces are ``int64`` bit masks (a layout has at most 63 spaces; the default sides have 58-59).
Spaces are numbered row by row from the bottom, so every space directly below space ``i`` has a smaller
index -- one descending pass computes a downward closure (as :func:`.board.closure`; tests check they
agree).  The human-style policies keep their dice one connected group (each placement next to the dice
already placed), so a placement can still be completed iff the dice left can pay the uncovered spaces its
support forces -- each space showing ``n`` needs at least ``ceil(n / 6)`` dice (:func:`forced_dice`) -- and
the placement check at stop reduces to support (:func:`is_supported`).  Also here: the whole-game loop used by :mod:`.sim`.

Board arrays (see :func:`board_arrays`): ``brd[0..5, space]`` = below mask, adjacency mask, number, tiles,
row, fewest dice that can pay the space; ``full`` (mask of all spaces) and ``n``.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from . import exact as E
from .exact import board_arrays, risk_tables

__all__ = ["board_arrays", "risk_tables", "closure", "popcount", "forced_spaces", "forced_dice", "candidates",
           "is_supported", "roll_masks", "choose", "burst_risk", "policy_stops", "place_tiles", "run_games", "run_games_optimal", "human_turn", "end_turn", "INF",
           "END_NAMES", "N_STATE", "KIND_GREEDY", "KIND_OPTIMAL", "optimal_turn", "KIND_STOP_AFTER", "KIND_RISK", "NO_YARN",
           "DICE_PER_TURN_MAX"]

INF = 1 << 20
KIND_GREEDY, KIND_STOP_AFTER, KIND_RISK, KIND_OPTIMAL = 0, 1, 2, 3
#: Added to a human-style seat's policy kind in ``run_games``: the seat never spends yarn tokens (restricted play).
NO_YARN = 8
END_NONE, END_BOARD_FULL, END_SECOND_OUT, END_GOLD_OUT, END_TURN_LIMIT = 0, 1, 2, 3, 4
END_NAMES = ("running", "board_full", "second_player_out", "gold_placed", "turn_limit")
# columns of the per-game state matrix st[g, :]
(S_COV, S_TOKENS, S_GOLD_HAND, S_GOLD_SUPPLY, S_GOLD_PLACED, S_WINNER, S_TILES_BOARD, S_SEAT, S_TURNS, S_END,
 S_BURSTS, S_BONUS, S_YWON, S_YSPENT, S_POS, S_BLEN) = range(16)
N_STATE = 16
# dice one whole turn can consume: bonus chain 5+4+3+2+1 placements at most rolls 15+10+6+3+1 = 35 dice,
# plus at most 12 rerolls (12 tokens exist) of at most 5 dice
DICE_PER_TURN_MAX = 95


@njit(cache=True)
def popcount(mask):
    c = 0
    while mask != 0:
        mask &= mask - 1
        c += 1
    return c


@njit(cache=True)
def closure(placed, cov, brd, n):
    """``placed`` plus every uncovered space below it, recursively (one descending pass)."""
    result = placed
    for i in range(n - 1, -1, -1):
        if (result >> i) & 1 != 0:
            result |= brd[0, i] & ~cov
    return result


@njit(cache=True)
def is_supported(cov, placed, brd, n):
    """Every space of ``placed`` rests on covered or placed spaces (or the floor).  With the human-style
    policies the dice are one connected group by construction, so this is the whole placement check."""
    return placed != 0 and closure(placed, cov, brd, n) == placed


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
def forced_spaces(cov, placed, brd, n):
    """Uncovered spaces without dice that must still get dice for ``placed`` to be supported."""
    return popcount(closure(placed, cov, brd, n)) - popcount(placed)


@njit(cache=True)
def forced_dice(cov, placed, brd, n):
    """Fewest dice that can pay the uncovered spaces without dice that ``placed`` needs for support."""
    extra = closure(placed, cov, brd, n) & ~placed
    need = 0
    for i in range(n):
        if (extra >> i) & 1 != 0:
            need += brd[5, i]
    return need


@njit(cache=True)
def candidates(cov, placed, brd, full, n):
    """Empty spaces a human-style policy considers: any for the first placement, then only spaces
    adjacent to the dice already placed this turn (the dice stay one connected group)."""
    free = full & ~cov & ~placed
    if placed == 0:
        return free
    nb = 0
    for i in range(n):
        if (placed >> i) & 1 != 0:
            nb |= brd[1, i]
    return free & nb


@njit(cache=True)
def choose(cov, placed, d, vals, brd, full, n, cm):
    """The greedy placement for a roll: ``(space, dice used)``, or ``(-1, 0)`` if nothing completable.

    Candidates (see :func:`candidates`) use the fewest dice that sum to the space's number and must leave
    enough dice to pay the spaces still needed below them (:func:`forced_dice`: never a provably doomed
    placement).  Preference: the dice form a valid group right away (stop-safe); more tiles; fewer dice;
    fewer dice still needed; lowest space index.
    """
    roll_masks(vals, d, cm)
    cand = candidates(cov, placed, brd, full, n)
    best_s = -1
    best_c = 0
    b_cat = 3
    b_tiles = 0
    b_need = INF
    for s in range(n):
        if (cand >> s) & 1 == 0:
            continue
        num = brd[2, s]
        if num > 6 * d:
            continue
        m = cm[num]
        if m == 0:
            continue
        c = 1
        while not (m >> c) & 1:
            c += 1
        need = forced_dice(cov, placed | (1 << s), brd, n)
        if need > d - c:
            continue
        cat = 0 if need == 0 else 1
        t = brd[3, s]
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
def burst_risk(cov, placed, d, brd, full, n, rcm, rw, rrows, work):
    """Exact chance that a roll of ``d`` dice offers the policy no completable placement (``work``: an int
    array of ``2 * n`` slots)."""
    if d == 0:
        return 1.0
    cand = candidates(cov, placed, brd, full, n)
    k = 0
    for s in range(n):
        if (cand >> s) & 1 != 0 and brd[2, s] <= 6 * d:
            need = forced_dice(cov, placed | (1 << s), brd, n)
            if need < d:
                work[k] = brd[2, s]
                work[n + k] = (2 << (d - need)) - 2  # the dice counts 1..d-need that leave enough dice
                k += 1
    unsafe = 0
    total = 0
    for r in range(rrows[d]):
        total += rw[d, r]
        safe = False
        for j in range(k):
            if rcm[d, r, work[j]] & work[n + j] != 0:
                safe = True
                break
        if not safe:
            unsafe += rw[d, r]
    return unsafe / total


@njit(cache=True)
def policy_stops(kind, param, placements, cov, placed, d, brd, full, n, rcm, rw, rrows, work):
    """Whether a human-style policy stops now (asked only when the dice are a valid group and dice remain)."""
    if kind == KIND_GREEDY:
        return False
    if kind == KIND_STOP_AFTER:
        return placements >= param
    return burst_risk(cov, placed, d, brd, full, n, rcm, rw, rrows, work) > param


@njit(cache=True)
def place_tiles(st, hands, g, p, t):
    """Seat ``p`` of game ``g`` puts ``t`` tiles on the board: regular ones, then gold once it has won."""
    if st[g, S_WINNER] == p:
        k = min(t, st[g, S_GOLD_HAND])
        st[g, S_GOLD_HAND] -= k
        st[g, S_GOLD_PLACED] += k
        st[g, S_TILES_BOARD] += k
        if st[g, S_GOLD_HAND] == 0:
            st[g, S_END] = END_GOLD_OUT
        return
    h = hands[g, p]
    if t < h:
        hands[g, p] = h - t
        st[g, S_TILES_BOARD] += t
        return
    hands[g, p] = 0
    st[g, S_TILES_BOARD] += h
    if st[g, S_WINNER] >= 0:  # a second player has placed all regular tiles
        st[g, S_END] = END_SECOND_OUT
        return
    st[g, S_WINNER] = p
    st[g, S_GOLD_HAND] = st[g, S_GOLD_SUPPLY]
    st[g, S_GOLD_SUPPLY] = 0
    r = t - h
    if r > 0:
        k = min(r, st[g, S_GOLD_HAND])
        st[g, S_GOLD_HAND] -= k
        st[g, S_GOLD_PLACED] += k
        st[g, S_TILES_BOARD] += k
        if st[g, S_GOLD_HAND] == 0:
            st[g, S_END] = END_GOLD_OUT


# inlined (numba IR) into run_games_optimal, its only compiled caller: compiled alone it was one more library
# that links the exact solver and is optimised again inside its caller (about 2.5 s of a cold compile)
@njit(cache=True, nogil=True, inline="always")
def optimal_turn(g, p, spec, K, ndice, buf, pos, st, hands, yarn, tv, brd, full, n, cm, vals, sc, mem):
    """Seat ``p`` of game ``g`` plays a whole turn with the exact policy of objective row ``spec`` (``K``:
    tiles aimed at for ``at_least``), deciding every roll and every stop from the compiled solver's memo
    ``mem``.  Adds the turn's exact value and what it realised (as :func:`.rules.play_turn`) to ``tv[g, p]``.
    Returns ``(next die position, mem)``."""
    okind = sc[5][spec]
    yv = sc[7][spec]
    y = yarn[g, p]
    cov = st[g, S_COV]
    need = K if okind == 1 else 0
    D = ndice
    v0, b0, mem = E.solve(E.F_ROLL, cov, 0, D, D, y, need, spec, sc, mem)
    tv[g, p, 0] += v0
    realized = 0.0
    tiles = 0
    spent = 0
    bursts = 0
    ended = False
    final = 0.0
    while D >= 1:
        P = 0
        d = D
        ok = False
        while True:
            kind = 0
            s = -1
            c = 0
            while True:  # roll; reroll with a token while that is the best choice
                for kk in range(d):
                    vals[kk] = buf[g, pos + kk]
                pos += d
                v, b, mem = E.solve(E.F_ROLL, cov, P, d, D, y, need, spec, sc, mem)
                roll_masks(vals, d, cm)
                kind, s, c = E.decide_roll(cov, P, d, D, y, need, spec, cm, sc, mem)
                if kind != 2 or y == 0:
                    break
                y -= 1
                spent += 1
            if kind != 1:
                bursts += 1
                break
            P |= 1 << s
            d -= c
            stop = True
            if d > 0:
                sv, sb, mem = E.solve(E.F_STOP, cov, P, d, D, y, need, spec, sc, mem)
                cv, cb, mem = E.solve(E.F_ROLL, cov, P, d, D, y, need, spec, sc, mem)
                stop = not (cv > sv + E.TOL or (abs(cv - sv) <= E.TOL and cb < sb - E.TOL))
            if stop:
                if closure(P, cov, brd, n) == P and E.connected(P, brd):
                    ok = True
                else:
                    bursts += 1
                break
        if not ok:
            break
        final, fb, mem = E.solve(E.F_STOP, cov, P, d, D, y, need, spec, sc, mem)
        won = popcount(P & st[g, S_TOKENS])
        st[g, S_TOKENS] &= ~P
        y += won
        st[g, S_YWON] += won
        t = 0
        rowmask = 0
        for i in range(n):
            if (P >> i) & 1 != 0:
                t += brd[3, i]
                rowmask |= 1 << brd[4, i]
        cov |= P
        st[g, S_COV] = cov
        place_tiles(st, hands, g, p, t)
        if st[g, S_END] == END_NONE and cov == full:
            st[g, S_END] = END_BOARD_FULL
        if st[g, S_END] != END_NONE:
            ended = True
            break
        realized += t + yv * won
        tiles += t
        if not (d == 0 or popcount(rowmask) >= 3) or D == 1:
            break
        D -= 1
        st[g, S_BONUS] += 1
        if okind == 1:
            need = max(need - t, 0)
    if okind == 1:
        tv[g, p, 1] += final if ended else (1.0 if tiles >= K else 0.0)
    else:
        tv[g, p, 1] += final + (realized - yv * spent) if ended else realized - yv * spent
    yarn[g, p] = y
    st[g, S_BURSTS] += bursts
    st[g, S_YSPENT] += spent
    return pos, mem


# human_turn and end_turn are inlined (numba IR) into the games loops: compiled alone, each would be a library of
# its own, code-generated again inside run_games (a first greedy simulate_games(100) spends 0.4 s CPU less)
@njit(cache=True, nogil=True, inline="always")
def human_turn(g, p, kind, param, ndice, buf, pos, st, hands, yarn, brd, full, n, rcm, rw, rrows, cm, vals, work):
    """Seat ``p`` of game ``g`` plays a whole turn with the human-style policy ``kind`` (plus :data:`NO_YARN`:
    never spend yarn tokens) and parameter ``param``, from die ``pos`` of its buffer; updates the game's state
    (tokens, tiles, bursts, yarn) but not the turn count or seat.  Returns the next die position.

    ``rcm`` is None when every seat is greedy (``kind % NO_YARN == KIND_GREEDY``, whose
    :func:`policy_stops` is always False): numba then prunes that call at compile time, so a greedy games
    loop never compiles :func:`policy_stops` and :func:`burst_risk` (same games, less to compile)."""
    y = yarn[g, p]
    cov = st[g, S_COV]
    bursts = 0
    spent = 0
    D = ndice
    while D >= 1:
        P = np.int64(0)  # typed, not Literal[int](0): one compiled version of choose()
        d = D
        nplace = 0
        ok = False
        while True:
            s = -1
            c = 0
            while True:  # roll, then reroll with a yarn token while nothing can be completed
                for k in range(d):
                    vals[k] = buf[g, pos + k]
                pos += d
                s, c = choose(cov, P, d, vals, brd, full, n, cm)
                if s >= 0 or y == 0 or kind >= NO_YARN:
                    break
                y -= 1
                spent += 1
            if s < 0:
                bursts += 1
                break
            P |= 1 << s
            d -= c
            nplace += 1
            if closure(P, cov, brd, n) == P:
                # rcm None: every seat is greedy and never stops early (the branch is pruned at compile time)
                if d == 0 or (rcm is not None and policy_stops(kind % NO_YARN, param, nplace, cov, P, d, brd,
                                                                full, n, rcm, rw, rrows, work)):
                    ok = True
                    break
        if not ok:
            break
        won = popcount(P & st[g, S_TOKENS])
        st[g, S_TOKENS] &= ~P
        y += won
        st[g, S_YWON] += won
        t = np.int64(0)  # typed zeros: no extra Literal[int](0) compilations
        rowmask = np.int64(0)
        for i in range(n):
            if (P >> i) & 1 != 0:
                t += brd[3, i]
                rowmask |= 1 << brd[4, i]
        cov |= P
        st[g, S_COV] = cov
        place_tiles(st, hands, g, p, t)
        if st[g, S_END] != END_NONE:
            break
        if cov == full:
            st[g, S_END] = END_BOARD_FULL
            break
        if not (d == 0 or popcount(rowmask) >= 3) or D == 1:
            break
        D -= 1
        st[g, S_BONUS] += 1
    yarn[g, p] = y
    st[g, S_BURSTS] += bursts
    st[g, S_YSPENT] += spent
    return pos


@njit(cache=True, nogil=True, inline="always")
def end_turn(g, p, players, turn_limit, st):
    """Count the turn of seat ``p`` in game ``g`` and pass the dice on (or end the game at the turn limit)."""
    st[g, S_TURNS] += 1
    if st[g, S_END] == END_NONE:
        st[g, S_SEAT] = (p + 1) % players
        if st[g, S_TURNS] >= turn_limit:
            st[g, S_END] = END_TURN_LIMIT


@njit(cache=True, nogil=True)
def run_games(players, ndice, turn_limit, pol_kind, pol_param, brd, full, n, rcm, rw, rrows, buf, st, hands, yarn):
    """Play every unfinished game of human-style seats until it ends or its dice buffer runs low at a turn
    boundary.

    All state lives in the arrays (one row per game: ``st[g, S_*]``, ``hands[g, seat]``, ``yarn[g, seat]``),
    so a suspended game resumes exactly where it stopped once Python has appended dice to its buffer
    ``buf[g]`` (``st[g, S_POS]`` next die, ``st[g, S_BLEN]`` dice in the buffer).  Games with optimal seats
    run :func:`run_games_optimal` instead: this loop never calls the exact solver, so compiling it does not
    compile the solver.  ``rcm`` may be None when every seat is greedy (see :func:`human_turn`: a second,
    smaller specialisation that plays the same games).  Returns the number of suspended games.
    """
    cm = np.zeros(31, dtype=np.int64)
    vals = np.zeros(8, dtype=np.int64)
    work = np.zeros(2 * n, dtype=np.int64)
    suspended = 0
    for g in range(st.shape[0]):
        while st[g, S_END] == END_NONE:
            pos = st[g, S_POS]
            if st[g, S_BLEN] - pos < DICE_PER_TURN_MAX:
                suspended += 1
                break
            p = st[g, S_SEAT]
            st[g, S_POS] = human_turn(g, p, pol_kind[p], pol_param[p], ndice, buf, pos, st, hands, yarn, brd, full, n,
                                      rcm, rw, rrows, cm, vals, work)
            end_turn(g, p, players, turn_limit, st)
    return suspended


@njit(cache=True, nogil=True)
def run_games_optimal(players, ndice, turn_limit, pol_kind, pol_param, pol_spec, pol_k, brd, full, n, rcm, rw, rrows,
                      buf, st, hands, yarn, tv, sc, mem, memo_max):
    """:func:`run_games` for games with optimal seats (``pol_kind`` KIND_OPTIMAL): those play
    :func:`optimal_turn` with the solver memo ``mem``, ``tv[g, seat]`` collects their exact and realised turn
    values.  Returns ``(suspended games, mem, memo full)``: when the memo holds more than ``memo_max``
    entries at a turn boundary, the loop returns there (``memo full`` True) for the caller to prune the
    memo (:mod:`.memopool`) and call again; values never depend on the memo.
    """
    cm = np.zeros(31, dtype=np.int64)
    vals = np.zeros(8, dtype=np.int64)
    work = np.zeros(2 * n, dtype=np.int64)
    suspended = 0
    for g in range(st.shape[0]):
        while st[g, S_END] == END_NONE:
            pos = st[g, S_POS]
            if st[g, S_BLEN] - pos < DICE_PER_TURN_MAX:
                suspended += 1
                break
            p = st[g, S_SEAT]
            if pol_kind[p] == KIND_OPTIMAL:
                if mem[3][0] > memo_max:
                    return suspended, mem, True
                pos, mem = optimal_turn(g, p, pol_spec[p], pol_k[p], ndice, buf, pos, st, hands, yarn, tv, brd, full,
                                        n, cm, vals, sc, mem)
            else:
                pos = human_turn(g, p, pol_kind[p], pol_param[p], ndice, buf, pos, st, hands, yarn, brd, full, n,
                                 rcm, rw, rrows, cm, vals, work)
            st[g, S_POS] = pos
            end_turn(g, p, players, turn_limit, st)
    return suspended, mem, False
