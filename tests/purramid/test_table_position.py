"""Issue 43 item 1 for Purramid: a position file with every element of the table (player count, every hand and
yarn token held, the winner and the gold tiles placed, the board, this turn's dice and the roll) loads, dumps,
reloads identical and gives identical advice, through the API and the CLI; an opponent's yarn tokens change
the advice near the end (the race); a race that cannot be won this turn says so (item 3); the web position
route reads the race (item 2)."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from pyradice_lab import cli
from pyradice_lab.purramid.advisor import advise, load_position
from pyradice_lab.purramid.race import race_objective

#: side A, 3 players: player 2 has won (hand 0) and placed 3 gold tiles; every player holds yarn tokens;
#: a bonus turn (4 dice) with one die on the board and the other three just rolled
FULL = {"players": 3, "layout": "A", "to_move": 3, "turn": 40, "yarn_tokens": True, "winner": 2, "gold_placed": 3,
        "turn_dice": 4, "dice_left": 3, "placed": [[1, 1]], "roll": [2, 5, 6],
        "player": [{"hand": 5, "yarn": 1}, {"hand": 0, "yarn": 2}, {"hand": 20, "yarn": 3}]}


def _board():
    return load_position({"players": 2, "to_move": 1, "player": [{"hand": 36}, {"hand": 36}]}).board


def _cover(n: int, skip=()):
    """The first spaces (bottom row first) holding exactly ``n`` tiles, leaving out ``skip``."""
    L = _board()
    got, t = [], 0
    for s in L.spaces:
        k = L.tiles_of(L.mask_of([s]))
        if s not in skip and t + k <= n:
            got.append(s)
            t += k
    assert t == n
    return [[r + 1, c + 1] for r, c in got]


@pytest.fixture(scope="module")
def full():
    doc = dict(FULL, covered=_cover(72 - 25 + 3, skip=[(0, 0)]))
    return load_position(doc)


def test_every_element_round_trips_with_identical_advice(full, tmp_path):
    assert (full.players, full.winner, full.gold_placed, full.gold_in_hand) == (3, 1, 3, 9)
    assert full.yarn == (1, 2, 3) and full.hands == (5, 0, 20) and full.turn_dice == 4 and full.roll == (2, 5, 6)
    assert full.scores == (-5, 3, -20) and "WINNER with 3 gold placed" in full.text()
    path = tmp_path / "full.toml"
    path.write_text(full.to_toml())
    again = load_position(path)
    assert again == full and again.to_toml() == full.to_toml() and again.document() == full.document()
    for objective in ("tiles", "auto"):
        pd.testing.assert_frame_equal(advise(again, objective=objective), advise(full, objective=objective))


def test_the_cli_takes_the_position_file_and_dumps_it_back(full, tmp_path, capsys):
    path, dumped = tmp_path / "in.toml", tmp_path / "out.toml"
    path.write_text(full.to_toml())
    assert cli.main(["purramid", "advise", "--position", str(path), "--dump-position", str(dumped), "--top", "3"]) == 0
    first = capsys.readouterr().out
    assert load_position(dumped) == full and dumped.read_text() == full.to_toml()
    assert "player 2: 0 tiles in hand, 2 yarn, WINNER with 3 gold placed" in first
    assert "Race (hands 5, 0, 20, yarn 1, 2, 3; player 3 to move)" in first and "already finished" in first
    assert cli.main(["purramid", "advise", "--position", str(dumped), "--top", "3"]) == 0
    second = capsys.readouterr().out
    assert second.split("\n", 1)[1] == first.split("\n", 1)[1]          # all but the "Position: <path>" line
    best = advise(full, objective="auto")["action"].iloc[0]
    assert best in first


def test_the_cli_refuses_a_position_with_turn_state_options(full, tmp_path, capsys):
    path = tmp_path / "in.toml"
    path.write_text(full.to_toml())
    for argv, match in ((["--position", str(path), "--yarn", "2"], "--yarn: the position holds the table"),
                        (["--position", str(path), "--turn", "3"], "--turn goes with --game-seed"),
                        (["--game-seed", "3"], "--game-seed needs --turn"),
                        (["--dump-position", str(tmp_path / "x.toml")], "--dump-position goes with --position")):
        assert cli.main(["purramid", "advise", *argv]) == 2
        assert match in capsys.readouterr().err.strip().splitlines()[-1]


def test_a_seeded_games_turn_through_the_cli_says_what_was_played(capsys):
    assert cli.main(["purramid", "advise", "--game-seed", "7", "--turn", "3", "--players", "3", "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Position: game seed 7, turn 3\nPurramid, 3 players") and "played in the game: place " in out


def _race_doc(opponent_yarn: int) -> dict:
    return {"players": 3, "to_move": 1, "covered": _cover(72 - 29), "roll": [1, 2, 3, 4, 5],
            "player": [{"hand": 5}, {"hand": 4, "yarn": opponent_yarn}, {"hand": 20}]}


def test_an_opponents_yarn_tokens_change_the_advice_near_the_end():
    """Player 2 (4 tiles left) finishes on their next turn with probability 0.35 without a yarn token: below the
    race threshold, so player 1 maximises expected tiles; one token (a reroll) lifts it to 0.56, and player 1
    plays for all 5 tiles instead."""
    calm, tense = (advise(load_position(_race_doc(y)), objective="auto") for y in (0, 1))
    assert calm.attrs["race"].objective == "tiles" and calm.attrs["race"].threat < 0.5
    assert tense.attrs["race"].objective == ("at_least", 5) and tense.attrs["race"].threat >= 0.5
    assert calm["objective"].iloc[0] == "tiles" and tense["objective"].iloc[0] == "P(at least 5 tiles)"
    assert calm["action"].tolist() != tense["action"].tolist()


def test_a_race_that_cannot_be_won_this_turn_says_so():
    """Item 3: 19 tiles cannot all be placed in one turn, even with every bonus turn: the race suggested
    'at least 19 tiles' (every option then worth 0) and printed 'probability 0.00'; now it keeps expected tiles
    and says why."""
    a = race_objective("A", hands=(19, 1), seat=0)
    assert a.finish_now == 0.0 and a.threat >= 0.5
    assert a.objective == "tiles" and "cannot all be placed this turn (probability 0" in a.reason
    small = race_objective("A", hands=(15, 1), seat=0)      # possible but rare: said with its digit, not 0.00
    assert small.objective == ("at_least", 15) and 0 < small.finish_now < 0.005
    assert "probability 0.00)" not in small.reason and "probability 0.001)" in small.reason   # 0.0011
    sure = race_objective("A", [(0, 0)], hands=(3, 2, 18, 17), seat=0)    # player 2 finishes with p 0.9996
    assert "probability 0.9996 " in sure.reason and "1.00" not in sure.reason


def test_the_web_position_route_reads_the_race():
    """Item 2: with objective 'auto' the position route reads every player's hand and yarn (as the keyword form
    reads its race), so its answer is advise(position, objective='auto')."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from pyradice_lab.web import create_app

    with TestClient(create_app("A"), base_url="http://127.0.0.1:8000") as client:
        for y in (0, 1):
            doc = _race_doc(y)
            got = client.post("/api/purramid/advise", json={"position": doc, "objective": "auto"})
            assert got.status_code == 200, got.text
            got = got.json()
            df = advise(load_position(doc), objective="auto")
            assert got["race"]["objective"] == df.attrs["race"].label and got["race"]["reason"] == \
                df.attrs["race"].reason
            assert got["objective"] == df["objective"].iloc[0]
            assert [o["action"] for o in got["options"]] == df["action"].tolist()
