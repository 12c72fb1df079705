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
    parse_lifeboats,
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


GOOD_CARD = '[deck]\ncount = 1\ncount_source = "rules"\ncards_source = "reconstruction"\n' \
            '[[card]]\nid = 1\nslots = { red = 2 }\npoints = 2\nsource = "reconstruction"\n'


@pytest.mark.parametrize(("change", "needle"), [
    (("points = 2", "points = 0"), "card[0].points"),
    (("points = 2\n", ""), "card[0].points"),
    (("red = 2", "red = -1"), "card[0].slots.red"),
    (("red = 2", "green = 2"), "card[0].slots has unknown colours"),
    (("count = 1", "count = 2"), "deck.count"),
    (('points = 2\nsource = "reconstruction"', 'points = 2\nsource = "guess"'), "card[0].source"),
    (("id = 1", 'id = "one"'), "card[0].id"),
    (("slots = { red = 2 }", "slots = { red = 0 }"), "card[0].slots"),
])
def test_malformed_card_toml_names_the_bad_value(tmp_path, change, needle):
    parse_lifeboats(tomllib.loads(GOOD_CARD))  # the unmodified file is fine
    bad = GOOD_CARD.replace(*change, 1)
    assert bad != GOOD_CARD
    with pytest.raises(ValueError, match=re.escape(needle)):
        load_components(lifeboats=_write(tmp_path, bad))


def test_duplicate_card_ids_and_invalid_toml(tmp_path):
    two = GOOD_CARD.replace("count = 1", "count = 2") + \
        '[[card]]\nid = 1\nslots = { blue = 1 }\npoints = 1\nsource = "reconstruction"\n'
    with pytest.raises(ValueError, match=r"card\[1\]\.id = 1 is a duplicate"):
        parse_lifeboats(tomllib.loads(two))
    with pytest.raises(ValueError, match="not valid TOML"):
        load_components(lifeboats=_write(tmp_path, "[[card]\nid ="))


def test_gem_counts_not_summing_to_the_total_are_rejected():
    with open(DATA_DIR / "gems.toml", "rb") as fh:
        data = tomllib.load(fh)
    parse_gems(data)
    data["gems"]["counts"]["black"] = 4
    with pytest.raises(ValueError, match=r"gems\.counts must sum to gems\.total = 27"):
        parse_gems(data)
    data["gems"]["counts"]["black"] = 3
    data["players"]["2"]["red"] = 9
    with pytest.raises(ValueError, match=r"players\.2\.red = 9 exceeds"):
        parse_gems(data)


def test_bad_raft_file(tmp_path):
    text = (DATA_DIR / "raft.toml").read_text()
    with pytest.raises(ValueError, match=r"edges\.north\.openings"):
        load_components(raft=_write(tmp_path, text.replace("openings = [0.0, 1.0, 0.0]", "openings = [0.0, 2.0]")))
    with pytest.raises(ValueError, match=r"flag\.depth\.4 = 40 is deeper"):
        load_components(raft=_write(tmp_path, text.replace("4 = 20", "4 = 40")))
