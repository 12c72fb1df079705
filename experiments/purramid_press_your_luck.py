# %% [markdown]
# # Purramid: should I press my luck?
# Exact value of stopping vs continuing by dice left, in four board situations on side A (the advisor's
# expectimax; bonus turns per the default "auto" mode). Writes reports/purramid_press_your_luck/
# (`--quick`, `--out DIR`).

# %%
from pyradice_lab.purramid import advise
from pyradice_lab.purramid.pages import press_your_luck_experiment
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: press_your_luck_experiment(quick=quick))

# %% [markdown]
# One concrete decision: dice on the bottom "6" (0,3), four dice rolled 2 3 5 6.

# %%
print(advise("A", placed=[(0, 3)], dice_left=4, roll=[2, 3, 5, 6]).head(8).to_string(index=False))
