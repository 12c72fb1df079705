# %% [markdown]
# # Rocking Raft: how much dexterity matters
#
# Seat 0's timing noise (the spread of the tilt it actually executes around the one it intends) vs its
# win rate, all players greedy, the opponents at the model's default noise.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import analysis as ex
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment

NOISES = (0.0, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0)
run_experiment(lambda quick, seed: draw(ex.dexterity(NOISES, 80 if quick else 500, seed, players=3)), seed=20240601)
