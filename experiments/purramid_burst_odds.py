# %% [markdown]
# # Purramid: burst odds by dice left and target number
# Exact P(burst) when the only empty space shows a given number, for 1-5 dice (integer-weighted
# enumeration of sorted rolls; no sampling error). Writes reports/purramid_burst_odds/*.csv + .png
# (`--out DIR`: elsewhere).

# %%
from pyradice_lab.purramid import burst_table
from pyradice_lab.purramid.pages import burst_odds_experiment
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: burst_odds_experiment())

# %% [markdown]
# The full table of every target set (4095 sets x 5 dice counts) is one call:

# %%
table = burst_table()
print(table.loc[[(6, 8), (2, 3, 6, 8, 10, 12)]])
