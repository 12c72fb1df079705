# %% [markdown]
# # Meerkat Kingdom — Start-player advantage: win share by turn-order position for the rules' setups (2p + automa, 3p, 4p) and 2 players without the automa (extension), greedy players, with 95% CIs.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.analysis.run_seat_advantage`, drawn by `pages.draw`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_seat_advantage.py`
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.meerkat.analysis import SIZES, run_seat_advantage
from pyradice_lab.meerkat.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(run_seat_advantage(SIZES["seats"][0 if quick else 2],
                                                      np.random.SeedSequence(seed))), seed=2026)
