"""Pyradice's plan: what the report, the CLI and the bench run of it (the contract part ``plan``,
:mod:`pyradice_lab.engine.plan`)."""

from __future__ import annotations

from ..engine.plan import BenchPlan, Question, ReportPlan

__all__ = ["PLAN", "BENCH", "QUESTIONS"]

#: The strength part: the compiled players with 2 players.  The search player flat_mc (~15x a greedy game since
#: issue 27) is measured in docs/guide/pyradice.md.  The section compiles the kernels.
PLAN = ReportPlan(policies=("random_legal", "greedy", "lookahead"), setup="2 players, default setup",
                  compiles="section", compile_cpu=9.0)

#: The uniform bench rows: the game's own bench has its cold first-call row (``bench.first_call``: the same call,
#: CPU of the whole fresh process); memory with random_legal players.
#:
#: ``cost``: CPU seconds of one game, every seat playing that policy, 2 players, compiled engine warm (measured
#: 2026-12-06 on the shared 2-core machine, load about 1.5; +-30%): what long calls estimate their cost from.
BENCH = BenchPlan(cold=None, first_call={}, memory={"players": 2, "policies": "random_legal"},
                  memory_bound_mb={10 ** 4: 350, 10 ** 5: 500, 10 ** 6: 2200},
                  multifidelity={"metric": "card_points", "strong_games": 100, "cheap_games": 200},
                  cost={"random_legal": 0.00016, "greedy": 0.0021, "lookahead": 0.0020, "flat_mc": 0.040},
                  ahead_of_time=True)

#: One-call questions of the CLI (``pyradice-lab pyradice goals --policies flat_mc``): goal difficulty and card
#: strength under a chosen player (default: the report player, the strongest).
QUESTIONS = {
    "goals": Question("how hard is each goal token under a player? P(met) per level, ranked, with 95% CIs",
                      "analysis:goal_rates", "p_met", ("level", "goal", "goal_name"), "hardest goal",
                      "easiest goal", unit="%", many=True, where="attainable", games=300),
    "cards": Question("how strong is each objective card under a player? points per seat, ranked, with 95% CIs",
                      "analysis:card_balance", "mean_points", ("card",), "weakest card", "strongest card",
                      unit="VP", games=200, runs=3),  # three card line-ups (analysis.CARD_GROUPS)
}
