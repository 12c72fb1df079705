"""The advisor page in a real browser: headless Chromium (Debian's ``chromium`` + ``chromium-driver``) driven
by selenium.  Skipped, with the reason, when selenium or the browser is missing (``.ci/run`` installs them
with apt-get where it can).  Set ``PYRADICE_LAB_SCREENSHOT=path.png`` to keep the screenshot (the README's
picture is made this way); it is always saved under the test's temporary folder."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/browser.py
from browser import chromium, click, serving  # noqa: E402

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from pyradice_lab.purramid import load_layout  # noqa: E402
from pyradice_lab.purramid.advisor import advise  # noqa: E402
from pyradice_lab.web import advise_json, create_app  # noqa: E402

pytestmark = pytest.mark.slow

# the state clicked: tiles on the bottom row's first four spaces, dice on the "8" resting on them, a roll of 3
COVERED = [(0, 0), (0, 1), (0, 2), (0, 3)]
PLACED = [(1, 2)]
ROLL = [6, 2, 5]


@pytest.fixture(scope="module")
def server():
    app = create_app("A")
    L = load_layout("A")
    assert L.number(PLACED[0]) == 8
    # solve the board first (the first solve compiles; the page would show its spinner meanwhile)
    advise_json({"covered": [list(s) for s in COVERED], "placed": [list(s) for s in PLACED], "dice_left": 3},
                app.state.boards)
    with serving(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with chromium() as driver:
        yield driver


def _space(driver, s):
    return driver.find_element(By.CSS_SELECTOR, f'g.space[data-space="{s[0]},{s[1]}"]')


def _click_space(driver, s):
    click(driver, f'g.space[data-space="{s[0]},{s[1]}"]')


def test_page_answers_like_advise(browser, server, tmp_path):
    d = browser
    d.get(server)
    wait = WebDriverWait(d, 60)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'g.space[data-space="0,0"]'))
    wait.until(lambda d: d.execute_script("return document.body.dataset.answered || ''"))
    assert len(d.find_elements(By.CSS_SELECTOR, "g.space")) == load_layout("A").n_spaces
    for s in COVERED:
        _click_space(d, s)
    d.find_element(By.ID, "mode-placed").click()
    for s in PLACED:
        _click_space(d, s)
    assert d.find_element(By.ID, "dice-left").get_attribute("value") == "3"   # the 8 holds at least 2 dice
    for v in ROLL:
        d.find_element(By.ID, f"die-{v}").click()

    def answered_roll(d):
        sent = d.execute_script("return document.body.dataset.answered || ''")
        return json.loads(sent) if sent and '"roll"' in sent else None

    sent = wait.until(answered_roll)
    assert sorted(map(tuple, sent["covered"])) == COVERED and sent["placed"] == [list(s) for s in PLACED]
    assert sent["roll"] == ROLL and sent["dice_left"] == 3
    assert not d.find_element(By.ID, "error").is_displayed()

    expected = advise("A", COVERED, PLACED, dice_left=3, roll=ROLL)
    top = expected.iloc[0]
    rows = d.find_elements(By.CSS_SELECTOR, "#options tbody tr")     # the whole ranking, folded away
    assert 0 < len(rows) <= len(expected)                           # placements alike are one row
    cells = [c.get_attribute("textContent") for c in rows[0].find_elements(By.TAG_NAME, "td")]
    assert float(cells[2]) == pytest.approx(top["value"], abs=5e-3)    # shown to 2 decimals
    headline = d.find_element(By.ID, "rec-headline").text
    assert headline.startswith("Best: ") and f"{top['value']:.2f} expected tiles this turn" in headline
    if top["space"] is not None:
        best = d.find_elements(By.CSS_SELECTOR, "g.space.best")
        assert [b.get_attribute("data-space") for b in best] == [f"{top['space'][0]},{top['space'][1]}"]
        r, c = top["space"]    # named as on the board: its number, the row from the bottom, the place from the left
        assert f"on the {top['number']} (" in cells[1] and f"{c + 1}" in cells[1].split("(")[1]
        assert ("then stop" in headline.split("Runner-up")[0]) == (top["then"] == "stop")
    for s in COVERED:
        assert "covered" in _space(d, s).get_attribute("class")
    shot = tmp_path / "purramid_advisor.png"
    assert d.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    keep = os.environ.get("PYRADICE_LAB_SCREENSHOT")
    if keep:
        shutil.copyfile(shot, keep)
