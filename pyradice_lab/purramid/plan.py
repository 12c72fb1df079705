"""Purramid's plan: what the report, the CLI and the bench run of it (the contract part ``plan``,
:mod:`pyradice_lab.engine.plan`)."""

from __future__ import annotations

from ..engine.plan import BenchPlan, ReportPlan

__all__ = ["PLAN", "BENCH"]

#: The strength part: the human-style players on side A with 2 players, and the exact player ``optimal`` (a few
#: games per second) in a smaller second ladder against the best of them, fitted together; the engine is fast, so
#: the full report plays 4x the games.  The section compiles the kernels (the exact solver about 23 s of CPU cold).
PLAN = ReportPlan(policies=("greedy", "stop_after:2", "stop_after:1", "risk:0.3", "risk:0.5", "risk:0.7"),
                  optimal=("risk:0.7", "optimal"), full_scale=4.0, setup="2 players, side A",
                  compiles="section", compile_cpu=25.6)

#: The uniform bench rows: 4 players; memory with greedy players.
#: ``cost``: CPU seconds of one game, every seat playing that policy, 4 players, compiled engine warm (measured
#: 2026-12-06 on the shared 2-core machine, load about 1.5; +-30%): what long calls estimate their cost from.
#: ``optimal`` (200 games in a fresh process without an openings file, 2026-12-07 evening after issue 47's direct
#: bonus turns, AMD EPYC VM, load ~1: 0.020 at 4 players, 0.022 at 3, 0.0042 at 2, re-measured 0.0196 / 0.0210 /
#: 0.0039 with seeds no earlier run played; a process that finds the file earlier runs left pays less, 0.0076 /
#: 0.0081 / 0.0029; the afternoon's 0.032 / 0.037 / 0.0031, the morning's 0.34 / 0.087) is measured per player
#: count (a 2-player game revisits few boards).
BENCH = BenchPlan(
    cost={"greedy": 0.00043, "stop_after": 0.00026, "risk": 0.00026, "optimal": 0.020, "optimal@2": 0.0042,
          "optimal@3": 0.022},
    cold={"players": 4}, first_call={"players": 4}, memory={"players": 4, "policies": "greedy"},
    memory_bound_mb={10 ** 4: 300, 10 ** 5: 400, 10 ** 6: 1000},
    first_use_extra=(("purramid first simulate_games(2 games, one optimal seat): the exact solver's path",
                      {"n_games": 2, "players": 4, "policies": ["optimal", "greedy", "greedy", "greedy"], "rng": 0}),),
    multifidelity={"metric": "tiles_per_turn", "strong_games": 100, "cheap_games": 200},
    controls={"metric": "start_player_win", "games": 300, "players": 2}, ahead_of_time=True,
    ahead_of_time_extra=("memopool.exercise",))
