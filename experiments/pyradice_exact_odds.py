# %% [markdown]
# # Pyradice: exact odds
# 1. The exact distribution of available dice on the first 10 turns when dice are taken uniformly at random
#    (2-player and 3/4-player quarries), checked against Monte Carlo.
# 2. The exact chance that a level filled blind (random dice, no choice, no skill) meets each goal token.
# Writes reports/pyradice_exact_odds_availability/ and reports/pyradice_exact_odds/ (`--seed N`: the Monte
# Carlo's seed; `--out DIR`; `--quick` changes nothing).

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from pyradice_lab.pyradice import available_exact, simulate_games
from pyradice_lab.pyradice.odds import blind_goal_table
from pyradice_lab.report import ExperimentResult, run_experiment


# %%
def availability(seed: int) -> ExperimentResult:
    rows = []
    for players in (2, 3):
        ex = available_exact(10, players)
        _, arr = simulate_games(2000, players, None, "random_legal", rng=seed, return_arrays=True)
        for turn, d in ex.groupby("turn"):
            mean = float((d.n_available * d.p).sum())
            x = arr["choices"][:, turn - 1]
            rows.append({"players": players, "turn": turn, "exact_mean": mean, "mc_mean": x.mean(),
                         "mc_se": x.std(ddof=1) / np.sqrt(len(x)),
                         "z": (x.mean() - mean) / (x.std(ddof=1) / np.sqrt(len(x))) if x.std() > 0 else 0.0})
    reading = ("Exact mean available dice per turn (dice taken uniformly at random) beside 2000 random_legal "
               "games per player count.")
    title = "Pyradice: exact available dice vs Monte Carlo"
    return ExperimentResult("pyradice_exact_odds_availability", title, reading, pd.DataFrame(rows))


# %%
def blind_goals() -> ExperimentResult:
    blind = blind_goal_table()
    wide = blind.pivot(index="goal", columns="level", values="p")
    fig, ax = plt.subplots(figsize=(7, 4))
    im = ax.imshow(np.log10(wide.to_numpy() + 1e-6), cmap="viridis", aspect="auto")
    ax.set_yticks(range(len(wide)), wide.index)
    ax.set_xticks(range(5), [f"L{k} ({7 - k} dice)" for k in wide.columns])
    fig.colorbar(im, label="log10 P(met), blind")
    ax.set_title("Exact chance a blind level meets each goal token")
    reading = ("Exact availability means agree with Monte Carlo (|z| small); blind goal chances show which "
               "tokens are hard without choice or skills.")
    return ExperimentResult("pyradice_exact_odds", "Pyradice: exact odds", reading,
                            blind.assign(probability=blind.probability.astype(str)), fig)


# %%
run_experiment(lambda quick, seed: [availability(seed), blind_goals()], seed=7)
