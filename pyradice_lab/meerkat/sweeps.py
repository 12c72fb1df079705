"""Sweep cells for ``pyradice-lab sweep meerkat.games``."""

from __future__ import annotations

from ..stats import mean_estimate
from .analysis import win_shares

__all__ = ["games_cell"]


def games_cell(params, trials, rng) -> dict:
    """Sweep target ``meerkat.games``: seat-0 win share and mean score, mean turns."""
    from .sim import simulate_games

    players, automa = int(params.get("players", 3)), bool(int(params.get("automa", 0)))
    df = simulate_games(trials, players=players, automa=automa, policies=params.get("policy", "greedy"), rng=rng)
    share = win_shares(df, players + automa)[:, 0]
    return {"win_share_seat0": mean_estimate(share), "score_seat0": mean_estimate(df["score_0"].to_numpy(float)),
            "turns": mean_estimate(df["turns"].to_numpy(float))}
