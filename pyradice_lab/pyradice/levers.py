"""Pyradice's balance levers (the game contract's ``levers`` part, :class:`~pyradice_lab.engine.levers.GameLevers`).

``card_points_difference:<strong>-<weak>`` (one objective card scores more than another) moves the strong card's
scoring down and the weak card's up (points by 1-2, tables by 12.5-25%), played in one line-up holding both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.levers import GameLevers, Lever, NoLever, ProposalBudget, Range, component_source

if TYPE_CHECKING:  # pragma: no cover - the type only: the CLI reads the examples without numpy
    from ..engine.findings import Finding

__all__ = ["LEVERS", "card_scoring", "card_choices", "card_ranges"]


def card_choices(comp, name: str, down: bool) -> tuple[str, list]:
    """Objective card ``name``'s scoring, two steps down (``down``) or up and unchanged: its ``points`` one or two
    points, its ``table`` scaled by 0.75 / 0.875 (or 1.125 / 1.25), rounded."""
    for key in ("points", "table"):
        try:
            now = comp.get(f"card.{name}.{key}")
        except Exception:  # noqa: BLE001 - the card's kind has no such field
            continue
        if key == "points":
            steps = [int(now) + k * (-1 if down else 1) for k in (0, 1, 2)]
            return f"card.{name}.points", sorted({max(1, v) for v in steps})
        factors = (1.0, 0.875, 0.75) if down else (1.0, 1.125, 1.25)
        out = []
        for fct in factors:
            t = [int(round(v * fct)) for v in now]
            if t not in out:
                out.append(t)
        return f"card.{name}.table", out
    raise NoLever(f"card {name}'s scoring has no points or table to move")


def card_scoring(comp, arg: str, f: Finding) -> tuple:
    """The strongest card's scoring down and the weakest's up (:func:`card_choices`; a card the rules state is
    kept), played in one line-up holding both (the experiment's first that does, else both with the default's
    others): the finding pools three line-ups, the proposal measures one."""
    from .analysis import CARD_GROUPS
    from .components import Setup

    strong, weak = arg.split("-")
    if f.effect < 0:
        strong, weak = weak, strong
    params, moved = {}, []
    for name, down in ((strong, True), (weak, False)):
        if component_source(comp, f"card.{name}.kind") in ("rules", "designer"):
            continue
        path, choices = card_choices(comp, name, down)
        params[path] = choices
        moved.append(f"{name} {'down' if down else 'up'}")
    if not params:
        raise NoLever(f"cards {strong} and {weak} are stated by the rules")
    line = next((g for g in CARD_GROUPS if strong in g and weak in g), None)
    if line is None:
        rest = [c for c in Setup().cards if c not in (strong, weak)]
        line = (strong, weak, *rest[:2])
    return (params, f"card scoring ({', '.join(moved)}: points by 1-2, tables by 12.5-25%) in the line-up "
            f"{', '.join(line)}", False, {"setup": Setup(cards=tuple(line))})


#: a table card's entries a joint search also moves one at a time (the last ones: the scores of the most dice or the
#: highest levels, which the scale moves most)
TABLE_ENTRIES = 3


def _card_range(comp, name: str) -> list[Range]:
    """Card ``name``'s scoring as integers: its ``points`` (1 to 3 points above, by 1), or its ``table`` scaled 50%
    to 150% by 5% (finer than the 12.5% steps of :func:`card_choices`) and then each of its last
    :data:`TABLE_ENTRIES` entries a point at a time (up to 3 either way, at least 0, the table kept non-decreasing:
    more dice or a higher level never scores less): a scale moves every entry at
    once, so two neighbouring scales can differ by a point in the entries that score most (Height 0/0/1/2/3/4/6 and
    0/0/1/2/3/5/6 lie 1.3 points of the finding's metric apart), and an entry alone lies between them."""
    try:
        now = int(comp.get(f"card.{name}.points"))
    except Exception:  # noqa: BLE001 - a card scored by a table
        table = [int(v) for v in comp.get(f"card.{name}.table")]
        out = [Range(f"card.{name}.table", 50, 150, 5, kind="scale", label=f"card {name} table scale")]
        for k in range(max(0, len(table) - TABLE_ENTRIES), len(table)):   # after the scale: they compose on it
            out.append(Range(f"card.{name}.table", max(0, table[k] - 3), table[k] + 3, kind="index", index=k,
                             label=f"card {name} table[{k}]", monotone=True))
        return out
    return [Range(f"card.{name}.points", 1, now + 3, label=f"card {name} points")]


def card_ranges(comp, arg: str, f: Finding) -> tuple[list[Range], int]:
    """The joint search's ranges for ``strong-weak``: each card's scoring (:func:`_card_range`: points, or a table's
    scale and its last entries), the cards the rules state kept; all are the finding's own lever: ``(ranges, own)``."""
    out = []
    for name in arg.split("-"):
        if component_source(comp, f"card.{name}.kind") in ("rules", "designer"):
            continue
        try:
            out += _card_range(comp, name)
        except Exception as exc:  # noqa: BLE001 - no points, no table
            raise NoLever(f"card {name}'s scoring has no points or table to move") from exc
    if not out:
        raise NoLever(f"cards {arg} are stated by the rules")
    return out, len(out)


#: the games of one proposal under the report player (flat_mc, 0.04-0.11 CPU s per game)
LEVERS = GameLevers(
    levers={"card_points_difference": Lever(
        "card_points_difference", card_scoring,
        "the stronger card's scoring down and the weaker's up: points by 1 or 2 (at least 1), tables scaled by "
        "12.5% or 25%; cards the rules state are kept; one line-up holding both; joint search: points 1 to 3 above, "
        "tables 50-150% by 5% and their last 3 entries a point at a time", axes=card_ranges)},
    budget=ProposalBudget(search=240, first=20, verify=120, recheck=120),
    examples={"balance": "--param 'card.Height.table=[[0,0,1,2,3,4,5],[0,1,2,3,4,5,6]]' --objective "
                         "'card_points_difference:Height-Big = 0'",
              "robustness": "'card_points_difference:Height-Big > 0'"},
)
