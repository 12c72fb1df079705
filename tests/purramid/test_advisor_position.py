"""Purramid's advisor protocol: ``Position``, ``load_position``, ``position_from_game`` and ``advise(position)``
(the same frame as the keyword form), like the other three games' advisors."""

from __future__ import annotations

import copy
import json

import pandas as pd
import pytest

from pyradice_lab.engine import registry
from pyradice_lab.engine.schema import SchemaError
from pyradice_lab.purramid.advisor import Position, advise, load_position, position_from_game
from pyradice_lab.purramid.rules import play_game

DOC = {"players": 2, "to_move": 2, "turn": 4,      # spaces [row, col] numbered from 1: the two bottom rows covered
       "covered": [[1, c] for c in range(1, 11)] + [[2, c] for c in range(1, 11)],
       "turn_dice": 4, "dice_left": 2, "placed": [[3, 1]], "roll": [5, 2],
       "player": [{"hand": 25, "yarn": 1}, {"hand": 24, "yarn": 2}]}


@pytest.fixture(scope="module")
def pos():
    board = load_position({"players": 2, "to_move": 1, "player": [{"hand": 36}, {"hand": 36}]}).board
    d = copy.deepcopy(DOC)
    on_board = board.tiles_of(board.mask_of([(r - 1, c - 1) for r, c in d["covered"]]))
    d["player"][0]["hand"] = 72 - on_board - d["player"][1]["hand"]
    return load_position(d)


def test_a_position_holds_the_table(pos):
    assert (pos.players, pos.seat, pos.to_move, pos.turn_dice, pos.dice_left, pos.roll) == (2, 1, 2, 4, 2, (2, 5))
    assert pos.scores == tuple(-h for h in pos.hands) and pos.winner is None
    assert "player 2 (to move)" in pos.text()
    assert pos.placed == ((2, 0),) and len(pos.covered) == 20 and min(pos.covered) == (0, 0)   # 0-based in Python
    assert pos.to_dict()["placed"] == [[3, 1]]                                                 # 1-based in the file


def test_round_trip_through_dict_toml_and_json(pos, tmp_path):
    assert load_position(pos.to_dict()) == pos
    assert load_position(pos.document()) == pos
    (tmp_path / "p.toml").write_text(pos.to_toml())
    (tmp_path / "p.json").write_text(json.dumps(pos.to_dict()))
    assert load_position(tmp_path / "p.toml") == pos
    assert load_position(str(tmp_path / "p.json")) == pos
    assert load_position(pos) is pos


def test_advise_position_equals_the_keyword_call(pos):
    df = advise(pos)
    kw = advise(pos.board, covered=list(pos.covered), placed=list(pos.placed), dice_left=pos.dice_left,
                roll=list(pos.roll), yarn=pos.yarn[pos.seat], turn_dice=pos.turn_dice)
    pd.testing.assert_frame_equal(df, kw)
    pd.testing.assert_frame_equal(advise(pos.to_dict()), kw)
    assert df.attrs["decision"] == "placement" and (df["regret"] >= 0).all()
    for objective in (("at_least", 2),):
        pd.testing.assert_frame_equal(advise(pos, objective=objective),
                                      advise(**pos.advise_kwargs(), objective=objective))


def test_auto_objective_reads_the_race_from_the_position(pos):
    df = advise(pos, objective="auto")
    assert df.attrs["race"].objective is not None


def test_a_position_and_state_keywords_are_not_mixed(pos):
    with pytest.raises(ValueError, match="covered"):
        advise(pos, covered=[(0, 0)])
    with pytest.raises(ValueError, match="race"):
        advise(pos, race={"hands": [1, 2], "seat": 0})


@pytest.mark.parametrize("change, key", [
    (lambda d: d.update(players=5), "players"),
    (lambda d: d.update(to_move=3), "to_move"),
    (lambda d: d["player"].pop(), "player"),
    (lambda d: d["player"][0].update(hand=3), "player"),             # tiles not conserved
    (lambda d: d["covered"].append([99, 1]), "covered[20]"),
    (lambda d: d["covered"].append([0, 1]), "covered[20]"),           # rows are numbered from 1
    (lambda d: d.update(roll=[5, 2, 1]), "roll"),
    (lambda d: d.update(roll=[5, 9]), "roll[1]"),
    (lambda d: d.update(dice_left=5), "dice_left"),
    (lambda d: d.update(layout="Z"), "layout"),
    (lambda d: d.update(colour="red"), "colour"),
    (lambda d: d.update(winner=1), "hand"),
    (lambda d: d.update(gold_placed=3), "gold_placed"),
    (lambda d: d.update(yarn_tokens=False), "player"),
])
def test_bad_positions_name_the_key(pos, change, key):
    d = pos.to_dict()
    change(d)
    with pytest.raises(SchemaError) as info:
        load_position(d)
    assert key in str(info.value)


@pytest.mark.parametrize("players, seed", [(3, 7), (2, 11)])
def test_position_from_game_replays_the_transcript(players, seed):
    rec = play_game(players, "A", rng=seed)
    lines = rec.transcript.splitlines()
    last = rec.summary["turns"]
    for turn in (1, 2, last // 2, last):
        pos = position_from_game(seed, turn, players=players)
        i = next(i for i, line in enumerate(lines) if line.startswith(f"Turn {turn}:"))
        # the transcript numbers seats from 1; pos.seat is the 0-based index
        assert lines[i].startswith(f"Turn {turn}: seat {pos.seat + 1} (hands {list(pos.hands)}")
        rolled = next(line for line in lines[i + 1:] if "rolls" in line).split("rolls")[1].split()
        assert pos.roll == tuple(sorted(map(int, rolled)))
        assert pos.turn == turn and pos.played is not None
        assert load_position(pos.to_dict()) == pos
    with pytest.raises(ValueError, match=f"lasts {last} turns"):
        position_from_game(seed, last + 1, players=players)
    with pytest.raises(ValueError, match="turn"):
        position_from_game(seed, 0, players=players)


def test_the_played_placement_is_ranked_by_advise():
    pos = position_from_game(7, 3, players=3, policies="optimal")
    df = advise(pos)
    kind, space, dice = pos.played
    assert kind == "place"
    best = df.iloc[0]
    assert best["space"] == space and tuple(best["dice"]) == dice and best["regret"] == 0


def test_the_registry_finds_the_protocol():
    spec = registry.get_game("purramid")
    assert spec.part("position") is Position
    assert spec.part("load_position") is load_position
    assert spec.part("position_from_game") is position_from_game
    assert spec.part("advise") is advise


def test_docstring_examples_of_the_position_modules():
    import doctest

    from pyradice_lab.purramid import _position, _turnsolver

    for module in (_position, _turnsolver):
        res = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert res.failed == 0
