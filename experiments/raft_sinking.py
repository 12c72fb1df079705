# %% [markdown]
# # Rocking Raft: how much harder is the sinking variant?
#
# Standard vs sinking-lifeboats variant for 2, 3 and 4 players: points per player, game length, boats sunk.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import analysis as ex
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(ex.sinking(50 if quick else 400, seed, players=(2, 3, 4))), seed=20240601)
