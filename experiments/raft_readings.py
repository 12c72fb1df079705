# %% [markdown]
# # Rocking Raft: do the readings of the rules matter?
#
# Where the rules text is ambiguous the engines play one reading by default and can play the other
# (`simulate_games(..., discards_roll=True)`, `replace_sunk=False`; the tilt model's `wall_spread=0` turns
# off the spreading of gems along the lowered wall).  Each alternative is played on the same seeds as the
# default, so the differences are paired (common random numbers), with 95% intervals.
#
# The numbers come from `pyradice_lab.raft.readings` (the same functions as the PDF report section);
# CSV and PNG are written under `reports/raft_*/`.

# %%
from pathlib import Path

from pyradice_lab.raft import readings as rd
from pyradice_lab.report.build import save_experiment

SEED = 20240601
OUT = Path("reports")
N_GAMES = 4000

# %%
for players in (3, 4):
    res = rd.readings(N_GAMES, SEED, players=players)
    res.name = f"raft_readings_{players}p"
    paths = save_experiment(res, OUT)
    print(res.reading)
    print(res.table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print("wrote", ", ".join(str(p) for p in paths.values()))
