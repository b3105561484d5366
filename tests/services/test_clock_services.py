"""Time and deck checks through judgeapp/clock/services.py and judgeapp/deckchecks/services.py: the minutes the policy
owes for a pause, adjusting them with a reason, one-time keys, withdrawing time, the round clock, deck checks started
and ended (with the time they took given back) and the tables picked for the next checks."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from uuid import uuid4

import pytest
from sqlalchemy import select

from judgeapp.clock import services as clock
from judgeapp.deckchecks import services as deckchecks
from judgeapp.errors import FieldError
from judgeapp.lifecycles import IllegalTransition
from judgeapp.models import DeckCheck, DeckCheckResult, Round, TimeExtension
from tests.services.conftest import World

pytestmark = pytest.mark.db


def give(world: World, who: str = "floor_judge", *, key: str | None = None, **fields) -> tuple[TimeExtension, bool]:
    """The time extension form, sent and committed."""
    data = clock.ExtensionInput(**{"key": key or uuid4().hex, "reason": "ruling", "round_number": 1, **fields})
    made = clock.add_extension(world.session, world.policy, actor=world.user(who), event=world.event, data=data)
    world.session.commit()
    return made


def extensions(world: World) -> list[tuple]:
    return [
        (e.table_number, e.minutes, e.proposed_minutes, e.adjust_reason, e.reason.value)
        for e in world.session.scalars(select(TimeExtension).order_by(TimeExtension.id))
    ]


def round_one(world: World) -> Round:
    return world.session.scalars(select(Round).where(Round.number == 1)).one()


# ---- time extensions -------------------------------------------------------------------------------------------------


def test_minutes_owed_are_proposed_from_the_time_taken_and_given_when_left_empty(world):
    give(world, table_number=1, taken_minutes=2.5)
    assert extensions(world) == [(1, 3, 3, None, "ruling")]  # over one minute: the time taken, rounded up
    [entry] = world.entries("extension.add")
    assert (entry.details["minutes"], entry.details["proposed"], entry.details["table"]) == (3, 3, 1)


def test_a_pause_timed_by_its_start_and_end_is_worked_out_by_the_policy(world):
    started = round_one(world).started_at
    give(world, table_number=2, paused_from=started + timedelta(minutes=10), paused_to=started + timedelta(minutes=14))
    assert extensions(world) == [(2, 4, 4, None, "ruling")]


def test_a_short_ruling_owes_nothing_so_giving_time_needs_a_reason(world):
    with pytest.raises(FieldError) as caught:
        give(world, table_number=1, taken_minutes=0.5, minutes=2)
    world.session.rollback()
    assert (caught.value.field, caught.value.message) == ("adjust_reason", "The policy owes 0 min; say why you give 2.")
    assert extensions(world) == [] and world.entries("extension.add") == []


def test_adjusting_the_proposed_minutes_keeps_the_reason_with_the_record(world):
    give(world, table_number=1, taken_minutes=3, minutes=5, adjust_reason="Players lost track of the shuffle")
    assert extensions(world) == [(1, 5, 3, "Players lost track of the shuffle", "ruling")]
    [entry] = world.entries("extension.add")
    assert (entry.details["minutes"], entry.details["proposed"], entry.note) == (
        5,
        3,
        "Players lost track of the shuffle",
    )


BAD_EXTENSIONS = {  # what the form sent: (fields, the field blamed, its message)
    "table": ({"table_number": 7, "minutes": 3}, "table", "There is no table 7"),
    "negative": ({"table_number": 1, "minutes": -1}, "minutes", "Minutes cannot be negative."),
    "over a round": (
        {"table_number": 1, "minutes": 75},
        "minutes",
        "75 minutes is longer than a whole round (50 min).",
    ),
    "no minutes": ({"table_number": 1}, "minutes", "Give the minutes to add"),
    "implausible pause": (
        {"table_number": 1, "taken_minutes": 300},
        "taken_minutes",
        "A pause of more than four hours is not plausible",
    ),
    "half a pause": (
        {"table_number": 1, "paused_from": datetime(2026, 1, 1, 10)},
        "paused_to",
        "Give both the start and the end",
    ),
    "reason": ({"table_number": 1, "reason": "nap", "minutes": 2}, "reason", "Choose ruling, deck check or other."),
}


def test_bad_time_extensions_are_refused_at_their_field_and_nothing_is_stored(world, subtests):
    for name, (fields, field, message) in BAD_EXTENSIONS.items():
        with subtests.test(name):
            with pytest.raises(FieldError) as caught:
                give(world, **fields)
            world.session.rollback()
            assert caught.value.field == field and message in caught.value.message
            assert extensions(world) == []


def test_the_same_time_extension_sent_twice_is_stored_once(world):
    first, _ = give(world, key="extension-sent-twice-01", table_number=1, reason="other", minutes=2)
    again, created = give(world, key="extension-sent-twice-01", table_number=1, reason="other", minutes=2)
    assert (created, again.id) == (False, first.id)
    assert extensions(world) == [(1, 2, None, None, "other")] and len(world.entries("extension.add")) == 1


def test_the_round_clock_lists_tables_with_time_latest_end_first(world):
    for table, minutes in ((1, 3), (2, 7), (1, 2)):
        give(world, table_number=table, reason="other", minutes=minutes)
    rnd = round_one(world)
    shown = clock.round_clock(world.session, rnd)
    assert shown.ends_at == rnd.started_at + timedelta(minutes=50)
    assert [(t.table, t.minutes, t.ends_at - rnd.started_at) for t in shown.tables] == [
        (2, 7, timedelta(minutes=57)),
        (1, 5, timedelta(minutes=55)),
    ]


def test_a_withdrawn_extension_needs_a_reason_and_no_longer_moves_the_tables_end(world):
    ext, _ = give(world, table_number=1, reason="other", minutes=3)
    rnd = round_one(world)
    assert clock.table_ends_at(world.session, rnd, 1) == rnd.started_at + timedelta(minutes=53)

    def withdraw(reason: str) -> None:
        clock.void_extension(
            world.session,
            actor=world.user("floor_judge"),
            roles=world.roles("floor_judge"),
            event=world.event,
            ext=world.session.get(TimeExtension, ext.id),
            reason=reason,
        )
        world.session.commit()

    with pytest.raises(FieldError, match=r"Say why the time is withdrawn\."):
        withdraw(" ")
    world.session.rollback()
    withdraw("Given to the wrong table")
    stored = world.session.get(TimeExtension, ext.id)
    assert (stored.void_reason, stored.voided_at is not None) == ("Given to the wrong table", True)
    assert clock.table_ends_at(world.session, rnd, 1) == rnd.started_at + timedelta(minutes=50)
    assert clock.round_clock(world.session, rnd).tables == []
    assert world.entries("extension.void")[0].note == "Given to the wrong table"


def test_only_the_judge_who_gave_the_time_or_the_head_judge_withdraws_it(world, refused):
    ext, _ = give(world, table_number=1, reason="other", minutes=3)
    with refused(403):
        clock.void_extension(
            world.session,
            actor=world.user("other_floor"),
            roles=world.roles("other_floor"),
            event=world.event,
            ext=world.session.get(TimeExtension, ext.id),
            reason="not mine",
        )
    assert world.session.get(TimeExtension, ext.id).voided_at is None
    clock.void_extension(
        world.session,
        actor=world.user("head_judge"),
        roles=world.roles("head_judge"),
        event=world.event,
        ext=world.session.get(TimeExtension, ext.id),
        reason="Wrong table",
    )
    world.session.commit()
    assert world.session.get(TimeExtension, ext.id).voided_at is not None


# ---- deck checks ----------------------------------------------------------------------------------------------------


def start(world: World, table: int, *players: str, key: str | None = None) -> DeckCheck:
    dc, _ = deckchecks.start_deck_check(
        world.session,
        actor=world.user("floor_judge"),
        event=world.event,
        data=deckchecks.DeckCheckInput(
            key=key or uuid4().hex, round_number=1, table_number=table, player_texts=list(players)
        ),
    )
    world.session.commit()
    return dc


def end(
    world: World,
    dc: DeckCheck,
    result: str = "matches",
    *,
    notes: str = "",
    minutes: int | None = None,
    adjust_reason: str | None = None,
    now: datetime | None = None,
) -> deckchecks.EndResult:
    ended = deckchecks.end_deck_check(
        world.session,
        world.policy,
        actor=world.user("floor_judge"),
        event=world.event,
        dc=world.session.get(DeckCheck, dc.id),
        result=result,
        notes=notes,
        minutes=minutes,
        adjust_reason=adjust_reason,
        now=now,
    )
    world.session.commit()
    return ended


def test_a_deck_check_takes_the_tables_players_and_gives_back_the_time_it_took(world):
    world.seat("1,P-001,P-003\n2,P-002,P-004\n")
    dc = start(world, 1)  # players come from the pairing
    assert sorted(p.name for p in dc.players) == ["Aiko Mori", "Chen Yu"]
    ended = end(world, dc, notes="Counted 50, sleeves fine.", now=dc.started_at + timedelta(minutes=6, seconds=20))
    stored = world.session.get(DeckCheck, dc.id)
    assert (stored.result, stored.notes) == (DeckCheckResult.MATCHES, "Counted 50, sleeves fine.")
    assert ended.owed.minutes == 7 and ended.extension.deck_check_id == dc.id
    assert extensions(world) == [(1, 7, 7, None, "deck_check")]
    assert [e.action for e in world.entries()][-3:] == ["deck_check.start", "deck_check.end", "extension.add"]


def test_a_deck_check_without_pairings_must_name_the_players(world):
    with pytest.raises(FieldError) as caught:
        start(world, 1)
    world.session.rollback()
    assert (caught.value.field, caught.value.message) == (
        "player_1",
        "No pairings known for this table: name the player or players checked.",
    )
    assert world.session.scalars(select(DeckCheck)).all() == []


def test_an_incident_logged_from_a_deck_check_links_to_it(world):
    dc = start(world, 2, "P-002")
    world.log(player="P-002", infraction="3.1.3", penalty="loss_of_game", deck_check_id=dc.id)
    end(world, dc, "problems", minutes=0, adjust_reason="Match ended by the loss of game")
    assert world.incident(1).deck_check_id == dc.id
    assert world.session.get(DeckCheck, dc.id).result is DeckCheckResult.PROBLEMS and extensions(world) == []


def test_ending_a_deck_check_twice_is_refused_and_the_first_result_stays(world):
    dc = start(world, 2, "P-002")
    end(world, dc)
    with pytest.raises(IllegalTransition, match="This deck check already ended"):
        end(world, dc, "problems")
    world.session.rollback()
    assert world.session.get(DeckCheck, dc.id).result is DeckCheckResult.MATCHES
    assert len(world.entries("deck_check.end")) == 1


def test_ending_a_deck_check_needs_its_result(world):
    dc = start(world, 2, "P-002")
    with pytest.raises(FieldError) as caught:
        end(world, dc, "in_progress")
    world.session.rollback()
    assert caught.value.field == "result"
    assert world.session.get(DeckCheck, dc.id).result is DeckCheckResult.IN_PROGRESS


def test_pick_tables_skips_tables_checked_this_round_and_players_checked_earlier(world):
    from judgeapp.events.pairing_services import import_pairings
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round

    judge = world.user("head_judge")
    for n in range(5, 13):
        add_player(world.session, actor=judge, event=world.event, name=f"Player {n}", player_code=f"P-{n:03d}")
    world.session.commit()
    world.seat("1,P-001,P-002\n2,P-003,P-004\n3,P-005,P-006\n")
    start(world, 1)
    start_round(world.session, actor=judge, event=world.event)
    import_pairings(
        world.session,
        actor=judge,
        event=world.event,
        round_number=2,
        text="1,P-005,P-006\n2,P-001,P-007\n3,P-003,P-008\n4,P-009,P-010\n5,P-011,P-012\n",
    )
    deckchecks.start_deck_check(
        world.session,
        actor=judge,
        event=world.event,
        data=deckchecks.DeckCheckInput(key="round-two-check-table-3", table_number=3),
    )
    world.session.commit()
    for seed in range(20):
        pick = deckchecks.pick_tables(world.session, world.event, count=5, rng=random.Random(seed))
        # table 3 was checked this round; table 2 seats P-001, checked in round 1
        assert pick.tables == [1, 4, 5] and pick.skipped_tables == [3] and pick.skipped_players == 1


# ---- extra turns (Bushiroad Floor Rules 1.2.2, 4.2) ------------------------------------------------------------------


def test_a_ruling_may_give_extra_turns_with_or_without_minutes_where_the_policy_allows_them(world):
    ext, _ = give(world, table_number=1, minutes=2, adjust_reason="Two minutes and a turn", extra_turns=1)
    only_turns, _ = give(world, table_number=2, minutes=0, extra_turns=2, adjust_reason="Turns instead of time")
    assert [(e.table_number, e.minutes, e.extra_turns) for e in (ext, only_turns)] == [(1, 2, 1), (2, 0, 2)]
    assert [e.details.get("extra_turns") for e in world.entries("extension.add")] == [1, 2]
    clock_view = clock.round_clock(world.session, round_one(world))
    assert {t.table: (t.minutes, t.extra_turns) for t in clock_view.tables} == {1: (2, 1), 2: (0, 2)}


def test_extra_turns_are_refused_where_the_policys_rule_gives_none(world):
    with pytest.raises(FieldError) as caught:
        give(world, table_number=1, reason="deck_check", minutes=3, extra_turns=1)
    world.session.rollback()
    assert caught.value.field == "extra_turns" and "no extra turns for a deck check" in caught.value.message
    assert extensions(world) == []


def test_the_judge_is_reminded_to_announce_a_ruling_extension_before_the_result_floor_rules_1_2_2(world):
    from judgeapp.infractions import ExtensionReason

    reminder = clock.announce_reminder(world.policy, ExtensionReason.RULING)
    assert "both players" in reminder and "before the result" in reminder and "1.2.2" in reminder
    assert clock.announce_reminder(world.policy, ExtensionReason.DECK_CHECK) is None
