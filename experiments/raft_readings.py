# %% [markdown]
# # Rocking Raft: do the readings of the rules matter?
#
# Where the rules text is ambiguous the engines play one reading by default and can play the other
# (`simulate_games(..., discards_roll=True)`, `replace_sunk=False`; the tilt model's `wall_spread=0` turns
# off the spreading of gems along the lowered wall).  Each alternative is played on the same seeds as the
# default, so the differences are paired (common random numbers), with 95% intervals.
#
# The numbers come from `pyradice_lab.raft.readings` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/` (`--quick`: fewer games; `--seed N`, `--out DIR`).

# %%
from pyradice_lab.raft import readings as rd
from pyradice_lab.raft.pages import draw
from pyradice_lab.report import run_experiment


def readings(quick: bool, seed: int):
    results = []
    for players in (3, 4):
        res = draw(rd.readings(60 if quick else 4000, seed, players=players))
        res.name = f"raft_readings_{players}p"
        results.append(res)
    return results


run_experiment(readings, seed=20240601)
