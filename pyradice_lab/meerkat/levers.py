"""Meerkat Kingdom's balance levers (the game contract's ``levers`` part, a
:class:`~pyradice_lab.engine.levers.GameLevers`).

``tile_pay_excess:<tile>`` (a tile pays more or less per piece committed than the board mean) moves the tile's
values: its high value up to :data:`TILE_STEPS` points towards the board mean, the lower values by the components
file's reconstruction rule; a tile whose values the rules state (tile 6's 6/3) is not a lever.

Under strong play a tile's level hardly moves its pay per piece (the players commit in proportion), what the
places below the majority pay does: the lever also moves the lower values with the high value kept
(:func:`_lower_places`), and the report's proposals search with ``expectimax`` (``LEVERS.search_player``), the
report player verifying the pick; ``balance --finding ID --objective-kind win`` targets the tile's worth to winning
over :func:`tile_win_values`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.levers import GameLevers, Lever, NoLever, ProposalBudget, Range, component_source

if TYPE_CHECKING:  # pragma: no cover - the type only: the CLI reads the examples without numpy
    from ..engine.findings import Finding

__all__ = ["LEVERS", "TILE_STEPS", "TILE_REACH", "tile_values", "tile_win_values", "tile_ranges"]

#: steps of a tile's high value a proposal tries, towards the board mean (one point each)
TILE_STEPS = 4


def tile_values(comp, arg: str, f: Finding) -> tuple[dict, str, bool]:
    """Tile ``arg``'s values: its high value up to :data:`TILE_STEPS` steps towards the board mean, only that way
    (the finding is a claim, so its direction is known: a step away would only give the search's noise a
    candidate to pick), the lower values by the components file's reconstruction rule (low = high // 2 on
    two-place tiles, mid = round(high / 2) and low = max(2, round(high / 4)) on three-place ones), the packaged
    values among them; a tile the rules (or the designer's file) set is not a lever."""
    t = int(arg)
    path = f"tile.{t}.values"
    src = component_source(comp, path)
    if src in ("rules", "designer"):
        raise NoLever(f"tile {t}'s values are stated by the {'rules' if src == 'rules' else 'designer file'}")
    now = [int(v) for v in comp.get(path)]
    step = -1 if f.effect > 0 else 1    # an overpaying tile comes down
    choices = []
    for k in range(TILE_STEPS + 1):
        high = now[0] + step * k
        if high < 2:
            continue
        vals = now if k == 0 else ([high, high // 2] if len(now) == 2 else
                                   [high, int(round(high / 2)), max(2, int(round(high / 4)))])
        if vals not in choices:
            choices.append(vals)
    lower = [v for v in _lower_places(now, step) if v not in choices]
    shown = "/".join(map(str, now))
    return ({path: choices + lower}, f"tile {t} values {shown}: high value {'down' if step < 0 else 'up'} by up to "
            f"{TILE_STEPS}, lower values by the reconstruction rule; or the lower values {'down' if step < 0 else 'up'}"
            f" one point of the {'middle' if len(now) == 3 else 'low'} value a step, the high value kept "
            f"({len(lower)} such candidates; {len(choices + lower)} in all)", False)


def _lower_places(now: list[int], step: int) -> list[list[int]]:
    """What the places below the majority pay, moved towards the board mean with the high value kept: the second
    place's value one point a step (down to 1, or up to the high value), a three-place tile's third place in
    proportion (``round(low * middle' / middle)``, at least 1, at most the middle).  Under strong play these move a
    tile's pay per piece where its level does not (the players keep committing for the majority): tile 12 at
    11/2/1 pays the board mean under ``mcts_v2`` (docs/guide/designer.md, "Tile 12: which objective, which
    lever")."""
    out = []
    for k in range(1, now[0] + 1):
        mid = now[1] + step * k
        if not 1 <= mid <= now[0]:
            break
        vals = [now[0], mid] if len(now) == 2 else \
            [now[0], mid, min(mid, max(1, int(round(now[2] * mid / now[1]))))]
        out.append(vals)
    return out


def tile_win_values(comp, arg: str, f: Finding) -> tuple[dict, str]:
    """The candidates of tile ``arg``'s objective about winning (``commit_win_excess``): :func:`tile_values` both
    ways (the high value up to :data:`TILE_STEPS` points down and up, the lower values by the reconstruction rule:
    the finding's side is that of its pay, not of its worth to winning), then the tile's **lower values** one point
    down or up with its high value kept (the middle, the low, or both together on three-place tiles; the low on
    two-place ones; at least 1, highest first): what the places below the majority pay moves a tile's worth to
    winning without driving the players away from it (tile 12 at 11/5/2 under mcts_v2, measured in
    docs/guide/designer.md)."""
    from dataclasses import replace

    down, text, _ = tile_values(comp, arg, f)
    mirrored = replace(f, estimate=2 * f.null - f.estimate, ci_low=2 * f.null - f.ci_high, ci_high=2 * f.null - f.ci_low)
    path = f"tile.{int(arg)}.values"
    choices = list(down[path]) + [v for v in tile_values(comp, arg, mirrored)[0][path] if v not in down[path]]
    now = [int(v) for v in comp.get(path)]
    # (index, points) moves of the lower values: the low on a two-place tile; the middle, the low, both
    moves = [((1, -1),), ((1, 1),)] if len(now) == 2 else \
        [((1, -1),), ((1, 1),), ((2, -1),), ((2, 1),), ((1, -1), (2, -1)), ((1, 1), (2, 1))]
    for m in moves:
        vals = list(now)
        for i, d in m:
            vals[i] += d
        if min(vals) >= 1 and vals == sorted(vals, reverse=True) and vals not in choices:
            choices.append(vals)
    return ({path: choices}, f"{text}; and as far the other way (the finding's side is its pay, not its worth to "
                             "winning); and its lower values one point down or up, its high value kept")


#: how far above its packaged high value a tile's high value may go in a joint search
TILE_REACH = 6


def _tile_ranges(comp, t: int) -> list[Range]:
    """Every value of tile ``t`` on its own, one point a step, each within what keeps the tile's values highest
    first with the others packaged: the high value from the next value up to :data:`TILE_REACH` above its own,
    a middle value between its neighbours, the low value from 1 up to the value above it."""
    vals = [int(v) for v in comp.get(f"tile.{t}.values")]
    names = ["high", "middle", "low"] if len(vals) == 3 else ["high", "low"]
    out = []
    for i, name in enumerate(names):
        low = vals[i + 1] if i + 1 < len(vals) else 1
        high = min(99, vals[0] + TILE_REACH) if i == 0 else vals[i - 1]
        if low < high:
            out.append(Range(f"tile.{t}.values", max(1, low), high, kind="index", index=i,
                             label=f"tile {t} {name} value"))
    return out


def tile_ranges(comp, arg: str, f: Finding) -> tuple[list[Range], int]:
    """The joint search's ranges for tile ``arg``: each of its values (the finding's own lever, first), then the
    high values of the neighbouring reconstructed tiles (one number either side): ``(ranges, own)``."""
    t = int(arg)
    if component_source(comp, f"tile.{t}.values") in ("rules", "designer"):
        raise NoLever(f"tile {t}'s values are stated by the rules or the designer file")
    own = _tile_ranges(comp, t)
    near = [r for u in (t - 1, t + 1) if 3 <= u <= 12
            and component_source(comp, f"tile.{u}.values") not in ("rules", "designer")
            for r in _tile_ranges(comp, u)[:1]]
    return own + near, len(own)


#: the games of one proposal under the report player (mcts, 0.02-0.08 CPU s per game)
LEVERS = GameLevers(
    levers={"tile_pay_excess": Lever(
        "tile_pay_excess", tile_values,
        f"a reconstructed tile's high value, 1 to {TILE_STEPS} points towards the board mean (at least 2), its lower "
        "values by the reconstruction rule; tiles the rules state are kept; joint search: each of the tile's values "
        f"by 1 (high up to {TILE_REACH} above its own, every value highest first), then the neighbouring tiles' high "
        "values", axes=tile_ranges, in_play="meerkats_on_tile:{arg}", win="commit_win_excess:{arg}",
        win_grid=tile_win_values)},
    budget=ProposalBudget(search=240, first=24, verify=120, recheck=100),
    # the report's proposals: the search by expectimax (about 4 ms a game: tile 12's 10 candidates halved from 200
    # games each to 3 at 1,400), the pick verified by the report player on 2 x 300 fresh games (+-0.09 on the pay)
    # and guarded on 2 x 100, its worth to winning (restricted play) among the guards
    search_budget=ProposalBudget(search=6000, first=200, verify=300, recheck=100),
    search_player="expectimax",
    examples={"balance": "--param 'tile.12.values=[[10,5,2],[9,5,2],[8,4,2]]' --objective 'tile_pay_excess:* = 0'",
              "robustness": "'hazards_per_game > 0' --variant 'blue.move.copies=3' --players 3"},
)
