# %% [markdown]
# # Pyradice: how often is each goal token met, per policy?
# P(goal token met at the end) per level for random_legal, greedy and lookahead (2 players, default setup),
# beside the exact chance for a level filled blind.  Also writes the available-dice-per-turn experiment, which
# reuses the same games.  Writes reports/pyradice_goal_rates/ and reports/pyradice_available_dice/
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.pyradice.analysis import SIZES, experiment_available, experiment_goals
from pyradice_lab.pyradice.pages import draw
from pyradice_lab.report import run_experiment


def goals_and_available(quick: bool, seed: int):
    n = SIZES["goals"][0] if quick else 400
    seeds = np.random.SeedSequence(seed).spawn(2)
    goals, runs = experiment_goals(n, seeds[0])
    return [draw(goals), draw(experiment_available(n, seeds[1], runs))]


run_experiment(goals_and_available, seed=20261)
