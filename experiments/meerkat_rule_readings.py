# %% [markdown]
# # Meerkat Kingdom — Do the readings of ambiguous rules matter? The literal reading of the reverse scoring token and of the jackal against a queen, against the other reading, on the same games.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.analysis.run_readings`, drawn by `pages.draw`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_rule_readings.py`
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.meerkat.analysis import SIZES, run_readings
from pyradice_lab.meerkat.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(run_readings(SIZES["readings"][0 if quick else 2],
                                                np.random.SeedSequence(seed))), seed=2026)
