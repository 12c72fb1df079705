"""Rocking Raft's balance levers (the game contract's ``levers`` part, :class:`~pyradice_lab.engine.levers.GameLevers`).

``boat_pay_excess:<size>`` (the lifeboats of one size pay more or less per own turn held than the deck) moves
the points of every reconstructed lifeboat of that size, one group per packaged point value, one point each way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.levers import GameLevers, Lever, NoLever, ProposalBudget, component_source

if TYPE_CHECKING:  # pragma: no cover - the type only: the CLI reads the examples without numpy
    from ..engine.findings import Finding

__all__ = ["LEVERS", "boat_points"]


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


#: the games of one proposal under the report player (exact, 0.02-0.1 CPU s per game)
LEVERS = GameLevers(
    levers={"boat_pay_excess": Lever(
        "boat_pay_excess", boat_points,
        "the reconstructed lifeboats of one size, grouped by packaged points, each group one point down or up "
        "(at least 1)")},
    budget=ProposalBudget(search=400, first=20, verify=200, recheck=200),
    examples={"balance": "--param 'card.1.points=1..4' --objective 'boat_pay_excess:* = 0'",
              "robustness": "'start_player_win > 0.3333' --players 3"},
)
