"""Quarry geometry and availability: the opening position, a brute-force face count after every take."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pyradice_lab.pyradice import Quarry, availability, visible_faces
from pyradice_lab.pyradice.geometry import QUARRY_SHAPES

SHAPES = {2: QUARRY_SHAPES["2p"], 4: QUARRY_SHAPES["3-4p"]}


def brute_force_available(present: set, shapes) -> set:
    """Dice with >= 3 visible faces, from coordinates alone (independent of the package's index arrays)."""
    out = set()
    for (layer, r, c) in present:
        faces = 0
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):      # four sides, same layer
            if (layer, r + dr, c + dc) not in present:
                faces += 1
        # top face: hidden when a die of the layer above rests on this one; a die at (L+1, R, C) rests on
        # (L, R, C), (L, R+1, C), (L, R, C+1), (L, R+1, C+1)
        resting = [d for d in present if d[0] == layer + 1 and r in (d[1], d[1] + 1) and c in (d[2], d[2] + 1)]
        if not resting:
            faces += 1
        if faces >= 3:                                          # the bottom face never counts
            out.add((layer, r, c))
    return out


def all_positions(shapes):
    return {(layer, r, c) for layer, (rows, cols) in enumerate(shapes) for r in range(rows) for c in range(cols)}


@pytest.mark.parametrize("players, n, corners", [
    (2, 47, [(2, 0, 0), (2, 0, 3), (2, 1, 0), (2, 1, 3)]),
    (3, 92, [(2, 0, 0), (2, 0, 8), (2, 1, 0), (2, 1, 8)]),
    (4, 92, [(2, 0, 0), (2, 0, 8), (2, 1, 0), (2, 1, 8)]),
])
def test_setup_offers_exactly_the_four_top_corners(players, n, corners):
    q = Quarry.random(players, rng=1)
    assert q.remaining == n
    assert q.available() == corners


def test_layer_sizes_follow_the_rules():
    assert QUARRY_SHAPES["2p"] == ((4, 6), (3, 5), (2, 4))
    assert QUARRY_SHAPES["3-4p"] == ((4, 11), (3, 10), (2, 9))


@settings(max_examples=30)
@given(players=st.sampled_from([2, 4]), seed=st.integers(0, 2**32 - 1), order_seed=st.integers(0, 2**32 - 1))
def test_availability_equals_brute_force_after_every_take(players, seed, order_seed):
    """Random take sequences down to the last die, both quarry sizes."""
    q = Quarry.random(players, rng=seed)
    shapes = SHAPES[players]
    present = all_positions(shapes)
    order = np.random.default_rng(order_seed)
    while True:
        u = order.random()
        expected = brute_force_available(present, shapes)
        got = q.available()
        assert set(got) == expected
        assert expected or not present           # never stuck while dice remain
        if not got:
            break
        pos = got[int(u * len(got))]
        value, colour = q.take(pos)
        assert 1 <= value <= 6 and colour in q.colour_names
        present.discard(pos)
        assert q.remaining == len(present)
    assert q.remaining == 0


def test_take_rejects_unavailable_empty_and_off_board_positions():
    q = Quarry.random(2, rng=0)
    with pytest.raises(ValueError, match="pos"):
        q.take((0, 0, 0))                        # bottom corner: covered and only 2 free sides
    q.take((2, 0, 0))
    with pytest.raises(ValueError, match="pos .* is empty"):
        q.take((2, 0, 0))
    with pytest.raises(ValueError, match="pos"):
        q.take((1, 3, 0))                        # middle layer has 3 rows
    with pytest.raises(ValueError, match="pos"):
        q.take("corner")


def test_batched_availability_matches_single_quarries():
    rng = np.random.default_rng(5)
    occ = rng.random((300, 92)) < 0.5
    batch = availability(occ, players=3)
    for b in range(0, 300, 37):
        assert np.array_equal(batch[b], availability(occ[b], players=3))
    faces = visible_faces(occ, players=3)
    assert faces.shape == (300, 92) and faces.max() <= 5 and (faces[~occ] == 0).all()


def test_availability_validates_shape():
    with pytest.raises(ValueError, match="occupied"):
        availability(np.ones((2, 50), dtype=bool), players=2)


def test_same_seed_same_quarry_and_colours_come_from_the_box():
    a, b = Quarry.random(2, rng=9), Quarry.random(2, rng=9)
    assert np.array_equal(a.values, b.values) and np.array_equal(a.colours, b.colours)
    counts = np.bincount(a.colours, minlength=5)
    assert counts.sum() == 47 and counts.max() <= 12          # 12 dice of each colour in one copy
    big = Quarry.random(4, rng=9, colours={"red": 50, "blue": 50})
    assert set(big.colour_names) == {"red", "blue"} and big.remaining == 92
    with pytest.raises(ValueError, match="colours"):
        Quarry.random(2, rng=1, colours={"red": 10})
    with pytest.raises(ValueError, match="players"):
        Quarry.random(1)


def test_render_marks_available_dice():
    q = Quarry.random(2, rng=3)
    text = q.render()
    assert text.count("[") == 4 and text.splitlines()[0].startswith("layer 2")
