"""The exact solver's memo carried across turns, chunks and calls (issue 27): same games, bounded memory."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine import limits
from pyradice_lab.purramid import advisor, exact as E, memo as M, memopool, rules
from pyradice_lab.purramid.components import Layout, load_layout
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
    assert np.array_equal(M.layers(s.mem), h)            # the counters the prune reads agree with the table
    n = s.memo_size()
    s.mem = memopool.prune(s.mem, n // 2)
    assert np.array_equal(M.layers(s.mem), M.entries_by_spaces(s.mem[0]))
    kept = s.memo_size()
    k = int(np.flatnonzero(np.cumsum(h) <= n // 2)[-1])
    assert kept == int(np.cumsum(h)[k]) and 0 < kept <= n // 2
    T = s.mem[0]
    assert max(bin(int(c)).count("1") for c in T[T[:, 2] != -1, 0]) <= k
    assert s.fresh(cov, 5, 1) == v                       # recomputed from what was kept: the same value
    assert s.fresh(L.bottom_rows_mask(4), 4, 0) == CompiledSolver(L, s.objective, 0.6, "auto").fresh(
        L.bottom_rows_mask(4), 4, 0)
    s.mem = memopool.prune(s.mem, 0)                     # nothing kept
    assert s.memo_size() == 0 and not M.layers(s.mem).any() and s.fresh(cov, 5, 1) == v
    assert np.array_equal(M.layers(s.mem), M.entries_by_spaces(s.mem[0]))


def test_pool_limits_follow_the_memory_limit(monkeypatch):
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(64 * 1024 ** 2))
    rows = memopool.table_rows(1)
    assert rows * M.ROW_BYTES <= 0.75 * 64 * 1024 ** 2 < 2 * rows * M.ROW_BYTES
    assert memopool.table_rows(2) == rows // 2
    assert memopool.memo_max(1) == 3 * rows // 8 and memopool.memo_keep(1) == rows // 4   # a small table
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(512 * 1024 ** 2))                          # the default's
    big = memopool.table_rows(1)
    assert memopool.memo_max(1) == big // 2 - memopool.TURN_ROOM > 3 * big // 8 > memopool.memo_keep(1)
    assert memopool.memo_max(2) == 3 * big // 16            # half the rows each: 3/8 is the smaller room
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(64 * 1024 ** 2))
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

    own, build, games, first, adv = carried_memo_cases(quick=True)
    assert first.cpu and "new process" in first.kernel
    assert games.min_ratio == pytest.approx(1 / 30) and games.min_rate == 100.0 and games.cpu   # issue 47
    assert games.reference is not None and "greedy" in games.kernel and "openings file" in games.kernel
    assert own.min_rate is None and own.min_ratio is None and own.reference is not None and "no openings" in own.kernel
    assert build.min_rate is None and build.cpu and "built once" in build.kernel
    assert adv.max_seconds == 0.03 and adv.cpu and adv.setup is not None
    L = load_layout("A")
    boards = mid_game_boards(20)
    assert len(boards) == 20 and all(0.25 <= L.tiles_of(c) / L.capacity <= 0.6 for c in boards)


def _play_until_saved(cache, most=12):
    """Play all-optimal games one by one until the pool writes an openings file (a memo of ``memo_keep / 2``
    entries: a few games under ``tiny_memo``, more as the solver memoises fewer states)."""
    for seed in range(22, 22 + most):
        simulate_games(1, 4, policies="optimal", rng=seed)
        if any(f.name != "openings-00-0123456789abcdef.npz" for f in cache.glob("openings-*.npz")):
            return
    raise AssertionError(f"no openings file after {most} games")


def test_the_carried_memo_bench_row_reads_no_openings_file(monkeypatch, tmp_path):
    """The bench row "memo carried from 16 earlier games" times games whose memo is those games' alone: a file an
    earlier bench run wrote holds the very games it times (a small memo fits whole), which made it a replay."""
    from pyradice_lab.purramid import bench

    monkeypatch.setenv(memopool.CACHE_ENV_VAR, str(tmp_path))
    with bench._no_openings_file():
        assert memopool.cache_dir() is None
    assert memopool.cache_dir() == tmp_path
    monkeypatch.delenv(memopool.CACHE_ENV_VAR)
    with bench._no_openings_file():
        assert memopool.cache_dir() is None
    assert memopool.CACHE_ENV_VAR not in __import__("os").environ


def test_the_openings_bench_rows_build_their_own_file_from_other_seeds(monkeypatch):
    """Issue 47's target row times games whose memo comes from an openings file the bench builds itself, in a
    temporary folder (never the user's cache), from games of other seeds than the timed ones; the folder is
    removed afterwards, and the row without a file reads none."""
    import os

    from pyradice_lab.purramid import bench, sim

    calls, folders = [], []
    monkeypatch.setattr(sim, "optimal_bench_run", lambda n, players, seed, opt, n_jobs=1: calls.append(
        (n, seed, opt, os.environ.get(memopool.CACHE_ENV_VAR))) or n)

    def write(force=False):
        folders.append(os.environ[memopool.CACHE_ENV_VAR])
        calls.append(("write", force))
        return [Path(folders[-1]) / "openings.npz"]

    monkeypatch.setattr(memopool.POOL, "write_openings", write)
    monkeypatch.delenv(memopool.CACHE_ENV_VAR, raising=False)
    own, build, games, _, _ = bench.carried_memo_cases(quick=True)
    for row in (own, build, games):
        m = row.fast()
        assert m.units > 0 and m.seconds >= 0
    d = folders[0]
    assert calls == [(4, 1000, 4, "off"), (8, 1, 4, "off"),
                     (64, bench.OPENINGS_SEED, 4, d), ("write", True),
                     (2, 1000, 4, d), (16, 1, 4, d)]
    assert bench.OPENINGS_SEED not in (1, 1000) and d != str(memopool.cache_dir())
    assert not os.path.exists(d) and memopool.CACHE_ENV_VAR not in os.environ


def test_the_pool_writes_every_idle_memos_openings(tiny_memo, own_cache):
    with memopool.carrying(True):
        memopool.POOL.clear()
        simulate_games(1, 4, policies="optimal", rng=21)
        written = memopool.POOL.write_openings(force=True)
        assert [p.parent for p in written] == [own_cache] and written[0].exists()
        key = next(iter(memopool.POOL._idle))
        assert memopool.openings_layers(key) >= 0
        memopool.POOL.clear()
        assert memopool.POOL.write_openings(force=True) == []
        with pytest.raises(TypeError, match="force must be True or False, got 'yes'"):
            memopool.POOL.write_openings(force="yes")


def test_the_worker_pool_bench_rows(monkeypatch):
    """The 2-worker rows: every game with the openings file off (the workers started inside inherit it); the
    cold row starts a new pool; the started rows' untimed setup starts one and plays other seeds first; the
    last row leaves no worker process behind; the goal (10 all-optimal games per second) is on the started row."""
    from pyradice_lab.engine import execution
    from pyradice_lab.purramid import bench, sim

    calls = []
    monkeypatch.setattr(execution, "stop_worker_processes", lambda: calls.append("stop"))
    monkeypatch.setattr(sim, "optimal_bench_run", lambda n, players, seed, opt, n_jobs=1: calls.append(
        (n, seed, opt, n_jobs, __import__("os").environ.get(memopool.CACHE_ENV_VAR))) or n)
    cold, started, one = bench.worker_pool_cases(quick=False)
    assert cold.min_rate is None and "new pool" in cold.kernel and "start-up included" in cold.kernel
    assert started.min_rate == 10.0 and "all seats optimal" in started.kernel
    for row in (cold, started, one):
        if row.setup is not None:
            row.setup()
        units, seconds = row.fast()
        assert units > 0 and seconds >= 0
    assert calls == ["stop", (16, 3, 4, 2, "off"),
                     "stop", (16, 1000, 4, 2, "off"), (32, 1, 4, 2, "off"),
                     "stop", (16, 1000, 4, 2, "off"), (32, 2, 1, 2, "off"), "stop"]


def test_openings_on_disk_are_reused_by_a_new_pool_with_the_same_games(tiny_memo, own_cache):
    with memopool.carrying(False):
        fresh = simulate_games(2, 4, policies="optimal", rng=21)
    assert not own_cache.exists()                       # nothing written while not carrying
    own_cache.mkdir(parents=True)
    stale = own_cache / "openings-00-0123456789abcdef.npz"      # another solver version
    stale.write_bytes(b"old")
    _play_until_saved(own_cache)
    assert not stale.exists()
    files = list(own_cache.glob("openings-*.npz"))
    assert len(files) == 1
    memopool.POOL.clear()                               # as a new process: only the file is left
    key = files[0]                                      # _SAVED may hold other tests' files of this process
    assert key in memopool._SAVED
    loaded = memopool.load_openings(bytes.fromhex(key.name.split("-")[1]), load_layout("A").n_spaces)
    assert loaded is not None and M.memo_size(loaded) == memopool._SAVED[key] > 0
    assert np.array_equal(M.layers(loaded), M.entries_by_spaces(loaded[0]))
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


def test_an_openings_file_in_use_outlives_newer_unused_ones_at_the_cap(tiny_memo, own_cache):
    """The cap on openings files drops the least recently *used* file: a report's checks write one file per sampled
    layout, which must not push out the files of the layouts every later run loads (the packaged ones)."""
    import os

    _play_until_saved(own_cache)
    (used,) = own_cache.glob("openings-*.npz")
    version = used.stem.rsplit("-", 1)[-1]
    os.utime(used, (1_000, 1_000))                       # written long ago
    others = [own_cache / f"openings-{i:02x}-{version}.npz" for i in range(memopool.MAX_CACHE_FILES - 1)]
    for i, f in enumerate(others):                       # the cap's other files, written after it, never used
        f.write_bytes(b"x")
        os.utime(f, (2_000 + i, 2_000 + i))
    memopool.POOL.clear()
    mem = memopool.load_openings(bytes.fromhex(used.name.split("-")[1]), load_layout("A").n_spaces)
    assert mem is not None
    memopool.save_openings(b"\x01" * 16, mem, force=True)  # one file more than the cap: one must go
    assert used.exists() and not others[0].exists() and all(f.exists() for f in others[1:])


def test_cache_dir_can_be_switched_off(monkeypatch):
    monkeypatch.setenv(memopool.CACHE_ENV_VAR, "off")
    assert memopool.cache_dir() is None
    monkeypatch.delenv(memopool.CACHE_ENV_VAR)
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere")
    assert str(memopool.cache_dir()) == "/somewhere/pyradice_lab_memos"


# ------------------------------------------------------------------------------------------ issue 46
def test_the_setting_key_covers_every_field_a_memos_values_depend_on():
    """Board, yarn tokens on the 8s, objective, bonus mode, yarn value, layout size and the ``auto`` cut each
    change the key: a memo of one setting is never used for another."""
    A, B = load_layout("A"), load_layout("B")
    base = dict(layout=A, specs=[(0, 0, 0.6)], yarn_tokens=True, auto_max=None)
    changes = {"board": dict(layout=B), "yarn tokens": dict(yarn_tokens=False),
               "objective": dict(specs=[(1, 0, 0.6)]), "bonus mode": dict(specs=[(0, 1, 0.6)]),
               "yarn value": dict(specs=[(0, 0, 0.7)]), "auto cut": dict(auto_max=3)}

    def key(**kw):
        d = {**base, **kw}
        return memopool.setting_key(E.static_context(d["layout"], d["specs"], yarn_tokens=d["yarn_tokens"],
                                                     auto_max=d["auto_max"]))

    k0 = key()
    assert key() == k0
    for what, kw in changes.items():
        assert key(**kw) != k0, what


# ------------------------------------------------------------------------------------------ issue 47
def test_the_state_key_packs_every_field_of_a_state_apart():
    """Within a setting a memo entry is keyed by ``(covered, placed, small_key(tag, dice left, turn dice, yarn,
    tiles needed, objective row))``: every combination of the small fields in their allowed ranges gets its own
    key, so no state can read another's value (a turn-start solve is the ROLL state ``placed = 0``)."""
    F = np.array(np.meshgrid(np.arange(3), np.arange(6), np.arange(6), np.arange(E.MAX_YARN + 1),
                             np.arange(E.K_MAX + 1), np.arange(4), indexing="ij")).reshape(6, -1)
    keys = M.small_key.py_func(*F)
    assert len(np.unique(keys)) == F.shape[1]
    assert M.small_key(*F[:, -1].tolist()) == keys[-1]   # the compiled key is the same formula


def test_a_warm_memo_answers_every_changed_field_as_a_cold_solve():
    """Solve a state, then each state that differs from it in one field on the same (warm) memo: the value is
    the cold solve's, and differs from the first state's -- a key that left a field out would return it."""
    L = Layout.from_rows([[2, 10, 6], [8, 3, 4], [12, 5]], name="small")
    sc = E.static_context(L, [(0, E.MODE_CODES["exact"], 0.6), (1, E.MODE_CODES["exact"], 0.0)])

    def cold(st):
        return E.solve(*st, sc, E.new_memory(L.n_spaces))[:2]

    # (tag, covered, placed, dice left, turn dice, yarn, tiles needed, objective row)
    tiles = (E.F_ROLL, 0, 1 << 1, 3, 4, 1, 0, 0)
    at_least = (E.F_ROLL, 0, 0, 4, 4, 1, 2, 1)
    changed = {"covered": (tiles, 1, 1), "placed": (tiles, 2, 1 << 2), "dice left": (tiles, 3, 2),
               "turn dice": (tiles, 4, 5), "yarn": (tiles, 5, 0), "objective row": (tiles, 7, 1),
               "tiles needed": (at_least, 6, 3), "tag": ((E.F_ROLL, 0, 1, 2, 4, 1, 0, 0), 0, E.F_AFTER)}
    for what, (base, field, value) in changed.items():
        st = base[:field] + (value,) + base[field + 1:]
        mem = E.new_memory(L.n_spaces)
        v0, _, mem = E.solve(*base, sc, mem)
        v, b, mem = E.solve(*st, sc, mem)
        assert (v, b) == cold(st), what
        assert abs(v - v0) > 1e-6, what


def test_memos_in_use_count_toward_the_idle_limit(monkeypatch):
    """With three memos in use and room for two and a half, a memo given back is not kept idle while the two
    others are still in use (idle + in use stays within the limit); once they are back, two are kept."""
    pool = memopool.MemoPool()
    one = M.memo_bytes(M.new_memory(10))
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(int(2.5 * one)))
    mems = [pool.take(b"k", 10) for _ in range(3)]
    assert all(M.memo_bytes(m) == one for m in mems)
    pool.give(b"k", mems[0])
    assert pool.stats()["memos"] == 0            # 2 in use + 1 idle would exceed the limit
    pool.give(b"k", mems[1])
    assert pool.stats()["memos"] == 1
    pool.give(b"k", mems[2])
    assert pool.stats()["memos"] == 2 and pool.stats()["bytes"] <= limits.max_memo_bytes()


def test_each_worker_keeps_to_its_share_of_the_memory_limit(monkeypatch):
    """A memo taken by one of ``workers`` threads is pruned to 1/workers of the limit: a large idle memo taken
    for 4 workers comes back at most a quarter of the limit."""
    pool = memopool.MemoPool()
    big = M.prune_memory(M.new_memory(10), -1, 1 << 17)   # an empty table of 131,072 rows
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(2 * M.memo_bytes(big)))
    pool.give(b"k", big)
    assert pool.stats()["memos"] == 1
    taken = pool.take(b"k", 10, workers=4)
    assert M.memo_bytes(taken) * 4 <= limits.max_memo_bytes()
    pool.give(b"k", taken)
    whole = pool.take(b"k", 10, workers=1)   # one worker may use the whole limit: kept as it is
    assert M.memo_bytes(whole) == M.memo_bytes(taken)


def test_prune_in_place_keeps_what_the_copying_prune_keeps_and_every_kept_row_is_found():
    """Issue 47: a prune into the same table (no new table) keeps the same entries and valid groups as the
    copying prune, and the table is whole again (every kept row is found by its key; a hole left inside a
    probe run would hide the rows after it)."""
    L = load_layout("A")
    s = CompiledSolver(L, advisor.parse_objective("tiles"), 0.6, "auto")
    s.fresh(L.bottom_rows_mask(3), 5, 1)
    s.fresh(L.bottom_rows_mask(4), 5, 0)
    h = np.cumsum(M.entries_by_spaces(s.mem[0]))
    k = int(np.flatnonzero(h <= h[-1] // 2)[-1])
    rows = s.mem[0].shape[0]
    copied = M.prune_memory(tuple(a.copy() for a in s.mem), k, rows)
    inplace = tuple(a.copy() for a in s.mem)
    assert M.prune_in_place(inplace, k)
    assert M.memo_size(inplace) == M.memo_size(copied) == int(h[k]) > 0

    def content(mem):
        T, boards, pool = mem[0], mem[1], mem[2]
        out = {}
        for r in T[T[:, 2] >= 0]:
            if (r[2] >> 17) & 3 == M.H_BOARD:
                b = boards[r[3]]
                groups = tuple(map(tuple, pool[b[M.B_START]:b[M.B_START] + b[M.B_LEN]]))
                out[tuple(r[:3])] = (tuple(b[[M.B_COV, M.B_DD, M.B_LEN, M.B_UNION]]), groups)
            else:
                out[tuple(r[:3])] = tuple(r[4:])
        return out

    assert content(inplace) == content(copied)
    T = inplace[0]
    assert not (T[:, 2] == -2).any()
    for i in np.flatnonzero(T[:, 2] >= 0):
        assert M.slot(T, T[i, 0], T[i, 1], T[i, 2]) == i
    s.mem = inplace                              # solving on from the pruned memo: the values of a new solver
    fresh = CompiledSolver(L, s.objective, 0.6, "auto")
    for cov, D in ((L.bottom_rows_mask(3), 5), (L.bottom_rows_mask(4), 5), (L.bottom_rows_mask(5), 4)):
        assert s.fresh(cov, D, 1) == fresh.fresh(cov, D, 1)


def test_a_memo_pruned_on_its_way_back_leaves_no_busy_entry(monkeypatch):
    """give() prunes a memo that outgrew the limit into a new table; the memo as taken is no longer in use (a
    busy entry left under the old table's id would shrink every later idle limit for good)."""
    pool = memopool.MemoPool()
    mem = pool.take(b"k", 10)
    assert len(pool._busy) == 1
    monkeypatch.setenv(limits.MEMO_ENV_VAR, str(M.memo_bytes(mem) // 3))   # the memo now outgrows the limit
    pool.give(b"k", mem)
    assert pool._busy == {}
