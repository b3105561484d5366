"""Closing and reopening an event through judgeapp/postevent/services.py: open work keeps it open and is listed,
a closed event refuses every change in its services, and each move is audited."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import uuid4

import pytest
from sqlalchemy import select, update

from judgeapp.appeals import services as appeals
from judgeapp.clock import services as clock
from judgeapp.deckchecks import services as deckchecks
from judgeapp.errors import EventClosed, FieldError
from judgeapp.events import round_services
from judgeapp.incidents import edit_services
from judgeapp.incidents import services as incidents
from judgeapp.models import Appeal, DeckCheck, Incident, Round, TimeExtension, utcnow
from judgeapp.postevent import services
from tests.services.conftest import World

pytestmark = pytest.mark.db


def venue_time(at: datetime) -> datetime:
    """The venue's clock: UTC here."""
    return at


def finish_rounds(world: World) -> None:
    """Every round started long enough ago to be over."""
    world.session.execute(update(Round).values(started_at=utcnow() - timedelta(hours=3)))
    world.session.commit()


def close(world: World, who: str = "organizer") -> bool:
    closed = services.close_event(world.session, actor=world.user(who), event=world.event, local=venue_time)
    world.session.commit()
    return closed


@pytest.fixture
def finished(world: World) -> World:
    """A warning logged and the round over: ready to close."""
    world.log(player="P-001")
    finish_rounds(world)
    return world


def test_open_appeals_recommendations_deck_checks_and_a_running_round_keep_the_event_open(world):
    world.seat("2,P-001,P-003\n")
    world.log(player="P-001")
    appeals.file_appeal(
        world.session,
        actor=world.user("floor_judge"),
        event=world.event,
        incident=world.incident(1),
        data=appeals.AppealInput(key=uuid4().hex, appellant=f"player:{world.player('P-001').id}", contest="Not me"),
    )
    world.log(player="P-004", table=1, infraction="4.1", penalty="disqualification")
    deckchecks.start_deck_check(
        world.session,
        actor=world.user("floor_judge"),
        event=world.event,
        data=deckchecks.DeckCheckInput(key=uuid4().hex, table_number=2),
    )
    world.session.commit()
    with pytest.raises(services.CannotClose) as caught:
        close(world)
    world.session.rollback()
    assert [b.text for b in caught.value.blockers] == [
        "Appeal #1 of incident #1 (Aiko Mori) is waiting for a decision.",
        f"Disqualification investigation DQ-{world.ids['event_id']}-1 (Dana Roy) is not finalized.",
        "The deck check at table 2 (round 1) was never ended.",
        caught.value.blockers[-1].text,
    ]
    assert caught.value.blockers[-1].text.startswith("Round 1 is still being played: the last table ends at ")
    assert world.event.closed_at is None and world.entries("event.close") == []
    assert services.warnings(world.session, world.event) == [
        "Only 1 of the 5 planned rounds was started. Close anyway if the event ended early."
    ]


def test_the_organizer_closes_a_finished_event_once_and_it_is_audited(finished):
    assert close(finished) is True
    assert finished.event.closed_at is not None and finished.event.closed_by_id == finished.user("organizer").id
    assert close(finished) is False  # a second tap, or a retried request
    [entry] = finished.entries("event.close")
    assert (entry.details["incidents"], entry.details["appeals"], entry.details["investigations"]) == (1, 0, 0)


def test_a_closed_event_refuses_every_change_in_its_services(finished, refused):
    close(finished)
    session, event, judge = finished.session, finished.event, finished.user("floor_judge")
    roles = finished.roles("floor_judge")
    attempts = {
        "log": lambda: incidents.log_incident(
            session,
            finished.policy,
            actor=judge,
            roles=roles,
            event=event,
            data=incidents.IncidentInput(
                key=uuid4().hex, infraction_code="3.5.2", table_number=2, player_text="P-004", rank_id="warning"
            ),
        ),
        "time": lambda: clock.add_extension(
            session,
            finished.policy,
            actor=judge,
            event=event,
            data=clock.ExtensionInput(key=uuid4().hex, reason="other", table_number=2, minutes=3),
        ),
        "deck check": lambda: deckchecks.start_deck_check(
            session,
            actor=judge,
            event=event,
            data=deckchecks.DeckCheckInput(key=uuid4().hex, table_number=2, player_texts=["P-004"]),
        ),
        "appeal": lambda: appeals.file_appeal(
            session,
            actor=judge,
            event=event,
            incident=finished.incident(1),
            data=appeals.AppealInput(
                key=uuid4().hex, contest="late", appellant=f"player:{finished.player('P-001').id}"
            ),
        ),
        "round": lambda: round_services.start_round(session, actor=finished.user("head_judge"), event=event),
    }
    for attempt in attempts.values():
        with pytest.raises(EventClosed):
            attempt()
        session.rollback()
    for name, attempt in {
        "correct": lambda: edit_services.correct_incident(
            session,
            finished.policy,
            actor=judge,
            roles=roles,
            event=event,
            incident=finished.incident(1),
            data=edit_services.IncidentEdit(
                round_number=1,
                table_number=2,
                infraction_code="3.5.2",
                rank_id="caution",
                deviation_reason="x",
                description="",
            ),
        ),
        "void": lambda: edit_services.void_incident(
            session,
            finished.policy,
            actor=judge,
            roles=roles,
            event=event,
            incident=finished.incident(1),
            reason="wrong player",
        ),
    }.items():
        with refused(409) as caught:
            attempt()
        assert "This event is closed" in caught.value.decision.why, name
    assert [i.rank_id for i in session.scalars(select(Incident))] == ["warning"]
    for model in (Appeal, TimeExtension, DeckCheck):
        assert finished.count(model) == 0, model.__name__
    assert finished.count(Round) == 1


def test_reopening_needs_a_reason_and_is_recorded_with_the_time_it_was_closed(finished):
    close(finished)
    closed_at = finished.event.closed_at
    with pytest.raises(FieldError) as caught:
        services.reopen_event(finished.session, actor=finished.user("organizer"), event=finished.event, reason="  ")
    finished.session.rollback()
    assert (caught.value.field, caught.value.message) == ("reason", "Say why the event is reopened.")
    assert finished.event.closed_at is not None
    services.reopen_event(
        finished.session,
        actor=finished.user("organizer"),
        event=finished.event,
        reason="Head judge found a mistyped table number.",
    )
    finished.session.commit()
    assert finished.event.closed_at is None
    [entry] = finished.entries("event.reopen")
    assert (entry.note, entry.details["closed_at"]) == (
        "Head judge found a mistyped table number.",
        closed_at.isoformat(),
    )
    assert [e.action for e, _ in services.closing_history(finished.session, finished.event)] == [
        "event.close",
        "event.reopen",
    ]
    finished.log(player="P-004", table=2)  # open again: changes are accepted
    assert len(finished.incidents()) == 2


def test_reopening_an_open_event_is_refused(finished):
    with pytest.raises(FieldError, match=r"The event is not closed\."):
        services.reopen_event(
            finished.session, actor=finished.user("organizer"), event=finished.event, reason="Just in case"
        )
    finished.session.rollback()
    assert finished.entries("event.reopen") == []
