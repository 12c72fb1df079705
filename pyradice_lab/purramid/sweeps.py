"""Sweep cells for ``pyradice-lab sweep purramid.games`` and ``purramid.turns``."""

from __future__ import annotations

from ..engine.stats import mean_estimate, proportion_estimate

__all__ = ["games_cell", "turns_cell"]


def games_cell(params: dict, trials: int, rng) -> dict:
    """``trials`` games for ``players``/``layout``/``policy``: turns, seat-0 win rate, gold, bursts
    (``components``: a path to a components file, default packaged)."""
    from .sim import simulate_games

    df = simulate_games(trials, players=int(params.get("players", 4)), layout=params.get("layout", "A"),
                        policies=params.get("policy", "greedy"), rng=rng, components=params.get("components"))
    return {"turns": mean_estimate(df["turns"]),
            "seat0_wins": proportion_estimate(int((df["winner"] == 0).sum()), len(df)),
            "winner_gold": mean_estimate(df["winner_gold"]),
            "bursts": mean_estimate(df["bursts"])}


def turns_cell(params: dict, trials: int, rng) -> dict:
    """``trials`` fresh turns on an empty ``layout`` with ``policy`` and ``dice``: value and burst rate."""
    from .turns import simulate_turns, summarize_turns

    df = simulate_turns(trials, params.get("layout", "A"), policy=params.get("policy", "greedy"),
                        turn_dice=int(params.get("dice", 5)), rng=rng, components=params.get("components"))
    s = summarize_turns(df)
    return {"value": mean_estimate(df["value"]), "burst": proportion_estimate(int(df["burst"].sum()), len(df)),
            "bonus_turns": s["bonus_turns"]}
