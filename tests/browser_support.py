"""The dashboard in a real browser, shared by tests/test_dashboard_browser.py and
scripts/bench_dashboard.py: a Streamlit server on a free port (always stopped), Debian's chromium
through Playwright, tabs that log every request, and the waits that tell when Streamlit has finished
drawing a page.

Every wait ends on a condition, never after a fixed time, and its bound is generous: the machine may
be busy with other jobs (or other pytest workers), and a bound only decides when a broken page fails.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "dashboard" / "app.py"
CHROMIUM = "/usr/bin/chromium"  # Debian's, installed by scripts/test: no browser download
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LAPTOP = {"width": 1366, "height": 768}
WAIT_MS = 300_000  # the bound of any one wait of the browser (action, navigation, expect()): generous under load
START_SECONDS = 600  # the server's start-up (imports, then the health endpoint answers), polled
LOCAL_URL = re.compile(r"^(https?|wss?)://(127\.0\.0\.1|localhost)(:\d+)?/|^(data|blob):")
# The plotly charts each page (file in dashboard/views) draws first (the explorer one, the chances to win: its board,
# rondel and bonds are SVG and HTML; Power draws one game first, its whole run on asking).
CHARTS = {"explorer.py": 1, "power.py": 6, "compare.py": 7, "setup_editor.py": 0}


@contextmanager
def dashboard_server(catalog: Path, setups: Path | None = None, options: dict | None = None):
    """``streamlit run dashboard/app.py`` on the catalogue; yields its address, stops it on exit.
    ``options`` are Streamlit settings for this server on top of dashboard/.streamlit/config.toml,
    e.g. ``{"client.toolbarMode": "developer"}`` for the menu's Clear cache."""
    port = free_port()
    env = {**os.environ, "IMPERIAL_LAB_CATALOG": str(catalog)}
    if setups is not None:
        env["IMPERIAL_LAB_SETUPS"] = str(setups)
    command = [sys.executable, "-m", "streamlit", "run", str(APP), "--server.headless", "true",
               "--server.port", str(port), "--server.address", "127.0.0.1"]
    command += [arg for key, value in (options or {}).items() for arg in (f"--{key}", str(value))]
    with serving(command, port, env, ROOT) as (url, _):
        yield url


@contextmanager
def serving(command: list[str], port: int, env: dict, cwd: Path):
    """Run ``command``, a Streamlit server on ``port`` of 127.0.0.1, until it answers its health check;
    yields its address and a function giving its output so far; stops it on exit."""
    with tempfile.TemporaryFile(mode="a+b") as log:  # appending: reading it back moves no write offset
        # A session of its own, so that stopping it also stops whatever it started (e.g. Dask workers).
        server = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  start_new_session=True)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_until_up(url, server, log)
            yield url, lambda: _tail(log, lines=10_000)
        finally:
            _stop(server)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_up(url: str, server: subprocess.Popen, log) -> None:
    """Poll Streamlit's health endpoint: the only sleep, while the server starts. A failure quotes
    the end of the server's output."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"streamlit exited with status {server.returncode}:\n{_tail(log)}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"streamlit did not answer on {url}/_stcore/health within {START_SECONDS} s "
                       f"(load average {os.getloadavg()[0]:.1f}):\n{_tail(log)}")


def _tail(log, lines: int = 20) -> str:
    log.seek(0)
    return "\n".join(log.read().decode(errors="replace").splitlines()[-lines:])


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@contextmanager
def chromium():
    """Debian's chromium, headless; closed on exit. Sets the bound of every ``expect()`` to WAIT_MS:
    Playwright's assertions keep their own 5 s whatever a page's default timeout says."""
    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def tab(browser: Browser, url: str):
    """A fresh tab (a context of its own: a new session of the app) at the laptop's size, with WAIT_MS
    for every action and navigation; yields it and the list of every URL it requests."""
    context = browser.new_context(viewport=LAPTOP, base_url=url)
    try:
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        requests = []
        context.on("request", lambda request: requests.append(request.url))
        yield context.new_page(), requests
    finally:
        context.close()


@contextmanager
def local_tab(browser: Browser, url: str, path: str, title: str):
    """A fresh tab on the page at ``path``, once its ``title`` shows; on exit, when the page has
    settled, none of its requests may have left the machine (fonts, icons, usage statistics)."""
    with tab(browser, url) as (page, requests):
        page.goto(path)
        expect(heading(page, title)).to_be_visible()
        yield page
        idle(page)  # what the last step started has been requested
        assert not foreign(requests), f"requests that left the machine: {foreign(requests)}"


def foreign(requests: list[str]) -> list[str]:
    """The requests that left the machine: anything but this host and data:/blob: URLs."""
    return [url for url in requests if not LOCAL_URL.match(url)]


def heading(page: Page, text: str):
    return page.get_by_role("heading", name=text, exact=True)


def open_page(page: Page, link: str, title: str) -> None:
    """Follow the sidebar's link and wait for the page's title."""
    page.get_by_test_id("stSidebarNav").get_by_role("link", name=link, exact=True).click()
    expect(heading(page, title)).to_be_visible()


def charts_drawn(page: Page, count: int) -> None:
    """``count`` plotly charts drawn by plotly.js (not just Streamlit's placeholders for them)."""
    expect(page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot")).to_have_count(count)


def idle(page: Page) -> None:
    """The page has settled: no script running (Streamlit's status widget with Stop), no element of the
    previous run left over (faded: data-stale) and none still loading (a grey skeleton). Wait for the
    content a run must show first: right after a click the old page still looks settled."""
    expect(page.get_by_test_id("stStatusWidget")).to_be_hidden()
    expect(page.locator("[data-stale='true']")).to_have_count(0)
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0)


def timed_key(page: Page, key: str, drawn: str, *args) -> float:
    """Seconds from pressing ``key`` (for the page's shortcuts, not the focused widget) until the JS
    predicate ``drawn(*args)`` holds, checked at every animation frame (a bench's step time)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    start = time.perf_counter()
    page.keyboard.press(key)
    page.wait_for_function(drawn, arg=args[0] if len(args) == 1 else list(args) or None, polling="raf")
    return time.perf_counter() - start
