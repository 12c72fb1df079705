"""Fast head-to-head of two parameter policies in 2 players + automa (both seatings, same keys)."""
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
    key = so[:, :2, 0] * 1000 + np.where(so[:, :2, 8] > 0, 999 - so[:, :2, 8], 0)
    return np.where(key[:, 0] > key[:, 1], 1.0, np.where(key[:, 0] == key[:, 1], 0.5, 0.0))


def h2h(pa, pb, games, seed):
    """A's score against B (ties half), games per seating; returns (score, se)."""
    tapes = _tapes(np.random.default_rng(seed), games)
    r = np.concatenate([_play(pa, pb, tapes), 1.0 - _play(pb, pa, tapes)])
    return r.mean(), r.std() / np.sqrt(len(r))
