"""The common outcomes frame: the helper, each game's ``outcomes`` on hand-checked rows (ties included), and
agreement with each simulator's own ``winner`` column."""

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine import registry
from pyradice_lab.engine.outcomes import (
    OUTCOME_COLUMNS,
    check_outcomes,
    outcome_frame,
    ranks_from_keys,
    relabel_policies,
)


def rows(out, game):
    """(seat, policy, start, position, rank, win) per seat of one game."""
    g = out[out["game"] == game]
    return [tuple(r) for r in g[["seat", "policy", "start", "position", "rank", "win"]].itertuples(index=False)]


def test_ranks_share_ties_and_follow_the_keys_in_order():
    keys = [np.array([[5, 5, 5, 2], [1, 1, 1, 1]]), np.array([[0, 1, 1, 9], [0, 0, 0, 0]])]
    assert ranks_from_keys(keys).tolist() == [[3, 1, 1, 4], [1, 1, 1, 1]]


def test_outcome_frame_win_shares_and_validation():
    out = outcome_frame([7, 8], ["a", "b", "c"], positions=[[2, 0, 1], [0, 1, 2]], scores=[[1, 4, 4], [0, 0, 0]])
    assert list(out.columns) == list(OUTCOME_COLUMNS)
    assert rows(out, 7) == [(0, "a", False, 2, 3, 0.0), (1, "b", True, 0, 1, 0.5), (2, "c", False, 1, 1, 0.5)]
    assert [r[-1] for r in rows(out, 8)] == pytest.approx([1 / 3] * 3)
    check_outcomes(out)
    with pytest.raises(ValueError, match="positions"):
        outcome_frame([0], ["a", "b"], positions=[[0, 0]], scores=[[1, 2]])
    with pytest.raises(ValueError, match="policies"):
        outcome_frame([0], ["a"], positions=[[0, 1]], scores=[[1, 2]])
    with pytest.raises(ValueError, match="keys"):
        outcome_frame([0], ["a", "b"], positions=[[0, 1]], scores=[[1, 2]], keys=[[[1, 2, 3]]])
    with pytest.raises(ValueError, match="start"):
        check_outcomes(out.assign(start=True))
    assert relabel_policies(out, ["x", "y", "z"])["policy"].tolist()[:3] == ["x", "y", "z"]


def test_purramid_outcomes_hand_checked():
    from pyradice_lab.purramid.sim import outcomes

    df = pd.DataFrame({"game": [0, 1], "players": 3, "policies": ["greedy,stop_after(2),greedy"] * 2,
                       "winner": [1, -1], "score_0": [-3, -2], "score_1": [0, -2], "score_2": [-3, -5]})
    out = outcomes(df)
    # the winner ranks first even with 0 gold placed; the others tie on tiles left in hand
    assert rows(out, 0) == [(0, "greedy", True, 0, 2, 0.0), (1, "stop_after(2)", False, 1, 1, 1.0),
                            (2, "greedy", False, 2, 2, 0.0)]
    # nobody placed all tiles: best scores share the win
    assert rows(out, 1) == [(0, "greedy", True, 0, 1, 0.5), (1, "stop_after(2)", False, 1, 1, 0.5),
                            (2, "greedy", False, 2, 3, 0.0)]


def test_pyradice_outcomes_hand_checked():
    from pyradice_lab.pyradice.sim import outcomes

    df = pd.DataFrame({"game": [0, 1], "players": 2, "first_player": [1, 0], "policy_s0": "greedy",
                       "policy_s1": "lookahead", "score_s0": [20, 20], "score_s1": [20, 20], "goals_s0": [2, 1],
                       "goals_s1": [1, 1]})
    out = outcomes(df)
    assert rows(out, 0) == [(0, "greedy", False, 1, 1, 1.0), (1, "lookahead", True, 0, 2, 0.0)]  # goals break it
    assert rows(out, 1) == [(0, "greedy", True, 0, 1, 0.5), (1, "lookahead", False, 1, 1, 0.5)]  # shared


def test_raft_outcomes_hand_checked():
    from pyradice_lab.raft.sim import outcomes

    df = pd.DataFrame({"game": [0, 1, 2], "players": 3, "first_player": [2, 0, 1], "score_0": [5, 4, 3],
                       "score_1": [5, 4, 3], "score_2": [3, 4, 3], "boats_0": [2, 1, 1], "boats_1": [3, 1, 1],
                       "boats_2": [1, 2, 1]})
    df.attrs["policies"] = ["greedy", "aim", "random"]
    out = outcomes(df)
    assert rows(out, 0) == [(0, "greedy", False, 1, 2, 0.0), (1, "aim", False, 2, 1, 1.0),
                            (2, "random", True, 0, 3, 0.0)]
    assert [r[4:] for r in rows(out, 1)] == [(2, 0.0), (2, 0.0), (1, 1.0)]  # equal points: most boats wins
    assert [r[4] for r in rows(out, 2)] == [1, 1, 1] and [r[3] for r in rows(out, 2)] == [2, 0, 1]


def test_meerkat_outcomes_hand_checked():
    from pyradice_lab.meerkat.sim import outcomes

    df = pd.DataFrame({"game": [0, 1], "players": 2, "automa": True, "first_seat": [1, 0],
                       "score_0": [10, 12], "score_1": [12, 12], "score_2": [12, 3],
                       "out_order_0": [0, 0], "out_order_1": [2, 0], "out_order_2": [1, 0],
                       "policy_0": "greedy", "policy_1": "heuristic", "policy_2": "automa"})
    out = outcomes(df)
    # the automa plays last; on equal points the seat that ran out first wins
    assert rows(out, 0) == [(0, "greedy", False, 1, 3, 0.0), (1, "heuristic", True, 0, 2, 0.0),
                            (2, "automa", False, 2, 1, 1.0)]
    assert rows(out, 1) == [(0, "greedy", True, 0, 1, 0.5), (1, "heuristic", False, 1, 1, 0.5),
                            (2, "automa", False, 2, 3, 0.0)]


SIMS = {
    "purramid": lambda sim: sim.simulate_games(60, players=3, policies=["greedy", "risk:0.3", "stop_after:2"], rng=4),
    "pyradice": lambda sim: sim.simulate_games(40, 3, policies=["greedy", "random_legal", "lookahead"], rng=4),
    "raft": lambda sim: sim.simulate_games(60, players=3, policies=["greedy", "aim", "random"], rng=4),
    "meerkat": lambda sim: sim.simulate_games(60, players=2, automa=True, policies=["greedy", "random_legal"], rng=4),
}


@pytest.mark.parametrize("game", list(SIMS))
def test_outcomes_agree_with_each_simulators_winner(game):
    import importlib

    sim = importlib.import_module(f"pyradice_lab.{game}.sim")
    df = SIMS[game](sim)
    out = registry.get_game(game).outcomes(df)
    check_outcomes(out)
    top = out[out["rank"] == 1].groupby("game")["seat"].agg(list)
    for g, w in zip(df["game"], df["winner"]):
        if w >= 0:
            assert top[g] == [w], (g, w, top[g])
        elif game != "purramid":  # Purramid's -1 means nobody finished, not a tie
            assert len(top[g]) > 1, g


@pytest.mark.parametrize("game", list(SIMS))
def test_each_games_outcomes_docstring_example_runs(game):
    import doctest
    import importlib

    sim = importlib.import_module(f"pyradice_lab.{game}.sim")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for fn in (sim.outcomes, sim.lineup_outcomes):
        for test in doctest.DocTestFinder().find(fn, globs=vars(sim)):
            runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
