# %% [markdown]
# # Meerkat Kingdom — Hazard impact: hazards fired and meerkats lost with the default bags and with a one-of-each blue bag.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.report.run_hazards`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_hazards.py`.

# %%
import sys

import numpy as np

from pyradice_lab.meerkat.report import SIZES, run_hazards
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

SEED = np.random.SeedSequence(2026)
GAMES = SIZES["hazards"][2] if "--quick" not in sys.argv else SIZES["hazards"][0]

# %%
result = run_hazards(GAMES, SEED)
paths = save_experiment(result, "reports")
print(result.reading)
for f in result.findings:
    print("-", render(f))
print(result.table.to_string(index=False))
print({k: str(v) for k, v in paths.items()})
