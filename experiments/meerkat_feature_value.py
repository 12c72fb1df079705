# %% [markdown]
# # Meerkat Kingdom — Value of the reroll, the queen and guardians+pups: one heuristic variant against baseline heuristics.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.report.run_features`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_feature_value.py`.

# %%
import sys

import numpy as np

from pyradice_lab.meerkat.report import SIZES, run_features
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

SEED = np.random.SeedSequence(2026)
GAMES = SIZES["features"][2] if "--quick" not in sys.argv else SIZES["features"][0]

# %%
result = run_features(GAMES, SEED)
paths = save_experiment(result, "reports")
print(result.reading)
for f in result.findings:
    print("-", render(f))
print(result.table.to_string(index=False))
print({k: str(v) for k, v in paths.items()})
