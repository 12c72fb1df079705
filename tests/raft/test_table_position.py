"""Issue 43 item 1 for Rocking Raft: a position file with every element of the table (the raft's gems, every
player's lifeboat cards with their filled slots and water, scores and lifeboats completed, the pirate flag's
depth, the cards still in the deck, the mover's dexterity) loads, dumps, reloads identical and gives identical
advice, through the API and the CLI; the cards left in the deck and a lifeboat card's points change the advice."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from pyradice_lab.cli import main
from pyradice_lab.raft.advisor import advise, load_position, position_from_game

warnings.filterwarnings("ignore", message="compiling")


def _full() -> dict:
    d = position_from_game(2, 5, players=3, variant="sinking").document()      # water tokens on the boats
    assert any(b.get("water") for s in d["seat"] for b in s["boats"])
    on = {b["card"] for s in d["seat"] for b in s["boats"]}
    d["deck"] = [c for c in range(1, 40) if c not in on][:d["flag"] + 5]        # 5 cards below the flag
    d["skill"] = 0.35
    d["seat"][1].update(score=6, completed=2)
    return d


@pytest.fixture(scope="module")
def full():
    return load_position(_full())


def test_every_element_round_trips_with_identical_advice(full, tmp_path):
    assert full.deck is not None and len(full.deck) == full.flag + 5 and full.skill == 0.35
    assert full.scores[1] == 6 and full.completed[1] == 2 and "cards in the deck" in full.text()
    path = tmp_path / "p.toml"
    path.write_text(full.to_toml())
    again = load_position(path)
    assert again.document() == full.document() == _full() and again.to_toml() == full.to_toml()
    pd.testing.assert_frame_equal(advise(again).drop(columns=["then", "why"]),
                                  advise(full).drop(columns=["then", "why"]))
    assert advise(again)["why"].tolist() == advise(full)["why"].tolist()


def test_the_cli_round_trip(full, tmp_path, capsys):
    src, dumped = tmp_path / "in.toml", tmp_path / "out.toml"
    src.write_text(full.to_toml())
    assert main(["raft", "advise", "--position", str(src), "--dump-position", str(dumped), "--top", "3"]) == 0
    first = capsys.readouterr().out
    assert dumped.read_text() == full.to_toml() and f"{len(full.deck)} cards in the deck" in first
    assert main(["raft", "advise", "--position", str(dumped), "--top", "3"]) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] == first.split("\n", 1)[1]


def test_the_cards_left_in_the_deck_change_the_value_of_completing_a_lifeboat():
    """A completed lifeboat is replaced from the deck: the exact player values the replacement at the mean of
    ``points * l ** slots`` over the cards a replacement can be, so a deck of the poorest cards lowers every
    option that may complete one, and a deck of the richest raises it (the ranking follows the values)."""
    d = position_from_game(7, 3, players=3).document()
    pos = load_position(d)
    on = {b["card"] for s in d["seat"] for b in s["boats"]}
    cards = sorted((c for c in pos.comp.deck if c.id not in on), key=lambda c: c.points * 0.5 ** sum(c.slots))
    n = d["flag"]
    poor, rich = (advise(load_position(dict(d, deck=[c.id for c in deck]))) for deck in (cards[:n], cards[-n:]))
    unknown = advise(pos)
    assert poor["value"].iloc[0] < unknown["value"].iloc[0] < rich["value"].iloc[0]
    key = ["edge", "finger", "duration"]
    assert poor.set_index(key)["value"].sub(rich.set_index(key)["value"]).abs().max() > 0.1


def test_a_lifeboat_cards_points_change_the_advice():
    """The mover's lifeboat #7 (R-Y, 1 point) made worth 6 points (the same table, a components file with
    ``card.7.points = 6``): the tilts that may complete it gain about 5 points times their completion chance,
    and the ranking changes."""
    d = position_from_game(7, 3, players=3).document()
    assert d["seat"][0]["boats"][1]["card"] == 7
    before = load_position(d)
    after = load_position(d, components=before.comp.replace({"card.7.points": 6}))
    a, b = advise(before), advise(after)
    key = ["edge", "finger", "duration"]
    gain = b.set_index(key)["value"] - a.set_index(key)["value"]
    p7 = b.set_index(key)["p_complete_2"]
    assert (gain > 0).sum() > 0 and gain.corr(p7) > 0.9
    assert a[key].values.tolist() != b[key].values.tolist()


@pytest.mark.parametrize("deck, word", [([99], "no lifeboat card #99"), ([18], "in front of seat 1"),
                                        ([1, 2], "cards cannot be above the flag")])
def test_a_bad_deck_is_refused_naming_it(deck, word):
    d = position_from_game(7, 3, players=3).document()
    with pytest.raises(ValueError) as err:
        load_position(dict(d, deck=deck))
    assert word in str(err.value) and ("deck" in str(err.value) or "flag" in str(err.value))
