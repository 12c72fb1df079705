"""The automa's rules: three dice plus the automa die, and the pair actions (see the rules digest)."""

from __future__ import annotations

import numpy as np

from ..engine._jit import njit
from .rules import (
    EV_APAIR,
    EV_AREROLL,
    EV_AUTOMA,
    EV_QMOVE,
    G_NS,
    INTERNAL,
    K_AF,
    K_PA,
    P_AUTOMA,
    PA_MOVE_HIGH,
    PA_QUEEN_HIGH,
    PA_QUEEN_LOW,
    PA_SWAP_HIGH,
    PA_SWAP_LOW,
    QUEEN,
    TRACE,
    automa_split,
    do_move,
    do_swap,
    note,
    place,
    roll_die,
    use_dice,
)


@njit(**INTERNAL)
def automa_neighbour(g, t: int, high: bool) -> int:
    A = g[0][38:51]
    if high:
        for u in range(12, 2, -1):
            if A[t, u] == 1:
                return u
    else:
        for u in range(3, 13):
            if A[t, u] == 1:
                return u
    return 0


@njit(**INTERNAL)
def automa_pair_action(g, s: int, t: int, action: int) -> None:
    """One automa pair action after placing on tile ``t`` (see the rules digest)."""
    C = g[0][0:4]
    S = g[0][4:8]
    G = g[0][21]
    if TRACE:
        note(g, s, np.int64(EV_APAIR), action, t, np.int64(0), np.int64(0), np.int64(0))
    if action == PA_MOVE_HIGH:
        if C[s, t] > 0:
            do_move(g, s, t * 16 + automa_neighbour(g, t, np.bool_(True)))
    elif action == PA_SWAP_LOW or action == PA_SWAP_HIGH:
        if C[s, t] == 0:
            return
        b = automa_neighbour(g, t, action == PA_SWAP_HIGH)
        best, who, ties = 0, -1, 0
        for o in range(G[G_NS]):
            if o != s and C[o, b] > 0 and S[o, QUEEN] != b:  # queen-protected seats are skipped
                if C[o, b] > best:
                    best, who, ties = C[o, b], o, 1
                elif C[o, b] == best:
                    ties += 1
        if who >= 0 and ties == 1:
            do_swap(g, s, (t * 16 + b) * 8 + who, np.int64(1))
        else:  # no single opponent with most there: just move
            do_move(g, s, t * 16 + b)
    elif action == PA_QUEEN_LOW or action == PA_QUEEN_HIGH:
        q = S[s, QUEEN]
        if q >= 3:
            S[s, QUEEN] = automa_neighbour(g, q, action == PA_QUEEN_HIGH)
            if TRACE:
                note(g, s, np.int64(EV_QMOVE), q, S[s, QUEEN], np.int64(0), np.int64(0), np.int64(0))


@njit(**INTERNAL)
def automa_turn(g, s: int) -> None:
    """The automa: 3 dice + the automa die; L/M/H picks the count die; a tile pair triggers its action.

    Interpretations: on a 1+1 tile pair the three number dice are rerolled (the automa die keeps its
    face); the automa places what it has, never takes guardians, burrow actions, the wandering male or
    oasis tokens (the automa rules give it none of these).
    """
    K = g[0][64]
    use_dice(g, np.int64(P_AUTOMA))
    face = K[K_AF + roll_die(g) - 1]
    while True:
        d0, d1, d2 = roll_die(g), roll_die(g), roll_die(g)
        c, x, y = automa_split(d0, d1, d2, face)
        if TRACE:
            note(g, s, np.int64(EV_AUTOMA), d0 * 100 + d1 * 10 + d2, face, c, np.int64(0), np.int64(0))
        if not (x == 1 and y == 1):
            break
        if TRACE:
            note(g, s, np.int64(EV_AREROLL), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
    t = x + y
    place(g, s, t, K[c], np.bool_(False))
    if x == y:
        times = 2 if c == x else 1
        for _ in range(times):
            automa_pair_action(g, s, t, K[K_PA + x])


# ----------------------------------------------------------------------------------------- end scoring
