"""Memory does not grow with the count asked for: blocks, seeds spawned per block, accumulated summaries,
result-size limits checked before any work -- and the numbers stay those of one big batch."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine import dice, limits
from pyradice_lab.engine.rng import block_ranges, spawn_blocks, spawn_seeds
from pyradice_lab.engine.stats import (
    MeanAccumulator,
    ProportionAccumulator,
    mean_estimate,
    proportion_estimate,
    run_until,
)

HUGE = 10 ** 15


# ----------------------------------------------------------------------------------------- rng blocks
@pytest.mark.parametrize("block", [1, 3, 7, 100])
def test_seeds_spawned_per_block_are_the_children_of_one_spawn(block):
    one = [s.spawn_key for s in spawn_seeds(11, 20)]
    blocks = list(spawn_blocks(11, 20, block))
    assert [len(b) for b in blocks] == [b - a for a, b in block_ranges(20, block)]
    assert [s.spawn_key for b in blocks for s in b] == one
    states = [np.random.default_rng(s).integers(1 << 40) for b in blocks for s in b]
    assert states == [np.random.default_rng(s).integers(1 << 40) for s in spawn_seeds(11, 20)]


def test_spawn_blocks_from_a_generator_continues_its_spawn_counter():
    g1, g2 = np.random.default_rng(4), np.random.default_rng(4)
    a = [s.spawn_key for b in spawn_blocks(g1, 5, 2) for s in b]
    assert a == [s.spawn_key for s in spawn_seeds(g2, 5)]
    assert [s.spawn_key for s in spawn_seeds(g1, 1)] == [s.spawn_key for s in spawn_seeds(g2, 1)]


def test_spawn_blocks_is_lazy_and_validates_first():
    it = spawn_blocks(1, HUGE, 1000)  # a billion billion children: only the first block is ever made
    assert len(next(it)) == 1000
    with pytest.raises(ValueError, match="block"):
        spawn_blocks(1, 10, 0)
    with pytest.raises(ValueError, match="n must"):
        spawn_blocks(1, -1, 10)


# ----------------------------------------------------------------------------------------- accumulators
def test_mean_accumulator_equals_mean_estimate_of_all_samples():
    x = np.random.default_rng(3).normal(5, 2, size=10_001)
    acc = MeanAccumulator()
    for a, b in block_ranges(len(x), 997):
        acc.add(x[a:b])
    est, ref = acc.estimate(), mean_estimate(x)
    assert est.n == ref.n
    for f in ("value", "se", "ci_low", "ci_high"):
        assert getattr(est, f) == pytest.approx(getattr(ref, f), rel=1e-12)
    other = MeanAccumulator().add(x[:10]).merge(MeanAccumulator().add(x[10:]))
    assert other.estimate().se == pytest.approx(ref.se, rel=1e-12)


def test_accumulators_reject_bad_input():
    with pytest.raises(ValueError, match="finite"):
        MeanAccumulator().add([1.0, np.nan])
    with pytest.raises(ValueError, match="at least 2"):
        MeanAccumulator().add([1.0]).estimate()
    with pytest.raises(TypeError, match="bool"):
        ProportionAccumulator().add([1, 0])
    with pytest.raises(ValueError, match="hits"):
        ProportionAccumulator().add(5, 3)


def test_proportion_accumulator_counts_exactly():
    acc = ProportionAccumulator().add(np.array([True, False, True])).add(4, 10)
    assert (acc.successes, acc.n) == (6, 13)
    assert acc.estimate() == proportion_estimate(6, 13)


def test_run_until_summarises_batches_like_all_samples_at_once():
    res = run_until(lambda n, g: g.normal(1, 1, n), rel_or_abs_halfwidth=1e-9, max_trials=5_000, rng=2, batch=700)
    gen = np.random.default_rng(2)
    x = np.concatenate([gen.normal(1, 1, b - a) for a, b in block_ranges(5_000, 700)])
    assert res.estimate.value == pytest.approx(float(x.mean()), rel=1e-12)
    assert res.estimate.se == pytest.approx(mean_estimate(x).se, rel=1e-12)


# ----------------------------------------------------------------------------------------- limits
def test_result_size_limit_names_parameter_size_and_largest_count(monkeypatch):
    monkeypatch.delenv(limits.ENV_VAR, raising=False)
    assert limits.check_result_size(10, 100, name="n_games") == 10
    with pytest.raises(ValueError, match=r"n_games=1000000000000 .*limit is 4\.29 GB, at most 42,949,672 games"):
        limits.check_result_size(10 ** 12, 100, name="n_games")
    monkeypatch.setenv(limits.ENV_VAR, "1000")
    assert limits.max_count(100) == 10
    with pytest.raises(ValueError, match="at most 10 games"):
        limits.check_result_size(11, 100, name="n_games")
    monkeypatch.setenv(limits.ENV_VAR, "lots")
    with pytest.raises(ValueError, match=limits.ENV_VAR):
        limits.max_result_bytes()


def test_dice_roll_refuses_a_result_that_cannot_fit():
    with pytest.raises(ValueError, match=r"n=1000000000000000 would hold about 5 PB .*the limit is"):
        dice.roll(HUGE, 5, rng=0)
    assert dice.roll(3, 5, rng=0).shape == (3, 5)


# ----------------------------------------------------------------------------------------- sweep cells
def test_subset_sum_cell_draws_in_bounded_blocks(monkeypatch):
    from pyradice_lab.report import overview

    calls = []
    real = dice.roll

    class Enough(Exception):
        pass

    def spy(n, k, *, rng=None):
        calls.append(n)
        if len(calls) == 3:
            raise Enough
        return real(n, k, rng=rng)

    monkeypatch.setattr(overview.dice, "roll", spy)
    with pytest.raises(Enough):
        overview.subset_sum_cell({"dice": 5, "target": 12}, HUGE, np.random.default_rng(0))
    assert calls == [dice.ROLL_BLOCK] * 3


def test_subset_sum_cell_up_to_one_block_equals_one_draw_and_blocks_are_deterministic(monkeypatch):
    from pyradice_lab.report import overview

    out = overview.subset_sum_cell({"dice": 4, "target": 9}, 5_000, np.random.default_rng(8))
    masks = dice.subset_sum_masks(dice.roll(5_000, 4, rng=np.random.default_rng(8)))
    assert out["p"].value == np.count_nonzero((masks >> np.uint64(9)) & np.uint64(1)) / 5_000
    monkeypatch.setattr(dice, "ROLL_BLOCK", 1_000)
    a = overview.subset_sum_cell({"dice": 4, "target": 9}, 5_500, np.random.default_rng(8))
    gen = np.random.default_rng(8)
    hits = sum(int(np.count_nonzero((dice.subset_sum_masks(dice.roll(b - a_, 4, rng=gen)) >> np.uint64(9))
                                    & np.uint64(1))) for a_, b in block_ranges(5_500, 1_000))
    assert a["p"].value == hits / 5_500


def test_raft_tilt_blocks_are_one_tilt_call_whatever_the_block():
    from pyradice_lab.raft import tilting

    state = tilting.reference_state(4)
    whole = tilting.tilt(state, "east", "left", 2.0, n=1_000, rng=3)
    for block in (1, 333, 1_000, 5_000):
        parts = list(tilting.tilt_blocks(state, "east", "left", 2.0, n=1_000, rng=3, block=block))
        assert np.array_equal(np.concatenate([p.fallen for p in parts]), whole.fallen)
        assert np.array_equal(np.concatenate([p.states for p in parts]), whole.states)


def test_raft_tilt_distribution_counts_every_outcome_like_np_unique(monkeypatch):
    from pyradice_lab.raft import tilting

    state = tilting.reference_state(3)
    res = tilting.tilt(state, "north", "centre", 1.5, n=4_000, rng=9)
    uniq, counts = np.unique(res.fallen, axis=0, return_counts=True)
    monkeypatch.setattr(tilting, "TILT_BLOCK", 700)
    df = tilting.tilt_distribution(state, "north", "centre", 1.5, trials=4_000, rng=9, model=False)
    colours = list(df.columns[:4])
    got = {tuple(r[:4]): r[-1] for r in df[colours + ["count"]].itertuples(index=False)}
    assert got == {tuple(int(v) for v in u): int(k) for u, k in zip(uniq, counts)}


def test_raft_tilt_refuses_a_result_that_cannot_fit():
    from pyradice_lab.raft import tilting

    with pytest.raises(ValueError, match=r"n=1000000000000 .*limit"):
        tilting.tilt(tilting.reference_state(4), "north", "centre", 1.0, n=10 ** 12, rng=0)


def test_purramid_turns_in_blocks_continue_one_generator(monkeypatch):
    from pyradice_lab.purramid import turns

    monkeypatch.setattr(turns, "TURN_BLOCK", 200)
    whole = turns.simulate_turns(500, "A", policy="greedy", rng=5)
    gen = np.random.default_rng(5)
    parts = [turns.simulate_turns(m, "A", policy="greedy", rng=gen) for m in (200, 200, 100)]
    pd.testing.assert_frame_equal(whole, pd.concat(parts, ignore_index=True), check_exact=True)


@pytest.mark.parametrize("call", [
    "purramid.simulate_turns(10**12, 'A')",
    "purramid.simulate_games(10**12)",
    "raft.simulate_games(10**12)",
    "pyradice.simulate_games(10**12)",
    "meerkat.simulate_games(10**12)",
])
def test_counts_whose_result_cannot_fit_are_refused_before_any_work(call):
    from pyradice_lab import meerkat, purramid, pyradice, raft  # noqa: F401 - used by eval

    t0 = time.process_time()
    with pytest.raises(ValueError, match=r"(n|n_games)=1000000000000 would hold about .* the limit is"):
        eval(call)
    assert time.process_time() - t0 < 5  # generous: the point is that no game is played and nothing is allocated


@pytest.mark.parametrize("game", ["purramid", "pyradice", "raft"])
def test_cli_simulate_a_billion_games_is_one_line_and_exit_2(game):
    out = subprocess.run([sys.executable, "-c", "import sys; from pyradice_lab.cli import main; sys.exit(main())",
                          game, "simulate", "--games", "1000000000", "--no-progress"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "n_games=1000000000" in lines[0] and "limit" in lines[0]


# ----------------------------------------------------------------------------------------- games: same numbers
# With a chunk at least ``n`` the seeds are one ``spawn(n)``, as before blocks existed; a small chunk spawns
# them per block.  Equal frames mean per-block spawning changed no number (and spawn_blocks == spawn_seeds
# is tested above).
def test_purramid_games_do_not_depend_on_the_chunk(monkeypatch):
    from pyradice_lab.purramid import sim

    whole = sim.simulate_games(40, players=3, rng=12)
    monkeypatch.setattr(sim, "CHUNK", 7)
    pd.testing.assert_frame_equal(whole, sim.simulate_games(40, players=3, rng=12), check_exact=True)


def test_raft_games_do_not_depend_on_chunk_or_jobs():
    from pyradice_lab.raft import sim

    whole = sim.simulate_games(24, 3, rng=4)
    pd.testing.assert_frame_equal(whole, sim.simulate_games(24, 3, rng=4, chunk=5), check_exact=True)
    pd.testing.assert_frame_equal(whole, sim.simulate_games(24, 3, rng=4, chunk=5, n_jobs=2), check_exact=True)


def test_pyradice_games_do_not_depend_on_the_chunk_and_keep_every_array(monkeypatch):
    from pyradice_lab.pyradice import sim

    whole, arrays = sim.simulate_games(12, 2, rng=6, return_arrays=True)
    monkeypatch.setattr(sim, "_CHUNK", 5)
    again, arrays2 = sim.simulate_games(12, 2, rng=6, return_arrays=True)
    pd.testing.assert_frame_equal(whole, again, check_exact=True)
    assert arrays.keys() == arrays2.keys() and {"moves", "final_v", "final_c"} <= set(arrays)
    assert all(np.array_equal(arrays[k], arrays2[k]) for k in arrays)
    pd.testing.assert_frame_equal(whole, sim.simulate_games(12, 2, rng=6), check_exact=True)
