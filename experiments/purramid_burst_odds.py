# %% [markdown]
# # Purramid: burst odds by dice left and target number
# Exact P(burst) when the only empty space shows a given number, for 1-5 dice (integer-weighted
# enumeration of sorted rolls; no sampling error). Writes reports/purramid_burst_odds/*.csv + .png.

# %%
from pyradice_lab.purramid import burst_table
from pyradice_lab.purramid.report import burst_odds_experiment
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

res = burst_odds_experiment()
print("\n".join(render(f) for f in res.findings))
print(res.display.to_string(index=False))
print(save_experiment(res, "reports"))

# %% [markdown]
# The full table of every target set (4095 sets x 5 dice counts) is one call:

# %%
table = burst_table()
print(table.loc[[(6, 8), (2, 3, 6, 8, 10, 12)]])
