"""Purramid's balance levers (the game contract's ``levers`` part, :class:`~pyradice_lab.engine.levers.GameLevers`).

``start_player_win`` (the start player wins more or less than a fair share) is compensated by the deal: up to
2 tiles moved between the start player's and the last player's deal, the total kept.  The rules state the deal,
so the proposal is a rule change and says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.levers import GameLevers, Lever, ProposalBudget, Range

if TYPE_CHECKING:  # pragma: no cover - the type only: the CLI reads the examples without numpy
    from ..engine.findings import Finding

__all__ = ["LEVERS", "start_deal", "deal_ranges"]


def start_deal(comp, players: int, f: Finding) -> tuple[dict, str, bool]:
    """The start-player compensation: move up to 2 tiles between the start player's and the last player's deal
    (either way), the total kept; the deal is stated by the rules, so the proposal is a rule change."""
    path = f"deal_{players}p.value"
    now = [int(v) for v in comp.get(path)]
    choices = []
    for k in (-2, -1, 0, 1, 2):
        v = list(now)
        v[0] -= k
        v[-1] += k
        if min(v) >= 1:
            choices.append(v)
    return ({path: choices}, f"the {players}-player deal {'/'.join(map(str, now))}: up to 2 tiles moved between the "
            "start player and the last player (a rule change: the rules state the deal)", True)


def deal_ranges(comp, players: int, f: Finding) -> tuple[list[Range], int]:
    """The joint search's range: up to 3 tiles moved from the start player's deal to the last player's (negative:
    the other way), the total kept, every seat at least 1 (a rule change): ``(ranges, own)``."""
    now = [int(v) for v in comp.get(f"deal_{players}p.value")]
    return [Range(f"deal_{players}p.value", -min(3, now[-1] - 1), min(3, now[0] - 1), kind="transfer",
                  label=f"tiles moved from the start player's to the last player's {players}-player deal")], 1


#: the games of one proposal under the report player (no re-check: the game has one component finding per player
#: count).  At 2 players an all-optimal game costs 1.5-4 ms CPU once the solver's openings are cached, and one tile
#: of the deal moves the start player's share by about 8 points (2026-12-07, 1,500 games a deal: 26/25 0.535,
#: 27/24 0.452, 25/26 0.620), so the search and its verification play enough games to tell the deals apart
#: (1,500 a verification run: +-1.7 points; 6,000 games, about 10 CPU s: the count's own budget, beside the
#: default that bounds every game's share of the report in games); at 3 and 4 players the optimal player costs far more
LEVERS = GameLevers(
    levers={"start_player_win": Lever(
        "start_player_win", start_deal,
        "the deal of the start player and the last player, up to 2 tiles moved either way, the total kept, every "
        "seat at least 1 (a rule change); joint search: up to 3 tiles", by_players=True, axes=deal_ranges)},
    budget=ProposalBudget(search=300, first=40, verify=150, recheck=0),
    player_budgets={2: ProposalBudget(search=3000, first=300, verify=1500, recheck=0),
                    3: ProposalBudget(search=100, first=20, verify=40, recheck=0),
                    4: ProposalBudget(search=50, first=10, verify=20, recheck=0)},
    examples={"balance": "--param 'deal_2p.value=[[27,24],[26,25],[25,26]]' --objective 'start_player_win = 0.5' "
                         "--players 2",
              "robustness": "'start_player_win < 0.5' --players 2"},
)
