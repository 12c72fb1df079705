# %% [markdown]
# # Pyradice: are the objective cards balanced?
# Points per seat from each objective card (mean with 95% CI, spread, chance of zero), greedy play, 2 players,
# pooled over three card line-ups that put every card in play.  Writes reports/pyradice_card_balance/.

# %%
import numpy as np

from pyradice_lab.pyradice.report import experiment_cards
from pyradice_lab.report.build import save_experiment

N_GAMES = 300

# %%
res = experiment_cards(N_GAMES, np.random.SeedSequence(20263))
print(res.reading)
print(res.table.round(3).to_string(index=False))
print(save_experiment(res, "reports"))
