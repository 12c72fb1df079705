"""Whole games: conservation, the end trigger, same seed -> same games, the engine's scoring == score_game,
compiled == pure-Python twin, and a golden transcript."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.meerkat import play_game, rules as R, score_game, sim, simulate_games
from pyradice_lab.meerkat.sim import python_twins

GOLDEN = Path(__file__).with_name("golden_transcript.txt")


@pytest.mark.parametrize("players,automa", [(2, False), (2, True), (3, False), (3, True), (4, False)])
def test_random_games_conserve_meerkats_and_end_properly(players, automa):
    df = simulate_games(25, players=players, automa=automa, policies="random_legal", rng=11, engine="python")
    n = players + automa
    assert df["conserved"].all() and not df["capped"].any() and not df["tape_wrapped"].any()
    assert (df["tokens_taken"] == n - 1).all()
    for _, row in df.iterrows():
        orders = sorted(row[f"out_order_{s}"] for s in range(n))
        assert orders[1:] == list(range(1, n)) or orders == list(range(1, n + 1))
        bonus = sorted(row[f"bonus_{s}"] for s in range(n))
        assert bonus == sorted([0] + [9, 6, 3][:n - 1])
        totals = [row[f"score_{s}"] for s in range(n)]
        parts = [row[f"tile_points_{s}"] + row[f"pup_points_{s}"] + row[f"bonus_{s}"] for s in range(n)]
        assert totals == parts
        assert row["winner"] == -1 or totals[row["winner"]] == max(totals)
        assert all(row[f"pups_{s}"] <= 4 and row[f"guardians_{s}"] <= 4 for s in range(n))


def test_greedy_and_heuristic_games():
    pols = ["greedy", ("heuristic", {"w_opp": 0.3}), "random_legal"]
    df = simulate_games(4, players=3, policies=pols, rng=5, engine="python")
    assert df["conserved"].all() and (df["policy_1"] == "heuristic*").all()
    assert (df[[f"n_won_{s}" for s in range(3)]].sum(axis=1) <= 10).all()


def test_same_seed_same_games_and_bad_input():
    a = simulate_games(6, players=3, automa=True, policies="random_legal", rng=3, engine="python")
    b = simulate_games(6, players=3, automa=True, policies="random_legal", rng=3, engine="python")
    pd.testing.assert_frame_equal(a, b)
    c = simulate_games(6, players=3, automa=True, policies="random_legal", rng=4, engine="python")
    assert not a.equals(c)
    for kwargs, name in [({"n_games": 0}, "n_games"), ({"n_games": 1, "players": 5}, "players"),
                         ({"n_games": 1, "players": 4, "automa": True}, "players"),
                         ({"n_games": 1, "policies": "clever"}, "policies"),
                         ({"n_games": 1, "policies": ["greedy"]}, "policies"),
                         ({"n_games": 1, "policies": ("heuristic", {"speed": 1})}, "policies"),
                         ({"n_games": 1, "engine": "fast"}, "engine"),
                         ({"n_games": 1, "reverse_reading": "middle"}, "reverse_reading"),
                         ({"n_games": 1, "jackal_reading": "lowest"}, "jackal_reading")]:
        with pytest.raises(ValueError, match=name):
            simulate_games(**kwargs)


def test_engine_scoring_matches_score_game():
    """Play games to the end trigger, then score the same board with the engine and with score_game."""
    tw = python_twins()
    st = sim._default_setup()
    gen = np.random.default_rng(21)
    for (players, automa), reading in zip([(3, False), (2, True), (4, False), (3, True)],
                                          ["literal", "extended", "literal", "extended"]):
        n, pols, prm, _ = sim._seat_config(players, automa, "greedy")
        K = sim._readings_k(st.K, reading, "literal")
        for tapes in sim._tapes(gen, 3):
            g = tw["new_game"](n, automa, pols, prm, st.V, K, tapes, st.bags, st.nblue, st.nbrown, 7, 0)
            tw["setup"](g, st.pos_adj, st.oasis, True)
            tw["play_turns"](g)
            W = g[0]
            C, S, T, A = W[0:4, 3:13][:n], W[4:8][:n], W[8:21], W[38:51, 3:13][3:13]
            queens = np.array([[S[s, R.QUEEN] == t for t in range(3, 13)] for s in range(n)])
            kinds = {R.T_PLUS3: "plus3", R.T_REVERSE: "reverse", R.T_TWO: "two_guardians"}
            tokens = {t: kinds[T[t, R.TOK]] for t in range(3, 13) if T[t, R.TOK] in kinds}
            expected = score_game(C.copy(), queens, guardians=S[:, R.RES].copy(), pups=S[:, R.PUP].copy(),
                                  bonus=S[:, R.BONUS].copy(), out_order=S[:, R.OUT].copy(), tokens=tokens,
                                  adjacency=A.astype(bool), reverse_reading=reading)
            tw["final_scoring"](g)
            assert S[:, R.TOTAL].tolist() == expected["total"].tolist()
            assert S[:, R.MOVED].tolist() == expected["guardians_moved"].tolist()
            winner = tw["winner_of"](g)
            assert (winner == -1) == (not expected["winner"].any())
            assert winner == -1 or bool(expected.loc[winner, "winner"])


def test_golden_transcript():
    """Seed 101: a three-player game (greedy, heuristic, random_legal) in which the blue bag runs dry, a
    brown token is drawn and a jackal strikes; reviewed by eye once."""
    text, row = play_game(players=3, policies=["greedy", "heuristic", "random_legal"], rng=101, engine="python")
    assert text == GOLDEN.read_text()
    assert "score tile 12" in text and "jackal strikes" in text and row["jackal"] == 1


def test_rules_setup_by_default_and_extensions_labelled():
    """A 2-player game is 2 players + the automa (bonus tokens 9 and 6) unless automa=False; 2 players alone
    and 1 player + automa are labelled extensions; 3-4 players play without the automa by default."""
    two = simulate_games(3, players=2, policies="random_legal", rng=2, engine="python")
    assert two["automa"].all() and (two["setup"] == "2p + automa").all() and "score_2" in two.columns
    assert sorted(two.loc[0, [f"bonus_{s}" for s in range(3)]]) == [0, 6, 9]
    alone = simulate_games(3, players=2, automa=False, policies="random_legal", rng=2, engine="python")
    assert not alone["automa"].any() and "extension (not in the rules)" in alone["setup"].iloc[0]
    solo = simulate_games(2, players=1, policies="random_legal", rng=2, engine="python")
    assert solo["automa"].all() and "extension" in solo["setup"].iloc[0]
    three = simulate_games(2, players=3, policies="random_legal", rng=2, engine="python")
    assert not three["automa"].any() and (three["setup"] == "3p").all()
    assert (simulate_games(2, players=3, automa=True, policies="random_legal", rng=2, engine="python")["setup"]
            == "3p + automa").all()
    text, _ = play_game(players=2, rng=3, policies="random_legal", engine="python")
    assert text.startswith("Meerkat Kingdom: 2p + automa;")
    assert play_game(rng=3, policies="random_legal", engine="python").transcript.startswith("Meerkat Kingdom: 3p;")
    with pytest.raises(TypeError, match="automa"):
        simulate_games(1, automa="yes")


def test_start_player_recorded_by_turn_position():
    """``first_seat`` is the seat the start roll picked (never the automa) and ``start_player_won`` is that
    seat's win share (ties split), the quantity every start-player number uses."""
    from pyradice_lab.meerkat.analysis import turn_positions, win_shares

    df = simulate_games(40, players=3, automa=True, policies="random_legal", rng=13, engine="python")
    assert set(df["first_seat"]) <= {0, 1, 2} and len(set(df["first_seat"])) > 1
    share = win_shares(df, 4)
    pos = turn_positions(df, 3, True)
    assert (pos[np.arange(len(df)), df["first_seat"]] == 0).all() and (pos[:, 3] == 3).all()
    assert np.allclose(df["start_player_won"], share[np.arange(len(df)), df["first_seat"]])
    assert df["start_player_won"].between(0, 1).all() and 0 < df["start_player_won"].sum() < len(df)


def test_auto_engine_plays_the_twin_for_a_first_small_batch(monkeypatch):
    """Without the compiled kernel in numba's cache, ``engine="auto"`` plays 100 default games with the
    pure-Python twin (no compile; issue 16) and compiles for large batches."""
    monkeypatch.setattr(sim, "compiled_engine_ready", lambda: False)
    monkeypatch.setattr(sim, "_twin_spent", [0.0])
    n, pols, _, _ = sim._seat_config(3, None, None)
    assert sim._engine("auto", 100, pols, n) == sim.engine_functions(False)
    assert sim._engine("auto", 5000, pols, n) == sim.engine_functions(True)
    assert sim._engine("python", 5000, pols, n) == sim.engine_functions(False)


def test_auto_engine_compiles_once_many_small_batches_add_up(monkeypatch):
    """The twin's budget is per process: a sweep or the report of many small batches pays at most
    ``TWIN_BUDGET`` seconds in the twin, then compiles, instead of every batch staying below the budget."""
    monkeypatch.setattr(sim, "compiled_engine_ready", lambda: False)
    monkeypatch.setattr(sim, "_twin_spent", [0.0])
    n, pols, _, _ = sim._seat_config(3, None, None)
    per_batch = 100 * 3 * 0.009                                  # the estimate for 100 greedy 3-player games
    twins = 0
    while sim._engine("auto", 100, pols, n) == sim.engine_functions(False):
        twins += 1
        assert twins < 100
    assert twins == int(sim.TWIN_BUDGET // per_batch)


@pytest.mark.slow
def test_compiled_kernel_equals_pure_python_twin():
    """The numba-compiled kernel and its pure-Python twin play identical games (compiles the kernel), under
    both readings of the ambiguous rules; the seeds give games in which the brown bag opens."""
    for players, automa, pol, readings in [
            (3, False, "greedy", {}), (2, None, "random_legal", {}), (4, False, "heuristic", {}),
            (3, None, "greedy", {"reverse_reading": "extended", "jackal_reading": "next_tile"}),
            (4, False, "random_legal", {"reverse_reading": "extended", "jackal_reading": "next_tile"})]:
        a = simulate_games(6, players=players, automa=automa, policies=pol, rng=8, engine="python", **readings)
        b = simulate_games(6, players=players, automa=automa, policies=pol, rng=8, engine="numba", **readings)
        pd.testing.assert_frame_equal(a, b)


def test_the_kernel_without_the_search_is_chosen_only_without_search_seats():
    from pyradice_lab.meerkat.policies import SEARCH, policy_row

    assert sim.search_arg(np.array([policy_row("greedy")[0], policy_row("expectimax")[0], -1, 0])) is None
    assert sim.search_arg(np.array([0, SEARCH, 0, 0])) is True
    assert policy_row("mcts:8")[0] == SEARCH


@pytest.mark.slow
def test_kernel_with_and_without_the_search_play_the_same_games(monkeypatch):
    """``run_games(..., search=None)`` (the search branch pruned at compile time) and the full kernel play the
    same games when no seat searches (compiles both)."""
    a = simulate_games(5, players=3, policies=["greedy", "expectimax", "heuristic"], rng=21, engine="numba")
    monkeypatch.setattr(sim, "search_arg", lambda pols: True)
    b = simulate_games(5, players=3, policies=["greedy", "expectimax", "heuristic"], rng=21, engine="numba")
    pd.testing.assert_frame_equal(a, b)


def test_reading_counters_flag_exactly_the_games_the_readings_change():
    """The same seeded games under both readings: a game differs exactly when the literal game's counters say
    the readings would differ (a reverse token on a three-value tile paying differently at the end, a jackal
    hitting someone differently)."""
    a = simulate_games(120, players=4, policies="random_legal", rng=23, engine="python")
    b = simulate_games(120, players=4, policies="random_legal", rng=23, engine="python",
                       reverse_reading="extended", jackal_reading="next_tile")
    flagged = (a["reverse_readings_differ"] > 0) | (a["jackal_readings_differ"] > 0)
    cols = [c for c in a.columns if not c.endswith("_readings_differ")]
    changed = ~(a[cols] == b[cols]).all(axis=1)
    assert (a["reverse_readings_differ"] > 0).sum() >= 5 and (a["jackal_readings_differ"] > 0).sum() >= 8
    assert (changed == flagged).all()
