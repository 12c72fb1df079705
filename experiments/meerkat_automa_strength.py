# %% [markdown]
# # Meerkat Kingdom — Automa strength: the automa against greedy, heuristic and random players.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.analysis.run_automa`, drawn by `pages.draw`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_automa_strength.py`
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.meerkat.analysis import SIZES, run_automa
from pyradice_lab.meerkat.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(run_automa(SIZES["automa"][0 if quick else 2],
                                              np.random.SeedSequence(seed))), seed=2026)
