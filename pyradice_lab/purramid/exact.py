"""The exact turn solver of :mod:`.advisor`, compiled (numba): the same expectimax on plain arrays.

Same model and same numbers as :class:`~.advisor.TurnSolver` (the readable reference; tests require equal
values to 1e-9 on the brute-force cases): bit-mask states ``(covered, placed, dice_left, turn_dice, yarn,
need)``, integer-weighted sorted rolls (:mod:`.chance` count masks), completion pruning in dice (a
placement is explored only if some valid group containing it can still be paid with the dice left), bonus
turns (``exact`` / ``approx`` / ``none`` / ``auto``) and yarn rerolls; ties go to the lower burst chance,
then to the first option in the reference's order.

numba cannot cache recursive functions, so the recursion runs on an explicit stack of frames:

- ``ROLL`` frame (value of rolling the unplaced dice): lists its options -- every (space, dice used) that
  keeps the segment completable -- on a scratch stack, makes sure every option's after-placement value
  (and, with a token, the reroll value) is known, pushing a frame for each missing one, then sums the best
  choice over the sorted rolls;
- ``AFTER`` frame (stop or continue after a placement): needs the value of the bonus turn (a fresh
  ``ROLL`` frame on the new board, or on the old one for ``approx``) and of continuing;
- ``STOP`` (the stop value alone) and ``MODES`` (which bonus modes ``auto`` uses below a board) frames
  answer queries.

Memo: one open-addressing hash table keyed by ``(covered, placed, small)`` with the small numbers and a
tag packed into ``small``; the valid groups of every board met (``covered``, turn dice) are enumerated
once into a pool.  All arrays live in one tuple (:func:`new_memory`) that the solver returns, grown when
needed, so a caller keeps the memo warm across calls.  Several objectives share a memo through a ``spec``
number (one row of the spec arrays: objective kind, bonus mode, token value).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["new_memory", "static_context", "solve", "decide_roll", "decision_table", "board_of", "memo_size",
           "MODE_CODES", "F_AFTER", "F_ROLL", "F_STOP", "F_MODES", "AUTO_BITS", "MAX_SPACES"]

TOL = 1e-12
MAX_SPACES = 62
MAX_YARN = 12
K_MAX = 127
INF = 1 << 30
F_AFTER, F_ROLL, F_STOP, F_MODES = 0, 1, 2, 3          # frame kinds (AFTER / ROLL also memo tags)
H_BOARD = 2                                               # memo tag of a board entry
MODE_EXACT, MODE_APPROX, MODE_NONE, MODE_AUTO = 0, 1, 2, 3
MODE_CODES = {"exact": MODE_EXACT, "approx": MODE_APPROX, "none": MODE_NONE, "auto": MODE_AUTO}
AUTO_BITS = {1 << MODE_EXACT: "exact", 1 << MODE_APPROX: "approx"}
# meta slots
M_COUNT, M_NBOARDS, M_NPOOL, M_GEN, M_SCR = 0, 1, 2, 3, 4
# board rows: covered, turn dice, first pool row, valid groups, union of the groups, auto modes (-1 unknown)
B_COV, B_DD, B_START, B_LEN, B_UNION, B_MODES = 0, 1, 2, 3, 4, 5
# pool rows (one valid group): mask, fewest dice, sum of its numbers, spans 3+ rows
P_F, P_COST, P_SUMN, P_ROWS3 = 0, 1, 2, 3
# frame rows
(R_TAG, R_COV, R_P, R_D, R_DD, R_Y, R_K, R_SPEC, R_PHASE, R_CUR, R_BASE, R_CNT, R_ACC) = range(13)
N_FRAME = 13

_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)


def _debruijn_table() -> np.ndarray:
    t = np.zeros(64, dtype=np.int64)
    for i in range(64):
        t[(((1 << i) * int(_DEBRUIJN)) & ((1 << 64) - 1)) >> 58] = i
    assert len(set(t.tolist())) == 64
    return t


_CTZ = _debruijn_table()
_H1, _H2, _H3 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9)


# ------------------------------------------------------------------------------------------ set up
def static_context(layout, specs, *, yarn_tokens: bool = True, auto_max: int = 40):
    """The read-only arrays: board, chance tables and one row per objective ``spec``.

    ``specs``: list of ``(objective kind 0 tiles / 1 at_least, bonus mode code, yarn value)``.
    """
    from . import kernel as K

    n = layout.n_spaces
    if n > MAX_SPACES:
        raise ValueError(f"layout has {n} spaces; the compiled solver handles at most {MAX_SPACES}")
    brd, full, _ = K.board_arrays(layout)
    eight = np.array([1 if (v == 8 and yarn_tokens) else 0 for v in layout.numbers], dtype=np.int64)
    cm, w, nrows = K.risk_tables()
    kind = np.array([s[0] for s in specs], dtype=np.int64)
    mode = np.array([s[1] for s in specs], dtype=np.int64)
    yv = np.array([s[2] if s[0] == 0 else 0.0 for s in specs], dtype=np.float64)
    ip = np.array([full, n, auto_max], dtype=np.int64)
    return (brd, eight, cm, w, nrows, kind, mode, yv, ip, _avail_bits(cm, nrows))


def _avail_bits(cm, nrows) -> np.ndarray:
    """``av[d, n, c, word]``: bit set of the sorted rolls of ``d`` dice in which ``c`` dice sum to ``n``."""
    av = np.zeros((6, 31, 6, 4), dtype=np.uint64)
    for d in range(1, 6):
        for r in range(int(nrows[d])):
            word, bit = divmod(r, 64)
            for num in range(31):
                m = int(cm[d, r, num])
                for c in range(1, 6):
                    if m >> c & 1:
                        av[d, num, c, word] |= np.uint64(1) << np.uint64(bit)
    return av.view(np.int64)


def new_memory(n_spaces: int, hash_bits: int = 18):
    """Empty memo arrays (grown by the solver as needed)."""
    cap = 1 << hash_bits
    hk = np.full((cap, 3), -1, dtype=np.int64)
    hv = np.zeros((cap, 2), dtype=np.float64)
    hi = np.zeros(cap, dtype=np.int64)
    boards = np.zeros((1024, 6), dtype=np.int64)
    pool = np.zeros((1 << 14, 4), dtype=np.int64)
    meta = np.zeros(8, dtype=np.int64)
    seenk = np.zeros(1 << 14, dtype=np.int64)
    seeng = np.zeros(1 << 14, dtype=np.int64)
    queue = np.zeros(1 << 14, dtype=np.int64)
    fr = np.zeros((512, N_FRAME), dtype=np.int64)
    scr = np.zeros((512 * (5 * max(n_spaces, 1) + 8), 2), dtype=np.int64)
    return (hk, hv, hi, boards, pool, meta, seenk, seeng, queue, fr, scr)


def memo_size(mem) -> int:
    """Memoised states (values and boards)."""
    return int(mem[5][M_COUNT])


# ------------------------------------------------------------------------------------------ bits
@njit(cache=True)
def _ctz(low):
    """Index of the single set bit of ``low``."""
    return _CTZ[np.int64((np.uint64(low) * _DEBRUIJN) >> np.uint64(58))]


@njit(cache=True)
def _popcount(x):
    c = 0
    while x != 0:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _closure(placed, cov, brd, n):
    """``placed`` plus every uncovered space below it, recursively (a work list over the set bits)."""
    result = placed
    todo = placed
    while todo != 0:
        low = todo & -todo
        todo ^= low
        new = brd[0, _ctz(low)] & ~cov & ~result
        result |= new
        todo |= new
    return result


@njit(cache=True)
def _sum_row(x, brd, row):
    s = 0
    while x != 0:
        low = x & -x
        x ^= low
        s += brd[row, _ctz(low)]
    return s


@njit(cache=True)
def _neighbours(x, brd):
    nb = 0
    while x != 0:
        low = x & -x
        x ^= low
        nb |= brd[1, _ctz(low)]
    return nb


@njit(cache=True)
def _connected(x, brd):
    if x == 0:
        return True
    seen = x & -x
    frontier = seen
    while frontier != 0:
        low = frontier & -frontier
        frontier ^= low
        new = brd[1, _ctz(low)] & x & ~seen
        seen |= new
        frontier |= new
    return seen == x


@njit(cache=True)
def _rows3(x, brd):
    m = 0
    while x != 0:
        low = x & -x
        x ^= low
        m |= 1 << brd[4, _ctz(low)]
    return 1 if _popcount(m) >= 3 else 0


@njit(cache=True)
def _better(v, b, v0, b0):
    return v > v0 + TOL or (abs(v - v0) <= TOL and b < b0 - TOL)


# ------------------------------------------------------------------------------------------ hash table
@njit(cache=True)
def _slot(hk, a, b, c):
    mask = hk.shape[0] - 1
    h = (np.uint64(a) * _H1) ^ (np.uint64(b) * _H2) ^ (np.uint64(c) * _H3)
    h ^= h >> np.uint64(29)
    i = np.int64(h & np.uint64(mask))
    while True:
        if hk[i, 2] == -1 or (hk[i, 0] == a and hk[i, 1] == b and hk[i, 2] == c):
            return i
        i = (i + 1) & mask


@njit(cache=True)
def _put(hk, hv, meta, a, b, c, v, bp):
    i = _slot(hk, a, b, c)
    if hk[i, 2] == -1:
        meta[M_COUNT] += 1
    hk[i, 0] = a
    hk[i, 1] = b
    hk[i, 2] = c
    hv[i, 0] = v
    hv[i, 1] = bp
    return i


@njit(cache=True)
def _grow_hash(hk, hv, hi):
    cap = hk.shape[0] * 2
    nk = np.full((cap, 3), -1, dtype=np.int64)
    nv = np.zeros((cap, 2), dtype=np.float64)
    ni = np.zeros(cap, dtype=np.int64)
    for i in range(hk.shape[0]):
        if hk[i, 2] != -1:
            j = _slot(nk, hk[i, 0], hk[i, 1], hk[i, 2])
            nk[j, 0] = hk[i, 0]
            nk[j, 1] = hk[i, 1]
            nk[j, 2] = hk[i, 2]
            nv[j, 0] = hv[i, 0]
            nv[j, 1] = hv[i, 1]
            ni[j] = hi[i]
    return nk, nv, ni


@njit(cache=True)
def _grow_rows(a):
    out = np.zeros((a.shape[0] * 2, a.shape[1]), dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@njit(cache=True)
def _small(tag, d, DD, y, k, spec):
    return d | (DD << 3) | (y << 6) | (k << 10) | (tag << 17) | (spec << 19)


# ------------------------------------------------------------------------------------------ boards
@njit(cache=True)
def board_of(hk, hi, cov, DD):
    """Board row of ``(cov, DD)``, or -1 if it has not been built."""
    i = _slot(hk, cov, 0, _small(H_BOARD, 0, DD, 0, 0, 0))
    return hi[i] if hk[i, 2] != -1 else -1


@njit(cache=True)
def _build_board(cov, DD, brd, full, n, hk, hv, hi, boards, pool, meta, seenk, seeng, queue):
    """Enumerate the valid groups paid by at most ``DD`` dice into the pool and register the board.

    Returns the board row, -1 if the pool is too small, -2 if the seen-set is too small (nothing changed)."""
    free = full & ~cov
    cap = seenk.shape[0]
    smask = cap - 1
    meta[M_GEN] += 1
    gen = meta[M_GEN]
    qn = 0
    x = free
    while x != 0:
        low = x & -x
        x ^= low
        if _sum_row(_closure(low, cov, brd, n), brd, 5) <= DD:
            queue[qn] = low
            qn += 1
            j = np.int64((np.uint64(low) * _H1) >> np.uint64(32)) & smask
            while seeng[j] == gen:
                j = (j + 1) & smask
            seeng[j] = gen
            seenk[j] = low
    seen = qn
    head = 0
    start = meta[M_NPOOL]
    count = 0
    union = 0
    while head < qn:
        x = queue[head]
        head += 1
        if _closure(x, cov, brd, n) == x:
            if start + count >= pool.shape[0]:
                return -1
            r = start + count
            pool[r, P_F] = x
            pool[r, P_COST] = _sum_row(x, brd, 5)
            pool[r, P_SUMN] = _sum_row(x, brd, 2)
            pool[r, P_ROWS3] = _rows3(x, brd)
            count += 1
            union |= x
        if _popcount(x) >= DD:
            continue
        nb = _neighbours(x, brd) & free & ~x
        while nb != 0:
            low = nb & -nb
            nb ^= low
            y = x | low
            j = np.int64((np.uint64(y) * _H1) >> np.uint64(32)) & smask
            found = False
            while seeng[j] == gen:
                if seenk[j] == y:
                    found = True
                    break
                j = (j + 1) & smask
            if found:
                continue
            if 2 * (seen + 1) > cap or qn >= queue.shape[0]:
                return -2
            seeng[j] = gen
            seenk[j] = y
            seen += 1
            if _sum_row(_closure(y, cov, brd, n), brd, 5) <= DD:
                queue[qn] = y
                qn += 1
    b = meta[M_NBOARDS]
    meta[M_NBOARDS] += 1
    meta[M_NPOOL] += count
    boards[b, B_COV] = cov
    boards[b, B_DD] = DD
    boards[b, B_START] = start
    boards[b, B_LEN] = count
    boards[b, B_UNION] = union
    boards[b, B_MODES] = -1
    i = _put(hk, hv, meta, cov, 0, _small(H_BOARD, 0, DD, 0, 0, 0), 0.0, 0.0)
    hi[i] = b
    return b


@njit(cache=True)
def _entries(cov, P, d, b, brd, n, boards, pool, scr, base):
    """Options of a roll into ``scr[base:]``: every (space, dice) keeping the segment completable, spaces
    ascending then dice ascending (the reference's order).  Returns their number."""
    need = np.full(n, INF, dtype=np.int64)
    st = boards[b, B_START]
    for r in range(st, st + boards[b, B_LEN]):
        F = pool[r, P_F]
        if F & P != P:
            continue
        c = pool[r, P_COST]
        x = F & ~P
        while x != 0:
            low = x & -x
            x ^= low
            s = _ctz(low)
            if c < need[s]:
                need[s] = c
    cP = _sum_row(P, brd, 5)
    cnt = 0
    for s in range(n):
        if need[s] == INF:
            continue
        lo = brd[5, s]
        hi_ = min(d - (need[s] - cP - lo), brd[2, s])
        for c in range(lo, hi_ + 1):
            scr[base + cnt, 0] = s
            scr[base + cnt, 1] = c
            cnt += 1
    return cnt


@njit(cache=True)
def _resolve_mode(mode, b, boards, auto_max):
    if mode != MODE_AUTO:
        return mode
    return MODE_EXACT if boards[b, B_LEN] <= auto_max else MODE_APPROX


# ------------------------------------------------------------------------------------------ options
@njit(cache=True)
def _options(cov, P, d, DD, y, k, spec, b, brd, n, boards, pool, hk, hv, scr, base):
    """Best option per (number, dice): arrays (number, dice, value, burst, space) in first-seen order, the
    order by value (descending) and their count."""
    cnt = _entries(cov, P, d, b, brd, n, boards, pool, scr, base)
    kn = np.empty(cnt, dtype=np.int64)
    kc = np.empty(cnt, dtype=np.int64)
    kv = np.empty(cnt, dtype=np.float64)
    kb = np.empty(cnt, dtype=np.float64)
    ks = np.empty(cnt, dtype=np.int64)
    idx = np.full(31 * 8, -1, dtype=np.int64)
    nk = 0
    for e in range(cnt):
        s = scr[base + e, 0]
        c = scr[base + e, 1]
        i = _slot(hk, cov, P | (1 << s), _small(F_AFTER, d - c, DD, y, k, spec))
        v = hv[i, 0]
        bp = hv[i, 1]
        num = brd[2, s]
        j = idx[num * 8 + c]
        if j < 0:
            idx[num * 8 + c] = nk
            kn[nk] = num
            kc[nk] = c
            kv[nk] = v
            kb[nk] = bp
            ks[nk] = s
            nk += 1
        elif _better(v, bp, kv[j], kb[j]):
            kv[j] = v
            kb[j] = bp
            ks[j] = s
    order = np.empty(nk, dtype=np.int64)
    for i in range(nk):  # insertion sort by value, descending
        j = i
        while j > 0 and kv[order[j - 1]] < kv[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    return kn, kc, kv, kb, ks, order, nk


@njit(cache=True)
def _pick(cmrow, kn, kc, kv, kb, order, nk):
    """The reference's choice for one roll: (best value, its burst chance, option column or -1)."""
    first = -1
    pos = 0
    for q in range(nk):
        j = order[q]
        if (cmrow[kn[j]] >> kc[j]) & 1 != 0:
            first = j
            pos = q
            break
    if first < 0:
        return 0.0, 1.0, -1
    vstar = kv[first]
    low = 2.0
    for q in range(pos, nk):
        j = order[q]
        if kv[j] < vstar - TOL:
            break
        if (cmrow[kn[j]] >> kc[j]) & 1 != 0 and kb[j] < low:
            low = kb[j]
    for j in range(nk):
        if (cmrow[kn[j]] >> kc[j]) & 1 != 0 and kv[j] >= vstar - TOL and kb[j] <= low + TOL:
            return vstar, kb[j], j
    return vstar, low, first  # not reached


@njit(cache=True)
def _roll_sum(d, can_reroll, rrv, rrb, kn, kc, kv, kb, order, nk, cm, w, nrows, avb):
    """Expected (value, burst) of a roll of ``d`` dice when every roll takes its best option (or the
    reroll).  Options are visited by value: the rolls in which an option is the first available one take
    it, so the work is one pass over the options (bit sets of rolls) plus one over the rolls; a roll whose
    best option ties another within ``TOL`` is decided by :func:`_pick` as the reference does."""
    nw = (nrows[d] + 63) // 64
    free = np.zeros(4, dtype=np.int64)
    for i in range(nw):
        free[i] = -1
    rem = nrows[d] - 64 * (nw - 1)
    if rem < 64:
        free[nw - 1] = (1 << rem) - 1
    av = 0.0
    ab = 0.0
    for q in range(nk + 1):
        if q < nk:
            j = order[q]
            tie = q + 1 < nk and kv[order[q + 1]] >= kv[j] - TOL
            v = kv[j]
            bp = kb[j]
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
            new = free[i] if j < 0 else avb[d, kn[j], kc[j], i] & free[i]
            free[i] &= ~new
            while new != 0:
                low = new & -new
                new ^= low
                r = 64 * i + _ctz(low)
                if tie:
                    bv, bb, col = _pick(cm[d, r], kn, kc, kv, kb, order, nk)
                    if can_reroll and (rrv > bv + TOL or (abs(rrv - bv) <= TOL and rrb < bb - TOL)):
                        bv = rrv
                        bb = rrb
                    av += w[d, r] * bv
                    ab += w[d, r] * bb
                else:
                    ws += w[d, r]
        av += ws * v
        ab += ws * bp
    total = 6.0 ** d
    return av / total, ab / total


@njit(cache=True)
def _bonus_key(cov, P, DD, y, k, spec, mode, e, t, kind):
    """(covered, y', k') of the fresh roll that values the bonus turn."""
    y2 = min(y + e, MAX_YARN)
    k2 = k - t if kind == 1 else 0
    c2 = cov | P if mode == MODE_EXACT else cov
    return c2, y2, k2


# ------------------------------------------------------------------------------------------ solver
@njit(cache=True)
def solve(tag, cov, P, d, DD, y, k, spec, sc, mem):
    """Value ``(v, burst)`` of a state: ``tag`` F_ROLL (rolling the ``d`` unplaced dice), F_AFTER (stop or
    continue after a placement), F_STOP (stopping now) or F_MODES (``v`` = bit set of the modes ``auto``
    uses below the board).  Returns ``(v, burst, mem)`` with ``mem`` possibly grown."""
    brd, eight, cm, w, nrows, sp_kind, sp_mode, sp_yv, ip, avb = sc
    hk, hv, hi, boards, pool, meta, seenk, seeng, queue, fr, scr = mem
    full = ip[0]
    n = ip[1]
    auto_max = ip[2]
    k = min(k, K_MAX)
    y = min(y, MAX_YARN)
    rv_out = 0.0
    rb_out = 1.0
    sp = 0
    scr_top = 0
    fr[0, R_TAG] = tag
    fr[0, R_COV] = cov
    fr[0, R_P] = P
    fr[0, R_D] = d
    fr[0, R_DD] = DD
    fr[0, R_Y] = y
    fr[0, R_K] = k
    fr[0, R_SPEC] = spec
    fr[0, R_PHASE] = 0
    fr[0, R_ACC] = 0
    sp = 1
    while sp > 0:
        # room for this step's insertions (at most one value, one board)
        if 2 * (meta[M_COUNT] + 4) > hk.shape[0]:
            hk, hv, hi = _grow_hash(hk, hv, hi)
        if meta[M_NBOARDS] + 2 > boards.shape[0]:
            boards = _grow_rows(boards)
        if sp + 2 > fr.shape[0]:
            fr = _grow_rows(fr)
        if scr_top + 6 * n + 8 > scr.shape[0]:
            scr = _grow_rows(scr)
        f = sp - 1
        ftag = fr[f, R_TAG]
        fc = fr[f, R_COV]
        fP = fr[f, R_P]
        fd = fr[f, R_D]
        fD = fr[f, R_DD]
        fy = fr[f, R_Y]
        fk = fr[f, R_K]
        fs = fr[f, R_SPEC]
        kind = sp_kind[fs]
        # the board of this segment (every frame kind needs it, except a bare AFTER with a fixed mode)
        b = board_of(hk, hi, fc, fD)
        if b < 0:
            st = _build_board(fc, fD, brd, full, n, hk, hv, hi, boards, pool, meta, seenk, seeng, queue)
            if st == -1:
                pool = _grow_rows(pool)
            elif st == -2:
                seenk = np.zeros(seenk.shape[0] * 2, dtype=np.int64)
                seeng = np.zeros(seeng.shape[0] * 2, dtype=np.int64)
                queue = np.zeros(queue.shape[0] * 2, dtype=np.int64)
            continue
        done = False
        rv = 0.0
        rb = 1.0
        if ftag == F_ROLL:
            key = _small(F_ROLL, fd, fD, fy, fk, fs)
            i = _slot(hk, fc, fP, key)
            if hk[i, 2] != -1:
                rv, rb = hv[i, 0], hv[i, 1]
                done = True
            else:
                if fr[f, R_PHASE] == 0:
                    fr[f, R_BASE] = scr_top
                    fr[f, R_CNT] = _entries(fc, fP, fd, b, brd, n, boards, pool, scr, scr_top)
                    scr_top += fr[f, R_CNT]
                    fr[f, R_CUR] = 0
                    fr[f, R_PHASE] = 1
                base = fr[f, R_BASE]
                cnt = fr[f, R_CNT]
                cur = fr[f, R_CUR]
                pushed = False
                while cur < cnt:
                    s = scr[base + cur, 0]
                    c = scr[base + cur, 1]
                    j = _slot(hk, fc, fP | (1 << s), _small(F_AFTER, fd - c, fD, fy, fk, fs))
                    if hk[j, 2] == -1:
                        fr[sp, R_TAG] = F_AFTER
                        fr[sp, R_COV] = fc
                        fr[sp, R_P] = fP | (1 << s)
                        fr[sp, R_D] = fd - c
                        fr[sp, R_DD] = fD
                        fr[sp, R_Y] = fy
                        fr[sp, R_K] = fk
                        fr[sp, R_SPEC] = fs
                        fr[sp, R_PHASE] = 0
                        pushed = True
                        break
                    cur += 1
                fr[f, R_CUR] = cur
                if not pushed and fy > 0:
                    j = _slot(hk, fc, fP, _small(F_ROLL, fd, fD, fy - 1, fk, fs))
                    if hk[j, 2] == -1:
                        fr[sp, R_TAG] = F_ROLL
                        fr[sp, R_COV] = fc
                        fr[sp, R_P] = fP
                        fr[sp, R_D] = fd
                        fr[sp, R_DD] = fD
                        fr[sp, R_Y] = fy - 1
                        fr[sp, R_K] = fk
                        fr[sp, R_SPEC] = fs
                        fr[sp, R_PHASE] = 0
                        pushed = True
                if pushed:
                    sp += 1
                    continue
                # every dependency is known: sum the best choice over the sorted rolls
                kn, kc, kv, kb, ks, order, nk = _options(fc, fP, fd, fD, fy, fk, fs, b, brd, n, boards, pool,
                                                         hk, hv, scr, base)
                rrv = 0.0
                rrb = 1.0
                if fy > 0:
                    j = _slot(hk, fc, fP, _small(F_ROLL, fd, fD, fy - 1, fk, fs))
                    rrv = hv[j, 0] - sp_yv[fs]
                    rrb = hv[j, 1]
                rv, rb = _roll_sum(fd, fy > 0, rrv, rrb, kn, kc, kv, kb, order, nk, cm, w, nrows, avb)
                _put(hk, hv, meta, fc, fP, key, rv, rb)
                done = True
        elif ftag == F_AFTER or ftag == F_STOP:
            key = _small(F_AFTER, fd, fD, fy, fk, fs)
            i = _slot(hk, fc, fP, key)
            if ftag == F_AFTER and hk[i, 2] != -1:
                rv, rb = hv[i, 0], hv[i, 1]
                done = True
            else:
                # stop value (and the bonus turn it needs)
                valid = fP != 0 and _closure(fP, fc, brd, n) == fP and _connected(fP, brd)
                sv = 0.0
                sb = 1.0
                cv = 0.0
                cb = 1.0
                pushed = False
                if valid:
                    t = _sum_row(fP, brd, 3)
                    e = 0
                    x = fP
                    while x != 0:
                        low = x & -x
                        x ^= low
                        e += eight[_ctz(low)]
                    bon = fD > 1 and (fd == 0 or _rows3(fP, brd) == 1)
                    sb = 0.0
                    if kind == 0:
                        sv = t + sp_yv[fs] * e
                    elif t >= fk:
                        sv = 1.0
                        bon = False
                    if bon:
                        mode = _resolve_mode(sp_mode[fs], b, boards, auto_max)
                        if mode != MODE_NONE:
                            c2, y2, k2 = _bonus_key(fc, fP, fD, fy, fk, fs, mode, e, t, kind)
                            j = _slot(hk, c2, 0, _small(F_ROLL, fD - 1, fD - 1, y2, k2, fs))
                            if hk[j, 2] == -1:
                                fr[sp, R_TAG] = F_ROLL
                                fr[sp, R_COV] = c2
                                fr[sp, R_P] = 0
                                fr[sp, R_D] = fD - 1
                                fr[sp, R_DD] = fD - 1
                                fr[sp, R_Y] = y2
                                fr[sp, R_K] = k2
                                fr[sp, R_SPEC] = fs
                                fr[sp, R_PHASE] = 0
                                pushed = True
                            else:
                                sv += hv[j, 0]
                if not pushed and ftag == F_AFTER and fd > 0:
                    j = _slot(hk, fc, fP, _small(F_ROLL, fd, fD, fy, fk, fs))
                    if hk[j, 2] == -1:
                        fr[sp, R_TAG] = F_ROLL
                        fr[sp, R_COV] = fc
                        fr[sp, R_P] = fP
                        fr[sp, R_D] = fd
                        fr[sp, R_DD] = fD
                        fr[sp, R_Y] = fy
                        fr[sp, R_K] = fk
                        fr[sp, R_SPEC] = fs
                        fr[sp, R_PHASE] = 0
                        pushed = True
                    else:
                        cv, cb = hv[j, 0], hv[j, 1]
                if pushed:
                    sp += 1
                    continue
                rv, rb = sv, sb
                if ftag == F_AFTER:
                    if fd > 0 and _better(cv, cb, sv, sb):
                        rv, rb = cv, cb
                    _put(hk, hv, meta, fc, fP, key, rv, rb)
                done = True
        else:  # F_MODES: which modes "auto" uses for bonus turns below this board
            if boards[b, B_MODES] >= 0 or fD <= 1:
                if boards[b, B_MODES] < 0:
                    boards[b, B_MODES] = 0
                rv = float(boards[b, B_MODES])
                done = True
            else:
                mode = _resolve_mode(MODE_AUTO, b, boards, auto_max)
                pushed = False
                if mode == MODE_APPROX:
                    acc = 1 << MODE_APPROX
                    if fD - 1 > 1:
                        b2 = board_of(hk, hi, fc, fD - 1)
                        if b2 < 0 or boards[b2, B_MODES] < 0:
                            fr[sp, R_TAG] = F_MODES
                            fr[sp, R_COV] = fc
                            fr[sp, R_DD] = fD - 1
                            pushed = True
                        else:
                            acc |= boards[b2, B_MODES]
                else:
                    if fr[f, R_PHASE] == 0:
                        fr[f, R_CUR] = boards[b, B_START]
                        fr[f, R_ACC] = 1 << MODE_EXACT
                        fr[f, R_PHASE] = 1
                    cur = fr[f, R_CUR]
                    end = boards[b, B_START] + boards[b, B_LEN]
                    while cur < end:
                        if fD - 1 > 1 and (pool[cur, P_ROWS3] == 1 or pool[cur, P_SUMN] >= fD):
                            b2 = board_of(hk, hi, fc | pool[cur, P_F], fD - 1)
                            if b2 < 0 or boards[b2, B_MODES] < 0:
                                fr[sp, R_TAG] = F_MODES
                                fr[sp, R_COV] = fc | pool[cur, P_F]
                                fr[sp, R_DD] = fD - 1
                                pushed = True
                                break
                            fr[f, R_ACC] |= boards[b2, B_MODES]
                        cur += 1
                    fr[f, R_CUR] = cur
                    acc = fr[f, R_ACC]
                if pushed:
                    fr[sp, R_P] = 0
                    fr[sp, R_D] = 0
                    fr[sp, R_Y] = 0
                    fr[sp, R_K] = 0
                    fr[sp, R_SPEC] = 0
                    fr[sp, R_PHASE] = 0
                    sp += 1
                    continue
                boards[b, B_MODES] = acc
                rv = float(acc)
                done = True
        if done:
            if ftag == F_ROLL and fr[f, R_PHASE] != 0:
                scr_top = fr[f, R_BASE]
            sp -= 1
            if sp == 0:
                rv_out = rv
                rb_out = rb
    mem = (hk, hv, hi, boards, pool, meta, seenk, seeng, queue, fr, scr)
    return rv_out, rb_out, mem


# ------------------------------------------------------------------------------------------ decisions
@njit(cache=True)
def decide_roll(cov, P, d, DD, y, k, spec, cmrow, sc, mem):
    """The optimal choice for one roll (its count masks ``cmrow``, see :func:`.kernel.roll_masks`), once
    ``solve(F_ROLL, ...)`` has run for this state: ``(kind, space, dice)``; kind 0 burst, 1 place, 2 reroll."""
    brd, eight, cm, w, nrows, sp_kind, sp_mode, sp_yv, ip, avb = sc
    hk, hv, hi, boards, pool, meta, seenk, seeng, queue, fr, scr = mem
    k = min(k, K_MAX)
    y = min(y, MAX_YARN)
    b = board_of(hk, hi, cov, DD)
    kn, kc, kv, kb, ks, order, nk = _options(cov, P, d, DD, y, k, spec, b, brd, ip[1], boards, pool, hk, hv,
                                             scr, 0)
    bv, bb, col = _pick(cmrow, kn, kc, kv, kb, order, nk)
    s = -1 if col < 0 else ks[col]
    c = 0 if col < 0 else kc[col]
    if y > 0:
        j = _slot(hk, cov, P, _small(F_ROLL, d, DD, y - 1, k, spec))
        rrv = hv[j, 0] - sp_yv[spec]
        rrb = hv[j, 1]
        if rrv > bv + TOL or (abs(rrv - bv) <= TOL and rrb < bb - TOL):
            return 2, s, c    # (the best placement is reported too, as the reference does)
    if col < 0:
        return 0, -1, 0
    return 1, s, c


@njit(cache=True)
def decision_table(cov, P, d, DD, y, k, spec, sc, mem):
    """:func:`decide_roll` for every sorted roll of ``d`` dice: ``(kind, space, count)`` arrays."""
    cm = sc[2]
    nr = sc[4][d]
    kind = np.zeros(nr, dtype=np.int64)
    space = np.full(nr, -1, dtype=np.int64)
    count = np.zeros(nr, dtype=np.int64)
    for r in range(nr):
        kind[r], space[r], count[r] = decide_roll(cov, P, d, DD, y, k, spec, cm[d, r], sc, mem)
    return kind, space, count
