"""Restricted players (restricted play): both engines play them identically, and the restriction holds."""

import numpy as np
import pytest

from pyradice_lab.pyradice import Setup
from pyradice_lab.pyradice.geometry import PYRAMID
from pyradice_lab.pyradice.policies import Restriction, parse_policy
from pyradice_lab.pyradice.sim import simulate_games

CASES = [
    (2, ["greedy/no_goals", "lookahead/no_cards"], None),
    (3, ["lookahead/no_skills", "random_legal/no_skill_{3}", "greedy/no_skill_{2}/no_cards"], 5),
    (2, ["lookahead/no_goals/no_cards", "greedy/no_skill_{4}"], 7),
]


@pytest.mark.parametrize("players, policies, setup_seed", CASES)
def test_fast_and_readable_engines_play_restricted_players_identically(players, policies, setup_seed):
    setup = None if setup_seed is None else Setup.random(rng=setup_seed)
    codes = dict(zip((2, 3, 4, 5, 6), (setup or Setup.default()).skills))     # the token at each level
    policies = [p.replace("{3}", codes[3]).replace("{2}", codes[2]).replace("{4}", codes[4]) for p in policies]
    fast_df, fast = simulate_games(3, players, setup, policies, rng=40 + players, engine="fast", return_arrays=True)
    slow_df, slow = simulate_games(3, players, setup, policies, rng=40 + players, engine="python",
                                   return_arrays=True)
    for key in fast:
        assert np.array_equal(fast[key], slow[key]), key
    assert fast_df.equals(slow_df)


def test_parse_and_errors():
    assert parse_policy("greedy/no_skills") == ("greedy", Restriction(no_skills=True))
    assert parse_policy("greedy/no_skill_A6/no_skill_B5") == ("greedy", Restriction(frozenset({"A6", "B5"})))
    assert Restriction(no_skills=True).skill_levels(Setup.default()) == {2, 3, 4, 5, 6}
    with pytest.raises(ValueError, match="restriction"):
        parse_policy("greedy/no_dice")
    with pytest.raises(ValueError, match="policies"):
        simulate_games(1, policies="clever/no_goals")


def test_forbidden_skills_are_never_used():
    df, arr = simulate_games(60, 2, None, ["lookahead/no_skill_A3", "lookahead"], rng=8, return_arrays=True)
    seat_of_turn = (arr["first"][:, None] + np.arange(arr["moves"].shape[1])[None, :]) % 2
    level = PYRAMID.level_of[arr["moves"][:, :, 1]]
    used = arr["moves"][:, :, 2] >= 0
    assert not (used & (seat_of_turn == 0) & (level == 3)).any()
    assert (used & (seat_of_turn == 1) & (level == 3)).any()  # the unrestricted player does use it
    df = simulate_games(30, 2, None, ["greedy/no_skills", "greedy"], rng=8)
    assert df["skills_used_s0"].sum() == 0 and df["skills_used_s1"].sum() > 0


def test_a_skill_has_one_name_everywhere():
    """Issue 30 section 4: the skill table's name (token code and name) is the restriction's name."""
    from pyradice_lab.engine.registry import get_game
    from pyradice_lab.pyradice.analysis import skill_findings, skill_values
    from pyradice_lab.pyradice.policies import RESTRICTIONS

    setup = Setup.default()
    names = {c: setup.catalogue.skills[c].name for c in setup.skills}
    assert get_game("pyradice").restrictions == RESTRICTIONS
    for code, name in names.items():
        assert RESTRICTIONS[f"no_skill_{code}"] == f"never uses skill token {code} {name}"
    assert not [r for r in RESTRICTIONS if r.startswith("no_skill_L")]
    df = skill_values(2, 2, "greedy", rng=1)
    assert [f"{r.skill} {r.skill_name}" for r in df.itertuples()] == [f"{c} {n}" for c, n in names.items()]
    for f, (code, name) in zip(skill_findings(df), names.items()):
        assert f"skill token {code} {name}" in f.quantity and "level" not in f.quantity


@pytest.mark.parametrize("level", [2, 5, 6])
def test_the_old_level_names_are_rejected_with_the_new_name(level):
    with pytest.raises(ValueError, match=f"renamed.*'no_skill_A{level}'"):
        parse_policy(f"greedy/no_skill_L{level}")
    with pytest.raises(ValueError, match=f"no_skill_A{level}"):
        simulate_games(1, policies=[f"lookahead/no_skill_L{level}", "greedy"])


def test_a_token_the_setup_does_not_use_is_rejected_before_any_game():
    with pytest.raises(ValueError, match="B5.*does not use.*A2, A3, A4, A5, A6"):
        simulate_games(1, policies=["greedy/no_skill_B5", "greedy"])
    setup = Setup(skills=("A2", "A3", "A4", "B5", "A6"))
    df = simulate_games(4, 2, setup, ["greedy/no_skill_B5", "greedy"], rng=3, return_arrays=True)[1]
    seat_of_turn = (df["first"][:, None] + np.arange(df["moves"].shape[1])[None, :]) % 2
    level = PYRAMID.level_of[df["moves"][:, :, 1]]
    assert not ((df["moves"][:, :, 2] >= 0) & (seat_of_turn == 0) & (level == 5)).any()
