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
from judgeapp.models import Division, Event, Role, User
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


def test_a_judge_picks_deck_check_tables_in_masters_and_the_picked_table_opens_the_form_on_masters_round_five(
    live_server, phone
):
    """Deck checks in the second division (issue 34): the pick is made among Masters' tables of its round 5, and a
    picked table's link opens the form on Masters, round 5, that table; the long round label reads whole at 390 px."""
    event_id = two_division_cup(live_server.app)
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/{event_id}/deck-checks")
    phone.get_by_label("Division").select_option(label="Masters")
    phone.get_by_label("Tables to check").fill("3")
    phone.get_by_role("button", name="Pick tables").click()
    picked = phone.locator("#picked a")
    picked.first.wait_for()
    tables = [int(t) for t in picked.all_inner_texts()]
    assert len(tables) == 3 and all(2 <= t <= 11 for t in tables), tables  # Masters' round 5: tables 2 to 11
    shot(phone, "divisions-deck-check-pick-masters")

    picked.first.click()
    phone.wait_for_url("**/deck-checks/new?**")
    assert phone.get_by_label("Division").locator("option:checked").inner_text() == "Masters"
    assert phone.get_by_label("Table").input_value() == str(tables[0])
    round_choice = phone.get_by_label("Round")
    assert round_choice.input_value() == "5"
    assert round_choice.locator("option:checked").inner_text() == "Round 5"  # Masters' round 5 is Swiss
    shot(phone, "divisions-deck-check-form-masters")

    phone.get_by_label("Division").select_option(label="Juniors+Seniors")  # their round 5: the top cut's semifinal
    round_choice.locator("option:checked", has_text="Top 4, semifinal").wait_for(state="attached")
    assert round_choice.locator("option:checked").inner_text() == "Round 5 · Top 4, semifinal"
    fits = round_choice.evaluate(
        """select => { const probe = document.createElement('span');
            probe.textContent = select.options[select.selectedIndex].text;
            probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;font:'
                + getComputedStyle(select).font;
            document.body.append(probe); const width = probe.getBoundingClientRect().width; probe.remove();
            const style = getComputedStyle(select);
            const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            return {width, room}; }"""
    )
    shot(phone, "divisions-deck-check-form-juniors-top-cut")
    assert fits["width"] <= fits["room"], f"the round label is clipped: {fits}"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_round_labels_of_a_top_cut_read_whole_on_the_incident_form_and_the_event_page_at_390(live_server, phone):
    """Masters in its top cut (round 6, "Top 8, quarterfinal") while Juniors+Seniors plays round 5: the incident
    form's round choice and the event page's round headings show their whole label on a 390 px phone."""
    event_id = two_division_cup(live_server.app)
    with live_server.app.app_context():
        event = db.session.get(Event, event_id)
        masters = db.session.scalar(select(Division).where(Division.event_id == event_id, Division.name == "Masters"))
        round_services.start_round(db.session, actor=event.organizer, event=event, division_id=masters.id)
        db.session.commit()
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/{event_id}/incidents/new")
    phone.get_by_label("Division").select_option(label="Masters")
    round_choice = phone.get_by_label("Round")
    assert round_choice.input_value() == "6"
    assert round_choice.locator("option:checked").inner_text() == "Round 6 · Top 8, quarterfinal"
    assert text_fits(round_choice), "the round choice is clipped"
    shot(phone, "divisions-incident-form-masters-top-cut")

    phone.goto(f"{live_server}/events/{event_id}")
    heading = phone.get_by_text("Top 8, quarterfinal").first
    heading.wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert heading.evaluate("e => e.scrollWidth <= e.clientWidth"), "the round heading is clipped"
    shot(phone, "divisions-event-page-masters-top-cut")


def text_fits(select) -> bool:
    """Whether a select's chosen option's text fits in the select as shown (not cut at its edge)."""
    return select.evaluate(
        """select => { const probe = document.createElement('span');
            probe.textContent = select.options[select.selectedIndex].text;
            probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;font:'
                + getComputedStyle(select).font;
            document.body.append(probe); const width = probe.getBoundingClientRect().width; probe.remove();
            const style = getComputedStyle(select);
            return width <= select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight); }"""
    )
