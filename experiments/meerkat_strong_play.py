# %% [markdown]
# # Meerkat Kingdom — Strong players: targets against greedy and heuristic, balance findings under strong play.
#
# Runs the same function as the report section (`pyradice_lab.meerkat.analysis.run_strong_play`, drawn by `pages.draw`) at full size and
# writes `reports/meerkat_*/` (CSV + PNG).  The report restates the findings with the expectimax player; this
# script restates them with the search player (`analysis.STRONG[2]`), which costs seconds per game: expect an hour
# or more on a loaded 2-core machine.  Run alone: `.venv/bin/python experiments/meerkat_strong_play.py`
# (`--quick`: the tiny report size, expectimax only; `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.meerkat.analysis import SIZES, STRONG, run_strong_play
from pyradice_lab.meerkat.pages import draw
from pyradice_lab.report import run_experiment


def strong_play(quick: bool, seed: int):
    k = 0 if quick else 2
    return draw(run_strong_play(SIZES["strong"][k], SIZES["versus"][k], np.random.SeedSequence(seed),
                                "auto" if quick else "numba", *STRONG[k]))


run_experiment(strong_play, seed=2026)
