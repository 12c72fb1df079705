# %% [markdown]
# # Rocking Raft: gem mix sweep (black gems)
#
# How does the number of black (wild) gems change game length and scores? 3 players, 7 gems of each
# ordinary colour, 0..6 black gems.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/`.

# %%
from pathlib import Path

from pyradice_lab.raft import analysis as ex
from pyradice_lab.report.build import save_experiment

SEED = 20240601
OUT = Path("reports")
N_GAMES = 400

# %%
res = ex.gem_mix(range(0, 7), N_GAMES, SEED, players=3)
paths = save_experiment(res, OUT)
print(res.reading)
print(res.table.to_string(index=False))
print("wrote", ", ".join(str(p) for p in paths.values()))
