"""The race situation (issue 31 part 2): the suggested objective, its reason and its numbers, advise(race=...),
the CLI's --hands, and the race-aware seat of the readable engine."""

from __future__ import annotations

import pytest

from pyradice_lab.purramid import advise, load_layout, play_game
from pyradice_lab.purramid.advisor import solver_for
from pyradice_lab.purramid.race import RACE_THRESHOLD, RacePolicy, race_objective, race_value


def test_early_game_keeps_expected_tiles():
    a = race_objective("A", hands=(18, 18, 18, 18), seat=2)
    assert a.objective == "tiles" and a.threat == 0.0 and "maximise expected tiles" in a.reason


def test_an_opponent_about_to_finish_suggests_playing_for_all_your_tiles():
    a = race_objective("A", hands=(5, 3, 12), seat=0)
    assert a.objective == ("at_least", 5) and a.label == "at_least:5"
    assert a.threat >= RACE_THRESHOLD and "player 2 has 3 tiles left" in a.reason
    assert 0 < a.finish_now < 1


def test_the_threat_and_finish_chances_are_the_exact_turn_values():
    """Each opponent's chance is an exact at-least-h solve of a fresh turn on this board (checked through advise,
    whose 'continue' value at the start of a turn is the same quantity)."""
    L = load_layout("A")
    covered = [s for s in L.spaces if L.number(s) in (3, 5, 6)]
    a = race_objective("A", covered, hands=(6, 4, 9), seat=1)
    by_seat = {o: p for o, _, p in a.opponents}
    for o, h in ((0, 6), (2, 9)):
        df = advise("A", covered, dice_left=5, objective=("at_least", h))
        assert by_seat[o] == pytest.approx(df.set_index("action").loc["continue", "value"], abs=1e-12)
    assert a.threat == pytest.approx(1 - (1 - by_seat[0]) * (1 - by_seat[2]), abs=1e-12)
    own = advise("A", covered, dice_left=5, objective=("at_least", 4)).set_index("action").loc["continue", "value"]
    assert a.finish_now == pytest.approx(own, abs=1e-12)


def test_threshold_decides():
    a = race_objective("A", hands=(5, 3, 12), seat=0)
    assert race_objective("A", hands=(5, 3, 12), seat=0, threshold=min(1.0, a.threat + 0.01)).objective == "tiles" \
        or a.threat == 1.0
    assert race_objective("A", hands=(5, 3, 12), seat=0, threshold=a.threat).objective == ("at_least", 5)


def test_after_a_winner_or_with_too_few_tiles_on_the_board_it_is_expected_tiles():
    a = race_objective("A", hands=(4, 0, 9), seat=0)
    assert a.objective == "tiles" and "player 2 has already finished" in a.reason
    assert race_objective("A", hands=(0, 3), seat=0).objective == "tiles"
    L = load_layout("A")
    covered = list(L.spaces[:-3])
    left = L.tiles_of(L.all_mask & ~sum(1 << L.index(s) for s in covered))
    a = race_objective("A", covered, hands=(left + 1, 1), seat=0)
    assert a.objective == "tiles" and "cannot all be placed this turn" in a.reason


@pytest.mark.parametrize("kwargs,match", [
    (dict(hands=(5,)), "hands"), (dict(hands=(5, 3, 2, 1, 1)), "hands"), (dict(hands="5,3"), "hands"),
    (dict(hands=(5, -1)), "hands"), (dict(hands=(5, 2.5)), "hands"), (dict(hands=(0, 0, 4)), "at most one"),
    (dict(hands=(5, 3), seat=2), "seat"), (dict(hands=(5, 3), seat=True), "seat"),
    (dict(hands=(5, 3), players_yarn=(1,)), "players_yarn"), (dict(hands=(5, 3), players_yarn=(1, 13)), "players_yarn"),
    (dict(hands=(5, 3), threshold=0), "threshold"), (dict(hands=(5, 3), threshold=1.5), "threshold"),
])
def test_bad_race_input_is_refused_naming_the_field(kwargs, match):
    with pytest.raises(ValueError, match=match):
        race_objective("A", **kwargs)


def test_advise_reads_the_race_and_auto_follows_it():
    df = advise("A", dice_left=5, roll=[1, 2, 3, 4, 5], race={"hands": [5, 3, 12], "seat": 0}, objective="auto")
    assert df["objective"].iloc[0] == "P(at least 5 tiles)" and df.attrs["race"].label == "at_least:5"
    kept = advise("A", dice_left=5, race={"hands": [5, 3, 12], "seat": 0})        # told, not followed
    assert kept["objective"].iloc[0] == "tiles" and kept.attrs["race"].objective == ("at_least", 5)
    assert advise("A", dice_left=5, objective="auto")["objective"].iloc[0] == "tiles"
    for race, match in (([5, 3], "race must be a mapping"), ({"hands": [5, 3]}, "race must be a mapping"),
                        ({"hands": [5, 3], "seat": 0, "who": 1}, "unknown key"),
                        ({"hands": [5, 3], "seat": 5}, "race: seat")):
        with pytest.raises(ValueError, match=match):
            advise("A", race=race)


def test_cli_prints_the_suggestion_and_labels_the_value_column(capsys):
    from pyradice_lab import cli

    assert cli.main(["purramid", "advise", "--hands", "5,3,12", "--roll", "1,2,3,4,5", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "Race (hands 5, 3, 12; player 1 to move): suggests at_least:5" in out
    assert "P(at least 5 tiles)" in out.splitlines()[-5]
    assert cli.main(["purramid", "advise", "--dice-left", "5"]) == 0
    assert "expected tiles" in capsys.readouterr().out
    for argv, match in ((["--objective", "auto"], "needs --hands"), (["--seat", "1"], "--seat needs --hands"),
                        (["--hands", "5,3", "--seat", "4"], "seat")):
        assert cli.main(["purramid", "advise", *argv]) == 2
        assert match in capsys.readouterr().err.strip().splitlines()[-1]


def test_the_race_seat_plays_exact_decisions_and_counts_what_it_changed():
    pol = RacePolicy()
    a = play_game(2, "A", [pol, "optimal"], rng=11, trace=False)
    b = play_game(2, "A", [pol, "optimal"], rng=11, trace=False)
    assert (a.scores, a.summary["turns"]) == (b.scores, b.summary["turns"])        # deterministic
    assert pol.turns > 0 and 0 <= pol.changed_turns <= pol.turns
    assert 0 <= pol.changed_decisions <= pol.decisions
    never = RacePolicy(threshold=1.0)                    # a threat of exactly 1 is needed: early boards never
    c = play_game(2, "A", [never, "optimal"], rng=11, trace=False)
    d = play_game(2, "A", ["optimal", "optimal"], rng=11, trace=False)
    if never.changed_turns == 0:
        assert c.summary["winner"] == d.summary["winner"] and c.scores == d.scores


def test_simulate_games_refuses_a_per_turn_policy():
    from pyradice_lab.purramid import simulate_games

    with pytest.raises(ValueError, match="readable engine"):
        simulate_games(2, players=2, policies=[RacePolicy(), "greedy"], rng=0)


def test_race_value_pairs_the_games():
    df = race_value(2, players=2, seed=3).set_index("quantity")
    assert df.loc["win share difference", "n"] == 2
    assert df.loc["win share, race objective", "value"] - df.loc["win share, expected tiles", "value"] == \
        pytest.approx(df.loc["win share difference", "value"])
    with pytest.raises(ValueError, match="n_games"):
        race_value(0)
    with pytest.raises(ValueError, match="players"):
        race_value(2, players=5)


def test_solver_variants_are_reused():
    """race_objective's solves go through advise's solver cache (a second call solves nothing new)."""
    s = solver_for(load_layout("A"), ("at_least", 3))
    race_objective("A", hands=(5, 3), seat=0)
    assert solver_for(load_layout("A"), ("at_least", 3)) is s


@pytest.mark.parametrize("turn_dice", [0, 99, 2.5, "x"])
def test_bad_turn_dice_is_refused_naming_it(turn_dice):
    with pytest.raises(ValueError, match="turn_dice"):
        race_objective("A", hands=(5, 3), turn_dice=turn_dice)
