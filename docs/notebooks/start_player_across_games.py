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
# # Start-player advantage across games
#
# Does the player who starts win more often than a fair share? For each game: seeded 3-player games with the
# default (greedy) players, the start player's win share with a 95% confidence interval, measured by **turn
# position** (in Pyradice, Rocking Raft and Meerkat Kingdom a roll-off or a random draw decides who starts, so
# a seat's numbers would average over positions). Small samples keep the notebook quick; the guides and the
# report use larger ones.

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from pyradice_lab import meerkat, purramid, pyradice, raft
from pyradice_lab.engine.stats import mean_estimate
from pyradice_lab.pyradice.analysis import by_position

PLAYERS, SEED = 3, 2026

# %% [markdown]
# Each game reports the start player's result in its own way; the helper puts each into one row.

# %%
def row(game, est, n):
    return {"game": game, "start_share": est.value, "ci_low": est.ci_low, "ci_high": est.ci_high, "games": n,
            "fair": 1 / PLAYERS}


rows = []

# Purramid: seat 0 starts (the rules' "who most recently stroked a cat"); a shared win counts 1/k.
pm = purramid.simulate_games(300, players=PLAYERS, rng=SEED)
scores = pm[[f"score_{s}" for s in range(PLAYERS)]].to_numpy()
top = scores == scores.max(axis=1, keepdims=True)
rows.append(row("Purramid", mean_estimate(top[:, 0] / top.sum(axis=1)), len(pm)))

# Pyradice: by turn position (1 = the start player of each game)
_, arrays = pyradice.simulate_games(600, PLAYERS, rng=SEED, return_arrays=True)
pos = by_position(arrays)

# Rocking Raft: the first row of start_player_table is the start player (turn position 1 in text)
rt = raft.start_player_table(raft.simulate_games(600, players=PLAYERS, rng=SEED)).iloc[0]

# Meerkat Kingdom: the start player's result in each game
mk = meerkat.simulate_games(1000, players=PLAYERS, rng=SEED)
rows.append(row("Meerkat Kingdom", mean_estimate(mk["start_player_won"].to_numpy(float)), len(mk)))

# %%
p1 = pos[pos.position == 1].iloc[0]
rows.insert(1, {"game": "Pyradice", "start_share": p1.win_share, "ci_low": p1.win_share_ci_low,
                "ci_high": p1.win_share_ci_high, "games": int(p1.n_games), "fair": 1 / PLAYERS})
rows.insert(2, {"game": "Rocking Raft", "start_share": rt.win_share, "ci_low": rt.win_share_ci_low,
                "ci_high": rt.win_share_ci_high, "games": int(rt.games), "fair": 1 / PLAYERS})
table = pd.DataFrame(rows)
table["verdict"] = np.where(table.ci_low > table.fair, "start player favoured",
                            np.where(table.ci_high < table.fair, "start player disadvantaged", "no detectable edge"))
table

# %%
fig, ax = plt.subplots(figsize=(6, 3.2))
y = np.arange(len(table))
ax.errorbar(table.start_share, y, xerr=[table.start_share - table.ci_low, table.ci_high - table.start_share],
            fmt="o", capsize=3)
ax.axvline(1 / PLAYERS, color="grey", ls="--", label="fair share")
ax.set_yticks(y, table.game)
ax.invert_yaxis()
ax.set_xlabel("start player's win share (95% CI)")
ax.set_ylabel("game")
ax.legend()
ax.set_title(f"{PLAYERS} players, greedy self-play")
plt.show()
