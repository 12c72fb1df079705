# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Pyradice: which goal tokens are hard, and how much does choosing your dice help?
#
# Each level of a Pyradice pyramid carries a goal token (e.g. "Zigzag", "Even", "Threes and fives") that
# pays when the finished level meets it. A designer wants to know which tokens are hard; a player wants to
# know how much careful dice choice buys over taking dice at random.
#
# **Method.** Two kinds of numbers, side by side:
#
# - **exact**: the chance that a level filled *blind* (random dice, no choice, no skill) meets its token
#   (`pyradice.odds.blind_goal_probability`, an exact enumeration; no sampling error);
# - **Monte Carlo**: 2-player games on the default setup where both seats take legal dice at random
#   (`random_legal`) or greedily (`greedy`), `pyradice.analysis.goal_rates`. The sample per game is the share
#   of seats meeting the token (seats of one game share a quarry), so every rate has a standard error and a
#   Student-t 95% interval over games. One `SeedSequence` seeds everything: the same seed gives the same
#   numbers. The sample is small to keep the notebook quick (a few seconds); the report runs more games.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from pyradice_lab.pyradice.analysis import goal_rates

GAMES, PLAYERS, SEED = 400, 2, 2026
POLICIES = ("random_legal", "greedy")

# %%
rates = goal_rates(GAMES, PLAYERS, POLICIES, rng=SEED)
goals = rates[rates.level > 0]
score = rates.groupby("policy")[["mean_score", "mean_score_se"]].first()   # the mean score per seat, per policy

# %% [markdown]
# ## The table
#
# One row per level: the token, its exact blind chance, and each policy's simulated rate with its 95%
# interval. `gain` is greedy minus random_legal (independent samples, so its standard error is the root sum of
# squares of the two).

# %%
wide = goals.pivot(index=["level", "goal", "goal_name", "blind_exact"], columns="policy",
                   values=["p_met", "p_met_se", "p_met_ci_low", "p_met_ci_high"])
table = pd.DataFrame({
    "level": wide.index.get_level_values("level"),
    "token": [f"{g} {n}" for g, n in zip(wide.index.get_level_values("goal"), wide.index.get_level_values("goal_name"))],
    "blind_exact": wide.index.get_level_values("blind_exact"),
    **{f"{pol}": wide[("p_met", pol)].to_numpy() for pol in POLICIES},
    **{f"{pol}_ci": [f"{lo:.3f}..{hi:.3f}" for lo, hi in zip(wide[("p_met_ci_low", pol)], wide[("p_met_ci_high", pol)])]
       for pol in POLICIES},
})
table["gain"] = table["greedy"] - table["random_legal"]
table["gain_se"] = np.hypot(wide[("p_met_se", "greedy")].to_numpy(), wide[("p_met_se", "random_legal")].to_numpy())
table.round(3).assign(blind_exact=table.blind_exact.round(4))

# %% [markdown]
# ## The figure
#
# Bars: simulated chance per level and policy (95% interval); black ticks: the exact blind chance.

# %%
fig, ax = plt.subplots(figsize=(7, 3.6))
x = np.arange(len(table))
for i, pol in enumerate(POLICIES):
    sub = goals[goals.policy == pol].sort_values("level")
    ax.bar(x + (i - 0.5) * 0.38, sub.p_met, 0.38, label=pol,
           yerr=[sub.p_met - sub.p_met_ci_low, sub.p_met_ci_high - sub.p_met], capsize=3)
ax.scatter(x, table.blind_exact, marker="_", s=600, color="black", zorder=3, label="blind, exact")
ax.set_xticks(x, [f"L{lv}\n{t}" for lv, t in zip(table.level, table.token)], fontsize=8)
ax.set_xlabel("pyramid level and its goal token")
ax.set_ylabel("P(goal token met) (probability, 95% CI)")
ax.set_ylim(0, 1.05)
ax.legend(fontsize=8)
ax.set_title(f"Pyradice, {PLAYERS} players, {GAMES} games per policy (seed {SEED})")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## The answer
#
# Computed from the numbers above (nothing below is typed in by hand): the hardest token under greedy play,
# where choice helps most and least (gain ± 1.96 SE), and what the choice is worth in points.

# %%
hard = table.loc[table["greedy"].idxmin()]
most, least = table.loc[table["gain"].idxmax()], table.loc[table["gain"].idxmin()]
s_gain = score.loc["greedy", "mean_score"] - score.loc["random_legal", "mean_score"]
s_se = np.hypot(score.loc["greedy", "mean_score_se"], score.loc["random_legal", "mean_score_se"])
print(f"Hardest token under greedy play: level {hard.level} {hard.token}, met in {hard.greedy:.3f} of seats "
      f"(95% CI {hard.greedy_ci}); blind, exact: {hard.blind_exact:.4f}.")
for what, r in (("most", most), ("least", least)):
    print(f"Choice helps {what} on level {r.level} {r.token}: {r.random_legal:.3f} -> {r.greedy:.3f}, "
          f"gain {r.gain:+.3f} (95% CI {r.gain - 1.96 * r.gain_se:+.3f}..{r.gain + 1.96 * r.gain_se:+.3f}).")
print(f"Mean score per seat: random_legal {score.loc['random_legal', 'mean_score']:.2f}, greedy "
      f"{score.loc['greedy', 'mean_score']:.2f}; greedy gains {s_gain:+.2f} points (95% CI {s_gain - 1.96 * s_se:+.2f}.."
      f"{s_gain + 1.96 * s_se:+.2f}).")
