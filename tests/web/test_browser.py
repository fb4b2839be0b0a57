"""The web companion in a real headless Chromium (Debian's chromium + chromium-driver; .ci/run installs them).

Selenium drives the system's chromedriver (Service(executable_path=…): Selenium Manager downloads nothing).
Loads every page, steps a replay with the keyboard, follows a live table while its moves are written, checks
that the Chinese text is drawn with the page's own font, and saves the screenshots of docs/img (phone width
550 px, desktop 1280 px) when JXBOT_WEB_SCREENSHOTS names a directory.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason="chromium and chromium-driver are not installed")

SHOTS = os.environ.get("JXBOT_WEB_SCREENSHOTS")


class Site:
    """The web app over a played database, served from a thread with its own event loop."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.port = 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(60)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        self.ready.set()
        self.loop.run_forever()

    async def _start(self) -> None:
        from jxbot.web.app import WebConfig
        from jxbot.web.server import WebServer
        from tests.web.helpers import LiveTable, played_store

        self.store = await played_store(self.path)
        self.live = LiveTable(self.store)
        await self.live.open(20)
        self.server = WebServer(self.store, WebConfig(secret="browser-secret-0123456789", rate=0, poll=0.1))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        await self.server.start("127.0.0.1", port)
        self.port = port

    def call(self, coro, timeout: float = 30):  # type: ignore[no-untyped-def]
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        async def stop() -> None:
            await self.server.stop()
            await self.store.close()

        self.call(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    s = Site(str(tmp_path_factory.mktemp("web") / "played.sqlite3"))
    yield s
    s.close()


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="jxbot-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM  # type: ignore[assignment]
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}", "--window-size=550,1000", "--hide-scrollbars"):
        opts.add_argument(arg)
    drv = webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)
    drv.set_page_load_timeout(60)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _wait(drv, cond, timeout: float = 20.0):  # type: ignore[no-untyped-def]
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(drv, timeout, poll_frequency=0.1).until(cond)


def _fonts_ready(drv) -> None:  # type: ignore[no-untyped-def]
    _wait(drv, lambda d: d.execute_script("return document.fonts.status === 'loaded' && "
                                          "Array.from(document.images).every(i => i.complete)"))


def _shot(drv, name: str, width: int) -> None:  # type: ignore[no-untyped-def]
    if not SHOTS:
        return
    drv.set_window_size(width, 1000)
    _fonts_ready(drv)
    height = drv.execute_script("return document.documentElement.scrollHeight")
    drv.set_window_size(width, min(max(600, int(height)), 2400))
    time.sleep(0.2)
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    drv.save_screenshot(str(Path(SHOTS) / f"web-{name}.png"))


def test_every_page_loads_with_its_own_font(site, browser):
    for path, name in (("/g/5", "guild"), ("/g/5/p/101", "profile"), ("/h/0123456789ab-2?step=40&seat=0", "replay"),
                       ("/t/tbl1", "live"), ("/", None)):
        browser.get(site.url + path)
        _fonts_ready(browser)
        # the page's web font is loaded and used (this machine's Chromium has no CJK font of its own)
        assert browser.execute_script("return Array.from(document.fonts).some(f => "
                                      "f.family.replace(/\"/g, '') === 'JxbotUI' && f.status === 'loaded')")
        assert browser.execute_script("return getComputedStyle(document.body).fontFamily").replace('"', "").startswith(
            "JxbotUI")
        errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
        assert not errors, errors  # no CSP violation, no failed load
        if name and SHOTS:  # the phone in Chinese, the desktop in English
            sep = "&" if "?" in path else "?"
            browser.get(site.url + path + sep + "lang=zh")
            _shot(browser, f"{name}-phone", 550)
            browser.get(site.url + path + sep + "lang=en")
            _shot(browser, f"{name}-desktop", 1280)
            browser.set_window_size(550, 1000)


def test_step_a_replay_with_the_keyboard(site, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(site.url + "/h/0123456789ab-1?step=3&seat=1&lang=en")
    assert "Move 3 of" in browser.find_element(By.ID, "step").text
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    _wait(browser, lambda d: "step=4" in d.current_url)
    assert "Move 4 of" in browser.find_element(By.ID, "step").text
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    _wait(browser, lambda d: "step=3" in d.current_url)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    _wait(browser, lambda d: "result" in d.page_source and "step=3" not in d.current_url)
    assert browser.find_elements(By.CSS_SELECTOR, 'img[src*="result.png"]')
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
    _wait(browser, lambda d: "step=0" in d.current_url)
    assert "Move 0 of" in browser.find_element(By.ID, "step").text


def test_follow_a_live_table_while_it_plays(site, browser):
    from selenium.webdriver.common.by import By

    browser.get(site.url + "/t/tbl1?lang=en")
    _fonts_ready(browser)
    first = browser.find_element(By.ID, "live-pic").get_attribute("src")
    versions = {browser.execute_script("return document.body.dataset.version || ''")}
    for _ in range(6):
        site.call(site.live.play(2, every=0.05))
        _wait(browser, lambda d: d.execute_script("return document.body.dataset.version || ''") not in versions, 15)
        versions.add(browser.execute_script("return document.body.dataset.version"))
    # the pictures follow as they are drawn (once per table, in a low-priority lane: slower on a loaded machine)
    _wait(browser, lambda d: "/img/t/" in d.find_element(By.ID, "live-pic").get_attribute("src")
          and d.find_element(By.ID, "live-pic").get_attribute("src") != first, 60)
    # everything the page was sent is public: the running hand's wall and salt appear nowhere
    seen = browser.page_source + str(browser.execute_script("return performance.getEntries().map(e => e.name)"))
    for secret in site.live.secrets:
        assert secret not in seen
    # the picture shown is a step a spectator may see, never the current move
    src = browser.find_element(By.ID, "live-pic").get_attribute("src")
    shown = int(src.split("/")[-1].split(".")[0])
    from jxbot.watch_view import MOVE_TYPES

    assert shown <= sum(e["type"] in MOVE_TYPES for e in site.live.events[:site.live.written]) - 2
