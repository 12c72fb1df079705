# %% [markdown]
# # Purramid: side A vs side B
# Exact fresh-turn values on both sides, and simulated bursts, bonus turns, winner's gold and game length
# per player count (the same seeded games as purramid_seat_advantage.py). Writes reports/purramid_side_a_vs_b/
# (`--quick`, `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.purramid import load_layout
from pyradice_lab.purramid.pages import game_experiments
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: game_experiments(200 if quick else 2000,
                                                    np.random.SeedSequence(seed))[0][2], seed=2024)

# %% [markdown]
# The two sides, top row first:

# %%
for side in "AB":
    print(f"side {side}\n{load_layout(side).render()}\n")
