"""Rocking Raft's plan: what the report, the CLI and the bench run of it (the contract part ``plan``,
:mod:`pyradice_lab.engine.plan`)."""

from __future__ import annotations

from ..engine.plan import BenchPlan, ReportPlan

__all__ = ["PLAN", "BENCH"]

#: The strength part: every registered player, 2 players.  The section compiles the kernels.
PLAN = ReportPlan(setup="2 players, standard variant", compiles="section", compile_cpu=15.7)

#: The uniform bench rows (3 players; memory with greedy players) and the calls that measure the execution
#: layer's parallel efficiency (a cheap robustness run and ladder: 8 and 6 blocks).
#: ``cost``: CPU seconds of one game, every seat playing that policy, 3 players, compiled engine warm (measured
#: 2026-12-06 on the shared 2-core machine, load about 1.5; +-30%): what long calls estimate their cost from.
BENCH = BenchPlan(
    cost={"fixed": 0.0013, "random": 0.0018, "aim": 0.0012, "greedy": 0.0024, "exact": 0.021},
    cold={"players": 3}, first_call={"players": 3}, memory={"players": 3, "policies": "greedy"},
    memory_bound_mb={10 ** 4: 250, 10 ** 5: 300, 10 ** 6: 1000},
    execution={"robustness": ({"finding": "game_length > 10", "reconstructions": 7, "rng": 1}, 8),
               "ladder": ({"policies": ["random", "greedy", "aim"], "rng": 1}, 6)},
    multifidelity={"metric": "points_per_boat", "strong_games": 100, "cheap_games": 200},
    controls={"metric": "points_per_boat", "games": 200}, ahead_of_time=True)
