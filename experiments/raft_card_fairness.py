# %% [markdown]
# # Rocking Raft: card fairness
#
# Is each lifeboat card worth its points? We simulate many 3-player games with greedy policies, measure
# for every card how many of its holder's turns it occupies per completion, and compare its points with
# a fair value proportional to that time (same deck total). Over- and under-valued cards are flagged
# and new values proposed.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/`.

# %%
from pathlib import Path

from pyradice_lab.raft import analysis as ex
from pyradice_lab.report.build import save_experiment

SEED = 20240601
OUT = Path("reports")
N_GAMES = 3000

# %%
res = ex.card_fairness(N_GAMES, SEED, players=3)
paths = save_experiment(res, OUT)
print(res.reading)
print(res.table.to_string(index=False))
print("wrote", ", ".join(str(p) for p in paths.values()))
