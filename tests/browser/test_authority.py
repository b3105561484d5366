"""Authority in real Chromium at 390x844: the page offers only what the server accepts. Once the head judge has
decided, the floor judge may add a note or ask, never correct or void; a closed event offers no change at all; and
a refused change says why and what to do instead."""

import pytest
from sqlalchemy import select

from tests.browser.conftest import log_in, shot
from tests.browser.test_floor_judge import no_horizontal_scroll, open_event, pick_player_at_table
from tests.browser.test_head_judge import second_phone

pytestmark = pytest.mark.browser

FINAL = (
    "This incident is decided by the head judge: only the head judge may change it now (their decision is final "
    "for floor judges)."
)
INSTEAD = "Add a note to it, or ask the head judge: they can still correct it."


def log_a_warning(app, key="browser-authority-0001"):
    """Fatima Floor gives Sota Takahashi (table 2) a warning for 3.5.2 in round 1: incident #1."""
    from judgeapp.extensions import CATALOG_KEY, db
    from judgeapp.incidents import services
    from judgeapp.models import Event, Player, User
    from judgeapp.permissions import roles_at

    with app.app_context():
        event = db.session.scalar(select(Event))
        judge = db.session.scalar(select(User).where(User.email == "floor1@demo.test"))
        player = db.session.scalar(select(Player).where(Player.player_code == "DEMO-003"))
        services.log_incident(
            db.session,
            app.extensions[CATALOG_KEY].policy(event.policy_id),
            actor=judge,
            roles=roles_at(db.session, judge, event),
            event=event,
            data=services.IncidentInput(
                key=key, infraction_code="3.5.2", table_number=2, player_id=player.id, rank_id="warning"
            ),
        )
        db.session.commit()


def appeal_and_uphold(app, number=1):
    """The penalized player appeals incident `number`; the head judge upholds the ruling."""
    from judgeapp.appeals import services as appeals
    from judgeapp.extensions import CATALOG_KEY, db
    from judgeapp.incidents import list_services
    from judgeapp.models import Event, User
    from judgeapp.permissions import roles_at

    with app.app_context():
        event = db.session.scalar(select(Event))
        floor = db.session.scalar(select(User).where(User.email == "floor1@demo.test"))
        head = db.session.scalar(select(User).where(User.email == "head@demo.test"))
        incident = list_services.incident_by_number(db.session, event, number)
        appeal, _ = appeals.file_appeal(
            db.session,
            actor=floor,
            event=event,
            incident=incident,
            data=appeals.AppealInput(
                key=f"browser-authority-appeal-{number:04d}",
                appellant=f"player:{incident.subjects[0].player_id}",
                contest="Says the extra card was never looked at.",
            ),
        )
        db.session.commit()
        appeals.decide(
            db.session,
            app.extensions[CATALOG_KEY].policy(event.policy_id),
            actor=head,
            roles=roles_at(db.session, head, event),
            event=event,
            appeal=appeal,
            data=appeals.Decision(outcome="upheld", reason="Both players saw the card drawn; a warning."),
        )
        db.session.commit()


def close_the_event(app):
    """The head judge ends round 1 and the organizer closes the event (rounds 2-6 never started)."""
    from judgeapp.events import round_services
    from judgeapp.extensions import db
    from judgeapp.models import Event, User
    from judgeapp.postevent import services as postevent

    with app.app_context():
        event = db.session.scalar(select(Event))
        head = db.session.scalar(select(User).where(User.email == "head@demo.test"))
        round_services.end_round(
            db.session, actor=head, event=event, rnd=round_services.current_round(db.session, event)
        )
        db.session.commit()
        assert postevent.close_event(db.session, actor=event.organizer, event=event, local=lambda t: t)
        db.session.commit()


def offered(page, name: str) -> bool:
    """Is a link, button or disclosure named `name` on the page?"""
    return (
        page.get_by_role("link", name=name).count()
        + page.get_by_role("button", name=name).count()
        + page.get_by_text(name, exact=True).count()
        > 0
    )


def test_a_floor_judge_is_not_offered_correct_or_void_once_the_head_judge_decided_the_appeal(
    live_server, browser, phone
):
    head_context, head = second_phone(browser)
    log_in(head, live_server, "head@demo.test")
    head.goto(f"{live_server}/events/1/feed")
    head.get_by_text("Nothing to report yet.").wait_for()  # a warning is not reported to the head judge by itself

    open_event(phone, live_server)
    phone.get_by_role("link", name="New incident").click()
    pick_player_at_table(phone, "2", "Sota Takahashi · DEMO-003")
    phone.get_by_placeholder("Search by code or words").press_sequentially("3.5.2", delay=10)
    phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for()
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    phone.goto(f"{live_server}/events/1/incidents/1")
    assert phone.get_by_role("link", name="Correct this incident").is_visible()  # logged: still the judge's own
    assert phone.get_by_text("Void this incident").is_visible()
    assert phone.get_by_text("Add a note", exact=True).is_visible()
    shot(phone, "authority-1-logged-incident-floor-judge")

    appeal_and_uphold(live_server.app)
    phone.reload()
    assert "upheld" in phone.locator("#appeals").inner_text()
    assert "Both players saw the card drawn; a warning." in phone.locator("#appeals").inner_text()
    assert phone.get_by_role("link", name="Correct this incident").count() == 0
    assert phone.get_by_text("Void this incident").count() == 0
    assert phone.locator("#change").count() == 0
    note = phone.locator("#note")
    assert note.get_by_text("Add a note or ask the head judge", exact=True).is_visible()
    assert note.get_by_text(FINAL).is_visible()  # why, without a tap: the note is the judge's way now
    assert no_horizontal_scroll(phone)
    shot(phone, "authority-2-decided-incident-floor-judge")

    note.get_by_label("Note").fill("The player now says the opponent shuffled his hand into the deck. Look again?")
    note.get_by_label("Ask the head judge (it appears in their feed)").check()
    shot(phone, "authority-3-question-to-the-head-judge")
    note.get_by_role("button", name="Add the note").click()
    phone.get_by_text("Question sent to the head judge's feed.").wait_for()
    assert "The player now says the opponent shuffled" in phone.locator(".trail").inner_text()

    head.get_by_text("#1 · Warning").wait_for(timeout=10_000)  # the feed refreshes itself
    assert "Sota Takahashi · 3.5.2" in head.locator("#feed").inner_text()
    shot(head, "authority-4-head-judge-feed-lists-the-question")
    head.get_by_text("#1 · Warning").click()
    assert head.get_by_role("link", name="Correct this incident").is_visible()  # the head judge still can
    head_context.close()


def test_a_closed_event_shows_no_buttons_for_changes_the_server_refuses(live_server, phone):
    log_a_warning(live_server.app)
    log_in(phone, live_server, "head@demo.test")  # the head judge holds every grant a closed event takes away
    phone.get_by_role("link", name="Demo Open").click()
    for name in ("New incident", "Start next round", "End this round now"):
        assert offered(phone, name), name
    shot(phone, "authority-5-open-event-head-judge")
    phone.goto(f"{live_server}/events/1/incidents/1")
    for name in ("Correct this incident", "Void this incident", "Add a note"):
        assert offered(phone, name), name

    close_the_event(live_server.app)
    phone.goto(f"{live_server}/events/1")
    assert "records are read-only" in phone.locator(".closed-banner").inner_text()
    for name in ("New incident", "Start next round", "End this round now"):
        assert not offered(phone, name), name
    assert no_horizontal_scroll(phone)
    shot(phone, "authority-6-closed-event-head-judge")
    phone.goto(f"{live_server}/events/1/incidents/1")
    for name in ("Correct this incident", "Void this incident", "Add a note", "Add a note or ask the head judge"):
        assert not offered(phone, name), name
    assert phone.locator("#change").count() == 0 and phone.locator("#note").count() == 0
    shot(phone, "authority-7-closed-event-incident")


def test_refusal_pages_say_why(live_server, phone):
    log_a_warning(live_server.app)
    appeal_and_uphold(live_server.app)
    log_in(phone, live_server)
    response = phone.goto(f"{live_server}/events/1/incidents/1/edit")
    assert response.status == 409
    page = phone.locator(".error-page")
    assert "Not possible now" in page.locator("h1").inner_text()
    assert FINAL in page.inner_text() and INSTEAD in page.inner_text()
    assert no_horizontal_scroll(phone)
    shot(phone, "authority-8-refused-correction")
    page.get_by_role("link", name="Back to the event").click()
    phone.get_by_role("heading", name="Demo Open").wait_for()
