# %% [markdown]
# # Meerkat Kingdom — exact placement odds
#
# Exact probability (216 rolls x 8 keep-sets) that a turn allows placing 1, 2, 3 meerkats or the queen on
# each tile, with and without the optional reroll, and the automa's placement distribution per die face.
# Run alone: `.venv/bin/python experiments/meerkat_placement_odds.py`.

# %%
from pyradice_lab.meerkat import automa_placement_table, placement_table
from pyradice_lab.meerkat.report import odds_experiment
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

# %%
result = odds_experiment()
save_experiment(result, "reports")
print(result.reading)
for f in result.findings:
    print("-", render(f))
print(placement_table().round(4).to_string())

# %%
automa = automa_placement_table()
print(automa.pivot_table(index=["face", "tile"], columns="count", values="probability", fill_value=0).round(4))
