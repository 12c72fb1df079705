# %% [markdown]
# # Rocking Raft: pirate-flag depth vs game length
#
# How many cards above the pirate flag give what game length? 3 players (the rules use 15).
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
res = ex.flag_depth((5, 10, 15, 20, 25, 30), N_GAMES, SEED, players=3)
paths = save_experiment(res, OUT)
print(res.reading)
print(res.table.to_string(index=False))
print("wrote", ", ".join(str(p) for p in paths.values()))
