# %% [markdown]
# # Rocking Raft: the tilt model and its calibration
#
# The tilt model's expected gems fallen per edge, finger space and duration (exact), then a calibration
# check: synthetic tilts from known parameters are fitted back with raft.calibrate. Replace `obs` with a
# DataFrame of your measured tilts (columns edge, finger, duration, fallen[, centre_after]) to fit the
# model to your raft.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import analysis as ex
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment

QUICK_DURATIONS = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0)  # the report's quick size
run_experiment(lambda quick, seed: [draw(ex.tilt_model(durations=QUICK_DURATIONS if quick else None)),
                                    draw(ex.calibration_demo(seed, quick=quick))], seed=20240601)
