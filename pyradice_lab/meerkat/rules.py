"""Meerkat Kingdom rules: state layout, chance, legal options, moves and majorities (the executable spec).

Together with :mod:`.oasis` (tokens, hazards, timer), :mod:`.automa`, :mod:`.policies` (decisions) and
:mod:`.kernel` (setup, turns, end trigger, end scoring) this is the whole game.  The state of one game is plain
integer arrays, so the very same functions run numba-compiled (:mod:`.sim`) and as ordinary Python (the
pure-Python twins of :mod:`.sim`, or everything under ``NUMBA_DISABLE_JIT=1``), the reference path:

``C[seat, tile]``
    regular meerkats of ``seat`` on desert tile ``tile`` (columns 3..12 used).
``S[seat, field]``
    per-seat counters, fields ``SUP`` (meerkats in the big burrow = supply), ``QUEEN`` (0 = in the supply,
    3..12 = on that tile, -1 = forfeited to the box), ``RES`` (guardians in the reserve), ``PUP``, ``BOX``
    (meerkats lost to hazards), ``BONUS``, ``OUT`` (k = k-th seat to run out), ``AUTO``, ``POL`` (policy id),
    ``BUR`` .. ``BUR+4`` (the five burrow action spaces: 1 = a meerkat sits there) and score fields.
``T[tile, field]``
    ``TOK`` (oasis token kind on the tile), ``LOCK`` (seat holding the reverse-scoring timer, -1 none),
    ``USED`` (a blue token was used here this turn: refill at the end of the turn), ``PIC`` (oasis picture).
``G[field]``
    game counters: seats, wandering male, tape pointers, turn, turn order (``G_POS`` = the next position to
    play, ``G_FINAL`` = the last turn after the last bonus token has begun), bags, bonus tokens taken, hazards
    fired, log.

``bags``, ``V`` (tile values), ``A`` / ``D`` (tile adjacency / distance after the setup shuffle), ``K``
(dice, automa, bonus constants), ``dt`` / ``ct`` (the game's dice tape and choice tape), ``prm`` (policy
parameters per seat) and the trace log.  All integer arrays are row blocks of one int64 array ``W`` and
the game is ``g = (W, tapes, prm)``: three arrays, which keeps numba's compile time down.

Chance is declared once: every die comes from :func:`roll_die` (uniform 1..6) and every other random choice
(setup shuffles, random policies) from :func:`rand_below`, both drawn from the game's key by (turn, purpose,
draw) (see "chance" in ``_rules_chance``) or, for hand-built positions, from tapes; the exact engine
(:mod:`.odds`) enumerates the same dice through :func:`roll_allows` and :func:`automa_split`.

Interpretations of ambiguous rules are documented where they are coded (search for "Interpretation").
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit

# isort: off
from ._rules_layout import (  # noqa: F401 - the layout and constants, re-exported for the engine's modules
    SUP, QUEEN, RES, PUP, BOX, BONUS, OUT, AUTO, POL, BUR, TILEPTS, PUPPTS, MOVED, TOTAL, WONMASK,
    HAZLOST, MALEACT, NSF, TOK, LOCK, USED, PIC, PAID, PRESENT, NTF, G_NS, G_MALE, G_DP, G_CP, G_TURN,
    G_BLUE, G_NBLUE, G_BROWN, G_NBROWN, G_TOKENS, G_NTOK, G_HAWK, G_FIRE, G_JACKAL, G_WRAP, G_CAP, G_LOG,
    G_TRACE, G_FIRST, G_END, G_OUTCNT, G_REVDIFF, G_JACKDIFF, G_POS, G_FINAL, G_KEY0, G_KEY1, G_TKEY,
    G_PURP, G_CPURP, NG, GC0, P_ROLL, P_REROLL, P_MALE, P_HAZARD, P_AUTOMA, P_CHOICE, P_LAYOUT, P_BLUE,
    P_BROWN, P_AQUEEN, P_START, NPURP, SETUP_TURN, KEY_WIDTH, NONE, B_MOVE, B_RECALL, B_GUARD, B_SWAP,
    T_MOVE, T_SWAP, T_TWO, T_PLUS3, T_REVERSE, H_HAWK, H_FIRE, H_JACKAL, TOKEN_NAMES, K_QF, K_AF, K_PA,
    K_BV, K_MAXG, K_MAXP, K_MEERKATS, K_REVREAD, K_JACKREAD, NK, BA_MOVE, BA_QUEEN, BA_SWAP, BA_OASIS,
    BA_MALE, PA_REROLL, PA_MOVE_HIGH, PA_SWAP_LOW, PA_SWAP_HIGH, PA_QUEEN_LOW, PA_QUEEN_HIGH, EV_ROLL,
    EV_REROLL, EV_PLACE, EV_QUEEN, EV_GUARD, EV_MALE, EV_DRIVE, EV_PUP, EV_OASIS, EV_MOVE, EV_SWAP,
    EV_RECALL, EV_TOKMOVE, EV_DRAW, EV_HAZARD, EV_LOSE, EV_OUT, EV_FORFEIT, EV_BURROW, EV_AUTOMA,
    EV_APAIR, EV_QMOVE, EV_PASS, EV_SCORE, EV_GMOVE, EV_FINAL, EV_START, EV_LAYOUT, EV_UNLOCK, EV_AREROLL,
    INTERNAL, INTERNAL_NRT, TRACE, LOG_COLS, MAX_TURNS, W_WIDTH, LOG0,
)
from ._rules_chance import (  # noqa: F401 - keyed chance, re-exported
    M32, mul32, mix32, keyed, start_streams, use_dice, seek_dice, stream_word, roll_die, rand_below,
    roll_tile,
)
# isort: on


@njit(**INTERNAL)
def note(g, seat, ev, a, b, c, d, e) -> None:
    """Append a trace event (turn, seat, event, a..e) to the log rows of ``W`` when tracing is on."""
    W = g[0]
    G = W[21]
    if G[G_TRACE] == 0:
        return
    r = G[G_LOG]
    row, col = LOG0 + r // 8, (r % 8) * 8
    if row >= W.shape[0]:
        return
    W[row, col] = G[G_TURN]
    W[row, col + 1] = seat
    W[row, col + 2] = ev
    W[row, col + 3] = a
    W[row, col + 4] = b
    W[row, col + 5] = c
    W[row, col + 6] = d
    W[row, col + 7] = e
    G[G_LOG] = r + 1


# ----------------------------------------------------------------------------------------- dice -> options
@njit(cache=True)
def roll_allows(d0: int, d1: int, d2: int, tile: int, need: int, K) -> bool:
    """Whether dice (d0, d1, d2) allow placing ``need`` meerkats (1..3; 4 = the queen) on ``tile``.

    One die is the count die, the other two sum to the tile; 1+1 (snake eyes) reaches any tile.
    """
    for i in range(3):
        if i == 0:
            c, x, y = d0, d1, d2
        elif i == 1:
            c, x, y = d1, d0, d2
        else:
            c, x, y = d2, d0, d1
        if x + y == tile or (x == 1 and y == 1):
            if need == 4:
                if K[K_QF + c] == 1:
                    return True
            elif K[c] >= need:
                return True
    return False


@njit(cache=True)
def automa_split(d0: int, d1: int, d2: int, face: int):
    """Automa die ``face`` (0 = L, 1 = M, 2 = H) picks the lowest/middle/highest die as the count die.

    Returns (count die, tile die x, tile die y) with x <= y.
    """
    a, b, c = d0, d1, d2
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    if face == 0:
        return a, b, c
    if face == 1:
        return b, a, c
    return c, a, b


@njit(**INTERNAL_NRT)
def placement_options(g, s: int, d0: int, d1: int, d2: int, opts) -> int:
    """:func:`placement_options_into` with its scratch allocated here."""
    return placement_options_into(g, s, d0, d1, d2, opts, np.zeros(13 * 8, np.bool_))


@njit(**INTERNAL)
def placement_options_into(g, s: int, d0: int, d1: int, d2: int, opts, seen) -> int:
    """Distinct legal actions for dice (d0, d1, d2): 0 = take a guardian (reserve below the maximum and a
    meerkat in the supply); ``tile * 8 + n`` = place n = 1..3 meerkats (what the count die allows, or what
    the supply still holds) on ``tile``; ``tile * 8 + 4`` = place the queen (count die 5-6, queen in the
    supply).  One die is the count die, the other two sum to the tile; 1+1 reaches any tile.  ``seen``: 104
    booleans of scratch, all False (no reference counting here: :func:`placement_options` allocates it)."""
    S = g[0][4:8]
    K = g[0][64]
    m = 0
    if S[s, RES] < K[K_MAXG] and S[s, SUP] > 0:
        opts[0] = 0
        m = 1
    for i in range(3):
        if i == 0:
            c, x, y = d0, d1, d2
        elif i == 1:
            c, x, y = d1, d0, d2
        else:
            c, x, y = d2, d0, d1
        lo, hi = x + y, x + y
        if x == 1 and y == 1:
            lo, hi = 3, 12
        for t in range(lo, hi + 1):
            n = min(K[c], S[s, SUP])
            if n > 0 and not seen[t * 8 + n]:
                seen[t * 8 + n] = True
                opts[m] = t * 8 + n
                m += 1
            if K[K_QF + c] == 1 and S[s, QUEEN] == 0 and S[s, SUP] > 0 and not seen[t * 8 + 4]:
                seen[t * 8 + 4] = True
                opts[m] = t * 8 + 4
                m += 1
    return m


# ----------------------------------------------------------------------------------------- majorities
@njit(**INTERNAL)
def rank_points(strength, n: int, vrow, mode: int, bonus, out) -> None:
    """Points per player for one tile (the majority rule shared with :func:`.scoring.score_tile`).

    ``strength[i]``: 2 x meerkats + 5 if the queen is there (half units, so the queen is 2.5).  Players with
    zero strength score nothing; players whose strength equals another's cancel completely.  ``vrow`` is a
    row of ``V``: ``vrow[0]`` values, then the values high .. low.  ``mode`` 0: the k-th strongest of the
    others takes value k.  Reverse scoring token, ``mode`` 1 (literal reading, the default): the weakest
    takes the highest value and the second weakest the lowest value, nobody else scores; ``mode`` 2 (extended
    reading): the k-th weakest takes value k (the two readings differ on three-value tiles 9..12 only).
    """
    alive = 0  # bit i: seat i present and not cancelled by a tie
    for i in range(n):
        si = strength[i]
        if si > 0:
            ok = True
            for j in range(n):
                if j != i and strength[j] == si:
                    ok = False
                    break
            if ok:
                alive |= 1 << i
    nv = vrow[0]
    for i in range(n):
        out[i] = 0
        if alive >> i & 1:
            si = strength[i]
            rank = 0
            for j in range(n):
                if alive >> j & 1 and ((strength[j] > si) if mode == 0 else (strength[j] < si)):
                    rank += 1
            if mode == 1 and rank >= 1:  # literal reverse: second fewest takes the lowest value, then nobody
                rank = nv - 1 if rank == 1 and nv >= 2 else nv
            if rank < nv:
                out[i] = vrow[1 + rank] + bonus


@njit(**INTERNAL_NRT)
def tile_points(g, t: int, pts) -> None:
    """Fill ``pts[seat]`` with each seat's points on tile ``t`` if the game were scored now."""
    tile_points_into(g, t, pts, np.zeros(4, np.int64))


@njit(**INTERNAL)
def tile_points_into(g, t: int, pts, st) -> None:
    """:func:`tile_points` with ``st`` (4 zeros) as scratch."""
    W = g[0]
    n = W[21, G_NS]
    for s in range(n):
        st[s] = 2 * W[s, t] + (5 if W[4 + s, QUEEN] == t else 0)
    tok = W[8 + t, TOK]
    mode = 1 + W[64, K_REVREAD] if tok == T_REVERSE else 0
    rank_points(st, n, W[25 + t], mode, 3 if tok == T_PLUS3 else 0, pts)


@njit(**INTERNAL_NRT)
def tile_values(g, s: int, t: int, w_opp: float, adds, m: int, out) -> None:
    """``out[k]`` (k < m) = :func:`tile_value` of tile ``t`` with seat ``s``'s strength there raised by ``adds[k]``
    half units (2 per meerkat, 5 for the queen): one read of the tile serves every variant a policy weighs."""
    tile_values_into(g, s, t, w_opp, adds, m, out, np.zeros(4, np.int64), np.zeros(4, np.int64))


@njit(**INTERNAL)
def tile_values_into(g, s: int, t: int, w_opp: float, adds, m: int, out, st, pts) -> None:
    """:func:`tile_values` with ``st`` and ``pts`` (4 zeros each) as scratch."""
    W = g[0]
    n = W[21, G_NS]
    for o in range(n):
        st[o] = 2 * W[o, t] + (5 if W[4 + o, QUEEN] == t else 0)
    tok = W[8 + t, TOK]
    mode = 1 + W[64, K_REVREAD] if tok == T_REVERSE else 0
    bonus = 3 if tok == T_PLUS3 else 0
    vrow = W[25 + t]
    base = st[s]
    for k in range(m):
        st[s] = base + adds[k]
        rank_points(st, n, vrow, mode, bonus, pts)
        other = 0.0
        for o in range(n):
            if o != s:
                other += pts[o]
        out[k] = pts[s] - w_opp * other / (n - 1)


@njit(**INTERNAL_NRT)
def tile_value(g, s: int, t: int, w_opp: float) -> float:
    """Seat ``s``'s points on tile ``t`` minus ``w_opp`` x the mean of the other seats' points there."""
    out = np.zeros(1)
    tile_values(g, s, t, w_opp, np.zeros(1, np.int64), np.int64(1), out)
    return out[0]


@njit(**INTERNAL_NRT)
def reverse_readings_differ(g, t: int) -> bool:
    """Whether the literal and the extended reading of the reverse scoring token pay tile ``t`` differently."""
    W = g[0]
    n = W[21, G_NS]
    st = np.zeros(4, np.int64)
    for s in range(n):
        st[s] = 2 * W[s, t] + (5 if W[4 + s, QUEEN] == t else 0)
    lit = np.zeros(4, np.int64)
    ext = np.zeros(4, np.int64)
    rank_points(st, n, W[25 + t], np.int64(1), np.int64(0), lit)
    rank_points(st, n, W[25 + t], np.int64(2), np.int64(0), ext)
    for s in range(n):
        if lit[s] != ext[s]:
            return True
    return False


# ----------------------------------------------------------------------------------------- running out
@njit(**INTERNAL)
def check_out(g, s: int) -> None:
    """Queen forfeiture and the bonus token when seat ``s`` has placed every meerkat."""
    S = g[0][4:8]
    G = g[0][21]
    K = g[0][64]
    if S[s, SUP] > 0:
        return
    if S[s, QUEEN] == 0:  # the queen may not be the last meerkat placed: she is forfeited
        S[s, QUEEN] = -1
        if TRACE:
            note(g, s, np.int64(EV_FORFEIT), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    if S[s, OUT] == 0:
        G[G_OUTCNT] += 1
        S[s, OUT] = G[G_OUTCNT]
        if G[G_TOKENS] < G[G_NTOK]:
            S[s, BONUS] = K[K_BV + G[G_TOKENS]]
            G[G_TOKENS] += 1
        if TRACE:
            note(g, s, np.int64(EV_OUT), S[s, BONUS], G[G_TOKENS], np.int64(0), np.int64(0), np.int64(0))


@njit(**INTERNAL)
def next_bonus(g, s: int, spent: int) -> int:
    """Bonus points seat ``s`` would take at once by spending ``spent`` more meerkats from its supply."""
    S = g[0][4:8]
    G = g[0][21]
    K = g[0][64]
    if S[s, SUP] - spent <= 0 and S[s, OUT] == 0 and G[G_TOKENS] < G[G_NTOK]:
        return K[K_BV + G[G_TOKENS]]
    return 0


# ----------------------------------------------------------------------------------------- basic moves
# (oasis tokens, hazards and the reverse-scoring timer: see :mod:`.oasis`)
@njit(**INTERNAL)
def place(g, s: int, t: int, n: int, queen: bool) -> int:
    """Place ``n`` regular meerkats (as many as the supply holds) or the queen on tile ``t``."""
    C = g[0][0:4]
    S = g[0][4:8]
    if queen:
        S[s, QUEEN] = t
        if TRACE:
            note(g, s, np.int64(EV_QUEEN), t, np.int64(0), np.int64(0), np.int64(0), np.int64(0))
        placed = 1
    else:
        placed = min(n, S[s, SUP])
        S[s, SUP] -= placed
        C[s, t] += placed
        if TRACE:
            note(g, s, np.int64(EV_PLACE), placed, t, np.int64(0), np.int64(0), np.int64(0))
    check_out(g, s)
    return placed


@njit(**INTERNAL)
def move_options(g, s: int, out) -> int:
    """Moves of one regular meerkat of ``s`` to an adjacent tile: codes ``a * 16 + b``; returns the count."""
    C = g[0][0:4]
    A = g[0][38:51]
    m = 0
    for a in range(3, 13):
        if C[s, a] > 0:
            for b in range(3, 13):
                if A[a, b] == 1:
                    out[m] = a * 16 + b
                    m += 1
    return m


@njit(**INTERNAL)
def swap_options(g, s: int, out) -> int:
    """Swaps: a regular of ``s`` on ``a`` with an unprotected regular of ``o`` on adjacent ``b``.

    Codes ``(a * 16 + b) * 8 + o``.
    """
    C = g[0][0:4]
    S = g[0][4:8]
    G = g[0][21]
    A = g[0][38:51]
    m = 0
    for a in range(3, 13):
        if C[s, a] > 0:
            for b in range(3, 13):
                if A[a, b] == 1:
                    for o in range(G[G_NS]):
                        if o != s and C[o, b] > 0 and S[o, QUEEN] != b:  # her queen protects
                            out[m] = (a * 16 + b) * 8 + o
                            m += 1
    return m


@njit(**INTERNAL)
def do_move(g, s: int, code: int) -> None:
    C = g[0][0:4]
    a, b = code // 16, code % 16
    C[s, a] -= 1
    C[s, b] += 1
    if TRACE:
        note(g, s, np.int64(EV_MOVE), a, b, np.int64(0), np.int64(0), np.int64(0))


@njit(**INTERNAL)
def do_swap(g, s: int, code: int, sign: int) -> None:
    """Apply (sign=1) or undo (sign=-1) a swap code from :func:`swap_options`."""
    C = g[0][0:4]
    o = code % 8
    a, b = (code // 8) // 16, (code // 8) % 16
    C[s, a] -= sign
    C[s, b] += sign
    C[o, b] -= sign
    C[o, a] += sign
    if sign == 1:
        if TRACE:
            note(g, s, np.int64(EV_SWAP), a, b, o, np.int64(0), np.int64(0))


@njit(**INTERNAL)
def recall_options(g, s: int, out) -> int:
    """Recalls to the big burrow: a regular from tile ``t`` (code t) or the meerkat on burrow space k
    (code 100 + k)."""
    C = g[0][0:4]
    S = g[0][4:8]
    m = 0
    for t in range(3, 13):
        if C[s, t] > 0:
            out[m] = t
            m += 1
    for k in range(5):
        if S[s, BUR + k] == 1:
            out[m] = 100 + k
            m += 1
    return m


@njit(**INTERNAL)
def do_recall(g, s: int, code: int, sign: int) -> None:
    C = g[0][0:4]
    S = g[0][4:8]
    if code >= 100:
        S[s, BUR + code - 100] -= sign
    else:
        C[s, code] -= sign
    S[s, SUP] += sign
    if sign == 1:
        if TRACE:
            note(g, s, np.int64(EV_RECALL), code, np.int64(0), np.int64(0), np.int64(0), np.int64(0))


@njit(**INTERNAL)
def queen_options(g, s: int, out) -> int:
    """Burrow action: the queen (on a tile) moves to a tile 1 or 2 steps away."""
    S = g[0][4:8]
    D = g[0][51:64]
    q = S[s, QUEEN]
    m = 0
    if q < 3:
        return 0
    for t in range(3, 13):
        if D[q, t] == 1 or D[q, t] == 2:
            out[m] = t
            m += 1
    return m


@njit(**INTERNAL)
def drive_options(g, s: int, out) -> int:
    """Wandering male step 1: a regular of ``s`` on another tile moves one step closer to him."""
    C = g[0][0:4]
    G = g[0][21]
    A = g[0][38:51]
    D = g[0][51:64]
    male = G[G_MALE]
    m = 0
    for a in range(3, 13):
        if a != male and C[s, a] > 0:
            for b in range(3, 13):
                if A[a, b] == 1 and D[b, male] == D[a, male] - 1:
                    out[m] = a * 16 + b
                    m += 1
    return m


@njit(**INTERNAL)
def male_rest(g, s: int) -> None:
    """Wandering male steps 2 and 3: roll him to a new tile (reroll his own tile), take a pup (max 4)."""
    S = g[0][4:8]
    G = g[0][21]
    K = g[0][64]
    use_dice(g, np.int64(P_MALE))
    G[G_MALE] = roll_tile(g, G[G_MALE])
    S[s, MALEACT] += 1
    if S[s, PUP] < K[K_MAXP]:
        S[s, PUP] += 1
    if TRACE:
        note(g, s, np.int64(EV_MALE), G[G_MALE], S[s, PUP], np.int64(0), np.int64(0), np.int64(0))


@njit(**INTERNAL_NRT)
def tile_winner(g, t: int) -> int:
    """The seat taking tile ``t``'s high value now (-1 if nobody): strongest (fewest under reverse scoring)
    among the seats present that are not cancelled by a tie."""
    C = g[0][0:4]
    S = g[0][4:8]
    T = g[0][8:21]
    G = g[0][21]
    n = G[G_NS]
    st = np.zeros(4, np.int64)
    for s in range(n):
        st[s] = 2 * C[s, t] + (5 if S[s, QUEEN] == t else 0)
    rev = T[t, TOK] == T_REVERSE
    who, key = -1, 0
    for s in range(n):
        if st[s] <= 0:
            continue
        dup = False
        for o in range(n):
            if o != s and st[o] == st[s]:
                dup = True
        if dup:
            continue
        k = -st[s] if rev else st[s]
        if who < 0 or k > key:
            who, key = s, k
    return who


@njit(**INTERNAL_NRT)  # .min() needs reference counting
def conservation_ok(g) -> bool:
    """supply + tiles + burrow + reserve + box (+ the queen) = meerkats + 1 for every seat."""
    C = g[0][0:4]
    S = g[0][4:8]
    G = g[0][21]
    K = g[0][64]
    for s in range(G[G_NS]):
        tot = S[s, SUP] + S[s, RES] + S[s, BOX] + 1
        for t in range(3, 13):
            tot += C[s, t]
        for k in range(5):
            tot += S[s, BUR + k]
        if tot != K[K_MEERKATS] + 1 or C[s].min() < 0 or S[s, SUP] < 0:
            return False
    return True
