"""Bonus turns of 2, 3 and 4 dice computed directly (used by :mod:`pyradice_lab.purramid.exact`): the frames'
functions (:mod:`._exact_options`: options, their ranking, the sum over a roll's outcomes) in the frames' order,
token level by level, on scratch rows instead of memo entries, frames and boards.  Only a fresh bonus turn of the
objective "tiles" with a token value ``>= 0`` is computed here (most of the solver's states were inside these
turns); its value is memoised as one row (table tag ``T_TURN``), apart from the frames' ROLL rows, whose options'
rows :func:`.exact.decide_roll` reads at the table.  The turn with ``y`` tokens is computed token level by token
level, and each level below ``y`` is the same turn with fewer tokens: those are kept too (half the turns the
solver met were one board at several token counts).  Tests compare every function with the frames bit for bit.

A state met by several orders of placement (one die left on ``{a, b}``: ``a`` then ``b`` or ``b`` then ``a``) is
computed once per token level in a 3- or 4-dice turn: its first visit keeps its value in the turn's *state cache*
(:func:`_seen`, ``HS`` scratch rows keyed by the spaces, the dice left and the level; emptied when the turn
starts), the later ones read it.  Every state's value one token level below (the reroll) lies in a *slot*,
numbered in visiting order, which is the same at every level (so are the visits the cache answers).
"""

from __future__ import annotations

from ..engine._jit import njit
from ._exact_options import (  # noqa: I001
    MAX_YARN,
    MODE_APPROX,
    MODE_AUTO,
    MODE_EXACT,
    MODE_NONE,
    T_TURN,
    _better,
    _entries_in,
    _one_die_turn,
    _options,
    _roll_sum,
)
from .memo import M_COUNT, closure, connected, ctz, put, rows3, slot, small_key, sum_row


@njit(cache=True, nogil=True, _nrt=False)
def _stop_head(cov, P, left, yv, mode, brd, eight):
    """What every direct turn's stop on ``P`` (``left`` dice unplaced) shares with the AFTER frame: ``(valid,
    value without the bonus turn, tokens taken, whether a bonus turn follows)``."""
    if P == 0 or closure(P, cov, brd) != P or not connected(P, brd):
        return False, 0.0, 0, False
    e = 0
    x = P
    while x != 0:
        low = x & -x
        x ^= low
        e += eight[ctz(low)]
    return True, sum_row(P, brd, 3) + yv * e, e, (left == 0 or rows3(P, brd) == 1) and mode != MODE_NONE


@njit(cache=True, nogil=True, _nrt=False)
def _turn_groups(cov, most, full, grp, scr, base, auto_max, mode):
    """The valid groups of board ``(cov, most)`` -- :func:`.memo.build_board`'s filter of ``grp``, in its order --
    into scratch rows from ``base`` (columns ``P_F``, ``P_COST``): ``(their number, bonus mode code with "auto"
    resolved on this board)``."""
    free = full & ~cov
    ng = 0
    for g in range(grp.shape[0]):
        if grp[g, 2] > most:
            break
        x = grp[g, 0]
        if x & free != x or grp[g, 1] & ~cov != 0:
            continue
        scr[base + ng, 0] = x
        scr[base + ng, 1] = grp[g, 2]
        ng += 1
    if mode == MODE_AUTO:
        mode = MODE_EXACT if ng <= auto_max else MODE_APPROX
    return ng, mode


@njit(cache=True, nogil=True, _nrt=False)
def _stop2(cov, P, left, y, yv, mode, brd, eight):
    """Stopping on ``P`` with ``left`` dice unplaced in a 2-dice turn (objective "tiles", token value ``yv >= 0``,
    bonus ``mode`` resolved): ``(value, burst)``, the arithmetic of the AFTER frame and :func:`_stop_known`."""
    ok, sv, e, bonus = _stop_head(cov, P, left, yv, mode, brd, eight)
    if not ok:
        return 0.0, 1.0
    if bonus:
        sv += _one_die_turn(cov | P if mode == MODE_EXACT else cov, min(y + e, MAX_YARN), yv, brd)
    return sv, 0.0


@njit(cache=True, nogil=True, _nrt=False)
def _two_dice_turn(T, TF, meta, cov, y, yv, spec, mode, auto_max, full, brd, eight, grp, scr, scv, base, need, wk,
                   wf, cm, w, nrows, avb):
    """The value ``(v, burst)`` of a fresh 2-dice turn on board ``cov`` with ``y`` tokens worth ``yv >= 0`` each
    (objective "tiles"; bonus ``mode`` code, "auto" resolved on this board), computed directly -- no frame, no
    board, one memo entry (the caller's) instead of a dozen -- with the solver's own functions in its order:
    the board's valid groups (:func:`.memo.build_board`'s filter of ``grp``) on scratch rows from ``base``,
    the roll's options (:func:`_entries_in`), each 1-die option's state (stop, or roll the last die: its
    options stop, with a 1-die bonus turn), then :func:`_options` and :func:`_roll_sum`, token level by token
    level (a reroll reads the level below).  A 3-dice segment's bonus turn reads it (two fifths of the memo's
    entries were these turns; a test compares it with the frames).  Scratch rows used: at most the groups of
    at most 2 dice, plus five per space."""
    ng, mode = _turn_groups(cov, 2, full, grp, scr, base, auto_max, mode)
    e0 = base + ng
    cnt0 = _entries_in(0, 2, base, ng, brd, scr, scr, e0, need)
    r1 = e0 + cnt0       # per root option: its 1-die state's roll value, one token level below (scv)
    q = r1 + cnt0        # one 1-die state's options
    rv = 0.0
    rb = 1.0
    for yl in range(y + 1):
        for e in range(e0, e0 + cnt0):
            P = 1 << scr[e, 0]
            if scr[e, 1] == 2:
                scv[e, 0], scv[e, 1] = _stop2(cov, P, 0, yl, yv, mode, brd, eight)
                continue
            cnt = _entries_in(P, 1, base, ng, brd, scr, scr, q, need)
            for i in range(q, q + cnt):
                scv[i, 0], scv[i, 1] = _stop2(cov, P | (1 << scr[i, 0]), 0, yl, yv, mode, brd, eight)
            nk = _options(brd, scr, scv, q, cnt, wk, wf)
            j = r1 + e - e0
            v1, b1 = _roll_sum(1, yl > 0, scv[j, 0] - yv, scv[j, 1], wk, wf, nk, cm, w, nrows, avb)
            scv[j, 0] = v1
            scv[j, 1] = b1
            sv, sb = _stop2(cov, P, 1, yl, yv, mode, brd, eight)
            if _better(v1, b1, sv, sb):
                sv = v1
                sb = b1
            scv[e, 0] = sv
            scv[e, 1] = sb
        nk = _options(brd, scr, scv, e0, cnt0, wk, wf)
        rv, rb = _roll_sum(2, yl > 0, rv - yv, rb, wk, wf, nk, cm, w, nrows, avb)
        if yl < y:  # the turn with yl tokens, on the way: kept too (_keep)
            _keep(T, TF, meta, cov, small_key(T_TURN, 2, 2, yl, 0, spec), rv, rb)
    return rv, rb


@njit(cache=True, nogil=True, _nrt=False)
def _stop3(T, TF, meta, cov, P, left, y, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv, base2,
           need, wk, wf, cm, w, nrows, avb):
    """:func:`_stop2` in a 3-dice turn: the bonus turn is a 2-dice one, read from the memo (``T_TURN`` row) or
    computed by :func:`_two_dice_turn` on the scratch rows from ``base2`` and memoised (:func:`_keep`)."""
    ok, sv, e, bonus = _stop_head(cov, P, left, yv, mode, brd, eight)
    if not ok:
        return 0.0, 1.0
    if bonus:
        c2 = cov | P if mode == MODE_EXACT else cov
        key2 = small_key(T_TURN, 2, 2, min(y + e, MAX_YARN), 0, spec)
        i = slot(T, c2, 0, key2)
        if T[i, 2] != -1:
            return sv + TF[i, 4], 0.0
        v2, _ = _two_dice_turn(T, TF, meta, c2, min(y + e, MAX_YARN), yv, spec, sp_mode[spec], auto_max, full, brd,
                               eight, grp, scr, scv, base2, need, wk, wf, cm, w, nrows, avb)
        _keep(T, TF, meta, c2, key2, v2, _)
        sv += v2
    return sv, 0.0


@njit(cache=True, nogil=True, _nrt=False)
def _keep(T, TF, meta, cov, key, v, b):
    """Memoise a computed bonus turn's value if the table stays at most half full (the frames grow it between
    steps; a step computing a 4-dice turn may compute hundreds of smaller ones, each kept while there is room)."""
    if 2 * (meta[M_COUNT] + 4) <= T.shape[0]:
        put(T, TF, meta, cov, 0, key, v, b)


#: rows of a 3- or 4-dice turn's state cache (:func:`_seen`)
HS = 512


@njit(cache=True, nogil=True, _nrt=False)
def _clear_seen(scr, h0):
    """Empty the state cache at scratch rows ``h0 .. h0 + HS - 1`` (stamp 0: no level's)."""
    for r in range(h0, h0 + HS):
        scr[r, 1] = 0


@njit(cache=True, nogil=True, _nrt=False)
def _seen(scr, h0, P, tag):
    """A state met by several orders of placement, in the state cache at scratch rows ``h0 .. h0 + HS - 1``
    (``tag``: the token level + 1, times 8, plus the dice left; an entry of another level is free): its row if
    this level met it (value in ``scv``), else ``-2 - row`` of the free row to keep it in, or ``-1``."""
    i = ((P * 0x5851F42D4C957F2D) >> 40) & (HS - 1)
    st = tag >> 3
    for t in range(8):
        r = h0 + ((i + t) & (HS - 1))
        if scr[r, 1] >> 3 != st:
            return -2 - r
        if scr[r, 1] == tag and scr[r, 0] == P:
            return r
    return -1


@njit(cache=True, nogil=True, _nrt=False)
def _put_seen(scr, scv, r, P, tag, v, b):
    """Keep a state's value in row ``r`` of the state cache (a free row :func:`_seen` gave)."""
    scr[r, 0] = P
    scr[r, 1] = tag
    scv[r, 0] = v
    scv[r, 1] = b


@njit(cache=True, nogil=True, _nrt=False)
def _last_die(T, TF, meta, cov, P, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv, gb, ng, q,
              slot_, base2, need, wk, wf, cm, w, nrows, avb):
    """A 3-dice turn's state with one die left on ``P`` at token level ``yl``: its roll's value (each option
    stops; the reroll reads ``scv[slot_]``, the level below, which it then replaces), against stopping now (the
    board's groups in scratch rows ``gb .. gb + ng - 1``, the options from row ``q``)."""
    cnt = _entries_in(P, 1, gb, ng, brd, scr, scr, q, need)
    for i in range(q, q + cnt):
        scv[i, 0], scv[i, 1] = _stop3(T, TF, meta, cov, P | (1 << scr[i, 0]), 0, yl, yv, mode, spec, sp_mode, auto_max,
                                      full, brd, eight, grp, scr, scv, base2, need, wk, wf, cm, w, nrows, avb)
    nk = _options(brd, scr, scv, q, cnt, wk, wf)
    v1, b1 = _roll_sum(1, yl > 0, scv[slot_, 0] - yv, scv[slot_, 1], wk, wf, nk, cm, w, nrows, avb)
    scv[slot_, 0] = v1
    scv[slot_, 1] = b1
    sv, sb = _stop3(T, TF, meta, cov, P, 1, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv,
                    base2, need, wk, wf, cm, w, nrows, avb)
    if _better(v1, b1, sv, sb):
        return v1, b1
    return sv, sb


@njit(cache=True, nogil=True, _nrt=False)
def _three_dice_turn(T, TF, meta, cov, y, yv, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv, base, need,
                     wk, wf, cm, w, nrows, avb):
    """:func:`_two_dice_turn` for a fresh 3-dice turn (a 4-dice segment's bonus turn): the same functions in the
    frames' order, token level by level; the 2-dice bonus turns its stops earn are read from the memo or
    computed and memoised.
    Scratch rows from ``base``: the groups of at most 3 dice, then the options of the roll, of one 2-dice state
    and of one 1-die state, the states' values one token level below (in visiting order; at most ``n * n + 3 * n``),
    the state cache (``HS`` rows), then :func:`_two_dice_turn`'s rows."""
    n = brd.shape[1]
    ng, mode = _turn_groups(cov, 3, full, grp, scr, base, auto_max, sp_mode[spec])
    e0 = base + ng
    cnt0 = _entries_in(0, 3, base, ng, brd, scr, scr, e0, need)
    qB = e0 + cnt0          # one 2-dice state's options
    qC = qB + 2 * n         # one 1-die state's options
    sl = qC + n             # the states' values one token level below
    hc = sl + n * n + 3 * n  # the state cache (_seen)
    base2 = hc + HS
    _clear_seen(scr, hc)
    rv = 0.0
    rb = 1.0
    for yl in range(y + 1):
        k = sl
        for e in range(e0, e0 + cnt0):
            P = 1 << scr[e, 0]
            c = scr[e, 1]
            if c == 3:
                scv[e, 0], scv[e, 1] = _stop3(T, TF, meta, cov, P, 0, yl, yv, mode, spec, sp_mode, auto_max, full, brd,
                                              eight, grp, scr, scv, base2, need, wk, wf, cm, w, nrows, avb)
            elif c == 2:
                scv[e, 0], scv[e, 1] = _last_die(T, TF, meta, cov, P, yl, yv, mode, spec, sp_mode, auto_max, full, brd,
                                                 eight, grp, scr, scv, base, ng, qC, k, base2, need, wk, wf, cm, w,
                                                 nrows, avb)
                k += 1
            else:  # one die on P, two left: roll them
                cntB = _entries_in(P, 2, base, ng, brd, scr, scr, qB, need)
                for i in range(qB, qB + cntB):
                    P2 = P | (1 << scr[i, 0])
                    if scr[i, 1] == 2:
                        scv[i, 0], scv[i, 1] = _stop3(T, TF, meta, cov, P2, 0, yl, yv, mode, spec, sp_mode, auto_max,
                                                      full, brd, eight, grp, scr, scv, base2, need, wk, wf, cm, w,
                                                      nrows, avb)
                    else:  # two spaces, one die left: met in both orders
                        h = _seen(scr, hc, P2, (yl + 1) * 8 + 1)
                        if h >= 0:
                            scv[i, 0] = scv[h, 0]
                            scv[i, 1] = scv[h, 1]
                            continue
                        scv[i, 0], scv[i, 1] = _last_die(T, TF, meta, cov, P2, yl, yv, mode, spec, sp_mode, auto_max,
                                                         full, brd, eight, grp, scr, scv, base, ng, qC, k, base2, need,
                                                         wk, wf, cm, w, nrows, avb)
                        k += 1
                        if h < -1:
                            _put_seen(scr, scv, -2 - h, P2, (yl + 1) * 8 + 1, scv[i, 0], scv[i, 1])
                nk = _options(brd, scr, scv, qB, cntB, wk, wf)
                v2, b2 = _roll_sum(2, yl > 0, scv[k, 0] - yv, scv[k, 1], wk, wf, nk, cm, w, nrows, avb)
                scv[k, 0] = v2
                scv[k, 1] = b2
                k += 1
                sv, sb = _stop3(T, TF, meta, cov, P, 2, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp,
                                scr, scv, base2, need, wk, wf, cm, w, nrows, avb)
                if _better(v2, b2, sv, sb):
                    sv = v2
                    sb = b2
                scv[e, 0] = sv
                scv[e, 1] = sb
        nk = _options(brd, scr, scv, e0, cnt0, wk, wf)
        rv, rb = _roll_sum(3, yl > 0, rv - yv, rb, wk, wf, nk, cm, w, nrows, avb)
        if yl < y:  # the turn with yl tokens, on the way: kept too (_keep)
            _keep(T, TF, meta, cov, small_key(T_TURN, 3, 3, yl, 0, spec), rv, rb)
    return rv, rb


# ------------------------------------------------------------------------------------------ 4 dice
# (numba compiles no recursion it can cache: the 4-dice turn's states repeat the 3-dice ones with _stop4)
@njit(cache=True, nogil=True, _nrt=False)
def _stop4(T, TF, meta, cov, P, left, y, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv, base3,
           need, wk, wf, cm, w, nrows, avb):
    """:func:`_stop3` in a 4-dice turn: the bonus turn is a 3-dice one (:func:`_three_dice_turn` on the scratch
    rows from ``base3``, memoised)."""
    ok, sv, e, bonus = _stop_head(cov, P, left, yv, mode, brd, eight)
    if not ok:
        return 0.0, 1.0
    if bonus:
        c2 = cov | P if mode == MODE_EXACT else cov
        key3 = small_key(T_TURN, 3, 3, min(y + e, MAX_YARN), 0, spec)
        i = slot(T, c2, 0, key3)
        if T[i, 2] != -1:
            return sv + TF[i, 4], 0.0
        v3, b3 = _three_dice_turn(T, TF, meta, c2, min(y + e, MAX_YARN), yv, spec, sp_mode, auto_max, full, brd, eight,
                                  grp, scr, scv, base3, need, wk, wf, cm, w, nrows, avb)
        _keep(T, TF, meta, c2, key3, v3, b3)
        sv += v3
    return sv, 0.0


@njit(cache=True, nogil=True, _nrt=False)
def _last_die4(T, TF, meta, cov, P, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv, gb, ng, q,
               slot_, base3, need, wk, wf, cm, w, nrows, avb):
    """:func:`_last_die` in a 4-dice turn."""
    cnt = _entries_in(P, 1, gb, ng, brd, scr, scr, q, need)
    for i in range(q, q + cnt):
        scv[i, 0], scv[i, 1] = _stop4(T, TF, meta, cov, P | (1 << scr[i, 0]), 0, yl, yv, mode, spec, sp_mode, auto_max,
                                      full, brd, eight, grp, scr, scv, base3, need, wk, wf, cm, w, nrows, avb)
    nk = _options(brd, scr, scv, q, cnt, wk, wf)
    v1, b1 = _roll_sum(1, yl > 0, scv[slot_, 0] - yv, scv[slot_, 1], wk, wf, nk, cm, w, nrows, avb)
    scv[slot_, 0] = v1
    scv[slot_, 1] = b1
    sv, sb = _stop4(T, TF, meta, cov, P, 1, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv,
                    base3, need, wk, wf, cm, w, nrows, avb)
    if _better(v1, b1, sv, sb):
        return v1, b1
    return sv, sb


@njit(cache=True, nogil=True, _nrt=False)
def _two_left4(T, TF, meta, cov, P, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv, gb, ng, q2,
               k, hc, base3, need, wk, wf, cm, w, nrows, avb):
    """A 4-dice turn's state with two dice left on ``P``: ``(value, burst, next slot)`` (its options from row
    ``q2``, a 1-die state's from ``q2 + 2n``; slots from ``k``)."""
    q1 = q2 + 2 * brd.shape[1]
    cnt = _entries_in(P, 2, gb, ng, brd, scr, scr, q2, need)
    for i in range(q2, q2 + cnt):
        P2 = P | (1 << scr[i, 0])
        if scr[i, 1] == 2:
            scv[i, 0], scv[i, 1] = _stop4(T, TF, meta, cov, P2, 0, yl, yv, mode, spec, sp_mode, auto_max, full, brd,
                                          eight, grp, scr, scv, base3, need, wk, wf, cm, w, nrows, avb)
        else:  # one die left on two or three spaces: met in several orders
            h = _seen(scr, hc, P2, (yl + 1) * 8 + 1)
            if h >= 0:
                scv[i, 0] = scv[h, 0]
                scv[i, 1] = scv[h, 1]
                continue
            scv[i, 0], scv[i, 1] = _last_die4(T, TF, meta, cov, P2, yl, yv, mode, spec, sp_mode, auto_max, full, brd,
                                              eight, grp, scr, scv, gb, ng, q1, k, base3, need, wk, wf, cm, w, nrows,
                                              avb)
            k += 1
            if h < -1:
                _put_seen(scr, scv, -2 - h, P2, (yl + 1) * 8 + 1, scv[i, 0], scv[i, 1])
    nk = _options(brd, scr, scv, q2, cnt, wk, wf)
    v2, b2 = _roll_sum(2, yl > 0, scv[k, 0] - yv, scv[k, 1], wk, wf, nk, cm, w, nrows, avb)
    scv[k, 0] = v2
    scv[k, 1] = b2
    sv, sb = _stop4(T, TF, meta, cov, P, 2, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv,
                    base3, need, wk, wf, cm, w, nrows, avb)
    if _better(v2, b2, sv, sb):
        return v2, b2, k + 1
    return sv, sb, k + 1


@njit(cache=True, nogil=True, _nrt=False)
def _three_left4(T, TF, meta, cov, P, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv, gb, ng,
                 q3, k, hc, base3, need, wk, wf, cm, w, nrows, avb):
    """A 4-dice turn's state with three dice left on ``P``: ``(value, burst, next slot)`` (its options from row
    ``q3``, the smaller states' after ``3n`` rows)."""
    q2 = q3 + 3 * brd.shape[1]
    cnt = _entries_in(P, 3, gb, ng, brd, scr, scr, q3, need)
    for i in range(q3, q3 + cnt):
        P2 = P | (1 << scr[i, 0])
        c = scr[i, 1]
        if c == 3:
            scv[i, 0], scv[i, 1] = _stop4(T, TF, meta, cov, P2, 0, yl, yv, mode, spec, sp_mode, auto_max, full, brd,
                                          eight, grp, scr, scv, base3, need, wk, wf, cm, w, nrows, avb)
        else:  # two spaces, one or two dice left: met in several orders
            tag = (yl + 1) * 8 + 3 - c
            h = _seen(scr, hc, P2, tag)
            if h >= 0:
                scv[i, 0] = scv[h, 0]
                scv[i, 1] = scv[h, 1]
                continue
            if c == 2:
                scv[i, 0], scv[i, 1] = _last_die4(T, TF, meta, cov, P2, yl, yv, mode, spec, sp_mode, auto_max, full,
                                                  brd, eight, grp, scr, scv, gb, ng, q2 + 2 * brd.shape[1], k, base3,
                                                  need, wk, wf, cm, w, nrows, avb)
                k += 1
            else:
                scv[i, 0], scv[i, 1], k = _two_left4(T, TF, meta, cov, P2, yl, yv, mode, spec, sp_mode, auto_max, full,
                                                     brd, eight, grp, scr, scv, gb, ng, q2, k, hc, base3, need, wk, wf,
                                                     cm, w, nrows, avb)
            if h < -1:
                _put_seen(scr, scv, -2 - h, P2, tag, scv[i, 0], scv[i, 1])
    nk = _options(brd, scr, scv, q3, cnt, wk, wf)
    v3, b3 = _roll_sum(3, yl > 0, scv[k, 0] - yv, scv[k, 1], wk, wf, nk, cm, w, nrows, avb)
    scv[k, 0] = v3
    scv[k, 1] = b3
    sv, sb = _stop4(T, TF, meta, cov, P, 3, yl, yv, mode, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv,
                    base3, need, wk, wf, cm, w, nrows, avb)
    if _better(v3, b3, sv, sb):
        return v3, b3, k + 1
    return sv, sb, k + 1


@njit(cache=True, nogil=True, _nrt=False)
def _four_dice_turn(T, TF, meta, cov, y, yv, spec, sp_mode, auto_max, full, brd, eight, grp, scr, scv, base, need,
                    wk, wf, cm, w, nrows, avb):
    """:func:`_three_dice_turn` for a fresh 4-dice turn (a 5-dice segment's bonus turn); its 3-dice bonus turns
    are read from the memo or computed (and memoised).  Scratch rows from ``base``: the groups of at most 4
    dice, the roll's options, one state's with 3, 2 and 1 dice left, the slots (at most ``n**3 + 3n**2 + 3n``),
    the state cache (``HS`` rows), then :func:`_three_dice_turn`'s rows."""
    n = brd.shape[1]
    ng, mode = _turn_groups(cov, 4, full, grp, scr, base, auto_max, sp_mode[spec])
    e0 = base + ng
    cnt0 = _entries_in(0, 4, base, ng, brd, scr, scr, e0, need)
    q3 = e0 + cnt0           # then 3n rows for a 3-left state's options, 2n for a 2-left, n for a 1-left
    sl = q3 + 6 * n          # the slots
    hc = sl + n * n * n + 3 * n * n + 4 * n  # the state cache (_seen)
    base3 = hc + HS
    _clear_seen(scr, hc)
    rv = 0.0
    rb = 1.0
    for yl in range(y + 1):
        k = sl
        for e in range(e0, e0 + cnt0):
            P = 1 << scr[e, 0]
            c = scr[e, 1]
            if c == 4:
                scv[e, 0], scv[e, 1] = _stop4(T, TF, meta, cov, P, 0, yl, yv, mode, spec, sp_mode, auto_max, full, brd,
                                              eight, grp, scr, scv, base3, need, wk, wf, cm, w, nrows, avb)
            elif c == 3:
                scv[e, 0], scv[e, 1] = _last_die4(T, TF, meta, cov, P, yl, yv, mode, spec, sp_mode, auto_max, full,
                                                  brd, eight, grp, scr, scv, base, ng, q3 + 5 * n, k, base3, need, wk,
                                                  wf, cm, w, nrows, avb)
                k += 1
            elif c == 2:
                scv[e, 0], scv[e, 1], k = _two_left4(T, TF, meta, cov, P, yl, yv, mode, spec, sp_mode, auto_max, full,
                                                     brd, eight, grp, scr, scv, base, ng, q3 + 3 * n, k, hc, base3,
                                                     need, wk, wf, cm, w, nrows, avb)
            else:
                scv[e, 0], scv[e, 1], k = _three_left4(T, TF, meta, cov, P, yl, yv, mode, spec, sp_mode, auto_max,
                                                       full, brd, eight, grp, scr, scv, base, ng, q3, k, hc, base3,
                                                       need, wk, wf, cm, w, nrows, avb)
        nk = _options(brd, scr, scv, e0, cnt0, wk, wf)
        rv, rb = _roll_sum(4, yl > 0, rv - yv, rb, wk, wf, nk, cm, w, nrows, avb)
        if yl < y:  # the turn with yl tokens, on the way: kept too (_keep)
            _keep(T, TF, meta, cov, small_key(T_TURN, 4, 4, yl, 0, spec), rv, rb)
    return rv, rb
