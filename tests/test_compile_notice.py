"""The first compile of a game's kernels is announced once (issue 30, part 6): a log message in the API, a
line on stderr from the CLI, nothing when numba's cache already holds the kernels."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import types

import pytest

from pyradice_lab import cli
from pyradice_lab.engine import _jit

NOTICE = "compiling the Rocking Raft tilt model once (about 1 s); later runs reuse it"


class _FakeEvent:
    def __init__(self, dispatcher):
        self.data = {"dispatcher": dispatcher, "args": (), "return_type": None}


def _dispatcher(module: str, cached: bool = True):
    def kernel():  # pragma: no cover - never called
        pass

    kernel.__module__ = module
    cache = type("FunctionCache" if cached else "NullCache", (), {})()
    return types.SimpleNamespace(py_func=kernel, _cache=cache)


@pytest.fixture
def listener():
    return _jit._CompileNotice()  # a fresh one: nothing announced yet


def _compile(listener, dispatcher, nested=()):
    listener.on_start(_FakeEvent(dispatcher))
    for d in nested:  # callees compiled while the caller is typed
        _compile(listener, d)
    listener.on_end(_FakeEvent(dispatcher))


def test_every_game_names_its_engine_and_typical_time():
    import pyradice_lab.meerkat
    import pyradice_lab.purramid.exact
    import pyradice_lab.pyradice
    import pyradice_lab.raft.tilting  # noqa: F401

    assert _jit.compile_notice("pyradice_lab.meerkat.kernel") == ("the Meerkat engine", 25.0)
    assert _jit.compile_notice("pyradice_lab.purramid.exact")[0] == "the Purramid exact solver"
    assert _jit.compile_notice("pyradice_lab.purramid.kernel")[0] == "the Purramid engine"
    assert _jit.compile_notice("pyradice_lab.pyradice.kernel")[0] == "the Pyradice engine"
    assert _jit.compile_notice("pyradice_lab.raft.tilting") == ("the Rocking Raft tilt model", 1.0)
    assert _jit.compile_notice("pyradice_lab.nosuchgame.kernel") == ("the pyradice_lab.nosuchgame kernels", None)
    assert _jit._notice_text("the Meerkat engine", 25.0) == \
        "compiling the Meerkat engine once (about 25 s); later runs reuse it"


def test_first_compile_is_logged_once_per_engine(listener, caplog):
    import pyradice_lab.meerkat  # noqa: F401

    caplog.set_level(logging.INFO, logger=_jit.COMPILE_LOGGER)
    kernel = _dispatcher("pyradice_lab.meerkat.kernel")
    _compile(listener, kernel, nested=[_dispatcher("pyradice_lab.meerkat.rules")])
    _compile(listener, _dispatcher("pyradice_lab.meerkat.kernel"))  # another signature: said already
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert infos == ["compiling the Meerkat engine once (about 25 s); later runs reuse it"]
    assert all(r.name == _jit.COMPILE_LOGGER for r in caplog.records)


def test_only_cached_kernels_of_the_package_are_announced(listener, caplog):
    caplog.set_level(logging.DEBUG, logger=_jit.COMPILE_LOGGER)
    _compile(listener, _dispatcher("somebody_else.kernels"))
    _compile(listener, _dispatcher("pyradice_lab.raft.tilting", cached=False))  # compiled by every process
    listener.on_start(types.SimpleNamespace(data=None))  # a compile event of another kind
    listener.on_end(types.SimpleNamespace(data=None))
    assert caplog.records == []


def test_the_listener_is_registered_with_numba():
    from numba.core import event

    assert _jit._NOTICE in event._registered["numba:compile"]
    assert cli.COMPILE_LOGGER == _jit.COMPILE_LOGGER


def _raft_tilt(cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    env.pop("NUMBA_DISABLE_JIT", None)
    return subprocess.run([sys.executable, "-m", "pyradice_lab.cli", "raft", "tilt", "--duration", "1.5",
                           "--trials", "200", "--layout", "reference", "--top", "1"],
                          capture_output=True, text=True, env=env, timeout=120)


def test_cli_says_so_on_stderr_once_then_never_again(tmp_path):
    first = _raft_tilt(tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stderr.splitlines() == [f"pyradice-lab: {NOTICE}"]
    assert "compiling" not in first.stdout
    again = _raft_tilt(tmp_path)  # the kernel is in numba's cache now
    assert again.returncode == 0 and again.stderr == ""
