"""experiments/purramid_strong_play.py --games N --backend dask --scheduler ADDR (issue 27): the same numbers as on
one machine, with a LocalCluster reached by its address (tiny N)."""

import filecmp
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "experiments" / "purramid_strong_play.py"
ARGS = ["--quick", "--games", "4", "--players", "2", "--gap-games", "4", "--jobs", "2", "--seed", "5"]


def _run(out, *extra, timeout=300):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, str(SCRIPT), *ARGS, "--out", str(out), *extra], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_bad_execution_options_are_one_line_errors(tmp_path):
    for extra, word in ((["--backend", "spark"], "backend"), (["--scheduler", "tcp://127.0.0.1:1"], "scheduler"),
                        (["--players", "5"], "--players"), (["--games", "1"], "--games")):
        res = _run(tmp_path, *extra, timeout=120)
        assert res.returncode == 2 and word in res.stderr, (extra, res.stderr[-500:])
        assert len([ln for ln in res.stderr.splitlines() if "error" in ln]) == 1


@pytest.mark.slow
def test_dask_scheduler_address_gives_the_same_numbers_as_threads(tmp_path):
    distributed = pytest.importorskip("distributed")
    one = _run(tmp_path / "threads", "--backend", "threading")
    assert one.returncode == 0, one.stderr[-2000:]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        two = _run(tmp_path / "dask", "--backend", "dask", "--scheduler", cluster.scheduler_address)
    assert two.returncode == 0, two.stderr[-2000:]
    files = sorted(p.relative_to(tmp_path / "threads") for p in (tmp_path / "threads").rglob("*.csv"))
    assert len(files) >= 4   # strong play and skill gap: table and findings
    for f in files:
        assert filecmp.cmp(tmp_path / "threads" / f, tmp_path / "dask" / f, shallow=False), f
    assert "optimal" in (tmp_path / "threads" / "purramid_strong_play" / "purramid_strong_play.csv").read_text()
