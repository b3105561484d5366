"""Events through judgeapp/events/ (services.py, staff_services.py, player_services.py, round_services.py,
pairing_services.py): creating and changing an event under a policy, staff and their roles, players one by one and
from a file, rounds and pairings, asserted on the stored rows and audit entries."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from judgeapp.errors import FieldError
from judgeapp.events import pairing_services, player_services, round_services, services, staff_services
from judgeapp.infractions import Catalog
from judgeapp.models import AuditEntry, Event, Player, Round, StaffAssignment
from judgeapp.models import Role as StaffRole  # the one Role (judgeapp/roles.py), as the tests of staff read it
from judgeapp.permissions import Role, roles_at
from tests.services.conftest import World

pytestmark = pytest.mark.db


def event_data(**changes) -> services.EventData:
    fields = dict(
        name="Winter Open",
        date=date(2026, 12, 12),
        venue="Hall C",
        policy_id="bushiroad-afr",
        level=2,
        rounds=6,
        round_minutes=50,
        challenge_limit=2,
    )
    return services.EventData(**{**fields, **changes})


def settings_of(event: Event, **changes) -> services.EventData:
    """The settings form as it opens on `event`, with `changes`."""
    fields = dict(
        name=event.name,
        date=event.date,
        venue=event.venue,
        policy_id=event.policy_id,
        level=event.level,
        rounds=event.rounds,
        round_minutes=event.round_minutes,
        challenge_limit=event.challenge_limit,
        statement_days=event.statement_days,
    )
    return services.EventData(**{**fields, **changes})


def staff(world: World, email: str, role: StaffRole, name: str = "", accept: bool = True) -> staff_services.StaffResult:
    """The organizer invites `email` to `role` (replacing a head judge when asked) and, unless told otherwise, the
    invited person accepts: only then is the role theirs (issue 32)."""
    result = staff_services.add_staff(
        world.session,
        actor=world.user("organizer"),
        event=world.event,
        email=email,
        name=name,
        role=role,
        replace_head_judge=True,
    )
    world.session.commit()
    if accept:
        invitation = result.invitation
        staff_services.answer_invitation(world.session, user=invitation.user, invitation_id=invitation.id, accept=True)
        world.session.commit()
    return result


def current(world: World, role: StaffRole) -> list[StaffAssignment]:
    return [a for a in staff_services.current_staff(world.session, world.event) if a.role is role]


# ---- the event and its policy ----------------------------------------------------------------------------------------


def test_an_organizer_creates_an_event_under_a_policy_and_level_of_the_catalog(world, catalog: Catalog):
    event = services.create_event(world.session, catalog, organizer=world.user("organizer"), data=event_data())
    world.session.commit()
    stored = world.session.get(Event, event.id)
    assert (stored.policy_id, stored.policy_version, stored.level, stored.challenge_limit, stored.statement_days) == (
        "bushiroad-afr",
        catalog.policy("bushiroad-afr").version,
        2,
        2,
        7,
    )
    assert list(world.session.scalars(select(AuditEntry.action).where(AuditEntry.event_id == event.id))) == [
        "event.create"
    ]


@pytest.mark.parametrize(
    "changes, field, message",
    [
        ({"policy_id": "no-such-policy"}, "policy_id", "Unknown policy; choose one of"),
        ({"policy_id": "wot-ccg", "level": 3}, "level", "has levels 1"),
    ],
)
def test_a_policy_or_level_the_catalog_does_not_have_is_refused_at_its_field(world, catalog, changes, field, message):
    before = world.count(Event)
    with pytest.raises(FieldError) as caught:
        services.create_event(world.session, catalog, organizer=world.user("organizer"), data=event_data(**changes))
    world.session.rollback()
    assert caught.value.field == field and message in caught.value.message
    assert world.count(Event) == before


def test_changed_settings_are_audited_with_before_and_after(world, catalog):
    services.update_event(
        world.session,
        catalog,
        actor=world.user("organizer"),
        event=world.event,
        data=settings_of(world.event, round_minutes=55, venue="Hall B"),
    )
    world.session.commit()
    assert (world.event.round_minutes, world.event.venue) == (55, "Hall B")
    [entry] = world.entries("event.update")
    assert entry.details["changed"] == {"venue": ["Hall A", "Hall B"], "round_minutes": [50, 55]}


def test_the_level_may_change_until_the_first_incident_and_then_stays_with_its_incidents(world, catalog):
    services.update_event(
        world.session, catalog, actor=world.user("organizer"), event=world.event, data=settings_of(world.event, level=3)
    )
    world.session.commit()
    assert world.entries("event.update")[0].details["changed"]["level"] == [2, 3]
    world.log(player="P-001")
    with pytest.raises(FieldError) as caught:
        services.update_event(
            world.session,
            catalog,
            actor=world.user("organizer"),
            event=world.event,
            data=settings_of(world.event, level=2),
        )
    world.session.rollback()
    assert caught.value.field == "level"
    assert caught.value.message.startswith("1 incident was logged under bushiroad-afr at level 3")
    assert world.event.level == 3 and len(world.entries("event.update")) == 1


def test_fewer_rounds_than_have_started_is_refused(world, catalog):
    round_services.start_round(world.session, actor=world.user("head_judge"), event=world.event)
    world.session.commit()
    with pytest.raises(FieldError) as caught:
        services.update_event(
            world.session,
            catalog,
            actor=world.user("organizer"),
            event=world.event,
            data=settings_of(world.event, rounds=1),
        )
    world.session.rollback()
    assert (caught.value.field, caught.value.message) == ("rounds", "2 rounds have already started.")
    assert world.event.rounds == 5


# ---- staff -----------------------------------------------------------------------------------------------------------


def test_an_event_has_one_head_judge_and_the_one_replaced_is_kept_ended_with_the_reason(world):
    old = world.user("head_judge")
    new = world.user("other_floor")
    staff(world, new.email, StaffRole.HEAD_JUDGE)
    assert [a.user_id for a in current(world, StaffRole.HEAD_JUDGE)] == [new.id]
    replaced = world.session.scalars(select(StaffAssignment).where(StaffAssignment.user_id == old.id)).one()
    assert replaced.ended_at is not None and replaced.end_reason == "replaced as head judge by Other Floor"
    assert [e.action for e in world.entries()][-3:] == ["staff.end", "staff.add", "staff.invitation_accepted"]


def test_one_person_may_hold_several_roles_but_not_the_same_one_twice(world):
    scorekeeper = world.user("scorekeeper")
    staff(world, scorekeeper.email, StaffRole.FLOOR_JUDGE)
    assert world.roles("scorekeeper") == {Role.SCOREKEEPER, Role.FLOOR_JUDGE}
    with pytest.raises(FieldError) as caught:
        staff(world, " " + scorekeeper.email.upper(), StaffRole.FLOOR_JUDGE)  # the address as typed, another spelling
    world.session.rollback()
    assert caught.value.message == f"{scorekeeper.email} is already floor judge at this event."


def test_a_new_address_gets_an_account_without_a_password_and_an_invite(world):
    from judgeapp.auth.services import authenticate, has_password, user_by_email

    result = staff(world, "New.Judge@Example.test", StaffRole.FLOOR_JUDGE, accept=False)
    user = user_by_email(world.session, "new.judge@example.test")
    assert result.invite_token and (user.name, has_password(user)) == ("new.judge", False)
    assert authenticate(world.session, user.email, "") is None
    assert roles_at(world.session, user, world.event) == set()  # invited: no role until they accept
    staff_services.answer_invitation(world.session, user=user, invitation_id=result.invitation.id, accept=True)
    assert roles_at(world.session, user, world.event) == {Role.FLOOR_JUDGE}


def test_removing_staff_needs_a_reason_and_keeps_the_assignment_ended(world):
    [assignment] = current(world, StaffRole.FLOOR_JUDGE)[:1]
    with pytest.raises(FieldError) as caught:
        staff_services.end_staff(
            world.session, actor=world.user("organizer"), event=world.event, assignment_id=assignment.id, reason=" "
        )
    world.session.rollback()
    assert caught.value.message == "Say why this person leaves the role."
    staff_services.end_staff(
        world.session,
        actor=world.user("organizer"),
        event=world.event,
        assignment_id=assignment.id,
        reason="left early",
    )
    world.session.commit()
    row = world.session.get(StaffAssignment, assignment.id)
    assert (row.ended_at is not None, row.end_reason) == (True, "left early")
    assert Role.FLOOR_JUDGE not in world.roles("floor_judge")
    assert world.entries("staff.end")[-1].note == "left early"


# ---- players ---------------------------------------------------------------------------------------------------------


def test_players_are_added_one_by_one_with_unique_ids_at_the_event(world):
    player_services.add_player(
        world.session, actor=world.user("organizer"), event=world.event, name="  Haruto   Sato ", player_code="P-101"
    )
    world.session.commit()
    with pytest.raises(FieldError) as caught:
        player_services.add_player(
            world.session, actor=world.user("organizer"), event=world.event, name="Someone Else", player_code="P-101"
        )
    world.session.rollback()
    assert (caught.value.field, caught.value.message) == (
        "player_code",
        "Player ID P-101 is already registered at this event.",
    )
    assert [p.name for p in world.session.scalars(select(Player).where(Player.player_code == "P-101"))] == [
        "Haruto Sato"
    ]


# Players files: tests/services/test_tournament_imports.py (the one import for every tournament file).


# ---- rounds and pairings ---------------------------------------------------------------------------------------------


def test_rounds_start_up_to_the_events_count_each_ending_the_one_before(world):
    for _ in range(4):
        round_services.start_round(world.session, actor=world.user("head_judge"), event=world.event)
        world.session.commit()
    with pytest.raises(FieldError) as caught:
        round_services.start_round(world.session, actor=world.user("head_judge"), event=world.event)
    world.session.rollback()
    assert caught.value.message == "All 5 rounds have been started."
    rounds = list(world.session.scalars(select(Round).order_by(Round.number)))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5] and all(r.length_minutes == 50 for r in rounds)
    assert [r.ended_at is not None for r in rounds] == [True, True, True, True, False]
    assert len(world.entries("round.start")) == 5 and len(world.entries("round.end")) == 4


def test_pairings_seat_good_rows_and_report_bad_ones_with_their_line(world):
    report = pairing_services.import_pairings(
        world.session,
        actor=world.user("scorekeeper"),
        event=world.event,
        round_number=1,
        text="table,p1,p2\n1,P-001,P-003\n2,P-002,P-999\nx,P-004\n3,P-001\n",
    )
    world.session.commit()
    assert report.added == 2
    assert [(line, reason) for line, _, reason in report.rejected] == [
        (3, "unknown player ID P-999"),
        (4, "the table must be a number from 1 to 9999"),
        (5, "already seated this round: P-001 (table 1, line 2 of this file)"),
    ]
    seated = pairing_services.pairings_of(world.session, round_services.current_round(world.session, world.event))
    assert {t: [p.player_code for p in ps] for t, ps in seated.items()} == {1: ["P-001", "P-003"]}
    assert world.entries("pairings.import")[0].details["seated"] == 2


def seated(world: World) -> list[tuple[int, str]]:
    """Round 1's seats as (table, player ID), in table order."""
    rnd = round_services.current_round(world.session, world.event)
    return sorted(
        (table, p.player_code)
        for table, players in pairing_services.pairings_of(world.session, rnd).items()
        for p in players
    )


def seat(world: World, text: str, *, commit: bool = True) -> list[tuple[int, str]]:
    """Import round 1's pairings as the scorekeeper; the rejected rows as (line, reason)."""
    report = pairing_services.import_pairings(
        world.session, actor=world.user("scorekeeper"), event=world.event, round_number=1, text=text
    )
    if commit:
        world.session.commit()
    return [(line, reason) for line, _, reason in report.rejected]


NOT_TABLES = ["²", "٣", "１", "1e3", "-1", "0", "+1", " 1 2", "1.0", "99999999999999999999", "10000"]


def test_a_pairings_row_whose_table_is_not_a_table_number_is_a_row_error(world, subtests):
    for table in NOT_TABLES:
        for line in (1, 2):  # on line 1 such a row is not taken for a header either
            with subtests.test(table=table, line=line):
                rows = (
                    [f"{table},P-001,P-003", "2,P-002,P-004"]
                    if line == 1
                    else ["1,P-001,P-003", f"{table},P-002,P-004"]
                )
                try:
                    assert seat(world, "\n".join(rows) + "\n", commit=False) == [
                        (line, "the table must be a number from 1 to 9999")
                    ]
                    good = (2, ["P-002", "P-004"]) if line == 1 else (1, ["P-001", "P-003"])
                    assert seated(world) == [(good[0], code) for code in good[1]]
                finally:
                    world.session.rollback()


def test_a_player_named_twice_in_one_pairings_row_is_a_row_error(world):
    assert seat(world, "1,P-001,P-001\n2,P-002,P-004\n") == [(1, "player ID P-001 is named twice in this row")]
    assert seated(world) == [(2, "P-002"), (2, "P-004")]


def test_a_player_seated_twice_in_one_pairings_file_is_reported_with_the_first_line(world):
    assert seat(world, "table,p1,p2\n1,P-001,P-003\n2,P-002,P-001\n") == [
        (3, "already seated this round: P-001 (table 1, line 2 of this file)")
    ]
    assert seated(world) == [(1, "P-001"), (1, "P-003")]


def test_a_player_already_seated_this_round_is_a_row_error_on_the_next_upload(world):
    seat(world, "1,P-001,P-003\n")
    assert seat(world, "1,P-001,P-003\n2,P-002,P-004\n") == [(1, "already seated this round: P-001, P-003")]
    assert seated(world) == [(1, "P-001"), (1, "P-003"), (2, "P-002"), (2, "P-004")]
