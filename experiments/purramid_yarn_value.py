# %% [markdown]
# # Purramid: what is a yarn token worth?
# Exact gain in expected tiles of a fresh 5-dice turn from holding one (and two) tokens, on the empty
# sides, the 2-player start boards and boards from simulated 4-player games. This is how the default
# yarn_value in pyradice_lab/purramid/data/game.toml was derived. Writes reports/purramid_yarn_value/
# (`--quick`, `--seed N`, `--out DIR`).

# %%
import sys

import numpy as np

from pyradice_lab.purramid.pages import yarn_value_experiment
from pyradice_lab.report import run_experiment

derive = "--derive" in sys.argv[1:]  # this script's own flag (the cell below); the runner parses the rest
run_experiment(lambda quick, seed: yarn_value_experiment(quick=quick, seed=np.random.SeedSequence(seed)),
               [a for a in sys.argv[1:] if a != "--derive"], seed=7,
               description="Also: --derive (the data default's derivation, about a minute).")

# %% [markdown]
# The derivation of the data default, over 2-, 3- and 4-player games on both sides (about a minute):

# %%
if derive:
    import pandas as pd

    from pyradice_lab.purramid import analysis as A

    frames = []
    for side in "AB":
        for players in (2, 3, 4):
            pos = A.sample_positions(side, players, 10, seed=100 + players)
            frames.append(A.yarn_values([(f"{side}{players}p#{i}", side, c) for i, c in enumerate(pos)]))
    df = pd.concat(frames)
    ex = df[df["bonus_mode"] == "exact"]["gain_first_token"]
    print(f"exact-mode boards: n={len(ex)}, mean {ex.mean():.3f}, median {ex.median():.3f}")
