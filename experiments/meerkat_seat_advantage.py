# %% [markdown]
# # Meerkat Kingdom — Start-player advantage: win share by turn-order position for the rules' setups (2p + automa, 3p, 4p) and 2 players without the automa (extension), greedy players, with 95% CIs.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.report.run_seat_advantage`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  Run alone: `.venv/bin/python experiments/meerkat_seat_advantage.py`.

# %%
import sys

import numpy as np

from pyradice_lab.meerkat.report import SIZES, run_seat_advantage
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

SEED = np.random.SeedSequence(2026)
GAMES = SIZES["seats"][2] if "--quick" not in sys.argv else SIZES["seats"][0]

# %%
result = run_seat_advantage(GAMES, SEED)
paths = save_experiment(result, "reports")
print(result.reading)
for f in result.findings:
    print("-", render(f))
print(result.table.to_string(index=False))
print({k: str(v) for k, v in paths.items()})
