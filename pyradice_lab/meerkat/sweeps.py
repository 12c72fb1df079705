"""Sweep cells for ``pyradice-lab sweep meerkat.games``."""

from __future__ import annotations

from ..engine.stats import mean_estimate
from .analysis import start_edge, turn_positions, win_shares

__all__ = ["games_cell", "parse_automa"]


def parse_automa(value) -> bool | None:
    """A sweep's ``automa`` parameter: ``"rules"`` / ``None`` = the rules' setup (the automa joins 2 players),
    else 0/1 (or a bool)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("rules", "default", "")):
        return None
    try:
        flag = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"automa must be 'rules', 0 or 1, got {value!r}") from None
    if flag not in (0, 1):
        raise ValueError(f"automa must be 'rules', 0 or 1, got {value!r}")
    return bool(flag)


def games_cell(params, trials, rng) -> dict:
    """Sweep target ``meerkat.games``: the start player's win share (turn position 1, ties split), their edge
    over the other players' mean share (paired per game), their mean score, the fair share 1 / seats, mean
    turns, and the setup's label (extensions say so).  ``components``: a path to a components file (default:
    the packaged ones)."""
    from .sim import READINGS, setup_label, simulate_games

    players = int(params.get("players", 3))
    automa = parse_automa(params.get("automa", "rules"))
    readings = {k: params[k] for k in READINGS if k in params}
    df = simulate_games(trials, players=players, automa=automa, policies=params.get("policy", "greedy"), rng=rng,
                        components=params.get("components"), **readings)
    automa = bool(df["automa"].iloc[0])
    n = players + automa
    start = turn_positions(df, players, automa) == 0
    score = df[[f"score_{s}" for s in range(n)]].to_numpy(float)[start]
    share = win_shares(df, n)[start]
    out = {"setup": setup_label(players, automa), "win_share_start_player": mean_estimate(share),
           "fair_share": 1.0 / n, "score_start_player": mean_estimate(score),
           "turns": mean_estimate(df["turns"].to_numpy(float))}
    if players > 1:  # paired: the start player's share minus the other players' mean share
        out["start_edge"] = start_edge(df, players, automa)
    return out
