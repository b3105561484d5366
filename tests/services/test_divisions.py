"""Divisions at an event (issue 34): a TOM Cup's pods applied as the event's divisions, each with its own players,
rounds and tables; re-imports idempotent and changed rounds confirmed per division; a table seats one match per round
of a division, in the file's check and in the database. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from judgeapp.events import imports, pairing_services, round_services, staff_services
from judgeapp.events import services as events
from judgeapp.models import Division, Event, Pairing, Player

from .conftest import World

pytestmark = pytest.mark.db

DATA = Path(__file__).resolve().parent.parent / "data" / "imports"


def new_event(world: World, name: str = "Sampleton Spring Cup") -> Event:
    data = events.EventData(
        name=name, date=date(2026, 5, 16), venue="Hall", policy_id="bushiroad-afr", level=1, rounds=3,
        round_minutes=50,
    )  # fmt: skip
    event = events.create_event(world.session, world.policy_catalog, organizer=world.user("organizer"), data=data)
    world.session.commit()
    return event


def apply(world: World, event: Event, data: bytes, *, replace_rounds=()) -> imports.ImportOutcome:
    actor = world.user("organizer")
    upload = imports.receive(world.session, actor=actor, event=event, data=data, filename="cup.tdf")
    world.session.commit()
    outcome = imports.apply(world.session, actor=actor, event=event, upload=upload, replace_rounds=replace_rounds)
    world.session.commit()
    return outcome


def divisions(world: World, event: Event) -> list[Division]:
    return list(
        world.session.scalars(select(Division).where(Division.event_id == event.id).order_by(Division.position))
    )


def counted(world: World, event: Event) -> dict[str, tuple[int, int, int]]:
    """Division name -> (players, live pairings at a table, live byes) as stored."""
    out = {}
    for d in divisions(world, event):
        players = world.session.scalar(select(func.count()).select_from(Player).where(Player.division_id == d.id))
        live = (
            select(func.count()).select_from(Pairing).where(Pairing.division_id == d.id, Pairing.replaced_at.is_(None))
        )
        seats = world.session.scalar(live.where(Pairing.table_number.is_not(None)))
        byes = world.session.scalar(live.where(Pairing.table_number.is_(None)))
        out[d.name] = (players, seats // 2, byes)
    return out


@pytest.fixture
def cup() -> bytes:
    return (DATA / "tom-cup-two-divisions.tdf").read_bytes()


def test_a_two_pod_tom_cup_makes_the_events_one_division_the_first_pod_and_adds_the_second(world, cup):
    event = new_event(world)
    report = apply(world, event, cup).report()
    assert [(d.name, d.top_cut_from, d.top_cut_size, d.starting_table) for d in divisions(world, event)] == [
        ("Juniors+Seniors", 5, 4, 1),
        ("Masters", 6, 8, 2),
    ]
    assert counted(world, event) == {"Juniors+Seniors": (9, 19, 0), "Masters": (14, 37, 5)}
    ids = [d.id for d in divisions(world, event)]
    assert report["divisions"] == [
        {"id": ids[0], "name": "Juniors+Seniors", "players": 9, "rounds": 6, "pairings": 19, "byes": 0},
        {"id": ids[1], "name": "Masters", "players": 14, "rounds": 8, "pairings": 37, "byes": 5},
    ]
    assert (report["players"], report["rounds"], report["pairings"], report["byes"]) == (23, 8, 56, 5)
    assert [e.details["after"] for e in world.entries_of(event, "division.rename")] == ["Juniors+Seniors"]
    assert [e.details["name"] for e in world.entries_of(event, "division.add")] == ["Masters"]


def test_no_divisions_round_seats_two_matches_at_one_table_and_table_two_of_round_five_seats_each_its_own(world, cup):
    event = new_event(world)
    apply(world, event, cup)
    crowded = world.session.execute(
        select(Pairing.division_id, Pairing.round_number, Pairing.table_number, func.count())
        .where(Pairing.event_id == event.id, Pairing.replaced_at.is_(None), Pairing.table_number.is_not(None))
        .group_by(Pairing.division_id, Pairing.round_number, Pairing.table_number)
        .having(func.count() > 2)
    ).all()
    assert crowded == []
    juniors, masters = divisions(world, event)
    at_two = {
        d.name: sorted(p.player_code for p in pairing_services.seating_of(world.session, event.id, 5, d.id).get(2, []))
        for d in (juniors, masters)
    }
    assert at_two == {"Juniors+Seniors": ["9341001", "9341002"], "Masters": ["9342004", "9342005"]}


def test_the_database_refuses_a_second_match_at_a_table_of_a_divisions_round(world, cup):
    event = new_event(world)
    apply(world, event, cup)
    juniors = divisions(world, event)[0]
    somebody = world.session.scalar(select(Player).where(Player.division_id == juniors.id))
    world.session.add(
        Pairing(
            event_id=event.id, division_id=juniors.id, round_number=7, table_number=1, seat=1, player_id=somebody.id
        )
    )
    world.session.flush()
    other = world.session.scalars(select(Player).where(Player.division_id == juniors.id)).all()[1]
    world.session.add(
        Pairing(event_id=event.id, division_id=juniors.id, round_number=7, table_number=1, seat=1, player_id=other.id)
    )
    with pytest.raises(IntegrityError):
        world.session.flush()
    world.session.rollback()


def test_reimporting_a_two_division_cup_changes_nothing(world, cup):
    event = new_event(world)
    apply(world, event, cup)
    pairings = world.count(Pairing)
    again = apply(world, event, cup).report()
    assert again["event"]["new_players"] == 0 and again["event"]["rounds_added"] == []
    assert sorted(again["event"]["rounds_unchanged"]) == sorted(list(range(1, 7)) + list(range(1, 9)))
    assert world.count(Pairing) == pairings and len(divisions(world, event)) == 2


def test_a_changed_round_of_one_division_waits_for_confirmation_of_that_division_only(world, cup):
    event = new_event(world)
    apply(world, event, cup)
    masters = divisions(world, event)[1]
    # the Masters' round 5 seats two matches the other way round (tables 2 and 3 swap one player each)
    text = cup.decode()
    pod = text.index('<pod category="2"')
    start = text.index('<round number="5"', pod)
    end = text.index("</round>", start)
    round_5 = (
        text[start:end]
        .replace('<player2 userid="9342005" />', '<player2 userid="SWAP" />')
        .replace('<player2 userid="9342007" />', '<player2 userid="9342005" />')
        .replace('<player2 userid="SWAP" />', '<player2 userid="9342007" />')
    )
    changed = text[:start] + round_5 + text[end:]
    assert changed != text
    report = apply(world, event, changed.encode()).report()
    assert [(c["division"], c["round"], c["tables"]) for c in report["event"]["rounds_to_confirm"]] == [
        ("Masters", 5, [2, 3])
    ]
    key = report["event"]["rounds_to_confirm"][0]["key"]
    assert key == f"{masters.id}:5"
    done = apply(world, event, changed.encode(), replace_rounds=[key]).report()
    assert done["event"]["rounds_replaced"] == [5] and done["event"]["rounds_to_confirm"] == []
    at = pairing_services.seating_of(world.session, event.id, 5, masters.id)
    assert sorted(p.player_code for p in at[2]) == ["9342004", "9342007"]


def test_a_save_before_pairing_then_the_paired_cup_puts_each_registrant_in_their_pod(world, cup):
    event = new_event(world)
    early = apply(world, event, (DATA / "tom-cup-before-pairing.tdf").read_bytes()).report()
    assert (early["players"], early["pairings"], len(early["divisions"])) == (21, 0, 1)
    apply(world, event, cup)
    assert counted(world, event) == {"Juniors+Seniors": (9, 19, 0), "Masters": (14, 37, 5)}


def _running_cup(world: World, cup: bytes) -> tuple[Event, Division, Division]:
    """The Cup imported at a new event, floor judges on its staff, round 5 running in each division."""
    event = new_event(world)
    apply(world, event, cup)
    organizer = world.user("organizer")
    for who in ("floor_judge",):
        staff_services.assign_staff(world.session, actor=organizer, event=event, email=world.user(who).email, name="",
                            role="floor_judge")  # fmt: skip
    juniors, masters = divisions(world, event)
    for division in (juniors, masters):
        for _ in range(5):
            round_services.start_round(world.session, actor=organizer, event=event, division_id=division.id)
    world.session.commit()
    return event, juniors, masters


def _log(world: World, event: Event, player: str, **fields):
    from uuid import uuid4

    from judgeapp.incidents.services import IncidentInput, log_incident
    from judgeapp.permissions import roles_at

    actor = world.user("floor_judge")
    fields.setdefault("rank_id", "warning")
    data = IncidentInput(key=uuid4().hex, infraction_code="3.5.2", round_number=5, table_number=2,
                         player_text=player, **fields)  # fmt: skip
    result = log_incident(world.session, world.policy, actor=actor, roles=roles_at(world.session, actor, event),
                          event=event, data=data)  # fmt: skip
    world.session.commit()
    return result.incident


def test_an_incident_at_table_two_of_round_five_in_masters_belongs_to_the_masters_round(world, cup):
    event, _juniors, masters = _running_cup(world, cup)
    incident = _log(world, event, "9342004", division_id=masters.id)
    assert (incident.round.division_id, incident.round.number, incident.table_number) == (masters.id, 5, 2)


def test_a_round_number_running_in_two_divisions_asks_which_division(world, cup):
    from judgeapp.errors import FieldError

    event, _juniors, _masters = _running_cup(world, cup)
    with pytest.raises(FieldError) as caught:
        _log(world, event, "9342004")
    world.session.rollback()
    assert caught.value.field == "division"
    assert "Choose the division" in caught.value.message


def test_the_scorekeepers_seating_refuses_a_second_match_at_a_table_already_used_this_round(world):
    report = pairing_services.import_pairings(
        world.session, actor=world.user("organizer"), event=world.event, round_number=1,
        text="1,P-001,P-002\n1,P-003,P-004\n",
    )  # fmt: skip
    world.session.commit()
    assert report.added == 2
    assert [(line, problem) for line, _raw, problem in report.rejected] == [
        (2, "table 1 already seats a match this round (line 1 of this file)")
    ]


def test_where_the_venue_numbers_tables_across_divisions_no_round_seats_two_matches_at_one_table_of_the_event(
    world, cup
):
    event = new_event(world)
    event.tables_across_divisions = True
    world.session.commit()
    report = apply(world, event, cup).report()
    assert report["rejected"] and all("is already used by another match" in r["reason"] for r in report["rejected"])
    crowded = world.session.execute(
        select(Pairing.round_number, Pairing.table_number, func.count())
        .where(Pairing.event_id == event.id, Pairing.replaced_at.is_(None), Pairing.table_number.is_not(None))
        .group_by(Pairing.round_number, Pairing.table_number)
        .having(func.count() > 2)
    ).all()
    assert crowded == []


def test_table_two_of_each_division_calls_at_once_and_each_call_names_its_own_divisions_players(world, cup):
    from judgeapp.calls import services as calls

    event, juniors, masters = _running_cup(world, cup)
    in_masters, created = calls.raise_call(
        world.session, event=event, table=2, reason="rules_question", note="", division_id=masters.id
    )
    in_juniors, also = calls.raise_call(
        world.session, event=event, table=2, reason="rules_question", note="", division_id=juniors.id
    )
    world.session.commit()
    assert created and also and in_masters.id != in_juniors.id  # one live call per table of a division
    assert (in_masters.round.division_id, in_masters.round.number) == (masters.id, 5)
    assert sorted(p.player_code for p in calls.seated_at(world.session, in_masters)) == ["9342004", "9342005"]
    assert sorted(p.player_code for p in calls.seated_at(world.session, in_juniors)) == ["9341001", "9341002"]


def test_a_divisions_call_link_is_signed_for_that_division_only(world, cup, app):
    from judgeapp.calls import services as calls

    event, juniors, masters = _running_cup(world, cup)
    with app.test_request_context():
        links = dict(calls.table_links(world.session, event, world.user("organizer"), 2, 2, masters.id))
    world.session.commit()
    assert f"/call/{event.id}/{masters.id}/2/" in links[2]
    sig = links[2].rsplit("/", 1)[1]
    assert calls.event_of_link(world.session, event.id, 2, sig, masters.id) is not None
    assert calls.event_of_link(world.session, event.id, 2, sig, juniors.id) is None  # not another division's table
    assert calls.event_of_link(world.session, event.id, 2, sig) is None  # nor the link without a division


def test_the_incidents_and_player_penalties_exports_name_each_rows_division_at_an_event_of_several(world, cup):
    from judgeapp.postevent import services as postevent

    event, _juniors, masters = _running_cup(world, cup)
    _log(world, event, "9342004", division_id=masters.id)
    assert postevent.several_divisions(world.session, event)
    records = postevent.records_of(world.session, event)
    rows = postevent.incident_rows(world.policy, event, records, lambda at: at)
    header, table = postevent.with_division(
        postevent.INCIDENT_HEADER, rows, records, postevent.DIVISION_OF_ROW["incidents"]
    )
    assert str(header[-1]) == "division" and [row[-1] for row in table] == ["Masters"]
    rows = postevent.player_penalty_rows(world.policy, event, records)
    _header, table = postevent.with_division(
        postevent.PLAYER_PENALTY_HEADER, rows, records, postevent.DIVISION_OF_ROW["player-penalties"]
    )
    assert [(row[0], row[-1]) for row in table] == [("9342004", "Masters")]
    assert not postevent.several_divisions(world.session, world.event)  # one division: the exports as before


def test_the_post_event_report_lists_each_divisions_players_and_rounds_and_none_for_one_division(world, cup):
    from judgeapp.postevent import services as postevent

    event, _juniors, _masters = _running_cup(world, cup)
    report = postevent.report_of(world.session, world.policy, event, local=lambda t: t, tz_name="UTC")
    assert [(d.name, d.players, d.rounds) for d in report.divisions] == [
        ("Juniors+Seniors", 9, 5),
        ("Masters", 14, 5),
    ]
    one = postevent.report_of(world.session, world.policy, world.event, local=lambda t: t, tz_name="UTC")
    assert one.divisions == []


def test_a_deck_check_at_table_two_of_masters_checks_the_masters_players_seated_there(world, cup):
    from uuid import uuid4

    from judgeapp.deckchecks.services import DeckCheckInput, start_deck_check

    event, _juniors, masters = _running_cup(world, cup)
    data = DeckCheckInput(key=uuid4().hex, round_number=5, table_number=2, division_id=masters.id)
    check, created = start_deck_check(world.session, actor=world.user("floor_judge"), event=event, data=data)
    world.session.commit()
    assert created and check.round.division_id == masters.id
    assert sorted(p.player_code for p in check.players) == ["9342004", "9342005"]


def test_the_post_event_reports_incident_tables_group_by_division_in_the_events_order(world, cup):
    from judgeapp.postevent import services as postevent
    from judgeapp.reports.event import event_report_html

    event, juniors, masters = _running_cup(world, cup)
    _log(world, event, "9342004", division_id=masters.id, rank_id="loss_of_game", deviation_reason="Tested")
    _log(world, event, "9341001", division_id=juniors.id, rank_id="loss_of_game", deviation_reason="Tested")
    report = postevent.report_of(world.session, world.policy, event, local=lambda t: t, tz_name="UTC")
    assert [(p.division, p.player_id) for p in report.serious] == [
        ("Juniors+Seniors", "9341001"),
        ("Masters", "9342004"),
    ]
    html = event_report_html(report)
    serious = html[html.index("Juniors+Seniors</th></tr>") :]
    assert serious.index("9341001") < serious.index('<tr class="division"><th colspan="4">Masters</th></tr>')
    one = postevent.report_of(world.session, world.policy, world.event, local=lambda t: t, tz_name="UTC")
    assert 'class="division"' not in event_report_html(one)


def test_the_phones_copy_holds_each_divisions_current_round_seating_and_byes(world, cup):
    from judgeapp.offline.services import event_copy

    event, juniors, masters = _running_cup(world, cup)
    copy = event_copy(world.session, event, frozenset({"floor_judge"}))
    code = {p["id"]: p["code"] for p in copy["players"]}
    by_name = {d["name"]: d for d in copy["divisions"]}
    assert [(d["id"], d["round"]) for d in copy["divisions"]] == [(juniors.id, 5), (masters.id, 5)]
    assert sorted(code[i] for i in by_name["Juniors+Seniors"]["seating"]["2"]) == ["9341001", "9341002"]
    assert sorted(code[i] for i in by_name["Masters"]["seating"]["2"]) == ["9342004", "9342005"]
    assert event_copy(world.session, world.event, frozenset({"floor_judge"}))["divisions"] == []  # one division
