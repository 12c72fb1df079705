"""Rocking Raft's balance levers (the game contract's ``levers`` part, :class:`~pyradice_lab.engine.levers.GameLevers`).

``boat_pay_excess:<size>`` (the lifeboats of one size pay more or less per own turn held than the deck) moves
the points of every reconstructed lifeboat of that size, one group per packaged point value, one point each way;
its joint search (:func:`boat_ranges`) adds finer steps (the first cards of a group) and whole sizes
(:func:`size_range`: every lifeboat of a size a card-point a step, the size's own and every other).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.levers import GameLevers, Lever, NoLever, ProposalBudget, Range, component_source

if TYPE_CHECKING:  # pragma: no cover - the type only: the CLI reads the examples without numpy
    from ..engine.findings import Finding

__all__ = ["LEVERS", "BOAT_REACH", "boat_points", "boat_ranges", "size_range"]


def boat_points(comp, arg: str, f: Finding) -> tuple[dict, str, bool]:
    """Every ``arg``-slot lifeboat group (cards of one size and one packaged point value, moved together), one point
    down, unchanged or up (at least 1)."""
    size = int(arg)
    groups: dict[int, list[int]] = {}
    for card in comp.deck:
        if card.size == size and component_source(comp, f"card.{card.id}.points") not in ("rules", "designer"):
            groups.setdefault(int(card.points), []).append(int(card.id))
    if not groups:
        raise NoLever(f"no {size}-slot lifeboat's points are a reconstruction")
    params = {",".join(f"card.{i}.points" for i in ids): sorted({max(1, p - 1), p, p + 1})
              for p, ids in sorted(groups.items())}
    text = (f"the {size}-slot lifeboats' points ({len(groups)} group{'s' if len(groups) > 1 else ''} of one point "
            f"value: {', '.join(f'{len(ids)} at {p}' for p, ids in sorted(groups.items()))}), each one point down or up")
    return params, text, False


#: how many points a lifeboat group or card may move either way in a joint search
BOAT_REACH = 3


def _groups(comp, size: int) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for card in comp.deck:
        if card.size == size and component_source(comp, f"card.{card.id}.points") not in ("rules", "designer"):
            groups.setdefault(int(card.points), []).append(int(card.id))
    return groups


def boat_ranges(comp, arg: str, f: Finding) -> tuple[list[Range], int]:
    """The joint search's ranges for the ``arg``-slot lifeboats, :data:`BOAT_REACH` points either way, at least 1
    (the finding's own lever): first the finest, the first ``k`` cards of a group of one packaged point value moved
    together for ``k`` = 1 .. its size - 1 (the cards of a group differ only in their colours, so which ``k`` move
    hardly matters: one step is one card-point, the group's points moved a card at a time), then each whole group,
    then the whole size (:func:`size_range`); then every other size whole, the farthest size first (its
    neighbours: raising them lowers the finding's pay against the deck's rate) and the groups of the sizes either
    side: ``(ranges, own)``.  A joint
    search moves the whole sizes first (:func:`pyradice_lab.design._balance_joint.whole_moves`: another size a
    point a card toward the target while the finding's own moves part of a lap)."""
    size = int(arg)
    groups = _groups(comp, size)
    if not groups:
        raise NoLever(f"no {size}-slot lifeboat's points are a reconstruction")

    def group(p, ids, what):
        return Range(",".join(f"card.{i}.points" for i in ids), max(1, p - BOAT_REACH), p + BOAT_REACH,
                     label=f"{what} ({len(ids)} card{'s' if len(ids) > 1 else ''} at {p})")

    own = [Range(",".join(f"card.{i}.points" for i in ids[:k]), max(1, p - BOAT_REACH), p + BOAT_REACH,
                 label=(f"card {ids[0]} points" if k == 1 else f"cards {ids[0]}-{ids[k - 1]} points")
                 + f" ({k} of the {len(ids)} at {p})")
           for p, ids in sorted(groups.items()) for k in range(1, len(ids))]
    own += [group(p, ids, f"the {size}-slot lifeboats") for p, ids in sorted(groups.items())]
    own.append(size_range(comp, size, effect=1))
    # the sizes farthest from the finding's first: the deck's rate is a mean over the sizes, so the size at the
    # deck's other end pays on the other side of it (2-slot under, 4-slot over), the middle one nearest to it
    sizes = sorted({int(c.size) for c in comp.deck} - {size}, key=lambda k: (-abs(k - size), k))
    near = [size_range(comp, k, effect=-1) for k in sizes if _groups(comp, k)]
    near += [group(p, ids, f"the {k}-slot lifeboats") for k in (size - 1, size + 1)
             for p, ids in sorted(_groups(comp, k).items())]
    return own + near, len(own)


def size_range(comp, size: int, *, effect: int = 0) -> Range:
    """Every reconstructed ``size``-slot lifeboat as one ``"steps"`` range (a **whole lifeboat size**): one step is
    one card-point (up: the cards of the lowest points first; down: the highest first), a lap of as many steps as
    cards moves every card one point, so the cards keep their order; from :data:`BOAT_REACH` laps down (no card
    below 1 point) to :data:`BOAT_REACH` laps up.  ``effect``: how raising it moves the finding's pay (+1: the
    finding's own size; -1: another size, whose points raise the deck's rate the finding's pay is measured
    against).

    >>> from pyradice_lab.engine.registry import get_game
    >>> r = size_range(get_game("raft").part("format").default(), 2)
    >>> r.label, r.lap, r.low, r.high
    ('every 2-slot lifeboat (12 cards: 6 at 1, 6 at 2), a card-point a step', 12, -6, 36)
    """
    groups = _groups(comp, int(size))
    if not groups:
        raise NoLever(f"no {size}-slot lifeboat's points are a reconstruction")
    ids = [i for _, g in sorted(groups.items()) for i in g]
    packaged = {f"card.{i}.points": int(p) for p, g in groups.items() for i in g}
    r = Range(",".join(f"card.{i}.points" for i in ids), -1, 1, kind="steps")
    low = 0
    while low > -BOAT_REACH * r.lap and min(r.moved(packaged, low - 1).values()) >= 1:
        low -= 1
    return Range(r.path, low, BOAT_REACH * r.lap, kind="steps", effect=effect,
                 label=(f"every {size}-slot lifeboat ({len(ids)} cards: "
                        + ", ".join(f"{len(g)} at {p}" for p, g in sorted(groups.items())) + "), a card-point a step"))


#: the games of one proposal under the report player (exact, 0.02-0.1 CPU s per game)
LEVERS = GameLevers(
    levers={"boat_pay_excess": Lever(
        "boat_pay_excess", boat_points,
        "the reconstructed lifeboats of one size, grouped by packaged points, each group one point down or up "
        f"(at least 1); joint search: the first 1, 2, ... cards of a group, each whole group and the whole size "
        f"(a card-point a step) {BOAT_REACH} points either way, then every other size whole and the groups of the "
        "sizes either side", axes=boat_ranges, in_play="boats_completed:{arg}")},
    budget=ProposalBudget(search=400, first=20, verify=200, recheck=200),
    examples={"balance": "--param 'card.1.points=1..4' --objective 'boat_pay_excess:* = 0'",
              "robustness": "'start_player_win > 0.3333' --players 3"},
)
