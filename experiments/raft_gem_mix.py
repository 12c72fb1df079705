# %% [markdown]
# # Rocking Raft: gem mix sweep (black gems)
#
# How does the number of black (wild) gems change game length and scores? 3 players, 7 gems of each
# ordinary colour, 0..6 black gems.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import analysis as ex
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(ex.gem_mix(range(0, 7), 60 if quick else 400, seed, players=3)),
               seed=20240601)
