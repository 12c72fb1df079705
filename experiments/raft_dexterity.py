# %% [markdown]
# # Rocking Raft: how much dexterity matters
#
# Seat 0's timing noise (the spread of the tilt it actually executes around the one it intends) vs its
# win rate, all players greedy, the opponents at the model's default noise.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/`.

# %%
from pathlib import Path

from pyradice_lab.raft import analysis as ex
from pyradice_lab.report.build import save_experiment

SEED = 20240601
OUT = Path("reports")
N_GAMES = 500

# %%
res = ex.dexterity((0.0, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0), N_GAMES, SEED, players=3)
paths = save_experiment(res, OUT)
print(res.reading)
print(res.table.to_string(index=False))
print("wrote", ", ".join(str(p) for p in paths.values()))
