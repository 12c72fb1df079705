# %% [markdown]
# # Purramid: answers under strong play (issue 11)
# Every seat playing the exact policy ("optimal": each turn solved exactly on its board) against every seat
# playing the human-style risk:0.35: the start player's win share and game length, each with both 95% CIs and
# their difference; and the skill gap: one exact player among risk:0.35 players (its seat rotating).
# Writes reports/purramid_strong_play/ and reports/purramid_skill_gap/.
#
#     python experiments/purramid_strong_play.py [--quick | --report] [--jobs 2] [--seed N] [--out DIR]
#         [--save-games DIR]
#
# The full size (all-optimal: 2p 600, 3p and 4p 60 games per side; one optimal seat: 2p 200, 3p/4p 120
# games per side) takes about 7 minutes of CPU on 2 threads; --report is the report section's size.
# --save-games writes the simulated games (one row per game) as CSV files to DIR.

# %%
import argparse
from pathlib import Path

from pyradice_lab.purramid import analysis as A
from pyradice_lab.purramid.strongplay import skill_gap_result, strong_play_result
from pyradice_lab.report import run_experiment

extra = argparse.ArgumentParser(add_help=False)  # this script's own options; the runner parses the rest
extra.add_argument("--report", action="store_true")
extra.add_argument("--jobs", type=int, default=2)
extra.add_argument("--save-games", type=Path)
opts, argv = extra.parse_known_args()


def strong_play(quick: bool, seed: int):
    size = "quick" if quick else "report" if opts.report else "full"
    games = A.strong_play_games(size, seed, n_jobs=opts.jobs, progress=True)
    if opts.save_games:
        opts.save_games.mkdir(parents=True, exist_ok=True)
        for name, df in games.items():
            keep = [c for c in df.columns if c in A.GAME_COLUMNS]
            df[keep].to_csv(opts.save_games / f"purramid_{name}_games_{size}.csv", index=False)
    return [strong_play_result(A.strong_play(games["heuristic"], games["optimal"]), size),
            skill_gap_result(A.skill_gap(games["gap"]), size)]


run_experiment(strong_play, argv, seed=2024,
               description="Also: --report (the report's size), --jobs N (default 2), --save-games DIR.")
