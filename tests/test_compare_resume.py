"""Issue 26 (leftover): ``compare(cache_dir=)`` resumes every kind of metric.

A comparison's blocks are stored in the sweep cache's signed block files; a run interrupted after ``k`` blocks and
started again with the same arguments computes only the missing blocks and gives the same frame.  The smooth
metrics (a difference of ratios, Rocking Raft's boat pay) used to return a result holding Python functions,
which the block format cannot store: their blocks were silently recomputed every time.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pyradice_lab import compare
from pyradice_lab.design import compare as C, metrics as D
from pyradice_lab.engine import execution as ex
from pyradice_lab.engine.metrics import Smooth
from pyradice_lab.meerkat import default_components as meerkat_components
from pyradice_lab.raft import default_components as raft_components


class _Stop(Exception):
    pass


def _frames_equal(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a, b, check_exact=True)


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 40 games (the numbers depend on the block constant only through the seeds, alike in every run)."""
    monkeypatch.setattr(C, "BLOCK", 40)


CASES = {
    # a difference of two ratios (smooth), a ratio of sums (not 0/1), a win share (0/1)
    "meerkat tile_pay_excess:7": dict(game="meerkat", metric="tile_pay_excess:7", players=3, options=None),
    "meerkat points_per_meerkat": dict(game="meerkat", metric="points_per_meerkat", players=3, options=None),
    "raft boat_pay_excess:2": dict(game="raft", metric="boat_pay_excess:2", players=2,
                                   options={"card_columns": True}),
    "raft points_per_boat": dict(game="raft", metric="points_per_boat", players=2, options=None),
}


def _call(case, **kw):
    game = case["game"]
    variant = (raft_components().replace({"card.1.points": 4}) if game == "raft" else
               meerkat_components().replace({"tile.7.values": [8, 3]}))
    return compare(game, None, variant, case["metric"], players=case["players"], policies="greedy", rng=6,
                   options=case["options"],
                   **kw)


@pytest.mark.parametrize("name", list(CASES))
def test_an_interrupted_comparison_resumes_with_the_same_numbers(name, small_blocks, tmp_path, monkeypatch):
    case = CASES[name]
    want = _call(case, games=200).to_frame()     # 5 blocks of 40 games, no cache
    seen: list = []

    def stop_after_two(i):
        seen.append(i)
        if len(seen) == 2:
            raise _Stop

    monkeypatch.setattr(ex, "after_block_hook", stop_after_two)
    with pytest.raises(_Stop):
        _call(case, games=200, cache_dir=tmp_path)
    again: list = []
    monkeypatch.setattr(ex, "after_block_hook", again.append)
    got = _call(case, games=200, cache_dir=tmp_path).to_frame()
    _frames_equal(got, want)
    assert sorted(again) == [2, 3, 4], "only the three missing blocks are computed"
    done: list = []
    monkeypatch.setattr(ex, "after_block_hook", done.append)
    _frames_equal(_call(case, games=200, cache_dir=tmp_path).to_frame(), want)
    assert done == []  # everything stored: nothing computed


def test_a_longer_run_reuses_the_blocks_of_a_shorter_one(small_blocks, tmp_path, monkeypatch):
    case = CASES["meerkat tile_pay_excess:7"]
    _call(case, games=120, cache_dir=tmp_path)  # blocks 0..2
    computed: list = []
    monkeypatch.setattr(ex, "after_block_hook", computed.append)
    got = _call(case, games=200, cache_dir=tmp_path).to_frame()
    assert len(computed) == 2  # blocks 3 and 4
    _frames_equal(got, _call(case, games=200).to_frame())


@pytest.mark.parametrize("name", ["meerkat tile_pay_excess:7", "raft points_per_boat"])
def test_an_interrupted_until_run_resumes_with_the_same_numbers(name, small_blocks, tmp_path, monkeypatch):
    """``until=`` adds blocks one wave at a time: a run stopped in its sequential part resumes from the stored
    blocks, with the same stopping point and numbers."""
    case = CASES[name]
    kw = dict(games=80, until=1e-9, max_games=280)  # never reached: 7 blocks, 2 first then 5 one by one
    want = _call(case, **kw)
    assert want.n_games == 280 and not want.reached
    computed: list = []

    def stop_after_four(i):
        computed.append(i)
        if len(computed) == 4:   # 2 first blocks and 2 sequential ones
            raise _Stop

    monkeypatch.setattr(ex, "after_block_hook", stop_after_four)
    with pytest.raises(_Stop):
        _call(case, cache_dir=tmp_path, **kw)
    again: list = []
    monkeypatch.setattr(ex, "after_block_hook", again.append)
    got = _call(case, cache_dir=tmp_path, **kw)
    _frames_equal(got.to_frame(), want.to_frame())
    assert len(again) == 3  # the 3 sequential blocks the killed run had not finished
    done: list = []
    monkeypatch.setattr(ex, "after_block_hook", done.append)
    _frames_equal(_call(case, cache_dir=tmp_path, **kw).to_frame(), want.to_frame())
    assert done == []


def test_an_until_run_that_stops_early_resumes_at_the_same_block(small_blocks, tmp_path, monkeypatch):
    """A reachable half-width: the resumed run stops where the uninterrupted one stopped."""
    case = CASES["meerkat points_per_meerkat"]
    probe = _call(case, games=80, until=1e-9, max_games=400)
    target = probe.difference.halfwidth * 1.6   # reached somewhere before 400 games
    kw = dict(games=80, until=target, max_games=400)
    want = _call(case, **kw)
    assert want.reached and 80 <= want.n_games < 400
    _call(case, games=80, cache_dir=tmp_path)   # the first two blocks stored
    computed: list = []
    monkeypatch.setattr(ex, "after_block_hook", computed.append)
    got = _call(case, cache_dir=tmp_path, **kw)
    _frames_equal(got.to_frame(), want.to_frame())
    assert len(computed) == want.n_games // 40 - 2


def test_a_smooth_result_is_stored_as_data():
    """What a smooth metric's block returns survives the block files' encoding, function included."""
    from pyradice_lab.raft import simulate_games

    df = simulate_games(30, players=2, rng=3, card_columns=True)
    for game, frame, metric in (("raft", df, "boat_pay_excess:3"), ("raft", df, "boat_pay_spread")):
        _, m, arg = D._parse_metric(game, metric)
        res = m.fn(frame, None, arg)
        back = ex.decode(ex.encode(res))
        assert isinstance(back, Smooth) and back.form == res.form
        means = res.columns.mean(axis=0)
        assert back.fn(means) == res.fn(means)
        assert np.array_equal(back.grad(means), res.grad(means))


def test_joined_raft_blocks_see_every_game():
    """A card never completed holds its turns over all the games of the run, not over one block's games: the
    joined blocks give the metric of the whole frame."""
    from pyradice_lab.raft import simulate_games

    df = simulate_games(60, players=2, rng=4, card_columns=True)
    _, m, arg = D._parse_metric("raft", "boat_pay_spread")
    whole = m.fn(df, None, arg)
    halves = [m.fn(df.iloc[a:b].reset_index(drop=True), None, arg) for a, b in ((0, 30), (30, 60))]
    joined = D._concat(halves)
    means = whole.columns.mean(axis=0)
    assert joined.fn(means) == whole.fn(means)
    assert np.array_equal(joined.grad(means), whole.grad(means))


def test_block_files_keep_an_arrays_memory_order():
    """A column-major array is read back column-major: sums over an axis then add in the same order (same bits)."""
    a = np.asfortranarray(np.random.default_rng(1).random((500, 7)))
    b = ex.decode(ex.encode(a))
    assert b.flags.f_contiguous and np.array_equal(a, b)
    assert np.array_equal(b.mean(axis=0), a.mean(axis=0))
    c = ex.decode(ex.encode(np.ascontiguousarray(a)))
    assert c.flags.c_contiguous and np.array_equal(c, a)
