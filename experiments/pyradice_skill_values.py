# %% [markdown]
# # Pyradice: what is each skill token worth?
# Mean score per seat with the default board minus the same games (same seeds) with one skill token removed
# from every board; greedy play, 2 players.  A skill is named by its token everywhere ("A6 Rebuild"; in
# restricted play `no_skill_A6`).  Greedy overrates A5 Turnover: the stronger players (lookahead, flat_mc) give
# it almost nothing (docs/guide/pyradice.md, "Which skill is strongest").  Writes reports/pyradice_skill_values/
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.pyradice.analysis import SIZES, experiment_skills
from pyradice_lab.pyradice.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(experiment_skills(SIZES["skills"][0] if quick else 300,
                                                          np.random.SeedSequence(seed))), seed=20262)
