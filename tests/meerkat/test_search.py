"""The strong players: expectimax's evaluation against a readable brute force, the automa model against the exact
odds, resumable turn order, determinizations that never peek, twin == compiled, and strength against greedy."""

from fractions import Fraction
from itertools import product
from math import ceil, comb

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.meerkat import rules as R, simulate_games
from pyradice_lab.meerkat.analysis import win_shares
from pyradice_lab.meerkat.evaluation import HUMAN_COUNTS, HUMAN_LANDING, M_COL, M_SCALE
from pyradice_lab.meerkat.odds import automa_placement_table
from pyradice_lab.meerkat.policies import (
    N_PRM,
    P_BUDGET,
    P_CANDS,
    P_FUTURE,
    P_NOTILE,
    PARAM,
    RANDOM,
    ROLL0,
    ROLL_N,
    SEARCH,
    policy_name,
    policy_row,
)
from pyradice_lab.meerkat.scoring import score_tile
from pyradice_lab.meerkat.sim import _default_setup, _seat_config, _tapes, fresh_state, python_twins

TW = python_twins()
i64 = np.int64


def test_policy_rows_and_bad_policies():
    pid, row = policy_row("expectimax")
    assert pid == PARAM and row.shape == (N_PRM,) and row[P_FUTURE] == 0.5
    pid, row = policy_row("mcts:64")
    assert pid == SEARCH and row[P_BUDGET] == 64 and row[P_FUTURE] == 0.5            # own = expectimax
    assert row[ROLL0 + P_FUTURE] == 0 and row[ROLL0:ROLL0 + 6].tolist() == policy_row("heuristic")[1][:6].tolist()
    pid, row = policy_row(("mcts", {"budget": 10, "candidates": 3, "rollout": "greedy", "own": "heuristic"}))
    assert (row[P_BUDGET], row[P_CANDS], row[P_FUTURE]) == (10, 3, 0)
    assert policy_row("random_legal")[0] == RANDOM and policy_row("greedy")[1][P_FUTURE] == 0
    assert policy_name(("mcts", {"budget": 5})) == "mcts*" and policy_name("mcts:5") == "mcts:5"
    for bad in ["mcts:", "mcts:x", ("mcts", {"budget": 0}), ("mcts", {"budget": 2.5}), ("mcts", {"rollout": "mcts"}),
                ("mcts", {"own": "random_legal"}), ("mcts", {"speed": 1}), ("expectimax", {"future": 2}),
                ("expectimax", {"w_opp": "a"}), ("mcts", [1])]:
        with pytest.raises(ValueError, match="policies"):
            policy_row(bad)


def test_automa_model_is_the_exact_placement_distribution():
    g = fresh_state(2, automa=True)
    t = automa_placement_table(exact=True)
    t = t[t.face == "any"]
    for tile in range(3, 13):
        p = float(sum(t.loc[t.tile == tile, "probability"], Fraction(0)))
        assert abs(g[0][25 + tile, M_COL] / M_SCALE - p) <= 1 / M_SCALE
    for c in (1, 2, 3):
        p = float(sum(t.loc[t["count"] == c, "probability"], Fraction(0)))
        assert abs(g[0][25, M_COL + c - 1] / M_SCALE - p) <= 1 / M_SCALE


def reference_expected(g, s, t, w_opp, future, mpt, add, deciding=True):
    """Readable brute force of the expectimax evaluation (the model of evaluation.py's docstring, scored by
    score_tile): seat s's expected points on tile t minus w_opp x the others' mean, s's strength raised by
    ``add`` half units (2 = one meerkat, 5 = the queen); ``deciding=False``: a position between two turns (no
    turn taken off s's, :func:`expected_points`)."""
    W = g[0]
    n = W[21, R.G_NS]
    S = W[4:8]
    auto = [bool(S[o, R.AUTO]) for o in range(n)]
    apt = sum(c * W[25, M_COL + c - 1] / M_SCALE for c in (1, 2, 3))
    turns = []
    for o in range(n):
        k = 0
        if S[o, R.OUT] == 0 and S[o, R.SUP] > 0:
            k = ceil(S[o, R.SUP] / (apt if auto[o] else mpt)) - (o == s and deciding)
        turns.append(max(k, 0))
    cap = sorted(turns)[n - 2] + 1
    turns = [min(k, cap) for k in turns]
    dists = []
    for o in range(n):
        T = turns[o]
        if T == 0 or future == 0:
            dists.append([1.0, 0, 0, 0])
            continue
        land = W[25 + t, M_COL] / M_SCALE if auto[o] else HUMAN_LANDING
        c1, c2 = (W[25, M_COL] / M_SCALE, W[25, M_COL + 1] / M_SCALE) if auto[o] else HUMAN_COUNTS[:2]
        p = min(future * land, 0.95)
        pk = [comb(T, k) * p ** k * (1 - p) ** (T - k) for k in range(3)]
        f = [pk[0], pk[1] * c1, pk[1] * c2 + pk[2] * c1 * c1]
        dists.append(f + [1 - sum(f)])
    values = tuple(W[25 + t, 1:1 + W[25 + t, 0]])
    queens = np.array([S[o, R.QUEEN] == t for o in range(n)])
    total = 0.0
    for adds in product(range(4), repeat=n):
        prob = np.prod([dists[o][a] for o, a in enumerate(adds)])
        counts = np.array([W[o, t] + adds[o] for o in range(n)])
        counts[s] += add // 2         # score_tile takes meerkats (the queen is its own flag)
        pts = score_tile(counts, queens=queens, values=values)
        total += prob * (pts[s] - w_opp * (pts.sum() - pts[s]) / (n - 1))
    return total


@pytest.mark.parametrize("players,automa,seed", [(3, False, 1), (2, True, 2), (4, False, 3)])
def test_expected_tile_values_match_a_brute_force(players, automa, seed):
    rng = np.random.default_rng(seed)
    g = fresh_state(players, automa=automa)
    W = g[0]
    n = players + automa
    for _ in range(6):
        for o in range(n):
            W[4 + o, R.SUP] = rng.integers(0, 21)
            W[o, 3:13] = rng.integers(0, 4, size=10)
            W[4 + o, R.QUEEN] = rng.choice([0, 7])
        W[4 + n - 1, R.OUT] = rng.integers(0, 2)
        s = int(rng.integers(0, players))
        for t in (5, 7, 11):
            for future in (0.0, 0.5, 1.0):
                adds = np.array([0, 2, 4, 6], np.int64)
                out = np.zeros(4)
                TW["expected_tile_values"](g, i64(s), i64(t), 0.7, future, 2.2, adds, i64(4), out)
                for k, add in enumerate(adds):
                    assert out[k] == pytest.approx(reference_expected(g, s, t, 0.7, future, 2.2, add), abs=1e-9)
                now = np.zeros(4)
                TW["tile_values"](g, i64(s), i64(t), 0.7, adds, i64(4), now)
                if future == 0.0:
                    assert out.tolist() == now.tolist()   # future 0 = the greedy value, bit for bit


@pytest.mark.parametrize("players,automa,seed", [(3, False, 4), (2, True, 5), (4, False, 6)])
def test_expected_points_and_totals_match_a_brute_force(players, automa, seed):
    """The truncated rollouts' evaluation: every seat's expected tile points between two turns is the brute force
    summed over the tiles, and the expected total adds pups x reserve guardians, the bonus token taken and the
    race's expected token (race_values, the queen one turn more while in the supply)."""
    rng = np.random.default_rng(seed)
    g = fresh_state(players, automa=automa)
    W = g[0]
    n = players + automa
    for _ in range(4):
        for o in range(n):
            W[4 + o, R.SUP] = rng.integers(0, 21)
            W[o, 3:13] = rng.integers(0, 4, size=10)
            W[4 + o, R.QUEEN] = rng.choice([0, 7]) if o < players else 0
            W[4 + o, R.RES], W[4 + o, R.PUP], W[4 + o, R.BONUS] = rng.integers(0, 3), rng.integers(0, 3), 0
        for future in (0.0, 0.5, 1.0):
            out = np.zeros(4)
            TW["expected_points"](g, future, 2.2, out)
            for o in range(n):
                ref = sum(reference_expected(g, o, t, 0.0, future, 2.2, 0, deciding=False) for t in range(3, 13))
                assert out[o] == pytest.approx(ref, abs=1e-9)
            assert out[n:].tolist() == [0.0] * (4 - n)
        tot = np.zeros(4)
        TW["expected_totals"](g, 0.5, 2.2, tot)
        TW["expected_points"](g, 0.5, 2.2, out)
        for o in range(n):
            S = W[4 + o]
            race = 0.0
            if S[R.SUP] > 0:
                rv = np.zeros(S[R.SUP] + 1)
                TW["race_values"](g, i64(o), i64(1 if o < players and S[R.QUEEN] == 0 else 0), rv)
                race = rv[S[R.SUP]]
                assert 0 <= race <= 9
            assert tot[o] == pytest.approx(out[o] + S[R.PUP] * S[R.RES] + S[R.BONUS] + race, abs=1e-9)


def test_a_truncated_rollout_stops_between_turns_and_resumes_the_same_game():
    """rollout_some_turns(k): k turns (more only once the last bonus token is gone), the state left between two
    turns; played on it gives the game rollout_turns gives; a huge k plays to the end (True)."""
    st = _default_setup()
    n, pols, prm, _ = _seat_config(3, False, "heuristic")
    tapes = _tapes(np.random.default_rng(9), 1)[0]
    g = TW["new_game"](n, False, pols, prm, st.V, st.K, tapes, st.bags, st.nblue, st.nbrown, 7, 0)
    TW["setup"](g, st.pos_adj, st.oasis, True)
    whole = (g[0].copy(), g[1].copy(), g[2].copy())
    TW["rollout_turns"](whole)
    part = (g[0].copy(), g[1].copy(), g[2].copy())
    t0 = part[0][21, R.G_TURN]
    assert not TW["rollout_some_turns"](part, i64(5)) and part[0][21, R.G_TURN] == t0 + 5
    assert TW["rollout_some_turns"](part, i64(10_000))
    assert (part[0][:21] == whole[0][:21]).all()
    late = (g[0].copy(), g[1].copy(), g[2].copy())
    late[0][21, R.G_TOKENS] = late[0][21, R.G_NTOK]                   # the last bonus token is gone: play out
    assert TW["rollout_some_turns"](late, i64(1))


def test_truncated_search_parameters():
    from pyradice_lab.meerkat.policies import P_DEPTH, P_WSCALE

    row = policy_row(("mcts", {"depth": 3, "win_scale": 4}))[1]
    assert (row[P_DEPTH], row[P_WSCALE]) == (3, 4)
    assert policy_row("mcts_v1")[1][P_DEPTH] == 0                        # the search before: rollouts to the end
    for bad in [{"depth": -1}, {"depth": 1.5}, {"win_scale": 0}, {"win_scale": 101}]:
        with pytest.raises(ValueError, match="policies: mcts parameter"):
            policy_row(("mcts", bad))


def play_some_turns(g, k):
    for _ in range(k):
        s = TW["next_seat"](g)
        TW["unlock_timers"](g, s)
        (TW["automa_turn"] if g[0][4 + s, R.AUTO] else TW["base_turn"])(g, s)
        g[0][21, R.G_TURN] += 1


@pytest.mark.parametrize("players,automa", [(2, True), (3, False)])
def test_a_copied_state_resumes_the_same_game(players, automa):
    """The turn order lives in the state: a copy taken mid-game and played on gives the very same game."""
    st = _default_setup()
    n, pols, prm, _ = _seat_config(players, automa, "heuristic")
    tapes = _tapes(np.random.default_rng(5), 1)[0]
    whole = TW["new_game"](n, automa, pols, prm, st.V, st.K, tapes, st.bags, st.nblue, st.nbrown, 7, 0)
    TW["setup"](whole, st.pos_adj, st.oasis, True)
    g = (whole[0].copy(), whole[1], whole[2].copy())
    TW["play"](whole)
    play_some_turns(g, 13)
    copy = (g[0].copy(), g[1].copy(), g[2].copy())
    TW["rollout_turns"](copy)
    TW["final_scoring"](copy)
    assert (copy[0][:21] == whole[0][:21]).all() and copy[0][21, R.G_TURN] == whole[0][21, R.G_TURN]


def test_search_never_peeks_at_future_dice_or_bag_order():
    """A search decision depends on the board and the player's own random stream, not on the game's dice still
    to be rolled nor on the order of the tokens left in the bags (both are resampled)."""
    g = fresh_state(2, automa=True, policies=[("mcts", {"budget": 12, "candidates": 3}), "heuristic"])
    W = g[0]
    W[0, 7], W[1, 7], W[1, 9], W[2, 9], W[0, 12] = 2, 3, 1, 2, 1
    W[4, R.SUP], W[5, R.SUP], W[6, R.SUP] = 17, 16, 17
    tab = np.zeros((13, 4))
    gval = TW["placement_table"](g, i64(0), tab)

    def decide(state):
        return TW["search_action"](state, i64(0), i64(5), i64(3), i64(4), tab, gval)

    first = (W.copy(), g[1].copy(), g[2].copy())
    other = (W.copy(), g[1].copy(), g[2].copy())
    other[1][0, W[21, R.G_DP]:] = np.random.default_rng(1).integers(1, 7, size=other[1].shape[1] - W[21, R.G_DP])
    bags = other[0][22:25]
    bags[0, :W[21, R.G_NBLUE]] = bags[0, :W[21, R.G_NBLUE]][::-1]
    bags[1:, :W[21, R.G_NBROWN]] = bags[1:, :W[21, R.G_NBROWN]][:, ::-1]
    assert decide(first) == decide(other)
    opts = np.zeros(128, np.int64)
    m = TW["placement_options"](g, i64(0), i64(5), i64(3), i64(4), opts)
    assert decide((W.copy(), g[1].copy(), g[2].copy())) in set(opts[:m].tolist())
    # the determinization: the same board, fresh tapes, the unseen tokens reshuffled (the same multiset)
    Wc, tc, pc = np.zeros_like(W[:R.LOG0]), np.zeros((2, 1024), np.uint32), np.zeros_like(g[2])
    TW["determinize"](g, i64(0), 12345, Wc, tc, pc)
    same = np.ones(W[:R.LOG0].shape, bool)
    same[4:8, R.POL] = False                       # every player is on the rollout policy
    same[21] = same[22:25] = False                 # tape pointers and trace; the bags are compared below
    assert (Wc[same] == W[:R.LOG0][same]).all() and (Wc[4:6, R.POL] == PARAM).all()
    assert sorted(Wc[22, :W[21, R.G_NBLUE]]) == sorted(W[22, :W[21, R.G_NBLUE]])
    assert sorted(zip(Wc[23], Wc[24])) == sorted(zip(W[23], W[24]))
    assert not (tc[0, :50] == g[1][0, :50]).all() and set(tc[0]) == set(range(1, 7))
    assert (pc[:2, :ROLL_N] == g[2][0, ROLL0:ROLL0 + ROLL_N]).all()
    assert (pc[:2, ROLL_N:P_NOTILE] == g[2][0, ROLL_N:P_NOTILE]).all()
    # the tiles the searching seat never commits to (no_tile:T) stay its own in its rollouts, no one else's
    g[2][0, P_NOTILE] = 1 << 7
    TW["determinize"](g, i64(0), 12345, Wc, tc, pc)
    assert pc[0, P_NOTILE] == 1 << 7 and pc[1, P_NOTILE] == 0


@pytest.mark.slow
def test_new_players_compiled_equal_twin_and_beat_greedy():
    """Twin == compiled for the expectimax and search players (compiles the kernel), then, compiled: expectimax
    beats greedy in 2 players + automa (win share CI above 1/2), and so does a small search (mcts:16)."""
    for players, pols in [(3, ["expectimax", "greedy", "random_legal"]), (2, ["mcts:6", "heuristic"]),
                          (4, [("mcts", {"budget": 4, "search_reroll": 0}), "expectimax", "heuristic", "greedy"]),
                          (2, [("mcts", {"budget": 3, "search_reroll": 0, "search_supply": 12}), ("expectimax", {"race": 1})]),
                          (3, [("expectimax", {"race": 0.5}), ("mcts", {"budget": 4, "own": ("expectimax", {"race": 1})}),
                               "heuristic"]),
                          (2, [("mcts", {"budget": 6, "depth": 2}), "mcts_cut:3"])]:
        a = simulate_games(1, players=players, policies=pols, rng=8, engine="python")
        b = simulate_games(1, players=players, policies=pols, rng=8, engine="numba")
        pd.testing.assert_frame_equal(a, b)
    for pol, games in [("expectimax", 300), ("mcts:16", 40)]:
        share = []
        for seat in (0, 1):
            pols = ["greedy", "greedy"]
            pols[seat] = pol
            df = simulate_games(games // 2, players=2, policies=pols, rng=30 + seat, engine="numba")
            share.append(win_shares(df, 3)[:, seat])
        share = np.concatenate(share)
        assert share.mean() - 1.96 * share.std(ddof=1) / np.sqrt(len(share)) > 0.5, (pol, share.mean())


def test_auto_engine_compiles_for_search_and_large_expectimax_batches(monkeypatch):
    from pyradice_lab.meerkat import sim

    monkeypatch.setattr(sim, "compiled_engine_ready", lambda: False)
    monkeypatch.setattr(sim, "_twin_spent", [0.0])
    n, pols, prm, _ = sim._seat_config(2, None, "expectimax")
    assert sim._engine("auto", 10, pols, n, prm) == sim.engine_functions(False)
    assert sim._engine("auto", 100, pols, n, prm) == sim.engine_functions(True)
    n, pols, prm, _ = sim._seat_config(2, None, ["mcts:4", "random_legal"])
    assert sim._engine("auto", 1, pols, n, prm) == sim.engine_functions(True)
    assert sim._engine("python", 1, pols, n, prm) == sim.engine_functions(False)


def test_restricted_strong_players_and_head_to_head_input():
    from pyradice_lab.meerkat.analysis import RESTRICTIONS, head_to_head, with_params
    from pyradice_lab.meerkat.policies import P_QUEEN, P_REROLL

    pid, row = policy_row(with_params("mcts:40", RESTRICTIONS["never rerolls"]))
    assert pid == SEARCH and row[P_BUDGET] == 40 and row[P_REROLL] == 0 and row[ROLL0 + P_REROLL] == 1
    pid, row = policy_row(with_params("expectimax", RESTRICTIONS["never places the queen"]))
    assert pid == PARAM and row[P_QUEEN] == -1e9 and row[P_FUTURE] == 0.5
    assert policy_row(with_params("greedy", {"reroll": 0}))[1][:6].tolist() == [1, 0, 0, 0, 0, 0]
    with pytest.raises(ValueError, match="policy"):
        with_params("random_legal", {})
    with pytest.raises(ValueError, match="n_games"):
        head_to_head("greedy", "heuristic", 5, players=3)


def test_a_forbidden_option_is_never_searched():
    """A search player forbidden the queen (restricted play) never places her: candidates its own evaluation
    values far below the best are dropped before the search (the unrestricted player does place her)."""
    from pyradice_lab.meerkat import play_game

    no_queen = ("mcts", {"budget": 6, "own": ("expectimax", {"queen_bonus": -1e9})})
    # transcripts number the seats from 1: p1 is seat index 0 (the restricted player), p2 seat index 1
    text, _ = play_game(players=2, policies=[no_queen, "mcts:6"], rng=4, engine="python")
    mine = [line for line in text.splitlines() if "p1" in line and "queen" in line]
    theirs = [line for line in text.splitlines() if "p2" in line and "places the queen" in line]
    assert not any("places the queen" in line for line in mine) and theirs


def test_only_the_last_turns_are_searched():
    """``search_supply``: with more meerkats than that in its supply the search player plays its turn exactly as
    its own policy (expectimax) would, drawing no search seed; at or below it the turn is searched; ``mcts``
    (the default) searches every turn."""
    from pyradice_lab.meerkat.policies import MCTS_LATE, P_SSUPPLY, SEARCH_DEFAULTS

    assert policy_row("mcts")[1][P_SSUPPLY] == SEARCH_DEFAULTS["search_supply"] == 100
    assert policy_row("mcts_late")[1][P_SSUPPLY] == MCTS_LATE["search_supply"] == 12

    def turn(policy, supply):
        g = fresh_state(2, automa=True, dice=[5, 3, 4, 2, 6, 1] * 30, policies=[policy, "heuristic"])
        W = g[0]
        W[0, 7], W[1, 7], W[1, 9], W[2, 9] = 2, 3, 1, 2
        W[4, R.SUP] = supply
        (TW["search_turn"] if policy != "expectimax" else TW["base_turn"])(g, i64(0))
        return W[:R.LOG0].copy()

    small = ("mcts", {"budget": 4, "search_supply": 8})
    early, plain = turn(small, 15), turn("expectimax", 15)
    early[4:8, R.POL] = plain[4:8, R.POL]                              # the seat's policy id differs, nothing else
    assert (early == plain).all() and early[21, R.G_CP] == 0          # own's turn: no search seed drawn
    assert turn(small, 8)[21, R.G_CP] > 0                              # searched: the player's seeds were drawn
    assert turn(("mcts", {"budget": 4}), 15)[21, R.G_CP] > 0
    assert policy_row("mcts_late/no_queen")[1][P_SSUPPLY] == 12
    assert policy_row("mcts_late:2")[1][P_BUDGET] == 2 and policy_row("mcts_late")[1][P_BUDGET] == 80
    with pytest.raises(ValueError, match="mcts_late:N"):
        policy_row("mcts_late:x")


def test_tuned_players_rows_and_twin_equal_compiled():
    """Issue 27's tuned players: ``expectimax_v2``/``heuristic_v2`` are the defaults with a higher burrow_cost,
    ``mcts_v2`` the late search on them (frozen parameters); one game of each, twin == compiled (a small budget)."""
    from pyradice_lab.meerkat.policies import (
        EXPECTIMAX_DEFAULTS,
        EXPECTIMAX_V2,
        HEURISTIC_DEFAULTS,
        HEURISTIC_V2,
        MCTS_V1,
        MCTS_V2,
        P_BURROW,
        P_SREROLL,
        P_SSUPPLY,
    )

    assert {k: v for k, v in EXPECTIMAX_V2.items() if EXPECTIMAX_DEFAULTS[k] != v} == {"burrow_cost": 8.0}
    assert {k: v for k, v in HEURISTIC_V2.items() if HEURISTIC_DEFAULTS[k] != v} == {"burrow_cost": 10.0}
    assert set(MCTS_V2) == set(MCTS_V1) | {"win_scale"}
    pid, row = policy_row("mcts_v2")
    assert pid == SEARCH and (row[P_BUDGET], row[P_SSUPPLY], row[P_SREROLL]) == (48, 8, 0)
    assert row[P_BURROW] == 8 and row[ROLL0 + P_BURROW] == 10 and row[P_FUTURE] == 0.5 and row[ROLL0 + P_FUTURE] == 0
    assert (row == policy_row(("mcts", {**MCTS_V2}))[1]).all()
    assert policy_row("mcts_v2:3")[1][P_BUDGET] == 3
    assert (policy_row("expectimax_v2")[1] == policy_row(("expectimax", {"burrow_cost": 8}))[1]).all()
    assert (policy_row("heuristic_v2")[1] == policy_row({"burrow_cost": 10})[1]).all()
    assert policy_row("mcts_v2/no_burrows")[1][P_BURROW] == 1e9
    with pytest.raises(ValueError, match="mcts_v2:N"):
        policy_row("mcts_v2:x")
    for players, pols in [(2, ["mcts_v2:4", "expectimax_v2"]), (3, ["heuristic_v2", "mcts_v2:3", "expectimax"])]:
        a = simulate_games(1, players=players, policies=pols, rng=5, engine="python")
        b = simulate_games(1, players=players, policies=pols, rng=5, engine="numba")
        pd.testing.assert_frame_equal(a, b)
