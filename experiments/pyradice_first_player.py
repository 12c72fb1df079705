# %% [markdown]
# # Pyradice: is there a first-player advantage?
# Win share by turn position (ties split) with 95% CIs for 2, 3 and 4 players under greedy play, against the
# fair share.  Writes reports/pyradice_first_player/.

# %%
import numpy as np

from pyradice_lab.pyradice.report import experiment_first_player
from pyradice_lab.report.build import save_experiment

GAMES = {2: 2000, 3: 400, 4: 250}

# %%
res = experiment_first_player(GAMES, np.random.SeedSequence(20264))
print(res.reading)
print(res.table.round(3).to_string(index=False))
print(save_experiment(res, "reports"))
