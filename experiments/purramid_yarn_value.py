# %% [markdown]
# # Purramid: what is a yarn token worth?
# Exact gain in expected tiles of a fresh 5-dice turn from holding one (and two) tokens, on the empty
# sides, the 2-player start boards and boards from simulated 4-player games. This is how the default
# yarn_value in pyradice_lab/purramid/data/game.toml was derived. Writes reports/purramid_yarn_value/.

# %%
import sys

import numpy as np

from pyradice_lab.purramid.report import yarn_value_experiment
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

res = yarn_value_experiment(quick="--quick" in sys.argv, seed=np.random.SeedSequence(7))
print("\n".join(render(f) for f in res.findings))
print(res.display.to_string(index=False))
print(save_experiment(res, "reports"))

# %% [markdown]
# The derivation of the data default, over 2-, 3- and 4-player games on both sides (about a minute):

# %%
if "--derive" in sys.argv:
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
