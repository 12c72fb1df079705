# %% [markdown]
# # Rocking Raft: does the start player have an advantage?
#
# Win share (shared wins split) and points by turn position (0 = the start player, drawn at random as the
# rules say), for 2, 3 and 4 players, standard and sinking variant, greedy players.  Seat numbers average
# over positions, so every game is re-indexed by turn position (`raft.start_player_table`).
#
# The numbers come from `pyradice_lab.raft.readings` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/`.

# %%
from pathlib import Path

from pyradice_lab.raft import readings as rd
from pyradice_lab.report.build import save_experiment

SEED = 20240601
OUT = Path("reports")
N_GAMES = 4000

# %%
res = rd.start_player(N_GAMES, SEED, players=(2, 3, 4), variants=("standard", "sinking"))
paths = save_experiment(res, OUT)
print(res.reading)
cols = ["players", "variant", "position", "win_rate", "win_share", "win_share_ci_low", "win_share_ci_high",
        "mean_score", "score_margin", "score_margin_ci_low", "score_margin_ci_high"]
print(res.table[cols].to_string(index=False, float_format=lambda v: f"{v:.3f}"))
print("wrote", ", ".join(str(p) for p in paths.values()))
