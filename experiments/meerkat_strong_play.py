# %% [markdown]
# # Meerkat Kingdom — Strong players: targets against greedy and heuristic, balance findings under strong play.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.report.run_strong_play`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  The report restates the findings with the expectimax player; this
# script restates them with the search player (`report.STRONG[2]`), which costs seconds per game: expect an hour
# or more on a loaded 2-core machine.  Run alone: `.venv/bin/python experiments/meerkat_strong_play.py`
# (`--quick`: the tiny report size, expectimax only).

# %%
import sys

import numpy as np

from pyradice_lab.meerkat.report import SIZES, STRONG, run_strong_play
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

SEED = np.random.SeedSequence(2026)
QUICK = "--quick" in sys.argv
k = 0 if QUICK else 2
GAMES, VERSUS = SIZES["strong"][k], SIZES["versus"][k]

# %%
result = run_strong_play(GAMES, VERSUS, SEED, "auto" if QUICK else "numba", *STRONG[k])
paths = save_experiment(result, "reports")
print(result.reading)
for f in result.findings:
    print("-", render(f))
print(result.table.to_string(index=False))
print({k: str(v) for k, v in paths.items()})
