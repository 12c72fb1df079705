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
from pyradice_lab.purramid.web import MAX_BODY, advise_json, create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")

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
    with TestClient(create_app("A")) as c:
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
    assert client.post("/api/advise", content=b"not json").status_code == 400
    r = client.post("/api/advise", json=[1, 2])
    assert r.status_code == 400 and "JSON object" in r.json()["error"]
    r = client.post("/api/advise", json={"engine": "python"})
    assert r.status_code == 400 and "'engine'" in r.json()["error"]
    r = client.post("/api/advise", json={"components": "/tmp/x.toml"})
    assert r.status_code == 400 and "'components'" in r.json()["error"]
    r = client.post("/api/advise", content=b"[" * 5000 + b"]" * 5000)
    assert r.status_code == 400
    r = client.post("/api/advise", content=b" " * (MAX_BODY + 1))
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
    from pyradice_lab.purramid.web import Boards

    p = tmp_path / "tiny.toml"
    p.write_text('name = "tiny"\n[rows]\nvalue = [[2, 10, 6], [8, 3, 4], [12, 5]]\nsource = "designer"\n')
    boards = Boards(str(p))
    assert boards.default == "tiny" and list(boards.layouts) == ["A", "B", "tiny"]
    got = advise_json({"layout": "tiny", "dice_left": 1, "turn_dice": 1, "roll": [2]}, boards)
    assert got["best"]["action"] == advise(str(p), dice_left=1, turn_dice=1, roll=[2])["action"].iloc[0]


def test_one_solve_at_a_time_per_board(monkeypatch):
    """Same board: requests wait for each other; different boards: they run side by side."""
    from pyradice_lab.purramid.web import Boards

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
