# %% [markdown]
# # Pyradice: are the objective cards balanced?
# Points per seat from each objective card (mean with 95% CI, spread, chance of zero), greedy play, 2 players,
# pooled over three card line-ups that put every card in play.  Writes reports/pyradice_card_balance/
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.pyradice.analysis import SIZES, experiment_cards
from pyradice_lab.pyradice.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(experiment_cards(SIZES["cards"][0] if quick else 300,
                                                         np.random.SeedSequence(seed))), seed=20263)
