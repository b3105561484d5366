"""A judge removed from an event stops seeing its banners on the phone too: the outbox's "Check incident #n" (a record
sent from the phone whose suggestion changed meanwhile) shows only records of events the phone's copy lists, and the
copy (/offline/copy.json) lists only the events the judge is still staff at. Without a copy yet, nothing is shown."""

from __future__ import annotations

import contextlib

import pytest
from sqlalchemy import select

from judgeapp.events import staff_services
from judgeapp.extensions import db
from judgeapp.incidents import services as incidents
from judgeapp.infractions import load_catalog
from judgeapp.models import Event, Player, StaffAssignment, User
from tests.browser.conftest import log_in, shot
from tests.browser.test_offline import PHONE_CONTEXT, eventually, log_offline_incident, offline_at_form
from tests.conftest import CATALOG

pytestmark = pytest.mark.browser


def flagged_incident_on_the_phone(server, page) -> str:
    """floor1 logs an incident offline; another judge warns the same player meanwhile; once sent, the phone shows
    'Check incident #2'. Answers the incident's address."""
    offline_at_form(page, server)
    log_offline_incident(page, "1", "Haruto Sato · DEMO-001", "failure to discard", "Suggested: Warning")
    with server.app.app_context():
        floor2 = db.session.scalar(select(User).where(User.email == "floor2@demo.test"))
        player = db.session.scalar(select(Player).where(Player.player_code == "DEMO-001"))
        incidents.log_incident(
            db.session,
            load_catalog(CATALOG).policy("bushiroad-afr"),
            actor=floor2,
            roles=frozenset({"floor_judge"}),
            event=db.session.get(Event, 1),
            data=incidents.IncidentInput(
                key="other-judge-meanwhile-0001",
                infraction_code="3.5.1.1",
                table_number=1,
                player_id=player.id,
                rank_id="warning",
            ),
        )
        db.session.commit()
    page.context.set_offline(False)
    page.wait_for_function("() => document.body.dataset.outboxWaiting === '0'", timeout=30000)
    page.locator("#outbox").get_by_text("Check incident #2").wait_for()
    return page.locator("#outbox").get_by_role("link", name="Open incident #2").get_attribute("href")


def remove_from_event(server, email: str) -> None:
    """The organizer ends every role the judge holds at Demo Open (the staff page's service)."""
    with server.app.app_context():
        organizer = db.session.scalar(select(User).where(User.email == "organizer@demo.test"))
        judge = db.session.scalar(select(User).where(User.email == email))
        event = db.session.get(Event, 1)
        for assignment in db.session.scalars(
            select(StaffAssignment).where(
                StaffAssignment.event_id == 1, StaffAssignment.user_id == judge.id, StaffAssignment.ended_at.is_(None)
            )
        ):
            staff_services.end_staff(
                db.session, actor=organizer, event=event, assignment_id=assignment.id, reason="Left the event"
            )
        db.session.commit()


# Whether the page ever showed "Check incident", however briefly (from before its scripts run).
SEES_CHECK_INCIDENT = """
window.sawCheckIncident = false;
new MutationObserver(() => {
    const banner = document.getElementById('outbox');
    if (banner && banner.textContent.includes('Check incident')) window.sawCheckIncident = true;
}).observe(document, {childList: true, subtree: true, characterData: true});
"""


def status_of(page, url: str) -> int:
    return page.evaluate("url => fetch(url, {credentials: 'same-origin'}).then(r => r.status)", url)


def test_a_judge_removed_from_the_event_no_longer_sees_check_incident_on_the_phone(live_server, browser):
    context = browser.new_context(**PHONE_CONTEXT)
    page = context.new_page()
    incident = flagged_incident_on_the_phone(live_server, page)
    shot(page, "57-check-incident-while-staff")

    remove_from_event(live_server, "floor1@demo.test")
    assert status_of(page, incident) == 403  # what the banner's link would now answer
    context.add_init_script(SEES_CHECK_INCIDENT)
    page.goto(f"{live_server}/")  # the judge's next page, a moment later: the phone's copy is seconds old
    copy_is_fresh = """async () => {
        const copy = await JudgeOutbox.copy(document.body.dataset.user);
        return !!copy && copy.events.length === 0;
    }"""
    with contextlib.suppress(AssertionError):  # checked below, after what the judge saw
        eventually(page, copy_is_fresh, seconds=10)
    page.wait_for_timeout(300)
    shot(page, "58-no-check-incident-after-removal")
    assert not page.evaluate("window.sawCheckIncident"), "the banner showed 'Check incident' of an event the judge left"
    assert "Check incident" not in page.locator("main").inner_text()
    assert page.locator(f'#outbox a[href="{incident}"]').count() == 0
    assert page.evaluate(copy_is_fresh), "the phone's copy still lists the event the judge was removed from"
    context.close()


def test_without_a_copy_yet_the_phone_shows_no_check_incident_of_an_event_the_judge_was_removed_from(
    live_server, browser
):
    context = browser.new_context(**PHONE_CONTEXT)
    page = context.new_page()
    incident = flagged_incident_on_the_phone(live_server, page)
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Log out").click()  # signing out drops the copy; the sent list stays
    page.wait_for_url(f"{live_server}/login")
    remove_from_event(live_server, "floor1@demo.test")

    context.route("**/offline/copy.json", lambda route: route.abort())  # no copy yet: the page renders with none
    context.add_init_script(SEES_CHECK_INCIDENT)
    log_in(page, live_server)
    page.wait_for_timeout(500)
    assert page.evaluate("JudgeOutbox.copy(document.body.dataset.user).then(c => !c)")
    shot(page, "59-no-check-incident-without-a-copy")
    assert not page.evaluate("window.sawCheckIncident"), "the banner showed 'Check incident' of an event the judge left"
    assert page.locator(f'#outbox a[href="{incident}"]').count() == 0
    context.close()


def test_a_judge_still_on_staff_keeps_check_incident_after_signing_in_again(live_server, browser):
    context = browser.new_context(**PHONE_CONTEXT)
    page = context.new_page()
    incident = flagged_incident_on_the_phone(live_server, page)
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_server}/login")
    log_in(page, live_server)
    page.locator("#outbox").get_by_text("Check incident #2").wait_for()
    page.locator("#outbox").get_by_role("link", name="Open incident #2").click()
    page.wait_for_url(f"{live_server}{incident}")
    assert "Check this penalty: the suggestion changed" in page.locator("#offline-flag").inner_text()
    context.close()
