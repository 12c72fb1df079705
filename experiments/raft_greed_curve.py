# %% [markdown]
# # Rocking Raft: the greed curve
#
# Tilt duration vs expected points, including the gifts to opponents: seat 0 always tilts for the same
# time (on the edge best for its lifeboats); the other two players play greedy.
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
res = ex.greed_curve((0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0), N_GAMES, SEED, players=3)
paths = save_experiment(res, OUT)
print(res.reading)
print(res.table.to_string(index=False))
print("wrote", ", ".join(str(p) for p in paths.values()))
