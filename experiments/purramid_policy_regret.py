# %% [markdown]
# # Purramid: how much do human rules of thumb lose against the optimal policy?
# Monte Carlo value of greedy / stop-after-k / stop-when-risky turns vs the exact optimum, on boards from
# simulated games where the advisor is exact. Writes reports/purramid_policy_regret/.

# %%
import sys

import numpy as np

from pyradice_lab.purramid.report import policy_regret_experiment
from pyradice_lab.report.build import save_experiment
from pyradice_lab.report.findings import render

res = policy_regret_experiment(quick="--quick" in sys.argv, seed=np.random.SeedSequence(11))
print("\n".join(render(f) for f in res.findings))
print(res.display.to_string(index=False))
print(save_experiment(res, "reports"))
