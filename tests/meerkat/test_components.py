"""Components are data: the packaged TOML loads, is validated, and the reconstruction reasoning holds."""

import tomllib

import pytest

from pyradice_lab.meerkat import default_components, load_components, placement_odds
from pyradice_lab.meerkat.components import DATA_FILE, TILES


def test_defaults_load_with_sources():
    comp = default_components()
    assert [t.number for t in comp.tiles] == list(TILES)
    assert comp.tile(6).values == (6, 3) and comp.tile(6).source == "rules"
    assert all(len(comp.tile(t).values) == (2 if t <= 8 else 3) for t in TILES)
    assert comp.meerkats == 20 and comp.max_guardians == 4 and comp.max_pups == 4
    assert comp.oasis_tiles == (3, 4, 6, 8) and comp.male_start_tile == 7
    assert comp.bonus_tokens(2) == (9,) and comp.bonus_tokens(3) == (9, 6) and comp.bonus_tokens(4) == (9, 6, 3)
    sources = dict(comp.sources)
    assert set(sources.values()) <= {"rules", "reconstruction"}
    assert sources["tile 6"] == "rules" and sources["tile 7"] == "reconstruction"
    table = comp.source_table()
    assert {"component", "value", "source"} <= set(table.columns) and len(table) == len(comp.sources)
    assert not table["value"].str.contains("None").any()  # every file key finds its value (report defect)
    assert table.set_index("component").loc["automa die faces", "value"] == ", ".join(comp.automa_faces)


def test_every_toml_value_is_marked():
    with open(DATA_FILE, "rb") as fh:
        doc = tomllib.load(fh)
    for section in ("pieces", "dice", "layout", "automa", "bonus"):
        for key, entry in doc[section].items():
            assert entry["source"] in ("rules", "reconstruction"), (section, key)
    for key in ("tile", "blue", "brown"):
        assert all(e["source"] in ("rules", "reconstruction") for e in doc[key])


def test_layout_adjacency_is_symmetric_and_connected():
    adj = default_components().position_adjacency()
    assert (adj == adj.T).all() and not adj.diagonal().any()
    assert 2 <= adj.sum(axis=1).min() and adj.sum(axis=1).max() <= 6


def test_high_values_follow_placement_odds():
    """The documented reconstruction: the harder a tile is to reach, the higher (never lower) its value."""
    comp = default_components()
    order = sorted(TILES, key=lambda t: placement_odds(t, 1))  # hardest first
    highs = [comp.tile(t).values[0] for t in order]
    assert highs == sorted(highs, reverse=True)


def test_packaged_values_follow_the_documented_rule():
    """data/components.toml says: high = round(6 p(6)/p(t)), low = high // 2 (3..8), mid/low = high/2, high/4."""
    from pyradice_lab.meerkat.analysis import values_for_exponent

    rule = values_for_exponent(1.0)
    assert [rule.tile(t).values for t in TILES] == [default_components().tile(t).values for t in TILES]
    assert all(values_for_exponent(b).tile(6).values == (6, 3) for b in (0.0, 0.5, 2.0))


def test_bad_components_file(tmp_path):
    text = DATA_FILE.read_text().replace("values = [6, 3]", "values = [3, 6]")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(ValueError, match=r"bad\.toml: tile\.6\.values: \[3, 6\] is not highest first"):
        load_components(bad)
    bad.write_text(DATA_FILE.read_text().replace('source = "rules" }\nqueens', 'source = "guess" }\nqueens'))
    with pytest.raises(ValueError, match=r"pieces\.meerkats\.source: 'guess' is not allowed"):
        load_components(bad)
    with pytest.raises(ValueError, match="seats"):
        default_components().bonus_tokens(5)
