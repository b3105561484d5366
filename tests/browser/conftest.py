"""A live judgeapp server and Debian's headless Chromium at a phone viewport."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from judgeapp import create_app
from judgeapp.extensions import db
from tests.conftest import Worker, app_config

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
DEMO_PASSWORD = "browser-demo-pw"
# The phone's wait for a save's answer before it gives the form back (config JUDGEAPP_SAVE_WAIT_MS, 3 s deployed): the
# tests' live servers wait up to a minute, since a test that waits for a save's confirmation page is about the answer,
# and on a busy machine the answer can take more than 3 s. The slow-network path is tested at the deployed 3 s on a
# throttled network (test_network.py, whose server keeps the default).
SAVE_WAIT_MS = 60000
# How long the service worker waits for a page before it shows the phone's copy or the offline page
# (JUDGEAPP_NETWORK_WAIT_MS, 6 s deployed): on the tests' servers a minute, since a page slower than 6 s there means a
# busy machine, not a crowded network (on 27 Nov at load ~22, the head judge's incident page took longer, the worker
# showed the offline page, and the test waited 30 s for a button that page has not). The slow network is tested at the
# deployed value (test_network.py, whose server keeps the default).
NETWORK_WAIT_MS = 60000
# How often a player's call page asks for its call's state (JUDGEAPP_CALL_STATUS_EVERY_MS, 10 s deployed): a test of
# that page waits for the change a poll brings, so its server polls every second rather than every ten.
CALL_STATUS_EVERY_MS = 1000


class Server(str):
    """The server's base URL; `.app` is the app it serves, for a test to arrange data or read the database."""

    app = None


@pytest.fixture
def live_server(tmp_path, sqlite_schema):
    yield from _serve(tmp_path, sqlite_schema)


@pytest.fixture
def live_server_with_worker(tmp_path, sqlite_schema):
    """The demo, with a real job worker beside the server (imports run as jobs): only for the tests that need one."""
    yield from _serve(tmp_path, sqlite_schema, worker=True)


@pytest.fixture
def live_server_with_cases(tmp_path, sqlite_schema):
    """The demo with its sample cases: an appeal waiting and a disqualification under investigation."""
    yield from _serve(tmp_path, sqlite_schema, "--sample-cases")


@pytest.fixture(scope="module")
def screens_server(tmp_path_factory, sqlite_schema):
    """The demo with its sample cases, one server for a whole module: for the tests that walk every judge screen
    (tests/browser/screens.py) and only read."""
    yield from _serve(tmp_path_factory.mktemp("screens"), sqlite_schema, "--sample-cases")


def _serve(tmp_path, sqlite_schema, *demo_options, worker=False):
    """The demo is made for each server, not copied from one made earlier: it starts round 1 and dates its event when
    it runs, and a test sees the round as just started, as a judge trying the demo does."""
    config = app_config(
        tmp_path,
        JUDGEAPP_SAVE_WAIT_MS=SAVE_WAIT_MS,
        JUDGEAPP_NETWORK_WAIT_MS=NETWORK_WAIT_MS,
        JUDGEAPP_CALL_STATUS_EVERY_MS=CALL_STATUS_EVERY_MS,
    )
    database = tmp_path / "browser.sqlite3"  # a file the server thread shares: a copy of the empty schema
    config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{database}"
    shutil.copyfile(sqlite_schema, database)
    app = create_app(config)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["demo", "--password", DEMO_PASSWORD, *demo_options]).exit_code == 0
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # The public address a deployment configures (links in emails, statement and call links): this server's own.
    app.config["JUDGEAPP_BASE_URL"] = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = Server(f"http://127.0.0.1:{server.server_port}")
    url.app = app
    jobs = Worker(app).start() if worker else None
    try:
        yield url
    finally:
        if jobs is not None:
            jobs.stop()
    server.shutdown()
    thread.join(5)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make test`, which installs Debian's chromium")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def log_in(page, base: str, email: str = "floor1@demo.test"):
    page.goto(f"{base}/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def refresh_until(page, selector: str, timeout_s: float = 180) -> None:
    """Follow the page's Refresh link (a render job's page: no script polls it) until `selector` is on it; a render
    on a busy machine takes its time, hence the generous limit."""
    import time

    deadline = time.monotonic() + timeout_s
    while page.locator(selector).count() == 0:
        assert time.monotonic() < deadline, f"{selector} did not appear within {timeout_s} s"
        page.wait_for_timeout(300)  # between two looks, not a guess at how long the job takes
        page.get_by_role("link", name="Refresh").click()
        page.wait_for_load_state()
