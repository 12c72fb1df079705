# %% [markdown]
# # Pyradice: what is each skill token worth?
# Mean score per seat with the default board minus the same games (same seeds) with one level's skill token
# removed from every board; greedy play, 2 players.  Writes reports/pyradice_skill_values/.

# %%
import numpy as np

from pyradice_lab.pyradice.report import experiment_skills
from pyradice_lab.report.build import save_experiment

N_GAMES = 300

# %%
res = experiment_skills(N_GAMES, np.random.SeedSequence(20262))
print(res.reading)
print(res.table.round(3).to_string(index=False))
print(save_experiment(res, "reports"))
