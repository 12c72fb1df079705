"""Sweep cells for ``pyradice-lab sweep pyradice.games``."""

from __future__ import annotations

import numpy as np

from ..engine.stats import mean_estimate
from .analysis import _check_games, _check_policy
from .geometry import check_players
from .sim import simulate_games

__all__ = ["games_cell"]


def games_cell(params: dict, trials: int, rng) -> dict:
    """Sweep target ``pyradice.games``: ``trials`` games at ``players`` / ``policy``; estimates per seat-game
    (``components``: a path to a components file, default packaged)."""
    players = check_players(params.get("players", 2))
    policy = _check_policy(params.get("policy", "greedy"))
    n = _check_games(trials)
    _, arr = simulate_games(n, players, None, policy, rng=rng, return_arrays=True,
                            components=params.get("components"))
    totals, goals, first = arr["totals"], arr["met"].sum(axis=2), arr["first"]
    share = np.zeros(len(first))
    for g in range(len(first)):
        tied = totals[g] == totals[g].max()
        win = tied & (goals[g] == goals[g][tied].max())
        share[g] = win[first[g]] / win.sum()
    return {"score": mean_estimate(totals.mean(axis=1)), "goals_met": mean_estimate(goals.mean(axis=1)),
            "first_player_win_share": mean_estimate(share)}
