"""Rocking Raft's balance levers (the game contract's ``levers`` part, :class:`~pyradice_lab.engine.levers.GameLevers`).

``boat_pay_excess:<size>`` (the lifeboats of one size pay more or less per own turn held than the deck) moves
the points of every reconstructed lifeboat of that size, one group per packaged point value, one point each way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.levers import GameLevers, Lever, NoLever, ProposalBudget, Range, component_source

if TYPE_CHECKING:  # pragma: no cover - the type only: the CLI reads the examples without numpy
    from ..engine.findings import Finding

__all__ = ["LEVERS", "BOAT_REACH", "boat_points", "boat_ranges"]


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
    hardly matters: one step is one card-point, the group's points moved a card at a time), then each whole group;
    then the groups of the sizes either side (its neighbours): ``(ranges, own)``."""
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
    near = [group(p, ids, f"the {k}-slot lifeboats") for k in (size - 1, size + 1)
            for p, ids in sorted(_groups(comp, k).items())]
    return own + near, len(own)


#: the games of one proposal under the report player (exact, 0.02-0.1 CPU s per game)
LEVERS = GameLevers(
    levers={"boat_pay_excess": Lever(
        "boat_pay_excess", boat_points,
        "the reconstructed lifeboats of one size, grouped by packaged points, each group one point down or up "
        f"(at least 1); joint search: the first 1, 2, ... cards of a group and each whole group {BOAT_REACH} points "
        "either way, then the groups of the sizes either side", axes=boat_ranges, in_play="boats_completed:{arg}")},
    budget=ProposalBudget(search=400, first=20, verify=200, recheck=200),
    examples={"balance": "--param 'card.1.points=1..4' --objective 'boat_pay_excess:* = 0'",
              "robustness": "'start_player_win > 0.3333' --players 3"},
)
