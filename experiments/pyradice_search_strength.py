# %% [markdown]
# # Pyradice: how strong is the search player?
# `flat_mc` (default budget, 16 rollouts per decision) against `lookahead` and `greedy`, 2 players, in blocks of
# games: opponents alternate block by block, `flat_mc` sits in seat 0 or 1 alternately, the start player is the
# game's roll-off.  Win share (shared wins split) with a Wilson interval, mean VP margin with a t interval.
# The measurement quoted in docs/guide/pyradice.md is the full size: 40 blocks of 5 games (200 games, about 25
# minutes on a loaded machine); `--quick`: 8 blocks of 1 game (indicative only); `--seed N`, `--out DIR`.

# %%
import numpy as np
import pandas as pd

from pyradice_lab.design.strength import wilson_interval
from pyradice_lab.engine.findings import Finding
from pyradice_lab.engine.stats import mean_estimate
from pyradice_lab.pyradice.sim import simulate_games
from pyradice_lab.report import ExperimentResult, run_experiment

POLICY = "flat_mc"


def play(blocks: int, size: int, seed: int) -> pd.DataFrame:
    """One row per game: the opponent, flat_mc's seat, its share of the win and its VP margin."""
    rows = []
    for i, ss in enumerate(np.random.SeedSequence(seed).spawn(blocks)):
        opp, seat = ("lookahead", "greedy")[i % 2], (i // 2) % 2
        df = simulate_games(size, 2, None, [POLICY, opp] if seat == 0 else [opp, POLICY], rng=ss)
        share = np.where(df.n_winners > 1, 1.0 / df.n_winners, (df.winner == seat).astype(float))
        rows.append(pd.DataFrame({"opponent": opp, "seat": seat, "share": share,
                                  "margin": df[f"score_s{seat}"] - df[f"score_s{1 - seat}"],
                                  "starts": df.first_player == seat}))
    return pd.concat(rows, ignore_index=True)


def make(quick: bool, seed: int) -> ExperimentResult:
    import matplotlib.pyplot as plt

    blocks, size = (8, 1) if quick else (40, 5)
    games = play(blocks, size, seed)
    table, findings = [], []
    for opp, g in games.groupby("opponent", sort=False):
        lo, hi = (float(v) for v in wilson_interval(g.share.sum(), len(g)))
        m = mean_estimate(g.margin.to_numpy())
        table.append({"opponent": opp, "games": len(g), "win_share": g.share.mean(), "win_share_ci_low": lo,
                      "win_share_ci_high": hi, "vp_margin": m.value, "vp_margin_ci_low": m.ci_low,
                      "vp_margin_ci_high": m.ci_high})
        findings.append(Finding("difference", f"the {POLICY} player's win share against {opp}, 2 players", g.share.mean(),
                                lo, hi, n=len(g), null=0.5, null_label="a fair share",
                                test="Wilson interval, ties split", unit="%"))
    table = pd.DataFrame(table)
    fig, ax = plt.subplots(figsize=(5.5, 3))
    x = np.arange(len(table))
    ax.errorbar(x, table.win_share, yerr=[table.win_share - table.win_share_ci_low,
                                          table.win_share_ci_high - table.win_share], fmt="o", capsize=4)
    ax.axhline(0.5, color="grey", linestyle="--", label="fair share")
    ax.set_xticks(x, [f"vs {o}" for o in table.opponent])
    ax.set_xlim(-0.5, len(table) - 0.5)
    ax.set_ylim(0, 1)
    ax.set_xlabel("opponent")
    ax.set_ylabel(f"{POLICY} win share (95% CI)")
    ax.legend()
    return ExperimentResult("pyradice_search_strength", f"Strength of the search player ({POLICY})",
                            f"{blocks} blocks of {size} games, 2 players, opponents alternating block by block, "
                            f"{POLICY} in seat 0 or 1 alternately, the start player by the roll-off.", table,
                            figure=fig, findings=tuple(findings), question="How much stronger is the search "
                            "player than lookahead and greedy?")


run_experiment(make, seed=2026)
