"""The offline copies on a phone belong to one account, tried as a hostile user of a shared phone would: another
account signing in without the first signing out (a session that expired, or a sign-in form left open in another
tab) is never shown the first account's kept pages, and the first account's copy of its events is dropped."""

from __future__ import annotations

import contextlib
import threading

import pytest

from judgeapp.auth.services import create_user
from judgeapp.extensions import db
from tests.browser.conftest import DEMO_PASSWORD, log_in, shot
from tests.browser.test_offline import PHONE_CONTEXT, eventually, ready_for_offline

pytestmark = pytest.mark.browser

STRANGER = "stranger@demo.test"  # an account on no event's staff


@pytest.fixture
def server(live_server):
    with live_server.app.app_context():
        create_user(db.session, email=STRANGER, name="Stranger", password=DEMO_PASSWORD)
        db.session.commit()
    return live_server


def kept_accounts(page) -> list[str]:
    """The accounts named by the pages the service worker keeps, and the accounts whose copy of events is kept."""
    return page.evaluate("""async () => {
        const cache = await caches.open('judgeapp-pages'), pages = new Set();
        for (const request of await cache.keys()) {
            const found = (await (await cache.match(request)).text()).match(/data-user="(\\d+)"/);
            if (found) pages.add(found[1]);
        }
        const copies = await new Promise((resolve, reject) => {
            const open = indexedDB.open('judgeapp');
            open.onsuccess = () => {
                const req = open.result.transaction('copies').objectStore('copies').getAllKeys();
                req.onsuccess = () => resolve(req.result.map(String)); req.onerror = reject;
            };
        });
        return {pages: [...pages].sort(), copies: copies.sort()};
    }""")


class HeldAnswers:
    """The server holds its answer to one path until released, as an overloaded venue network would: the request has
    arrived (with the cookie of the account that sent it), the answer comes later."""

    def __init__(self, app, path: str):
        self.app, self.path, self.inner = app, path, app.wsgi_app
        self.arrived, self.released, self.answered = threading.Event(), threading.Event(), threading.Event()
        app.wsgi_app = self

    def __call__(self, environ, start_response):
        if environ["PATH_INFO"] != self.path or self.arrived.is_set():
            return self.inner(environ, start_response)
        self.arrived.set()
        self.released.wait(30)
        try:
            return self.inner(environ, start_response)
        finally:
            self.answered.set()

    def undo(self):
        self.released.set()
        self.app.wsgi_app = self.inner


def test_a_page_fetched_for_the_previous_account_that_arrives_after_the_next_one_signed_in_is_never_shown(
    server, browser
):
    context = browser.new_context(**PHONE_CONTEXT)
    page = context.new_page()
    log_in(page, server)
    page.goto(f"{server}/events/1/incidents/new")
    ready_for_offline(page, server)
    floor1 = page.evaluate("document.body.dataset.user")
    held = HeldAnswers(server.app, "/events/1/deck-checks/new")
    try:  # floor1's page asks the service worker to keep the event's pages again; one answer is slow
        page.evaluate("""navigator.serviceWorker.ready.then(r => r.active.postMessage(
            {type: 'keep-pages', urls: ['/events/1/deck-checks/new']}))""")
        assert held.arrived.wait(10)
        context.clear_cookies()  # floor1's session ends on the phone; the stranger signs in
        log_in(page, server, STRANGER)
        eventually(
            page, "() => caches.open('judgeapp-pages').then(c => c.match('/events/1/deck-checks/new')).then(h => !h)"
        )
        held.released.set()  # floor1's page arrives now, after the stranger's sign-in emptied the page cache
        assert held.answered.wait(10)
    finally:
        held.undo()
    with contextlib.suppress(AssertionError):  # not kept: what should happen; the offline answer below is the test
        eventually(
            page,
            "() => caches.open('judgeapp-pages').then(c => c.match('/events/1/deck-checks/new')).then(h => !!h)",
            seconds=3,
        )
    assert floor1 not in kept_accounts(page)["pages"]

    context.set_offline(True)
    page.goto(f"{server}/events/1/deck-checks/new")
    page.wait_for_timeout(300)
    shot(page, "60-offline-page-after-a-late-answer-for-the-previous-account")
    html = page.content()
    assert page.evaluate("document.body.dataset.user || ''") != floor1
    assert "No network" in html and "Demo Open" not in html and "floor1@demo.test" not in html
    context.close()


def test_another_account_signing_in_as_the_network_drops_is_shown_none_of_the_previous_accounts_events(server, browser):
    context = browser.new_context(**PHONE_CONTEXT)
    page = context.new_page()
    log_in(page, server)  # floor1 keeps Demo Open's pages and copy on the phone and never signs out
    page.goto(f"{server}/events/1/incidents/new")
    ready_for_offline(page, server)
    floor1 = page.evaluate("document.body.dataset.user")
    context.clear_cookies()  # floor1's session ends (it expired, or the server ended it)
    dropped = []

    def network_drops_after_sign_in(route):  # the sign-in reaches the server; the venue network drops right after
        if dropped:
            return route.abort("internetdisconnected")
        if route.request.method == "POST" and route.request.url.endswith("/login"):
            dropped.append(True)
            return route.fulfill(response=route.fetch(max_redirects=0))
        return route.continue_()

    context.route("**/*", network_drops_after_sign_in)
    page.goto(f"{server}/login")
    page.get_by_label("Email").fill(STRANGER)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{server}/")
    page.wait_for_timeout(500)  # the offline page's own script has filled in what it found on the phone
    shot(page, "55-another-account-signed-in-as-the-network-dropped")
    for path in ("/", "/events/1", "/events/1/incidents/new"):
        if path != "/":
            page.goto(f"{server}{path}")
            page.wait_for_timeout(500)
        html = page.content()
        assert page.evaluate("document.body.dataset.user || ''") != floor1, path
        assert "No network" in html, path  # the offline page, not one of floor1's
        assert "floor1@demo.test" not in html and "Demo Open" not in html and "Haruto Sato" not in html, path
    context.close()


def test_another_account_signing_in_after_a_session_ended_drops_the_previous_accounts_copy_and_pages(server, browser):
    context = browser.new_context(**PHONE_CONTEXT)
    page = context.new_page()
    log_in(page, server)
    page.goto(f"{server}/events/1/incidents/new")
    ready_for_offline(page, server)
    floor1 = page.evaluate("document.body.dataset.user")
    assert kept_accounts(page) == {"pages": [floor1], "copies": [floor1]}

    context.clear_cookies()  # floor1's session ended without signing out (it expired, or the server ended it)
    log_in(page, server, STRANGER)
    stranger = page.evaluate("document.body.dataset.user")
    eventually(page, "() => JudgeOutbox.copy(document.body.dataset.user).then(c => !!c)")
    kept = kept_accounts(page)
    assert floor1 not in kept["pages"] and floor1 not in kept["copies"]
    assert kept["copies"] == [stranger]

    context.set_offline(True)
    page.goto(f"{server}/offline")
    page.wait_for_timeout(300)
    assert "Demo Open" not in page.locator("#offline-ready").inner_text()  # the stranger judges no event
    shot(page, "56-offline-page-of-the-next-account")
    context.close()
