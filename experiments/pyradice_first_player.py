# %% [markdown]
# # Pyradice: is there a first-player advantage?
# Win share by turn position (ties split) with 95% CIs for 2, 3 and 4 players under greedy play, against the
# fair share.  Writes reports/pyradice_first_player/
# (`--quick`: the report's quick size; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.pyradice.analysis import SIZES, experiment_first_player
from pyradice_lab.pyradice.pages import draw
from pyradice_lab.report import run_experiment

GAMES = {2: 2000, 3: 400, 4: 250}
QUICK = {p: SIZES[f"first{p}"][0] for p in GAMES}

run_experiment(lambda quick, seed: draw(experiment_first_player(QUICK if quick else GAMES,
                                                                np.random.SeedSequence(seed))), seed=20264)
