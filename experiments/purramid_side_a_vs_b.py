# %% [markdown]
# # Purramid: side A vs side B
# Exact fresh-turn values on both sides, and simulated bursts, bonus turns, winner's gold and game length
# per player count (the same seeded games as purramid_seat_advantage.py). Writes reports/purramid_side_a_vs_b/.

# %%
import sys

import numpy as np

from pyradice_lab.purramid import load_layout
from pyradice_lab.purramid.report import game_experiments
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

quick = "--quick" in sys.argv
results, n = game_experiments(200 if quick else 2000, np.random.SeedSequence(2024))
res = results[2]
print("\n".join(render(f) for f in res.findings))
print(res.display.to_string(index=False))
print(save_experiment(res, "reports"))

# %% [markdown]
# The two sides, top row first:

# %%
for side in "AB":
    print(f"side {side}\n{load_layout(side).render()}\n")
