"""Issue 43 item 1 for Meerkat Kingdom: a position file with every element of the table (the tiles' layout,
every seat's meerkats and queen, guardians in reserve, pups, meerkats lost, bonus points, burrow action spaces,
the oasis tokens, the wandering male, the bonus tokens taken, the roll and the stage) loads, dumps, reloads
identical and gives identical advice, through the API and the CLI; pups and burrow spaces change the advice
where the rules say they matter.

Guardians and pups never lie on tiles during play: a guardian goes from the reserve onto a tile only while the
game is scored (the high-value winner's move, the "tan two-guardians" token), after the last decision, and pups
stay in the reserve (scored pups x guardians); so the position holds them as counts per seat."""

from __future__ import annotations

import copy
import warnings

import pandas as pd
import pytest

from pyradice_lab.cli import main
from pyradice_lab.meerkat.advisor import advise, load_position, position_from_game

warnings.filterwarnings("ignore", message="compiling")


@pytest.fixture(scope="module")
def table() -> dict:
    """Turn 5 of the 2-player game 1 (with the automa), at the action, with every element set."""
    pos = position_from_game(1, 5, players=2, after_reroll=True)
    d = pos.document()
    p1 = d["seat"][0]
    p1.update(reserve=2, pups=3, lost=1, bonus=0, supply=p1["supply"] - 3)
    assert d["layout"] is not None and d["tokens"] and d["stage"] == "action"
    assert {"queen", "male"} <= set(p1["burrow"]) and d["seat"][1]["queen"] == 9
    return d


def test_every_element_round_trips_with_identical_advice(table, tmp_path):
    pos = load_position(table)
    path = tmp_path / "p.toml"
    path.write_text(pos.to_toml())
    again = load_position(path)
    assert again.document() == pos.document() and again.to_toml() == pos.to_toml()
    assert "reserve 2, pups 3, lost 1" in again.text() and "burrow queen/male" in again.text()
    for objective in ("margin", "points"):
        pd.testing.assert_frame_equal(advise(again, objective=objective), advise(pos, objective=objective))


def test_the_cli_round_trip(table, tmp_path, capsys):
    src, dumped = tmp_path / "in.toml", tmp_path / "out.toml"
    src.write_text(load_position(table).to_toml())
    assert main(["meerkat", "advise", "--position", str(src), "--dump-position", str(dumped)]) == 0
    first = capsys.readouterr().out
    assert dumped.read_text() == src.read_text()
    assert main(["meerkat", "advise", "--position", str(dumped)]) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] == first.split("\n", 1)[1]


def _with(table, **seat) -> pd.DataFrame:
    d = copy.deepcopy(table)
    me = d["seat"][d["to_move"] - 1]
    paid = sum(seat.get(k, me[k]) - me[k] for k in ("reserve",)) + len(seat.get("burrow", me["burrow"])) \
        - len(me["burrow"])
    me.update(seat, supply=me["supply"] - paid)
    return advise(load_position(d))


def test_pups_change_the_advice(table):
    """Pups score pups x guardians in reserve at the end: with 1 pup the guardian is third (3 points), with 4 pups
    it is worth 6 and best."""
    one, four = _with(table, pups=1), _with(table, pups=4)
    assert one["option"].iloc[0] != "guardian" and four["option"].iloc[0] == "guardian"
    assert four.set_index("option").loc["guardian", "value"] - one.set_index("option").loc["guardian", "value"] \
        == pytest.approx(3.0)


def test_burrow_spaces_change_the_advice_through_the_supply(table):
    """A meerkat on a burrow space has left the supply (the seat runs out, and takes a bonus token, sooner): the
    more spaces taken, the higher the value.  Which spaces are taken does not change the evaluation (expectimax_v2
    values the meerkats left, not the burrow actions still free: the action after the main one is the policy's)."""
    none, one, every = (_with(table, burrow=b) for b in ([], ["male"], ["move", "queen", "swap", "oasis", "male"]))
    assert none["value"].iloc[0] < one["value"].iloc[0] < every["value"].iloc[0]
    other = _with(table, burrow=["oasis"])
    pd.testing.assert_frame_equal(other.drop(columns=["then", "why"]), one.drop(columns=["then", "why"]))
