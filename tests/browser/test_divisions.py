"""A judge at an event of two divisions, in real Chromium at 390x844 (issue 34): the incident form's table belongs to
the chosen division's round, so table 2 of round 5 in Masters shows the two Masters players seated there, not the
Juniors+Seniors semifinalists who sit at their own table 2 in their round 5 (the two-pod TOM Cup sample)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from judgeapp.events import imports
from judgeapp.events import services as events
from judgeapp.extensions import current_catalog, db
from judgeapp.models import Division, Role, User
from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.browser

CUP = Path(__file__).resolve().parent.parent / "data" / "imports" / "tom-cup-two-divisions.tdf"


def two_division_cup(app) -> int:
    """The Cup imported at a new event, floor1 on its staff, round 5 running in each division; its id."""
    with app.app_context():
        organizer = db.session.scalar(select(User).where(User.is_organizer.is_(True)).order_by(User.id))
        data = events.EventData(
            name="Sampleton Spring Cup", date=date(2026, 5, 16), venue="Hall", policy_id="bushiroad-afr", level=1,
            rounds=8, round_minutes=50,
        )  # fmt: skip
        event = events.create_event(db.session, current_catalog(), organizer=organizer, data=data)
        events.assign_staff(db.session, actor=organizer, event=event, email="floor1@demo.test", name="",
                            role=Role.FLOOR_JUDGE)  # fmt: skip
        upload = imports.receive(db.session, actor=organizer, event=event, data=CUP.read_bytes(), filename=CUP.name)
        imports.apply(db.session, actor=organizer, event=event, upload=upload)
        divisions = db.session.scalars(select(Division).where(Division.event_id == event.id)).all()
        for division in divisions:
            for _ in range(5):
                events.start_round(db.session, actor=organizer, event=event, division_id=division.id)
        db.session.commit()
        return event.id


def test_a_judge_at_table_two_of_round_five_in_masters_sees_the_two_masters_players_not_the_juniors(live_server, phone):
    event_id = two_division_cup(live_server.app)
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/{event_id}/incidents/new")
    phone.get_by_label("Division").select_option(label="Masters")
    assert phone.get_by_label("Round").input_value() == "5"
    phone.get_by_label("Table").fill("2")
    chips = phone.locator("#table-players .chip")
    chips.first.wait_for()
    seated = chips.all_inner_texts()
    assert seated == ["Nerys Northcote · 9342004", "Orrin Oakhurst · 9342005"]
    assert not any("Brisa" in s or "Cato" in s for s in seated)  # the Juniors+Seniors semifinal at their table 2
    shot(phone, "divisions-masters-table-2")

    phone.get_by_label("Division").select_option(label="Juniors+Seniors")
    phone.locator("#table-players .chip", has_text="Brisa Brackwater").wait_for()
    assert chips.all_inner_texts() == ["Brisa Brackwater · 9341001", "Cato Coldharbour · 9341002"]
