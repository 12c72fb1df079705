# %% [markdown]
# # Purramid: how good are the approximate bonus-turn values?
# Fresh-turn values with bonus="approx" and "none" against "exact" on small boards and late-game boards.
# With --full-board it also solves the empty side A exactly (about 30 s) and plays the approx-optimal
# policy with real bonus turns (Monte Carlo) to measure what the approximation costs in decisions.
# Writes reports/purramid_bonus_modes/.

# %%
import sys
import time

import numpy as np

from pyradice_lab.purramid import advisor, simulate_turns
from pyradice_lab.purramid.report import bonus_mode_experiment
from pyradice_lab.purramid.turns import turn_value
from pyradice_lab.report import save_experiment

res = bonus_mode_experiment(quick="--quick" in sys.argv, seed=np.random.SeedSequence(5))
print(res.reading)
print(res.table.to_string(index=False))
print(save_experiment(res, "reports"))

# %%
if "--full-board" in sys.argv:
    for mode in ("none", "approx", "exact"):
        t0 = time.perf_counter()
        v, b = advisor.solver_for("A", bonus=mode).fresh(0, 5, 0)
        print(f"empty side A, bonus={mode}: {v:.4f} tiles (burst {b:.4f}) in {time.perf_counter() - t0:.1f} s")
    df = simulate_turns(20_000, "A", policy="optimal", bonus="approx", rng=2)
    print("approx-optimal policy played with real bonus turns:", turn_value(df))
