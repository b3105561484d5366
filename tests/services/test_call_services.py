"""Judge calls through their services, as the views call them: one live call per table, numbering, the queue's
badge by role, and two judges taking one call at the same moment on the real database (SQLite here, PostgreSQL in
the second pass)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select

from judgeapp.calls import services as calls
from judgeapp.events.round_services import end_round, start_round
from judgeapp.events.staff_services import end_staff
from judgeapp.extensions import db
from judgeapp.lifecycles import CallOutcome, CallState
from judgeapp.models import Event, JudgeCall, StaffAssignment, User

pytestmark = pytest.mark.db


def test_a_table_holds_one_live_call_and_numbers_run_per_event_with_the_round_that_was_running(world):
    first, created = calls.raise_call(world.session, event=world.event, table=7, reason="dispute", note=" a  b ")
    again, again_created = calls.raise_call(world.session, event=world.event, table=7, reason="other", note="")
    other, _ = calls.raise_call(world.session, event=world.event, table=8, reason=None, note=None)
    world.session.commit()
    assert (created, again_created, again.id) == (True, False, first.id)
    assert (first.number, other.number) == (1, 2)
    assert first.note == "a b" and first.reason.value == "dispute" and other.reason.value == "other"
    assert first.round is not None and first.round.number == 1
    assert [e.details["table"] for e in world.entries("raise_call")] == [7, 8]  # each call is an audit entry


def test_a_call_between_rounds_has_no_round_and_an_unknown_reason_is_refused_at_its_field(world):
    from judgeapp.errors import FieldError
    from judgeapp.events.round_services import current_round

    end_round(
        world.session, actor=world.user("head_judge"), event=world.event, rnd=current_round(world.session, world.event)
    )
    call, _ = calls.raise_call(world.session, event=world.event, table=3, reason=None, note="")
    assert call.round_id is None
    with pytest.raises(FieldError) as refused:
        calls.raise_call(world.session, event=world.event, table=4, reason="bribery", note="")
    assert refused.value.field == "reason"


def test_the_badge_counts_waiting_calls_for_judges_and_handed_ones_for_the_head_judge_only(world):
    calls.raise_call(world.session, event=world.event, table=1, reason="other", note="")
    handed, _ = calls.raise_call(world.session, event=world.event, table=2, reason="other", note="")
    floor = world.user("floor_judge")
    calls.take(world.session, actor=floor, roles=world.roles("floor_judge"), event=world.event, call=handed)
    calls.escalate(world.session, actor=floor, roles=world.roles("floor_judge"), event=world.event, call=handed)
    world.session.commit()
    assert calls.waiting_for(world.session, floor) == 1
    assert calls.waiting_for(world.session, world.user("head_judge")) == 2
    badge = calls.badge_for(world.session, world.user("head_judge"))
    assert [c.table_number for c in badge.handed] == [2]
    assert calls.waiting_for(world.session, world.user("scorekeeper")) is None  # not a judge: no badge
    assert calls.waiting_for(world.session, world.user("outsider")) is None
    assignment = world.session.scalar(
        select(StaffAssignment).where(StaffAssignment.user_id == floor.id, StaffAssignment.event_id == world.event.id)
    )
    end_staff(world.session, actor=world.event.organizer, event=world.event, assignment_id=assignment.id, reason="left")
    world.session.commit()
    assert calls.waiting_for(world.session, floor) is None  # a judge who left the event


def test_closing_the_event_cancels_the_calls_nobody_took(world):
    waiting, _ = calls.raise_call(world.session, event=world.event, table=1, reason="other", note="")
    assert calls.close_with_event(world.session, actor=world.event.organizer, event=world.event) == 1
    assert waiting.state is CallState.CLOSED and waiting.outcome is CallOutcome.CANCELLED
    assert waiting.live_table is None  # the table may call again if the event is reopened


def test_of_two_judges_taking_one_call_at_the_same_moment_exactly_one_wins_and_the_other_is_told_who(app, world):
    call, _ = calls.raise_call(world.session, event=world.event, table=5, reason="other", note="")
    event_id, number, call_id = world.event.id, call.number, call.id
    world.session.commit()
    world.session.close()  # this test's own transaction must not hold SQLite's write lock while the judges tap
    judges = [world.ids["people"]["floor_judge"][0], world.ids["people"]["other_floor"][0]]
    ready = threading.Barrier(2)
    outcome: dict[int, str] = {}

    def tap(user_id: int) -> None:
        ready.wait(timeout=10)  # both requests start together (on SQLite the first BEGIN IMMEDIATE holds the other)
        with app.app_context():  # a request of its own: its own session and connection
            try:
                event = db.session.get(Event, event_id)
                user = db.session.get(User, user_id)
                roles = frozenset({"floor_judge"})
                mine = calls.call_by_number(db.session, event, number)
                calls.take(db.session, actor=user, roles=roles, event=event, call=mine)
                db.session.commit()
                outcome[user_id] = "took it"
            except calls.CallTaken as taken:
                db.session.rollback()
                outcome[user_id] = str(taken)
            except Exception as err:  # shown in the assertion, not lost in the thread
                outcome[user_id] = f"failed: {err!r}"

    threads = [threading.Thread(target=tap, args=(j,)) for j in judges]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcome.values()).count("took it") == 1, outcome
    winner = next(j for j, o in outcome.items() if o == "took it")
    loser_was_told = next(o for j, o in outcome.items() if j != winner)
    with app.app_context():
        stored = db.session.scalar(select(JudgeCall).where(JudgeCall.id == call_id))
        name = db.session.get(User, winner).name
        assert stored.taken_by_id == winner and stored.state is CallState.TAKEN
    assert loser_was_told == f"{name} has already taken the call at table 5."


def test_a_resent_take_by_the_judge_who_holds_the_call_changes_nothing(world):
    call, _ = calls.raise_call(world.session, event=world.event, table=6, reason="other", note="")
    floor = world.user("floor_judge")
    calls.take(world.session, actor=floor, roles=world.roles("floor_judge"), event=world.event, call=call)
    taken_at = call.taken_at
    calls.take(world.session, actor=floor, roles=world.roles("floor_judge"), event=world.event, call=call)
    assert call.taken_at == taken_at and len(world.entries("take_call")) == 1


def test_a_new_round_does_not_move_a_call_raised_in_the_previous_one(world):
    call, _ = calls.raise_call(world.session, event=world.event, table=9, reason="other", note="")
    start_round(world.session, actor=world.user("head_judge"), event=world.event)
    world.session.commit()
    assert call.round.number == 1
