# %% [markdown]
# # Purramid: how much do human rules of thumb lose against the optimal policy?
# Monte Carlo value of greedy / stop-after-k / stop-when-risky turns vs the exact optimum, on boards from
# simulated games where the advisor is exact. Writes reports/purramid_policy_regret/
# (`--quick`, `--seed N`, `--out DIR`).

# %%
import numpy as np

from pyradice_lab.purramid.pages import policy_regret_experiment
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: policy_regret_experiment(quick=quick, seed=np.random.SeedSequence(seed)),
               seed=11)
