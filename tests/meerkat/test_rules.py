"""Rules of a turn on hand-built states (the pure-Python twin of the engine): the digest's examples."""

import numpy as np

from pyradice_lab.meerkat import rules as R
from pyradice_lab.meerkat.sim import fresh_state, python_twins

TW = python_twins()
i64 = np.int64


def S(g):
    return g[0][4:8]


def C(g):
    return g[0][0:4]


def T(g):
    return g[0][8:21]


def G(g):
    return g[0][21]


def options(g, seat, dice):
    opts = np.zeros(128, dtype=np.int64)
    m = TW["placement_options"](g, seat, *dice, opts)
    out = set()
    for code in opts[:m]:
        out.add("guardian" if code == 0 else (int(code // 8), "queen" if code % 8 == 4 else int(code % 8)))
    return out


def test_tori_roll_542_has_exactly_the_digest_options():
    g = fresh_state(3)
    # 5 as the count die: queen or 3 meerkats on 6 (4+2); 4: 2 meerkats on 7 (5+2); 2: 1 meerkat on 9 (5+4)
    assert options(g, 0, (5, 4, 2)) == {"guardian", (6, "queen"), (6, 3), (7, 2), (9, 1)}


def test_snake_eyes_reach_any_tile_and_supply_limits():
    g = fresh_state(3)
    assert options(g, 0, (1, 1, 3)) == {"guardian", (4, 1)} | {(t, 2) for t in range(3, 13)}
    S(g)[0, R.SUP] = 1
    S(g)[0, R.RES] = 4                       # guardians max 4: no guardian option
    # 6 as count die -> tile 3+3 = 6: 1 meerkat (all that is left) or the queen; a 3 -> tile 9: 1 meerkat
    assert options(g, 0, (6, 3, 3)) == {(6, 1), (6, "queen"), (9, 1)}


def test_queen_cannot_be_last_and_bonus_token():
    g = fresh_state(3)
    S(g)[0, R.SUP] = 2
    C(g)[0, 12] = 18                              # the other 18 are already on the board
    TW["place"](g, i64(0), i64(7), i64(3), False)     # count 3, only 2 left: place what you have
    assert C(g)[0, 7] == 2 and S(g)[0, R.SUP] == 0
    assert S(g)[0, R.QUEEN] == -1                # forfeited
    assert S(g)[0, R.BONUS] == 9 and S(g)[0, R.OUT] == 1 and G(g)[R.G_TOKENS] == 1
    assert TW["conservation_ok"](g)


def test_automa_example_255_with_H():
    # automa die value 3 is an "H" face (faces L, M, H, L, M, H); then dice 2, 5, 5 -> 3 meerkats on tile 7
    g = fresh_state(2, automa=True, dice=(3, 2, 5, 5))
    S(g)[2, R.QUEEN] = 12
    TW["automa_turn"](g, i64(2))
    assert C(g)[2, 7] == 3 and S(g)[2, R.SUP] == 17


def test_automa_pair_action_and_snake_eyes_reroll():
    # face L (die 1); dice 1, 1, 4 -> count die 1, pair 1+4: no pair.  Then face H (die 3), 1, 1, 6: the tile
    # pair 1+1 is rerolled (the three dice only) -> 2, 2, 5: count 5 (3 meerkats), pair 2+2 = tile 4, action
    # "move_high": one automa meerkat to the highest-numbered neighbour of tile 4.
    g = fresh_state(2, automa=True, dice=(3, 1, 1, 6, 2, 2, 5))
    S(g)[2, R.QUEEN] = 12
    TW["automa_turn"](g, i64(2))
    high = max(u for u in range(3, 13) if g[0][38 + 4, u] == 1)
    assert C(g)[2, 4] == 2 and C(g)[2, high] == 1


def test_wandering_male_and_pups_max():
    g = fresh_state(3, dice=(3, 4))             # 3 + 4 = 7 is his tile: rerolled? no: roll 7 -> reroll
    G(g)[R.G_MALE] = 7
    tapes = g[1]
    tapes[0, :4] = (3, 4, 5, 5)                  # first total 7 (his own tile) is rerolled, then 10
    S(g)[0, R.PUP] = 4
    TW["male_rest"](g, i64(0))
    assert G(g)[R.G_MALE] == 10 and S(g)[0, R.PUP] == 4   # max 4 pups
    # drive-away options move a meerkat one step closer and never from his tile
    C(g)[0, 3] = 1
    C(g)[0, 10] = 1
    opts = np.zeros(64, dtype=np.int64)
    m = TW["drive_options"](g, i64(0), opts)
    D = g[0][51:64]
    for code in opts[:m]:
        a, b = divmod(int(code), 16)
        assert a != 10 and D[b, 10] == D[a, 10] - 1


def test_hazards_and_queen_protection():
    # hawk on tile 7 (dice 3 + 4): seats 0 and 1 tie for most (2 each) -> both lose one; seat 2 keeps its 1
    g = fresh_state(3, dice=(3, 4))
    C(g)[0, 7], C(g)[1, 7], C(g)[2, 7] = 2, 2, 1
    TW["resolve_hazard"](g, i64(0), i64(R.H_HAWK))
    assert C(g)[:3, 7].tolist() == [1, 1, 1] and S(g)[0, R.BOX] == 1
    # fire on 7: everyone there loses one, except seat 1 whose queen is there
    g = fresh_state(3, dice=(3, 4))
    C(g)[0, 7], C(g)[1, 7], C(g)[2, 7] = 2, 2, 1
    S(g)[1, R.QUEEN] = 7
    TW["resolve_hazard"](g, i64(0), i64(R.H_FIRE))
    assert C(g)[:3, 7].tolist() == [1, 2, 0]
    # jackal on 7 hits the neighbours of 7; each seat loses one from its highest-numbered affected tile
    g = fresh_state(3, dice=(3, 4))
    nb = sorted(u for u in range(3, 13) if g[0][38 + 7, u] == 1)
    C(g)[0, nb[0]], C(g)[0, nb[-1]] = 1, 1
    C(g)[1, 7] = 3
    TW["resolve_hazard"](g, i64(0), i64(R.H_JACKAL))
    assert C(g)[0, nb[-1]] == 0 and C(g)[0, nb[0]] == 1 and C(g)[1, 7] == 3


def test_reverse_token_timer():
    g = fresh_state(3)
    T(g)[5, R.TOK] = R.T_REVERSE
    T(g)[5, R.LOCK] = 1                           # seat 1 drew it: locked for a full round
    opts = np.zeros(128, dtype=np.int64)
    m = TW["token_move_options"](g, opts)
    assert all(code // 16 != 5 for code in opts[:m])
    TW["unlock_timers"](g, i64(1))                 # seat 1's next turn: the token may move again
    m = TW["token_move_options"](g, opts)
    code = next(int(c) for c in opts[:m] if c // 16 == 5)
    TW["do_token_move"](g, i64(2), i64(code), i64(1))   # seat 2 moves it and takes the timer
    assert T(g)[code % 16, R.TOK] == R.T_REVERSE and T(g)[code % 16, R.LOCK] == 2


def test_swap_respects_queen_protection():
    g = fresh_state(3)
    C(g)[0, 7] = 1
    nb = [u for u in range(3, 13) if g[0][38 + 7, u] == 1]
    C(g)[1, nb[0]] = 1
    C(g)[2, nb[0]] = 1
    S(g)[2, R.QUEEN] = nb[0]
    opts = np.zeros(256, dtype=np.int64)
    m = TW["swap_options"](g, i64(0), opts)
    targets = {(int(c) // 8 // 16, int(c) // 8 % 16, int(c) % 8) for c in opts[:m]}
    assert (7, nb[0], 1) in targets and (7, nb[0], 2) not in targets


def test_jackal_and_the_queen_both_readings():
    """Jackal on 7: each player loses a meerkat from the highest-numbered affected tile where they have one.
    Literal reading: if their queen protects that tile they lose nothing; next-tile reading: they lose one
    from the next affected tile down that is not protected."""
    for reading, expect_low in (("literal", 1), ("next_tile", 0)):
        for queen_alone in (False, True):
            g = fresh_state(3, dice=(3, 4), jackal_reading=reading)
            nb = sorted(u for u in range(3, 13) if g[0][38 + 7, u] == 1)
            C(g)[0, nb[0]] = 1
            C(g)[0, nb[-1]] = 0 if queen_alone else 2
            S(g)[0, R.QUEEN] = nb[-1]                  # the queen protects the highest affected tile
            C(g)[1, nb[-1]] = 1                        # seat 1: unprotected there, loses it either way
            TW["resolve_hazard"](g, i64(0), i64(R.H_JACKAL))
            assert C(g)[0, nb[0]] == expect_low and C(g)[0, nb[-1]] == (0 if queen_alone else 2)
            assert C(g)[1, nb[-1]] == 0
            assert G(g)[R.G_JACKDIFF] == 1             # the readings differ for seat 0 only
            assert S(g)[0, R.BOX] == 1 - expect_low and S(g)[1, R.BOX] == 1


def test_reverse_token_readings_in_the_engine():
    """Tile 9 (7/4/2) with the reverse token, seats with 1, 2, 3 meerkats: literal 7/2/0, extended 7/4/2."""
    for reading, expect in (("literal", [7, 2, 0]), ("extended", [7, 4, 2])):
        g = fresh_state(3, reverse_reading=reading)
        T(g)[9, R.TOK] = R.T_REVERSE
        C(g)[0:3, 9] = (1, 2, 3)
        pts = np.zeros(4, dtype=np.int64)
        TW["tile_points"](g, i64(9), pts)
        assert pts[:3].tolist() == expect
        assert TW["tile_winner"](g, i64(9)) == 0
        assert TW["reverse_readings_differ"](g, i64(9))
        C(g)[2, 9] = 1                                 # seats 0 and 2 cancel: only seat 1 scores, the same
        assert not TW["reverse_readings_differ"](g, i64(9))


def test_queen_decides_a_majority_in_the_compiled_engine():
    """A queen (2.5) alone against two meerkats (2) wins the tile, in the twin and in the compiled engine
    (with a queen worth 2 both would cancel and score nothing)."""
    from numba import njit

    @njit
    def compiled(W, tapes, prm, t, pts):
        R.tile_points((W, tapes, prm), t, pts)
        return R.tile_winner((W, tapes, prm), t)

    g = fresh_state(2, automa=False)
    C(g)[0, 7] = 2
    S(g)[1, R.QUEEN] = 7
    for run in (lambda pts: TW["tile_points"](g, i64(7), pts) or TW["tile_winner"](g, i64(7)),
                lambda pts: compiled(g[0], g[1], g[2], i64(7), pts)):
        pts = np.zeros(4, dtype=np.int64)
        assert run(pts) == 1 and pts[:2].tolist() == [3, 6]      # tile 7 pays 6/3
