"""Whole games: reproducibility, bookkeeping of scores, the per-game table, bad input."""

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine.rng import spawn
from pyradice_lab.pyradice import Setup, play_game, simulate_games


@pytest.fixture(scope="module")
def games():
    return simulate_games(60, 2, None, ["greedy", "lookahead"], rng=42, return_arrays=True)


def test_same_seed_same_games_whatever_the_batch(games):
    df, _ = games
    again = simulate_games(60, 2, None, ["greedy", "lookahead"], rng=42)
    pd.testing.assert_frame_equal(df, again)
    assert not df.equals(simulate_games(60, 2, None, ["greedy", "lookahead"], rng=43))
    from pyradice_lab.pyradice import sim

    old = sim._CHUNK
    try:
        sim._CHUNK = 7                                   # other batching, same games
        pd.testing.assert_frame_equal(df, simulate_games(60, 2, None, ["greedy", "lookahead"], rng=42))
    finally:
        sim._CHUNK = old


def test_scores_add_up(games):
    df, arr = games
    for s in range(2):
        cards = sum(df[f"card{j}_s{s}"] for j in range(1, 5))
        assert (df[f"score_s{s}"] == df[f"goal_vp_s{s}"] + cards).all()
        goals = sum(df[f"goal_L{k}_s{s}"].astype(int) for k in range(1, 6))
        assert (df[f"goals_s{s}"] == goals).all() and (df[f"goal_vp_s{s}"] == 5 * goals).all()
    assert (arr["final_v"] > 0).all(), "every pyramid holds 21 dice at the end"


def test_dice_are_conserved_and_taken_once(games):
    _, arr = games
    for g in range(len(arr["moves"])):
        takes = arr["moves"][g, :, 0]
        assert len(set(takes.tolist())) == 42            # 42 different quarry dice, 5 stay behind
        places = arr["moves"][g, :, 1]
        for seat in range(2):
            seat_places = [p for t, p in enumerate(places) if (arr["first"][g] + t) % 2 == seat]
            assert sorted(seat_places) == list(range(21))


def test_winner_columns_follow_the_tie_breaks(games):
    df, _ = games
    for _, row in df.iterrows():
        scores = [row.score_s0, row.score_s1]
        if row.decided_by == "score":
            assert row.winner == int(np.argmax(scores))
        elif row.decided_by == "goal tokens":
            assert scores[0] == scores[1] and row.winner == int(np.argmax([row.goals_s0, row.goals_s1]))
        else:
            assert row.winner == -1 and row.n_winners == 2 and row.goals_s0 == row.goals_s1


def test_first_choice_is_always_four_dice(games):
    df, arr = games
    assert (arr["choices"][:, 0] == 4).all() and (arr["choices"][:, 1] == 5).all()
    assert (df.choices_min >= 1).all()


def test_play_game_replays_simulated_game_i():
    df = simulate_games(3, 2, None, "lookahead", rng=8)
    child = spawn(8, 3)[2]
    rec = play_game(2, None, "lookahead", rng=child)
    assert rec.totals == [int(df.loc[2, "score_s0"]), int(df.loc[2, "score_s1"])]
    assert rec.first_player == int(df.loc[2, "first_player"])
    assert "Winner:" in rec.transcript and len(rec.lines) > 42


def test_three_and_four_players_use_the_big_quarry():
    df, arr = simulate_games(2, 4, None, "random_legal", rng=3, return_arrays=True)
    assert (df.turns == 84).all() and arr["choices"].shape == (2, 84)
    assert arr["choices"][0, 0] == 4


def test_fixed_discs_are_used():
    df = simulate_games(3, 2, Setup(discs=("red", "blue", "green", "black")), "random_legal", rng=1)
    assert (df.card1_colour == "red").all() and (df.card4_colour == "black").all()


@pytest.mark.parametrize("call, name", [
    (lambda: simulate_games(0), "n_games"),
    (lambda: simulate_games(2.5), "n_games"),
    (lambda: simulate_games(1, players=5), "players"),
    (lambda: simulate_games(1, policies="smart"), "policies"),
    (lambda: simulate_games(1, players=3, policies=["greedy", "greedy"]), "policies"),
    (lambda: simulate_games(1, engine="gpu"), "engine"),
    (lambda: simulate_games(1, rng=-1), "rng"),
    (lambda: play_game(players=1), "players"),
])
def test_bad_input_raises_value_error_naming_it(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_custom_policy_runs_in_the_readable_engine():
    def first_available(state, u):
        return state.legal_takes()[0], __import__("pyradice_lab.pyradice", fromlist=["x"]).legal_places(
            state.pyramids[state.seat][0])[0], -1

    df = simulate_games(2, 2, None, [first_available, "random_legal"], rng=4)
    assert (df.policy_s0 == "first_available").all() and (df.skills_used_s0 == 0).all()
    with pytest.raises(ValueError, match="engine"):
        simulate_games(1, 2, None, [first_available, "greedy"], rng=4, engine="fast")


def test_progress_bar_does_not_change_the_games_and_tqdm_loads_only_when_asked(capsys):
    import subprocess
    import sys

    code = ("import sys; from pyradice_lab.pyradice import simulate_games; simulate_games(2, rng=0); "
            "print('tqdm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    with_bar = simulate_games(3, 2, None, "random_legal", rng=5, progress=True)
    pd.testing.assert_frame_equal(with_bar, simulate_games(3, 2, None, "random_legal", rng=5))
