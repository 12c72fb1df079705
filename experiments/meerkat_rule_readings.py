# %% [markdown]
# # Meerkat Kingdom — Do the readings of ambiguous rules matter? The literal reading of the reverse scoring token and of the jackal against a queen, against the other reading, on the same games.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.report.run_readings`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_rule_readings.py`.

# %%
import sys

import numpy as np

from pyradice_lab.meerkat.report import SIZES, run_readings
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

SEED = np.random.SeedSequence(2026)
GAMES = SIZES["readings"][2] if "--quick" not in sys.argv else SIZES["readings"][0]

# %%
result = run_readings(GAMES, SEED)
paths = save_experiment(result, "reports")
print(result.reading)
for f in result.findings:
    print("-", render(f))
print(result.table.to_string(index=False))
print({k: str(v) for k, v in paths.items()})
