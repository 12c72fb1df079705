# %% [markdown]
# # Purramid: seat advantage and game length by player count and side
# Simulated games (compiled rules), every seat playing the same human-style policy; win probability by
# seat and turns per game with 95% confidence intervals. Writes reports/purramid_seat_advantage/ and
# reports/purramid_game_length/.

# %%
import sys

import numpy as np

from pyradice_lab.purramid.report import game_experiments
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

quick = "--quick" in sys.argv
results, n = game_experiments(200 if quick else 2000, np.random.SeedSequence(2024))
for res in results[:2]:
    print(res.title)
    print("\n".join(render(f) for f in res.findings))
    print(res.display.to_string(index=False))
    print(save_experiment(res, "reports"))
