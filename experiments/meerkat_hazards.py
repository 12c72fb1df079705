# %% [markdown]
# # Meerkat Kingdom — Hazard impact: hazards fired and meerkats lost with the default bags and with a one-of-each blue bag.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.analysis.run_hazards`, drawn by `pages.draw`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_hazards.py`
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.meerkat.analysis import SIZES, run_hazards
from pyradice_lab.meerkat.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(run_hazards(SIZES["hazards"][0 if quick else 2],
                                               np.random.SeedSequence(seed))), seed=2026)
