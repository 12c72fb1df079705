# %% [markdown]
# # Pyradice: how often is each goal token met, per policy?
# P(goal token met at the end) per level for random_legal, greedy and lookahead (2 players, default setup),
# beside the exact chance for a level filled blind.  Also writes the available-dice-per-turn experiment, which
# reuses the same games.  Writes reports/pyradice_goal_rates/ and reports/pyradice_available_dice/.

# %%
import numpy as np

from pyradice_lab.pyradice.report import experiment_available, experiment_goals
from pyradice_lab.report.build import save_experiment

N_GAMES = 400
seeds = np.random.SeedSequence(20261).spawn(2)

# %%
goals, runs = experiment_goals(N_GAMES, seeds[0])
print(goals.reading)
print(goals.table.round(3).to_string(index=False))
save_experiment(goals, "reports")

# %%
avail = experiment_available(N_GAMES, seeds[1], runs)
print(avail.reading)
print(avail.table.head(12).round(2).to_string(index=False))
print(save_experiment(avail, "reports"))
