# %% [markdown]
# # Meerkat Kingdom — exact placement odds
#
# Exact probability (216 rolls x 8 keep-sets) that a turn allows placing 1, 2, 3 meerkats or the queen on
# each tile, with and without the optional reroll, and the automa's placement distribution per die face.
# Run alone: `.venv/bin/python experiments/meerkat_placement_odds.py` (`--out DIR`; no sampling, so
# `--quick` and `--seed` change nothing).

# %%
from pyradice_lab.meerkat import automa_placement_table
from pyradice_lab.meerkat.analysis import odds_experiment
from pyradice_lab.meerkat.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(odds_experiment()))

# %%
automa = automa_placement_table()
print(automa.pivot_table(index=["face", "tile"], columns="count", values="probability", fill_value=0).round(4))
