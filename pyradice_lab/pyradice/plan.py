"""Pyradice's plan: what the report, the CLI and the bench run of it (the contract part ``plan``,
:mod:`pyradice_lab.engine.plan`)."""

from __future__ import annotations

from ..engine.plan import BenchPlan, ReportPlan

__all__ = ["PLAN", "BENCH"]

#: The strength part: the compiled players with 2 players.  The search player flat_mc (~15x a greedy game since
#: issue 27) is measured in docs/guide/pyradice.md.  The section compiles the kernels.
PLAN = ReportPlan(policies=("random_legal", "greedy", "lookahead"), setup="2 players, default setup",
                  compiles="section", compile_cpu=9.0)

#: The uniform bench rows: the game's own bench has its cold first-call row (``bench.first_call``: the same call,
#: CPU of the whole fresh process); memory with random_legal players.
BENCH = BenchPlan(cold=None, first_call={}, memory={"players": 2, "policies": "random_legal"},
                  memory_bound_mb={10 ** 4: 350, 10 ** 5: 500, 10 ** 6: 2200},
                  multifidelity={"metric": "card_points", "strong_games": 100, "cheap_games": 200})
