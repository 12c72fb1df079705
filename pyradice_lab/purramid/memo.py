"""Compiled building blocks of the exact solver (:mod:`.exact`): board arrays, bit sets, the memo table and
the valid dice groups of every board met.

- Board arrays (:func:`board_arrays`, shared with the game kernel): ``brd[0..5, space]`` = below mask,
  adjacency mask, number, tiles, row and fewest dice (``ceil(number / 6)``).
- The memo is one open-addressing hash table ``T`` of int64 rows ``(covered, placed, small, payload, value,
  burst)`` -- value and burst stored as float64 bit patterns (``T.view(np.float64)``), so one probe touches
  one row.  ``small`` packs the small numbers of a state and a tag (:func:`small_key`).
- A *board* is ``(covered, turn dice)``: its valid dice groups (connected, supported, uncovered, paid by at
  most ``turn dice`` dice) are enumerated once (:func:`build_board`) into a pool; the table maps the board
  to its row of ``boards``.

All arrays travel in one tuple (:func:`new_memory`); functions that may need more room return a status and
the solver grows the arrays, so a caller keeps a memo warm across calls.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ..engine._jit import njit
from .chance import count_masks, multisets

#: the first compile of the exact solver, announced (:func:`pyradice_lab.engine._jit.compile_notice`): typical CPU
#: seconds with an empty numba cache (the advisor's first solve 11 s, the first game with an optimal seat 23.7 s)
COMPILE_NOTICE = ("the Purramid exact solver", 15)

__all__ = ["board_arrays", "risk_tables", "new_memory", "reset_memory", "memo_size", "memo_bytes", "small_key",
           "slot", "home", "prefetch_row", "put", "board_of", "build_board", "connected_groups", "prune_memory",
           "entries_by_spaces", "layers", "export_rows", "import_rows", "MAX_SPACES", "ROW_BYTES"]

MAX_SPACES = 62
INF = 1 << 30
H_BOARD = 2                     # table tag of a board entry (0 and 1: AFTER and ROLL values, see exact.py)
# meta slots: table entries, boards, pool rows, (unused), prunes so far; from M_LAYERS on, the entries by the
# number of covered spaces of their board (0..63: what a prune keeps is read there, not counted in the table)
M_COUNT, M_NBOARDS, M_NPOOL, M_PRUNES, M_LAYERS = 0, 1, 2, 4, 8
# board rows: covered, turn dice, first pool row, valid groups, union of the groups, auto modes (-1 unknown)
B_COV, B_DD, B_START, B_LEN, B_UNION, B_MODES = 0, 1, 2, 3, 4, 5
# pool rows (one valid group): mask, fewest dice, sum of its numbers, spans 3+ rows
P_F, P_COST, P_SUMN, P_ROWS3 = 0, 1, 2, 3
N_FRAME = 16
#: bytes of one table row (six int64)
ROW_BYTES = 48

_H1, _H2, _H3 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F), np.uint64(0x165667B19E3779F9)


# ------------------------------------------------------------------------------------------ set up
def board_arrays(layout) -> tuple:
    """``(brd, full, n)`` for the kernels: ``brd`` is a (6, n) int64 array of the below masks, adjacency
    masks, numbers, tiles, rows and fewest dice (``ceil(number / 6)``) of the spaces; ``full`` the mask of
    all spaces."""
    n = layout.n_spaces
    if n > 63:
        raise ValueError(f"layout has {n} spaces; the compiled simulators handle at most 63")
    brd = np.array([layout.below_mask, layout.adj_mask, layout.numbers, layout.tile_counts, layout.row_of,
                    [-(-v // 6) for v in layout.numbers]], dtype=np.int64).reshape(6, n)
    return brd, np.int64(layout.all_mask), n


def risk_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count masks and weights of every sorted roll of 1..5 dice, padded: ``(cm[d, row, n], w[d, row], rows[d])``."""
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


def new_memory(n_spaces: int, hash_bits: int = 18):
    """Empty memo arrays (grown by the solver as needed): ``(T, boards, pool, meta, fr, frf, scr, scv, wk, wf)``
    (``wk``/``wf``: work rows for one roll's options, reused)."""
    T = np.full((1 << hash_bits, 6), -1, dtype=np.int64)
    boards = np.zeros((1024, 6), dtype=np.int64)
    pool = np.zeros((1 << 14, 4), dtype=np.int64)
    meta = np.zeros(M_LAYERS + 64, dtype=np.int64)
    fr = np.zeros((512, N_FRAME), dtype=np.int64)
    frf = np.zeros((512, 4), dtype=np.float64)
    rows = 512 * (5 * max(n_spaces, 1) + 8)
    scr = np.zeros((rows, 2), dtype=np.int64)
    scv = np.zeros((rows, 2), dtype=np.float64)
    width = max(5 * n_spaces + 8, 256)
    wk = np.full((6, width), -1, dtype=np.int64)
    wf = np.zeros((2, width), dtype=np.float64)
    return (T, boards, pool, meta, fr, frf, scr, scv, wk, wf)


@njit(cache=True, nogil=True)
def reset_memory(mem):
    """Forget every memoised value and board in place (capacity kept)."""
    T = mem[0]
    meta = mem[3]
    for i in range(T.shape[0]):
        T[i, 2] = -1
    meta[M_COUNT] = 0
    meta[M_NBOARDS] = 0
    meta[M_NPOOL] = 0
    for k in range(64):
        meta[M_LAYERS + k] = 0


def memo_size(mem) -> int:
    """Memoised entries (values and boards)."""
    return int(mem[3][M_COUNT])


def memo_bytes(mem) -> int:
    """Bytes held by the memo arrays (table, boards, pool, work rows)."""
    return int(sum(a.nbytes for a in mem))


def layers(mem) -> np.ndarray:
    """Memoised entries (values and boards) by the number of covered spaces of their board (0..63), as
    :func:`put` counted them (the same numbers as :func:`entries_by_spaces`, without reading the table)."""
    return mem[3][M_LAYERS:M_LAYERS + 64].copy()


@njit(cache=True, nogil=True)
def entries_by_spaces(T):
    """Memoised entries (values and boards) by the number of covered spaces of their board (0..63), counted
    in the table (:func:`layers` reads the same numbers from the memo's counters)."""
    h = np.zeros(64, dtype=np.int64)
    for i in range(T.shape[0]):
        if T[i, 2] != -1:
            h[popcount(T[i, 0])] += 1
    return h


@njit(cache=True, nogil=True)
def prune_memory(mem, max_spaces, rows):
    """A memo keeping only the entries of boards with at most ``max_spaces`` covered spaces (values and the
    boards' valid groups), in a table of ``rows`` rows (a power of two, at least twice the entries kept);
    work arrays are reused.  Values never depend on what the memo holds: a dropped entry is recomputed.
    A board's states are kept or dropped together, but the bonus turns they lead to lie on boards with more
    covered spaces: after a prune, the solver checks a known ROLL value's bonus turns before deciding from
    it (``meta[M_PRUNES]``)."""
    T, boards, pool, meta, fr, frf, scr, scv, wk, wf = mem
    N = np.full((rows, 6), -1, dtype=np.int64)
    nb_rows = 16
    np_rows = 16
    for i in range(T.shape[0]):
        if T[i, 2] != -1 and (T[i, 2] >> 17) & 3 == H_BOARD and popcount(T[i, 0]) <= max_spaces:
            nb_rows += 1
            np_rows += boards[T[i, 3], B_LEN]
    nboards = np.zeros((max(nb_rows, 1024), 6), dtype=np.int64)
    npool = np.zeros((max(np_rows, 1 << 14), 4), dtype=np.int64)
    count = 0
    nb = 0
    npl = 0
    for i in range(T.shape[0]):
        if T[i, 2] == -1 or popcount(T[i, 0]) > max_spaces:
            continue
        j = slot(N, T[i, 0], T[i, 1], T[i, 2])
        for col in range(6):
            N[j, col] = T[i, col]
        count += 1
        if (T[i, 2] >> 17) & 3 == H_BOARD:
            b = T[i, 3]
            st = boards[b, B_START]
            ln = boards[b, B_LEN]
            for col in range(6):
                nboards[nb, col] = boards[b, col]
            nboards[nb, B_START] = npl
            for r in range(ln):
                for col in range(4):
                    npool[npl + r, col] = pool[st + r, col]
            npl += ln
            N[j, 3] = nb
            nb += 1
    meta[M_COUNT] = count
    meta[M_NBOARDS] = nb
    meta[M_NPOOL] = npl
    meta[M_PRUNES] += 1
    for k in range(max_spaces + 1, 64):   # whole layers are dropped, the others kept
        meta[M_LAYERS + k] = 0
    return (N, nboards, npool, meta, fr, frf, scr, scv, wk, wf)


@njit(cache=True, nogil=True)
def prune_in_place(mem, max_spaces):
    """:func:`prune_memory` into the same arrays (the table keeps its size): no new table to allocate, fill
    and fault in -- the copying prune of a 2M-entry memo cost about 0.6 s CPU, most of it memory.  Kept
    boards and their valid groups move down in ``boards``/``pool`` (in building order, so a copy never
    overwrites a row still to be read); dropped table rows are emptied, and the kept rows after them are
    re-inserted in table order from an empty row on (each lands on its probe path at or before where it was: the
    linear-probing table is whole again; rows in runs without a hole stay).  Returns False, changing nothing, if the boards are not in
    building order (the caller then copies)."""
    T, boards, pool, meta = mem[0], mem[1], mem[2], mem[3]
    nbo = meta[M_NBOARDS]
    for b in range(1, nbo):
        if boards[b, B_START] < boards[b - 1, B_START] + boards[b - 1, B_LEN]:
            return False
    newb = np.full(max(nbo, 1), -1, dtype=np.int64)
    nb = 0
    npl = 0
    for b in range(nbo):
        if popcount(boards[b, B_COV]) > max_spaces:
            continue
        st = boards[b, B_START]
        ln = boards[b, B_LEN]
        for col in range(6):
            boards[nb, col] = boards[b, col]
        boards[nb, B_START] = npl
        for r in range(ln):
            for col in range(4):
                pool[npl + r, col] = pool[st + r, col]
        npl += ln
        newb[b] = nb
        nb += 1
    rows = T.shape[0]
    mask = rows - 1
    count = 0
    empty = -1
    for i in range(rows):
        if T[i, 2] == -1:
            empty = i
        elif popcount(T[i, 0]) > max_spaces:
            T[i, 2] = -2          # dropped (a hole in its probe run, until the pass below)
        else:
            count += 1
            if (T[i, 2] >> 17) & 3 == H_BOARD:
                T[i, 3] = newb[T[i, 3]]
    # from a row that was empty (no probe run crosses it; the table is at most half full, so one exists):
    # holes become empty, and the kept rows after a hole in the same run are re-inserted (they may move up)
    row = np.empty(6, dtype=np.int64)
    moved = False
    for step in range(1, rows + 1):
        i = (empty + step) & mask
        if T[i, 2] == -1:
            moved = False
        elif T[i, 2] == -2:
            T[i, 2] = -1
            moved = True
        elif moved:
            for col in range(6):
                row[col] = T[i, col]
            T[i, 2] = -1
            j = slot(T, row[0], row[1], row[2])
            for col in range(6):
                T[j, col] = row[col]
    meta[M_COUNT] = count
    meta[M_NBOARDS] = nb
    meta[M_NPOOL] = npl
    meta[M_PRUNES] += 1
    for k in range(max_spaces + 1, 64):   # whole layers are dropped, the others kept
        meta[M_LAYERS + k] = 0
    return True


# ------------------------------------------------------------------------------------------ bits
@intrinsic
def _cttz(typingctx, x):
    """Trailing zero bits of a non-zero integer (``llvm.cttz``: one instruction, ``tzcnt``/``bsf``)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


@intrinsic
def _ctpop(x_ty_ctx, x):
    """Set bits of an integer (``llvm.ctpop``: one instruction, ``popcnt``, where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, nogil=True, _nrt=False)
def ctz(low):
    """Index of the single set bit of ``low``."""
    return np.int64(_cttz(np.int64(low)))


@njit(cache=True, nogil=True, _nrt=False)
def popcount(x):
    """Set bits of ``x``."""
    return np.int64(_ctpop(np.int64(x)))


@njit(cache=True, nogil=True, _nrt=False)
def closure(placed, cov, brd):
    """``placed`` plus every uncovered space below it, recursively (a work list over the set bits)."""
    result = placed
    todo = placed
    while todo != 0:
        low = todo & -todo
        todo ^= low
        new = brd[0, ctz(low)] & ~cov & ~result
        result |= new
        todo |= new
    return result


@njit(cache=True, nogil=True, _nrt=False)
def sum_row(x, brd, row):
    """Sum of ``brd[row]`` over the spaces of ``x``."""
    s = 0
    while x != 0:
        low = x & -x
        x ^= low
        s += brd[row, ctz(low)]
    return s


@njit(cache=True, nogil=True, _nrt=False)
def neighbours(x, brd):
    nb = 0
    while x != 0:
        low = x & -x
        x ^= low
        nb |= brd[1, ctz(low)]
    return nb


@njit(cache=True, nogil=True, _nrt=False)
def connected(x, brd):
    if x == 0:
        return True
    seen = x & -x
    frontier = seen
    while frontier != 0:
        low = frontier & -frontier
        frontier ^= low
        new = brd[1, ctz(low)] & x & ~seen
        seen |= new
        frontier |= new
    return seen == x


@njit(cache=True, nogil=True, _nrt=False)
def rows3(x, brd):
    """1 if the spaces of ``x`` span three or more rows."""
    m = 0
    while x != 0:
        low = x & -x
        x ^= low
        m |= 1 << brd[4, ctz(low)]
    return 1 if popcount(m) >= 3 else 0


# ------------------------------------------------------------------------------------------ table
#: bits of :func:`small_key` the table's hash leaves out (dice left, yarn, tag): see :func:`home`
HASH_IGNORED = np.int64(7 | (15 << 6) | (3 << 17))


@njit(cache=True, nogil=True, _nrt=False)
def small_key(tag, d, DD, y, k, spec):
    """Pack dice left (3 bits), turn dice (3), yarn (4), tiles needed (7), tag (2) and objective row."""
    return d | (DD << 3) | (y << 6) | (k << 10) | (tag << 17) | (spec << 19)


@njit(cache=True, nogil=True, _nrt=False)
def home(T, a, b, c):
    """The row where the probe for key ``(a, b, c)`` starts: a hash of the key without its tag, yarn and dice
    left (:data:`HASH_IGNORED`), so that a state's AFTER and ROLL rows, its reroll's row (one token fewer) and
    its other dice counts lie side by side -- the solver reads them one after another, and the second read finds
    the first one's cache line (measured: 17.7 -> 23.4 all-optimal 4-player games per CPU-second)."""
    h = (np.uint64(a) * _H1) ^ (np.uint64(b) * _H2) ^ (np.uint64(c & ~HASH_IGNORED) * _H3)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(T.shape[0] - 1))


@intrinsic
def prefetch_row(typingctx, arr, i):
    """Ask the CPU to start loading row ``i`` of the 2-d array ``arr`` into its caches (``llvm.prefetch``; no
    effect on any value).  The solver prefetches the table rows of a state's options before reading them, so
    their cache misses overlap instead of waiting one after another."""
    if not isinstance(arr, types.Array) or arr.ndim != 2 or not isinstance(i, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        idx = context.cast(builder, args[1], signature.args[1], types.int64)
        zero = context.get_constant(types.int64, 0)
        ptr = cgutils.get_item_pointer2(context, builder, ary.data, cgutils.unpack_tuple(builder, ary.shape),
                                        cgutils.unpack_tuple(builder, ary.strides), aryty.layout, [idx, zero])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])  # read, keep, data cache
        return context.get_dummy_value()

    return types.void(arr, i), codegen


@njit(cache=True, nogil=True, _nrt=False)
def slot(T, a, b, c):
    """Row of key ``(a, b, c)`` in ``T``, or of the empty row where it would go (``T[i, 2] == -1``)."""
    mask = T.shape[0] - 1
    i = home(T, a, b, c)
    while True:
        if T[i, 2] == -1 or (T[i, 2] == c and T[i, 1] == b and T[i, 0] == a):
            return i
        i = (i + 1) & mask


@njit(cache=True, nogil=True, _nrt=False)
def put(T, TF, meta, a, b, c, v, bp):
    i = slot(T, a, b, c)
    if T[i, 2] == -1:
        meta[M_COUNT] += 1
        meta[M_LAYERS + popcount(a)] += 1
    T[i, 0] = a
    T[i, 1] = b
    T[i, 2] = c
    TF[i, 4] = v
    TF[i, 5] = bp
    return i


@njit(cache=True, nogil=True)
def grow_table(T):
    """A table twice the size holding the same entries."""
    N = np.full((T.shape[0] * 2, 6), -1, dtype=np.int64)
    for i in range(T.shape[0]):
        if T[i, 2] != -1:
            j = slot(N, T[i, 0], T[i, 1], T[i, 2])
            for col in range(6):
                N[j, col] = T[i, col]
    return N


@njit(cache=True, nogil=True)
def grow_rows(a):
    out = np.zeros((a.shape[0] * 2, a.shape[1]), dtype=a.dtype)
    for i in range(a.shape[0]):  # a loop, not ``out[:n] = a``: the slice assignment's shape checks cost
        for j in range(a.shape[1]):  # about 3 s of a cold compile
            out[i, j] = a[i, j]
    return out


# ------------------------------------------------------------------------------------------ boards
@njit(cache=True, nogil=True, _nrt=False)
def board_of(T, cov, DD):
    """Row of board ``(cov, DD)`` in ``boards``, or -1 if it has not been built."""
    i = slot(T, cov, 0, small_key(H_BOARD, 0, DD, 0, 0, 0))
    return T[i, 3] if T[i, 2] != -1 else -1


def connected_groups(brd, n: int, max_cost: int = 5) -> np.ndarray:
    """Every connected set of spaces paid by at most ``max_cost`` dice (fewest dice per space), one row each:
    ``(mask, spaces below it outside it, fewest dice, sum of its numbers, spans 3+ rows)`` -- the candidates
    :func:`build_board` filters (a few hundred per side: 558 on side A, 754 on side B)."""
    below, adj, num, _, row, cost = (list(map(int, brd[i])) for i in range(6))
    seen = {1 << s: cost[s] for s in range(n) if cost[s] <= max_cost}
    todo = list(seen)
    while todo:
        x = todo.pop()
        c = seen[x]
        nb = 0
        y = x
        while y:
            low = y & -y
            y ^= low
            nb |= adj[low.bit_length() - 1]
        nb &= ~x
        while nb:
            low = nb & -nb
            nb ^= low
            s = low.bit_length() - 1
            z = x | low
            if z not in seen and c + cost[s] <= max_cost:
                seen[z] = c + cost[s]
                todo.append(z)
    out = np.zeros((len(seen), 5), dtype=np.int64)
    for i, x in enumerate(sorted(seen, key=lambda m: (seen[m], m))):
        sp = [s for s in range(n) if x >> s & 1]
        bl = 0
        for s in sp:
            bl |= below[s]
        out[i] = (x, bl & ~x, seen[x], sum(num[s] for s in sp), 1 if len({row[s] for s in sp}) >= 3 else 0)
    return out


@njit(cache=True, nogil=True, _nrt=False)
def build_board(cov, DD, full, T, TF, boards, pool, meta, grp):
    """Register the board ``(cov, DD)`` with its valid groups in the pool: the connected sets of ``grp``
    (:func:`connected_groups`, ordered by fewest dice) that avoid ``cov``, are paid by at most ``DD`` dice and
    rest on covered spaces or on themselves.  Returns the board row, or -1 if the pool is too small (nothing
    registered then)."""
    free = full & ~cov
    start = meta[M_NPOOL]
    count = 0
    union = 0
    for g in range(grp.shape[0]):
        if grp[g, 2] > DD:
            break
        x = grp[g, 0]
        if x & free != x or grp[g, 1] & ~cov != 0:
            continue
        if start + count >= pool.shape[0]:
            return -1
        r = start + count
        pool[r, P_F] = x
        pool[r, P_COST] = grp[g, 2]
        pool[r, P_SUMN] = grp[g, 3]
        pool[r, P_ROWS3] = grp[g, 4]
        count += 1
        union |= x
    b = meta[M_NBOARDS]
    meta[M_NBOARDS] += 1
    meta[M_NPOOL] += count
    boards[b, B_COV] = cov
    boards[b, B_DD] = DD
    boards[b, B_START] = start
    boards[b, B_LEN] = count
    boards[b, B_UNION] = union
    boards[b, B_MODES] = -1
    i = put(T, TF, meta, cov, 0, small_key(H_BOARD, 0, DD, 0, 0, 0), 0.0, 0.0)
    T[i, 3] = b
    return b


@njit(cache=True, nogil=True)
def export_rows(mem, max_spaces):
    """The entries of the boards with at most ``max_spaces`` covered spaces as compact arrays ``(rows,
    boards, pool)`` (table rows with board entries renumbered), leaving ``mem`` as it is."""
    T, boards, pool = mem[0], mem[1], mem[2]
    count = 0
    nb = 0
    npl = 0
    for i in range(T.shape[0]):
        if T[i, 2] != -1 and popcount(T[i, 0]) <= max_spaces:
            count += 1
            if (T[i, 2] >> 17) & 3 == H_BOARD:
                nb += 1
                npl += boards[T[i, 3], B_LEN]
    R = np.empty((count, 6), dtype=np.int64)
    Bo = np.empty((nb, 6), dtype=np.int64)
    Po = np.empty((npl, 4), dtype=np.int64)
    count = 0
    nb = 0
    npl = 0
    for i in range(T.shape[0]):
        if T[i, 2] == -1 or popcount(T[i, 0]) > max_spaces:
            continue
        for col in range(6):
            R[count, col] = T[i, col]
        if (T[i, 2] >> 17) & 3 == H_BOARD:
            b = T[i, 3]
            for col in range(6):
                Bo[nb, col] = boards[b, col]
            Bo[nb, B_START] = npl
            for r in range(boards[b, B_LEN]):
                for col in range(4):
                    Po[npl + r, col] = pool[boards[b, B_START] + r, col]
            npl += boards[b, B_LEN]
            R[count, 3] = nb
            nb += 1
        count += 1
    return R, Bo, Po


@njit(cache=True, nogil=True)
def import_rows(mem, R, Bo, Po, rows):
    """A memo holding exactly the exported entries ``(R, Bo, Po)`` (see :func:`export_rows`), in a table
    of ``rows`` rows; the work arrays of ``mem`` (an empty memo) are reused."""
    T, boards, pool, meta, fr, frf, scr, scv, wk, wf = mem
    N = np.full((rows, 6), -1, dtype=np.int64)
    for k in range(64):
        meta[M_LAYERS + k] = 0
    for i in range(R.shape[0]):
        j = slot(N, R[i, 0], R[i, 1], R[i, 2])
        for col in range(6):
            N[j, col] = R[i, col]
        meta[M_LAYERS + popcount(R[i, 0])] += 1
    nboards = np.zeros((max(Bo.shape[0] + 16, 1024), 6), dtype=np.int64)
    for i in range(Bo.shape[0]):
        for col in range(6):
            nboards[i, col] = Bo[i, col]
    npool = np.zeros((max(Po.shape[0] + 16, 1 << 14), 4), dtype=np.int64)
    for i in range(Po.shape[0]):
        for col in range(4):
            npool[i, col] = Po[i, col]
    meta[M_COUNT] = R.shape[0]
    meta[M_NBOARDS] = Bo.shape[0]
    meta[M_NPOOL] = Po.shape[0]
    meta[M_PRUNES] += 1  # a partial memo: known states re-check their bonus turns (see prune_memory)
    return (N, nboards, npool, meta, fr, frf, scr, scv, wk, wf)
