# %% [markdown]
# # Meerkat Kingdom — Tile value fairness: points paid per piece committed on each tile, and values that would equalise them (re-simulated).
#
# Runs the same function as the report section (`pyradice_lab.meerkat.analysis.run_tile_fairness`, drawn by `pages.draw`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_tile_fairness.py`
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.meerkat.analysis import SIZES, run_tile_fairness
from pyradice_lab.meerkat.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(run_tile_fairness(SIZES["fairness"][0 if quick else 2],
                                                     np.random.SeedSequence(seed))), seed=2026)
