import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

from pyradice_lab.sweep import CacheWarning, expand_grid, rerun_cell, run_sweep

sys.path.insert(0, str(Path(__file__).parent))
import sweep_cells  # noqa: E402

GRID = {"dice": [1, 2, 3], "target": [4, 9]}


def test_grid_expansion_order_and_list_form():
    cells = expand_grid({"a": [1, 2], "b": ["x", "y"]})
    assert cells == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}, {"a": 2, "b": "y"}]
    assert expand_grid([{"a": 1}, {"a": 5, "b": 2}]) == [{"a": 1}, {"a": 5, "b": 2}]


def test_tidy_columns_and_seed_columns():
    df = run_sweep(sweep_cells.dice_cell, GRID, trials=500, seed=7, progress=False)
    assert len(df) == 6
    assert list(df.columns[:2]) == ["dice", "target"]
    for name in ("p_at_least", "mean_total"):
        for suffix in ("", "_se", "_ci_low", "_ci_high"):
            assert name + suffix in df.columns
    assert (df["trials"] == 500).all()
    assert (df["seed_entropy"] == 7).all()
    assert df["seed_spawn_key"].tolist() == [(i,) for i in range(6)]
    assert (df["p_at_least_ci_low"] <= df["p_at_least"]).all()


def test_any_cell_can_be_rerun_alone():
    df = run_sweep(sweep_cells.dice_cell, GRID, trials=300, seed=3, progress=False)
    row = df.iloc[4]
    again = rerun_cell(sweep_cells.dice_cell, row, params=["dice", "target"])
    for k, v in again.items():
        assert row[k] == v


def test_identical_for_one_and_two_jobs_and_dask():
    a = run_sweep(sweep_cells.dice_cell, GRID, trials=2000, seed=11, progress=False)
    b = run_sweep(sweep_cells.dice_cell, GRID, trials=2000, seed=11, n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        c = run_sweep(sweep_cells.dice_cell, GRID, trials=2000, seed=11, backend="dask",
                      scheduler=cluster.scheduler_address, progress=False)
    pd.testing.assert_frame_equal(a, c, check_exact=True)
    d = run_sweep(sweep_cells.dice_cell, GRID, trials=2000, seed=12, progress=False)
    assert not a["mean_total"].equals(d["mean_total"])  # the seed matters


def test_cache_resume_after_sigkill(tmp_path):
    cache = tmp_path / "cache"
    log = tmp_path / "computed.log"
    grid = {"i": list(range(10))}
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import sweep_cells
        from pyradice_lab.sweep import run_sweep
        run_sweep(sweep_cells.slow_cell, {grid!r}, trials=100, seed=5, cache_dir={str(cache)!r}, progress=False)
    """)
    env = dict(os.environ, SWEEP_LOG=str(log), SWEEP_SLEEP="0.3")
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if cache.exists() and len(list(cache.glob("*.json"))) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(list(cache.glob("*.json")))
    assert 3 <= done < 10, "the kill must land mid-sweep"

    log.unlink()
    os.environ["SWEEP_LOG"] = str(log)
    try:
        resumed = run_sweep(sweep_cells.slow_cell, grid, trials=100, seed=5, cache_dir=cache, progress=False)
    finally:
        del os.environ["SWEEP_LOG"]
    recomputed = log.read_text().split()
    assert len(recomputed) == 10 - done  # only the missing cells ran
    fresh = run_sweep(sweep_cells.slow_cell, grid, trials=100, seed=5, progress=False)
    pd.testing.assert_frame_equal(resumed, fresh, check_exact=True)


def test_corrupt_truncated_and_foreign_cache_files_are_recomputed(tmp_path):
    cache = tmp_path / "c"
    grid = {"dice": [1, 2, 3], "target": [5]}
    first = run_sweep(sweep_cells.dice_cell, grid, trials=400, seed=2, cache_dir=cache, progress=False)
    files = sorted(cache.glob("*.json"))
    assert len(files) == 3
    files[0].write_text(files[0].read_text()[:25])  # truncated
    data = json.loads(files[1].read_text())
    data["outputs"]["p_at_least"] = 0.999  # tampered: checksum no longer matches
    files[1].write_text(json.dumps(data))
    other = json.loads(files[2].read_text())
    other["key"] = "0" * 64  # foreign: written for another cell
    files[2].write_text(json.dumps(other))
    with pytest.warns(CacheWarning) as record:
        again = run_sweep(sweep_cells.dice_cell, grid, trials=400, seed=2, cache_dir=cache, progress=False)
    assert len(record) == 3
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    # the recomputed cells were rewritten and are valid now: no more warnings
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        run_sweep(sweep_cells.dice_cell, grid, trials=400, seed=2, cache_dir=cache, progress=False)


def test_cache_is_keyed_by_trials_and_seed(tmp_path):
    a = run_sweep(sweep_cells.dice_cell, GRID, trials=100, seed=1, cache_dir=tmp_path, progress=False)
    b = run_sweep(sweep_cells.dice_cell, GRID, trials=100, seed=2, cache_dir=tmp_path, progress=False)
    c = run_sweep(sweep_cells.dice_cell, GRID, trials=200, seed=1, cache_dir=tmp_path, progress=False)
    assert not a["mean_total"].equals(b["mean_total"])
    assert not a["mean_total"].equals(c["mean_total"])
    assert len(list(tmp_path.glob("*.json"))) == 18


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"backend": "spark"}, "backend"),
        ({"trials": 0}, "trials"),
        ({"trials": -5}, "trials"),
        ({"trials": 2.5}, "trials"),
        ({"grid": {}}, "grid"),
        ({"grid": []}, "grid"),
        ({"grid": {"dice": []}}, "grid"),
        ({"grid": {"dice": 3}}, "grid"),
        ({"n_jobs": 0}, "n_jobs"),
        ({"seed": -1}, "seed"),
        ({"scheduler": "tcp://x:1"}, "scheduler"),
    ],
)
def test_bad_input(kwargs, match):
    args = {"grid": GRID, "trials": 10, "seed": 0, "progress": False, **kwargs}
    grid = args.pop("grid")
    with pytest.raises(ValueError, match=match):
        run_sweep(sweep_cells.dice_cell, grid, **args)


def test_bad_output_type_is_named():
    with pytest.raises(TypeError, match="oops"):
        run_sweep(sweep_cells.bad_output_cell, {"x": [1]}, trials=1, seed=0, progress=False)


def test_progress_bar_goes_to_stderr(capsys):
    run_sweep(sweep_cells.dice_cell, {"dice": [1], "target": [2]}, trials=10, seed=0, progress=True)
    out, err = capsys.readouterr()
    assert out == ""
    assert "dice_cell" in err
