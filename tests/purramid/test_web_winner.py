"""Who has won and the gold tiles they have placed, on the advisor page's JSON API: the fields ``winner`` and
``gold_placed`` go out with the request, come back in the answer's ``table`` (with every player's score), reach
``advise`` through the race (the winner's hand is 0: the race objective is then expected tiles), and a winner
that does not fit the hands, or gold without a winner, is refused with 400 naming the field before any solve."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from pyradice_lab.purramid import advisor  # noqa: E402
from pyradice_lab.purramid.advisor import load_position  # noqa: E402
from pyradice_lab.web import create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

#: the page's race near the end of a 3-player game: the next player (2) has won and placed 3 gold tiles
RACE = {"dice_left": 5, "objective": "auto", "race": {"hands": [5, 0, 7], "seat": 0, "players_yarn": [0, 1, 0]}}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app("A"), base_url="http://127.0.0.1:8000") as c:
        yield c


def test_winner_and_gold_round_trip_and_reach_advise(client):
    r = client.post("/api/advise", json={**RACE, "winner": 2, "gold_placed": 3})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["table"] == {"winner": 2, "gold_placed": 3, "scores": [-5, 3, -7]}
    assert got["objective"] == "tiles" and got["race"]["objective"] == "tiles"
    assert "player 2 has already finished" in got["race"]["reason"]
    # nobody has won: the same race without the finished hand plays for the tiles this turn, scores are -hand
    r = client.post("/api/advise", json={**RACE, "race": {**RACE["race"], "hands": [5, 1, 7]}, "winner": None})
    assert r.status_code == 200, r.text
    assert r.json()["table"] == {"winner": None, "gold_placed": 0, "scores": [-5, -1, -7]}
    assert "already finished" not in r.json()["race"]["reason"]
    # without a race (an objective the player picks) the fields still come back
    r = client.post("/api/advise", json={"dice_left": 5, "winner": 1, "gold_placed": 11})
    assert r.status_code == 200 and r.json()["table"] == {"winner": 1, "gold_placed": 11}


def test_a_position_document_s_winner_and_gold_reach_the_answer(client):
    L = load_position({"players": 2, "to_move": 1, "player": [{"hand": 36}, {"hand": 36}]}).board
    covered, t = [], 0
    for s in L.spaces:                  # the board holds 72 - (5 + 20) regular tiles + 3 gold tiles = 50
        k = L.tiles_of(L.mask_of([s]))
        if t + k <= 50:
            covered.append([s[0] + 1, s[1] + 1])
            t += k
    doc = {"players": 3, "layout": "A", "to_move": 1, "winner": 2, "gold_placed": 3, "covered": covered,
           "player": [{"hand": 5, "yarn": 1}, {"hand": 0, "yarn": 2}, {"hand": 20, "yarn": 3}]}
    pos = load_position(doc)
    r = client.post("/api/purramid/advise", json={"position": doc, "objective": "auto"})
    assert r.status_code == 200, r.text
    assert r.json()["table"] == {"winner": 2, "gold_placed": 3, "scores": list(pos.scores)} == \
        {"winner": 2, "gold_placed": 3, "scores": [-5, 3, -20]}
    assert "player 2 has already finished" in r.json()["race"]["reason"]


BAD = [
    ({**RACE, "winner": None}, "winner", "player 2 has no regular tile left"),       # a hand of 0, nobody won
    ({**RACE, "winner": 1}, "winner", "player 1 still holds 5"),                      # the winner holds tiles
    ({**RACE, "race": {**RACE["race"], "hands": [0, 0, 7]}, "winner": 2}, "winner", "player 1 has no regular"),
    ({**RACE, "winner": 4}, "winner", "1..3"),                                        # not a player of 3
    ({**RACE, "winner": True}, "winner", "numbered from 1"),
    ({"dice_left": 5, "winner": 5}, "winner", "1..4"),
    ({"dice_left": 5, "winner": "2"}, "winner", "numbered from 1"),
    ({**RACE, "winner": 2, "gold_placed": 12}, "gold_placed", "0..11"),               # the 12th ends the game
    ({**RACE, "winner": 2, "gold_placed": -1}, "gold_placed", "0..11"),
    ({**RACE, "winner": 2, "gold_placed": 2.5}, "gold_placed", "0..11"),
    ({"dice_left": 5, "gold_placed": 2}, "gold_placed", "nobody has"),                # gold without a winner
]


@pytest.mark.parametrize("body,field,why", BAD, ids=[f"{f}:{w}" for _, f, w in BAD])
def test_an_inconsistent_winner_or_gold_is_refused_naming_the_field(client, monkeypatch, body, field, why):
    def never(*a, **k):
        raise AssertionError("solved a refused request")

    monkeypatch.setattr(advisor, "advise", never)
    monkeypatch.setattr(advisor, "_race_advice", never)
    r = client.post("/api/advise", json=body)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error.startswith(field) and why in error, error


def test_a_body_without_winner_keeps_the_race_s_own_reading(client):
    """An older client sends no ``winner``: a hand of 0 in its race is still read as a finished player."""
    r = client.post("/api/advise", json=RACE)
    assert r.status_code == 200, r.text
    assert "player 2 has already finished" in r.json()["race"]["reason"]
    assert r.json()["table"] == {"winner": None, "gold_placed": 0}


def test_the_layout_says_how_many_gold_tiles_there_are(client):
    assert client.get("/api/layout?players=3").json()["gold_tiles"] == 12
