"""Sweep cells for ``pyradice-lab sweep raft.games`` and ``raft.tilt``."""

from __future__ import annotations

from ..engine.stats import Estimate, MeanAccumulator, mean_estimate, proportion_estimate
from .components import coerce_components
from .sim import simulate_games, start_player_table

__all__ = ["games_cell", "tilt_cell"]


def games_cell(params: dict, trials: int, rng) -> dict:
    """Sweep target ``raft.games``: Monte Carlo game statistics for one parameter cell (``components``: a path to a
    components file, default packaged)."""
    players = int(params.get("players", 3))
    comp = coerce_components(params.get("components"))
    black = int(params.get("black", -1))
    if black >= 0:
        comp = comp.with_gems(players, list(comp.gems.in_play(players)[:-1]) + [black])
    depth = int(params.get("flag_depth", -1))
    df = simulate_games(trials, players, params.get("variant", "standard"), params.get("policy", "greedy"), rng=rng,
                        components=comp, flag_depth=None if depth < 0 else depth,
                        discards_roll=bool(int(params.get("discards_roll", 0))),
                        replace_sunk=bool(int(params.get("replace_sunk", 1))))
    seat = df[[f"score_{p}" for p in range(players)]].to_numpy().mean(axis=1)
    start = start_player_table(df).iloc[0]
    return {"winning_score": mean_estimate(df["winning_score"]), "mean_score": mean_estimate(seat),
            "rounds": mean_estimate(df["rounds"]), "gift_points": mean_estimate(df["gift_points"]),
            "sunk": mean_estimate(df["sunk"]), "shared_win": proportion_estimate(int(df["tie"].sum()), len(df)),
            "start_win_share": Estimate(float(start.win_share), float(start.win_share_se), len(df),
                                        float(start.win_share_ci_low), float(start.win_share_ci_high))}


def tilt_cell(params: dict, trials: int, rng) -> dict:
    """Sweep target ``raft.tilt``: Monte Carlo mean gems fallen vs the exact model value."""
    from .layouts import reference_state
    from .odds import expected_fallen
    from .tilting import tilt_blocks

    comp = coerce_components(params.get("components"))
    state = reference_state(int(params.get("players", 4)), comp)
    edge, finger, d = params.get("edge", "north"), params.get("finger", "centre"), float(params.get("duration", 1.0))
    acc = MeanAccumulator()  # tilts in blocks: memory does not grow with trials
    for res in tilt_blocks(state, edge, finger, d, n=max(trials, 2), rng=rng, components=comp):
        acc.add(res.fallen.sum(axis=1))
    est = acc.estimate()
    exact = float(expected_fallen(state, edge, finger, d, components=comp).sum())
    return {"fallen": est, "exact": exact, "exact_in_ci": est.contains(exact)}
