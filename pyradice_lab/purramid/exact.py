"""The exact turn solver of :mod:`.advisor`, compiled (numba): the same expectimax on plain arrays.

Same model and same numbers as :class:`~.advisor.TurnSolver` (the readable reference; tests require equal
values to 1e-9 on the brute-force cases and equal decisions): bit-mask states ``(covered, placed,
dice_left, turn_dice, yarn, need)``, integer-weighted sorted rolls (:mod:`.chance` count masks), completion
pruning in dice (a placement is explored only if some valid group containing it can still be paid with
the dice left), bonus turns (``exact`` / ``approx`` / ``none`` / ``auto``) and yarn rerolls; ties go to the
lower burst chance, then to the first option in the reference's order.

numba cannot cache recursive functions, so the recursion runs on an explicit stack of frames:

- ``ROLL`` frame (value of rolling the unplaced dice): lists its options -- every (space, dice used) that
  keeps the segment completable -- on a scratch stack, collects every option's after-placement value
  (and, with a token, the reroll value), pushing a frame for each unknown one, then sums the best choice
  over the sorted rolls (:func:`_roll_sum`: one pass over the options by value, as bit sets of rolls);
- ``AFTER`` frame (stop or continue after a placement): needs the value of the bonus turn (a fresh
  ``ROLL`` frame on the new board, or on the old one for ``approx``) and of continuing;
- ``STOP`` (the stop value alone) and ``MODES`` (which bonus modes ``auto`` uses below a board) frames
  answer queries.

A finished frame hands its value to the frame below it, so a value is looked up in the memo (:mod:`.memo`)
once.  AFTER states with no dice left (the stop value of a finished group plus its bonus turn) are not
memoised: the ROLL frame computes them from the bonus turn's value where it needs them (:func:`_stop_known`;
43% fewer entries).  A memo carried across calls may have been pruned (:mod:`.memopool`): a known ROLL value
is then used only once the bonus turns its last placements lead to are known again (:func:`_bonuses_known`),
since :func:`decide_roll` reads them.  Several objectives share a memo through a ``spec`` number (one row of the spec arrays: objective
kind, bonus mode, token value).

The constants and the per-roll option machinery (:func:`_stop_known`, :func:`_bonuses_known`, the option
ranking and the sum over a roll's outcomes) live in the private module ``_exact_options`` (re-exported here).
A fresh bonus turn of 1 to 4 dice (objective "tiles", token value ``>= 0``) is not solved by frames but computed
directly with the same functions in the same order (``_one_die_turn``; ``_exact_turns``: the 2-, 3- and 4-dice
turns), its value memoised as one row with the table tag ``T_TURN`` -- most of the solver's states were inside
these turns; tests compare each with the frames bit for bit.
"""

from __future__ import annotations

import functools

import numpy as np

from ..engine._jit import njit
from ._exact_options import (
    AUTO_BITS,
    AUTO_EXACT_MAX_VALID,
    BONUS_ONE_DIE,
    BONUS_TURN,
    F_AFTER,
    F_MODES,
    F_ROLL,
    F_STOP,
    K_MAX,
    MAX_YARN,
    MODE_APPROX,
    MODE_AUTO,
    MODE_CODES,
    MODE_EXACT,
    MODE_NONE,
    R_ACC,
    R_BASE,
    R_BOARD,
    R_CNT,
    R_COV,
    R_CUR,
    R_D,
    R_DD,
    R_GOT,
    R_K,
    R_P,
    R_PHASE,
    R_SPEC,
    R_TAG,
    R_Y,
    T_TURN,
    TOL,
    W_INC,
    _better,
    _bonus_how,
    _bonuses_known,
    _entries,
    _one_die_turn,
    _options,
    _pick,
    _resolve_mode,
    _roll_sum,
    _set_frame,
    _stop_known,
)
from ._exact_turns import HS, _four_dice_turn, _three_dice_turn, _two_dice_turn
from .memo import (  # noqa: I001
    B_LEN,
    B_MODES,
    B_START,
    M_COUNT,
    M_NBOARDS,
    M_PRUNES,
    MAX_SPACES,
    P_F,
    P_ROWS3,
    P_SUMN,
    board_arrays,
    board_of,
    build_board,
    closure,
    connected,
    connected_groups,
    ctz,
    grow_rows,
    grow_table,
    home,
    memo_size,
    new_memory,
    prefetch_row,
    put,
    reset_memory,
    risk_tables,
    rows3,
    slot,
    small_key,
    sum_row,
)

#: the first compile of the exact solver, announced (:func:`pyradice_lab.engine._jit.compile_notice`): typical CPU
#: seconds with an empty numba cache (the advisor's first solve 11 s, the first game with an optimal seat 23.7 s)
COMPILE_NOTICE = ("the Purramid exact solver", 15)

__all__ = ["board_arrays", "risk_tables", "better", "AUTO_EXACT_MAX_VALID", "new_memory", "static_context",
           "solve", "decide_roll", "decision_table", "board_of", "memo_size", "reset_memory", "MODE_CODES",
           "F_AFTER", "F_ROLL", "F_STOP", "F_MODES", "AUTO_BITS", "MAX_SPACES", "TOL", "MAX_YARN"]

# ------------------------------------------------------------------------------------------ set up
def better(v: float, b: float, v0: float, b0: float) -> bool:
    """Whether (value ``v``, burst ``b``) beats (``v0``, ``b0``): a higher value, or a tie (within ``TOL``) and
    a lower burst chance (by more than ``TOL``).  The rule every engine breaks ties with."""
    return v > v0 + TOL or (abs(v - v0) <= TOL and b < b0 - TOL)


def static_context(layout, specs, *, yarn_tokens: bool = True, auto_max: int | None = None):
    """The read-only arrays: board, chance tables and one row per objective ``spec``.

    ``specs``: list of ``(objective kind 0 tiles / 1 at_least, bonus mode code, yarn value)``.
    """
    n = layout.n_spaces
    if n > MAX_SPACES:
        raise ValueError(f"layout has {n} spaces; the compiled solver handles at most {MAX_SPACES}")
    brd, full, _ = board_arrays(layout)
    eight = np.array([1 if (v == 8 and yarn_tokens) else 0 for v in layout.numbers], dtype=np.int64)
    cm, w, nrows = risk_tables()
    kind = np.array([s[0] for s in specs], dtype=np.int64)
    mode = np.array([s[1] for s in specs], dtype=np.int64)
    yv = np.array([s[2] if s[0] == 0 else 0.0 for s in specs], dtype=np.float64)
    grp = _groups(brd.tobytes(), n)
    # scratch rows of the bonus turns computed directly (_exact_turns; each calls the smaller one above its rows)
    room2 = int(np.count_nonzero(grp[:, 2] <= 2)) + 5 * n + 8
    room3 = int(np.count_nonzero(grp[:, 2] <= 3)) + 6 * n + n * n + 3 * n + HS + room2
    room4 = int(np.count_nonzero(grp[:, 2] <= 4)) + 10 * n + n ** 3 + 3 * n * n + 4 * n + HS + room3
    # ip: all spaces, spaces, "auto"'s limit, the scratch rows a step may use beyond the usual
    ip = np.array([full, n, AUTO_EXACT_MAX_VALID if auto_max is None else auto_max, room4], dtype=np.int64)
    return (brd, eight, cm, w, nrows, kind, mode, yv, ip, _roll_bits(), grp)


@functools.lru_cache(maxsize=16)
def _groups(brd_bytes: bytes, n: int) -> np.ndarray:
    """The layout's connected groups (:func:`.memo.connected_groups`), once per board arrays (every
    ``static_context`` of a layout shares them; the solver only reads them)."""
    return connected_groups(np.frombuffer(brd_bytes, dtype=np.int64).reshape(6, n), n)


@functools.lru_cache(maxsize=1)
def _roll_bits() -> np.ndarray:
    """:func:`_avail_bits` of the chance tables, computed once per process (they never change)."""
    cm, w, nrows = risk_tables()
    return _avail_bits(cm, nrows, w)


def _avail_bits(cm, nrows, w) -> np.ndarray:
    """``av[d, n, c, word]``: bit set of the sorted rolls of ``d`` dice in which ``c`` dice sum to ``n``
    (``c >= 1``).  The unused ``c = 0`` slots hold each roll's weight ``w[d, r]`` (its number of ordered rolls)
    as a sum over weight classes: ``av[d, k, 0, word]`` the rolls of weight at least the ``k``-th distinct
    weight, ``av[d, W_INC + k, 0, 0]`` that weight less the one before (0 after the last class), so that
    the rolls of a bit set weigh ``sum_k inc_k * popcount(set & mask_k)`` (:func:`._exact_options._roll_sum`)."""
    av = np.zeros((6, 31, 6, 4), dtype=np.uint64)
    for d in range(1, 6):
        for r in range(int(nrows[d])):
            word, bit = divmod(r, 64)
            for num in range(31):
                m = int(cm[d, r, num])
                for c in range(1, 6):
                    if m >> c & 1:
                        av[d, num, c, word] |= np.uint64(1) << np.uint64(bit)
        levels = sorted({int(x) for x in w[d, :nrows[d]]})
        assert len(levels) <= W_INC
        for k, lv in enumerate(levels):
            av[d, W_INC + k, 0, 0] = lv - (levels[k - 1] if k else 0)
            for r in range(int(nrows[d])):
                if w[d, r] >= lv:
                    word, bit = divmod(r, 64)
                    av[d, k, 0, word] |= np.uint64(1) << np.uint64(bit)
    return av.view(np.int64)


# ------------------------------------------------------------------------------------------ solver
# what _frames needs grown before it can go on (0: the root's value is known)
G_DONE, G_TABLE, G_BOARDS, G_FRAMES, G_SCRATCH, G_POOL = range(6)


@njit(cache=True, nogil=True)
def solve(tag, cov, P, d, DD, y, k, spec, sc, mem):
    """Value ``(v, burst)`` of a state: ``tag`` F_ROLL (rolling the ``d`` unplaced dice), F_AFTER (stop or
    continue after a placement), F_STOP (stopping now) or F_MODES (``v`` = bit set of the modes ``auto``
    uses below the board).  Returns ``(v, burst, mem)`` with ``mem`` possibly grown.

    The frames run in :func:`_frames`, which never replaces an array: it returns when one must grow, and
    this loop grows it and calls again.  (An array variable replaced inside the frame loop made numba take
    and drop a reference to each such array on every step -- atomic operations that cost about a third
    of the solver's time.)"""
    T, boards, pool, meta, fr, frf, scr, scv, wk, wf = mem
    _set_frame(fr, 0, tag, cov, P, d, DD, min(y, MAX_YARN), min(k, K_MAX), spec)
    sp = 1
    scr_top = 0
    out_v = 0.0
    out_b = 1.0
    while True:
        status, sp, scr_top, out_v, out_b = _frames(sp, scr_top, sc, T, boards, pool, meta, fr, frf, scr, scv, wk,
                                                    wf)
        if status == G_DONE:
            break
        if status == G_TABLE:
            T = grow_table(T)
        elif status == G_BOARDS:
            boards = grow_rows(boards)
        elif status == G_FRAMES:
            fr = grow_rows(fr)
            frf = grow_rows(frf)
        elif status == G_SCRATCH:
            scr = grow_rows(scr)
            scv = grow_rows(scv)
        else:  # G_POOL
            pool = grow_rows(pool)
    return out_v, out_b, (T, boards, pool, meta, fr, frf, scr, scv, wk, wf)


@njit(cache=True, nogil=True)
def _frames(sp, scr_top, sc, T, boards, pool, meta, fr, frf, scr, scv, wk, wf):
    """Run the frame stack ``fr[:sp]`` (see the module docstring) until the root's value is known:
    ``(G_DONE, 0, 0, v, burst)``, or until an array needs room: ``(G_..., sp, scr_top, 0, 1)`` with every
    frame as it was before the step that needed it (:func:`solve` grows the array and calls again)."""
    brd, eight, cm, w, nrows, sp_kind, sp_mode, sp_yv, ip, avb, grp = sc
    need = wk[5, 4:]
    TF = T.view(np.float64)
    full = ip[0]
    n = ip[1]
    auto_max = ip[2]
    room = ip[3]  # the scratch rows a bonus turn computed in a step may use (_two_dice_turn, _three_dice_turn)
    while sp > 0:
        # room for this step's insertions (at most one value, one board, one frame)
        if 2 * (meta[M_COUNT] + 4) > T.shape[0]:
            return G_TABLE, sp, scr_top, 0.0, 1.0
        if meta[M_NBOARDS] + 2 > boards.shape[0]:
            return G_BOARDS, sp, scr_top, 0.0, 1.0
        if sp + 2 > fr.shape[0]:
            return G_FRAMES, sp, scr_top, 0.0, 1.0
        if scr_top + 6 * n + 8 + room > scr.shape[0]:
            return G_SCRATCH, sp, scr_top, 0.0, 1.0
        f = sp - 1
        ftag = fr[f, R_TAG]
        fc = fr[f, R_COV]
        fP = fr[f, R_P]
        fd = fr[f, R_D]
        fD = fr[f, R_DD]
        fy = fr[f, R_Y]
        fk = fr[f, R_K]
        fs = fr[f, R_SPEC]
        phase = fr[f, R_PHASE]
        done = False
        push = False
        rv = 0.0
        rb = 1.0
        ct = 0
        cc = 0
        cP = 0
        cd = 0
        cD = 0
        cy = 0
        ck = 0
        if phase == 0:
            if f == 0 and (ftag == F_ROLL or ftag == F_AFTER):  # only the root can already be known
                i = slot(T, fc, fP, small_key(ftag, fd, fD, fy, fk, fs))
                if T[i, 2] != -1:
                    rv = TF[i, 4]
                    rb = TF[i, 5]
                    done = True
                    if ftag == F_ROLL and meta[M_PRUNES] > 0:
                        # a pruned memo may have lost the bonus turns of this state's last placements
                        # (boards with more covered spaces); decide_roll needs them: solve them first
                        b = board_of(T, fc, fD)
                        if b < 0 or not _bonuses_known(T, TF, fc, fP, fd, fD, fy, fk, fs, b, brd, eight, boards,
                                                       pool, scr, scr_top, need, sp_kind, sp_mode, sp_yv,
                                                       auto_max):
                            done = False
            if not done:
                b = fr[f, R_BOARD]  # known when the frame below is on the same board
                if b < 0:
                    b = board_of(T, fc, fD)
                if b < 0:
                    if build_board(fc, fD, full, T, TF, boards, pool, meta, grp) < 0:
                        return G_POOL, sp, scr_top, 0.0, 1.0
                    continue
                fr[f, R_BOARD] = b
                if ftag == F_ROLL:
                    fr[f, R_BASE] = scr_top
                    fr[f, R_CNT] = _entries(fP, fd, b, brd, boards, pool, scr, scr_top, need)
                    scr_top += fr[f, R_CNT]
                    fr[f, R_CUR] = 0
                phase = 1
                fr[f, R_PHASE] = 1
        b = fr[f, R_BOARD]
        kind = sp_kind[fs]
        if done:
            pass
        elif ftag == F_ROLL:
            base = fr[f, R_BASE]
            cnt = fr[f, R_CNT]
            if phase == 1:
                cur = fr[f, R_CUR]
                if fr[f, R_GOT] == 1:
                    scv[base + cur, 0] = frf[f, 0]
                    scv[base + cur, 1] = frf[f, 1]
                    cur += 1
                    fr[f, R_GOT] = 0
                pf = cur  # the options' table rows are loaded PREFETCH ahead of their reads (misses overlap)
                while cur < cnt:
                    while pf < cnt and pf < cur + PREFETCH:
                        _prefetch_option(T, fc, fP, fd, fD, fy, fk, fs, scr[base + pf, 0], scr[base + pf, 1], eight,
                                         sp_kind)
                        pf += 1
                    s = scr[base + cur, 0]
                    c = scr[base + cur, 1]
                    if fd == c:  # no dice left: the stop value, computed here (never memoised)
                        av_, ab_, known = _stop_known(T, TF, fc, fP | (1 << s), fD, fy, fk, fs, b, brd, eight,
                                                      boards, sp_kind, sp_mode, sp_yv, auto_max)
                        if not known:
                            push = True
                            ct, cc, cP, cd, cD, cy, ck = F_AFTER, fc, fP | (1 << s), 0, fD, fy, fk
                            break
                        scv[base + cur, 0] = av_
                        scv[base + cur, 1] = ab_
                        cur += 1
                        continue
                    i = slot(T, fc, fP | (1 << s), small_key(F_AFTER, fd - c, fD, fy, fk, fs))
                    if T[i, 2] == -1:
                        push = True
                        ct, cc, cP, cd, cD, cy, ck = F_AFTER, fc, fP | (1 << s), fd - c, fD, fy, fk
                        break
                    scv[base + cur, 0] = TF[i, 4]
                    scv[base + cur, 1] = TF[i, 5]
                    cur += 1
                fr[f, R_CUR] = cur
                if not push:
                    phase = 3
                    if fy > 0:
                        i = slot(T, fc, fP, small_key(F_ROLL, fd, fD, fy - 1, fk, fs))
                        if T[i, 2] == -1:
                            push = True
                            ct, cc, cP, cd, cD, cy, ck = F_ROLL, fc, fP, fd, fD, fy - 1, fk
                            phase = 2
                        else:
                            frf[f, 2] = TF[i, 4]
                            frf[f, 3] = TF[i, 5]
                    fr[f, R_PHASE] = phase
            elif phase == 2:  # the reroll value has just been computed
                frf[f, 2] = frf[f, 0]
                frf[f, 3] = frf[f, 1]
                fr[f, R_GOT] = 0
                phase = 3
            if phase == 3:
                nk = _options(brd, scr, scv, base, cnt, wk, wf)
                rv, rb = _roll_sum(fd, fy > 0, frf[f, 2] - sp_yv[fs], frf[f, 3], wk, wf, nk, cm, w, nrows, avb)
                put(T, TF, meta, fc, fP, small_key(F_ROLL, fd, fD, fy, fk, fs), rv, rb)
                done = True
        elif ftag == F_AFTER or ftag == F_STOP:
            if phase == 1:  # the stop value, and the bonus turn it needs
                sv = 0.0
                sb = 1.0
                if fP != 0 and closure(fP, fc, brd) == fP and connected(fP, brd):
                    t = sum_row(fP, brd, 3)
                    e = 0
                    x = fP
                    while x != 0:
                        low = x & -x
                        x ^= low
                        e += eight[ctz(low)]
                    bon = fD > 1 and (fd == 0 or rows3(fP, brd) == 1)
                    sb = 0.0
                    if kind == 0:
                        sv = t + sp_yv[fs] * e
                    elif t >= fk:
                        sv = 1.0
                        bon = False
                    if bon:
                        mode = _resolve_mode(sp_mode[fs], b, boards, auto_max)
                        if mode != MODE_NONE:
                            c2 = fc | fP if mode == MODE_EXACT else fc
                            y2 = min(fy + e, MAX_YARN)
                            k2 = fk - t if kind == 1 else 0
                            how = _bonus_how(fD, kind, sp_yv[fs])
                            if how == BONUS_ONE_DIE:   # a 1-die bonus turn: computed
                                sv += _one_die_turn(c2, y2, sp_yv[fs], brd)
                            elif how == BONUS_TURN:  # 2, 3 or 4 dice: computed and memoised (_exact_turns)
                                key2 = small_key(T_TURN, fD - 1, fD - 1, y2, 0, fs)
                                i = slot(T, c2, 0, key2)
                                if T[i, 2] == -1:
                                    if fD == 3:
                                        v2, b2 = _two_dice_turn(T, TF, meta, c2, y2, sp_yv[fs], fs, sp_mode[fs],
                                                                auto_max, full, brd, eight, grp, scr, scv, scr_top,
                                                                need, wk, wf, cm, w, nrows, avb)
                                    elif fD == 5:
                                        v2, b2 = _four_dice_turn(T, TF, meta, c2, y2, sp_yv[fs], fs, sp_mode, auto_max,
                                                                 full, brd, eight, grp, scr, scv, scr_top, need, wk, wf,
                                                                 cm, w, nrows, avb)
                                    else:
                                        v2, b2 = _three_dice_turn(T, TF, meta, c2, y2, sp_yv[fs], fs, sp_mode, auto_max,
                                                                  full, brd, eight, grp, scr, scv, scr_top, need, wk,
                                                                  wf, cm, w, nrows, avb)
                                    i = put(T, TF, meta, c2, 0, key2, v2, b2)
                                sv += TF[i, 4]
                            else:
                                i = slot(T, c2, 0, small_key(F_ROLL, fD - 1, fD - 1, y2, k2, fs))
                                if T[i, 2] == -1:
                                    push = True
                                    ct, cc, cP, cd, cD, cy, ck = F_ROLL, c2, 0, fD - 1, fD - 1, y2, k2
                                else:
                                    sv += TF[i, 4]
                frf[f, 2] = sv
                frf[f, 3] = sb
                phase = 2 if push else 3
                fr[f, R_PHASE] = phase
            elif phase == 2:  # the bonus turn's value has just been computed
                frf[f, 2] += frf[f, 0]
                fr[f, R_GOT] = 0
                phase = 3
                fr[f, R_PHASE] = 3
            if phase == 3 and not push:
                if ftag == F_STOP or fd == 0:
                    rv = frf[f, 2]
                    rb = frf[f, 3]
                    done = True
                else:
                    i = slot(T, fc, fP, small_key(F_ROLL, fd, fD, fy, fk, fs))
                    if T[i, 2] == -1:
                        push = True
                        ct, cc, cP, cd, cD, cy, ck = F_ROLL, fc, fP, fd, fD, fy, fk
                        fr[f, R_PHASE] = 4
                    else:
                        frf[f, 0] = TF[i, 4]
                        frf[f, 1] = TF[i, 5]
                        phase = 4
            if phase == 4 and not push:  # continuing's value is known (frf[f, 0:2])
                rv = frf[f, 2]
                rb = frf[f, 3]
                if _better(frf[f, 0], frf[f, 1], rv, rb):
                    rv = frf[f, 0]
                    rb = frf[f, 1]
                fr[f, R_GOT] = 0
                done = True
            if done and ftag == F_AFTER and fd > 0:
                put(T, TF, meta, fc, fP, small_key(F_AFTER, fd, fD, fy, fk, fs), rv, rb)
        else:  # F_MODES: which modes "auto" uses for bonus turns below this board
            if boards[b, B_MODES] >= 0 or fD <= 1:
                if boards[b, B_MODES] < 0:
                    boards[b, B_MODES] = 0
                rv = float(boards[b, B_MODES])
                done = True
            else:
                mode = _resolve_mode(MODE_AUTO, b, boards, auto_max)
                acc = 0
                if mode == MODE_APPROX:
                    acc = 1 << MODE_APPROX
                    if fD - 1 > 1:
                        b2 = board_of(T, fc, fD - 1)
                        if b2 < 0 or boards[b2, B_MODES] < 0:
                            push = True
                            ct, cc, cD = F_MODES, fc, fD - 1
                        else:
                            acc |= boards[b2, B_MODES]
                else:
                    if phase == 1:
                        fr[f, R_CUR] = boards[b, B_START]
                        fr[f, R_ACC] = 1 << MODE_EXACT
                        fr[f, R_PHASE] = 2
                    cur = fr[f, R_CUR]
                    end = boards[b, B_START] + boards[b, B_LEN]
                    while cur < end:
                        if fD - 1 > 1 and (pool[cur, P_ROWS3] == 1 or pool[cur, P_SUMN] >= fD):
                            b2 = board_of(T, fc | pool[cur, P_F], fD - 1)
                            if b2 < 0 or boards[b2, B_MODES] < 0:
                                push = True
                                ct, cc, cD = F_MODES, fc | pool[cur, P_F], fD - 1
                                break
                            fr[f, R_ACC] |= boards[b2, B_MODES]
                        cur += 1
                    fr[f, R_CUR] = cur
                    acc = fr[f, R_ACC]
                if not push:
                    boards[b, B_MODES] = acc
                    rv = float(acc)
                    done = True
        if push:
            _set_frame(fr, sp, ct, cc, cP, cd, cD, cy, ck, fs)
            if cc == fc and cD == fD and fr[f, R_BOARD] >= 0:  # the same board: no look-up (boards stay put)
                fr[sp, R_BOARD] = fr[f, R_BOARD]
            sp += 1
            continue
        if done:
            if ftag == F_ROLL and phase >= 1:
                scr_top = fr[f, R_BASE]
            sp -= 1
            if sp == 0:
                return G_DONE, 0, 0, rv, rb
            frf[sp - 1, 0] = rv
            frf[sp - 1, 1] = rb
            fr[sp - 1, R_GOT] = 1
    return G_DONE, 0, 0, 0.0, 1.0  # not reached: the root's frame returns above


#: options whose table rows a ROLL frame asks the CPU to load ahead of reading them
PREFETCH = 8


@njit(cache=True, nogil=True, _nrt=False)
def _prefetch_option(T, cov, P, d, DD, y, k, spec, s, c, eight, sp_kind):
    """Prefetch the table row an option (space ``s``, ``c`` dice) of a ROLL state will read: its AFTER state, or,
    when it uses the last dice, the bonus turn of ``exact`` mode (no effect on any value)."""
    if c < d:
        prefetch_row(T, home(T, cov, P | (1 << s), small_key(F_AFTER, d - c, DD, y, k, spec)))
    elif DD > 2 and sp_kind[spec] == 0:   # (a 1-die bonus turn is computed, not read)
        y2 = y + eight[s]
        x = P
        while x != 0:
            low = x & -x
            x ^= low
            y2 += eight[ctz(low)]
        prefetch_row(T, home(T, cov | P | (1 << s), 0, small_key(F_ROLL, DD - 1, DD - 1, min(y2, MAX_YARN), 0,
                                                                   spec)))


# ------------------------------------------------------------------------------------------ decisions
@njit(cache=True, nogil=True)
def decide_roll(cov, P, d, DD, y, k, spec, cmrow, sc, mem):
    """The optimal choice for one roll (its count masks ``cmrow``, see :func:`.kernel.roll_masks`), once
    ``solve(F_ROLL, ...)`` has run for this state: ``(kind, space, dice)``; kind 0 burst, 1 place, 2 reroll
    (with the best placement reported too, as the reference does)."""
    brd, eight, cm, w, nrows, sp_kind, sp_mode, sp_yv, ip, avb, grp = sc
    T, boards, pool, meta, fr, frf, scr, scv, wk, wf = mem
    TF = T.view(np.float64)
    k = min(k, K_MAX)
    y = min(y, MAX_YARN)
    b = board_of(T, cov, DD)
    cnt = _entries(P, d, b, brd, boards, pool, scr, 0, wk[5, 4:])
    for e in range(cnt):
        if d == scr[e, 1]:
            scv[e, 0], scv[e, 1], _ = _stop_known(T, TF, cov, P | (1 << scr[e, 0]), DD, y, k, spec, b, brd, eight,
                                                  boards, sp_kind, sp_mode, sp_yv, ip[2])
            continue
        i = slot(T, cov, P | (1 << scr[e, 0]), small_key(F_AFTER, d - scr[e, 1], DD, y, k, spec))
        scv[e, 0] = TF[i, 4]
        scv[e, 1] = TF[i, 5]
    nk = _options(brd, scr, scv, 0, cnt, wk, wf)
    bv, bb, col = _pick(cmrow.reshape((1, 1, cmrow.shape[0])), 0, 0, wk, wf, nk)
    s = -1 if col < 0 else wk[2, col]
    c = 0 if col < 0 else wk[1, col]
    if y > 0:
        i = slot(T, cov, P, small_key(F_ROLL, d, DD, y - 1, k, spec))
        rrv = TF[i, 4] - sp_yv[spec]
        rrb = TF[i, 5]
        if rrv > bv + TOL or (abs(rrv - bv) <= TOL and rrb < bb - TOL):
            return 2, s, c
    if col < 0:
        return 0, -1, 0
    return 1, s, c


@njit(cache=True, nogil=True)
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
