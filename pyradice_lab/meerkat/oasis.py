"""Oasis tokens: moving them, refilling from the blue then the brown bag, hazards, the reverse-scoring timer."""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from .rules import (
    BOX,
    EV_DRAW,
    EV_HAZARD,
    EV_LOSE,
    EV_TOKMOVE,
    EV_UNLOCK,
    G_BLUE,
    G_BROWN,
    G_FIRE,
    G_HAWK,
    G_JACKAL,
    G_JACKDIFF,
    G_NBLUE,
    G_NBROWN,
    G_NS,
    H_FIRE,
    H_HAWK,
    HAZLOST,
    INTERNAL,
    INTERNAL_NRT,
    K_JACKREAD,
    LOCK,
    NONE,
    P_HAZARD,
    PIC,
    QUEEN,
    T_REVERSE,
    TOK,
    TRACE,
    USED,
    note,
    roll_tile,
    use_dice,
)


@njit(**INTERNAL)
def token_move_options(g, out) -> int:
    """Burrow action: an oasis token (not a locked reverse token) to a tile without one: ``f * 16 + t``."""
    T = g[0][8:21]
    m = 0
    for f in range(3, 13):
        if T[f, TOK] != NONE and T[f, LOCK] < 0:
            for t in range(3, 13):
                if T[t, TOK] == NONE:
                    out[m] = f * 16 + t
                    m += 1
    return m


@njit(**INTERNAL)
def do_token_move(g, s: int, code: int, sign: int) -> None:
    """Move (sign=1) or move back (sign=-1) an oasis token; moving the reverse token starts its timer."""
    T = g[0][8:21]
    f, t = code // 16, code % 16
    if sign == -1:
        f, t = t, f
    T[t, TOK] = T[f, TOK]
    T[f, TOK] = NONE
    if sign == 1:
        if T[t, TOK] == T_REVERSE:
            T[t, LOCK] = s
        if TRACE:
            note(g, s, np.int64(EV_TOKMOVE), f, t, T[t, TOK], np.int64(0), np.int64(0))
    else:
        T[t, LOCK] = -1


@njit(**INTERNAL_NRT)
def resolve_hazard(g, s: int, kind: int) -> None:
    """Hawk / fire / jackal on a rolled tile.  Meerkats sharing a tile with their queen are immune.

    Interpretation: the hawk's "most meerkats" uses majority strength (queen 2.5) among seats present; a
    protected leader loses nothing and the hazard does not pass down to the next seat.  Jackal, literal
    reading (``K_JACKREAD`` 0, the default): each player loses one meerkat from the highest-numbered affected
    tile where they have a meerkat (the queen counts), and nothing if their queen protects that tile; next-tile
    reading (1): the highest-numbered affected tile with an unprotected regular meerkat loses one.
    """
    C = g[0][0:4]
    S = g[0][4:8]
    G = g[0][21]
    A = g[0][38:51]
    K = g[0][64]
    n = G[G_NS]
    use_dice(g, np.int64(P_HAZARD))
    t = roll_tile(g, np.int64(0))
    if TRACE:
        note(g, s, np.int64(EV_HAZARD), kind, t, np.int64(0), np.int64(0), np.int64(0))
    hit = np.zeros(4, np.int64)  # tile on which each seat loses one meerkat (0 = none)
    if kind == H_HAWK:
        G[G_HAWK] += 1
        best = 0
        for o in range(n):
            best = max(best, 2 * C[o, t] + (5 if S[o, QUEEN] == t else 0))
        for o in range(n):
            st = 2 * C[o, t] + (5 if S[o, QUEEN] == t else 0)
            if best > 0 and st == best and C[o, t] > 0 and S[o, QUEEN] != t:
                hit[o] = t
    elif kind == H_FIRE:
        G[G_FIRE] += 1
        for o in range(n):
            if C[o, t] > 0 and S[o, QUEEN] != t:
                hit[o] = t
    else:
        G[G_JACKAL] += 1
        literal = K[K_JACKREAD] == 0
        for o in range(n):
            first = 0  # highest-numbered affected tile holding one of o's meerkats (the queen included)
            spare = 0  # highest-numbered affected tile with an unprotected regular meerkat of o
            for u in range(12, 2, -1):
                if A[t, u] == 1 and (C[o, u] > 0 or S[o, QUEEN] == u):
                    if first == 0:
                        first = u
                    if C[o, u] > 0 and S[o, QUEEN] != u:
                        spare = u
                        break
            if first != spare and spare > 0:
                G[G_JACKDIFF] += 1  # the two readings remove different meerkats here
            hit[o] = first if literal and first == spare else (0 if literal else spare)
    for o in range(n):  # removed meerkats go to the box
        if hit[o] > 0:
            C[o, hit[o]] -= 1
            S[o, BOX] += 1
            S[o, HAZLOST] += 1
            if TRACE:
                note(g, o, np.int64(EV_LOSE), hit[o], np.int64(0), np.int64(0), np.int64(0), np.int64(0))


@njit(**INTERNAL)
def draw_token(g, s: int, t: int) -> None:
    """Refill tile ``t``: from the blue bag, then from the brown bag (hazards resolve, then turn tan)."""
    T = g[0][8:21]
    G = g[0][21]
    bags = g[0][22:25]
    if G[G_BLUE] < G[G_NBLUE]:
        T[t, TOK] = bags[0, G[G_BLUE]]
        G[G_BLUE] += 1
        if TRACE:
            note(g, s, np.int64(EV_DRAW), t, T[t, TOK], np.int64(0), np.int64(0), np.int64(0))
    elif G[G_BROWN] < G[G_NBROWN]:
        front, back = bags[1, G[G_BROWN]], bags[2, G[G_BROWN]]
        G[G_BROWN] += 1
        if TRACE:
            note(g, s, np.int64(EV_DRAW), t, front, np.int64(0), np.int64(0), np.int64(0))
        if front >= H_HAWK:
            resolve_hazard(g, s, front)
        T[t, TOK] = back
        if back == T_REVERSE:
            T[t, LOCK] = s  # the drawer takes the green timer


@njit(**INTERNAL)
def end_turn_refill(g, s: int) -> None:
    """Interpretation: a used blue token is replaced at the end of the turn on the tile it was used on; if a
    token was moved there meanwhile, on the lowest-numbered oasis picture without a token (else not at all)."""
    T = g[0][8:21]
    for t in range(3, 13):
        if T[t, USED] == 1:
            T[t, USED] = 0
            target = t
            if T[t, TOK] != NONE:
                target = 0
                for u in range(3, 13):
                    if T[u, PIC] == 1 and T[u, TOK] == NONE:
                        target = u
                        break
            if target > 0:
                draw_token(g, s, target)


@njit(**INTERNAL)
def unlock_timers(g, s: int) -> None:
    """At the start of seat ``s``'s turn its reverse-scoring timers run out (the token may move again)."""
    T = g[0][8:21]
    for t in range(3, 13):
        if T[t, LOCK] == s:
            T[t, LOCK] = -1
            if TRACE:
                note(g, s, np.int64(EV_UNLOCK), t, np.int64(0), np.int64(0), np.int64(0), np.int64(0))


