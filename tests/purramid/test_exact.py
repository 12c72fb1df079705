"""The compiled exact solver (exact.py / solver.py) against the readable reference and the brute force."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pyradice_lab.purramid import advisor
from pyradice_lab.purramid.board import dice_cost
from pyradice_lab.purramid.components import Layout, load_layout
from pyradice_lab.purramid.solver import CompiledSolver

_spec = importlib.util.spec_from_file_location("purramid_oracle", Path(__file__).with_name("oracle.py"))
oracle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle)

SMALL = {
    "L1": Layout.from_rows([[1, 2, 3], [4, 5], [6]], name="L1"),
    "L2": Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]], name="L2"),
    "L3": Layout.from_rows([[3, 8, 2, 5], [6, 1, 4], [7, 9]], name="L3"),
    "L4": Layout.from_rows([[4, 6, 1, 3, 2], [8, 5, 10], [9, 7, 11], [12, 6]], name="L4"),
}


def pair(L, objective="tiles", yarn_value=0.25, bonus="exact", yarn_tokens=True):
    obj = advisor.parse_objective(objective)
    return (advisor.TurnSolver(L, obj, yarn_value, bonus, yarn_tokens),
            CompiledSolver(L, obj, yarn_value, bonus, yarn_tokens))


@pytest.mark.parametrize("name", ["L1", "L2", "L3"])
@pytest.mark.parametrize("D, y", [(3, 0), (4, 0), (4, 1), (5, 0), (5, 2)])
def test_fresh_value_equals_brute_force_and_reference(name, D, y):
    L = SMALL[name]
    fresh, _, _, _ = oracle.make_oracle(L, "tiles", 0.25)
    ref, comp = pair(L)
    want = fresh(frozenset(), D, y, 0)
    assert comp.fresh(0, D, y)[0] == pytest.approx(want, abs=1e-9)
    assert comp.fresh(0, D, y)[1] == pytest.approx(ref.fresh(0, D, y)[1], abs=1e-9)


@pytest.mark.parametrize("name", ["L1", "L2", "L3"])
def test_every_state_equals_reference(name):
    """Every reachable (placed, dice left) state: after-placement value, roll value, stop value, stop
    decision and the per-roll decision table."""
    L = SMALL[name]
    _, after, _, _ = oracle.make_oracle(L, "tiles", 0.25)
    ref, comp = pair(L)
    D = 4
    checked = 0
    for P in range(1, 1 << L.n_spaces):
        cost = dice_cost(L, P)
        if cost > D:
            continue
        for d in range(0, D - cost + 1):
            for y in (0, 1):
                got = comp.value(0, P, d, D, y, 0)
                want = ref.value(0, P, d, D, y, 0)
                assert got == pytest.approx(want, abs=1e-9), (L.spaces_of(P), d, y)
                assert comp.stop(0, P, d, D, y, 0) == pytest.approx(ref.stop(0, P, d, D, y, 0), abs=1e-12)
                if y == 1:
                    assert got[0] == pytest.approx(after(frozenset(), frozenset(L.spaces_of(P)), d, D, 1, 0),
                                                   abs=1e-9)
                if d > 0:
                    assert comp.roll_value(0, P, d, D, y, 0) == pytest.approx(ref.roll_value(0, P, d, D, y, 0),
                                                                             abs=1e-9)
                    assert comp.should_stop(0, P, d, D, y, 0) == ref.should_stop(0, P, d, D, y, 0)
                    for a, b in zip(comp.decision_table(0, P, d, D, y, 0), ref.decision_table(0, P, d, D, y, 0)):
                        assert np.array_equal(a, b), (L.spaces_of(P), d, y)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("name, k", [("L1", 2), ("L2", 3), ("L3", 4), ("L2", 6), ("L4", 5)])
def test_at_least_objective(name, k):
    L = SMALL[name]
    fresh, _, _, _ = oracle.make_oracle(L, ("at_least", k))
    ref, comp = pair(L, ("at_least", k))
    for D, y in [(4, 0), (5, 1)]:
        got = comp.fresh(0, D, y, k)
        assert got[0] == pytest.approx(fresh(frozenset(), D, y, k), abs=1e-9)
        assert got == pytest.approx(ref.fresh(0, D, y, k), abs=1e-9)


def test_bigger_layout_covered_spaces_tokens_and_every_bonus_mode():
    L = SMALL["L4"]
    cov = L.mask_of([(0, 0), (0, 1)])
    fresh, _, _, _ = oracle.make_oracle(L, "tiles", 0.5)
    for bonus in ("exact", "approx", "none", "auto"):
        ref, comp = pair(L, yarn_value=0.5, bonus=bonus)
        got = comp.fresh(cov, 5, 2)
        assert got == pytest.approx(ref.fresh(cov, 5, 2), abs=1e-9), bonus
        if bonus == "exact":
            assert got[0] == pytest.approx(fresh(frozenset(L.spaces_of(cov)), 5, 2, 0), abs=1e-9)
        assert comp.bonus_label(cov, 5) == ref.bonus_label(cov, 5)
        assert comp.valid_groups(cov, 5) == ref.valid_groups(cov, 5)


def test_yarn_switch_off_means_no_token_value():
    L = SMALL["L3"]            # an "8" on the bottom row
    ref, comp = pair(L, yarn_value=1.0, yarn_tokens=False)
    on_ref, on_comp = pair(L, yarn_value=1.0)
    assert comp.fresh(0, 5, 0) == pytest.approx(ref.fresh(0, 5, 0), abs=1e-9)
    assert comp.fresh(0, 5, 0)[0] < on_comp.fresh(0, 5, 0)[0] - 0.05
    assert on_comp.fresh(0, 5, 0) == pytest.approx(on_ref.fresh(0, 5, 0), abs=1e-9)


def test_side_a_positions_equal_reference_in_auto_mode():
    """Real boards (auto mode): a late and a mid-game board of side A, and the empty board's mode."""
    L = load_layout("A")
    ref, comp = pair(L, yarn_value=0.6, bonus="auto")
    for k in (7, 5):
        cov = L.bottom_rows_mask(k)
        assert comp.fresh(cov, 5, 1) == pytest.approx(ref.fresh(cov, 5, 1), abs=1e-9)
        assert comp.bonus_label(cov, 5) == ref.bonus_label(cov, 5) == "exact"
    assert comp.valid_groups(0, 5) == ref.valid_groups(0, 5) == 72
    assert comp.bonus_mode(0, 5) == ref.bonus_mode(0, 5) == "exact"   # 72 <= AUTO_EXACT_MAX_VALID


@pytest.mark.parametrize("auto_max", [6, 10, 20, 30])
def test_auto_mode_mixes_below_a_crowded_board_like_the_reference(auto_max):
    """With a low threshold the top segment is approx and nested bonus turns exact: the label says so."""
    L = SMALL["L4"]
    obj = advisor.parse_objective("tiles")
    ref = advisor.TurnSolver(L, obj, 0.25, "auto", auto_max=auto_max)
    comp = CompiledSolver(L, obj, 0.25, "auto", auto_max=auto_max)
    assert comp.fresh(0, 5, 1) == pytest.approx(ref.fresh(0, 5, 1), abs=1e-9)
    assert comp.modes_used(0, 5) == ref.modes_used(0, 5)
    assert comp.bonus_label(0, 5) == ref.bonus_label(0, 5)
    # L4 has 23 valid groups for 5 dice, 18 for 4, 13 for 3, 9 for 2
    want = {6: "approx", 10: "mixed", 20: "mixed", 30: "exact"}[auto_max]
    assert comp.bonus_label(0, 5) == want


def test_memo_survives_growth_and_clear():
    L = SMALL["L4"]
    _, comp = pair(L)
    from pyradice_lab.purramid import exact as E

    comp.mem = E.new_memory(L.n_spaces, hash_bits=4)      # forces the table to grow many times
    v = comp.fresh(0, 5, 1)
    assert comp.mem[0].shape[0] > 16 and comp.memo_size() > 100
    comp.clear()
    assert comp.memo_size() == 0 and comp.fresh(0, 5, 1) == v


@st.composite
def small_layouts(draw):
    w0 = draw(st.integers(2, 4))
    n_rows = draw(st.integers(2, min(3, w0)))
    rows = []
    for r in range(n_rows):
        pool = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11] + ([12] if r >= 2 else [])
        rows.append([draw(st.sampled_from(pool)) for _ in range(w0 - r)])
    return Layout.from_rows(rows, name="random")


@settings(max_examples=20, deadline=None)
@given(L=small_layouts(), D=st.integers(2, 5), y=st.integers(0, 2))
def test_random_layouts_match_brute_force(L, D, y):
    fresh, _, _, _ = oracle.make_oracle(L, "tiles", 0.5)
    _, comp = pair(L, yarn_value=0.5)
    assert comp.fresh(0, D, y)[0] == pytest.approx(fresh(frozenset(), D, y, 0), abs=1e-9)


@pytest.mark.parametrize("yv", [0.0, 0.35, 0.6, 1.0])
def test_a_one_die_turn_computed_directly_equals_the_frames(yv):
    """A 2-dice segment's bonus turn (1 die) is computed by ``_one_die_turn``, not solved by the frames: on many
    boards and token counts both give the same value, bit for bit (the frames still solve a 1-die turn that is
    the root, as at the table)."""
    from pyradice_lab.purramid import _exact_options as X, exact as E

    L = load_layout("A")
    sc = E.static_context(L, [(0, E.MODE_CODES["auto"], yv)])
    brd = sc[0]
    rng = np.random.default_rng(7)
    boards = [0, L.bottom_rows_mask(1), L.bottom_rows_mask(2), L.bottom_rows_mask(3)]
    boards += [int(sum(1 << s for s in range(L.n_spaces) if rng.random() < p)) for p in (0.2, 0.4, 0.6, 0.8, 0.95)
               for _ in range(3)]
    for cov in boards:
        for y in range(4):
            mem = E.new_memory(L.n_spaces)
            v, _, mem = E.solve(E.F_ROLL, cov, 0, 1, 1, y, 0, 0, sc, mem)
            assert X._one_die_turn(cov, y, yv, brd) == v, (cov, y)


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("mode", ["auto", "exact", "approx", "none"])
@pytest.mark.parametrize("yv", [0.0, 0.35, 1.0])
def test_a_two_dice_turn_computed_directly_equals_the_frames(side, mode, yv):
    """A 3-dice segment's bonus turn (2 dice) is computed by ``_two_dice_turn``, not solved by the frames: on many
    boards, token counts and bonus modes both give the same value and burst chance, bit for bit (the frames
    still solve a 2-dice turn that is the root, as at the table)."""
    from pyradice_lab.purramid import _exact_turns as X, exact as E

    L = load_layout(side)
    sc = E.static_context(L, [(0, E.MODE_CODES[mode], yv)])
    brd, eight, cm, w, nrows, _, _, _, ip, avb, grp = sc
    rng = np.random.default_rng(11)
    boards = [0, L.bottom_rows_mask(1), L.bottom_rows_mask(2), L.bottom_rows_mask(3)]
    boards += [int(sum(1 << s for s in range(L.n_spaces) if rng.random() < p)) for p in (0.2, 0.4, 0.6, 0.8, 0.95)
               for _ in range(3)]
    for cov in boards:
        ref = [E.solve(E.F_ROLL, cov, 0, 2, 2, y, 0, 0, sc, E.new_memory(L.n_spaces))[:2] for y in range(6)]
        for y in (0, 1, 2, 5):
            T, _, _, meta, _, _, scr, scv, wk, wf = E.new_memory(L.n_spaces)
            got = X._two_dice_turn(T, T.view(np.float64), meta, cov, y, yv, 0, E.MODE_CODES[mode], ip[2], ip[0], brd,
                                   eight, grp, scr, scv, 0, wk[5, 4:], wk, wf, cm, w, nrows, avb)
            assert got == ref[y], (cov, y)
            _assert_levels_kept(T, cov, 2, y, ref)


def test_the_roll_weights_by_class_are_the_weights_of_the_rolls():
    """``_roll_sum`` weighs an untied option's rolls by bit counts over weight classes (``avb[d, k, 0]``, the
    increments at ``avb[d, W_INC + k, 0, 0]``): each sorted roll's weight is its number of ordered rolls."""
    from pyradice_lab.purramid import exact as E

    cm, w, nrows = E.risk_tables()
    avb = E._roll_bits()
    for d in range(1, 6):
        total = 0
        for r in range(int(nrows[d])):
            word, bit = divmod(r, 64)
            got = sum(int(avb[d, E.W_INC + k, 0, 0]) * (int(avb[d, k, 0, word]) >> bit & 1) for k in range(E.W_INC))
            assert got == w[d, r], (d, r)
            total += got
        assert total == 6 ** d


def _assert_levels_kept(T, cov, d, y, ref, room=True):
    """A direct ``d``-dice turn with ``y`` tokens keeps the same turn with each fewer token count (``T_TURN``
    rows): the frames' value and burst chance bit for bit (``ref[yl]``); every level when the table has room."""
    from pyradice_lab.purramid import exact as E, memo as M

    TF = T.view(np.float64)
    for yl in range(y):
        i = M.slot(T, cov, 0, M.small_key(E.T_TURN, d, d, yl, 0, 0))
        if T[i, 2] == -1:
            assert not room, (cov, d, y, yl)
            continue
        assert (TF[i, 4], TF[i, 5]) == tuple(ref[yl]), (cov, d, y, yl)


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("mode", ["auto", "exact", "approx", "none"])
@pytest.mark.parametrize("yv", [0.0, 0.35, 1.0])
def test_a_three_dice_turn_computed_directly_equals_the_frames(side, mode, yv):
    """A 4-dice segment's bonus turn (3 dice) is computed by ``_three_dice_turn``: the same value and burst
    chance as the frames' solve of that turn, bit for bit, on many boards, token counts and bonus modes (with a
    fresh memo: the 2-dice bonus turns it needs are computed on the way)."""
    from pyradice_lab.purramid import _exact_turns as X, exact as E

    L = load_layout(side)
    sc = E.static_context(L, [(0, E.MODE_CODES[mode], yv)])
    brd, eight, cm, w, nrows, _, sp_mode, _, ip, avb, grp = sc
    rng = np.random.default_rng(13)
    boards = [0, L.bottom_rows_mask(1), L.bottom_rows_mask(2), L.bottom_rows_mask(3)]
    boards += [int(sum(1 << s for s in range(L.n_spaces) if rng.random() < p)) for p in (0.3, 0.6, 0.9)
               for _ in range(3)]
    for cov in boards:
        ref = [E.solve(E.F_ROLL, cov, 0, 3, 3, y, 0, 0, sc, E.new_memory(L.n_spaces))[:2] for y in range(4)]
        for y in (0, 1, 3):
            T, _, _, meta, _, _, scr, scv, wk, wf = E.new_memory(L.n_spaces)
            got = X._three_dice_turn(T, T.view(np.float64), meta, cov, y, yv, 0, sp_mode, ip[2], ip[0], brd, eight,
                                     grp, scr, scv, 0, wk[5, 4:], wk, wf, cm, w, nrows, avb)
            assert got == ref[y], (cov, y)
            _assert_levels_kept(T, cov, 3, y, ref)


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("mode", ["auto", "exact", "approx", "none"])
@pytest.mark.parametrize("yv", [0.0, 0.6])
def test_a_four_dice_turn_computed_directly_equals_the_frames(side, mode, yv):
    """A 5-dice segment's bonus turn (4 dice) is computed by ``_four_dice_turn``: the same value and burst chance
    as the frames' solve of that turn, bit for bit (a fresh memo: its 3- and 2-dice bonus turns computed on the
    way; and a tiny table, where most of them cannot be kept)."""
    from pyradice_lab.purramid import _exact_turns as X, exact as E

    L = load_layout(side)
    sc = E.static_context(L, [(0, E.MODE_CODES[mode], yv)])
    brd, eight, cm, w, nrows, _, sp_mode, _, ip, avb, grp = sc
    rng = np.random.default_rng(17)
    boards = [L.bottom_rows_mask(1), L.bottom_rows_mask(3)]
    boards += [int(sum(1 << s for s in range(L.n_spaces) if rng.random() < p)) for p in (0.3, 0.6, 0.9)]
    for cov in boards:
        ref = [E.solve(E.F_ROLL, cov, 0, 4, 4, y, 0, 0, sc, E.new_memory(L.n_spaces))[:2] for y in range(3)]
        for y, bits in ((0, 18), (2, 18), (1, 6)):
            v, b = ref[y]
            T, _, _, meta, _, _, scr, scv, wk, wf = E.new_memory(L.n_spaces, hash_bits=bits)
            scr, scv = np.zeros((ip[3] + 64, 2), dtype=np.int64), np.zeros((ip[3] + 64, 2))
            got = X._four_dice_turn(T, T.view(np.float64), meta, cov, y, yv, 0, sp_mode, ip[2], ip[0], brd, eight,
                                    grp, scr, scv, 0, wk[5, 4:], wk, wf, cm, w, nrows, avb)
            assert got == (v, b), (cov, y)
            _assert_levels_kept(T, cov, 4, y, ref, room=bits > 6)
