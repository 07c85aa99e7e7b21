"""Browser tests: the real server (in a thread, with an injectable clock) and headless Chromium
driven by Playwright. Screenshots of the game page are saved under test-artifacts/."""
from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from superchess.server.app import create_app  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


class FakeTime:
    """Milliseconds that move only when a test says so (plus the real time since creation, so
    clocks tick normally unless advanced)."""

    def __init__(self) -> None:
        self.offset = 0

    def __call__(self) -> int:
        return int(time.time() * 1000) + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += int(seconds * 1000)


class LiveServer:
    def __init__(self, tmp: Path) -> None:
        self.time = FakeTime()
        self.app = create_app(tmp / "data", now=self.time)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def check_clocks(self) -> None:
        hub = self.app.state.services.hub
        asyncio.run_coroutine_threadsafe(hub.check_clocks(), hub.loop).result(10)


@pytest.fixture()
def server(tmp_path):
    with LiveServer(tmp_path) as s:
        yield s


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-quic"])
        yield b
        b.close()


def watch_for_page_errors(page, problems: list[str]) -> None:
    """Collect what must never happen on our pages: a Content-Security-Policy violation (the
    server's CSP allows no inline script or style) and an uncaught script error."""
    page.on("console", lambda msg: problems.append(f"{page.url}: {msg.text}")
            if msg.type == "error" and "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda error: problems.append(f"{page.url}: uncaught {error}"))


@pytest.fixture()
def two_players(browser, server):
    """Two separate browser contexts (two people), each with its own cookies; the test fails if
    either page violates the CSP or throws."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 1000}) for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    problems: list[str] = []
    for page in pages:
        watch_for_page_errors(page, problems)
    yield pages
    for c in contexts:
        c.close()
    assert not problems, problems


@pytest.fixture()
def desktop(browser):
    """One page in a 1366 x 768 window; the test fails if it violates the CSP or throws."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    problems: list[str] = []
    watch_for_page_errors(page, problems)
    yield page
    context.close()
    assert not problems, problems


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
