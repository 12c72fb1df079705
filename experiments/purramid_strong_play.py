# %% [markdown]
# # Purramid: answers under strong play (issue 11)
# Every seat playing the exact policy ("optimal": each turn solved exactly on its board) against every seat
# playing the human-style risk:0.35: seat advantage, game length and side A vs B, each with both 95% CIs and
# whether they differ; and the skill gap: one exact player among risk:0.35 players (its seat rotating).
# Writes reports/purramid_strong_play/ and reports/purramid_skill_gap/.
#
#     python experiments/purramid_strong_play.py [--quick | --report] [--jobs 2]
#
# The full size (all-optimal: 2p 600, 3p and 4p 60 games per side; one optimal seat: 2p 200, 3p/4p 120
# games per side) takes about 7 minutes of CPU on 2 threads; --report is the report section's size.

# %%
import sys

from pyradice_lab.purramid.strongplay import strong_play_experiments
from pyradice_lab.report import save_experiment

size = "quick" if "--quick" in sys.argv else "report" if "--report" in sys.argv else "full"
jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 2
for res in strong_play_experiments(size, seed=2024, n_jobs=jobs, progress=True):
    print(res.title)
    print(res.reading)
    print(res.table.to_string(index=False))
    print(save_experiment(res, "reports"))
    if "side_difference" in res.meta:
        print(res.meta["side_difference"].to_string(index=False))
