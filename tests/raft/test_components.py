"""Components are data: the packaged TOML is complete, documented and validated."""

import re
import tomllib
from collections import Counter

import numpy as np
import pytest

from pyradice_lab.raft.components import (
    DATA_DIR,
    default_components,
    load_components,
    parse_gems,
    rule_points,
)


def _walk_sources(table, path=""):
    """Every TOML table that holds plain values must carry a source marker."""
    bad = []
    values = {k: v for k, v in table.items() if not isinstance(v, (dict, list))}
    markers = [k for k in table if k.endswith("source")]
    if values and not markers:
        bad.append(path or "<root>")
    for k in markers:
        if table[k] not in ("rules", "reconstruction"):
            bad.append(f"{path}.{k}={table[k]!r}")
    for k, v in table.items():
        if isinstance(v, dict) and not k == "depth" and not k == "slots":
            bad += _walk_sources(v, f"{path}.{k}")
        if isinstance(v, list) and v and isinstance(v[0], dict):
            for i, item in enumerate(v):
                bad += _walk_sources(item, f"{path}.{k}[{i}]")
    return bad


@pytest.mark.parametrize("name", ["gems.toml", "lifeboats.toml", "raft.toml", "tilt.toml"])
def test_every_value_is_marked_rules_or_reconstruction(name):
    with open(DATA_DIR / name, "rb") as fh:
        data = tomllib.load(fh)
    assert _walk_sources(data) == []


def test_counts_from_the_rules():
    comp = default_components()
    assert comp.gems.total == 27 and sum(comp.gems.counts) == 27
    assert comp.gems.colours == ("red", "yellow", "blue", "black") and comp.gems.wild == "black"
    assert len(comp.deck) == 39
    assert dict(comp.rules.flag_depth) == {2: 10, 3: 15, 4: 20}
    assert comp.rules.water_tokens == 16 and comp.rules.sink_at == 2 and comp.rules.boats == 2
    for p in (2, 3, 4):
        used = comp.gems.in_play(p)
        assert (used <= np.array(comp.gems.counts)).all()
    assert comp.gems.in_play(4).sum() == 27


def test_deck_follows_its_documented_design_rule_and_is_colour_symmetric():
    comp = default_components()
    slots, points = comp.deck_arrays()
    assert all(c.points == rule_points(c.slots) for c in comp.deck)
    assert (slots.sum(axis=0) == slots.sum(axis=0)[0]).all()       # no colour favoured
    assert Counter(int(s) for s in slots.sum(axis=1)) == {2: 12, 3: 12, 4: 15}
    assert int(points.sum()) == 126
    assert len({c.id for c in comp.deck}) == 39


def test_every_edge_has_an_opening_and_a_finger_space():
    raft = default_components().raft
    for edge in ("north", "east", "south", "west"):
        assert max(raft.openings[edge]) > 0
        assert len(raft.fingers[edge]) >= 1


def _write(tmp_path, text):
    p = tmp_path / "boats.toml"
    p.write_text(text)
    return p


LIFEBOATS = (DATA_DIR / "lifeboats.toml").read_text()
#: a designer's whole deck: [[card]] entries merge by id unless the file says it replaces the deck
WHOLE_DECK = "[replace]\ncard = true\n\n" + LIFEBOATS
CARD1 = 'id = 1\nname = "RR"\nslots = { red = 2 }\npoints = 2\nsource = "reconstruction"'


@pytest.mark.parametrize(("change", "needle"), [
    (("points = 2", "points = 0"), "card.1.points: 0 is out of range (allowed: an integer in 1..99)"),
    (("points = 2\n", ""), "card.1.points: missing"),
    (("red = 2", "red = -1"), "card.1.slots.red: -1 is out of range"),
    (("red = 2", "green = 2"), "card.1.slots.green: unknown slot colour"),
    (('points = 2\nsource = "reconstruction"', 'points = 2\nsource = "guess"'), "card.1.source: 'guess' is not allowed"),
    (("id = 1", 'id = "one"'), "card[0].id: expected an integer"),
    (("slots = { red = 2 }", "slots = { red = 0 }"), "card.1.slots: holds no slot"),
])
def test_malformed_card_toml_names_the_bad_value(tmp_path, change, needle):
    assert CARD1 in LIFEBOATS
    good = CARD1.replace(*change, 1)
    assert good != CARD1
    path = _write(tmp_path, WHOLE_DECK.replace(CARD1, good, 1))
    with pytest.raises(ValueError, match=re.escape(f"{path}: {needle}")):
        load_components(lifeboats=path)


def test_deck_count_duplicate_card_ids_and_invalid_toml(tmp_path):
    with pytest.raises(ValueError, match=re.escape("deck.count: is 40 but there are 39 [[card]] entries")):
        load_components(lifeboats=_write(tmp_path, LIFEBOATS.replace("count = 39", "count = 40")))
    with pytest.raises(ValueError, match=r"card\[1\]\.id: 1 appears twice"):
        load_components(lifeboats=_write(tmp_path, WHOLE_DECK.replace("id = 2\n", "id = 1\n", 1)))
    with pytest.raises(ValueError, match=r"boats\.toml: line 1, column 7: not valid TOML"):
        load_components(lifeboats=_write(tmp_path, "[[card]\nid ="))


def test_gem_counts_not_summing_to_the_total_are_rejected():
    with open(DATA_DIR / "gems.toml", "rb") as fh:
        data = tomllib.load(fh)
    parse_gems(data)
    data["gems"]["counts"]["black"] = 4
    with pytest.raises(ValueError, match=r"gems\.counts: sum to 28 \(allowed: counts that sum to gems\.total = 27\)"):
        parse_gems(data)
    data["gems"]["counts"]["black"] = 3
    data["gems"]["in_play"]["2"]["red"] = 9
    with pytest.raises(ValueError, match=r"gems\.in_play\.2\.red: 9 exceeds the 8 red gems"):
        parse_gems(data)


def test_bad_raft_file(tmp_path):
    text = (DATA_DIR / "raft.toml").read_text()
    with pytest.raises(ValueError, match=r"edges\.north\.openings: has 2 items"):
        load_components(raft=_write(tmp_path, text.replace("openings = [0.0, 1.0, 0.0]", "openings = [0.0, 2.0]")))
    with pytest.raises(ValueError, match=r"edges\.north\.openings\[1\]: 2\.0 is out of range"):
        load_components(raft=_write(tmp_path, text.replace("openings = [0.0, 1.0, 0.0]", "openings = [0.0, 2.0, 0]")))
    with pytest.raises(ValueError, match=r"flag\.depth\.4: 40 is deeper than the 31 cards left"):
        load_components(raft=_write(tmp_path, text.replace("4 = 20", "4 = 40")))


def test_card_entries_merge_by_id_and_replace_needs_saying(tmp_path):
    """One rule in every game (issue 30): keyed entries merge by key; [replace] card = true replaces the deck."""
    two = tmp_path / "two.toml"
    two.write_text("[[card]]\nid = 1\npoints = 4\n\n[[card]]\nid = 2\npoints = 4\n")
    comp = load_components(two)
    packaged = load_components()
    assert len(comp.deck) == len(packaged.deck) == 39
    assert [c.points for c in comp.deck[:3]] == [4, 4, packaged.deck[2].points]
    assert comp.deck[0].slots == packaged.deck[0].slots  # the rest of card 1 is the packaged card's
    new = tmp_path / "new.toml"
    new.write_text("[[card]]\nid = 99\nslots = { red = 2 }\npoints = 3\n")
    with pytest.raises(ValueError, match=re.escape(
            "deck.count: is 39 but there are 40 [[card]] entries ([[card]]: your 1 entries merge into the packaged 39 "
            "by 'id' (1 new: 99), 40 in all; to replace the packaged list whole add [replace] card = true)")):
        load_components(new)
    new.write_text("[deck]\ncount = 40\n\n[[card]]\nid = 99\nslots = { red = 2 }\npoints = 3\n")
    assert len(load_components(new).deck) == 40
    whole = tmp_path / "whole.toml"
    whole.write_text("[replace]\ncard = true\n\n" + "".join(
        f"[[card]]\nid = {i}\nslots = {{ red = 1, blue = 1 }}\npoints = 2\n\n" for i in range(101, 140)))
    assert [c.id for c in load_components(whole).deck] == list(range(101, 140))  # none of the packaged cards
    twice = tmp_path / "twice.toml"
    twice.write_text("[[card]]\nid = 1\npoints = 4\n\n[[card]]\nid = 1\npoints = 5\n")
    with pytest.raises(ValueError, match=r"card\.1: id 1 appears twice in the file's entries"):
        load_components(twice)
