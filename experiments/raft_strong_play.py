# %% [markdown]
# # Rocking Raft under strong play
#
# 1. How strong is the expected-points player (`"exact"`: the exact outcome distribution of every tilt, each
#    outcome valued by optimal loading and the gems passed on)?  Alone against a field of `greedy` or `aim`,
#    taking every seat in turn on the same seeds (paired by seed), at 2 and 3 players.
# 2. Do the balance findings (start player by turn position, card fairness, gem mix) hold when every seat is
#    played by `exact` instead of `greedy`?  Both with 95% intervals.
#
# The numbers come from `pyradice_lab.raft.strong_play` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/`.  About 25 minutes on a busy 2-core machine.

# %%
from pathlib import Path

from pyradice_lab.raft import strong_play as sp
from pyradice_lab.report.build import save_experiment

SEED = 20241101
OUT = Path("reports")

# %%
duels = sp.strength_duels(1500, SEED, players=(2, 3), rivals=("greedy", "aim"))
save_experiment(duels, OUT)
print(duels.reading)
print(duels.table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))

# %%
res = sp.strong_play(3000, SEED + 1, players=(2, 3, 4), mix_games=1000)
save_experiment(res, OUT)
print(res.reading)
print(res.table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
