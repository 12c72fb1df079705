# %% [markdown]
# # Rocking Raft: pirate-flag depth vs game length
#
# How many cards above the pirate flag give what game length? 3 players (the rules use 15).
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import analysis as ex
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment

DEPTHS = (5, 10, 15, 20, 25, 30)
run_experiment(lambda quick, seed: draw(ex.flag_depth(DEPTHS, 60 if quick else 400, seed, players=3)),
               seed=20240601)
