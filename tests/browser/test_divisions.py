"""A judge at an event of two divisions, in real Chromium at 390x844 (issue 34): the incident form's table belongs to
the chosen division's round, so table 2 of round 5 in Masters shows the two Masters players seated there, not the
Juniors+Seniors semifinalists who sit at their own table 2 in their round 5 (the two-pod TOM Cup sample)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from judgeapp.events import imports, round_services, staff_services
from judgeapp.events import services as events
from judgeapp.extensions import current_catalog, db
from judgeapp.models import Division, Role, User
from tests.browser.conftest import log_in, shot
from tests.browser.test_offline import eventually

pytestmark = pytest.mark.browser

CUP = Path(__file__).resolve().parent.parent / "data" / "imports" / "tom-cup-two-divisions.tdf"


def two_division_cup(app, on: date = date(2026, 5, 16)) -> int:
    """The Cup imported at a new event (held `on`), floor1 on its staff, round 5 running in each division; its id."""
    with app.app_context():
        organizer = db.session.scalar(select(User).where(User.is_organizer.is_(True)).order_by(User.id))
        data = events.EventData(
            name="Sampleton Spring Cup", date=on, venue="Hall", policy_id="bushiroad-afr", level=1,
            rounds=8, round_minutes=50,
        )  # fmt: skip
        event = events.create_event(db.session, current_catalog(), organizer=organizer, data=data)
        staff_services.assign_staff(db.session, actor=organizer, event=event, email="floor1@demo.test", name="",
                            role=Role.FLOOR_JUDGE)  # fmt: skip
        upload = imports.receive(db.session, actor=organizer, event=event, data=CUP.read_bytes(), filename=CUP.name)
        imports.apply(db.session, actor=organizer, event=event, upload=upload)
        divisions = db.session.scalars(select(Division).where(Division.event_id == event.id)).all()
        for division in divisions:
            for _ in range(5):
                round_services.start_round(db.session, actor=organizer, event=event, division_id=division.id)
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


def test_offline_a_judge_at_a_juniors_table_sees_the_juniors_players_from_the_phones_copy(live_server, phone):
    """The phone's copy of the event holds every division's seating, and the incident form it keeps checks the chosen
    division's table with the network off: Juniors+Seniors' table 2 of round 5 (their semifinal), then Masters'."""
    event_id = two_division_cup(live_server.app, on=date.today())  # the copy holds the events of this week
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/{event_id}")
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not phone.evaluate("!!navigator.serviceWorker.controller"):
        phone.reload()  # a page loaded while the worker installed is controlled once it loads again
    phone.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60000)
    kept = f"""async () => {{
        const copy = await JudgeOutbox.copy(document.body.dataset.user);
        const ev = copy && copy.events.find(e => e.id === {event_id});
        if (!ev || !ev.divisions || ev.divisions.length !== 2) return false;
        const pages = await caches.open('judgeapp-pages');
        return !!(await pages.match('/events/{event_id}/incidents/new'));
    }}"""
    eventually(phone, kept, seconds=90)  # the copy and the kept pages come in the background: slow on a busy machine
    seats = phone.evaluate(
        f"JudgeOutbox.copy(document.body.dataset.user).then(c => c.events.find(e => e.id === {event_id}).divisions"
        ".map(d => [d.name, d.round, d.seating['2'].length]))"
    )
    assert seats == [["Juniors+Seniors", 5, 2], ["Masters", 5, 2]]

    phone.context.set_offline(True)
    phone.goto(f"{live_server}/events/{event_id}/incidents/new")  # served by the service worker from the phone's copy
    phone.get_by_label("Division").select_option(label="Masters")
    phone.get_by_label("Division").select_option(label="Juniors+Seniors")
    assert phone.get_by_label("Round").input_value() == "5"
    phone.get_by_label("Table").fill("2")
    chips = phone.locator("#table-players .chip")
    phone.locator("#table-players .chip", has_text="Brisa Brackwater").wait_for()
    assert chips.all_inner_texts() == ["Brisa Brackwater · 9341001", "Cato Coldharbour · 9341002"]
    shot(phone, "divisions-offline-juniors-table-2")
    phone.get_by_label("Division").select_option(label="Masters")
    phone.locator("#table-players .chip", has_text="Nerys Northcote").wait_for()
    assert chips.all_inner_texts() == ["Nerys Northcote · 9342004", "Orrin Oakhurst · 9342005"]
    phone.context.set_offline(False)
