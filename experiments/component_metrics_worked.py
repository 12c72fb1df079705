# %% [markdown]
# # Worked cases of the component metrics (docs/guide/designer.md, "Metrics of the component findings")
# 1. Meerkat Kingdom: can tile 5's values bring its points per meerkat to the board mean
#    (balance, objective "tile_pay_excess:5 = 0", 3 greedy players, the rules' 3-player setup)?
# 2. Rocking Raft: every 2-slot card one point more, against the packaged deck (compare, paired games):
#    points per own turn held of the 2-slot lifeboats minus the deck's, and largest minus smallest.
#
#     python experiments/component_metrics_worked.py

# %%
import time

import pyradice_lab as pl
from pyradice_lab import raft

t = time.process_time()
b = pl.balance("meerkat", {"tile.5.values": [[7, 3], [8, 4], [9, 4], [10, 5], [11, 5]]}, "tile_pay_excess:5 = 0",
               players=3, policies="greedy", budget=12000, first_games=400, verify_games=4000, rng=2026,
               game_kwargs={"automa": False})
print(b.summary())
print(b.history.round(4).to_string(index=False))
print(f"CPU {time.process_time() - t:.1f} s")

# %%
t = time.process_time()
base = raft.default_components()
v = base.replace({f"card.{i}.points": base.deck[i - 1].points + 1 for i in range(1, 13)})
for m in ("boat_pay_excess:2", "boat_pay_spread"):
    print(pl.compare("raft", None, v, m, games=1000, players=3, policies="greedy", rng=2026, options={"card_columns": True}))
print(f"CPU {time.process_time() - t:.1f} s")
