"""The automa's pair actions, each decided by a constructed position (rules digest, "Automa"): rules that seeded
games rarely reach, so only a position built for them tests them (mutations meerkat-automa-swap-queen and
meerkat-automa-triple-once of ``tests/mutate.py``).

Rules digest: the automa rolls 3 dice plus the automa die (L/M/H picks the lowest/middle/highest die as the
count die, the other two give the tile); "if the two tile dice match, the automa also takes a special action
(twice for a triple)"; swap: "swap one with the opponent's meerkat on the lowest-numbered adjacent tile (the
opponent with most meerkats there; if tied, just move there)", and a tile an opponent's queen is on protects
that opponent's meerkats from being swapped.
"""

import numpy as np

from pyradice_lab.meerkat import rules as R
from pyradice_lab.meerkat.sim import fresh_state, python_twins

TW = python_twins()
i64 = np.int64
AUTOMA = 2  # 2 players + the automa: seats 0, 1 and the automa in seat 2
H = 3       # automa die value 3 is an "H" face (faces L, M, H, L, M, H)


def C(g):
    return g[0][0:4]


def S(g):
    return g[0][4:8]


def neighbours(g, t):
    return sorted(u for u in range(3, 13) if g[0][38 + t, u] == 1)


def test_the_packaged_pair_actions_are_the_digest_order():
    g = fresh_state(2, automa=True)
    K = g[0][64]
    assert [int(K[R.K_PA + x]) for x in (2, 3, 4)] == [R.PA_MOVE_HIGH, R.PA_SWAP_LOW, R.PA_SWAP_HIGH]


def test_swap_skips_the_opponent_whose_queen_protects_the_tile():
    """Dice 3, 3, 5 with H: count die 5 (3 meerkats) on tile 3 + 3 = 6, pair 3+3: swap on the lowest-numbered
    neighbour b of tile 6.  On b seat 0 has 2 meerkats and its queen, seat 1 has 1: seat 0 is protected, so
    the automa swaps with seat 1 (the only unprotected opponent there), not with seat 0 (who has most)."""
    g = fresh_state(2, automa=True, dice=(H, 3, 3, 5))
    S(g)[AUTOMA, R.QUEEN] = 12
    b = neighbours(g, 6)[0]
    C(g)[0, b], C(g)[1, b] = 2, 1
    S(g)[0, R.QUEEN] = b
    S(g)[0, R.SUP] -= 2
    S(g)[1, R.SUP] -= 1
    TW["automa_turn"](g, i64(AUTOMA))
    assert C(g)[AUTOMA, 6] == 2 and C(g)[AUTOMA, b] == 1       # 3 placed on 6, one swapped onto b
    assert C(g)[1, b] == 0 and C(g)[1, 6] == 1                 # seat 1's meerkat went to tile 6
    assert C(g)[0, b] == 2 and C(g)[0, 6] == 0                 # seat 0, queen-protected, untouched


def test_swap_without_the_queen_takes_the_opponent_with_most():
    """The same position without seat 0's queen on b: seat 0 (2 meerkats) is the one swapped."""
    g = fresh_state(2, automa=True, dice=(H, 3, 3, 5))
    S(g)[AUTOMA, R.QUEEN] = 12
    b = neighbours(g, 6)[0]
    C(g)[0, b], C(g)[1, b] = 2, 1
    S(g)[0, R.QUEEN] = 12
    TW["automa_turn"](g, i64(AUTOMA))
    assert C(g)[0, b] == 1 and C(g)[0, 6] == 1 and C(g)[1, b] == 1


def test_a_triple_takes_the_pair_action_twice():
    """Dice 2, 2, 2: count die 2 (1 meerkat) on tile 2 + 2 = 4 and pair 2+2 (move to the highest-numbered
    neighbour) twice: both automa meerkats on tile 4 (one there before, one placed) move."""
    g = fresh_state(2, automa=True, dice=(H, 2, 2, 2))
    S(g)[AUTOMA, R.QUEEN] = 12
    C(g)[AUTOMA, 4] = 1
    S(g)[AUTOMA, R.SUP] -= 1
    TW["automa_turn"](g, i64(AUTOMA))
    high = neighbours(g, 4)[-1]
    assert C(g)[AUTOMA, 4] == 0 and C(g)[AUTOMA, high] == 2


def test_a_pair_without_a_triple_takes_the_action_once():
    """Dice 2, 2, 5 with H: count die 5 (3 meerkats) on tile 4, pair 2+2 once: one meerkat moves."""
    g = fresh_state(2, automa=True, dice=(H, 2, 2, 5))
    S(g)[AUTOMA, R.QUEEN] = 12
    TW["automa_turn"](g, i64(AUTOMA))
    high = neighbours(g, 4)[-1]
    assert C(g)[AUTOMA, 4] == 2 and C(g)[AUTOMA, high] == 1
