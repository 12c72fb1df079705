"""The exact solver's memo carried across turns, chunks and calls (issue 27): same games, bounded memory."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine import limits
from pyradice_lab.purramid import advisor, exact as E, memo as M, memopool, rules
from pyradice_lab.purramid.components import load_layout
from pyradice_lab.purramid.sim import simulate_games
from pyradice_lab.purramid.solver import CompiledSolver


@pytest.fixture(autouse=True)
def own_cache(monkeypatch, tmp_path):
    """Openings files go to a fresh folder (never the user's cache)."""
    monkeypatch.setenv(memopool.CACHE_ENV_VAR, str(tmp_path / "memos"))
    return tmp_path / "memos"


@pytest.fixture
def tiny_memo(monkeypatch):
    """A memo limit small enough that games prune their memo many times."""
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(32 * 1024 ** 2))
    memopool.POOL.clear()
    yield
    memopool.POOL.clear()


def test_seeded_games_are_the_same_with_and_without_the_carried_memo(tiny_memo):
    with memopool.carrying(False):
        fresh = simulate_games(3, 4, policies="optimal", rng=11)
        assert memopool.POOL.stats()["memos"] == 0
    simulate_games(1, 4, policies="optimal", rng=12)           # the pool now holds a warm memo
    assert memopool.POOL.stats()["memos"] == 1
    carried = simulate_games(3, 4, policies="optimal", rng=11)
    pd.testing.assert_frame_equal(fresh, carried)             # every score, turn, burst, token, exact value
    assert memopool.POOL.stats()["bytes"] <= limits.max_memo_bytes()


@pytest.mark.slow
def test_mixed_seats_and_threads_same_games_with_a_carried_memo(tiny_memo):
    pols = ["optimal", "risk:0.35", "optimal:at_least:4", "greedy"]
    with memopool.carrying(False):
        fresh = simulate_games(9, 4, policies=pols, rng=3)
    simulate_games(1, 4, policies=pols, rng=4)
    carried = simulate_games(9, 4, policies=pols, rng=3, n_jobs=2)
    pd.testing.assert_frame_equal(fresh, carried)


def test_readable_game_same_moves_with_a_warm_solver():
    advisor.clear_cache()
    cold = rules.play_game(4, "A", policies="optimal", rng=5)
    rules.play_game(4, "A", policies="optimal", rng=6)            # the solver's memo is carried
    warm = rules.play_game(4, "A", policies="optimal", rng=5)
    assert warm.transcript == cold.transcript and warm.summary == cold.summary


def test_prune_keeps_the_lowest_layers_and_the_same_values():
    L = load_layout("A")
    s = CompiledSolver(L, advisor.parse_objective("tiles"), 0.6, "auto")
    cov = L.bottom_rows_mask(3)
    v = s.fresh(cov, 5, 1)
    h = M.entries_by_spaces(s.mem[0])
    n = s.memo_size()
    s.mem = memopool.prune(s.mem, n // 2)
    kept = s.memo_size()
    k = int(np.flatnonzero(np.cumsum(h) <= n // 2)[-1])
    assert kept == int(np.cumsum(h)[k]) and 0 < kept <= n // 2
    T = s.mem[0]
    assert max(bin(int(c)).count("1") for c in T[T[:, 2] != -1, 0]) <= k
    assert s.fresh(cov, 5, 1) == v                       # recomputed from what was kept: the same value
    assert s.fresh(L.bottom_rows_mask(4), 4, 0) == CompiledSolver(L, s.objective, 0.6, "auto").fresh(
        L.bottom_rows_mask(4), 4, 0)
    s.mem = memopool.prune(s.mem, 0)                     # nothing kept
    assert s.memo_size() == 0 and s.fresh(cov, 5, 1) == v


def test_pool_limits_follow_the_memory_limit(monkeypatch):
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(64 * 1024 ** 2))
    rows = memopool.table_rows(1)
    assert rows * M.ROW_BYTES <= 0.75 * 64 * 1024 ** 2 < 2 * rows * M.ROW_BYTES
    assert memopool.table_rows(2) == rows // 2
    assert memopool.memo_max(1) == 3 * rows // 8 and memopool.memo_keep(1) == rows // 4
    pool = memopool.MemoPool()
    mems = [pool.take(b"k", 10) for _ in range(3)]
    for m in mems:
        pool.give(b"k", m)
    assert pool.stats()["memos"] == 3
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(M.memo_bytes(mems[0]) * 2))
    pool.give(b"other", pool.take(b"other", 10))
    assert pool.stats()["bytes"] <= limits.max_memo_bytes() and pool.stats()["memos"] == 2
    assert pool.take(b"other", 10) is not None and pool.stats()["memos"] == 1   # the most recent kept


def test_memo_limit_env_var(monkeypatch):
    monkeypatch.delenv(limits.MEMO_ENV_VAR, raising=False)
    assert limits.max_memo_bytes() == 512 * 1024 ** 2
    monkeypatch.setenv(limits.MEMO_ENV_VAR, "1e6")
    assert limits.max_memo_bytes() == 10 ** 6
    monkeypatch.setenv(limits.MEMO_ENV_VAR, "-3")
    with pytest.raises(ValueError, match=limits.MEMO_ENV_VAR):
        limits.max_memo_bytes()


def test_carrying_rejects_non_bool():
    with pytest.raises(TypeError, match="enabled must be True or False"):
        with memopool.carrying("no"):
            pass


def test_no_dice_left_states_are_not_memoised():
    L = load_layout("A")
    s = CompiledSolver(L, advisor.parse_objective("tiles"), 0.6, "exact")
    s.fresh(L.bottom_rows_mask(5), 4, 0)
    small = s.mem[0][s.mem[0][:, 2] != -1, 2]
    after = (small >> 17) & 3 == E.F_AFTER
    assert after.any() and not np.any(after & (small & 7 == 0))


def test_bench_rows_of_the_carried_memo():
    from pyradice_lab.purramid.bench import carried_memo_cases, mid_game_boards

    games, first, adv = carried_memo_cases(quick=True)
    assert first.cpu and "new process" in first.kernel
    assert games.min_ratio == pytest.approx(1 / 30) and games.min_rate == 100.0 and games.cpu   # issue 47
    assert games.reference is not None and "greedy" in games.kernel
    assert adv.max_seconds == 0.03 and adv.cpu and adv.setup is not None
    L = load_layout("A")
    boards = mid_game_boards(20)
    assert len(boards) == 20 and all(0.25 <= L.tiles_of(c) / L.capacity <= 0.6 for c in boards)


def test_openings_on_disk_are_reused_by_a_new_pool_with_the_same_games(tiny_memo, own_cache):
    with memopool.carrying(False):
        fresh = simulate_games(2, 4, policies="optimal", rng=21)
    assert not own_cache.exists()                       # nothing written while not carrying
    own_cache.mkdir(parents=True)
    stale = own_cache / "openings-00-0123456789abcdef.npz"      # another solver version
    stale.write_bytes(b"old")
    simulate_games(1, 4, policies="optimal", rng=22)
    assert not stale.exists()
    files = list(own_cache.glob("openings-*.npz"))
    assert len(files) == 1
    memopool.POOL.clear()                               # as a new process: only the file is left
    key = files[0]                                      # _SAVED may hold other tests' files of this process
    assert key in memopool._SAVED
    loaded = memopool.load_openings(bytes.fromhex(key.name.split("-")[1]), load_layout("A").n_spaces)
    assert loaded is not None and M.memo_size(loaded) == memopool._SAVED[key] > 0
    assert 0 < memopool._SAVED[key] <= memopool.memo_keep(1) // 2
    pd.testing.assert_frame_equal(fresh, simulate_games(2, 4, policies="optimal", rng=21))
    s = CompiledSolver(load_layout("A"), advisor.parse_objective("tiles"), 0.6, "auto")   # the advisor's solver
    v = s.fresh(0, 5, 0)
    assert s.mem[3][M.M_PRUNES] == 1 and s.memo_size() >= memopool._SAVED[key]        # started from the file
    with memopool.carrying(False):
        cold = CompiledSolver(load_layout("A"), advisor.parse_objective("tiles"), 0.6, "auto")
        assert cold.fresh(0, 5, 0) == v and cold.mem[3][M.M_PRUNES] == 0
    files[0].write_bytes(b"not a memo")                 # a damaged file is ignored
    memopool.POOL.clear()
    assert memopool.load_openings(bytes.fromhex(key.name.split("-")[1]), 59) is None
    pd.testing.assert_frame_equal(fresh, simulate_games(2, 4, policies="optimal", rng=21))


def test_cache_dir_can_be_switched_off(monkeypatch):
    monkeypatch.setenv(memopool.CACHE_ENV_VAR, "off")
    assert memopool.cache_dir() is None
    monkeypatch.delenv(memopool.CACHE_ENV_VAR)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere")
    assert str(memopool.cache_dir()) == "/somewhere/pyradice_lab_memos"
