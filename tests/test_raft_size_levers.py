"""Rocking Raft's whole lifeboat sizes as levers (issue 44): a ``"steps"`` range per size (a card-point a step, a
lap of as many steps as cards moves every card one point), its legal range and natural step, the candidate that
met the 2-slot objective inside the ranges, and a joint search that moves another size a lap toward the target
while the finding's own size moves part of a lap."""

from __future__ import annotations

import pytest

from pyradice_lab.design._balance_grid import _paths
from pyradice_lab.design._balance_joint import joint_candidates, point_of, values_at, whole_moves
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.levers import Range
from pyradice_lab.engine.registry import get_game
from pyradice_lab.raft.levers import BOAT_REACH, size_range


def _base():
    return get_game("raft").part("format").default()


def _ranges(size: str):
    f = Finding("difference", "q", -1.0, -1.1, -0.9, n=500, null=0.0)
    return get_game("raft").part("levers").lever("boat_pay_excess").ranges_of(_base(), size, f)


def _size(base, size):
    return [c for c in base.deck if c.size == size]


@pytest.mark.parametrize("size", [2, 3, 4])
def test_a_whole_size_moves_a_card_point_a_step_keeps_the_cards_order_and_stays_legal(size):
    base = _base()
    r = size_range(base, size)
    cards = _size(base, size)
    packaged = {f"card.{c.id}.points": int(c.points) for c in cards}
    assert r.kind == "steps" and r.lap == len(cards) and set(r.paths) == set(packaged)
    assert r.high == BOAT_REACH * len(cards)
    rank = list(packaged)
    for v in r.values():
        moved = r.moved(packaged, v)
        assert all(isinstance(x, int) and x >= 1 for x in moved.values())           # integers, at least 1
        assert sum(moved.values()) - sum(packaged.values()) == v                  # v card-points in all
        assert all(abs(moved[p] - packaged[p] - v / len(cards)) < 1 for p in moved)  # each card within a point
        assert all(moved[a] <= moved[b] for a in rank for b in rank if packaged[a] < packaged[b])  # their order
        if v in (r.low, r.high):
            base.replace(_paths(moved))                                           # legal: the game's checks pass
    # the range's floor: one step further down puts a card below 1 point, or it is BOAT_REACH laps down
    assert min(r.moved(packaged, r.low - 1).values()) < 1 or r.low == -BOAT_REACH * len(cards)


def test_the_2slot_sizes_bounds_and_the_first_steps_move_the_cheapest_cards():
    base = _base()
    r = size_range(base, 2)
    packaged = {p: base.get(p) for p in r.paths}
    assert (r.low, r.high, r.lap) == (-6, 36, 12)      # 6 cards at 1 and 6 at 2: the 2s can drop to 1, no card to 0
    one = r.moved(packaged, 1)
    assert [p for p in r.paths if one[p] != packaged[p]] == ["card.7.points"]      # the first 1-point card
    down = r.moved(packaged, -1)
    assert [p for p in r.paths if down[p] != packaged[p]] == ["card.1.points"]    # the first 2-point card
    with pytest.raises(ValueError, match="effect"):
        Range("card.1.points", 1, 3, kind="steps", effect=2)


def test_the_ranges_contain_the_candidate_that_met_the_2slot_objective():
    """The designer guide's C4 (cards 1-2 and 7-12 +2 points, 3-6 +1, every 4-slot card -1, 16-24 +1) met the
    2-slot objective and passed the guards on a fresh paired run: it is one point of the declared ranges (the
    2-slot size 20 card-points up, the 3-slot 9 up, the 4-slot 15 down), every other range where it is."""
    base = _base()
    ranges, own = _ranges("2")
    delta = {**{i: 2 for i in (1, 2, *range(7, 13))}, **{i: 1 for i in range(3, 7)},
             **{i: -1 for i in range(25, 40)}, **{i: 1 for i in range(16, 25)}}
    c4 = {f"card.{c.id}.points": int(c.points) + delta.get(int(c.id), 0) for c in base.deck}
    steps = [i for i, r in enumerate(ranges) if r.kind == "steps"]
    assert [ranges[i].effect for i in steps] == [1, -1, -1] and steps[0] < own <= steps[1]   # own, then others
    point = list(point_of(base, ranges))
    by_size = {int(ranges[i].label.split()[1][0]): i for i in steps}
    point[by_size[2]], point[by_size[3]], point[by_size[4]] = 20, 9, -15
    assert all(ranges[i].low <= point[i] <= ranges[i].high for i in steps)
    values = values_at(base, ranges, point)
    assert {p: v for p, v in values.items() if v != base.get(p)} == {p: v for p, v in c4.items()
                                                                       if v != base.get(p)}
    base.replace(_paths(values))


def test_the_joint_search_shifts_another_size_toward_the_target_while_the_own_moves_part_of_a_lap():
    """From the report's grid pick (every 2-slot card +1 point, still under 0), the first 8 candidates (the report's
    joint search) are every 4-slot card one point down with 1, 3, 4, ... more 2-slot card-points (the cheapest
    2-slot cards first): the 4-slot, farthest from the finding's size, comes first among the other sizes."""
    base = _base()
    ranges, own = _ranges("2")
    start = base.replace({f"card.{i}.points": base.get(f"card.{i}.points") + 1 for i in range(1, 13)})
    cands = joint_candidates(base, ranges, own=own, start_comp=start, max_candidates=8, toward=1)

    def moved(c):
        return {p: v - base.get(p) for p, v in c.items() if v != base.get(p)}

    want = {**{f"card.{i}.points": 1 for i in (*range(1, 7), 10, 11, 12)},
            **{f"card.{i}.points": 2 for i in (7, 8, 9)}, **{f"card.{i}.points": -1 for i in range(25, 40)}}
    assert want in [moved(c) for c in cands]
    assert moved(cands[1]) == {**{f"card.{i}.points": 1 for i in range(1, 13)}, "card.7.points": 2,
                               **{f"card.{i}.points": -1 for i in range(25, 40)}}   # the 4-slot a lap, first
    # the target below: the other sizes go up first
    down = joint_candidates(base, ranges, own=own, start_comp=start, max_candidates=8, toward=-1)
    assert all(v > 0 for v in moved(down[1]).values())


def test_whole_moves_without_steps_ranges_add_nothing():
    r = Range("tile.12.values", 7, 13, kind="index")
    assert whole_moves([r], (11,), 1, toward=1) == []
