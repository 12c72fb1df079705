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
# # Meerkat Kingdom: does every desert tile pay the same per meerkat you commit to it?
#
# Each desert tile (numbered 3..12, the dice sum that reaches it) pays end-game points to the players with
# the most meerkats on it: two values on tiles 3..8, three on tiles 9..12 (most of these values are a
# reconstruction, see the Meerkat guide). A designer wants each tile to pay about the same per piece
# committed; a player wants to know which tiles are bargains.
#
# **Method.**
#
# - **exact**: the chance that a turn can place at least one meerkat on the tile (three dice, the optional
#   reroll used well; `meerkat.placement_odds`, an enumeration of the 216 rolls and keep-sets);
# - **Monte Carlo**: 3-player games between greedy players (`meerkat.analysis.tile_fairness`): per tile the
#   pieces committed when it is scored and the points it paid, and their ratio, *points per piece*, with a
#   delta-method standard error and a 95% interval. One seed; the same seed gives the same games. The sample
#   is small to keep the notebook quick; the report and `experiments/meerkat_tile_fairness.py` use more.

# %%
import matplotlib.pyplot as plt
import numpy as np

from pyradice_lab.meerkat.analysis import tile_fairness

GAMES, PLAYERS, SEED = 1000, 3, 2026

# %%
fair = tile_fairness(GAMES, players=PLAYERS, rng=SEED)
average = fair.paid.sum() / fair.pieces.sum()  # the board's points per piece (all tiles pooled)
fair["vs_average"] = fair.points_per_piece / average

# %% [markdown]
# ## The table
#
# `p_place_1`: exact chance a turn can place on the tile; `pieces` and `paid`: per game, when the tile is
# scored; `points_per_piece` with its 95% interval; `vs_average`: the ratio to the board's pooled points per
# piece.

# %%
cols = ["tile", "values", "p_place_1", "pieces", "paid", "points_per_piece", "points_per_piece_ci_low",
        "points_per_piece_ci_high", "vs_average"]
fair[cols].round(3)

# %% [markdown]
# ## The figure
#
# Points per piece (95% interval) against the exact chance of reaching the tile: a fair board would be a flat
# line at the pooled average.

# %%
fig, ax = plt.subplots(figsize=(6.5, 3.8))
ax.errorbar(fair.p_place_1, fair.points_per_piece,
            yerr=[fair.points_per_piece - fair.points_per_piece_ci_low,
                  fair.points_per_piece_ci_high - fair.points_per_piece], fmt="o", capsize=3)
for r in fair.itertuples():
    ax.annotate(f"tile {r.tile}", (r.p_place_1, r.points_per_piece), fontsize=7, xytext=(4, 3),
                textcoords="offset points")
ax.axhline(average, color="grey", ls="--", label=f"board average {average:.2f}")
ax.set_xlabel("exact chance a turn can place a meerkat on the tile (probability)")
ax.set_ylabel("points paid per piece committed (points / piece)")
ax.legend(fontsize=8)
ax.set_title(f"Meerkat Kingdom, {PLAYERS} greedy players, {GAMES:,} games (seed {SEED})")
fig.tight_layout()
plt.show()

# %% [markdown]
# ## The answer
#
# Computed from the table: the best- and worst-paying tiles with their intervals (non-overlapping 95%
# intervals are a conservative sign of a real difference), how many tiles pay clearly above or below the
# pooled average, and whether hard-to-reach tiles pay more (rank correlation with the exact placement odds).

# %%
hi, lo = fair.loc[fair.points_per_piece.idxmax()], fair.loc[fair.points_per_piece.idxmin()]
print(f"Best pay: tile {hi.tile} ({hi['values']}), {hi.points_per_piece:.2f} points per piece (95% CI "
      f"{hi.points_per_piece_ci_low:.2f}..{hi.points_per_piece_ci_high:.2f}); worst: tile {lo.tile} "
      f"({lo['values']}), {lo.points_per_piece:.2f} ({lo.points_per_piece_ci_low:.2f}.."
      f"{lo.points_per_piece_ci_high:.2f}): {hi.points_per_piece / lo.points_per_piece:.2f} times as much, "
      f"intervals {'disjoint' if lo.points_per_piece_ci_high < hi.points_per_piece_ci_low else 'overlapping'}.")
above = fair[fair.points_per_piece_ci_low > average].tile.tolist()
below = fair[fair.points_per_piece_ci_high < average].tile.tolist()
print(f"Above the pooled average {average:.2f} (whole interval): tiles {above}; below: tiles {below}.")
rank = np.corrcoef(fair.p_place_1.rank(), fair.points_per_piece.rank())[0, 1]
trend = "the harder a tile is to reach, the more it pays per piece" if rank < 0 else "easy tiles pay more per piece"
print(f"Rank correlation of points per piece with the exact placement odds: {rank:+.2f} ({trend}).")
