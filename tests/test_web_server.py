"""The table companion's server stays responsive (issue 43, items 4 and 5): no request triggers unbounded work (a
turn the game never reaches is refused before any replay; replays are cached; each desk computes in its own
bounded worker slots off the event loop, so one game's long solve delays no other game), GET requests that start
work are guarded like POSTs (``Sec-Fetch-Site`` and ``Origin``), ``serve`` stops within 2 s of SIGTERM or Ctrl-C,
a warming desk tells the page how long it has been preparing, and every answer names the player whose judgement
ranks it.  Real uvicorn on 127.0.0.1 (a free port), bounded request counts and timeouts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
httpx = pytest.importorskip("httpx", reason="the tests' client needs httpx")

sys.path.insert(0, str(Path(__file__).resolve().parent))   # tests/browser.py
from browser import free_port, serving  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from pyradice_lab.engine import registry  # noqa: E402
from pyradice_lab.web import create_app  # noqa: E402


@pytest.fixture(scope="module")
def app():
    return create_app("A")


@pytest.fixture(scope="module")
def url(app):
    with serving(app) as u:
        yield u.rstrip("/")


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


# ------------------------------------------------------------------------------------------ unbounded work
def test_the_stall_reproducer_is_refused_at_once_before_any_replay(app, url, monkeypatch):
    """Six GETs for a turn Meerkat Kingdom never reaches answer 400 in under 1 s each, without replaying."""
    advisor = registry.get_game("meerkat").module("advisor")

    def no_replay(*a, **k):
        raise AssertionError("a turn beyond the game's bound was replayed")

    monkeypatch.setattr(advisor, "positions_from_game", no_replay)
    monkeypatch.setattr(advisor, "position_from_game", no_replay)
    desk = app.state.desks["meerkat"]
    assert 0 < desk.max_turn < 200
    with httpx.Client(base_url=url, timeout=30) as c, ThreadPoolExecutor(7) as pool:
        stalls = [pool.submit(_timed, lambda s=s: c.get("/api/meerkat/layout",
                                                        params={"seed": s, "players": 3, "turn": 200}))
                  for s in range(1, 7)]
        other = pool.submit(_timed, lambda: c.get("/api/raft/layout"))
        for f in stalls:
            r, dt = f.result()
            assert r.status_code == 400 and "turn" in r.json()["error"] and dt < 1.0, (r.json(), dt)
        r, dt = other.result()
        assert r.status_code == 200 and dt < 5.0, dt


def test_every_desk_declares_a_turn_bound_and_refuses_beyond_it(app):
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    for name, desk in app.state.desks.items():
        if "turn" not in desk.query:
            continue
        assert isinstance(desk.max_turn, int) and desk.max_turn > 0, name
        r = client.get(f"/api/{name}/layout", params={"turn": desk.max_turn + 1})
        assert r.status_code == 400 and str(desk.max_turn) in r.json()["error"], (name, r.json())


def test_a_replay_past_the_end_of_a_game_is_cached(app, url):
    """A turn within the bound but past this seed's end costs one replay; asking again (any turn of that game)
    is answered from the cache."""
    with httpx.Client(base_url=url, timeout=60) as c:
        q = {"seed": 11, "players": 3}
        r, first = _timed(lambda: c.get("/api/meerkat/layout", params={**q, "turn": app.state.desks["meerkat"].max_turn}))
        assert r.status_code == 400 and "turn" in r.json()["error"]
        for turn in (app.state.desks["meerkat"].max_turn - 1, 1):
            r, again = _timed(lambda t=turn: c.get("/api/meerkat/layout", params={**q, "turn": t}))
            assert r.status_code in (200, 400) and again < 1.0, (turn, again, first)


def test_a_long_solve_delays_no_other_game_and_its_queue_is_bounded(app, url, monkeypatch):
    """While one game's desk is busy (a slow solve, faked), the other games answer at once; requests piling up
    on the busy desk beyond its bounded queue are answered 503 with Retry-After instead of waiting."""
    from pyradice_lab import web

    desk = app.state.desks["meerkat"]
    release = threading.Event()

    def slow(body, gate=True):
        return desk.run(lambda: (release.wait(20), {"game": "meerkat", "options": [], "best": None})[1])

    monkeypatch.setattr(desk, "advise", slow)
    n = web.MAX_WAITING + desk.workers + 3
    with httpx.Client(base_url=url, timeout=30) as c, ThreadPoolExecutor(n + 1) as pool:
        busy = [pool.submit(c.post, "/api/meerkat/advise", json={"position": {}}) for _ in range(n)]
        time.sleep(1.0)
        try:
            for game in ("raft", "pyradice", "purramid"):
                r, dt = _timed(lambda g=game: c.get(f"/api/{g}/layout"))
                assert r.status_code == 200 and dt < 5.0, (game, dt)
            refused = [f for f in busy if f.done()]
            assert len(refused) >= 3 and all(f.result().status_code == 503 for f in refused)
            assert all("busy" in f.result().json()["error"] and "retry-after" in f.result().headers for f in refused)
        finally:
            release.set()
        codes = sorted(f.result().status_code for f in busy)
        assert codes.count(200) >= desk.workers and set(codes) <= {200, 503}


# ------------------------------------------------------------------------------------------ the guard
@pytest.mark.parametrize("headers, status", [
    ({"sec-fetch-site": "cross-site"}, 403),             # an <img> on another site: no Origin, but this header
    ({"sec-fetch-site": "same-site"}, 403),              # another port of localhost
    ({"origin": "http://evil.example"}, 403),
    ({"origin": "http://127.0.0.1:8000.evil.example"}, 403),   # the page's origin as a prefix only (issue 46)
    ({"origin": "http://127.0.0.1:8000"}, 200),                # exactly the page's own origin
    ({"sec-fetch-site": "same-origin"}, 200),            # the page's own fetch
    ({"sec-fetch-site": "none"}, 200),                   # typed in the address bar
    ({}, 200),                                           # curl, old browsers
])
def test_get_requests_that_start_work_are_guarded_like_posts(app, headers, status):
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    r = client.get("/api/raft/layout", headers=headers)
    assert r.status_code == status, (headers, r.text)
    if status == 403:
        assert "another site" in r.json()["error"]
    r = client.post("/api/raft/advise", json={"position": {}}, headers=headers)
    assert (r.status_code == 403) == (status == 403)
    # the page itself may be opened from a link on another site (it starts no work)
    assert client.get("/", headers={"sec-fetch-site": "cross-site"}).status_code == 200


def test_a_chunked_request_body_is_bounded_like_a_declared_one(app):
    """Issue 46: a body sent in chunks (no Content-Length) is counted as it arrives and refused (413) past
    MAX_BODY, as one whose Content-Length declares too much."""
    from pyradice_lab.web import MAX_BODY

    client = TestClient(app, base_url="http://127.0.0.1:8000")

    def chunks():
        yield b'{"position": "'
        for _ in range(MAX_BODY // 4096 + 2):
            yield b"x" * 4096
        yield b'"}'

    r = client.post("/api/raft/advise", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "request body over" in r.json()["error"]
    small = client.post("/api/raft/advise", content=iter([b'{"position": ', b"{}}"]),
                        headers={"content-type": "application/json"})
    assert small.status_code != 413


# ------------------------------------------------------------------------------------------ stopping
def _start_serve(port, cache):
    # an empty numba cache and no ahead-of-time builds (engine/aot.py): the warm-up and the first solve compile
    # (as on a first start without `pyradice-lab compile`), so a solve is in flight for long
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]), NUMBA_CACHE_DIR=str(cache),
               PYRADICE_LAB_AOT="0")
    exe = Path(sys.executable).with_name("pyradice-lab")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "pyradice_lab.cli"]
    return subprocess.Popen([*cmd, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)


def _wait_answering(proc, port, limit=90):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"serve did not answer within {limit} s")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_stops_within_two_seconds_of_sigterm_or_ctrl_c(sig, tmp_path):
    """``pyradice-lab serve`` (warming its engines in the background, one solve in flight) exits within 2 s of
    the signal (plus a margin for a loaded machine) and leaves no process behind."""
    port = free_port()
    proc = _start_serve(port, tmp_path)
    try:
        _wait_answering(proc, port)
        if sig == signal.SIGTERM:   # the stall reproducer on a fresh server, its engines compiling meanwhile
            for seed in range(1, 7):
                r, dt = _timed(lambda s=seed: httpx.get(f"http://127.0.0.1:{port}/api/meerkat/layout",
                                                        params={"seed": s, "players": 3, "turn": 200}, timeout=30))
                assert r.status_code == 400 and dt < 1.0, (r.text, dt)
        # a long request in flight: the first solve of a board the warm-up does not solve (seconds)
        done = threading.Event()
        threading.Thread(target=lambda: (_quiet(lambda: httpx.post(
            f"http://127.0.0.1:{port}/api/advise", json={"layout": "B"}, timeout=60)), done.set()),
            daemon=True).start()
        time.sleep(1.5)
        assert not done.is_set(), "the solve meant to be in flight has already been answered"
        t0 = time.monotonic()
        proc.send_signal(sig)
        try:
            proc.wait(timeout=6)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"serve still running {time.monotonic() - t0:.1f} s after {sig.name}") from None
        took = time.monotonic() - t0
        assert took < 3.0, f"serve took {took:.1f} s to stop after {sig.name}"
        time.sleep(0.2)
        with pytest.raises(ProcessLookupError):
            os.killpg(proc.pid, 0)              # no process of its group is left
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


def _quiet(fn):
    try:
        fn()
    except httpx.HTTPError:
        pass


# ------------------------------------------------------------------------------------------ warming, players
def test_a_warming_desk_says_how_long_it_has_been_preparing(app):
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    desk = app.state.desks["raft"]
    doc = client.get("/api/raft/layout").json()["position"]
    desk.warming = True
    desk.warm_started = time.monotonic() - 7
    try:
        r = client.post("/api/raft/advise", json={"position": doc})
        assert r.status_code == 503 and r.headers["retry-after"]
        assert 7 <= r.json()["warming_seconds"] < 60
    finally:
        desk.warming = False
    js = client.get("/tables.js").text + client.get("/advisor.js").text
    assert js.count("preparing the solver: ") >= 2 and "s so far" in js and "warming_seconds" in js


def test_every_answer_names_the_player_that_ranks_it(app):
    """Each desk ranks with the game's report player where it can, else says which player and why; the JSON
    answer and the page name it."""
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    for name, desk in app.state.desks.items():
        spec = registry.get_game(name)
        assert desk.player, name
        assert desk.player == spec.report_player or len(desk.player_why) > 20, (name, desk.player)
        doc = client.get(f"/api/{name}/layout").json()["position"]
        extra = {"samples": 4, "candidates": 2} if "samples" in desk.fields else {}
        got = client.post(f"/api/{name}/advise", json={"position": doc, **extra}).json()
        assert got["player"] == desk.player, (name, got.get("player"))
        assert got.get("player_why", "") == desk.player_why
    js = client.get("/tables.js").text + client.get("/advisor.js").text
    assert js.count("ranked by: ") >= 2


def test_meerkat_ranks_with_its_strongest_affordable_player(app):
    from pyradice_lab.meerkat.advisor import advise, load_position

    client = TestClient(app, base_url="http://127.0.0.1:8000")
    desk = app.state.desks["meerkat"]
    assert desk.player == "expectimax_v2" and "mcts_v2" in desk.player_why
    doc = client.get("/api/meerkat/layout?seed=3&turn=4&stage=action").json()["position"]
    got = client.post("/api/meerkat/advise", json={"position": doc}).json()
    df = advise(load_position(doc), policy="expectimax_v2")
    assert [o["option"] for o in got["options"]] == df["option"].tolist()
