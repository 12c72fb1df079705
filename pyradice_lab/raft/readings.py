"""Rocking Raft experiments on turn order and on the readings of the rules (split from :mod:`.analysis`).

- :func:`start_player`: win rate and points by turn position (0 = the start player), per player count
  and variant: does going first pay?
- :func:`readings`: does a reading of the rules (or a modelling choice) matter?  The default against each
  alternative that the engines can play, on the same seeds (common random numbers: game ``i`` of both runs
  starts from the same setup and draws the same uniforms), as paired differences with 95% intervals.

Both return a :class:`~pyradice_lab.report.ExperimentResult` like every function of :mod:`.analysis`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..report import ExperimentResult
from ..stats import Z95, mean_estimate
from .analysis import _children, _fig
from .sim import by_position, simulate_games, start_player_table

__all__ = ["start_player", "readings", "READINGS"]

#: the alternatives :func:`readings` compares with the defaults: label -> (variant, simulate_games keywords)
READINGS = {
    "discarded gems may roll": ("standard", {"discards_roll": True}),
    "no spreading along the lowered wall": ("standard", {"params": {"wall_spread": 0.0}}),
    "sunk lifeboats not replaced": ("sinking", {"replace_sunk": False}),
}


def _verdict(est_low: float, est_high: float, fair: float) -> str:
    if est_low > fair:
        return "above"
    if est_high < fair:
        return "below"
    return "no detectable difference from"


def start_player(n_games: int, seed, players=(2, 3, 4), variants=("standard", "sinking"),
                 n_jobs: int = 1) -> ExperimentResult:
    """Win share and points by turn position, per player count and variant (greedy players)."""
    rows = []
    kids = _children(seed, len(players) * len(variants))
    i = 0
    for p in players:
        for v in variants:
            df = simulate_games(n_games, p, v, rng=kids[i], n_jobs=n_jobs)
            i += 1
            t = start_player_table(df)
            t.insert(0, "variant", v)
            t.insert(0, "players", p)
            rows.append(t)
    t = pd.concat(rows, ignore_index=True)
    fig, axes = _fig(len(players), 3.2 * len(players), 3.2)
    for ax, p in zip(axes, players):
        for v, off, ls in zip(variants, (-0.06, 0.06), ("-", "--")):
            sub = t[(t.players == p) & (t.variant == v)]
            y = sub["win_share"].to_numpy()
            ax.errorbar(sub["position"] + off, y, yerr=[y - sub["win_share_ci_low"], sub["win_share_ci_high"] - y],
                        marker="o", capsize=3, ls=ls, label=v)
        ax.axhline(1 / p, color="0.5", ls=":", label="fair share")
        ax.set_xticks(range(p))
        ax.set_xlabel(f"turn position ({p} players; 0 = start)")
        ax.set_title(f"{p} players", fontsize=9)
    axes[0].set_ylabel("share of wins (ties split)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    parts = []
    for p in players:
        for v in variants:
            r = t[(t.players == p) & (t.variant == v) & (t.position == 0)].iloc[0]
            parts.append(f"{p} players {v}: {r.win_share:.1%} (95% CI {r.win_share_ci_low:.1%}..{r.win_share_ci_high:.1%}, "
                         f"{_verdict(r.win_share_ci_low, r.win_share_ci_high, 1 / p)} the fair {1 / p:.1%}; "
                         f"points margin {r.score_margin:+.2f}, CI {r.score_margin_ci_low:+.2f}..{r.score_margin_ci_high:+.2f})")
    off = t[(t.win_share_ci_low > t.fair_share) | (t.win_share_ci_high < t.fair_share)]
    others = "; ".join(f"{r.players} players {r.variant}, position {r.position}: {r.win_share:.1%} "
                       f"({r.win_share_ci_low:.1%}..{r.win_share_ci_high:.1%})" for r in off.itertuples() if r.position)
    reading = (f"{n_games:,} games per cell, greedy players, the first player drawn at random as the rules say; every game "
               "is re-indexed by turn position (seat numbers average over positions and hide a start-player effect). "
               "The start player's share of the wins (shared wins split): " + "; ".join(parts) + ". Other positions "
               "whose share's interval excludes the fair share: " + (others or "none") + ". Every player has the "
               "same number of turns (the game ends with the player right of the start player), so what remains is the "
               "order within a round: who tilts the fresh raft first, and whose leftovers (passed to the left, the next "
               "player in turn order) each player receives first. The table lists every position.")
    return ExperimentResult("raft_start_player", "Start-player advantage by turn position", reading, t, fig,
                            {"games_per_cell": n_games})


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


def readings(n_games: int, seed, players: int = 3, n_jobs: int = 1, alternatives=None) -> ExperimentResult:
    """Each alternative reading against the default, on the same seeds: paired differences with 95% CIs."""
    alternatives = READINGS if alternatives is None else alternatives
    rows = []
    kids = _children(seed, len(alternatives))
    for (label, (variant, kwargs)), s in zip(alternatives.items(), kids):
        # a fresh copy of the same SeedSequence for each run (spawning advances a SeedSequence)
        base = _per_game(simulate_games(n_games, players, variant, rng=_copy(s), n_jobs=n_jobs))
        alt = _per_game(simulate_games(n_games, players, variant, rng=_copy(s), n_jobs=n_jobs, **kwargs))
        for metric in ("mean_score", "winning_score", "rounds", "start_win_share", "gems_passed", "sunk"):
            if metric == "sunk" and variant != "sinking":
                continue
            d = mean_estimate(alt[metric] - base[metric])
            rows.append({"reading": label, "variant": variant, "metric": metric, "default": base[metric].mean(),
                         "alternative": alt[metric].mean(), "difference": d.value, "se": d.se, "ci_low": d.ci_low,
                         "ci_high": d.ci_high, "n": n_games, "matters": bool(d.ci_low > 0 or d.ci_high < 0)})
    t = pd.DataFrame(rows)
    fig, axes = _fig(2, 9, 3.0)
    for ax, metric, unit in zip(axes, ("winning_score", "start_win_share"), ("points", "share of wins")):
        sub = t[t.metric == metric].reset_index(drop=True)
        y = np.arange(len(sub))
        ax.errorbar(sub["difference"], y, xerr=Z95 * sub["se"], fmt="o", capsize=3)
        ax.axvline(0, color="0.5", ls=":")
        ax.set_yticks(y, sub["reading"] if ax is axes[0] else [""] * len(sub), fontsize=7)
        ax.set_xlabel(f"alternative minus default: {metric.replace('_', ' ')} ({unit})", fontsize=8)
    fig.tight_layout()
    parts = []
    for label in alternatives:
        sub = t[t.reading == label].set_index("metric")
        moved = [m for m in sub.index if sub.loc[m, "matters"]]
        ws, sw = sub.loc["winning_score"], sub.loc["start_win_share"]
        parts.append(f"{label} ({sub['variant'].iloc[0]}): winning score {ws.difference:+.2f} (95% CI {ws.ci_low:+.2f}.."
                     f"{ws.ci_high:+.2f}), start player's share of wins {sw.difference:+.3f} ({sw.ci_low:+.3f}.."
                     f"{sw.ci_high:+.3f}); intervals excluding 0: {', '.join(moved) if moved else 'none'}")
    reading = (f"{n_games:,} {players}-player games per reading, greedy players, the default and the alternative played "
               "on the same seeds (paired differences). " + "; ".join(parts) + ". A reading that moves no interval "
               "away from 0 does not matter at this sample size; the guide lists the reasons for each default.")
    return ExperimentResult("raft_readings", "Do the readings of the rules matter?", reading, t, fig,
                            {"players": players, "games": n_games})
