# %% [markdown]
# # Purramid: seat advantage and game length by player count and side
# Simulated games (compiled rules), every seat playing the same human-style policy; win probability by
# seat and turns per game with 95% confidence intervals. Writes reports/purramid_seat_advantage/ and
# reports/purramid_game_length/ (`--quick`, `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.purramid.pages import game_experiments
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: game_experiments(200 if quick else 2000,
                                                    np.random.SeedSequence(seed))[0][:2], seed=2024)
