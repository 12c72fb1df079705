"""The table companion's endpoints for every registered game (in-process, Starlette's test client): the server
builds its desks from the registry (no game named in web/), answers equal each game's ``advise``, every field is
validated (the position by the game's own ``load_position``, naming the key), numbers are bounded, and the
server's hardening covers every route."""

from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="starlette's test client needs httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from pyradice_lab.engine import registry  # noqa: E402
from pyradice_lab.pyradice.desk import MAX_ROLLOUTS  # noqa: E402
from pyradice_lab.web import GAMES, create_app  # noqa: E402


@pytest.fixture(scope="module")
def app():
    return create_app("A")


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        yield c


@pytest.fixture(scope="module")
def layouts(client):
    return {g: client.get(f"/api/{g}/layout").json() for g in ("meerkat", "raft", "pyradice")}


def test_every_game_has_a_layout_and_the_picker_lists_them(client, layouts):
    assert [g["game"] for g in client.get("/api/games").json()["games"]] == list(GAMES)
    assert client.get("/api/purramid/layout").json() == client.get("/api/layout").json()
    assert len(layouts["meerkat"]["tiles"]) == 10 and layouts["meerkat"]["rows"] == [3, 4, 3]
    assert set(layouts["raft"]["fingers"]) == {"north", "east", "south", "west"}
    assert len(layouts["raft"]["position"]["raft"]) == 3
    py = layouts["pyradice"]
    assert py["n"] == len(py["dice"]) == 47 and len(py["spaces"]) == 21
    assert client.get("/api/pyradice/layout?players=3").json()["n"] == 92
    for query, word in [("seed=-1", "seed"), ("players=9", "players"), ("path=x", "path"), ("seed=abc", "seed")]:
        r = client.get(f"/api/raft/layout?{query}")
        assert r.status_code == 400 and word in r.json()["error"], query
    assert client.get("/api/chess/layout").status_code == 404
    assert client.post("/api/chess/advise", json={}).status_code == 404


def test_meerkat_answer_equals_advise(client, layouts):
    from pyradice_lab.meerkat.advisor import advise

    doc = layouts["meerkat"]["position"]
    for objective in ("margin", "points"):
        got = client.post("/api/meerkat/advise", json={"position": doc, "objective": objective}).json()
        df = advise(doc, objective=objective)
        assert [o["option"] for o in got["options"]] == df["option"].tolist()
        assert got["best"]["value"] == pytest.approx(df["value"].iloc[0])
        assert got["decision"] == "reroll" and got["best"]["keep"] == int(df["keep"].iloc[0])
    doc = dict(doc, stage="action")
    got = client.post("/api/meerkat/advise", json={"position": doc}).json()
    assert got["decision"] == "action" and got["best"]["option"] == advise(doc)["option"].iloc[0]


def test_raft_answer_equals_advise(client, layouts):
    from pyradice_lab.raft.advisor import advise

    doc = layouts["raft"]["position"]
    got = client.post("/api/raft/advise", json={"position": doc, "objective": "completed"}).json()
    df = advise(doc, objective="completed")
    assert len(got["options"]) == len(df) == 110
    top = df.iloc[0]
    assert (got["best"]["edge"], got["best"]["finger"], got["best"]["duration"]) == \
        (top["edge"], top["finger"], float(top["duration"]))
    assert got["best"]["value"] == pytest.approx(top["value"])


def test_pyradice_answer_equals_advise_with_the_same_seed(client, layouts):
    from pyradice_lab.pyradice.advisor import advise

    doc = layouts["pyradice"]["position"]
    got = client.post("/api/pyradice/advise", json={"position": doc, "samples": 8, "candidates": 4, "seed": 5}).json()
    df = advise(doc, samples=8, candidates=4, rng=5)
    assert got["moves"] == len(df) and [o["option"] for o in got["options"]] == df["option"].head(30).tolist()
    assert got["best"]["value"] == pytest.approx(df["value"].iloc[0]) and got["best"]["se"] is not None
    assert got["options"][-1]["value"] is None            # not sampled: null, not NaN (JSON has no NaN)
    after = got["best"]["after"]
    assert after["values"][got["best"]["place"]] > 0 and sum(v > 0 for v in after["values"]) == 1


@pytest.mark.parametrize("game, change, word", [
    ("meerkat", lambda d: d["seat"][0].update(supply=3), "seat.1"),
    ("meerkat", lambda d: d.update(roll=[1, 2, 9]), "roll[2]"),
    ("raft", lambda d: d["seat"][1]["boats"][0].update(card=999), "seat.2.boats[0].card"),
    ("raft", lambda d: d.update(players=7), "players"),
    ("pyradice", lambda d: d["quarry"]["top"].pop(), "quarry.top"),
    ("pyradice", lambda d: d["setup"].update(discs=["red", "red", "red", "pink"]), "setup.discs[3]"),
])
def test_a_bad_position_is_answered_400_naming_the_key(client, layouts, game, change, word):
    import copy

    doc = copy.deepcopy(layouts[game]["position"])
    change(doc)
    r = client.post(f"/api/{game}/advise", json={"position": doc})
    assert r.status_code == 400 and word in r.json()["error"], r.json()


@pytest.mark.parametrize("game, extra, word", [
    ("meerkat", {"objective": "tiles"}, "objective"),
    ("meerkat", {"policy": "mcts"}, "policy"),
    ("raft", {"objective": "win"}, "objective"),
    ("raft", {"policy": "sampled"}, "policy"),                     # not offered by the page: unknown field
    ("pyradice", {"samples": 10 ** 6}, "samples"),
    ("pyradice", {"samples": True}, "samples"),
    ("pyradice", {"candidates": 99}, "candidates"),
    ("pyradice", {"samples": 512, "candidates": 16}, "samples x candidates"),
    ("pyradice", {"seed": -3}, "seed"),
    ("pyradice", {"layout": "A"}, "layout"),
])
def test_options_are_bounded_before_any_work(client, layouts, game, extra, word):
    r = client.post(f"/api/{game}/advise", json={"position": layouts[game]["position"], **extra})
    assert r.status_code == 400 and word in r.json()["error"], r.json()
    assert 512 * 16 > MAX_ROLLOUTS


def test_request_shape_is_checked(client):
    for body in ([1, 2], "x", {"position": 3}, {}):
        r = client.post("/api/raft/advise", json=body)
        assert r.status_code == 400, body
    r = client.post("/api/raft/advise", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = client.post("/api/meerkat/advise", content=b"x" * 20_000, headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_the_hardening_covers_the_new_routes(client, layouts):
    doc = layouts["raft"]["position"]
    r = client.post("/api/raft/advise", content=b'{"position": {}}', headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/raft/advise", json={"position": doc}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    r = client.get("/api/pyradice/layout", headers={"host": "evil.example"})
    assert r.status_code == 400
    r = client.post("/api/raft/advise", json={"position": doc}, headers={"origin": "http://127.0.0.1:8000"})
    assert r.status_code == 200 and "default-src 'self'" in r.headers["content-security-policy"]


def test_warming_up_answers_503_with_retry_after(app, client, layouts):
    from pyradice_lab import web

    desk = app.state.desks["pyradice"]
    desk.warming = True
    try:
        r = client.post("/api/pyradice/advise", json={"position": layouts["pyradice"]["position"]})
        assert r.status_code == 503 and "warming up" in r.json()["error"]
        assert r.headers["retry-after"] == str(web.WARM_RETRY_AFTER)
    finally:
        desk.warming = False
    t = web.warm_desks({"pyradice": desk})
    t.join(120)
    assert not t.is_alive() and not desk.warming and desk.solved


def test_the_page_lists_the_games_the_server_offers_without_internet(client):
    page = client.get("/").text
    assert 'id="games"' in page and "data-game=" not in page          # the picker is built from /api/games
    js = client.get("/tables.js")
    assert js.status_code == 200 and "/api/games" in js.text
    assert "res.status === 503" in js.text and "Retry-After" in js.text
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", js.text)
    assert "window.gameViews" in client.get("/advisor.js").text


def test_every_registered_game_declares_a_desk_and_is_served(app, client):
    """The desks come from the registry: one per game that declares ``desk.DESK``, in the registry's order, each
    built on the engine's Desk; every one answers its layout and an advise of the layout's own position."""
    from pyradice_lab.engine.desk import Desk

    declared = [name for name, spec in registry.games().items() if spec.has_part("desk")]
    assert list(GAMES) == declared == list(app.state.desks)
    assert {"purramid", "pyradice", "raft", "meerkat"} <= set(declared)
    for name, desk in app.state.desks.items():
        assert isinstance(desk, Desk) and desk.name == name and desk.title == registry.get_game(name).title
        doc = client.get(f"/api/{name}/layout").json()["position"]
        r = client.post(f"/api/{name}/advise", json={"position": doc, **({"samples": 4, "candidates": 2}
                                                                          if "samples" in desk.fields else {})})
        assert r.status_code == 200, (name, r.json())
        got = r.json()
        assert got["best"] == got["options"][0] and "decision" in got and "objective" in got


def test_the_purramid_desk_answers_a_position_like_advise(client):
    from pyradice_lab.purramid.advisor import advise, load_position, position_from_game

    lay = client.get("/api/purramid/layout?seed=7&players=3&turn=3").json()
    pos = position_from_game(7, 3, players=3)
    assert lay["position"] == pos.to_dict()
    got = client.post("/api/purramid/advise", json={"position": lay["position"]}).json()
    df = advise(load_position(lay["position"]))
    assert [o["action"] for o in got["options"]] == df["action"].tolist()
    assert got["best"]["value"] == pytest.approx(df["value"].iloc[0], abs=1e-12)
    assert got["decision"] == "placement" and got["game"] == "purramid"
    # the keyword form of the same table, through the old route, answers the same
    old = client.post("/api/advise", json={"covered": lay["position"]["covered"], "roll": list(pos.roll),
                                           "yarn": pos.yarn[pos.seat]}).json()
    assert [o["action"] for o in old["options"]] == df["action"].tolist()
    for doc, word in [(dict(lay["position"], layout="/etc/passwd"), "layout"),
                      (dict(lay["position"], to_move=9), "to_move"),
                      (dict(lay["position"], covered=[[1, 1]]), "player")]:
        r = client.post("/api/purramid/advise", json={"position": doc})
        assert r.status_code == 400 and word in r.json()["error"], r.json()
    r = client.post("/api/purramid/advise", json={"position": lay["position"], "engine": "python"})
    assert r.status_code == 400 and "engine" in r.json()["error"]


def test_web_names_no_game_outside_docstrings():
    """web/ reaches every game through the registry: no game's name in its code (docstrings aside)."""
    import ast
    from pathlib import Path

    import pyradice_lab.web as web

    names = set(registry.games())
    word = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])", re.IGNORECASE)
    for path in Path(web.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                assert not word.search(node.value), (path.name, node.value)
            if isinstance(node, (ast.Name, ast.Attribute, ast.alias)):
                text = getattr(node, "id", None) or getattr(node, "attr", None) or node.name
                assert not word.search(text), (path.name, text)
            if isinstance(node, ast.ImportFrom):
                assert not word.search((node.module or "").replace(".", " ")), (path.name, node.module)


def test_the_old_names_still_resolve():
    from pyradice_lab import web
    from pyradice_lab.purramid import desk as purramid_desk
    from pyradice_lab.web import games

    assert web.advise_json is purramid_desk.advise_json and web.Boards is purramid_desk.Boards
    assert games.DESKS["raft"] is registry.get_game("raft").part("desk")
    assert games.MAX_ROLLOUTS == MAX_ROLLOUTS
    with pytest.raises(AttributeError):
        web.no_such_name  # noqa: B018


@pytest.mark.slow
def test_the_round_trip_script_is_bounded_and_answers_every_game():
    from pyradice_lab.web.roundtrip import main, measure

    res = measure(requests=3, positions=1, samples=4)
    assert list(res) == list(GAMES)
    for r in res.values():
        assert r["n"] == 3 and r["status"] == [200] and 0 < r["p50_ms"] <= r["p95_ms"] <= r["max_ms"]
    with pytest.raises(SystemExit):
        main(["--requests", "0"])


def test_docstring_examples_of_the_web_modules():
    import doctest

    from pyradice_lab.engine import desk
    from pyradice_lab.meerkat import desk as meerkat_desk
    from pyradice_lab.purramid import desk as purramid_desk
    from pyradice_lab.pyradice import desk as pyradice_desk
    from pyradice_lab.raft import desk as raft_desk
    from pyradice_lab.web import games, roundtrip

    for module in (games, roundtrip, desk, meerkat_desk, raft_desk, pyradice_desk, purramid_desk):
        res = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert res.failed == 0


def test_a_layout_replays_the_seeded_game_to_the_turn_and_decision_asked(client):
    from pyradice_lab.meerkat.advisor import position_from_game as meerkat_position
    from pyradice_lab.raft.advisor import position_from_game as raft_position

    got = client.get("/api/meerkat/layout?seed=1&turn=4&stage=action").json()
    assert (got["turn"], got["stage"]) == (4, "action")
    assert got["position"] == meerkat_position(1, 4, players=2, after_reroll=True).document()
    got = client.get("/api/raft/layout?seed=7&turn=3&stage=load").json()
    assert got["position"] == raft_position(7, 3, players=3, after_tilt=True).document()
    assert got["position"]["fallen"] != "-"
    r = client.post("/api/raft/advise", json={"position": got["position"]})
    assert r.status_code == 200 and r.json()["decision"] == "load"
    for game, query, word in [("meerkat", "turn=3", "turn must be a turn at which a player rolls"),
                              ("meerkat", "turn=999", "turn"), ("meerkat", "stage=tilt", "stage"),
                              ("raft", "turn=0", "turn"), ("raft", "stage=reroll", "stage")]:
        r = client.get(f"/api/{game}/layout?seed=1&{query}")
        assert r.status_code == 400 and word in r.json()["error"], (game, query, r.json())


def test_a_desk_holds_its_lock_for_the_whole_computation():
    """Issue 46: Desk.run computes under the desk's lock from start to end (two requests of one desk never
    compute at once: the game engines' scratch state is per desk), and marks the desk solved."""
    import threading
    import time

    from pyradice_lab.engine.desk import Desk

    desk = Desk()
    inside, overlap = [], []

    def work():
        assert desk.lock.locked()
        inside.append(1)
        overlap.append(len(inside))
        time.sleep(0.05)
        inside.pop()
        return "done"

    threads = [threading.Thread(target=desk.run, args=(work,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert overlap == [1, 1, 1, 1] and desk.solved and not desk.lock.locked()
    assert desk.run(lambda: desk.lock.locked()) is True
