"""Expected end-of-game value of the majority standings: the evaluation of the ``expectimax`` player.

The greedy and heuristic players value a tile by its points "if the game were scored now".  The expectimax
player values it by its expected points at the end of the game under a simple model of the placements still
to come (the same majority rule, :func:`.rules.rank_points`, scores every outcome):

- every seat that has not run out plays ``T`` more turns: its supply divided by the meerkats it places per
  turn (parameter ``meerkats_per_turn``; the automa: its exact mean count), rounded up, minus the turn being
  decided for the deciding seat, and at most one more than the turns left to the seat that will take the last
  bonus token (the game ends then);
- each of those turns lands on tile ``t`` with probability ``future x pi(t)``: ``pi(t)`` = 1/10 for players
  (measured heuristic players spread their meerkats over the ten tiles almost evenly: 8-12% each) and the exact
  landing distribution of the automa (its dice rules, enumerated from the components at setup), ``future``
  (0..1, a parameter) discounts the future;
- a landing adds 1, 2 or 3 meerkats (players: :data:`HUMAN_COUNTS`; the automa: its exact count distribution),
  so a seat adds 0, 1, 2 or 3+ meerkats to the tile (:data:`NF` outcomes; the landing count is binomial);
- seats are independent; the expected points of every seat follow by enumerating the joint additions (at most
  4^4 outcomes per tile), and the value of a tile to seat ``s`` is its expected points minus ``w_opp`` x the
  other seats' mean expected points, as for the greedy player.

``future = 0`` gives exactly the greedy/heuristic value (the tile scored now).

The race to run out (:func:`race_values`, the players' parameter ``race``): placing every meerkat takes the
next bonus token (9, then 6, then 3), so an option that places fewer meerkats -- the queen places none, a
guardian one -- costs a turn in that race.  The greedy evaluation sees a bonus token only when an option takes
it at once (:func:`.rules.next_bonus`); :func:`race_values` is seat ``s``'s exact expected bonus-token points as
a function of the meerkats it keeps in its supply at the end of this turn, under the same placement model:
every seat still in the race places 1, 2 or 3 meerkats a turn (players: :data:`HUMAN_COUNTS`; the automa: its
exact count distribution), and a player whose queen is still in its supply spends one more turn placing her.
Each seat's number of turns to run out follows by dynamic programming over its supply (exact for that model);
every other seat plays before ``s``'s next turn, so it runs out first when it needs at most as many turns; the
seats are independent, so the number running out before ``s`` has a Poisson-binomial distribution, and the token
``s`` takes is the next one after theirs (none once the last is gone: the game is over).  Floats are only multiplied
and added in a fixed order (no transcendental functions), so the pure-Python twin and the compiled kernel
compute the same bits.
"""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from ._policy_rows import P_FUTURE, P_MPT
from .rules import (
    AUTO,
    BONUS,
    G_NS,
    G_NTOK,
    G_TOKENS,
    INTERNAL,
    INTERNAL_NRT,
    K_AF,
    K_BV,
    K_REVREAD,
    OUT,
    PUP,
    QUEEN,
    RES,
    SUP,
    T_PLUS3,
    T_REVERSE,
    TOK,
    automa_split,
    rank_points,
    tile_values_into,
)

__all__ = ["HUMAN_COUNTS", "HUMAN_LANDING", "NF", "store_model", "expected_tile_values", "race_values", "turns_to_run_out",
           "expected_points", "expected_totals"]

#: Meerkats a player places per landing (1, 2, 3): the count die is chosen, so more often 2-3 than 1.
HUMAN_COUNTS = (0.25, 0.35, 0.40)
#: Probability that one of a player's turns lands on a given tile (before the ``future`` discount).
HUMAN_LANDING = 0.1
#: Outcomes of one seat's future additions to a tile: 0, 1, 2, 3 or more meerkats.
NF = 4
# The automa's model, stored at setup in unused columns of the tile-value rows of W (scaled integers):
# W[25 + t, M_COL] = P(an automa turn lands on tile t); W[25 + 0, M_COL + c - 1] = P(it places c meerkats).
M_COL = 8
M_SCALE = 1 << 20


@njit(cache=True)
def store_model(g) -> None:
    """Enumerate the automa's landing and count distributions from the components (its die faces and the count
    per die face) and store them in the state (called by the game setup)."""
    W = g[0]
    K = W[64]
    land = np.zeros(13)
    cnt = np.zeros(4)
    for f in range(6):  # each automa die face with probability 1/6
        face = K[K_AF + f]
        valid = 0
        for a in range(1, 7):
            for b in range(1, 7):
                for c in range(1, 7):
                    cd, x, y = automa_split(a, b, c, face)
                    if not (x == 1 and y == 1):  # 1+1 is rerolled
                        valid += 1
        for a in range(1, 7):
            for b in range(1, 7):
                for c in range(1, 7):
                    cd, x, y = automa_split(a, b, c, face)
                    if not (x == 1 and y == 1):
                        land[x + y] += 1.0 / (6.0 * valid)
                        cnt[min(3, K[cd])] += 1.0 / (6.0 * valid)
    for t in range(3, 13):
        W[25 + t, M_COL] = int(land[t] * M_SCALE + 0.5)
    for c in range(1, 4):
        W[25, M_COL + c - 1] = int(cnt[c] * M_SCALE + 0.5)


@njit(**INTERNAL_NRT)
def future_turns(g, s: int, mpt: float, turns) -> None:
    """``turns[o]``: the turns seat ``o`` is expected to play after this one (see the module docstring)."""
    W = g[0]
    S = W[4:8]
    n = W[21, G_NS]
    apt = 0.0  # the automa's mean meerkats per turn
    for c in range(1, 4):
        apt += c * W[25, M_COL + c - 1] / M_SCALE
    srt = np.zeros(4, np.int64)
    for o in range(n):
        k = 0
        if S[o, OUT] == 0 and S[o, SUP] > 0:
            per = apt if S[o, AUTO] == 1 else mpt
            if per <= 0.0:
                per = 2.0
            k = int(np.ceil(S[o, SUP] / per))
            if o == s:
                k -= 1
        turns[o] = max(k, 0)
        srt[o] = turns[o]
    for i in range(1, n):  # insertion sort: the (n-1)-th seat to run out ends the game
        x = srt[i]
        j = i - 1
        while j >= 0 and srt[j] > x:
            srt[j + 1] = srt[j]
            j -= 1
        srt[j + 1] = x
    cap = srt[n - 2] + 1
    for o in range(n):
        if turns[o] > cap:
            turns[o] = cap


@njit(**INTERNAL)
def future_dist(g, t: int, future: float, turns, f) -> None:
    """``f[o, a]``: probability that seat ``o`` adds ``a`` (0, 1, 2, 3 = 3 or more) meerkats to tile ``t``."""
    W = g[0]
    S = W[4:8]
    n = W[21, G_NS]
    for o in range(n):
        for a in range(NF):
            f[o, a] = 0.0
        T = turns[o]
        if T <= 0 or future <= 0.0:
            f[o, 0] = 1.0
            continue
        if S[o, AUTO] == 1:
            p = future * W[25 + t, M_COL] / M_SCALE
            c1, c2 = W[25, M_COL] / M_SCALE, W[25, M_COL + 1] / M_SCALE
        else:
            p = future * HUMAN_LANDING
            c1, c2 = HUMAN_COUNTS[0], HUMAN_COUNTS[1]
        p = min(p, 0.95)
        q = 1.0 - p
        if T == 1:
            p0, p1, p2 = q, p, 0.0
        else:
            qp = 1.0
            for _ in range(T - 2):
                qp *= q
            p0 = qp * q * q
            p1 = T * p * qp * q
            p2 = 0.5 * T * (T - 1) * p * p * qp
        f[o, 0] = p0
        f[o, 1] = p1 * c1
        f[o, 2] = p1 * c2 + p2 * c1 * c1
        f[o, 3] = max(0.0, 1.0 - f[o, 0] - f[o, 1] - f[o, 2])


@njit(**INTERNAL_NRT)
def expected_tile_values(g, s: int, t: int, w_opp: float, future: float, mpt: float, adds, m: int, out) -> None:
    """``out[k]`` (k < m): seat ``s``'s expected end-of-game points on tile ``t`` minus ``w_opp`` x the other
    seats' mean expected points, with ``s``'s strength there raised by ``adds[k]`` half units now (2 per
    meerkat, 5 for the queen).  ``future = 0``: the points if the game were scored now."""
    ws = tile_workspace()
    expected_tile_values_ws(g, s, t, w_opp, future, mpt, adds, m, out, ws[0], ws[1], ws[2])


@njit(**INTERNAL_NRT)
def tile_workspace():
    """Scratch for valuing tiles without allocating (:func:`values_ws`, :func:`value_ws`,
    :func:`expected_tile_values_ws`): ``(iw, ev, f, one, zero1)``, 5 x 4 integers, 4 x NF integers, 4 x NF
    floats, 1 float, 1 integer.  Its users zero what they use, so a workspace serves any number of tiles."""
    return (np.zeros((5, 4), np.int64), np.zeros((4, NF), np.int64), np.zeros((4, NF)), np.zeros(1),
            np.zeros(1, np.int64))


@njit(**INTERNAL)
def expected_tile_values_ws(g, s: int, t: int, w_opp: float, future: float, mpt: float, adds, m: int, out, iw, ev,
                            f) -> None:
    """:func:`expected_tile_values` on the first three arrays of a :func:`tile_workspace`, zeroed here (so the same
    values as fresh scratch); no allocation and no reference counting."""
    for i in range(5):
        for j in range(4):
            iw[i, j] = 0
    for i in range(4):
        for j in range(NF):
            ev[i, j] = 0
            f[i, j] = 0.0
    expected_tile_values_into(g, s, t, w_opp, future, mpt, adds, m, out, iw[0], iw[1], f, iw[2], ev, iw[3], iw[4])


@njit(**INTERNAL)
def values_ws(g, s: int, t: int, w: float, adds, m: int, out, ws) -> None:
    """Seat ``s``'s value of tile ``t`` for ``m`` variants of its strength there (``adds``, as
    :func:`.rules.tile_values`): scored now, or (parameter ``future`` > 0, the expectimax player) expected at the
    end of the game (:func:`expected_tile_values`); on the workspace ``ws`` (:func:`tile_workspace`), without
    allocating or reference counting."""
    iw, prm = ws[0], g[2]
    if prm[s, P_FUTURE] > 0:
        expected_tile_values_ws(g, s, t, w, prm[s, P_FUTURE], prm[s, P_MPT], adds, m, out, iw, ws[1], ws[2])
    else:
        for j in range(4):
            iw[3, j] = 0
            iw[4, j] = 0
        tile_values_into(g, s, t, w, adds, m, out, iw[3], iw[4])


@njit(**INTERNAL)
def value_ws(g, s: int, t: int, w: float, ws) -> float:
    """:func:`values_ws` of tile ``t`` as it stands (one variant, nothing added)."""
    one, zero1 = ws[3], ws[4]
    zero1[0] = 0
    values_ws(g, s, t, w, zero1, np.int64(1), one, ws)
    return one[0]


@njit(**INTERNAL)
def expected_tile_values_into(g, s: int, t: int, w_opp: float, future: float, mpt: float, adds, m: int, out, base,
                              turns, f, sup, vals, st, pts) -> None:
    """:func:`expected_tile_values` with its scratch, all zeros: ``base``, ``turns``, ``sup``, ``st``, ``pts`` (4
    integers each), ``f`` (4 x NF floats), ``vals`` (4 x NF integers); no reference counting here."""
    W = g[0]
    n = W[21, G_NS]
    for o in range(n):
        base[o] = 2 * W[o, t] + (5 if W[4 + o, QUEEN] == t else 0)
    tok = W[8 + t, TOK]
    mode = 1 + W[64, K_REVREAD] if tok == T_REVERSE else 0
    bonus = 3 if tok == T_PLUS3 else 0
    vrow = W[25 + t]
    future_turns(g, s, mpt, turns)
    future_dist(g, t, future, turns, f)
    # the outcomes with a positive probability, per seat (mixed-radix enumeration of the joint outcome)
    total = 1
    for o in range(n):
        for a in range(NF):
            if f[o, a] > 0.0:
                vals[o, sup[o]] = a
                sup[o] += 1
        total *= sup[o]
    for k in range(m):
        out[k] = 0.0
    for idx in range(total):
        x = idx
        prob = 1.0
        for o in range(n):
            a = vals[o, x % sup[o]]
            x //= sup[o]
            prob *= f[o, a]
            st[o] = base[o] + 2 * a
        own = st[s]
        for k in range(m):
            st[s] = own + adds[k]
            rank_points(st, n, vrow, mode, bonus, pts)
            other = 0.0
            for o in range(n):
                if o != s:
                    other += pts[o]
            out[k] += prob * (pts[s] - w_opp * other / (n - 1))
        st[s] = own


@njit(**INTERNAL_NRT)
def expected_points(g, future: float, mpt: float, out) -> None:
    """``out[o]``: seat ``o``'s expected end-of-game points on the ten tiles under the model of the module
    docstring, between two turns (every seat still to play all its :func:`future_turns`): the value of a
    position, not of one option.  One enumeration of the joint additions per tile serves every seat
    (the same sums as :func:`expected_tile_values` with ``w_opp = 0`` and nothing added, but no turn taken off
    for a deciding seat)."""
    W = g[0]
    n = W[21, G_NS]
    turns = np.zeros(4, np.int64)
    future_turns(g, np.int64(-1), mpt, turns)
    f = np.zeros((4, NF))
    base = np.zeros(4, np.int64)
    sup = np.zeros(4, np.int64)
    vals = np.zeros((4, NF), np.int64)
    st = np.zeros(4, np.int64)
    pts = np.zeros(4, np.int64)
    for o in range(4):
        out[o] = 0.0
    for t in range(3, 13):
        for o in range(n):
            base[o] = 2 * W[o, t] + (5 if W[4 + o, QUEEN] == t else 0)
        tok = W[8 + t, TOK]
        mode = 1 + W[64, K_REVREAD] if tok == T_REVERSE else 0
        bonus = 3 if tok == T_PLUS3 else 0
        vrow = W[25 + t]
        future_dist(g, t, future, turns, f)
        total = 1
        for o in range(n):
            sup[o] = 0
            for a in range(NF):
                if f[o, a] > 0.0:
                    vals[o, sup[o]] = a
                    sup[o] += 1
            total *= sup[o]
        for idx in range(total):
            x = idx
            prob = 1.0
            for o in range(n):
                a = vals[o, x % sup[o]]
                x //= sup[o]
                prob *= f[o, a]
                st[o] = base[o] + 2 * a
            rank_points(st, n, vrow, mode, bonus, pts)
            for o in range(n):
                out[o] += prob * pts[o]


@njit(**INTERNAL_NRT)
def expected_totals(g, future: float, mpt: float, out) -> None:
    """``out[o]``: seat ``o``'s expected final score between two turns: :func:`expected_points` on the tiles,
    plus pups x the guardians in its reserve, its bonus token, and for a seat still in the race its expected
    bonus token (:func:`race_values`, its queen one more turn if still in its supply); the evaluation that ends
    a truncated rollout of the search player (:mod:`.search`)."""
    W = g[0]
    S = W[4:8]
    n = W[21, G_NS]
    expected_points(g, future, mpt, out)
    for o in range(n):
        out[o] += S[o, PUP] * S[o, RES] + S[o, BONUS]
        if S[o, OUT] == 0 and S[o, SUP] > 0:
            rv = np.zeros(S[o, SUP] + 1)
            race_values(g, o, np.int64(1 if S[o, AUTO] == 0 and S[o, QUEEN] == 0 else 0), rv)
            out[o] += rv[S[o, SUP]]


@njit(**INTERNAL)
def turns_to_run_out(c1: float, c2: float, c3: float, top: int, F) -> None:
    """``F[x, t]`` (x, t in 0..top): the probability that a seat with ``x`` meerkats in its supply places its
    last one on its ``t``-th turn from now, placing 1, 2 or 3 meerkats a turn with probabilities ``c1, c2, c3``
    (``F[0, 0] = 1``: it has run out)."""
    for x in range(top + 1):
        for t in range(top + 1):
            F[x, t] = 0.0
    F[0, 0] = 1.0
    for x in range(1, top + 1):
        for t in range(1, top + 1):
            F[x, t] = (c1 * F[max(0, x - 1), t - 1] + c2 * F[max(0, x - 2), t - 1]) + c3 * F[max(0, x - 3), t - 1]


@njit(**INTERNAL_NRT)
def race_values(g, s: int, pending: int, out) -> None:
    """``out[x]`` (x in 0..supply of ``s``): seat ``s``'s expected bonus-token points if it ends this turn with
    ``x`` meerkats in its supply (``pending`` 1: its queen still to place, one more turn), the other seats as
    they stand (see the module docstring).  ``out[0]`` is the token taken at once (:func:`.rules.next_bonus`)."""
    W = g[0]
    S = W[4:8]
    G = W[21]
    K = W[64]
    n = G[G_NS]
    top = S[s, SUP] + 1
    for o in range(n):
        if S[o, SUP] + 1 > top:
            top = S[o, SUP] + 1
    tokens, ntok = G[G_TOKENS], G[G_NTOK]
    for x in range(S[s, SUP] + 1):
        out[x] = 0.0
    if tokens >= ntok:
        return
    out[0] = K[K_BV + tokens]
    F = np.zeros((top + 1, top + 1))
    turns_to_run_out(HUMAN_COUNTS[0], HUMAN_COUNTS[1], HUMAN_COUNTS[2], top, F)
    # cdf[o, t]: probability that other seat o has run out within t of its turns (it plays before s's next turn)
    cdf = np.zeros((4, top + 2))
    racing = np.zeros(4, np.bool_)
    Fa = np.zeros((top + 1, top + 1))
    auto = False
    for o in range(n):
        if o == s or S[o, OUT] != 0 or S[o, SUP] <= 0:
            continue
        racing[o] = True
        Fo = F
        if S[o, AUTO] == 1:
            if not auto:
                turns_to_run_out(W[25, M_COL] / M_SCALE, W[25, M_COL + 1] / M_SCALE, W[25, M_COL + 2] / M_SCALE,
                                 top, Fa)
                auto = True
            Fo = Fa
        shift = 1 if S[o, AUTO] == 0 and S[o, QUEEN] == 0 else 0
        acc = 0.0
        for t in range(top + 2):
            if t - shift >= 0 and t - shift <= top:
                acc += Fo[S[o, SUP], t - shift]
            cdf[o, t] = acc
    # B[t]: s's expected token if it runs out on its t-th turn from now (others first when they need <= t turns)
    B = np.zeros(top + 2)
    q = np.zeros(5)
    for t in range(1, top + 2):
        for k in range(5):
            q[k] = 0.0
        q[0] = 1.0
        for o in range(n):
            if racing[o]:
                p = cdf[o, t]
                for k in range(4, 0, -1):
                    q[k] = q[k] * (1.0 - p) + q[k - 1] * p
                q[0] = q[0] * (1.0 - p)
        v = 0.0
        for k in range(4):
            if tokens + k < ntok:
                v += q[k] * K[K_BV + tokens + k]
        B[t] = v
    for x in range(1, S[s, SUP] + 1):
        v = 0.0
        for t in range(1, top + 1):
            if t + pending <= top + 1:
                v += F[x, t] * B[t + pending]
        out[x] = v
