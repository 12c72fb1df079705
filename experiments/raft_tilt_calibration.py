# %% [markdown]
# # Rocking Raft: the tilt model and its calibration
#
# The tilt model's expected gems fallen per edge, finger space and duration (exact), then a calibration
# check: synthetic tilts from known parameters are fitted back with raft.calibrate. Replace `obs` with a
# DataFrame of your measured tilts (columns edge, finger, duration, fallen[, centre_after]) to fit the
# model to your raft.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/`.

# %%
from pathlib import Path

from pyradice_lab.raft import analysis as ex
from pyradice_lab.report.build import save_experiment

SEED = 20240601
OUT = Path("reports")


# %%
res = ex.tilt_model()
save_experiment(res, OUT)
print(res.reading)
cal = ex.calibration_demo(SEED)
save_experiment(cal, OUT)
print(cal.reading)
print(cal.table.to_string(index=False))
