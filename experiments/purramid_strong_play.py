# %% [markdown]
# # Purramid: answers under strong play (issues 11 and 27)
# Every seat playing the exact policy ("optimal": each turn solved exactly on its board) against every seat
# playing the human-style risk:0.35: the start player's win share and game length, each with both 95% CIs and
# their difference; and the skill gap: one exact player among risk:0.35 players (its seat rotating).
# Writes reports/purramid_strong_play/ and reports/purramid_skill_gap/.
#
#     python experiments/purramid_strong_play.py [--quick | --report] [--games N] [--players 2,3,4]
#         [--gap-games M] [--jobs 2] [--backend loky|dask|threading] [--scheduler ADDR] [--cache-dir DIR]
#         [--seed N] [--out DIR] [--save-games DIR]
#
# The full size (all-optimal: 2p 600, 3p and 4p 60 games per side; one optimal seat: 2p 200, 3p/4p 120
# games per side) takes about 7 minutes of CPU on 2 threads; --report is the report section's size.
# --games N plays N all-optimal games per player count and side instead (with the carried memo about 9
# all-optimal 4-player games per CPU second): N = 5,000 per cell gives the start player's win share pooled over
# both sides within +-1 percentage point at 4 players (Wilson half-width about 0.9 points at a 25% share), so
# run it on a cluster: --backend dask --scheduler tcp://HOST:8786 (the same games and numbers as on one machine;
# docs: "Running on a cluster").  --cache-dir keeps finished blocks: a killed run resumes where it stopped.
# --save-games writes the simulated games (one row per game) as CSV files to DIR.

# %%
import argparse
import sys
from pathlib import Path

from pyradice_lab.engine.execution import check_execution
from pyradice_lab.purramid import analysis as A
from pyradice_lab.purramid.pages import skill_gap_result, strong_play_result
from pyradice_lab.report import run_experiment

extra = argparse.ArgumentParser(add_help=False)  # this script's own options; the runner parses the rest
extra.add_argument("--report", action="store_true")
extra.add_argument("--jobs", type=int, default=2)
extra.add_argument("--games", type=int, default=None)
extra.add_argument("--gap-games", type=int, default=None)
extra.add_argument("--players", default="2,3,4")
extra.add_argument("--backend", default="threading")
extra.add_argument("--scheduler", default=None)
extra.add_argument("--cache-dir", type=Path, default=None)
extra.add_argument("--save-games", type=Path)
opts, argv = extra.parse_known_args()
try:  # one clear line before any work (the execution layer's validation)
    players = tuple(int(p) for p in opts.players.split(","))
    if not players or any(p not in (2, 3, 4) for p in players):
        raise ValueError(f"--players must list player counts among 2, 3, 4, got {opts.players!r}")
    for name, v in (("--games", opts.games), ("--gap-games", opts.gap_games)):
        if v is not None and v < 2:
            raise ValueError(f"{name} must be an integer >= 2, got {v}")
    check_execution(opts.jobs, opts.backend, opts.scheduler, cache_dir=opts.cache_dir)
except ValueError as exc:
    print(f"purramid_strong_play.py: error: {exc}", file=sys.stderr)
    raise SystemExit(2) from None


def strong_play(quick: bool, seed: int):
    size = "quick" if quick else "report" if opts.report else "full"
    sz = dict(A.STRONG_SIZES[size])
    if opts.games is not None or opts.players != "2,3,4" or opts.gap_games is not None:
        sz["optimal"] = {p: ((opts.games if opts.games is not None else sz["optimal"][p]) if p in players else 0)
                         for p in (2, 3, 4)}
        sz["gap"] = {p: ((opts.gap_games if opts.gap_games is not None else sz["gap"][p]) if p in players else 0)
                     for p in (2, 3, 4)}
        size = sz
    games = A.strong_play_games(size, seed, n_jobs=opts.jobs, progress=True, backend=opts.backend,
                                scheduler=opts.scheduler, cache_dir=opts.cache_dir)
    label = size if isinstance(size, str) else "custom"
    if opts.save_games:
        opts.save_games.mkdir(parents=True, exist_ok=True)
        for name, df in games.items():
            keep = [c for c in df.columns if c in A.GAME_COLUMNS]
            df[keep].to_csv(opts.save_games / f"purramid_{name}_games_{label}.csv", index=False)
    return [strong_play_result(A.strong_play(games["heuristic"], games["optimal"]), label),
            skill_gap_result(A.skill_gap(games["gap"]), label)]


run_experiment(strong_play, argv, seed=2024,
               description="Also: --report (the report's size), --games N (all-optimal games per player count and "
                           "side), --players 2,3,4, --gap-games M, --jobs N (default 2), --backend, --scheduler ADDR, "
                           "--cache-dir DIR, --save-games DIR.")
