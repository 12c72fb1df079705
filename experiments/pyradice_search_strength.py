# %% [markdown]
# # Pyradice: how strong is the search player?
# `flat_mc` (default budget, 16 rollouts per decision) against `lookahead` and `greedy`, 2 players, in blocks of
# games: opponents alternate block by block, `flat_mc` sits in seat 0 or 1 alternately, the start player is the
# game's roll-off.  Win share (shared wins split) with a Wilson interval, mean VP margin with a t interval.
# Usage: `python experiments/pyradice_search_strength.py [POLICY] [BLOCKS] [GAMES_PER_BLOCK]`.
# The measurement quoted in docs/guide/pyradice.md: `flat_mc 40 5` (200 games, ~25 minutes on a loaded machine).

# %%
import sys

import numpy as np
import pandas as pd

from pyradice_lab.design.strength import wilson_interval
from pyradice_lab.engine.stats import mean_estimate
from pyradice_lab.pyradice.sim import simulate_games

POLICY, BLOCKS, SIZE = "flat_mc", 40, 5
if len(sys.argv) > 1:
    POLICY, BLOCKS, SIZE = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

# %%
rows = []
for i, seed in enumerate(np.random.SeedSequence(2026).spawn(BLOCKS)):
    opp, seat = ("lookahead", "greedy")[i % 2], (i // 2) % 2
    df = simulate_games(SIZE, 2, None, [POLICY, opp] if seat == 0 else [opp, POLICY], rng=seed)
    share = np.where(df.n_winners > 1, 1.0 / df.n_winners, (df.winner == seat).astype(float))
    rows.append(pd.DataFrame({"opponent": opp, "seat": seat, "share": share,
                              "margin": df[f"score_s{seat}"] - df[f"score_s{1 - seat}"],
                              "starts": df.first_player == seat}))
games = pd.concat(rows, ignore_index=True)

# %%
for opp, g in games.groupby("opponent"):
    lo, hi = wilson_interval(g.share.sum(), len(g))
    m = mean_estimate(g.margin.to_numpy())
    print(f"{POLICY} vs {opp}: win share {g.share.mean():.3f} (95% CI {float(lo):.3f}..{float(hi):.3f}), "
          f"VP margin {m.value:+.2f} (95% CI {m.ci_low:+.2f}..{m.ci_high:+.2f}), {len(g)} games")
