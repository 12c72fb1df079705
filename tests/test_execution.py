"""The execution layer (pyradice_lab.engine.execution): every heavy entry point gives the same numbers on one job,
two loky workers and a dask cluster; bad execution keywords fail before any work; a killed run resumes from its
finished blocks; a killed parent leaves no worker behind."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pandas as pd
import pytest

from pyradice_lab.engine import execution as ex
from pyradice_lab.engine.execution import Pool, Progress, check_execution, run_blocks

pytest.importorskip("distributed")
# the sizes here are tiny on purpose (the numbers are compared, not read): no small-sample warnings
pytestmark = pytest.mark.filterwarnings("ignore:.*fewer than 30")


@pytest.fixture(scope="module")
def dask_client():
    """One in-process dask cluster (threads, no processes) for the whole module: fast to start."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        yield client


def _three(call, dask_client, equal):
    """``call(**execution)`` on one job, two loky workers and the dask cluster; all equal."""
    one = call(n_jobs=1)
    equal(one, call(n_jobs=2, backend="loky"))
    equal(one, call(n_jobs=2, backend="dask", scheduler=dask_client))
    return one


def _frames_equal(a, b):
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert a.attrs.keys() == b.attrs.keys()


# ------------------------------------------------------------------------------------------ validation
@pytest.mark.parametrize("kwargs, match", [
    (dict(n_jobs=0), "n_jobs must be a positive integer"),
    (dict(n_jobs=-2), "n_jobs must be a positive integer"),
    (dict(n_jobs=10**9), f"up to {ex.MAX_JOBS}"),
    (dict(n_jobs=True), "n_jobs"),
    (dict(n_jobs=1.5), "n_jobs"),
    (dict(backend="spark"), "backend must be one of 'loky', 'dask', 'threading'"),
    (dict(scheduler="tcp://127.0.0.1:1"), "scheduler is only used with backend='dask'"),
    (dict(progress="yes"), "progress must be True or False"),
])
def test_bad_execution_keywords_fail_with_one_clear_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_execution(**kwargs)


def test_the_cli_offers_the_backends_of_the_layer():
    from pyradice_lab.engine import cliargs

    assert cliargs.BACKENDS == ex.BACKENDS


def test_an_unreachable_scheduler_and_a_missing_dask_fail_before_any_work(monkeypatch):
    with pytest.raises(ValueError, match="could not be reached"):
        check_execution(2, "dask", "tcp://127.0.0.1:1")
    with pytest.raises(ValueError, match="scheduler must look like"):
        check_execution(2, "dask", "tcp://nohost")
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ValueError, match="needs the dask extra"):
        check_execution(2, "dask", "tcp://127.0.0.1:1")


class _Banner:
    """A local TCP server that speaks first with ``banner`` (an SSH server), or says nothing (``banner=b""``)."""

    def __init__(self, banner: bytes):
        import socket
        import threading

        self.banner, self.srv = banner, socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(8)
        self.address = f"tcp://127.0.0.1:{self.srv.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            conn.sendall(self.banner)
            time.sleep(0.3)
            conn.close()

    def close(self):
        self.srv.close()


def test_a_port_that_is_not_a_dask_scheduler_is_refused_at_once_naming_scheduler(monkeypatch):
    """Issue 46: an SSH banner read as dask's frame length asked for 2.82 EiB (MemoryError after 7.7 s, and the
    CLI advised asking for less work).  A bounded handshake reads the server's first 8 bytes instead."""
    import pyradice_lab.engine._execution_workers as workers

    ssh = _Banner(b"SSH-2.0-OpenSSH_9.6\r\n")
    try:
        t0 = time.monotonic()
        with pytest.raises(ValueError, match=r"scheduler .* is not a dask scheduler: it sent b'SSH-2.0-'"):
            check_execution(2, "dask", ssh.address)
        assert time.monotonic() - t0 < 2.5
        with pytest.raises(ValueError, match="is not a dask scheduler"):  # an entry point, before any work
            __import__("pyradice_lab.raft", fromlist=["x"]).simulate_games(5, backend="dask", scheduler=ssh.address)
    finally:
        ssh.close()
    monkeypatch.setattr(workers, "DASK_CONNECT_TIMEOUT", 0.5)
    quiet = _Banner(b"")  # waits for the client to speak first (an HTTP server)
    try:
        with pytest.raises(ValueError, match="sent nothing within 0.5 s"):
            check_execution(2, "dask", quiet.address)
    finally:
        quiet.close()
    with pytest.raises(ValueError, match=r"scheduler must be a dask address .*'garbage://x'"):
        check_execution(2, "dask", "garbage://x")


def test_a_real_tcp_scheduler_passes_the_handshake_check():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://")
        assert check_execution(2, "dask", cluster.scheduler_address).scheduler == cluster.scheduler_address
        assert run_blocks(pow, [(2, 3), (3, 2)], n_jobs=2, backend="dask", scheduler=cluster.scheduler_address) == [8, 9]


@pytest.mark.parametrize("call", [
    lambda kw: __import__("pyradice_lab").compare("raft", None, None, games=20, policies="greedy", **kw),
    lambda kw: __import__("pyradice_lab").robustness("raft", "game_length > 1", reconstructions=2, games=10, **kw),
    lambda kw: __import__("pyradice_lab.design.strength", fromlist=["x"]).ladder("raft", ["random", "greedy"],
                                                                                 games=4, **kw),
    lambda kw: __import__("pyradice_lab.raft", fromlist=["x"]).simulate_games(5, **kw),
    lambda kw: __import__("pyradice_lab.meerkat", fromlist=["x"]).simulate_games(5, **kw),
    lambda kw: __import__("pyradice_lab.pyradice", fromlist=["x"]).simulate_games(5, **kw),
    lambda kw: __import__("pyradice_lab.purramid", fromlist=["x"]).simulate_games(5, **kw),
])
def test_every_entry_point_checks_its_execution_keywords(call):
    for kw, match in ((dict(n_jobs=0), "n_jobs"), (dict(backend="mpi"), "backend"),
                      (dict(scheduler="tcp://127.0.0.1:1"), "scheduler")):
        with pytest.raises(ValueError, match=match):
            call(kw)


def _subparsers(parser):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def test_every_heavy_subcommand_takes_the_execution_options():
    from pyradice_lab.cli import build_parser

    top = dict(_subparsers(build_parser()))
    commands = {"report": top["report"], "sweep": top["sweep"]}
    for game in ("purramid", "pyradice", "raft", "meerkat"):
        for name, sub in _subparsers(top[game]):
            if name in ("simulate", "compare", "ladder", "restricted", "robustness", "balance"):
                commands[f"{game} {name}"] = sub
    assert len(commands) == 2 + 4 * 6
    for name, sub in commands.items():
        flags = {f for a in sub._actions for f in a.option_strings}
        missing = {"--jobs", "--backend", "--scheduler"} - flags
        assert not missing, f"{name} lacks {missing}"
        assert name == "report" or "--cache-dir" in flags, name
    # what the report command passes on is what build_report takes (it keeps no block files)
    import inspect

    from pyradice_lab.engine.cliargs import execution_kwargs
    from pyradice_lab.report import build_report

    inspect.signature(build_report).bind(**execution_kwargs(top["report"].parse_args([])))


def test_the_cli_refuses_bad_execution_options_in_one_line(capsys):
    from pyradice_lab.cli import main

    for argv in (["raft", "ladder", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"],
                 ["raft", "ladder", "--scheduler", "tcp://127.0.0.1:1"], ["meerkat", "simulate", "--jobs", "0"],
                 ["pyradice", "robustness", "start_player_win > 0.5", "--backend", "spark"]):
        with pytest.raises(SystemExit) as exit_:
            raise SystemExit(main(argv))
        err = capsys.readouterr().err.strip().splitlines()
        assert exit_.value.code == 2 and len(err) == 1 and "error" in err[0], (argv, err)


def test_counts_are_checked_against_the_memory_limit_before_any_work():
    from pyradice_lab import balance, robustness

    with pytest.raises(ValueError, match="reconstructions=1000000000000 would hold"):
        robustness("raft", "game_length > 1", reconstructions=10**12, games=10)
    from pyradice_lab.design.balance import candidate_grid

    with pytest.raises(ValueError, match="parameters=1000000000000 would hold"):
        candidate_grid({"card.1.points": (1, 10**12)})
    # balance never builds the grid: it samples candidates by index, and the game's checks refuse them
    with pytest.raises(ValueError, match="no candidate passes"):
        balance("raft", {"card.1.points": (10**6, 10**12)}, "start_player_win = 0.5", budget=20, first_games=10,
                verify_games=10, rng=1)


# ------------------------------------------------------------------------------------------ the layer
def test_blocks_are_joined_in_order_whatever_the_backend(dask_client):
    args = [(i, 3) for i in range(12)]
    want = [pow(*a) for a in args]
    assert run_blocks(pow, args) == want
    assert run_blocks(pow, args, n_jobs=2, backend="threading") == want
    assert run_blocks(pow, args, n_jobs=2, backend="dask", scheduler=dask_client) == want


def test_block_seeds_are_the_children_of_one_spawn():
    root = np.random.SeedSequence(5)
    want = [c.spawn_key for c in np.random.SeedSequence(5).spawn(11)]
    got = [c.spawn_key for _, _, s in ex.block_seeds(root, 11, 4) for c in s.spawn(4)][:11]
    assert got[:4] == want[:4] and [c.spawn_key for c in ex.block_seeds(5, 11, 4)[2][2].spawn(3)] == want[8:]
    assert root.n_children_spawned == 11  # the caller's counter moves as one spawn(11) would


def test_stored_blocks_decode_to_the_same_objects():
    df = pd.DataFrame({"a": np.arange(3), "x": np.arange(3) / 7, "s": ["p", "q", "r"], "b": [True, False, True],
                       "c": pd.Categorical(["u", "v", "u"])})
    df.attrs["seed_entropy"] = 2**100 + 1
    back = ex.decode(ex.encode({"df": df, "t": (1, 0.1, "z"), "arr": np.eye(2, dtype=np.float32)}))
    _frames_equal(back["df"], df)
    assert back["df"].attrs == df.attrs and back["t"] == (1, 0.1, "z") and back["arr"].dtype == np.float32


def test_progress_lines_when_not_on_a_terminal():
    out = io.StringIO()
    with Progress(40, desc="ladder", file=out, tty=False, every=0) as p:
        for _ in range(12):
            p.update(1, 250)
    assert "done 12/40 blocks, 3,000 games, ETA" in out.getvalue().splitlines()[-1]
    quiet = io.StringIO()
    Progress(3, file=quiet, enabled=False).update(1, 5)
    assert quiet.getvalue() == ""


# ------------------------------------------------------------------------------------------ entry points
@pytest.mark.parametrize("game, n, kwargs", [
    ("purramid", 300, dict(players=2)),
    ("raft", 200, dict(players=2, chunk=20)),       # several blocks
    ("pyradice", 260, dict(players=2)),             # several 128-game chunks
    ("meerkat", 1100, dict(players=2)),          # blocks of the generator's 512-game chunks
])
def test_simulate_games_is_the_same_on_every_backend(game, n, kwargs, dask_client):
    import importlib

    sim = importlib.import_module(f"pyradice_lab.{game}").simulate_games
    _three(lambda **kw: sim(n, rng=11, **kwargs, **kw), dask_client, _frames_equal)


def test_compare_is_the_same_on_every_backend_and_stops_at_the_same_block(dask_client):
    from pyradice_lab import compare, raft

    v = raft.default_components().replace({"card.1.points": 4, "card.2.points": 4})

    def same(a, b):
        _frames_equal(a.to_frame(), b.to_frame())
        assert a.n_games == b.n_games

    _three(lambda **kw: compare("raft", None, v, "points_per_boat", games=150, players=2, policies="greedy", rng=1, **kw),
           dask_client, same)
    # until=: blocks run in waves of n_jobs, the run stops where one job stops
    one = compare("raft", None, v, "game_length", games=100, players=2, policies="greedy", rng=2, until=0.06, max_games=3000)
    two = compare("raft", None, v, "game_length", games=100, players=2, policies="greedy", rng=2, until=0.06, max_games=3000, n_jobs=2,
                  backend="threading")
    same(one, two)
    assert one.n_games > 100  # blocks after the first


def test_robustness_and_robustness_many_are_the_same_on_every_backend(dask_client):
    from pyradice_lab import robustness
    from pyradice_lab.design.robustness import robustness_many

    def same(a, b):
        for x, y in zip(a if isinstance(a, list) else [a], b if isinstance(b, list) else [b]):
            _frames_equal(x.table, y.table)

    _three(lambda **kw: robustness("raft", "game_length > 10", reconstructions=2, games=20, policies="greedy", rng=1,
                                   **kw),
           dask_client, same)
    _three(lambda **kw: robustness_many("meerkat", ["hazards_per_game < 0", "start_player_win > 0.2"],
                                        reconstructions=2, games=20, players=3, policies="greedy", rng=1,
                                        variant={"blue.move.copies": 3}, **kw), dask_client, same)


def test_balance_is_the_same_on_every_backend(dask_client):
    from pyradice_lab import balance

    def same(a, b):
        _frames_equal(a.history, b.history)
        assert (a.values, a.before, a.after) == (b.values, b.before, b.after)

    _three(lambda **kw: balance("purramid", {"deal_2p.value": [[27, 24], [26, 25], [25, 26]]},
                                "start_player_win = 0.5", players=2, budget=60, first_games=10, verify_games=20,
                                rng=1, **kw), dask_client, same)


def test_ladder_and_restricted_play_are_the_same_on_every_backend(dask_client):
    from pyradice_lab.design.strength import ladder, restricted_play

    _three(lambda **kw: ladder("raft", ["random", "greedy"], games=8, rng=3, **kw), dask_client, _frames_equal)
    _three(lambda **kw: restricted_play("raft", "greedy", ["fixed_duration"], games=8, rng=2, **kw), dask_client,
           _frames_equal)


def test_components_given_as_a_file_path_travel_to_the_workers_as_data(tmp_path, monkeypatch, dask_client):
    """The path is read once, in the caller; the workers get the components (the file is gone when they run)."""
    from pyradice_lab import compare, raft
    from pyradice_lab.raft import components as rc

    v = raft.default_components().replace({"card.1.points": 4})
    path = v.dump(tmp_path / "variant.toml")
    want = compare("raft", None, v, "points_per_boat", games=40, players=2, policies="greedy", rng=1)
    original = rc.coerce_components

    def read_then_remove(components, name="components"):
        out = original(components, name)
        if isinstance(components, os.PathLike) and os.path.exists(components):
            os.unlink(components)  # a worker that tried to read the path would fail
        return out

    monkeypatch.setattr(rc, "coerce_components", read_then_remove)
    got = compare("raft", None, path, "points_per_boat", games=40, players=2, policies="greedy", rng=1, n_jobs=2, backend="dask",
                  scheduler=dask_client)
    assert not path.exists()
    assert got.difference == want.difference and got.variant == want.variant


def test_a_cluster_of_worker_processes_gives_the_same_numbers():
    """The one test with real dask worker processes; bounded in time so it can never hang the suite."""
    from distributed import Client, LocalCluster

    from pyradice_lab.design.strength import ladder

    want = ladder("raft", ["random", "greedy"], games=8, rng=3)
    box: dict = {}

    def run():
        try:
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                    Client(cluster, timeout=30) as client:
                box["got"] = ladder("raft", ["random", "greedy"], games=8, rng=3, backend="dask", scheduler=client)
        except BaseException as exc:  # noqa: BLE001 - reported below
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout=120)
    assert not t.is_alive(), "the dask LocalCluster run did not finish within 120 s"
    if "error" in box:
        raise box["error"]
    _frames_equal(box["got"], want)


REPORT = """
import filecmp, glob, os, sys
sys.path.insert(0, {tests!r})
import report_sections
report_sections.register()
from distributed import Client, LocalCluster
from pyradice_lab.report import build_report
kw = dict(quick=True, seed=3, games=["infra_fake"], progress=False)
build_report(os.path.join({out!r}, "one", "r.pdf"), **kw)
with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
        Client(cluster) as client:
    build_report(os.path.join({out!r}, "dask", "r.pdf"), n_jobs=2, backend="dask", scheduler=client, **kw)
one = os.path.join({out!r}, "one")
files = sorted(os.path.relpath(p, one) for p in glob.glob(os.path.join(one, "**", "*.csv"), recursive=True))
assert files, "the report wrote no tables"
for run in ("dask",):
    for f in files:
        assert filecmp.cmp(os.path.join(one, f), os.path.join({out!r}, run, f), shallow=False), (run, f)
print("same", len(files))
"""


@pytest.mark.slow
def test_the_report_has_the_same_numbers_on_one_job_and_on_dask(tmp_path):
    """The report's tables (every number of the PDF) do not depend on where its sections were built (a fake game,
    in a fresh process: registering it changes the registry)."""
    tests = os.path.dirname(os.path.abspath(__file__))
    env = {**os.environ, "PYTHONPATH": os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", "")}
    res = subprocess.run([sys.executable, "-c", REPORT.format(tests=tests, out=str(tmp_path))], env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert res.stdout.startswith("same")


# ------------------------------------------------------------------------------------------ resume
class _Stop(Exception):
    pass


def _interrupt_after(k: int, seen: list):
    def hook(i):
        seen.append(i)
        if len(seen) == k:
            raise _Stop

    return hook


@pytest.mark.parametrize("entry", ["ladder", "robustness", "simulate", "compare"])
def test_a_killed_run_resumed_from_its_cache_computes_only_the_missing_blocks(entry, tmp_path, monkeypatch):
    from pyradice_lab import compare, robustness
    from pyradice_lab.design.strength import ladder
    from pyradice_lab.raft import simulate_games

    call, frame = {
        "ladder": (lambda **kw: ladder("raft", ["random", "greedy", "aim"], games=6, rng=5, **kw), lambda r: r),
        "robustness": (lambda **kw: robustness("raft", "game_length > 10", reconstructions=3, games=10, policies="greedy",
                                                rng=1, **kw),
                       lambda r: r.table),
        "simulate": (lambda **kw: simulate_games(120, 2, rng=7, chunk=20, **kw), lambda r: r),
        "compare": (lambda **kw: compare("meerkat", None, None, "start_player_win", games=1100, players=3, rng=4, policies="greedy",
                                         **kw), lambda r: r.to_frame()),
    }[entry]
    want = frame(call())
    seen: list = []
    monkeypatch.setattr(ex, "after_block_hook", _interrupt_after(2, seen))
    with pytest.raises(_Stop):
        call(cache_dir=tmp_path)
    again: list = []
    monkeypatch.setattr(ex, "after_block_hook", again.append)
    got = frame(call(cache_dir=tmp_path))
    _frames_equal(got, want)
    assert len(again) > 0 and not set(again) & set(seen), "the finished blocks were read, not recomputed"
    done: list = []
    monkeypatch.setattr(ex, "after_block_hook", done.append)
    _frames_equal(frame(call(cache_dir=tmp_path)), want)
    assert done == []  # everything stored: nothing computed


def test_stored_blocks_of_other_code_are_recomputed_with_a_warning(tmp_path, monkeypatch):
    from pyradice_lab.design.strength import ladder
    from pyradice_lab.engine import sweep

    want = ladder("raft", ["random", "greedy"], players=2, games=4, rng=5, cache_dir=tmp_path)
    real = sweep._code_fingerprint
    game_code = real(__import__("pyradice_lab.raft.sim", fromlist=["x"]).lineup_outcomes)
    # the game's simulation changed (a block's own function did not): its blocks are not used
    monkeypatch.setattr(sweep, "_code_fingerprint", lambda f: "changed" if real(f) == game_code else real(f))
    seen: list = []
    monkeypatch.setattr(ex, "after_block_hook", seen.append)
    with pytest.warns(sweep.CacheWarning, match="other code"):
        got = ladder("raft", ["random", "greedy"], players=2, games=4, rng=5, cache_dir=tmp_path)
    _frames_equal(got, want)
    assert len(seen) == 2  # both seatings played again


# ------------------------------------------------------------------------------------------ clean stops
def _children(pid: int) -> set[int]:
    """Processes whose parent is ``pid`` (from /proc, never by name)."""
    out = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.add(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            stat = fh.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z"


@pytest.mark.slow
def test_a_sigkilled_parent_leaves_no_loky_worker_alive(tmp_path):
    script = textwrap.dedent("""
        from pyradice_lab.design.strength import ladder
        ladder("raft", ["random", "greedy", "aim"], games=400000, rng=1, n_jobs=2)
    """)
    env = {**os.environ, "PYTHONPATH": os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 45
        while time.monotonic() < deadline and len(workers) < 2:
            workers |= _children(proc.pid)
            time.sleep(0.2)
        assert workers, "no worker process started"
        time.sleep(1.0)
        workers |= _children(proc.pid)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.2)
    left = [w for w in workers if _alive(w)]
    for w in left:  # clean up before failing: never leave a process computing
        os.kill(w, signal.SIGKILL)
    assert not left, f"worker processes {left} outlived their killed parent by 10 s"


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_a_signalled_dask_run_on_its_own_cluster_leaves_no_worker_after_5_s(sig, tmp_path):
    """Issue 46: SIGTERM or Ctrl-C of a run on its own dask LocalCluster left a worker alive 5 s later in 2 of 4
    runs.  The CLI turns both into an interrupt that closes the cluster: every child process (the workers, the
    resource tracker) is gone within 5 s of the signal."""
    pytest.importorskip("distributed")
    env = {**os.environ, "PYTHONPATH": os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "pyradice_lab.cli", "raft", "ladder", "--policies",
                             "random,greedy", "--games", "400000", "--jobs", "2", "--backend", "dask",
                             "--no-progress", "--out", str(tmp_path / "l.csv")], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            # a suite started as a background job (CI's nohup ... &) ignores SIGINT, and a child
                            # inherits that: Ctrl-C of a run in a terminal is what is tested
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 3:  # 2 workers and the resource tracker
            workers |= _children(proc.pid)
            time.sleep(0.2)
        assert len(workers) >= 2, "the dask workers did not start"
        time.sleep(1.0)
        workers |= _children(proc.pid)
        sent = time.monotonic()
        proc.send_signal(getattr(signal, sig))
        while time.monotonic() < sent + 5 and any(_alive(w) for w in workers | {proc.pid}):
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
    finally:
        for w in workers:  # clean up before failing: never leave a process computing
            if _alive(w):
                os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
    assert not left, f"dask worker processes {left} outlived the {sig} of their run by 5 s"
    assert proc.returncode in (130, 143), proc.returncode


_RAN: list = []


def _slow_block(i):
    _RAN.append(i)
    time.sleep(0.3)
    return i


def test_an_interrupted_dask_run_cancels_its_futures(dask_client, monkeypatch):
    def ctrl_c(i):  # Ctrl-C in the caller while it waits for the blocks
        raise KeyboardInterrupt

    _RAN.clear()
    monkeypatch.setattr(ex, "after_block_hook", ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        run_blocks(_slow_block, [(i,) for i in range(12)], n_jobs=2, backend="dask", scheduler=dask_client)
    time.sleep(2.0)  # long enough for every block left to run, had it not been cancelled
    assert len(_RAN) < 8, f"{len(_RAN)} of 12 blocks ran after the interruption"


def test_an_interrupt_inside_a_block_reaches_the_caller():
    def boom(i):
        if i == 3:
            raise KeyboardInterrupt
        return i

    with pytest.raises(KeyboardInterrupt), Pool(2, "threading") as pool:
        pool.map(boom, [(i,) for i in range(8)])


def _loky_leak_allowance(i):
    from joblib.externals.loky import process_executor

    from pyradice_lab.engine.limits import max_memo_bytes

    # the worker's own memo limit: a reused worker keeps the environment it started with (another test's)
    return process_executor._MAX_MEMORY_LEAK_SIZE, max_memo_bytes()


def test_loky_workers_may_hold_the_carried_memos():
    """loky restarts a worker whose memory grew by 300 MB as a "leak" (the warning "A worker stopped while
    some jobs were given to the executor"), which threw the carried Purramid memo away: our workers allow
    loky's 300 MB plus the memo limit."""
    allowances = run_blocks(_loky_leak_allowance, [(i,) for i in range(4)], n_jobs=2)
    assert all(allow == int(3e8) + memo for allow, memo in allowances), allowances


# ------------------------------------------------------------------------------------------ issue 46: behaviours
def _chunked_sim(n, rng=None):
    """A game that draws every 64 games' numbers at once from one Generator (as Pyradice's batches do)."""
    from pyradice_lab.engine.rng import as_generator

    gen, out = as_generator(rng), []
    for a in range(0, n, 64):
        out.extend(gen.random(64)[:min(64, n - a)])
    return pd.DataFrame({"x": out})


def test_blocks_are_whole_chunks_so_a_chunked_generator_gives_the_same_games_with_any_n_jobs():
    """Issue 46: simulate_blocks rounds a block up to whole chunks of the game's own batch; a block that ended
    inside a chunk would start the next block at another point of the stream than the single call does."""
    from pyradice_lab.engine.execution import generator_blocks, simulate_blocks

    want = _chunked_sim(1000, rng=46)
    blocks = generator_blocks(lambda gen, m: gen.random(64), 64)
    for n_jobs in (1, 2, 3):
        got = simulate_blocks(_chunked_sim, 1000, 46, {}, check_execution(n_jobs, "threading"), chunk=64,
                              blocks=blocks)
        np.testing.assert_array_equal(got["x"].to_numpy(), want["x"].to_numpy(), err_msg=f"n_jobs={n_jobs}")


def _block_a(i):
    _CALLS.append(("a", i))
    return i


def _block_b(i):
    _CALLS.append(("b", i))
    return -i


_CALLS: list = []


def test_a_stored_block_is_named_by_its_function_so_resume_never_reads_another_functions_blocks(tmp_path):
    """Issue 46: two block functions with the same keys keep separate blocks in one cache folder: running the
    second neither reads nor overwrites the first one's (which then resumes without recomputing or warning)."""
    import warnings

    args, keys = [(1,), (2,)], [{"k": 1}, {"k": 2}]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a CacheWarning (a block of another function found) fails the test
        _CALLS.clear()
        assert run_blocks(_block_a, args, n_jobs=1, cache_dir=tmp_path, keys=keys) == [1, 2]
        assert run_blocks(_block_b, args, n_jobs=1, cache_dir=tmp_path, keys=keys) == [-1, -2]
        assert run_blocks(_block_a, args, n_jobs=1, cache_dir=tmp_path, keys=keys) == [1, 2]  # read back
    assert _CALLS == [("a", 1), ("a", 2), ("b", 1), ("b", 2)]


def test_imap_scheduled_never_has_more_than_n_jobs_tasks_in_flight():
    """Issue 46: at most n_jobs tasks are handed to the workers at once, so a task that ``then`` adds with a
    smaller priority starts before the waiting ones (had every waiting task been submitted at once, the added
    ones would queue behind all of them in the executor)."""
    lock, state, order = threading.Lock(), {"now": 0, "most": 0}, []

    def task(i):
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
            order.append(i)
        time.sleep(0.02)
        with lock:
            state["now"] -= 1
        return i

    def then(key, out):  # every first-generation task adds one more, which goes first
        return [(key + 100, (key + 100,))] if key < 100 else []

    with Pool(2, "threading") as pool:
        done = sorted(k for k, _ in pool.imap_scheduled(task, [(i, (i,)) for i in range(8)], then,
                                                         priority=lambda key: 0 if key >= 100 else 1))
    assert done == [*range(8), *range(100, 108)]
    assert state["most"] == 2
    assert order.index(100) < order.index(7) and order.index(101) < order.index(7), order


def test_the_final_done_line_is_written_however_long_the_interval():
    out = io.StringIO()
    with Progress(5, desc="sweep", file=out, tty=False, every=3600) as p:
        for _ in range(5):
            p.update(1, 10)
    assert out.getvalue().splitlines()[-1] == "sweep: done 5/5 blocks, 50 games"
