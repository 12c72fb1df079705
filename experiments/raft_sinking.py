# %% [markdown]
# # Rocking Raft: how much harder is the sinking variant?
#
# Standard vs sinking-lifeboats variant for 2, 3 and 4 players: points per player, game length, boats sunk.
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
res = ex.sinking(N_GAMES, SEED, players=(2, 3, 4))
paths = save_experiment(res, OUT)
print(res.reading)
print(res.table.to_string(index=False))
print("wrote", ", ".join(str(p) for p in paths.values()))
