"""Restricted players (restricted play): parameter rows, and the forbidden options never appear in play."""

import numpy as np
import pytest

from pyradice_lab.meerkat.policies import FORBIDDEN, PARAM_NAMES, policy_row
from pyradice_lab.meerkat.sim import lineup_outcomes, play_game

ALL = "greedy/no_queen/no_reroll/no_guardians/no_burrows/no_oasis"


def test_restricted_rows():
    _, row = policy_row("heuristic/no_queen/no_burrows")
    p = dict(zip(PARAM_NAMES, row))
    assert p["queen_bonus"] == -FORBIDDEN and p["burrow_cost"] == FORBIDDEN and p["reroll"] == 1.0
    with pytest.raises(ValueError, match="restrictions apply"):
        policy_row("random_legal/no_queen")
    with pytest.raises(ValueError, match="restriction"):
        policy_row("greedy/no_sand")


def test_strong_players_take_restrictions_on_their_own_evaluation():
    from pyradice_lab.meerkat.policies import P_BUDGET, P_FUTURE, ROLL0, SEARCH

    _, ex = policy_row("expectimax/no_reroll")
    assert ex[PARAM_NAMES.index("reroll")] == 0.0 and ex[P_FUTURE] > 0   # still the expectimax evaluation
    pid, row = policy_row("mcts:32/no_queen")
    q = PARAM_NAMES.index("queen_bonus")
    assert pid == SEARCH and row[P_BUDGET] == 32 and row[q] == -FORBIDDEN
    assert row[ROLL0 + q] == policy_row("heuristic")[1][q]                # rollouts play unrestricted


def test_forbidden_options_never_appear_in_play():
    seen = {"restricted": set(), "free": set()}
    marks = {"queen": "places the queen", "reroll": "rerolls", "guardian": "assigns a guardian",
             "burrow": "burrow action", "oasis": " token on tile"}
    for seed in range(4):
        text, _ = play_game(players=2, policies=[ALL, "greedy"], rng=seed, engine="python")
        for line in text.splitlines():
            head, _, event = line.partition(": ")
            who = {"p1": "restricted", "p2": "free"}.get(head.split("]")[-1].strip())  # transcripts count seats from 1
            for k, m in marks.items():
                if who and m in event and (k != "oasis" or "activates" in event):
                    seen[who].add(k)
    assert seen["restricted"] == set()
    assert {"reroll", "burrow"} <= seen["free"]


def test_automa_levels_play_and_take_the_last_seat():
    out = lineup_outcomes(["automa:H", "greedy"], 3, rng=1, engine="python")
    assert out[out["policy"] == "automa:H"]["seat"].eq(1).all()
    assert out[out["policy"] == "automa:H"]["position"].eq(1).all()
    with pytest.raises(ValueError, match="at most one automa"):
        lineup_outcomes(["automa:H", "automa"], 1, rng=1)
    with pytest.raises(ValueError, match="automa"):
        lineup_outcomes(["automa:X", "greedy"], 1, rng=1)
    assert np.isclose(out.groupby("game")["win"].sum(), 1).all()


def test_policies_docstring_examples():
    import doctest

    from pyradice_lab.meerkat import policies

    assert doctest.testmod(policies).failed == 0
