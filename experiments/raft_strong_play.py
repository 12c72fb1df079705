# %% [markdown]
# # Rocking Raft under strong play
#
# 1. How strong is the expected-points player (`"exact"`: the exact outcome distribution of every tilt, each
#    outcome valued by optimal loading and the gems passed on)?  Alone against a field of `greedy` or `aim`,
#    taking every seat in turn on the same seeds (paired by seed), at 2 and 3 players.
# 2. Do the balance findings (start player by turn position, card fairness, gem mix) hold when every seat is
#    played by `exact` instead of `greedy`?  Both with 95% intervals.
#
# The numbers come from `pyradice_lab.raft.strong_play` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).  About 25 minutes on a busy 2-core machine.

# %%
from pyradice_lab.raft import strong_play as sp
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment


def duels(quick: bool, seed: int):
    return draw(sp.strength_duels(16 if quick else 1500, seed, players=(2, 3), rivals=("greedy", "aim")))


def balance_findings(quick: bool, seed: int):
    return draw(sp.strong_play(24 if quick else 3000, seed + 1, players=(2, 3, 4), mix_games=12 if quick else 1000))


run_experiment(lambda quick, seed: [duels(quick, seed), balance_findings(quick, seed)], seed=20241101)
