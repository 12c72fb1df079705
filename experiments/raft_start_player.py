# %% [markdown]
# # Rocking Raft: does the start player have an advantage?
#
# Win share (shared wins split) and points by turn position (0 = the start player, drawn at random as the
# rules say), for 2, 3 and 4 players, standard and sinking variant, greedy players.  Seat numbers average
# over positions, so every game is re-indexed by turn position (`raft.start_player_table`).
#
# The numbers come from `pyradice_lab.raft.readings` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import readings as rd
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(rd.start_player(60 if quick else 4000, seed, players=(2, 3, 4),
                                                 variants=("standard", "sinking"))), seed=20240601)
