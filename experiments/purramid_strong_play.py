# %% [markdown]
# # Purramid: answers under strong play (issue 11)
# Every seat playing the exact policy ("optimal": each turn solved exactly on its board) against every seat
# playing the human-style risk:0.35: the start player's win share and game length, each with both 95% CIs and
# their difference; and the skill gap: one exact player among risk:0.35 players (its seat rotating).
# Writes reports/purramid_strong_play/ and reports/purramid_skill_gap/.
#
#     python experiments/purramid_strong_play.py [--quick | --report] [--jobs 2] [--seed N] [--save-games DIR]
#
# The full size (all-optimal: 2p 600, 3p and 4p 60 games per side; one optimal seat: 2p 200, 3p/4p 120
# games per side) takes about 7 minutes of CPU on 2 threads; --report is the report section's size.
# --save-games writes the simulated games (one row per game) as CSV files to DIR.

# %%
import sys
from pathlib import Path

from pyradice_lab.purramid import analysis as A
from pyradice_lab.purramid.strongplay import skill_gap_result, strong_play_result
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

size = "quick" if "--quick" in sys.argv else "report" if "--report" in sys.argv else "full"
jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 2
seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 2024
games = A.strong_play_games(size, seed, n_jobs=jobs, progress=True)
if "--save-games" in sys.argv:
    out = Path(sys.argv[sys.argv.index("--save-games") + 1])
    out.mkdir(parents=True, exist_ok=True)
    for name, df in games.items():
        keep = [c for c in df.columns if c in A.GAME_COLUMNS]
        df[keep].to_csv(out / f"purramid_{name}_games_{size}.csv", index=False)
for res in (strong_play_result(A.strong_play(games["heuristic"], games["optimal"]), size),
            skill_gap_result(A.skill_gap(games["gap"]), size)):
    print(res.title)
    print("\n".join(render(f) for f in res.findings))
    print(res.display.to_string(index=False))
    print(save_experiment(res, "reports"))
