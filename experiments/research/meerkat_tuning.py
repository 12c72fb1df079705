"""Tune the Meerkat Kingdom heuristic and expectimax weights by head-to-head strength (issue 27, section 2).

Fast head to head of two parameter players in 2 players + automa: both seatings on the same seeded keys, the
compiled kernel without the DataFrame (score of A against B: A finishes above B, ties half; the automa never
matters here, it finishes last in 99% of these games).  The scans of issue 27 (docs/guide/meerkat.md,
"Cost, and the report player"):

    python experiments/research/meerkat_tuning.py heuristic "{}" 5000 7 burrow_cost=2,3,4,6,8,10,12,15,20,1000
    python experiments/research/meerkat_tuning.py expectimax "{}" 1000 8 burrow_cost=4,8,12,20
    python experiments/research/meerkat_tuning.py expectimax "{'burrow_cost': 8.0}" 1000 9 pup_value=0.5,3 w_opp=0.25,1

Each line: ``KIND PARAM=VALUE: score +- standard error`` of the changed player against the base one.
"""

from __future__ import annotations

import ast
import sys

import numpy as np

from pyradice_lab.meerkat.kernel import GAME_COLUMNS, SEAT_COLUMNS, run_games
from pyradice_lab.meerkat.sim import _default_setup, _seat_config, _tapes

ST = _default_setup()


def _play(pa, pb, tapes):
    n, pols, prm, _ = _seat_config(2, True, [pa, pb])
    m = tapes.shape[0]
    so = np.zeros((m, 4, len(SEAT_COLUMNS)), np.int64)
    go = np.zeros((m, len(GAME_COLUMNS)), np.int64)
    to = np.zeros((m, 10, 2), np.int64)
    search = True if (pols == 2).any() else None
    run_games(tapes, n, True, pols, prm, ST.V, ST.K, ST.bags, ST.nblue, ST.nbrown, ST.comp.male_start_tile,
              ST.pos_adj, ST.oasis, ST.comp.shuffle_tiles, so, go, to, search)
    key = so[:, :2, 0] * 1000 + np.where(so[:, :2, 8] > 0, 999 - so[:, :2, 8], 0)  # points, then who ran out first
    return np.where(key[:, 0] > key[:, 1], 1.0, np.where(key[:, 0] == key[:, 1], 0.5, 0.0))


def h2h(pa, pb, games: int, seed: int) -> tuple[float, float]:
    """Score of policy ``pa`` against ``pb`` (ties half) over ``games`` keys played in both seatings, with its
    standard error."""
    tapes = _tapes(np.random.default_rng(seed), games)
    r = np.concatenate([_play(pa, pb, tapes), 1.0 - _play(pb, pa, tapes)])
    return float(r.mean()), float(r.std() / np.sqrt(len(r)))


def main() -> None:
    kind, base, n, seed = sys.argv[1], ast.literal_eval(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    for spec in sys.argv[5:]:
        k, values = spec.split("=")
        for v in values.split(","):
            s, se = h2h((kind, dict(base, **{k: float(v)})), (kind, base), n, seed)
            print(f"{kind} {k}={v}: {s:.4f} +- {se:.4f}", flush=True)


if __name__ == "__main__":
    main()
