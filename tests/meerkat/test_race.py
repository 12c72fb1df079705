"""The race to run out (bonus tokens 9 / 6 / 3): ``evaluation.race_values`` against a readable turn-by-turn
brute force, a constructed position where the race decides, and the ``race`` parameter of the players."""

from functools import cache

import numpy as np
import pytest

from pyradice_lab.meerkat import rules as R
from pyradice_lab.meerkat.evaluation import HUMAN_COUNTS, M_COL, M_SCALE
from pyradice_lab.meerkat.policies import P_RACE, policy_row
from pyradice_lab.meerkat.sim import fresh_state, python_twins

TW = python_twins()
i64 = np.int64


def reference_race(g, s, x, pending):
    """Seat ``s``'s expected bonus-token points, playing the race turn by turn by the rules' order: every other
    seat still in the race plays before ``s``'s next turn; a turn places 1, 2 or 3 meerkats (a player: HUMAN_COUNTS;
    the automa: its count distribution), or the queen (a player whose queen is in its supply places her on its next
    turn: no meerkat); running out takes the next token; once the last one is taken the game ends."""
    W = g[0]
    S = W[4:8]
    n = W[21, R.G_NS]
    tokens, ntok = int(W[21, R.G_TOKENS]), int(W[21, R.G_NTOK])
    bv = [int(v) for v in W[64, R.K_BV:R.K_BV + 3]]
    auto = [W[25, M_COL + c] / M_SCALE for c in range(3)]
    seats = [o for o in range(n) if o != s and S[o, R.OUT] == 0 and S[o, R.SUP] > 0]
    dists = [auto if S[o, R.AUTO] else HUMAN_COUNTS for o in seats] + [HUMAN_COUNTS]
    if tokens >= ntok:
        return 0.0
    if x == 0:
        return bv[tokens]

    @cache
    def value(sups, queens, i, taken):
        if taken >= ntok:
            return 0.0                                   # the last token is gone: the game is over
        if sups[i] == 0:                                 # out already: skip its turn
            return value(sups, queens, (i + 1) % len(sups), taken)
        if queens[i]:                                    # the queen's turn: no meerkat placed
            q = queens[:i] + (0,) + queens[i + 1:]
            return value(sups, q, (i + 1) % len(sups), taken)
        total = 0.0
        for c, p in zip((1, 2, 3), dists[i]):
            left = max(0, sups[i] - c)
            nxt = sups[:i] + (left,) + sups[i + 1:]
            if left == 0:
                if i == len(sups) - 1:                   # s runs out: it takes the next token
                    total += p * bv[taken]
                    continue
                total += p * value(nxt, queens, (i + 1) % len(sups), taken + 1)
            else:
                total += p * value(nxt, queens, (i + 1) % len(sups), taken)
        return total

    sups = tuple(int(S[o, R.SUP]) for o in seats) + (x,)
    queens = tuple(int(S[o, R.AUTO] == 0 and S[o, R.QUEEN] == 0) for o in seats) + (pending,)
    return value(sups, queens, 0, tokens)


@pytest.mark.parametrize("players,automa,seed", [(2, True, 1), (3, False, 2), (4, False, 3), (3, True, 4)])
def test_race_values_match_a_turn_by_turn_brute_force(players, automa, seed):
    rng = np.random.default_rng(seed)
    g = fresh_state(players, automa=automa)
    W = g[0]
    n = players + automa
    for _ in range(8):
        W[21, R.G_TOKENS] = rng.integers(0, n - 1)
        for o in range(n):
            W[4 + o, R.SUP] = rng.integers(1, 8)
            W[4 + o, R.OUT] = 0
            W[4 + o, R.QUEEN] = rng.choice([0, 7]) if not W[4 + o, R.AUTO] else 5
        for o in rng.choice(n, size=W[21, R.G_TOKENS], replace=False):   # seats out already took the tokens
            W[4 + o, R.SUP], W[4 + o, R.OUT] = 0, 1
        s = next(o for o in range(players) if W[4 + o, R.OUT] == 0) if W[4:4 + players, R.OUT].min() == 0 else None
        if s is None:
            continue
        for pending in (0, 1):
            out = np.zeros(W[4 + s, R.SUP] + 1)
            TW["race_values"](g, i64(s), i64(pending), out)
            ref = [reference_race(g, s, x, pending) for x in range(W[4 + s, R.SUP] + 1)]
            assert out.tolist() == pytest.approx(ref, abs=1e-12)


def race_position(race):
    """2 players + automa, late: the automa ran out first (it took the 9), p0 has 4 meerkats left (queen in the
    supply), p1 4 (queen placed); p0 owns tiles 7, 8, 9 beyond reach.  Only the 6 is left: whoever runs out next
    takes it and ends the game."""
    g = fresh_state(2, automa=True, policies=[("expectimax", {"race": race}), "heuristic"])
    W = g[0]
    W[0, 7] = W[0, 8] = W[0, 9] = 6
    W[4 + 0, R.SUP], W[4 + 1, R.SUP], W[4 + 2, R.SUP] = 4, 4, 0
    W[4 + 1, R.QUEEN] = 3
    W[4 + 2, R.OUT], W[4 + 2, R.BONUS], W[21, R.G_TOKENS], W[21, R.G_OUTCNT] = 1, 9, 1, 1
    return g


def test_the_race_decides_a_constructed_position():
    """Roll 5, 3, 4: 3 meerkats or the queen on tile 7 (3 + 4), 2 on tile 8 or 9, or a guardian.  Every tile
    option gains nothing on the board (p0 owns them), so without the race the player takes the queen's bonus or
    a guardian; with it, 3 meerkats: one more turn and p0 is out first (p1 needs two turns) and takes the 6."""
    choices = {}
    for race in (0.0, 1.0):
        g = race_position(race)
        tab = np.zeros((13, 4))
        gval = TW["placement_table"](g, i64(0), tab)
        choices[race] = TW["choose_action"](g, i64(0), i64(5), i64(3), i64(4), tab, gval)
        rv = np.zeros(5)
        TW["race_values"](g, i64(0), i64(0), rv)
        if race:
            assert tab[7, 2] - tab[7, 3] == pytest.approx(rv[1] - rv[4] - 2.0, abs=1e-9)   # queen_bonus 2.0
    assert rv[1] == pytest.approx(6.0) and rv[4] < 2                # out next turn for sure: the 6 (p1 needs 2)
    assert choices[1.0] == 7 * 8 + 3 and choices[0.0] != 7 * 8 + 3


def test_race_parameter_rows_and_race_zero_is_the_old_evaluation():
    assert policy_row(("expectimax", {"race": 1}))[1][P_RACE] == 1 and policy_row("expectimax")[1][P_RACE] == 0
    assert policy_row("greedy")[1][P_RACE] == 0 and policy_row("heuristic")[1][P_RACE] == 0
    for bad in (-0.5, 1.5):
        with pytest.raises(ValueError, match="race"):
            policy_row(("expectimax", {"race": bad}))
    g0, g1 = race_position(0.0), race_position(1.0)
    g1[2][0, P_RACE] = 0.0                                      # race 0: exactly the evaluation without the race
    t0, t1 = np.zeros((13, 4)), np.zeros((13, 4))
    assert TW["placement_table"](g0, i64(0), t0) == TW["placement_table"](g1, i64(0), t1)
    assert t0.tolist() == t1.tolist()
