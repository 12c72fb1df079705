"""A report run writes one consistent set of files; killing it leaves no workers and no half-written files
(issue 15, section 2)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from pyradice_lab.report.build import ExperimentResult, save_experiment

TESTS = Path(__file__).parent

RUN = """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started from a background job
import report_sections
report_sections.register()
from pyradice_lab.report import build_report
build_report({out!r}, quick=True, seed={seed}, n_jobs={jobs}, games=["infra_fake"], progress=False)
"""


def start_report(out: Path, seed: int, jobs: int, sleep: float) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(TESTS), SECTION_SLEEP=str(sleep))
    return subprocess.Popen([sys.executable, "-c", RUN.format(out=str(out), seed=seed, jobs=jobs)], env=env,
                            start_new_session=True, stderr=subprocess.PIPE, text=True)


def process_tree(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout.split()
    parent = dict(zip(map(int, out[::2]), map(int, out[1::2])))
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        found.update(kids)
        todo.extend(kids)
    return found


def running(pids) -> set[int]:
    left = set()
    for p in pids:
        stat = subprocess.run(["ps", "-o", "stat=", "-p", str(p)], capture_output=True, text=True).stdout.strip()
        if stat and not stat.startswith("Z"):
            left.add(p)
    return left


def test_save_experiment_replaces_the_whole_folder_atomically(tmp_path):
    first = ExperimentResult("exp", "E", "r", pd.DataFrame({"run": [1]}))
    save_experiment(first, tmp_path)
    (tmp_path / "exp" / "stale.csv").write_text("from an older run")
    paths = save_experiment(ExperimentResult("exp", "E", "r", pd.DataFrame({"run": [2]})), tmp_path)
    assert sorted(p.name for p in (tmp_path / "exp").iterdir()) == ["exp.csv"]
    assert pd.read_csv(paths["csv"])["run"].tolist() == [2]
    assert not list(tmp_path.glob(".tmp-*"))
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "exp").stat().st_mode & 0o777 == 0o777 & ~umask


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_a_killed_report_keeps_the_previous_run_and_leaves_no_workers(tmp_path, sig):
    out = tmp_path / "reports" / "r.pdf"
    done = start_report(out, seed=0, jobs=1, sleep=0)
    assert done.wait(timeout=600) == 0, done.stderr.read()
    exp = out.parent / "infra_fake_exp" / "infra_fake_exp.csv"
    pdf = out.read_bytes()
    assert pd.read_csv(exp)["seed"].tolist() == [0]

    proc = start_report(out, seed=5, jobs=2, sleep=120)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not list(out.parent.glob(".tmp-*-run-*/infra_fake_exp")):
            time.sleep(0.2)
        assert list(out.parent.glob(".tmp-*-run-*/infra_fake_exp")), "the seed-5 run must be under way"
        workers = process_tree(proc.pid)
        assert workers
        os.kill(proc.pid, sig)  # the main process only
        proc.wait(timeout=60)
        deadline = time.monotonic() + 20
        while running(workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not running(workers), "worker processes outlived the report"
        # the previous run's files are untouched: no seed-5 CSV beside the seed-0 PDF
        assert out.read_bytes() == pdf
        assert pd.read_csv(exp)["seed"].tolist() == [0]
        leftovers = list(out.parent.glob(".tmp-*"))
        assert (leftovers == []) if sig == signal.SIGINT else leftovers  # SIGKILL: nothing can clean up
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)

    again = start_report(out, seed=7, jobs=1, sleep=0)
    assert again.wait(timeout=600) == 0, again.stderr.read()
    assert pd.read_csv(exp)["seed"].tolist() == [7]
    assert not list(out.parent.glob(".tmp-*")), "the next run removes what a killed run left"
