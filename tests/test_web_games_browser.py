"""The table companion page in a real browser, one test per game besides Purramid's (tests/purramid/): pick the
game, set a position by clicking its SVG table, and check the page's top option against the game's ``advise``
on the position the page sent (headless Chromium through selenium; skipped with the reason when missing)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # tests/browser.py
from browser import chromium, click, serving  # noqa: E402

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from pyradice_lab.web import create_app  # noqa: E402

pytestmark = pytest.mark.slow


_APP = {}


@pytest.fixture(scope="module")
def server():
    app = _APP["app"] = create_app("A")
    for desk in app.state.desks.values():       # compile every engine first (the page would say it warms up)
        desk.advise(desk.warm_body())
    with serving(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


def _open(driver, url, game):
    # a new hash alone does not reload the page; a refresh right after get() could abort the load still under
    # way ("timeout: aborted by navigation", seen once under the loaded suite): leave the page first
    driver.get("about:blank")
    driver.get(url + "#" + game)
    wait = WebDriverWait(driver, 120)
    wait.until(lambda d: d.execute_script("return document.body.dataset.tableGame || ''") == game)
    return wait


def _answered(driver):
    sent = driver.execute_script("return document.body.dataset.tableAnswered || ''")
    return json.loads(sent) if sent else None


def _after_change(wait, before):
    """The body the page sent once its answer to a new position has arrived."""
    return wait.until(lambda d: (lambda s: s if s and s != before else None)(_answered(d)))


def _top_row(driver):
    rows = driver.find_elements(By.CSS_SELECTOR, "#table-options tbody tr")
    assert rows and not driver.find_element(By.ID, "table-error").is_displayed()
    return [c.text for c in rows[0].find_elements(By.TAG_NAME, "td")], len(rows)


def test_meerkat_page_answers_like_advise(browser, server):
    from pyradice_lab.meerkat.advisor import advise

    d = browser
    wait = _open(d, server, "meerkat")
    first = _answered(d)
    assert len(d.find_elements(By.CSS_SELECTOR, "g.tile")) == 10
    click(d, 'g.tile[data-tile="9"]')               # p0 puts a meerkat on tile 9
    sent = _after_change(wait, first)
    click(d, "#mk-die-0")                           # and the first die turns one pip
    sent = _after_change(wait, sent)
    assert sent["position"]["seat"][0]["meerkats"].get("9") == 1
    assert sent["position"]["roll"][0] == first["position"]["roll"][0] % 6 + 1
    expected = advise(sent["position"], objective=sent["objective"], policy="expectimax_v2")   # the desk's player
    cells, n = _top_row(d)
    assert n == len(expected)
    assert cells[1] == expected["option"].iloc[0]
    assert float(cells[2]) == pytest.approx(expected["value"].iloc[0], abs=5e-4)
    assert d.find_element(By.ID, "table-note").text.startswith("ranked by: expectimax_v2 (the report player mcts_v2")


def test_raft_page_answers_like_advise(browser, server):
    from pyradice_lab.raft.advisor import advise

    d = browser
    wait = _open(d, server, "raft")
    first = _answered(d)
    assert len(d.find_elements(By.CSS_SELECTOR, "g.cell")) == 9
    Select(d.find_element(By.ID, "rf-mode")).select_by_value("remove")
    click(d, 'g.cell[data-cell="1,1"]')             # a red gem less in the centre (every gem is on the raft)
    sent = _after_change(wait, first)
    assert sent["position"]["raft"][1][1] != first["position"]["raft"][1][1]
    expected = advise(sent["position"], objective=sent["objective"])
    top = expected.iloc[0]
    cells, n = _top_row(d)
    assert n == len(expected) == 110
    assert cells[1].split() == [top["edge"], top["finger"], f"{float(top['duration']):g}", "s"]
    assert float(cells[2]) == pytest.approx(top["value"], abs=5e-4)
    best = d.find_elements(By.CSS_SELECTOR, "line.edge.best")
    assert [b.get_attribute("data-edge") for b in best] == [top["edge"]]


def test_pyradice_page_answers_like_advise(browser, server):
    from pyradice_lab.pyradice.advisor import advise

    d = browser
    wait = _open(d, server, "pyradice")
    first = _answered(d)
    click(d, "g.die.available")                     # take an available die ...
    click(d, "g.space2.legal")                      # ... and put it on the mover's pyramid
    sent = _after_change(wait, first)
    pos = sent["position"]
    assert pos["to_move"] != first["position"]["to_move"]
    assert sum(row.count(".") for rows in pos["quarry"].values() for row in rows) == 1
    expected = advise(pos, samples=sent["samples"], candidates=sent["candidates"], rng=sent["seed"])
    cells, _ = _top_row(d)
    assert cells[1] == expected["option"].iloc[0]
    assert float(cells[2].split(" ± ")[0]) == pytest.approx(expected["value"].iloc[0], abs=5e-4)
    # the recommended move, played from the page, is the next position
    click(d, "#table-play")
    nxt = _after_change(wait, sent)["position"]
    assert sum(row.count(".") for rows in nxt["quarry"].values() for row in rows) == 2
    assert nxt["to_move"] == 3 - pos["to_move"] or pos["players"] > 2     # seats 1 and 2


def test_a_new_game_seed_loads_that_games_position(browser, server):
    d = browser
    wait = _open(d, server, "raft")
    first = _answered(d)
    box = d.find_element(By.ID, "table-seed")
    box.clear()
    box.send_keys("11")
    click(d, "#table-new")
    sent = _after_change(wait, first)
    from pyradice_lab.raft.advisor import position_from_game

    assert sent["position"] == position_from_game(11, 1, players=3).document()


def test_meerkat_page_loads_a_turn_of_a_seeded_game_then_clicks_it(browser, server):
    from pyradice_lab.meerkat.advisor import advise, position_from_game

    d = browser
    wait = _open(d, server, "meerkat")
    first = _answered(d)
    for box, value in (("table-seed", "1"), ("table-turn", "4")):
        e = d.find_element(By.ID, box)
        e.clear()
        e.send_keys(value)
    Select(d.find_element(By.ID, "table-stage")).select_by_value("action")
    click(d, "#table-new")
    sent = _after_change(wait, first)
    assert sent["position"] == position_from_game(1, 4, players=2, after_reroll=True).document()
    click(d, "#mk-die-1")                           # a die turned: not the seeded game's roll any more
    changed = _after_change(wait, sent)
    assert changed["position"]["roll"][1] == sent["position"]["roll"][1] % 6 + 1
    expected = advise(changed["position"], objective=changed["objective"], policy="expectimax_v2")
    cells, n = _top_row(d)
    assert n == len(expected) and cells[1] == expected["option"].iloc[0]
    assert float(cells[2]) == pytest.approx(expected["value"].iloc[0], abs=5e-4)


def test_pyradice_page_sets_the_quarry_by_clicking(browser, server):
    from pyradice_lab.pyradice.advisor import advise

    d = browser
    wait = _open(d, server, "pyradice")
    first = _answered(d)
    Select(d.find_element(By.ID, "pr-mode")).select_by_value("value")
    click(d, "g.die.available")                     # the die in front of the player shows another value
    sent = _after_change(wait, first)
    Select(d.find_element(By.ID, "pr-mode")).select_by_value("colour")
    click(d, "g.die.available")                     # and another colour
    sent = _after_change(wait, sent)
    pos = sent["position"]
    cells = lambda p: [c for k in ("bottom", "middle", "top") for row in p["quarry"][k] for c in row.split()]  # noqa: E731
    diff = [(a, b) for a, b in zip(cells(first["position"]), cells(pos)) if a != b]
    assert len(diff) == 1 and diff[0][0][0] != diff[0][1][0] and diff[0][0][1] != diff[0][1][1], diff
    assert pos["to_move"] == first["position"]["to_move"]
    expected = advise(pos, samples=sent["samples"], candidates=sent["candidates"], rng=sent["seed"])
    top, _ = _top_row(d)
    assert top[1] == expected["option"].iloc[0]
    assert float(top[2].split(" ± ")[0]) == pytest.approx(expected["value"].iloc[0], abs=5e-4)
    # a die taken off the table without a pyramid to hold it: the server names what does not fit
    Select(d.find_element(By.ID, "pr-mode")).select_by_value("remove")
    click(d, "g.die.available")
    wait.until(lambda d: d.find_element(By.ID, "table-error").is_displayed())
    assert "quarry" in d.find_element(By.ID, "table-error").text


def test_raft_page_sets_the_hand_by_clicking_and_ranks_the_loadings(browser, server):
    from pyradice_lab.raft.advisor import advise

    d = browser
    wait = _open(d, server, "raft")
    first = _answered(d)
    Select(d.find_element(By.ID, "rf-mode")).select_by_value("remove")
    click(d, 'g.cell[data-cell="1,1"]')             # a gem off the centre ...
    sent = _after_change(wait, first)
    Select(d.find_element(By.ID, "rf-mode")).select_by_value("add")
    click(d, "#rf-hand")                            # ... fell into the mover's hand: how to load it?
    sent = _after_change(wait, sent)
    assert sent["position"]["fallen"] not in (None, "-")
    expected = advise(sent["position"], objective=sent["objective"])
    assert expected.attrs["decision"] == "load"
    cells, n = _top_row(d)
    assert n == len(expected) and cells[1] == expected["action"].iloc[0]
    assert float(cells[2]) == pytest.approx(expected["value"].iloc[0], abs=5.01e-4)   # shown to 3 decimals


def test_a_warming_game_shows_how_long_its_solver_has_been_prepared(browser, server):
    """While a game warms up, the page says "preparing the solver: N s so far", counts on and asks again; once
    warm, the answer replaces the message."""
    import re
    import time

    d = browser
    desk = _APP["app"].state.desks["raft"]
    desk.warming, desk.warm_started = True, time.monotonic() - 5
    try:
        d.get("about:blank")
        d.get(server + "#raft")
        wait = WebDriverWait(d, 60)
        spinner = lambda d: d.find_element(By.ID, "table-spinner-text").text  # noqa: E731
        first = wait.until(lambda d: re.search(r"preparing the solver: (\d+) s so far", spinner(d)))
        assert int(first.group(1)) >= 5 and d.find_element(By.ID, "table-spinner").is_displayed()
        later = wait.until(lambda d: (lambda m: m if m and int(m.group(1)) > int(first.group(1)) else None)(
            re.search(r"preparing the solver: (\d+) s so far", spinner(d))))
        assert later
    finally:
        desk.warming = False
    wait.until(lambda d: d.execute_script("return document.body.dataset.tableGame || ''") == "raft")
    assert not d.find_element(By.ID, "table-spinner").is_displayed()
    assert d.find_element(By.ID, "table-note").text.startswith("ranked by: exact")


def test_an_img_on_another_site_starts_no_work(browser, server, caplog):
    """A page of another site (here http://localhost:PORT, another site than 127.0.0.1) that points an ``<img>``
    at the layout endpoint sends no Origin; Chromium's ``Sec-Fetch-Site: cross-site`` gets it refused (403)
    before the desk does anything."""
    import logging
    import time
    from urllib.parse import urlsplit

    from browser import serving
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    target = server + "api/meerkat/layout?seed=9&players=3&turn=5"

    async def hostile(request):
        return HTMLResponse(f'<!doctype html><img id="x" src="{target}" alt="">')

    desk = _APP["app"].state.desks["meerkat"]
    calls = []
    desk.layout = lambda q, _orig=desk.layout: (calls.append(q), _orig(q))[1]
    caplog.set_level(logging.INFO, logger="pyradice_lab.web")
    try:
        with serving(Starlette(routes=[Route("/", hostile)])) as other:
            port = urlsplit(other).port
            browser.get(f"http://localhost:{port}/")
            WebDriverWait(browser, 30).until(
                lambda d: d.execute_script("return document.getElementById('x').complete"))
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not any("cross-site" in r.getMessage() for r in caplog.records):
                time.sleep(0.2)
    finally:
        del desk.layout
    refused = [r.getMessage() for r in caplog.records if "refused GET /api/meerkat/layout" in r.getMessage()]
    assert refused and "cross-site" in refused[0] and "(403)" in refused[0], caplog.text
    assert calls == []
