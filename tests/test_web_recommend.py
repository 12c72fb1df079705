"""The one recommendation the page shows (engine/recommend.py and each game's ``Desk.describe``): the sentence,
options in the board's words numbered from 1, identical options merged, every option valued or "not searched"."""

from __future__ import annotations

import re

import pytest

from pyradice_lab.engine.recommend import recommendation
from pyradice_lab.web import build_desks


def test_the_sentence_names_the_best_its_value_why_and_the_runner_up():
    rec = recommendation([{"label": "stop now", "value": 0.62, "detail": "banks 3 tiles"},
                          {"label": "roll on", "value": 0.5, "extra": "40% chance of a burst"},
                          {"label": "reroll", "value": None}], value_name="chance of at least 3 tiles", percent=True)
    assert rec["headline"] == ("Best: stop now — 62.0% chance of at least 3 tiles: banks 3 tiles. Runner-up: roll on, "
                               "12.0 percentage points less (50.0%).")
    assert "".join(p["text"] for p in rec["parts"]) == rec["headline"]
    assert [o["value_text"] for o in rec["options"]] == ["62.0%", "50.0%", "not searched"]
    assert [o["diff_text"] for o in rec["options"]] == ["best", "12.0 percentage points less", "not searched"]
    assert rec["not_searched"] == 1 and rec["merged"] == 0
    assert recommendation([{"label": "a", "value": 1.0}], value_name="v")["headline"].endswith("the only option.")
    with pytest.raises(ValueError, match="value_name"):
        recommendation([], value_name="")


def test_options_alike_are_merged_only_with_the_same_value():
    rows = [{"label": f"put it on space {k}", "group": "put it on space {}", "variant": k, "value": 2.0} for k in
            (1, 2, 3, 5)]
    rows.insert(2, {"label": "put it on space 4", "group": "put it on space {}", "variant": 4, "value": 1.0})
    rows.append({"label": "x", "group": "other {}", "variant": "a", "value": None})        # no value, no tie
    rows.append({"label": "y", "group": "other {}", "variant": "b", "value": None})
    rec = recommendation(rows, value_name="points")
    labels = [o["label"] for o in rec["options"]]
    assert labels == ["put it on space 1–3 or 5", "put it on space 4", "x", "y"]
    assert rec["options"][0]["count"] == 4 and rec["merged"] == 3
    tied = recommendation([{**r, "tie": 1.5} for r in rows[-2:]], value_name="points")
    assert [o["label"] for o in tied["options"]] == ["other a or b"]
    runs = recommendation([{"label": "", "group": "s {}", "variant": k, "value": 1.0} for k in (1, 2, 3, 4, 6)],
                          value_name="v")
    assert runs["options"][0]["label"] == "s 1–4 or 6"


@pytest.fixture(scope="module")
def desks():
    return build_desks("A")


def test_purramid_names_spaces_as_on_the_board(desks):
    desk = desks["purramid"]
    answer = {"objective": "tiles", "burst_odds": {"dice": 3}, "options": [
        {"action": "place 1+4+5 on 0,5 (10)", "space": [0, 5], "number": 10, "dice": [1, 4, 5], "value": 4.8,
         "burst_probability": 0.23, "then": "continue"},
        {"action": "place 2+3+5 on 0,5 (10)", "space": [0, 5], "number": 10, "dice": [2, 3, 5], "value": 4.8,
         "burst_probability": 0.23, "then": "continue"},
        {"action": "place 2 on 1,0 (2)", "space": [1, 0], "number": 2, "dice": [2], "value": 4.5,
         "burst_probability": 0.3, "then": "stop"},
        {"action": "stop", "space": None, "number": None, "dice": [], "value": 1.0, "burst_probability": 0.0}]}
    rec = desk.recommend(answer)
    assert [o["label"] for o in rec["options"]] == [
        "put 1+4+5 or 2+3+5 on the 10 (bottom row, 6th from the left), then roll on",
        "put 2 on the 2 (row 2 from the bottom, 1st from the left), then stop", "stop now"]
    assert rec["headline"].startswith("Best: put 1+4+5 or 2+3+5 on the 10 (bottom row, 6th from the left), then "
                                      "roll on — 4.80 expected tiles this turn: 23% chance the turn ends in a burst.")
    chance = desk.recommend({**answer, "objective": "P(at least 3 tiles)"})
    assert chance["value_name"] == "chance of at least 3 tiles" and chance["percent"]


def test_pyradice_options_are_dice_and_spaces_not_tuples_and_symmetric_moves_merge(desks):
    desk = desks["pyradice"]
    layout = desk.layout({})
    answer = desk.advise({"position": layout["position"], "samples": 16, "candidates": 4})
    rec = desk.recommend(answer)
    labels = [o["label"] for o in rec["options"]]
    assert not any(re.search(r"\(\d+, \d+, \d+\)|L\d\.\d", x) for x in labels), labels
    assert all(x.startswith("take the ") and " layer, row " in x for x in labels)
    assert len(labels) < len(answer["options"]) and rec["merged"] == len(answer["options"]) - len(labels)
    assert all(o["value_text"] for o in rec["options"])
    searched = sum(1 for o in answer["options"] if o["value"] is not None)
    assert rec["not_searched"] == sum(1 for o in rec["options"] if o["value_text"] == "not searched") > 0
    assert sum(o["count"] for o in rec["options"] if o["value"] is not None) == searched


def test_raft_hold_times_alike_merge_and_the_table_shrinks(desks):
    desk = desks["raft"]
    answer = desk.advise({"position": desk.layout({})["position"]})
    rec = desk.recommend(answer)
    assert len(answer["options"]) == 110 and len(rec["options"]) <= 110
    best = answer["best"]
    assert rec["options"][0]["label"].startswith(f"tilt the raft at the {best['edge']} edge, {best['finger']} finger")
    assert rec["headline"].startswith("Best: tilt the raft") and "expected points" in rec["headline"]


def test_meerkat_actions_name_the_tile_and_the_meerkats(desks):
    desk = desks["meerkat"]
    answer = desk.advise({"position": desk.layout({"stage": "action"})["position"]})
    labels = [o["label"] for o in desk.recommend(answer)["options"]]
    for o, label in zip(answer["options"], labels):
        if o.get("tile") is not None:
            assert label.endswith(f"on tile {o['tile']}")
            assert ("queen" in label) == (o["meerkats"] < 0)


def test_a_pyradice_goal_token_changes_the_advice(desks):
    """The goal tokens on the table decide the move: the level-1 goal C5 instead of C6 (the seeded deal's) makes
    the advisor take another die (the page edits ``setup.goals``; the catalogue it offers is the layout's)."""
    desk = desks["pyradice"]
    layout = desk.layout({})
    assert {g["code"] for g in layout["catalogue"]["goals"]} >= {"C5", "C6"}
    assert len(layout["catalogue"]["cards"]) >= 4 and layout["catalogue"]["skills"]
    base = layout["position"]
    other = {**base, "setup": {**base["setup"], "goals": ["C5", *base["setup"]["goals"][1:]]}}
    assert base["setup"]["goals"][0] == "C6"
    ask = {"samples": 16, "candidates": 4}
    before = desk.recommend(desk.advise({"position": base, **ask}))
    after = desk.recommend(desk.advise({"position": other, **ask}))
    assert before["options"][0]["label"] != after["options"][0]["label"], before["headline"]
    assert before["options"][0]["label"].startswith("take the yellow 2")
    assert after["options"][0]["label"].startswith("take the yellow 1")


def test_a_purramid_opponents_hand_near_the_end_changes_the_advice(desks):
    """With the race (every player's tiles in hand, as the page sends it with objective "auto"): an opponent about
    to finish (2 tiles left) makes the player go for all 3 of their tiles now; with 30 left, expected tiles."""
    desk = desks["purramid"]
    body = {"layout": "A", "roll": [6, 2, 5, 1, 3], "objective": "auto"}
    near = desk.advise({**body, "race": {"hands": [3, 2], "seat": 0}})
    far = desk.advise({**body, "race": {"hands": [3, 30], "seat": 0}})
    assert near["race"]["objective"] == "at_least:3" and "player 2 has 2 tiles left" in near["race"]["reason"]
    assert far["race"]["objective"] == "tiles"
    rec_near, rec_far = desk.recommend(near), desk.recommend(far)
    assert "chance of at least 3 tiles" in rec_near["headline"] and "%" in rec_near["headline"]
    assert "expected tiles this turn" in rec_far["headline"]
    assert [o["label"] for o in rec_near["options"][:3]] != [o["label"] for o in rec_far["options"][:3]]
    with pytest.raises(ValueError, match="race is read with objective 'auto'"):
        desk.advise({**body, "objective": "tiles", "race": {"hands": [3, 2], "seat": 0}})
    with pytest.raises(ValueError, match="race"):
        desk.advise({**body, "race": {"hands": [3], "seat": 0}})


def test_a_meerkat_oasis_token_changes_the_advice(desks):
    """The oasis tokens on the tiles (the page sets them by clicking a tile): "tan +3" instead of "blue move" on
    tile 8 makes the queen go to tile 8 rather than 9 (seed 1, turn 1, the action after the reroll)."""
    desk = desks["meerkat"]
    base = desk.layout({"stage": "action"})["position"]
    assert base["tokens"]["8"] == "blue move"
    other = {**base, "tokens": {**base["tokens"], "8": "tan +3"}}
    before, after = (desk.recommend(desk.advise({"position": p})) for p in (base, other))
    assert before["options"][0]["label"] == "put the queen on tile 9"
    assert after["options"][0]["label"] == "put the queen on tile 8"


def test_a_raft_lifeboat_card_and_the_timing_change_the_advice(desks):
    """The lifeboat cards in front of the mover (their points and slots) and the mover's timing noise decide the
    tilt: card #30 (R-YYY, 5 points) instead of #16 (RR-Y, 3) turns the tilt to the west edge's left finger space
    for 4 s; a shakier hand (timing noise 0.8) holds the same space for 2 s instead of 2.5 s."""
    desk = desks["raft"]
    base = desk.layout({})["position"]
    assert base["seat"][1]["boats"][0]["card"] == 16          # the second seat's: the one to tilt
    seats = [dict(x) for x in base["seat"]]
    seats[1] = {**seats[1], "boats": [{"card": 30, "filled": "-"}, *seats[1]["boats"][1:]]}
    top = [desk.recommend(desk.advise({"position": p}))["options"][0]["label"]
           for p in (base, {**base, "seat": seats}, {**base, "skill": 0.8})]
    assert top[0] == "tilt the raft at the west edge, right finger space, for 2.5 s"
    assert top[1] == "tilt the raft at the west edge, left finger space, for 4 s"
    assert top[2].startswith("tilt the raft at the west edge, right finger space, for 2 ")


def test_the_pages_scripts_parse():
    """Every script of the page is valid JavaScript (``node --check``; skipped without node): a syntax error
    leaves the page blank, which only the slow browser tests would see otherwise."""
    import shutil
    import subprocess
    from importlib import resources

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    static = resources.files("pyradice_lab.web").joinpath("static")
    scripts = sorted(p for p in static.iterdir() if p.name.endswith(".js"))
    assert {p.name for p in scripts} >= {"advisor.js", "recommend.js", "tables.js"}
    for path in scripts:
        run = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, f"{path.name}: {run.stderr.strip()[:500]}"
