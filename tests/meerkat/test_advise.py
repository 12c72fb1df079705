"""The Meerkat Kingdom advisor: positions (file format, from seeded games), advise against the expectimax
player's own choices and against brute-force enumeration of the reroll dice, the CLI."""

import itertools
import json

import numpy as np
import pytest

from pyradice_lab.cli import main
from pyradice_lab.meerkat import advisor
from pyradice_lab.meerkat.advisor import advise, load_position, position_from_game, positions_from_game

GAMES = [(1, 2), (2, 2), (3, 3), (5, 2), (6, 3), (7, 2)]


def _check(pos):
    df = advise(pos)
    key = "keep" if pos.stage == "reroll" else "action"
    assert df[key].iloc[0] == pos.played == df.attrs["chosen"]
    assert df["regret"].iloc[0] == 0 and (df["regret"] >= 0).all() and df["se"].isna().all()
    return df


def test_advise_top_option_is_the_expectimax_players_choice_in_one_game():
    n = 0
    for after in (False, True):
        for _, pos in positions_from_game(1, players=2, after_reroll=after):
            _check(pos)
            n += 1
    assert n >= 24   # every rolled turn of both players, twice (seed 1: 14 turns, keyed dice)


@pytest.mark.slow
def test_advise_top_option_is_the_expectimax_players_choice_on_100_positions():
    n = 0
    for seed, players in GAMES[1:5]:
        for after in (False, True):
            for _, pos in positions_from_game(seed, players=players, after_reroll=after):
                _check(pos)
                n += 1
    assert n >= 100, n


@pytest.mark.parametrize("seed, turn", [(1, 5), (2, 7), (5, 11)])
def test_reroll_values_and_odds_equal_brute_force_over_the_dice(seed, turn):
    pos = position_from_game(seed, turn, players=2)
    df = advise(pos).set_index("keep")
    tw = advisor._twins()
    g = advisor._game(pos, "expectimax", "margin")
    s = pos.seat
    tab = np.zeros((13, 4))
    gval = tw["placement_table"](g, s, tab)

    def best(dice):      # the best legal action of a roll: placement_options and the player's values
        return max(v for _, v in advisor._actions(tw, g, s, dice, tab, gval))

    now = best(pos.roll)
    assert df.loc[7, "value"] == pytest.approx(now, abs=1e-9)
    for mask, row in df.iterrows():
        if mask == 7:
            continue
        outs = list(itertools.product(*[(pos.roll[i],) if mask >> i & 1 else range(1, 7) for i in range(3)]))
        assert len(outs) == 6 ** (3 - bin(mask).count("1"))
        vals = [best(o) for o in outs]
        assert row["value"] == pytest.approx(float(np.mean(vals)), abs=1e-9)
        assert row["p_better"] == pytest.approx(float(np.mean([v > now + 1e-12 for v in vals])), abs=1e-12)


def test_action_table_lists_every_legal_action_with_reasons():
    pos = position_from_game(1, 5, players=2, after_reroll=True)
    df = advise(pos)
    assert df.attrs["decision"] == "action"
    assert df["option"].iloc[0] == "3 on 8" and "takes the majority on tile 8" in df["why"].iloc[0]
    assert "guardian" in df["option"].tolist()
    pts = advise(pos, objective="points")
    assert pts["objective"].iloc[0].startswith("expected end-of-game points")
    greedy = advise(pos, policy="greedy")
    assert set(greedy["option"]) == set(df["option"])


def test_a_queen_option_appears_when_the_count_die_allows_it():
    pos = position_from_game(1, 1, players=2, after_reroll=True)  # rolled 3 5 6 with the queen in the supply
    df = advise(pos)
    assert df["option"].iloc[0] == "queen on 9"
    assert "the queen (2.5" in df["why"].iloc[0] and (df["meerkats"] == -1).any()


def test_position_files_round_trip_in_toml_and_json(tmp_path):
    pos = position_from_game(2, 7, players=2)
    (tmp_path / "p.toml").write_text(pos.to_toml())
    (tmp_path / "p.json").write_text(json.dumps(pos.document()))
    ref = advise(pos)["value"].tolist()
    for name in ("p.toml", "p.json"):
        back = load_position(tmp_path / name)
        assert back.document() == pos.document()
        assert advise(back)["value"].tolist() == ref


def _doc():
    return position_from_game(1, 5, players=2).document()


@pytest.mark.parametrize("change, key", [
    (lambda d: d.update(players=5), "players"),
    (lambda d: d.update(to_move=3), "to_move"),               # seat 3 is the automa
    (lambda d: d.update(to_move=0), "to_move"),               # seats are numbered from 1
    (lambda d: d.update(roll=[1, 2]), "roll"),
    (lambda d: d.update(stage="place"), "stage"),
    (lambda d: d.update(mail=7), "mail"),
    (lambda d: d.update(male=2), "male"),
    (lambda d: d.update(bonus_taken=3), "bonus_taken"),
    (lambda d: d["tokens"].update({"5": "gold"}), "tokens.5"),
    (lambda d: d["seat"][1]["meerkats"].update({"13": 1}), "seat.2.meerkats.13"),
    (lambda d: d["seat"][1].update(supply=3), "seat.2"),
    (lambda d: d["seat"][0].update(queen=2), "seat.1.queen"),
    (lambda d: d["seat"][0].update(burrow=["dig"]), "seat.1.burrow[0]"),
    (lambda d: d["seat"][2].update(reserve=1, supply=16), "seat.3"),
    (lambda d: d["seat"].pop(), "seat"),
])
def test_bad_positions_name_the_key(change, key):
    doc = _doc()
    change(doc)
    with pytest.raises(ValueError) as err:
        load_position(doc)
    assert key in str(err.value)


def test_bad_arguments_name_the_parameter():
    pos = position_from_game(1, 5, players=2)
    for kw, name in [({"objective": "tiles"}, "objective"), ({"policy": "mcts"}, "policy")]:
        with pytest.raises(ValueError, match=name):
            advise(pos, **kw)
    with pytest.raises(ValueError, match="turn must be a turn at which a player rolls"):
        position_from_game(1, 3, players=2)       # the automa's turn
    with pytest.raises(ValueError, match="turn"):
        position_from_game(1, 0)       # turns count from 1
    with pytest.raises(ValueError, match="after_reroll"):
        position_from_game(1, 1, after_reroll="yes")
    with pytest.raises(TypeError, match="position"):
        load_position(3)


def test_the_replay_leaves_the_shared_engine_untouched():
    from pyradice_lab.meerkat.sim import play_game, python_twins

    before = python_twins()["base_turn"].__globals__["choose_keep"]
    position_from_game(1, 4, players=2)
    assert python_twins()["base_turn"].__globals__["choose_keep"] is before
    text, _ = play_game(2, policies="expectimax", rng=1, engine="python")
    assert "[  5]           p2: rerolls (kept none) -> " in text  # transcripts number turns and seats from 1


def test_cli_advise_from_a_game_and_from_a_file(capsys, tmp_path):
    dump = tmp_path / "pos.toml"
    assert main(["meerkat", "advise", "--game-seed", "1", "--turn", "5", "--players", "2",
                 "--dump-position", str(dump)]) == 0
    out = capsys.readouterr().out
    assert "which dice to keep for the reroll" in out and "keep 2, reroll 2 dice" in out
    assert "played in the game: reroll 3 dice, rank 1, regret 0.000" in out
    assert main(["meerkat", "advise", "--position", str(dump), "--top", "2"]) == 0
    assert "... 4 more options" in capsys.readouterr().out
    assert main(["meerkat", "advise", "--game-seed", "1", "--turn", "5", "--players", "2", "--after-reroll"]) == 0
    assert "takes the majority on tile 8" in capsys.readouterr().out


def test_cli_advise_bad_input_is_one_line_and_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(position_from_game(1, 5, players=2).to_toml().replace("supply = 19", "supply = 18"))
    for argv, word in [(["--position", str(bad)], "seat.2"), (["--turn", "3"], "--game-seed"),
                       (["--game-seed", "1"], "--turn"), (["--game-seed", "1", "--turn", "3", "--players", "2"], "turn"),
                       (["--position", str(tmp_path / "none.toml")], "no such file"), ([], "--position")]:
        assert main(["meerkat", "advise", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and word in err, (argv, err)


def test_the_guides_example_position_file_is_turn_5_of_2_player_game_1():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "meerkat.md").read_text(encoding="utf-8")
    start = text.index("```toml\n# Meerkat Kingdom position: p2 to decide\n") + len("```toml\n")
    block = text[start:text.index("```", start)]
    pos = position_from_game(1, 5, players=2)
    assert block == pos.to_toml()
    assert load_position(__import__("tomllib").loads(block)).document() == pos.document()


def test_a_seats_standing_on_a_tile_treats_tied_seats_as_the_rules_do():
    """Issue 46: the action's "why" ranks a seat among the seats still standing: tied seats cancel (and score
    nothing), and the next strongest seat takes first place.  Checked against the rules' own tile scoring
    (score_tile: the k-th strongest non-cancelled seat takes values[k]) on every tile of 3 seats with 0..3
    meerkats each."""
    import itertools

    from pyradice_lab.meerkat.advisor import _standing
    from pyradice_lab.meerkat.scoring import score_tile

    place = {"first": 30, "second": 20, "third": 10, "cancelled": 0, "absent": 0}
    for counts in itertools.product(range(4), repeat=3):
        points = score_tile(np.array(counts), values=(30, 20, 10))
        strength = [2 * c for c in counts]
        for s in range(3):
            assert place[_standing(strength, s)] == points[s], (counts, s, _standing(strength, s))
    assert _standing([4, 4, 2], 2) == "first" and _standing([4, 4, 2], 0) == "cancelled"
    assert _standing([6, 4, 4, 2], 3) == "second" and _standing([0, 4, 2], 0) == "absent"
