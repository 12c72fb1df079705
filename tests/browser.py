"""Helpers of the browser tests: the app on a free loopback port (uvicorn in a thread) and headless Chromium
(Debian's ``chromium`` + ``chromium-driver``) driven by selenium, skipped with the reason when either is missing
(``.ci/run`` installs them with apt-get where it can)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from contextlib import contextmanager

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver", "/usr/lib/chromium/chromedriver")


def find(names):
    for n in names:
        p = shutil.which(n) or (n if os.path.isabs(n) and os.access(n, os.X_OK) else None)
        if p:
            return p
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(app):
    """``app`` served by uvicorn on 127.0.0.1 in a thread; yields the page's URL, stops it on exit."""
    import uvicorn

    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start in 30 s"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        srv.should_exit = True
        thread.join(10)


@contextmanager
def chromium():
    """A headless Chromium webdriver (pytest.skip when the browser, its driver or selenium is missing)."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
    from selenium.common.exceptions import WebDriverException

    binary, driver_path = find(BROWSERS), find(DRIVERS)
    if binary is None or driver_path is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium chromium-driver; .ci/run does "
                    "this where apt-get is available)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1000", "--no-first-run", "--disable-extensions"):
        opts.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver_path), options=opts)
    except WebDriverException as exc:
        pytest.skip(f"headless Chromium did not start: {' '.join(str(exc).split())[:300]}")
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def click(driver, css: str, tries: int = 5) -> None:
    """Click the first element matching ``css``; the pages redraw their SVG when an answer arrives, so an
    element found just before a redraw is stale: find it again (a loaded machine made this a flake, not a
    failure of the page)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    for attempt in range(tries):
        try:
            driver.find_element(By.CSS_SELECTOR, css).click()
            return
        except StaleElementReferenceException:
            if attempt == tries - 1:
                raise
            time.sleep(0.1)
