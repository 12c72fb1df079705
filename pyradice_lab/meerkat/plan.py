"""Meerkat Kingdom's plan: what the report, the CLI and the bench run of it (the contract part ``plan``,
:mod:`pyradice_lab.engine.plan`)."""

from __future__ import annotations

from ..engine.plan import BenchPlan, ReportPlan

__all__ = ["PLAN", "BENCH"]

#: The strength part, 3 seats (the rules' setups).  mcts (~0.2 s a game) is measured in docs/guide/meerkat.md;
#: expectimax is the strongest the budget allows.  Restricted play: expectimax, not the report player mcts_v2 (the
#: CLI's and restricted_play's default): mcts_v2 (like mcts_late) plays 50-85 ms a 3-player game against
#: expectimax's 10 ms, minutes more CPU for the full report's 5 x 180 games (docs/guide/meerkat.md, "restricted").
#: Games are about ten times slower than the other games': the full report plays 0.3x.
#: ``<game> ladder`` plays the report's two players by default (``cli_ladder="report"``): the eleven registered
#: players (the automa levels among them) make a long default run, and the question a designer asks is how the
#: report's player stands against the heuristic beside it.
#: The strength part compiles the game kernel (the first wave's longest task); the section, built in three parts,
#: then loads it from numba's cache.
PLAN = ReportPlan(policies=("random_legal", "automa", "automa:H", "heuristic", "greedy", "expectimax"),
                  players=3, full_scale=0.3, restricted_policy="expectimax",
                  setup="3 seats: three players, or two players and the automa (the rules' setups)",
                  cli_ladder="report", compiles="strength", compile_cpu=37.6)

#: The uniform bench rows: the game's own bench has its cold first-call row (``bench.first_call_cold``: the same
#: call, CPU of the whole fresh process); memory with 2 random_legal players and the automa.
#: ``cost``: CPU seconds of one game, every seat playing that policy, 3 players, compiled engine warm (measured
#: 2026-12-06 on the shared 2-core machine under a load of 5-7, so the search players perhaps 2x high): what long
#: calls estimate their cost from.  The automa levels are ladder seats of the automa (a fast rule player).
BENCH = BenchPlan(cold=None, first_call={},
                  memory={"players": 2, "automa": True, "policies": "random_legal"},
                  memory_bound_mb={10 ** 4: 350, 10 ** 5: 500, 10 ** 6: 2200},
                  multifidelity={"metric": "hazards_per_game", "strong_games": 40, "cheap_games": 80},
                  cost={"random_legal": 0.00015, "automa": 0.00015, "heuristic": 0.00052, "greedy": 0.00048,
                        "expectimax": 0.0055, "mcts_late": 0.13, "mcts": 1.3, "mcts_v2": 0.15})
