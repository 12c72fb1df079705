"""The advisor web page's JSON API, in-process (Starlette's test client): answers equal ``advise``; bad
fields are refused with 400 naming the field; no file path is taken from a request; bodies are bounded;
one solve at a time per board."""

from __future__ import annotations

import re
import threading
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():   # starlette 1.x asks for httpx2 (the test client still works with httpx)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from pyradice_lab.purramid import advisor, load_layout  # noqa: E402
from pyradice_lab.purramid.advisor import advise  # noqa: E402
from pyradice_lab.web import MAX_BODY, advise_json, create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
JSON = {"Content-Type": "application/json"}

# every state below is on the empty side A (one solved board shared by the tests; the first solve compiles)
STATES = [
    dict(placed=[(0, 3)], dice_left=4),
    dict(placed=[(0, 3)], dice_left=4, roll=[6, 2, 3, 1]),
    dict(dice_left=5, roll=[1, 1, 4, 5, 6], yarn=2),
    dict(placed=[(0, 2), (0, 3)], dice_left=2, roll=[2, 5], objective=("at_least", 3)),
    dict(dice_left=5),
]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app("A"), base_url="http://127.0.0.1:8000") as c:
        yield c


def _body(state: dict) -> dict:
    b = {k: [list(s) for s in v] if k in ("covered", "placed") else v for k, v in state.items()}
    if "objective" in b:
        b["objective"] = list(b["objective"])
    return b


@pytest.mark.parametrize("state", STATES, ids=range(len(STATES)))
def test_answers_equal_advise(client, state):
    r = client.post("/api/advise", json=_body(state))
    assert r.status_code == 200, r.text
    got = r.json()
    df = advise("A", **state)
    assert len(got["options"]) == len(df)
    for o, row in zip(got["options"], df.itertuples(index=False)):
        assert o["action"] == row.action
        assert o["value"] == pytest.approx(row.value, abs=1e-12)
        assert o["burst_probability"] == pytest.approx(row.burst_probability, abs=1e-12)
        assert o["regret"] == pytest.approx(row.regret, abs=1e-12)
        if "then" in df.columns:
            assert o["then"] == (row.then if isinstance(row.then, str) else None)
            assert o["space"] == (None if row.space is None else list(row.space))
            assert o["dice"] == list(row.dice)
    assert got["best"] == got["options"][0]
    assert got["objective"] == df["objective"].iloc[0] and got["bonus"] == df["bonus"].iloc[0]


def test_burst_odds_of_open_spaces(client):
    from pyradice_lab.purramid import burst_probability

    L = load_layout("A")
    covered = [s for s in L.spaces if L.number(s) <= 6]  # leave only 7..12 open
    got = client.post("/api/advise", json={"covered": [list(s) for s in covered], "dice_left": 1,
                                            "turn_dice": 1}).json()
    assert got["burst_odds"]["targets"] == [7, 8, 9, 10, 11, 12]
    assert got["burst_odds"]["probability"] == 1.0                 # one die never reaches 7
    got = client.post("/api/advise", json={"placed": [[0, 3]], "dice_left": 4}).json()
    assert got["burst_odds"]["probability"] == pytest.approx(float(burst_probability(4, set(L.numbers) - {6})))


BAD = [
    ("layout", "../side_a.toml"), ("layout", "/etc/passwd"), ("layout", "C"), ("layout", 3),
    ("covered", [[99, 0]]), ("covered", "0,0"), ("covered", [[0, 0], [0, 0]]), ("covered", [["a", "b"]]),
    ("placed", [[0, 3]]),                       # dice on the board but dice_left = turn_dice
    ("dice_left", 7), ("dice_left", -1), ("dice_left", "4"), ("dice_left", True), ("dice_left", 2.5),
    ("roll", [7, 1, 1, 1, 1]), ("roll", [1, 2]), ("roll", "66666"),
    ("yarn", -1), ("yarn", 13), ("yarn", True),
    ("turn_dice", 0), ("turn_dice", 6),
    ("objective", "max"), ("objective", ["at_least", 0]),
    ("yarn_value", -1), ("yarn_value", "x"),
    ("bonus", "sometimes"), ("yarn_tokens", "no"),
]


@pytest.mark.parametrize("field,value", BAD, ids=[f"{f}={v!r}" for f, v in BAD])
def test_bad_field_answered_400_naming_it(client, field, value):
    r = client.post("/api/advise", json={field: value})
    assert r.status_code == 400, r.text
    assert field in r.json()["error"]


def test_bad_values_are_refused_by_advise_itself():
    """The API passes values to ``advise`` unchanged: its errors are advise's errors."""
    for field, value in BAD:
        if field == "layout":
            continue
        with pytest.raises((ValueError, TypeError)) as info:
            advise("A", **{field: value})
        assert field in str(info.value)


def test_request_shape_is_checked(client):
    assert client.post("/api/advise", content=b"not json", headers=JSON).status_code == 400
    r = client.post("/api/advise", json=[1, 2])
    assert r.status_code == 400 and "JSON object" in r.json()["error"]
    r = client.post("/api/advise", json={"engine": "python"})
    assert r.status_code == 400 and "'engine'" in r.json()["error"]
    r = client.post("/api/advise", json={"components": "/tmp/x.toml"})
    assert r.status_code == 400 and "'components'" in r.json()["error"]
    r = client.post("/api/advise", content=b"[" * 5000 + b"]" * 5000, headers=JSON)
    assert r.status_code == 400
    r = client.post("/api/advise", content=b" " * (MAX_BODY + 1), headers=JSON)
    assert r.status_code == 413
    assert client.get("/api/advise").status_code == 405


def test_layout_geometry(client):
    for name in ("A", "B"):
        L = load_layout(name)
        got = client.get(f"/api/layout?name={name}").json()
        assert got["name"] == name and got["boards"] == ["A", "B"] and got["default"] == "A"
        assert [s["space"] for s in got["spaces"]] == [list(s) for s in L.spaces]
        for r in range(L.n_rows):
            row = [s for s in got["spaces"] if s["row"] == r]
            assert row[0]["x"] == r / 2                                 # half-unit brick offset
            for a, b in zip(row, row[1:]):
                assert b["x"] == a["x"] + a["width"]
            assert sum(s["width"] for s in row) == got["width"] - r    # each row 1 unit narrower
        for s, n, t in zip(got["spaces"], L.numbers, L.tile_counts):
            assert s["number"] == n and s["tiles"] == t
            assert s["width"] == (2 if n == 10 else 1) and s["yarn"] == (n == 8)
    assert client.get("/api/layout").json()["name"] == "A"
    for query in ("name=C", "name=../data/side_a.toml", "name=A&path=x"):
        r = client.get(f"/api/layout?{query}")
        assert r.status_code == 400
    assert "name" in client.get("/api/layout?name=C").json()["error"]


def test_page_is_served_from_the_package_without_internet(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    refs = re.findall(r'(?:src|href)="([^"]*)"', page.text)
    assert refs and all(ref.startswith("/") and not ref.startswith("//") for ref in refs)
    for ref in refs:
        asset = client.get(ref)
        assert asset.status_code == 200 and len(asset.text) > 100
        # nothing fetched from elsewhere (the SVG namespace is a name, not a download)
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", asset.text)
    assert client.get("/../pyproject.toml").status_code == 404


def test_custom_layout_file_is_offered_by_name(tmp_path):
    from pyradice_lab.web import Boards

    p = tmp_path / "tiny.toml"
    p.write_text('name = "tiny"\n[rows]\nvalue = [[2, 10, 6], [8, 3, 4], [12, 5]]\nsource = "designer"\n')
    boards = Boards(str(p))
    assert boards.default == "tiny" and list(boards.layouts) == ["A", "B", "tiny"]
    got = advise_json({"layout": "tiny", "dice_left": 1, "turn_dice": 1, "roll": [2]}, boards)
    assert got["best"]["action"] == advise(str(p), dice_left=1, turn_dice=1, roll=[2])["action"].iloc[0]


def test_one_solve_at_a_time_per_board(monkeypatch):
    """Same board: requests wait for each other; different boards: they run side by side."""
    from pyradice_lab.web import Boards

    real = advisor.advise
    active: dict = {"A": 0, "B": 0}
    peak: dict = {"A": 0, "B": 0}
    b_running = threading.Event()
    guard = threading.Lock()

    def fake(layout, **kw):
        name = layout.name
        with guard:
            active[name] += 1
            peak[name] = max(peak[name], active[name])
        if name == "B":
            b_running.set()
        else:   # A waits for B: with one lock for every board this would time out
            assert b_running.wait(10), "board B did not run while board A was solving"
        threading.Event().wait(0.05)
        with guard:
            active[name] -= 1
        return real(layout, **kw)

    monkeypatch.setattr(advisor, "advise", fake)
    boards = Boards("A")
    errors = []

    def call(name):
        try:
            advise_json({"layout": name, "dice_left": 5, "turn_dice": 5}, boards)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=call, args=(n,)) for n in ("A", "A", "A", "B")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert peak == {"A": 1, "B": 1}


@pytest.mark.parametrize("argv,match", [(["serve", "--layout", "nope"], "layout"),
                                        (["serve", "--port", "70000"], "--port"),
                                        (["serve", "--layout", "/nonexistent/side.toml"], "does not exist")])
def test_serve_cli_bad_input_exits_2_naming_it(argv, match, capsys):
    from pyradice_lab import cli

    try:
        code = cli.main(argv)
    except SystemExit as exc:   # argparse's own errors (usage line + one message line)
        code = exc.code
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert code == 2 and match in err[-1]


@pytest.mark.slow
def test_serve_command_serves_the_page():
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "pyradice_lab.cli", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, proc.stderr.read()
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "serve did not answer in 120 s"
                time.sleep(0.3)
        assert page.status_code == 200 and "/advisor.js" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/layout?name=B", timeout=5).json()["name"] == "B"
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}/" in out


# --- a hostile page: DNS rebinding, cross-site posts, hung sockets, unbounded numbers, the start-up wait ---

@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "[::2]:8000", ""])
def test_a_host_header_not_naming_this_machine_is_refused(client, host):
    for r in (client.get("/", headers={"Host": host}),
              client.post("/api/advise", json={"dice_left": 5}, headers={"Host": host})):
        assert r.status_code == 400 and "host" in r.json()["error"]


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST"])
def test_local_host_names_are_served(client, host):
    assert client.get("/api/layout", headers={"Host": host}).status_code == 200


def test_allowed_hosts_add_names_and_are_checked():
    with TestClient(create_app("A", allowed_hosts=["table.lan"]), base_url="http://table.lan:8000") as c:
        assert c.get("/api/layout").status_code == 200
        assert c.get("/api/layout", headers={"Host": "other.lan"}).status_code == 400
    for bad in ("", "a/b", "x y", 3):
        with pytest.raises(ValueError, match="allowed_hosts"):
            create_app("A", allowed_hosts=[bad])


def test_cross_site_posts_are_refused_before_any_solve(client, monkeypatch):
    calls = []
    monkeypatch.setattr(advisor, "advise", lambda *a, **k: calls.append(1))
    body = b'{"dice_left": 5}'
    for ctype in (None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        r = client.post("/api/advise", content=body, headers={} if ctype is None else {"Content-Type": ctype})
        assert r.status_code == 415 and "application/json" in r.json()["error"]
    r = client.post("/api/advise", content=body, headers={**JSON, "Origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    r = client.post("/api/advise", content=body, headers={**JSON, "Origin": "null"})
    assert r.status_code == 403
    assert calls == []
    monkeypatch.undo()
    r = client.post("/api/advise", json={"placed": [[0, 3]], "dice_left": 4},
                    headers={"Origin": "http://127.0.0.1:8000"})                  # the page's own origin
    assert r.status_code == 200


@pytest.mark.parametrize("objective,k_ok", [(["at_least", 10**9], False), (["at_least", 84], False),
                                            (["at_least", 5], True)])
def test_at_least_k_is_bounded_by_the_tiles_left(client, objective, k_ok):
    r = client.post("/api/advise", json={"dice_left": 5, "objective": objective})
    assert (r.status_code == 200) == k_ok, r.text
    if not k_ok:
        assert "objective" in r.json()["error"] and "tiles left" in r.json()["error"]


def test_at_least_k_bound_counts_only_uncovered_tiles():
    L = load_layout("A")
    covered = [s for s in L.spaces if L.number(s) <= 11]
    left = L.capacity - sum(L.tile_count(s) for s in covered) if hasattr(L, "tile_count") else None
    left = left if left is not None else L.tiles_of(L.all_mask) - L.tiles_of(sum(1 << L.index(s) for s in covered))
    with pytest.raises(ValueError, match=f"k <= {left}"):
        advise("A", covered=covered, objective=("at_least", left + 1))


def test_yarn_value_is_bounded_and_variants_are_capped(monkeypatch):
    from pyradice_lab import web

    boards = web.Boards("A")
    with pytest.raises(web.RequestError, match="yarn_value must be at most"):
        advise_json({"dice_left": 5, "yarn_value": 1e9}, boards)
    monkeypatch.setattr(advisor, "advise", lambda *a, **k: real_frame)
    real_frame = advise("A", dice_left=5)
    monkeypatch.setattr("pyradice_lab.purramid.desk.MAX_VARIANTS", 3)   # the cap lives with the desk now
    for v in (0, 1, 2):
        advise_json({"dice_left": 5, "yarn_value": v}, boards)
    advise_json({"dice_left": 5, "yarn_value": 1}, boards)                # a variant already solved
    with pytest.raises(web.RequestError) as info:
        advise_json({"dice_left": 5, "yarn_value": 3}, boards)
    assert info.value.status == 429 and "restart" in str(info.value)
    with pytest.raises(ValueError, match="dice_left"):                     # refused input is not a variant
        advise_json({"dice_left": 9, "yarn_value": 4}, boards)
    assert len(boards.variants["A"]) == 3


def test_every_solver_option_bonus_included_counts_toward_the_variant_cap(monkeypatch):
    """Issue 46: a request that differs only in ``bonus`` (or ``yarn_tokens``) is another solver variant: it
    counts toward MAX_VARIANTS, so switching bonus modes cannot get around the cap."""
    from pyradice_lab import web

    boards = web.Boards("A")
    real_frame = advise("A", dice_left=5)
    monkeypatch.setattr(advisor, "advise", lambda *a, **k: real_frame)
    monkeypatch.setattr("pyradice_lab.purramid.desk.MAX_VARIANTS", 2)
    advise_json({"dice_left": 5, "bonus": "auto"}, boards)
    advise_json({"dice_left": 5, "bonus": "exact"}, boards)
    assert len(boards.variants["A"]) == 2
    for other in ({"bonus": "none"}, {"bonus": "auto", "yarn_tokens": False}):
        with pytest.raises(web.RequestError) as info:
            advise_json({"dice_left": 5, **other}, boards)
        assert info.value.status == 429


def test_warming_up_answers_503_with_retry_after():
    from pyradice_lab import web

    app = create_app("A")
    boards = app.state.boards
    boards.warming.add("A")
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        r = c.post("/api/advise", json={"dice_left": 5})
        assert r.status_code == 503 and "warming up" in r.json()["error"]
        assert r.headers["retry-after"] == str(web.WARM_RETRY_AFTER)
        assert c.post("/api/advise", json={"layout": "B", "dice_left": 5}).status_code == 200
        t = web.warm_up(boards)                     # the real warm-up clears the flag when it is done
        t.join(120)
        assert not t.is_alive() and "A" not in boards.warming and "A" in boards.solved
        assert c.post("/api/advise", json={"dice_left": 5}).status_code == 200


def test_the_page_says_when_the_server_warms_up():
    from importlib import resources

    js = resources.files("pyradice_lab.web").joinpath("static", "advisor.js").read_text()
    assert "res.status === 503" in js and "Retry-After" in js and "warming up" in js


def _free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live_server():
    """The real ``serve`` (uvicorn with its timeouts) in a child process, warm-up off, on a free port."""
    import subprocess
    import sys
    import time

    import httpx

    port = _free_port()
    code = ("import sys; from pyradice_lab import web; web.READ_TIMEOUT = 1.5; "
            "web.serve('A', port=int(sys.argv[1]), warm=False, log_level='warning')")
    proc = subprocess.Popen([sys.executable, "-c", code, str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read()
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/layout", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start in 60 s"
                time.sleep(0.2)
        yield port, proc
    finally:
        proc.terminate()
        try:
            proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def _closed_within(sock, seconds: float) -> bool:
    import time

    sock.settimeout(0.5)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if sock.recv(4096) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


@pytest.mark.slow
def test_hung_sockets_are_closed_and_disconnects_logged_in_one_line(live_server):
    import socket

    import httpx

    port, proc = live_server
    silent = socket.create_connection(("127.0.0.1", port))
    half_head = socket.create_connection(("127.0.0.1", port))
    half_head.sendall(b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    half_body = socket.create_connection(("127.0.0.1", port))
    half_body.sendall(b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{\"dice")
    try:
        # normal requests are still answered meanwhile
        assert httpx.get(f"http://127.0.0.1:{port}/api/layout", timeout=5).status_code == 200
        for s in (silent, half_head, half_body):
            assert _closed_within(s, 8), "a hung connection was not closed"
    finally:
        for s in (silent, half_head, half_body):
            s.close()
    gone = socket.create_connection(("127.0.0.1", port))      # disconnects mid-body
    gone.sendall(b"POST /api/advise HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"di")
    gone.close()
    assert httpx.get(f"http://127.0.0.1:{port}/api/layout", timeout=5).status_code == 200
    proc.terminate()
    _, err = proc.communicate(timeout=20)
    assert "Traceback" not in err and "ClientDisconnect" not in err, err


@pytest.mark.slow
def test_loopback_load_eight_clients_fixed_count(live_server):
    """8 clients x 6 requests on the real server: every answer 200 and equal to advise; stops by itself."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    port, _ = live_server
    states = [_body(s) for s in STATES[:3]]
    expected = [advise("A", **s)["action"].iloc[0] for s in STATES[:3]]

    def client_run(i):
        got = []
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as c:
            for j in range(6):
                k = (i + j) % len(states)
                r = c.post("/api/advise", json=states[k])
                got.append((r.status_code, r.json()["best"]["action"] if r.status_code == 200 else r.text, k))
        return got

    with ThreadPoolExecutor(8) as pool:
        results = [x for chunk in pool.map(client_run, range(8)) for x in chunk]
    assert len(results) == 48
    for status, action, k in results:
        assert status == 200, action
        assert action == expected[k]
