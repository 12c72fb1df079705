"""The exact solver's constants and its per-roll option machinery: the entries a roll can place, the options
ranked and picked, the sum over a roll's outcomes, the stop values known without a solve (used by
:mod:`pyradice_lab.purramid.exact`, which re-exports the constants).
"""

from __future__ import annotations

from ..engine._jit import njit
from .memo import (  # noqa: I001
    B_LEN,
    B_START,
    P_COST,
    P_F,
    closure,
    connected,
    ctz,
    popcount,
    slot,
    small_key,
    sum_row,
)

#: the first compile of the exact solver, announced (:func:`pyradice_lab.engine._jit.compile_notice`): typical CPU
#: seconds with an empty numba cache (the advisor's first solve 11 s, the first game with an optimal seat 23.7 s)
COMPILE_NOTICE = ("the Purramid exact solver", 15)

TOL = 1e-12
#: "auto" values bonus turns exactly on boards with at most this many valid dice groups (see advisor):
#: measured, a cold compiled exact solve of a fresh 5-dice turn takes at most 0.65 s CPU on every board of
#: both default sides (the empty boards, 72 and 76 groups, are the largest), and grows fast beyond
AUTO_EXACT_MAX_VALID = 80
MAX_YARN = 12
K_MAX = 127
F_AFTER, F_ROLL, F_STOP, F_MODES = 0, 1, 2, 3          # frame kinds (AFTER / ROLL are also table tags)
MODE_EXACT, MODE_APPROX, MODE_NONE, MODE_AUTO = 0, 1, 2, 3
MODE_CODES = {"exact": MODE_EXACT, "approx": MODE_APPROX, "none": MODE_NONE, "auto": MODE_AUTO}
AUTO_BITS = {1 << MODE_EXACT: "exact", 1 << MODE_APPROX: "approx"}
# frame columns; frf[frame] = (child value, child burst, own a, own b)
(R_TAG, R_COV, R_P, R_D, R_DD, R_Y, R_K, R_SPEC, R_PHASE, R_CUR, R_BASE, R_CNT, R_ACC, R_BOARD, R_GOT) = range(15)
# work rows (memo.new_memory's ``wk``): options' number, dice, space, order by value, (number, dice) -> column;
# row 5 holds the free-roll bit set (columns 0-3) and the fewest dice per space (columns 4-, see _entries)
W_N, W_C, W_S, W_ORD, W_IDX, W_FREE = range(6)
#: :func:`.exact._avail_bits`' weight classes: masks in ``avb[d, k, 0]``, increments in ``avb[d, W_INC + k, 0, 0]``
W_INC = 8
#: table tag of a 2-, 3- or 4-dice bonus turn's value computed directly (:mod:`._exact_turns`; AFTER 0, ROLL 1,
#: board 2): kept apart from the frames' ROLL rows, whose options' rows :func:`.exact.decide_roll` reads
T_TURN = 3
#: how a bonus turn is valued (:func:`_bonus_how`): computed as a 1-die turn, a ``T_TURN`` row, or ROLL frames
BONUS_ONE_DIE, BONUS_TURN, BONUS_FRAMES = 0, 1, 2


# ------------------------------------------------------------------------------------------ options
@njit(cache=True, nogil=True, _nrt=False)
def _better(v, b, v0, b0):
    return v > v0 + TOL or (abs(v - v0) <= TOL and b < b0 - TOL)


@njit(cache=True, nogil=True, _nrt=False)
def _entries(P, d, b, brd, boards, pool, scr, base, need):
    """Options of a roll into ``scr[base:]``: every (space, dice) keeping the segment completable, spaces
    ascending then dice ascending (the reference's order).  Returns their number (``need``: one work slot per
    space, read only for the spaces some group containing ``P`` offers)."""
    return _entries_in(P, d, boards[b, B_START], boards[b, B_LEN], brd, pool, scr, base, need)


@njit(cache=True, nogil=True, _nrt=False)
def _entries_in(P, d, st, ln, brd, pool, scr, base, need):
    """:func:`_entries` from the valid groups in rows ``st .. st + ln - 1`` of ``pool`` (columns ``P_F``,
    ``P_COST``): a board's rows, or the groups :func:`_two_dice_turn` lists on the scratch rows."""
    seen = 0  # spaces some valid group containing P offers; need[s]: the fewest dice of such a group
    for r in range(st, st + ln):
        F = pool[r, P_F]
        if F & P != P:
            continue
        c = pool[r, P_COST]
        x = F & ~P
        new = x & ~seen
        seen |= new
        while x != 0:
            low = x & -x
            x ^= low
            s = ctz(low)
            if low & new != 0 or c < need[s]:
                need[s] = c
    cP = sum_row(P, brd, 5)
    cnt = 0
    x = seen
    while x != 0:
        low = x & -x
        x ^= low
        s = ctz(low)
        lo = brd[5, s]
        hi_ = min(d - (need[s] - cP - lo), brd[2, s])
        for c in range(lo, hi_ + 1):
            scr[base + cnt, 0] = s
            scr[base + cnt, 1] = c
            cnt += 1
    return cnt


@njit(cache=True, nogil=True, _nrt=False)
def _options(brd, scr, scv, base, cnt, wk, wf):
    """Best option per (number, dice) from the entries and their values, into the work rows: ``wk[0..2]``
    (number, dice, space) and ``wf[0..1]`` (value, burst) in first-seen order, ``wk[3]`` the order by value
    (descending); returns their count.  Rows are indexed, never sliced: a view of an array is a reference
    count taken and dropped (an atomic operation), which cost about a quarter of the solver's time."""
    nk = 0
    for e in range(cnt):
        s = scr[base + e, 0]
        c = scr[base + e, 1]
        v = scv[base + e, 0]
        bp = scv[base + e, 1]
        num = brd[2, s]
        j = wk[W_IDX, num * 8 + c]  # (number, dice) -> option column; -1 everywhere between calls
        if j < 0:
            wk[W_IDX, num * 8 + c] = nk
            wk[W_N, nk] = num
            wk[W_C, nk] = c
            wf[0, nk] = v
            wf[1, nk] = bp
            wk[W_S, nk] = s
            nk += 1
        elif _better(v, bp, wf[0, j], wf[1, j]):
            wf[0, j] = v
            wf[1, j] = bp
            wk[W_S, j] = s
    for j in range(nk):
        wk[W_IDX, wk[W_N, j] * 8 + wk[W_C, j]] = -1
    for i in range(nk):  # insertion sort by value, descending
        j = i
        while j > 0 and wf[0, wk[W_ORD, j - 1]] < wf[0, i]:
            wk[W_ORD, j] = wk[W_ORD, j - 1]
            j -= 1
        wk[W_ORD, j] = i
    return nk


@njit(cache=True, nogil=True, _nrt=False)
def _pick(cm, d, r, wk, wf, nk):
    """The reference's choice for the roll of count masks ``cm[d, r]`` (options as :func:`_options` left
    them): (best value, its burst chance, option column or -1)."""
    first = -1
    pos = 0
    for q in range(nk):
        j = wk[W_ORD, q]
        if (cm[d, r, wk[W_N, j]] >> wk[W_C, j]) & 1 != 0:
            first = j
            pos = q
            break
    if first < 0:
        return 0.0, 1.0, -1
    vstar = wf[0, first]
    low = 2.0
    for q in range(pos, nk):
        j = wk[W_ORD, q]
        if wf[0, j] < vstar - TOL:
            break
        if (cm[d, r, wk[W_N, j]] >> wk[W_C, j]) & 1 != 0 and wf[1, j] < low:
            low = wf[1, j]
    for j in range(nk):
        if (cm[d, r, wk[W_N, j]] >> wk[W_C, j]) & 1 != 0 and wf[0, j] >= vstar - TOL and wf[1, j] <= low + TOL:
            return vstar, wf[1, j], j
    return vstar, low, first  # not reached


@njit(cache=True, nogil=True, _nrt=False)
def _pick_tied(cm, d, r, wk, wf, q, qend):
    """:func:`_pick` for a roll whose first available option by value is the ``q``-th, tied (within ``TOL``)
    with the options up to the ``qend``-th: the same choice, looking at those options only (every option
    before ``q`` is unavailable to the roll, every one after ``qend`` worth less than the tie)."""
    low = 2.0
    for p in range(q, qend + 1):
        j = wk[W_ORD, p]
        if (cm[d, r, wk[W_N, j]] >> wk[W_C, j]) & 1 != 0 and wf[1, j] < low:
            low = wf[1, j]
    best = -1
    for p in range(q, qend + 1):  # the first by column among the available ones within TOL of the lowest burst
        j = wk[W_ORD, p]
        if (best < 0 or j < best) and (cm[d, r, wk[W_N, j]] >> wk[W_C, j]) & 1 != 0 and wf[1, j] <= low + TOL:
            best = j
    return wf[0, wk[W_ORD, q]], wf[1, best], best


@njit(cache=True, nogil=True, _nrt=False)
def _roll_sum(d, can_reroll, rrv, rrb, wk, wf, nk, cm, w, nrows, avb):
    """Expected (value, burst) of a roll of ``d`` dice when every roll takes its best option (or the
    reroll).  Options are visited by value: the rolls in which an option is the first available one take
    it, so the work is one pass over the options (bit sets of rolls) plus one over the rolls; a roll whose
    best option ties another within ``TOL`` is decided by :func:`_pick` as the reference does.  The rolls not
    yet taken are a bit set in ``wk[W_FREE, :4]``; an untied option's rolls are weighed a few bit counts at a
    time (the weight classes :func:`.exact._avail_bits` keeps in ``avb``), a tie's roll by roll.  One die: each
    option (a number 1-6 taken by one die) is the only one its roll can take, so no bit sets and no ties -- the
    same sums in the same order, directly."""
    if d == 1:
        av = 0.0
        ab = 0.0
        for q in range(nk + 1):
            ws = 1
            if q < nk:
                v = wf[0, wk[W_ORD, q]]
                bp = wf[1, wk[W_ORD, q]]
            else:  # the rolls no option can use
                v = 0.0
                bp = 1.0
                ws = 6 - nk
            if can_reroll and (rrv > v + TOL or (abs(rrv - v) <= TOL and rrb < bp - TOL)):
                v = rrv
                bp = rrb
            av += ws * v
            ab += ws * bp
        return av / 6.0, ab / 6.0
    nw = (nrows[d] + 63) // 64
    for i in range(4):
        wk[W_FREE, i] = 0
    for i in range(nw):
        wk[W_FREE, i] = -1
    rem = nrows[d] - 64 * (nw - 1)
    if rem < 64:
        wk[W_FREE, nw - 1] = (1 << rem) - 1
    av = 0.0
    ab = 0.0
    for q in range(nk + 1):
        qend = q
        if q < nk:
            j = wk[W_ORD, q]
            tie = q + 1 < nk and wf[0, wk[W_ORD, q + 1]] >= wf[0, j] - TOL
            v = wf[0, j]
            bp = wf[1, j]
            while tie and qend + 1 < nk and wf[0, wk[W_ORD, qend + 1]] >= v - TOL:
                qend += 1  # the options tied with q (by value order: the later ones are lower)
        else:  # the rolls no option can use
            j = -1
            tie = False
            v = 0.0
            bp = 1.0
        if can_reroll and not tie and (rrv > v + TOL or (abs(rrv - v) <= TOL and rrb < bp - TOL)):
            v = rrv
            bp = rrb
        ws = 0
        for i in range(nw):
            new = wk[W_FREE, i] if j < 0 else avb[d, wk[W_N, j], wk[W_C, j], i] & wk[W_FREE, i]
            wk[W_FREE, i] &= ~new
            if not tie:  # the rolls' weights by class (exact integers: the same sum in any order)
                for k in range(W_INC):
                    inc = avb[d, W_INC + k, 0, 0]
                    if inc == 0:
                        break
                    ws += inc * popcount(new & avb[d, k, 0, i])
                continue
            while new != 0:
                low = new & -new
                new ^= low
                r = 64 * i + ctz(low)
                bv, bb, col = _pick_tied(cm, d, r, wk, wf, q, qend)
                if can_reroll and (rrv > bv + TOL or (abs(rrv - bv) <= TOL and rrb < bb - TOL)):
                    bv = rrv
                    bb = rrb
                av += w[d, r] * bv
                ab += w[d, r] * bb
        av += ws * v
        ab += ws * bp
    total = 6.0 ** d
    return av / total, ab / total


@njit(cache=True, nogil=True, _nrt=False)
def _resolve_mode(mode, b, boards, auto_max):
    if mode != MODE_AUTO:
        return mode
    return MODE_EXACT if boards[b, B_LEN] <= auto_max else MODE_APPROX


@njit(cache=True, nogil=True, _nrt=False)
def _set_frame(fr, i, tag, cov, P, d, DD, y, k, spec):
    fr[i, R_TAG] = tag
    fr[i, R_COV] = cov
    fr[i, R_P] = P
    fr[i, R_D] = d
    fr[i, R_DD] = DD
    fr[i, R_Y] = y
    fr[i, R_K] = k
    fr[i, R_SPEC] = spec
    fr[i, R_PHASE] = 0
    fr[i, R_GOT] = 0
    fr[i, R_ACC] = 0
    fr[i, R_BOARD] = -1


@njit(cache=True, nogil=True, _nrt=False)
def _stop_known(T, TF, cov, P, DD, y, k, spec, b, brd, eight, boards, sp_kind, sp_mode, sp_yv, auto_max):
    """The value of stopping on ``P`` -- what an AFTER state with no dice left is worth, never memoised --
    if the bonus turn it needs is known: ``(value, burst, known)``, the same arithmetic as the AFTER frame."""
    sv = 0.0
    sb = 1.0
    if P != 0 and closure(P, cov, brd) == P and connected(P, brd):
        t = sum_row(P, brd, 3)
        e = 0
        x = P
        while x != 0:
            low = x & -x
            x ^= low
            e += eight[ctz(low)]
        bon = DD > 1
        sb = 0.0
        kind = sp_kind[spec]
        if kind == 0:
            sv = t + sp_yv[spec] * e
        elif t >= k:
            sv = 1.0
            bon = False
        if bon:
            mode = _resolve_mode(sp_mode[spec], b, boards, auto_max)
            if mode != MODE_NONE:
                c2 = cov | P if mode == MODE_EXACT else cov
                y2 = min(y + e, MAX_YARN)
                k2 = k - t if kind == 1 else 0
                how = _bonus_how(DD, kind, sp_yv[spec])
                if how == BONUS_ONE_DIE:
                    sv += _one_die_turn(c2, y2, sp_yv[spec], brd)
                    return sv, sb, True
                tag = T_TURN if how == BONUS_TURN else F_ROLL
                i = slot(T, c2, 0, small_key(tag, DD - 1, DD - 1, y2, k2, spec))
                if T[i, 2] == -1:
                    return 0.0, 1.0, False
                sv += TF[i, 4]
    return sv, sb, True


@njit(cache=True, nogil=True, _nrt=False)
def _bonus_how(DD, kind, yv):
    """How the bonus turn after a segment of ``DD`` dice (objective kind ``kind``, token value ``yv``) is valued:
    ``BONUS_ONE_DIE`` (2 dice: a 1-die turn, :func:`_one_die_turn`, never memoised), ``BONUS_TURN`` (3-5 dice: a
    ``T_TURN`` row, computed by :mod:`._exact_turns`), ``BONUS_FRAMES`` (any other objective or a negative token
    value: the frames' ROLL rows).  The AFTER frame and :func:`_stop_known` both ask here: were they to disagree,
    a stop would look for a row no one writes."""
    if kind != 0 or yv < 0.0:
        return BONUS_FRAMES
    if DD == 2:
        return BONUS_ONE_DIE
    return BONUS_TURN if 3 <= DD <= 5 else BONUS_FRAMES


@njit(cache=True, nogil=True, _nrt=False)
def _one_die_turn(cov, y, yv, brd):
    """The value of a 1-die turn on board ``cov`` with ``y`` tokens worth ``yv >= 0`` each (objective "tiles"),
    computed directly -- no frame, no memo entry, no board -- with the solver's own arithmetic (:func:`_roll_sum`
    of a ROLL state of 1 die): the die takes any free supported space showing its value (1 tile, never an
    8, no bonus turn after it: a placement is worth 1.0 and always beats a reroll); a die no space takes is
    rerolled when the turn with one token fewer, less ``yv``, beats bursting.  A 2-dice segment's bonus turn
    reads it (a fifth of the solver's ROLL states were these turns; tests compare it with the frames)."""
    m = 0  # the numbers 1-6 the die can take
    for s in range(brd.shape[1]):
        if brd[5, s] == 1 and (cov >> s) & 1 == 0 and brd[0, s] & ~cov == 0:
            m |= 1 << brd[2, s]
    k = popcount(m)
    v = 0.0
    bp = 1.0
    for j in range(y + 1):
        vn = 0.0   # a roll no space takes: burst, or a reroll (the turn with j - 1 tokens, less the token)
        bn = 1.0
        if j > 0:
            rrv = v - yv
            if rrv > TOL or (abs(rrv) <= TOL and bp < 1.0 - TOL):
                vn = rrv
                bn = bp
        v = (float(k) + (6 - k) * vn) / 6.0
        bp = (0.0 + (6 - k) * bn) / 6.0
    return v


@njit(cache=True, nogil=True, _nrt=False)
def _bonuses_known(T, TF, cov, P, d, DD, y, k, spec, b, brd, eight, boards, pool, scr, base, need, sp_kind,
                   sp_mode, sp_yv, auto_max):
    """Whether every option of a roll that uses the last dice finds its bonus turn in the memo."""
    cnt = _entries(P, d, b, brd, boards, pool, scr, base, need)
    for e in range(cnt):
        if scr[base + e, 1] == d:
            _, _, known = _stop_known(T, TF, cov, P | (1 << scr[base + e, 0]), DD, y, k, spec, b, brd, eight,
                                      boards, sp_kind, sp_mode, sp_yv, auto_max)
            if not known:
                return False
    return True
