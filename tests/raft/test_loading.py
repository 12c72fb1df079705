"""Optimal loading vs brute force over every assignment of gems to slots."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pyradice_lab.raft.components import default_components
from pyradice_lab.raft.loading import load

COMP = default_components()


def _distributions(total, caps):
    """Every way to put at most ``total`` identical gems into bins with capacities ``caps``."""
    for combo in itertools.product(*[range(c + 1) for c in caps]):
        if sum(combo) <= total:
            yield combo


def brute_force(gems, empty, points):
    """Best (points, filled, -ordinary leftover) over all placements, by enumeration."""
    m, k = empty.shape
    best = None
    # ordinary colours: gems of colour c go only to slots of colour c
    per_colour = [list(_distributions(gems[c], [int(empty[i, c]) for i in range(m)])) for c in range(k)]
    for choice in itertools.product(*per_colour):
        fill = np.array(choice, dtype=int).T.reshape(m, k)  # (boat, colour)
        left_ord = sum(gems[c] - sum(choice[c]) for c in range(k))
        room = (empty - fill).ravel()
        for wild in _distributions(gems[k], room.tolist()):
            full = fill + np.array(wild).reshape(m, k)
            complete = (full == empty).all(axis=1)
            value = (int(points[complete].sum()), int(full.sum()), -left_ord)
            if best is None or value > best:
                best = value
    return best


@st.composite
def loading_cases(draw):
    m = draw(st.integers(1, 3))
    boats = []
    for _ in range(m):
        slots = [draw(st.integers(0, 2)) for _ in range(3)]
        if sum(slots) == 0:
            slots[draw(st.integers(0, 2))] = 1
        filled = [draw(st.integers(0, s)) for s in slots]
        if filled == slots:
            filled[int(np.argmax(slots))] -= 1
        boats.append({"slots": dict(zip(("red", "yellow", "blue"), slots)),
                      "filled": dict(zip(("red", "yellow", "blue"), filled)),
                      "points": draw(st.integers(1, 6))})
    gems = [draw(st.integers(0, 3)) for _ in range(3)] + [draw(st.integers(0, 2))]
    return gems, boats


def _arrays(boats):
    cols = ("red", "yellow", "blue")
    empty = np.array([[b["slots"][c] - b["filled"][c] for c in cols] for b in boats])
    return empty, np.array([b["points"] for b in boats])


@settings(max_examples=250)
@given(loading_cases())
def test_load_is_optimal_against_brute_force(case):
    gems, boats = case
    empty, points = _arrays(boats)
    res = load(gems, boats)
    # the placement is legal
    assert (res.fill <= empty).all() and (res.held >= 0).all() and (res.leftover >= 0).all()
    assert (res.held[:, :3] <= res.fill).all()                      # ordinary gems on their own colour
    np.testing.assert_array_equal(res.held.sum(axis=1), res.fill.sum(axis=1))
    np.testing.assert_array_equal(res.held.sum(axis=0) + res.leftover, gems)
    assert set(res.completed) == {i for i in range(len(boats)) if (res.fill[i] == empty[i]).all()}
    left_ord = int(res.leftover[:3].sum())
    assert (res.points, res.filled, -left_ord) == brute_force(np.array(gems), empty, points)


def test_black_is_only_used_where_an_ordinary_gem_cannot_go():
    # red slot and a black: place the red, keep the black (the black goes back to the raft, not a gift)
    res = load({"red": 1, "black": 1}, [{"slots": {"red": 1, "blue": 1}, "points": 2}])
    assert res.held.tolist() == [[1, 0, 0, 1]] and res.completed == (0,)
    res = load({"red": 1, "black": 1}, [{"slots": {"red": 3}, "points": 4}])
    assert res.held.tolist() == [[1, 0, 0, 1]] and res.completed == ()


def test_completing_the_bigger_card_beats_filling_more_slots():
    boats = [{"slots": {"blue": 2}, "points": 2}, {"slots": {"red": 2, "yellow": 2}, "points": 4}]
    res = load({"blue": 1, "red": 2, "yellow": 1, "black": 1}, boats)
    assert res.completed == (1,) and res.points == 4


def test_loading_real_cards_and_bad_input():
    deck = COMP.deck
    res = load({"yellow": 3}, [deck[2]])  # YY card
    assert res.completed == (0,) and res.leftover.tolist() == [0, 1, 0, 0]
    assert res.to_frame()["complete"].tolist() == [True]
    with pytest.raises(ValueError, match="gems"):
        load({"green": 1}, [deck[0]])
    with pytest.raises(ValueError, match="gems"):
        load([1, 2, -1, 0], [deck[0]])
    with pytest.raises(ValueError, match="points"):
        load([1, 0, 0, 0], [{"slots": {"red": 1}, "points": 0}])
    with pytest.raises(ValueError, match="lifeboats"):
        load([1, 0, 0, 0], deck[0])


@settings(max_examples=150)
@given(st.lists(loading_cases(), min_size=1, max_size=6), st.integers(0, 2))
def test_the_batch_loader_places_exactly_like_the_readable_one(cases, pad):
    """The batch engine's vectorised loader (unused lifeboats padded with zeros) == the readable spec."""
    from pyradice_lab.raft.loading import load_batch, load_scalar

    m = max(len(b) for _, b in cases) + pad
    gems = np.array([g for g, _ in cases])
    empty = np.zeros((len(cases), m, 3), dtype=np.int64)
    points = np.zeros((len(cases), m), dtype=np.int64)
    for i, (_, boats) in enumerate(cases):
        e, p = _arrays(boats)
        empty[i, :len(boats)] = e
        points[i, :len(boats)] = p
    held, fill = load_batch(gems, empty, points)
    for i, (g, boats) in enumerate(cases):
        e, p = _arrays(boats)
        h, f = load_scalar(list(g), e.tolist(), p.tolist())
        np.testing.assert_array_equal(held[i, :len(boats)], h)
        np.testing.assert_array_equal(fill[i, :len(boats)], f)
        assert held[i, len(boats):].sum() == 0
