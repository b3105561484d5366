"""A judge taps Save while the page's own send of the outbox, started as the page loaded, is still under way (on a
busy server, the first second of every page). That send lists the outbox after its token comes, so it may take the
new record itself; the form's own send then finds nothing to send. What the form says must be what became of the
record: refused, the server's page with the message at the field; stored, the record's page. Before this was fixed
the form said "Saved on this phone … sent when the network is back" for a record the server had already refused or
stored (seen as flaky failures under load: tests/browser/test_walkthrough.py's refused save, test_calls.py's take)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from judgeapp.extensions import db
from judgeapp.models import Incident
from tests.browser.conftest import log_in, shot
from tests.browser.traffic import fill_incident

pytestmark = pytest.mark.browser


class HeldToken:
    """Holds the page's first request for a token (the start of the load-time send) until released."""

    def __init__(self, page):
        self.page, self.held = page, []
        page.route("**/offline/token", self._hold)

    def _hold(self, route):
        if self.held:  # only the first: the form's own send asks again and is answered at once
            route.continue_()
        else:
            self.held.append(route)

    def wait(self):
        for _ in range(300):  # each wait lets Playwright dispatch the route's event
            if self.held:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError("the page never started its load-time send")

    def release(self):
        self.held[0].continue_()


def test_a_save_refused_by_the_send_already_under_way_shows_the_servers_message_at_the_field(live_server, phone):
    log_in(phone, live_server)
    held = HeldToken(phone)
    phone.goto(f"{live_server}/events/1/incidents/new")
    held.wait()  # the page's own send waits for its token
    phone.get_by_role("button", name="Save incident").click()  # nothing filled in
    phone.locator("#outbox-said").get_by_text("Stored on this phone").wait_for()
    held.release()  # the load-time send now lists the outbox: the new record is in it, and the server refuses it
    phone.locator(".field-error").first.wait_for()
    assert "Saved on this phone" not in phone.content()
    first = phone.locator(".field-error").first
    assert first.evaluate("field => field.contains(document.activeElement)")
    shot(phone, "outbox-race-refused")
    assert phone.evaluate("JudgeOutbox.list(document.body.dataset.user).then(r => r.length)") == 0  # not left waiting


def test_a_save_stored_by_the_send_already_under_way_opens_the_stored_record(live_server, phone):
    log_in(phone, live_server)
    held = HeldToken(phone)
    phone.goto(f"{live_server}/events/1/incidents/new")
    held.wait()
    fill_incident(phone, table=1)
    phone.get_by_role("button", name="Save incident").click()
    phone.locator("#outbox-said").get_by_text("Stored on this phone").wait_for()
    held.release()
    phone.wait_for_url("**/events/1/incidents/1**")
    assert "Saved on this phone" not in phone.content()
    shot(phone, "outbox-race-stored")
    with live_server.app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Incident)) == 1
