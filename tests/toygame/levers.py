"""The toy race's balance lever (the contract part ``levers``): the start player's edge is compensated by a head
start for the second player, 0 to 6 points.  The rules state that both start at 0, so a proposal is a rule change
and says so.
"""

from __future__ import annotations

from pyradice_lab.engine.levers import GameLevers, Lever, ProposalBudget

__all__ = ["LEVERS", "head_start"]


def head_start(comp, players: int, finding) -> tuple[dict, str, bool]:
    """The second player's head start, 0..6 points (a rule change: the rules start both players at 0)."""
    return ({"race.head_start.value": list(range(7))},
            f"the second player's head start, now {comp.head_start}: 0 to 6 points (a rule change)", True)


#: the games of one proposal under the report player (optimal, about 1 ms per game)
LEVERS = GameLevers(
    levers={"start_player_win": Lever("start_player_win", head_start,
                                      "the second player's head start, 0..6 points (a rule change)", by_players=True)},
    budget=ProposalBudget(search=4000, first=400, verify=2000, recheck=0),
    examples={"balance": "--param 'race.head_start.value=0..6' --objective 'start_player_win = 0.5'",
              "robustness": "'start_player_win > 0.5'"},
)
