# %% [markdown]
# # Purramid: how good are the approximate bonus-turn values?
# Fresh-turn values with bonus="approx" and "none" against "exact" on small boards and late-game boards.
# With --full-board it also solves the empty side A exactly (compiled: under a second) and plays the approx-optimal
# policy with real bonus turns (Monte Carlo) to measure what the approximation costs in decisions.
# Writes reports/purramid_bonus_modes/ (`--quick`, `--seed N`, `--out DIR`).

# %%
import sys
import time

import numpy as np

from pyradice_lab.purramid import advisor, simulate_turns
from pyradice_lab.purramid.pages import bonus_mode_experiment
from pyradice_lab.purramid.turns import turn_value
from pyradice_lab.report import run_experiment

flags = {"--full-board", "--big-board"} & set(sys.argv[1:])  # this script's own flags (the cells below)
run_experiment(lambda quick, seed: bonus_mode_experiment(quick=quick, seed=np.random.SeedSequence(seed)),
               [a for a in sys.argv[1:] if a not in flags], seed=5,
               description="Also: --full-board (the empty side A solved exactly, approx policy played), "
                           "--big-board (a board above the auto threshold).")

# %%
if "--full-board" in flags:
    for mode in ("none", "approx", "exact"):
        t0 = time.perf_counter()
        v, b = advisor.solver_for("A", bonus=mode).fresh(0, 5, 0)
        print(f"empty side A, bonus={mode}: {v:.4f} tiles (burst {b:.4f}) in {time.perf_counter() - t0:.1f} s")
    df = simulate_turns(20_000, "A", policy="optimal", bonus="approx", rng=2)
    print("approx-optimal policy played with real bonus turns:", turn_value(df))

# %% [markdown]
# ## Above the auto threshold
# No board of the default sides has more than 80 valid groups (the empty boards: 72 and 76), so "auto" is
# exact on all of them. A custom board with more easy groups -- side A with its bottom two rows replaced by
# small numbers (no "10" at the bottom, no 7-9 in row 1: 106 groups) -- has more: there "auto" values the
# top segment's bonus turns approximately. With --big-board this measures its cold exact solve time, the
# approx error and the mode label.

# %%
if "--big-board" in flags:
    from pyradice_lab.purramid import load_layout
    from pyradice_lab.purramid.advisor import AUTO_EXACT_MAX_VALID, parse_objective
    from pyradice_lab.purramid.components import Layout
    from pyradice_lab.purramid.solver import CompiledSolver

    rows = [[3, 5, 1, 6, 4, 2, 1, 2, 6, 5, 3], [6, 2, 3, 4, 1, 3, 5, 2, 1, 4]] + \
        [list(r) for r in load_layout("A").rows[2:]]
    big = Layout.from_rows(rows, name="A, easy bottom rows")
    obj = parse_objective("tiles")
    vals = {}
    for mode in ("exact", "approx", "auto"):
        s = CompiledSolver(big, obj, 0.6, mode)
        t0 = time.process_time()
        vals[mode] = s.fresh(0, 5, 0)[0]
        print(f"{big.name} empty: {s.valid_groups(0, 5)} valid groups (threshold {AUTO_EXACT_MAX_VALID}); "
              f"bonus={mode}: {vals[mode]:.4f} tiles in {time.process_time() - t0:.2f} s CPU"
              + (f"; auto label {s.bonus_label(0, 5)}" if mode == "auto" else ""))
    print(f"approx error {vals['approx'] - vals['exact']:+.4f} tiles ({vals['approx'] / vals['exact'] - 1:+.1%}), "
          f"auto error {vals['auto'] - vals['exact']:+.4f} ({vals['auto'] / vals['exact'] - 1:+.1%})")
