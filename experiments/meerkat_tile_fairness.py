# %% [markdown]
# # Meerkat Kingdom — Tile value fairness: points paid per piece committed on each tile, and values that would equalise them (re-simulated).
#
# Runs the same function as the report section (`pyradice_lab.meerkat.report.run_tile_fairness`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_tile_fairness.py`.

# %%
import sys

import numpy as np

from pyradice_lab.meerkat.report import SIZES, run_tile_fairness
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

SEED = np.random.SeedSequence(2026)
GAMES = SIZES["fairness"][2] if "--quick" not in sys.argv else SIZES["fairness"][0]

# %%
result = run_tile_fairness(GAMES, SEED)
paths = save_experiment(result, "reports")
print(result.reading)
for f in result.findings:
    print("-", render(f))
print(result.table.to_string(index=False))
print({k: str(v) for k, v in paths.items()})
