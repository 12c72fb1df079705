"""The table companion at the table: every game on a phone (390 x 844) and on a desktop (1280 x 900) in headless
Chromium (Debian's ``chromium`` + ``chromium-driver`` through selenium; skipped with the reason when missing).

For each game and size: open the page, change one element of the position by tapping the picture, wait for the
answer, and check that the one-sentence recommendation is the server's (the desk's ``recommend`` of the same
request), that it is in sight without scrolling, that the page is no wider than the screen, and on the phone that
every control is a touch target of at least 44 px.  Each run saves a screenshot under the test's temporary folder
(the phone's: the whole page);
``PYRADICE_LAB_SCREENSHOTS=docs/img`` keeps them as ``docs/img/table_<game>_<size>.png`` (the guide's pictures).
8 tests, about a minute after the engines are compiled."""

from __future__ import annotations

import base64
import json
import os
import shutil
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

SIZES = {"phone": (390, 844, True), "desktop": (1280, 900, False)}
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


def _answered(d, game):
    """The request body of the page's last answer (the Purramid view keeps its own)."""
    raw = d.execute_script("return document.body.dataset.answered || ''" if game == "purramid" else
                           "return document.body.dataset.tableGame === arguments[0] ? "
                           "(document.body.dataset.tableAnswered || '') : ''", game)
    return json.loads(raw) if raw else None


def _headline(d):
    return d.execute_script("const e = document.getElementById('rec-headline');"
                            "return document.getElementById('rec').hidden || document.getElementById('rec')"
                            ".classList.contains('stale') ? '' : e.textContent")


def _edit(d, game, size):
    """Change one element of the position by tapping the picture."""
    if game == "purramid":
        if size == "phone":                                    # a 2-player game: its covered rows, its hands ...
            Select(d.find_element(By.ID, "players")).select_by_value("2")
            WebDriverWait(d, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "g.space.covered")) == 20)
            Select(d.find_element(By.ID, "winner")).select_by_value("2")        # the other player has won
            Select(d.find_element(By.ID, "gold-placed")).select_by_value("3")   # and placed 3 gold tiles
            d.execute_script("window.scrollTo(0, 0)")      # the roll's buttons clear of the sticky sentence
        else:                                                  # a cat tile, and the race: the next player has
            click(d, 'g.space[data-space="0,0"]')              # 2 tiles left
            Select(d.find_element(By.ID, "objective")).select_by_value("auto")
            for box, tiles in (("hand-1", "3"), ("hand-2", "2")):      # near the end: 3 tiles left, and
                e = d.find_element(By.ID, box)                          # the next player 2
                e.clear()
                e.send_keys(tiles + "\t")
        for v in ROLL:                                         # ... and the roll: where do the dice go?
            click(d, f"#die-{v}")
    elif game == "meerkat" and size == "phone":
        click(d, 'g.tile[data-tile="9"]')                      # a meerkat of seat 1 on tile 9
    elif game == "meerkat":                                    # the oasis token on tile 8 is "tan +3"
        Select(d.find_element(By.ID, "mk-mode")).select_by_value("token")
        Select(d.find_element(By.ID, "mk-token")).select_by_value("tan +3")
        click(d, 'g.tile[data-tile="8"]')
    elif game == "raft" and size == "phone":
        Select(d.find_element(By.ID, "rf-mode")).select_by_value("remove")
        click(d, 'g.cell[data-cell="1,1"]')                    # a gem off the centre of the raft
    elif game == "raft":                                       # the mover's first lifeboat is card #30
        click(d, "#rf-table summary")
        Select(d.find_element(By.ID, "rf-card-2-1")).select_by_value("30")
    elif size == "phone":
        Select(d.find_element(By.ID, "pr-mode")).select_by_value("value")
        click(d, "g.die.available")                            # a die of the quarry turned to another value
    else:                                                      # the goal token of level 1 is another one
        click(d, "#pr-setup summary")
        Select(d.find_element(By.ID, "pr-goal-1")).select_by_value("C5")


GAMES = ("purramid", "pyradice", "raft", "meerkat")
ROLL = (6, 2, 5, 1, 3)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", GAMES)
def test_the_page_recommends_in_one_sentence_at_the_table(browser, server, game, size, tmp_path):
    d = browser
    width, height, mobile = SIZES[size]
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                              "deviceScaleFactor": 1, "mobile": mobile})
    d.get("about:blank")
    d.get(server + "#" + game)
    wait = WebDriverWait(d, 120)
    first = wait.until(lambda d: _answered(d, game) and _headline(d) and _answered(d, game))
    assert d.execute_script("return window.innerWidth") == width
    _edit(d, game, size)
    sent = wait.until(lambda d: (lambda s: s if s and s != first and _headline(d) and (
        game != "purramid" or "roll" in s) else None)(_answered(d, game)))
    shown = _headline(d)
    print(f"\n{game} at {size}: {shown}")

    # the sentence is the server's recommendation of the position the page sent
    desk = _APP["app"].state.desks[game]
    expected = desk.recommend(desk.advise(sent))
    if game == "purramid":
        assert len(sent["covered"]) == (20 if size == "phone" else 1) and sent["roll"] == list(ROLL)
        assert (sent["winner"], sent["gold_placed"]) == ((2, 3) if size == "phone" else (None, 0))
        assert size == "desktop" or ("the next player +3 (has won: 3 of 12 gold tiles placed)" in
                                     d.find_element(By.ID, "scores").text and
                                     d.find_element(By.ID, "hand-2").get_attribute("value") == "0")
        assert size == "phone" or (sent["race"] == {"hands": [3, 2, 18, 17], "seat": 0, "players_yarn": [0, 0, 0, 0]}
                                   and "race" in d.find_element(By.ID, "race").text.lower())
    if game == "raft" and size == "desktop":
        assert [b["card"] for b in sent["position"]["seat"][1]["boats"]] == [30, 1]
    if game == "meerkat" and size == "desktop":
        assert sent["position"]["tokens"]["8"] == "tan +3" and first["position"]["tokens"]["8"] == "blue move"
    if game == "pyradice" and size == "desktop":
        assert sent["position"]["setup"]["goals"][0] == "C5" and first["position"]["setup"]["goals"][0] == "C6"
    assert shown == expected["headline"], (shown, expected["headline"])
    assert shown.startswith("Best: ")
    assert len(expected["options"]) <= len(desk.advise(sent)["options"])
    assert all(o["value_text"] for o in expected["options"])           # a value, or "not searched"

    # in sight without scrolling, the page no wider than the screen
    rect = d.execute_script("const r = document.getElementById('rec-headline').getBoundingClientRect();"
                            "return [r.top, r.bottom, r.left, r.right, window.innerHeight];")
    assert 0 <= rect[0] and rect[1] <= rect[4] and rect[2] >= 0 and rect[3] <= width, rect
    scroll = d.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll[0] <= scroll[1], f"{game} at {size}: the page is {scroll[0]} px wide on a {scroll[1]} px screen"
    # the alternatives are listed, the whole ranking folded away
    alts = d.find_elements(By.CSS_SELECTOR, ".alts ol li")
    shown_alts = [a.text for a in alts if a.is_displayed()]
    assert len(shown_alts) == min(3, len(expected["options"]) - 1)
    ranking = [e for e in d.find_elements(By.CSS_SELECTOR, "details.ranking") if e.is_displayed()]
    assert len(ranking) == 1 and ranking[0].get_attribute("open") is None
    if mobile:   # every control a finger can hit: at least 44 x 44 px (the radio buttons' labels are)
        small = d.execute_script("""
            return [...document.querySelectorAll('button, select, input:not([type=radio]), summary, .mode label')]
              .filter((e) => e.offsetParent !== null && (!e.checkVisibility || e.checkVisibility()))
              .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
              .filter(([, r]) => r.height < 44 || r.width < 44)
              .map(([n, r]) => `${n}: ${Math.round(r.width)} x ${Math.round(r.height)}`);""")
        assert small == [], small
        # the picture's pieces: the zoom makes the smallest one 48 px (or the picture 3 times the screen's width)
        pieces = """return Math.min(...[...document.querySelectorAll('svg [role=button]')].filter((e) =>
                      e.getBoundingClientRect().width > 0).map((e) => { const r = e.getBoundingClientRect();
                      return Math.min(r.width, r.height); }))"""
        before = d.execute_script(pieces)
        zoom = [b for b in d.find_elements(By.CSS_SELECTOR, ".zoom-btn") if b.is_displayed()]
        assert len(zoom) == 1
        zoom[0].click()
        after = d.execute_script(pieces)
        print(f"{game}: smallest piece to tap {before:.0f} px, zoomed {after:.0f} px")
        assert after >= min(44, 2.9 * before), (before, after)
        assert d.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        zoom[0].click()
    shot = tmp_path / f"table_{game}_{size}.png"
    if mobile:      # the whole page, as the phone scrolls through it (the sentence stays at the top)
        d.execute_script("window.scrollTo(0, 0)")
        tall = d.execute_script("return document.documentElement.scrollHeight")
        png = d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                          "clip": {"x": 0, "y": 0, "width": width, "height": tall,
                                                                   "scale": 1}})
        shot.write_bytes(base64.b64decode(png["data"]))
    else:
        assert d.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    keep = os.environ.get("PYRADICE_LAB_SCREENSHOTS")
    if keep:
        shutil.copyfile(shot, Path(keep) / shot.name)
    d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
