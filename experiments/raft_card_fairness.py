# %% [markdown]
# # Rocking Raft: card fairness
#
# Is each lifeboat card worth its points? We simulate many 3-player games with greedy policies, measure
# for every card how many of its holder's turns it occupies per completion, and compare its points with
# a fair value proportional to that time (same deck total). Over- and under-valued cards are flagged
# and new values proposed.
#
# The numbers come from `pyradice_lab.raft.analysis` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import analysis as ex
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment

run_experiment(lambda quick, seed: draw(ex.card_fairness(240 if quick else 3000, seed, players=3)), seed=20240601)
