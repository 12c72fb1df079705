"""Rocking Raft experiments on turn order and on the readings of the rules (split from :mod:`.analysis`).

- :func:`start_player`: win rate and points by turn position (1 = the start player), per player count
  and variant: does going first pay?
- :func:`readings`: does a reading of the rules (or a modelling choice) matter?  The default against each
  alternative that the engines can play, on the same seeds (common random numbers: game ``i`` of both runs
  starts from the same setup and draws the same uniforms), as paired differences with 95% intervals.

Both return a :class:`~pyradice_lab.report.ExperimentResult` like every function of :mod:`.analysis`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.findings import Finding
from ..engine.results import ExperimentResult
from ..engine.stats import mean_estimate
from .analysis import _children
from .sim import by_position, simulate_games, start_player_table

__all__ = ["start_player", "readings", "READINGS"]

#: the alternatives :func:`readings` compares with the defaults: label -> (variant, simulate_games keywords)
READINGS = {
    "discarded gems may roll": ("standard", {"discards_roll": True}),
    "no spreading along the lowered wall": ("standard", {"params": {"wall_spread": 0.0}}),
    "sunk lifeboats not replaced": ("sinking", {"replace_sunk": False}),
}


def start_player(n_games, seed, players=(2, 3, 4), variants=("standard", "sinking"),
                 n_jobs: int = 1, policies: str = "greedy") -> ExperimentResult:
    """Win share and points by turn position, per player count and variant (every seat ``policies``);
    ``n_games``: per cell, an int or ``{players: n}``."""
    rows = []
    kids = _children(seed, len(players) * len(variants))
    i = 0
    for p in players:
        for v in variants:
            n = n_games[p] if isinstance(n_games, dict) else n_games
            df = simulate_games(n, p, v, policies=policies, rng=kids[i], n_jobs=n_jobs)
            i += 1
            t = start_player_table(df)
            t.insert(0, "variant", v)
            t.insert(0, "players", p)
            rows.append(t)
    t = pd.concat(rows, ignore_index=True)
    # start_player_table numbers turn positions from 1 (1 = the start player), as text, tables and figures do
    # compact: outright win rates and the points' standard errors are in start_player_table
    t = t[["players", "variant", "position", "games", "fair_share", "win_share", "win_share_ci_low",
           "win_share_ci_high", "mean_score", "score_margin", "score_margin_ci_low", "score_margin_ci_high"]]
    findings = []
    for r in t.itertuples():
        if r.position != 1 and not (r.win_share_ci_low > r.fair_share or r.win_share_ci_high < r.fair_share):
            continue  # the start player always; other positions only when off the fair share
        who = "start player" if r.position == 1 else f"turn position {r.position}"
        findings.append(Finding("difference", f"{who}'s win share, {r.players} players, {r.variant}", r.win_share,
                                r.win_share_ci_low, r.win_share_ci_high, n=int(r.games), null=r.fair_share,
                                null_label="a fair share", test="t interval, ties split", player=policies, unit="%",
                                dist="t", df=max(int(r.games) - 1, 1)))
    cells = (", ".join(f"{p}p {n:,}" for p, n in n_games.items()) if isinstance(n_games, dict) else f"{n_games:,}")
    reading = (f"{cells} games per cell, {policies} players, the first player drawn at random as the rules say; every "
               "game is re-indexed by turn position (seat numbers average over positions and hide a start-player "
               "effect). Findings: the start player in every cell, and any other position whose interval excludes "
               "the fair share. Every player has the same number of turns (the game ends with the player right of "
               "the start player), so what remains is the order within a round: who tilts the fresh raft first, and "
               "whose leftovers (passed to the left, the next player in turn order) each player receives first. The "
               "table lists every position.")
    return ExperimentResult("raft_start_player", "Start-player advantage by turn position", reading, t, None,
                            {"figure_data": {"t": t, "players": players, "variants": variants},
                             "games_per_cell": n_games}, findings=findings,
                            sample_size=min(n_games.values()) if isinstance(n_games, dict) else n_games, max_rows=8,
                            question="Does going first pay, at each player count and in each variant?")


def _per_game(df: pd.DataFrame) -> dict[str, np.ndarray]:
    players = int(df["players"].iloc[0])
    score = by_position(df, "score")
    boats = by_position(df, "boats")
    key = score * 1000 + boats
    top = key == key.max(axis=1, keepdims=True)
    return {"mean_score": score.mean(axis=1), "winning_score": df["winning_score"].to_numpy(float),
            "rounds": df["rounds"].to_numpy(float), "start_win_share": (top / top.sum(axis=1, keepdims=True))[:, 0],
            "gems_passed": df["gems_passed"].to_numpy(float), "sunk": df["sunk"].to_numpy(float),
            "players": np.full(len(df), players)}


def _copy(seq: np.random.SeedSequence) -> np.random.SeedSequence:
    return np.random.SeedSequence(seq.entropy, spawn_key=seq.spawn_key, pool_size=seq.pool_size)


def readings(n_games: int, seed, players: int = 3, n_jobs: int = 1, alternatives=None,
             policies: str = "greedy") -> ExperimentResult:
    """Each alternative reading against the default, on the same seeds: paired differences with 95% CIs."""
    alternatives = READINGS if alternatives is None else alternatives
    rows = []
    kids = _children(seed, len(alternatives))
    for (label, (variant, kwargs)), s in zip(alternatives.items(), kids):
        # a fresh copy of the same SeedSequence for each run (spawning advances a SeedSequence)
        base = _per_game(simulate_games(n_games, players, variant, policies=policies, rng=_copy(s), n_jobs=n_jobs))
        alt = _per_game(simulate_games(n_games, players, variant, policies=policies, rng=_copy(s), n_jobs=n_jobs,
                                       **kwargs))
        for metric in ("mean_score", "winning_score", "rounds", "start_win_share", "gems_passed", "sunk"):
            if metric == "sunk" and variant != "sinking":
                continue
            d = mean_estimate(alt[metric] - base[metric])
            rows.append({"reading": label, "variant": variant, "metric": metric, "default": base[metric].mean(),
                         "alternative": alt[metric].mean(), "difference": d.value, "se": d.se, "ci_low": d.ci_low,
                         "ci_high": d.ci_high, "n": n_games, "matters": bool(d.ci_low > 0 or d.ci_high < 0)})
    t = pd.DataFrame(rows)
    findings = []
    names = {"winning_score": ("winning score", "points", 5.0), "start_win_share": ("start player's win share", "%",
                                                                                  1 / players)}
    for r in t[t.metric.isin(list(names))].itertuples():
        what, unit, scale = names[r.metric]
        findings.append(Finding("difference", f"{what}, '{r.reading}' instead of the default reading ({r.variant}, "
                                f"{players} players)", r.difference, r.ci_low, r.ci_high, n=int(r.n), null=0.0,
                                null_label="no change", test="paired t interval (same seeds)", player=policies,
                                dist="t", df=max(int(r.n) - 1, 1),
                                unit=unit, scale=scale))
    reading = (f"{n_games:,} {players}-player games per reading, {policies} players, the default and the alternative played "
               "on the same seeds (paired differences); the table has every metric and says which intervals exclude "
               "0. A reading whose intervals all contain 0 does not matter at this sample size; the guide lists the "
               "reasons for each default.")
    return ExperimentResult("raft_readings", "Do the readings of the rules matter?", reading, t, None,
                            {"figure_data": {"t": t},
                             "players": players, "games": n_games}, findings=findings, sample_size=n_games, max_rows=8,
                            question="Would another reading of the rules text change the numbers?")
