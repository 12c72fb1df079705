"""The exact advisor against a brute-force expectimax (tests/purramid/oracle.py) on small layouts."""

import importlib.util
from pathlib import Path

import pytest

from pyradice_lab.purramid import advisor
from pyradice_lab.purramid.components import Layout

_spec = importlib.util.spec_from_file_location("purramid_oracle", Path(__file__).with_name("oracle.py"))
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

SMALL = {
    "L1": Layout.from_rows([[1, 2, 3], [4, 5], [6]], name="L1"),               # 3 rows: bonus by levels
    "L2": Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]], name="L2"),       # 10, 12 and a yarn 8
    "L3": Layout.from_rows([[3, 8, 2, 5], [6, 1, 4], [7, 9]], name="L3"),      # 8 on the bottom row
    "L4": Layout.from_rows([[4, 6, 1, 3, 2], [8, 5, 10], [9, 7, 11], [12, 6]], name="L4"),
}


def solver(L, objective="tiles", yarn_value=0.25, bonus="exact"):
    return advisor.TurnSolver(L, advisor.parse_objective(objective), yarn_value, bonus)


@pytest.mark.parametrize("name", ["L1", "L2", "L3"])
@pytest.mark.parametrize("D, y", [(3, 0), (4, 0), (4, 1), (5, 0)])
def test_fresh_turn_value_equals_brute_force(name, D, y):
    L = SMALL[name]
    fresh, _, _, _ = oracle.make_oracle(L, "tiles", 0.25)
    assert solver(L).fresh(0, D, y)[0] == pytest.approx(fresh(frozenset(), D, y, 0), abs=1e-9)


def test_bigger_layout_with_covered_spaces_and_two_tokens():
    L = SMALL["L4"]
    cov = L.mask_of([(0, 0), (0, 1)])
    fresh, _, _, _ = oracle.make_oracle(L, "tiles", 0.5)
    assert solver(L, yarn_value=0.5).fresh(cov, 4, 2)[0] == pytest.approx(
        fresh(frozenset(L.spaces_of(cov)), 4, 2, 0), abs=1e-9)


@pytest.mark.parametrize("name, k", [("L1", 2), ("L2", 3), ("L3", 4), ("L2", 6)])
def test_at_least_objective_equals_brute_force(name, k):
    L = SMALL[name]
    fresh, _, _, _ = oracle.make_oracle(L, ("at_least", k))
    s = solver(L, ("at_least", k))
    for D, y in [(4, 0), (5, 1)]:
        assert s.fresh(0, D, y, k)[0] == pytest.approx(fresh(frozenset(), D, y, k), abs=1e-9)


@pytest.mark.parametrize("name", ["L1", "L2", "L3"])
def test_every_state_value_equals_brute_force(name):
    """Every reachable (placed, dice_left) state of a 4-dice turn, not just the root (a space showing n
    holds at least ceil(n / 6) dice, so dice_left <= 4 - dice_cost(placed))."""
    from pyradice_lab.purramid.board import dice_cost

    L = SMALL[name]
    _, after, _, _ = oracle.make_oracle(L, "tiles", 0.25)
    s = solver(L)
    D = 4
    checked = 0
    for P in range(1, 1 << L.n_spaces):
        n = dice_cost(L, P)
        if n > D:
            continue
        for d in range(0, D - n + 1):
            got = s.value(0, P, d, D, 1, 0)[0]
            want = after(frozenset(), frozenset(L.spaces_of(P)), d, D, 1, 0)
            assert got == pytest.approx(want, abs=1e-9), (L.spaces_of(P), d)
            checked += 1
    assert checked > 50


def test_advise_rows_equal_brute_force_values():
    L = SMALL["L2"]
    _, after, roll_value, _ = oracle.make_oracle(L, "tiles", 0.25)
    placed = [(0, 0)]
    df = advisor.advise(L, covered=[], placed=placed, dice_left=3, roll=[1, 4, 4], yarn=1, turn_dice=4,
                        yarn_value=0.25, bonus="exact")
    P = frozenset(placed)
    for _, row in df.iterrows():
        if row.action == "reroll":
            want = roll_value(frozenset(), P, 3, 4, 0, 0) - 0.25
        else:
            want = after(frozenset(), P | {row.space}, 3 - len(row.dice), 4, 1, 0)
        assert row.value == pytest.approx(want, abs=1e-9), row.action
    assert df["regret"].iloc[0] == 0 and (df["regret"] >= 0).all()
    assert list(df["value"]) == sorted(df["value"], reverse=True)
    # 8 = 4+4; 4 = 4 (on (1,2)); 10 = ... not reachable; 5 = 1+4 (on (2,1): unsupported, still legal)
    acts = set(df["action"])
    assert {"place 4+4 on 8 (row 2, col 1)", "place 4 on 4 (row 2, col 3)", "place 1+4 on 5 (row 3, col 2)", "reroll"} <= acts


def test_stop_continue_rows():
    L = SMALL["L3"]
    df = advisor.advise(L, placed=[(0, 0)], dice_left=2, turn_dice=3, bonus="exact",
                        yarn_value=0.25).set_index("action")
    assert set(df.index) == {"stop", "continue"}
    assert df.loc["stop", "value"] == pytest.approx(1.0) and df.loc["stop", "burst_probability"] == 0
    _, after, roll_value, stop = oracle.make_oracle(L, "tiles", 0.25)
    assert df.loc["continue", "value"] == pytest.approx(roll_value(frozenset(), frozenset([(0, 0)]), 2, 3, 0, 0),
                                                        abs=1e-9)


def test_bonus_modes_order_and_agree_without_bonus_chances():
    L = SMALL["L2"]
    ex = solver(L, bonus="exact").fresh(0, 4, 0)[0]
    no = solver(L, bonus="none").fresh(0, 4, 0)[0]
    ap = solver(L, bonus="approx").fresh(0, 4, 0)[0]
    assert no < ex and ap > no
    # with a single die there is no bonus turn: all modes agree
    vals = {m: solver(L, bonus=m).fresh(0, 1, 0)[0] for m in ("exact", "approx", "none")}
    assert len({round(v, 12) for v in vals.values()}) == 1


def test_burst_probability_is_a_probability_and_consistent():
    L = SMALL["L1"]
    s = solver(L)
    v, b = s.fresh(0, 5, 0)
    assert 0 < b < 1
    # stopping on a valid set never bursts; on an invalid one always does
    assert s.stop(0, L.mask_of([(0, 0)]), 4, 5, 0, 0) == (1.0, 0.0)       # 1 tile, no bonus, no burst
    assert s.stop(0, L.mask_of([(1, 0)]), 4, 5, 0, 0) == (0.0, 1.0)


def test_decision_table_is_consistent_with_values():
    L = SMALL["L2"]
    s = solver(L)
    kind, space, count = s.decision_table(0, 0, 4, 4, 1, 0)
    from pyradice_lab.purramid.chance import multisets, sub_multisets
    faces, w = multisets(4)
    total = 0.0
    for r, roll in enumerate(faces.tolist()):
        if kind[r] == 1:
            assert any(len(u) == count[r] for u in sub_multisets(roll, L.numbers[space[r]]))
            total += w[r] * s.value(0, 1 << int(space[r]), 4 - int(count[r]), 4, 1, 0)[0]
        elif kind[r] == 2:
            total += w[r] * s.reroll_value(0, 0, 4, 4, 1, 0)[0]
    assert total / 6 ** 4 == pytest.approx(s.fresh(0, 4, 1)[0], abs=1e-12)


@pytest.mark.parametrize("kwargs, name", [
    (dict(placed=[(9, 9)]), "placed"),
    (dict(covered=[(0, 0)], placed=[(0, 0)]), "placed"),
    (dict(covered=[(0, 99)]), "covered"),
    (dict(roll=[1, 2, 7, 1, 1]), "roll"),
    (dict(roll=[1, 2, 0, 1, 1]), "roll"),
    (dict(roll=[1, 2]), "roll"),
    (dict(dice_left=6), "dice_left"),
    (dict(dice_left=4, turn_dice=3, placed=[(0, 0)]), "dice_left"),
    (dict(placed=[(0, 0), (0, 1)], dice_left=4), "placed"),
    (dict(dice_left=3), "placed"),
    (dict(yarn=-1), "yarn"),
    (dict(turn_dice=0), "turn_dice"),
    (dict(objective=("at_least", 0)), "objective"),
    (dict(objective="score"), "objective"),
    (dict(yarn_value=-1.0), "yarn_value"),
    (dict(bonus="maybe"), "bonus"),
    (dict(layout="Z"), "layout"),
])
def test_bad_input_names_parameter(kwargs, name):
    kw = dict(layout="A")
    kw.update(kwargs)
    with pytest.raises(ValueError, match=name):
        advisor.advise(**kw)


def test_placement_options_cover_every_distinct_subset():
    df = advisor.advise("A", placed=[], dice_left=5, roll=[1, 1, 2, 3, 6])
    six = df[df["number"] == 6]
    # a "6" can take 6, 1+2+3 or 1+1+... no: 1+1+... sums: 6, 3+2+1, 1+2+3 (same), 1+1+... none
    per_space = six.groupby("space")["dice"].apply(lambda s: sorted(s))
    for dice_lists in per_space:
        assert sorted(dice_lists) == sorted([(6,), (1, 2, 3)])
    assert all(sum(d) == n for d, n in zip(df["dice"], df["number"]))


from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)


@st.composite
def small_layouts(draw):
    """Random valid layouts of 2-3 rows, 1-unit spaces, bottom row 2-4 wide, numbers 1..12."""
    w0 = draw(st.integers(2, 4))
    n_rows = draw(st.integers(2, min(3, w0)))
    rows = []
    for r in range(n_rows):
        pool = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11] + ([12] if r >= 2 else [])
        rows.append([draw(st.sampled_from(pool)) for _ in range(w0 - r)])
    return Layout.from_rows(rows, name="random")


@settings(max_examples=25)
@given(L=small_layouts(), D=st.integers(2, 4), y=st.integers(0, 1))
def test_random_layouts_match_brute_force(L, D, y):
    fresh, _, _, _ = oracle.make_oracle(L, "tiles", 0.5)
    assert solver(L, yarn_value=0.5).fresh(0, D, y)[0] == pytest.approx(fresh(frozenset(), D, y, 0), abs=1e-9)


@settings(max_examples=25)
@given(L=small_layouts(), D=st.integers(2, 4))
def test_more_tokens_and_bonus_turns_never_hurt(L, D):
    s = solver(L, yarn_value=0.0)
    v = [s.fresh(0, D, y)[0] for y in range(3)]
    assert v[0] <= v[1] + 1e-12 <= v[2] + 2e-12
    assert solver(L, yarn_value=0.0, bonus="none").fresh(0, D, 0)[0] <= v[0] + 1e-12
    # the at-least objective is a probability, non-increasing in k
    p = [solver(L, ("at_least", k)).fresh(0, D, 0, k)[0] for k in (1, 2, 3)]
    assert all(0 <= a <= 1 for a in p) and p[0] >= p[1] - 1e-12 >= p[2] - 2e-12
