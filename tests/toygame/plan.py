"""The toy race's plan (the contract part ``plan``, :mod:`pyradice_lab.engine.plan`): the report's strength part
plays every registered player, two seats; nothing is compiled.  No ``BENCH``: the toy race has no uniform bench
rows (its own row is in :mod:`.bench`)."""

from __future__ import annotations

from pyradice_lab.engine.plan import ReportPlan

__all__ = ["PLAN"]

#: every registered player (random, hold_at:20, optimal), 2 players
PLAN = ReportPlan(setup="2 players, a race to 50")
