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
# # Press your luck in Purramid
#
# Purramid's turn is a press-your-luck decision: after each placement you either stop (this turn's dice become
# cat tiles) or roll the dice you have left and risk a burst (you lose this turn's dice). The advisor
# (`purramid.advise`) solves the rest of the turn **exactly**: an expectimax over every roll and every placement,
# bonus turns included. This notebook asks the question for one board and every number of dice left, then
# measures what simple human rules of thumb give up, by simulating turns (with confidence intervals).

# %%
import matplotlib.pyplot as plt
import pandas as pd

from pyradice_lab import purramid

# %% [markdown]
# ## Stop or roll, by dice left
#
# Side A, empty board, this turn's dice on the bottom "6" (row 0, column 3). How many dice are left decides:

# %%
rows = []
for left in range(1, 5):
    adv = purramid.advise("A", placed=[(0, 3)], dice_left=left)
    best = adv.iloc[0]
    cont = adv[adv.action == "continue"].iloc[0]
    rows.append({"dice_left": left, "best": best.action, "value_stop": adv[adv.action == "stop"].value.iloc[0],
                 "value_continue": cont.value, "burst_probability": cont.burst_probability})
decisions = pd.DataFrame(rows)
decisions

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(decisions.dice_left, decisions.value_stop, "o-", label="stop")
ax.plot(decisions.dice_left, decisions.value_continue, "s-", label="continue (optimal play after)")
ax.set_xlabel("dice left")
ax.set_ylabel("expected tiles this turn")
ax.set_xticks(decisions.dice_left)
ax.legend()
ax.set_title("Purramid, side A: stop or roll? (exact)")
plt.show()

# %% [markdown]
# ## What rules of thumb cost
#
# Whole turns from the empty board under the exact policy and three simple rules ("stop after k placements",
# "stop when the burst risk exceeds 35%"). Each mean carries its standard error; the same seed gives the same
# turns.

# %%
policies = ["optimal", "stop_after:1", "stop_after:2", "risk:0.35"]
summary = []
for i, policy in enumerate(policies):
    turns = purramid.simulate_turns(2000, "A", policy=policy, rng=i)
    tiles = turns["tiles"].to_numpy(float)
    summary.append({"policy": policy, "mean_tiles": tiles.mean(), "se": tiles.std(ddof=1) / len(tiles) ** 0.5,
                    "burst_rate": turns["burst"].mean()})
summary = pd.DataFrame(summary)
summary

# %% [markdown]
# The exact policy is the benchmark: its mean is the advisor's value of the empty board (up to Monte Carlo
# error), and every rule of thumb's shortfall is measured against it with its own standard error.
