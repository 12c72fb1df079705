"""Monte Carlo vs exact: the engine's sampled automa placements against the exact distribution (4 SE)."""

import numpy as np

from pyradice_lab.meerkat import automa_placement_table, rules as R
from pyradice_lab.meerkat.sim import fresh_state, python_twins


def test_automa_placements_match_exact_distribution():
    tw = python_twins()
    counts: dict[tuple[int, int], int] = {}
    done = 0
    for k in range(30):
        g = fresh_state(1, automa=True, log_rows=200)   # traced: room for 1600 events
        g[1][0, :] = np.random.default_rng(k).integers(1, 7, size=g[1].shape[1])  # a seeded dice tape
        W = g[0]
        S, C = W[4:8], W[0:4]
        for _ in range(100):  # 100 automa placements per state (supply refilled each time)
            S[1, R.SUP] = 20
            S[1, R.QUEEN] = 12
            C[:, :] = 0
            tw["automa_turn"](g, np.int64(1))
        events = W[R.LOG0:].reshape(-1, 8)[:W[21, R.G_LOG]]
        for ev in events[events[:, 2] == R.EV_PLACE]:
            key = (int(ev[4]), int(ev[3]))   # (tile, meerkats placed)
            counts[key] = counts.get(key, 0) + 1
            done += 1
    assert done == 3000
    exact = automa_placement_table()
    exact = exact[exact.face == "any"].set_index(["tile", "count"])["probability"]
    assert set(counts) <= set(exact.index)
    for (tile, count), p in exact.items():
        mc = counts.get((tile, count), 0) / done
        se = np.sqrt(p * (1 - p) / done)
        assert abs(mc - p) < 4 * se, (tile, count, mc, p)
