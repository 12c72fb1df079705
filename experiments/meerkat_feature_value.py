# %% [markdown]
# # Meerkat Kingdom — Value of the reroll, the queen and guardians+pups: one heuristic variant against baseline heuristics.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.analysis.run_features`, drawn by `pages.draw`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_feature_value.py`
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.meerkat.analysis import SIZES, run_features
from pyradice_lab.meerkat.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(run_features(SIZES["features"][0 if quick else 2],
                                                np.random.SeedSequence(seed))), seed=2026)
