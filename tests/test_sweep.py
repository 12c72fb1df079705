import contextlib
import functools
import hashlib
import hmac
import importlib.util
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine import sweep
from pyradice_lab.engine.sweep import CacheWarning, expand_grid, rerun_cell, run_sweep

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


def cache_entries(folder: Path) -> list[Path]:
    """Finished cache entries: temporary files (.tmp-*) and the signing key are dot-files."""
    return sorted(folder.glob("[!.]*.json"))


def test_cache_resume_after_sigkill(tmp_path):
    cache = tmp_path / "cache"
    log = tmp_path / "computed.log"
    grid = {"i": list(range(10))}
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import sweep_cells
        from pyradice_lab.engine.sweep import run_sweep
        run_sweep(sweep_cells.slow_cell, {grid!r}, trials=100, seed=5, cache_dir={str(cache)!r}, progress=False)
    """)
    env = dict(os.environ, SWEEP_LOG=str(log), SWEEP_SLEEP="0.3")
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if cache.exists() and len(cache_entries(cache)) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done = len(cache_entries(cache))
    assert 3 <= done < 10, "the kill must land mid-sweep"

    log.unlink()
    os.environ["SWEEP_LOG"] = str(log)
    try:
        resumed = run_sweep(sweep_cells.slow_cell, grid, trials=100, seed=5, cache_dir=cache, progress=False)
    finally:
        del os.environ["SWEEP_LOG"]
    recomputed = log.read_text().split()
    assert len(recomputed) == 10 - done  # only the missing cells ran
    assert not list(cache.glob(".tmp-*")), "temporary files of the killed run are cleaned up"
    fresh = run_sweep(sweep_cells.slow_cell, grid, trials=100, seed=5, progress=False)
    pd.testing.assert_frame_equal(resumed, fresh, check_exact=True)


def warnings_of(record) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, CacheWarning)]


def test_unusable_cache_files_warn_and_are_recomputed(tmp_path):
    cache = tmp_path / "c"
    grid = {"dice": [1, 2, 3, 4, 5, 6], "target": [5]}
    first = run_sweep(sweep_cells.dice_cell, grid, trials=400, seed=2, cache_dir=cache, progress=False)
    files = cache_entries(cache)
    assert len(files) == 6
    files[0].write_text(files[0].read_text()[:25])  # truncated
    data = json.loads(files[1].read_text())
    data["outputs"]["p_at_least"] = 0.999  # an edited value, its old-style checksum recomputed
    data["checksum"] = hashlib.sha256(json.dumps(data["outputs"], sort_keys=True).encode()).hexdigest()
    files[1].write_text(json.dumps(data))
    files[2].write_text(files[3].read_text())  # foreign: another cell's (valid) entry under this name
    files[4].write_text("[" * 200_000)  # json.loads raises RecursionError
    files[5].unlink()
    files[5].mkdir()  # a directory where the file should be
    with pytest.warns(CacheWarning) as record:
        again = run_sweep(sweep_cells.dice_cell, grid, trials=400, seed=2, cache_dir=cache, progress=False)
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    text = " | ".join(warnings_of(record))
    assert "could not be read (JSONDecodeError)" in text and "could not be read (RecursionError)" in text
    assert "could not be read (IsADirectoryError)" in text
    assert "signature that does not match" in text and "written for another cell" in text
    assert "could not write the sweep cache file" in text and "is a directory" in text
    # the recomputed cells were rewritten (except the one a directory blocks) and are valid now
    with warnings.catch_warnings(record=True) as later:
        warnings.simplefilter("always")
        run_sweep(sweep_cells.dice_cell, grid, trials=400, seed=2, cache_dir=cache, progress=False)
    assert len(warnings_of(later)) == 2 and all(str(files[5]) in m for m in warnings_of(later))


def test_entries_are_signed_with_the_directory_key(tmp_path):
    cache = tmp_path / "c"
    run_sweep(sweep_cells.dice_cell, {"dice": [1, 2], "target": [3]}, trials=50, seed=1, cache_dir=cache,
              progress=False)
    key = cache / ".sweep-key"
    assert key.is_file() and oct(key.stat().st_mode & 0o777) == "0o600"
    entry = json.loads(cache_entries(cache)[0].read_text())
    msg = json.dumps(["pyradice_lab.engine.sweep/2", entry["cell"], entry["provenance"], entry["outputs"]],
                     sort_keys=True).encode()
    assert entry["mac"] == hmac.new(bytes.fromhex(key.read_text().strip()), msg, hashlib.sha256).hexdigest()
    key.unlink()  # a new key: every entry signed with the old one is recomputed
    with pytest.warns(CacheWarning, match="2 sweep cache file.*signature"):
        run_sweep(sweep_cells.dice_cell, {"dice": [1, 2], "target": [3]}, trials=50, seed=1, cache_dir=cache,
                  progress=False)


CELL_MODULE = """
from pyradice_lab.engine.stats import mean_estimate


def cell(params, trials, rng):
    x = rng.normal(size=trials) + params["shift"]
    return {"mean": mean_estimate(x), "tag": TAG}


TAG = "v1"
"""


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_cached_cells_of_other_code_or_inputs_are_recomputed_with_a_warning(tmp_path, monkeypatch):
    src = tmp_path / "cells_under_edit.py"
    src.write_text(CELL_MODULE)
    cache = tmp_path / "cache"
    run = functools.partial(run_sweep, grid={"shift": [0, 1]}, trials=100, seed=3, cache_dir=cache, progress=False)
    mod = load_module(src, "cells_under_edit")
    a = run(mod.cell)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        pd.testing.assert_frame_equal(run(mod.cell), a)  # same code: from the cache, silently
    # the function's body changes
    src.write_text(CELL_MODULE.replace("params[\"shift\"]", "2 * params[\"shift\"]"))
    mod = load_module(src, "cells_under_edit")
    with pytest.warns(CacheWarning, match="2 sweep cache file.*the function's source changed"):
        b = run(mod.cell)
    assert b["mean"].iloc[0] == a["mean"].iloc[0] and b["mean"].iloc[1] != a["mean"].iloc[1]
    # a module-level value it uses changes (same function source): the module's sources are part of the key
    src.write_text(src.read_text().replace('TAG = "v1"', 'TAG = "v2"'))
    mod = load_module(src, "cells_under_edit")
    with pytest.warns(CacheWarning, match="the sources it imports changed"):
        c = run(mod.cell)
    assert set(c["tag"]) == {"v2"}
    # the package version changes
    monkeypatch.setattr(sweep, "__version__", "9.9.9")
    with pytest.warns(CacheWarning, match="package version changed"):
        run(mod.cell)


def file_cell(params, trials, rng):
    text = Path(params["components"]).read_text()
    return {"value": float(text) + rng.random()}


def test_a_parameter_file_is_keyed_on_its_contents(tmp_path):
    comp = tmp_path / "components.toml"
    comp.write_text("1")
    run = functools.partial(run_sweep, file_cell, {"components": [str(comp)]}, trials=1, seed=0,
                            cache_dir=tmp_path / "c", progress=False)
    assert 1 < run()["value"].iloc[0] < 2
    comp.write_text("5")
    with pytest.warns(CacheWarning, match="a parameter file's contents changed"):
        assert 5 < run()["value"].iloc[0] < 6


def test_registered_targets_are_keyed_on_their_engine_sources():
    from pyradice_lab.engine import _sources, registry

    target = registry.get_game("purramid").sweeps["games"].fn
    assert sweep._code_fingerprint(target) == _sources.fingerprint(_sources.PACKAGE_DIR / "purramid" / "sweeps.py")
    deps = {p.relative_to(_sources.PACKAGE_DIR).as_posix() for p in
            _sources.dependency_files(_sources.PACKAGE_DIR / "purramid" / "sweeps.py")}
    assert {"purramid/kernel.py", "purramid/rules.py", "purramid/sim.py", "purramid/data/side_a.toml"} <= deps


def test_temporaries_of_dead_processes_are_removed_and_live_ones_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(dead.stdout)
    (tmp_path / f".tmp-{dead_pid}-abc.json").write_text("{")
    (tmp_path / f".tmp-{dead_pid}-run-x").mkdir()
    (tmp_path / f".tmp-{os.getppid()}-abc.json").write_text("{")  # a running process (pytest's parent)
    run_sweep(sweep_cells.dice_cell, {"dice": [1], "target": [2]}, trials=5, seed=0, cache_dir=tmp_path,
              progress=False)
    left = sorted(p.name for p in tmp_path.glob(".tmp-*"))
    assert left == [f".tmp-{os.getppid()}-abc.json"]


def test_cell_i_draws_from_its_own_spawn_key():
    """Row i equals the cell function run directly on SeedSequence(entropy, spawn_key=(i,))."""
    grid = {"dice": [2, 3], "target": [7, 10]}
    for seed, base in ((21, ()), (np.random.SeedSequence(21, spawn_key=(4,)), (4,))):
        df = run_sweep(sweep_cells.dice_cell, grid, trials=300, seed=seed, progress=False)
        for i, params in enumerate(expand_grid(grid)):
            direct = sweep_cells.dice_cell(params, 300, np.random.default_rng(
                np.random.SeedSequence(21, spawn_key=base + (i,))))
            row = df.iloc[i]
            assert row["seed_spawn_key"] == base + (i,)
            assert row["mean_total"] == direct["mean_total"].value
            assert row["max_total"] == direct["max_total"]
            assert row["p_at_least"] == direct["p_at_least"].value


def test_identical_parameter_sets_get_different_streams():
    grid = [{"dice": 3, "target": 10}, {"dice": 3, "target": 10}]
    for n_jobs in (1, 2):
        df = run_sweep(sweep_cells.dice_cell, grid, trials=200, seed=8, n_jobs=n_jobs, progress=False)
        assert df["mean_total"].iloc[0] != df["mean_total"].iloc[1]
        assert df["mean_total_se"].iloc[0] != df["mean_total_se"].iloc[1]


def test_empty_outputs_and_bad_cache_dirs_are_rejected(tmp_path):
    with pytest.raises(ValueError, match="outputs"):
        run_sweep(sweep_cells.empty_cell, {"x": [1]}, trials=1, seed=0, progress=False)
    afile = tmp_path / "f"
    afile.write_text("x")
    for bad, match in (("", "cache_dir"), (afile, "cache_dir.*not a directory"), (afile / "sub", "cache_dir"),
                       (b"bytes", "cache_dir"), (3, "cache_dir")):
        with pytest.raises(ValueError, match=match):
            run_sweep(sweep_cells.dice_cell, {"dice": [1], "target": [2]}, trials=1, seed=0, cache_dir=bad,
                      progress=False)


def test_unreachable_dask_scheduler_is_a_clear_error():
    pytest.importorskip("distributed")
    for address, match in (("tcp://127.0.0.1:1", "scheduler 'tcp://127.0.0.1:1' could not be reached"),
                           ("tcp://nohost", "scheduler must look like"), (5, "scheduler must be an address")):
        with pytest.raises(ValueError, match=match):
            run_sweep(sweep_cells.dice_cell, {"dice": [1], "target": [2]}, trials=1, seed=0, backend="dask",
                      scheduler=address, progress=False)


KILL_SCRIPT = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started from a background job
sys.path.insert(0, {tests!r})
import sweep_cells
from pyradice_lab.engine.sweep import run_sweep
os.environ["SWEEP_SLEEP"] = "60"
os.environ["SWEEP_LOG"] = {log!r}
run_sweep(sweep_cells.slow_cell, {{"i": list(range(6))}}, trials=10, seed=1, n_jobs=2, cache_dir={cache!r},
          progress=False)
"""


def children(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return {int(x) for x in out.split()}


def alive(pids) -> set[int]:
    left = set()
    for p in pids:
        try:
            os.kill(p, 0)
        except ProcessLookupError:
            continue
        state = subprocess.run(["ps", "-o", "stat=", "-p", str(p)], capture_output=True, text=True).stdout.strip()
        if state and not state.startswith("Z"):
            left.add(p)
    return left


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_a_killed_parallel_sweep_leaves_no_workers(tmp_path, sig):
    log = tmp_path / "started.log"
    script = KILL_SCRIPT.format(tests=str(Path(__file__).parent), cache=str(tmp_path / "c"), log=str(log))
    proc = subprocess.Popen([sys.executable, "-c", script], start_new_session=True, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (log.exists() and len(log.read_text().split()) >= 2):
            time.sleep(0.2)
        assert log.exists() and len(log.read_text().split()) >= 2, "both workers must be inside their 60 s cells"
        workers = {p for p in children(proc.pid) if "popen_loky" in subprocess.run(
            ["ps", "-ww", "-o", "args=", "-p", str(p)], capture_output=True, text=True).stdout}
        assert len(workers) == 2
        os.kill(proc.pid, sig)  # the main process only, as `kill` or a crash would
        proc.wait(timeout=60)
        deadline = time.monotonic() + 30
        while alive(workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = alive(workers)
        assert not left, "worker processes outlived the sweep: " + "; ".join(
            subprocess.run(["ps", "-o", "pid=,ppid=,args=", "-p", str(p)], capture_output=True, text=True).stdout
            for p in left)
        if sig == signal.SIGINT:
            assert not list((tmp_path / "c").glob(".tmp-*"))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


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
