"""Issue 32: an invited judge sees the invitation on the phone, and the event comes onto the phone (its list and its
offline copy) only once they accept it."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from judgeapp.events import services as events
from judgeapp.events import staff_services
from judgeapp.extensions import CATALOG_KEY, db
from judgeapp.models import Event, Role, User
from tests.browser.conftest import log_in, shot
from tests.browser.test_offline import eventually

pytestmark = pytest.mark.browser

COPY_IDS = "JudgeOutbox.copy(document.body.dataset.user).then(c => c ? c.events.map(e => e.id) : null)"


def invite_floor1(server) -> int:
    """The demo's organizer makes a second event and invites floor1 (an account with a password) as floor judge."""
    with server.app.app_context():
        organizer = db.session.scalar(select(User).where(User.email == "organizer@demo.test"))
        event = events.create_event(
            db.session,
            server.app.extensions[CATALOG_KEY],
            organizer=organizer,
            data=events.EventData(
                name="Winter Invitational", date=date.today(), venue="Hall C", policy_id="bushiroad-afr", level=2,
                rounds=5, round_minutes=50,
            ),
        )  # fmt: skip
        staff_services.add_staff(
            db.session, actor=organizer, event=event, email="floor1@demo.test", name="Fatima", role=Role.FLOOR_JUDGE
        )
        db.session.commit()
        return event.id


def test_an_invited_judge_accepts_on_the_phone_before_the_event_comes_onto_it(live_server, phone):
    event_id = invite_floor1(live_server)
    log_in(phone, live_server)
    invitation = phone.locator(".invitation")
    invitation.get_by_text("Olivia Organizer invites you as floor judge at Winter Invitational").wait_for()
    assert phone.locator(f'a[href="/events/{event_id}"]').count() == 0  # not in the list
    eventually(phone, f"{COPY_IDS}.then(ids => ids !== null && ids.includes(1))", seconds=30)
    assert event_id not in phone.evaluate(COPY_IDS)  # nor in the phone's offline copy
    shot(phone, "i32-invitation-waiting")

    invitation.get_by_role("button", name="Accept").click()
    phone.get_by_text("You are now floor judge at Winter Invitational.").wait_for()
    phone.locator(f'a[href="/events/{event_id}"]').wait_for()
    eventually(phone, f"{COPY_IDS}.then(ids => ids !== null && ids.includes({event_id}))", seconds=30)
    assert phone.locator(".invitation").count() == 0
    shot(phone, "i32-invitation-accepted")
    with live_server.app.app_context():
        assert db.session.get(Event, event_id).staff[-1].user.email == "floor1@demo.test"
