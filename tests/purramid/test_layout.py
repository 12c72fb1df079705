"""Board layouts: geometry, validation, the default sides' facts."""

import pytest

from pyradice_lab.purramid.components import (
    DATA_DIR,
    Layout,
    LayoutError,
    default_layout_facts,
    load_game_config,
    load_layout,
)


def test_geometry_of_a_small_layout():
    # widths 4, 3, 2: the "10" spans [1, 3] in row 0; row 1 starts at 0.5
    L = Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]], name="t")
    assert L.spaces == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1))
    assert L.capacity == 1 + 2 + 1 + 1 + 1 + 1 + 3 + 1
    assert L.below((1, 0)) == [(0, 0), (0, 1)]      # [0.5,1.5] over [0,1] and [1,3]
    assert L.below((1, 1)) == [(0, 1)]              # [1.5,2.5] only over the 10
    assert L.below((1, 2)) == [(0, 1), (0, 2)]      # [2.5,3.5]
    assert L.below((2, 0)) == [(1, 0), (1, 1)]      # [1,2]
    assert L.above((0, 1)) == [(1, 0), (1, 1), (1, 2)]
    assert L.adjacent((0, 1)) == [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert L.tiles((0, 1)) == 2 and L.tiles((2, 0)) == 3 and L.number((1, 0)) == 8
    assert L.below((0, 0)) == []


@pytest.mark.parametrize("side", ["A", "B"])
def test_adjacency_is_symmetric_and_below_is_adjacent(side):
    L = load_layout(side)
    for s in L.spaces:
        for t in L.adjacent(s):
            assert s in L.adjacent(t)
        for t in L.below(s):
            assert t in L.adjacent(s) and s in L.above(t)
            assert t[0] == s[0] - 1


@pytest.mark.parametrize("side", ["A", "B"])
def test_default_sides_respect_the_rules_facts(side):
    L = load_layout(side)
    facts = default_layout_facts(L)
    assert all(facts.values()), facts
    assert L.n_rows == 11 and [sum(2 if v == 10 else 1 for v in r) for r in L.rows] == list(range(11, 0, -1))
    assert L.source == "reconstruction"


def test_sides_differ_in_arrangement():
    assert load_layout("A").rows != load_layout("B").rows


def test_load_layout_by_path_and_name():
    assert load_layout(DATA_DIR / "side_a.toml").rows == load_layout("a").rows
    L = load_layout("A")
    assert load_layout(L) is L


@pytest.mark.parametrize("rows, words", [
    ([], "at least one row"),
    ([[1, 2], []], "row 1 is empty"),
    ([[1, 2, 3], [4, 5, 6]], "row 1 is 3 units wide"),
    ([[1, 2, 3], [10, 5]], "row 1 is 3 units wide"),
    ([[1, 31, 3]], "row 0, space 1: number 31"),
    ([[1, 0, 3]], "row 0, space 1: number 0"),
    ([[1, 12, 3], [4, 5]], "row 0, space 1: a \"12\""),
    ([[1, 2, 3], [12, 5]], "row 1, space 0: a \"12\""),
    ([[8] * 13], "only 12 yarn tokens"),
    ([[1, 2.5]], "row 0, space 1: numbers must be integers"),
])
def test_invalid_layouts_name_the_row_and_reason(rows, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")) as exc:
        Layout.from_rows(rows)
    assert isinstance(exc.value, LayoutError)


def test_unknown_space_names_the_parameter():
    L = load_layout("A")
    with pytest.raises(ValueError, match="space"):
        L.number((11, 0))
    with pytest.raises(ValueError, match="covered"):
        L.mask_of([(0, 42)], "covered")


def test_bad_toml(tmp_path):
    p = tmp_path / "x.toml"
    p.write_text('name = "x"\n[rows]\nsource = "guess"\nvalue = [[1, 2]]\n')
    with pytest.raises(ValueError, match="rows.source"):
        Layout.from_toml(p)
    with pytest.raises(ValueError, match="does not exist"):
        load_layout(tmp_path / "missing.toml")
    with pytest.raises(ValueError, match="layout"):
        load_layout("C")


def test_game_config_deals_conserve_tiles():
    cfg = load_game_config()
    assert cfg.deal_for(4) == (19, 18, 18, 17) and cfg.deal_for(3) == (25, 24, 23) and cfg.deal_for(2) == (26, 25)
    assert all(src in ("rules", "reconstruction") for src in cfg.sources.values())
    with pytest.raises(ValueError, match="players"):
        cfg.deal_for(5)
