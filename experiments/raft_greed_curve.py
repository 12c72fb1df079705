# %% [markdown]
# # Rocking Raft: the greed curve
#
# Tilt duration vs expected points, including the gifts to opponents: seat 0 always tilts for the same
# time (on the edge best for its lifeboats); the other two players play greedy.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import analysis as ex
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment

DURATIONS = (0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)
run_experiment(lambda quick, seed: draw(ex.greed_curve(DURATIONS, 60 if quick else 400, seed, players=3)),
               seed=20240601)
