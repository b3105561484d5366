"""A multi-day event on the head judge's phone, in real Chromium at 390x844 (issue 34): Day 2 begins with a round,
set from the event page; the page names the day from then on."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.events import round_services
from judgeapp.extensions import db
from judgeapp.models import Event, Round, User
from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.browser


def test_the_head_judge_says_day_two_begins_with_round_two_on_the_event_page(live_server, phone):
    with live_server.app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "Demo Open"))
        head = db.session.scalar(select(User).where(User.email == "head@demo.test"))
        round_services.start_round(db.session, actor=head, event=event)  # round 2, on Day 1 like the round before it
        db.session.commit()
        event_id = event.id
    log_in(phone, live_server, "head@demo.test")
    phone.goto(f"{live_server}/events/{event_id}")
    phone.get_by_label("Round 2 is on").select_option(label="Day 2")
    phone.get_by_role("button", name="Set the day").click()
    phone.get_by_text("Day 2 · Round 2 of").wait_for()
    shot(phone, "round-days-day-two")
    with live_server.app.app_context():
        assert db.session.scalar(select(Round.day).where(Round.event_id == event_id, Round.number == 2)) == 2
