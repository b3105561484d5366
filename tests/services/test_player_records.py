"""Player records (judgeapp/events/player_records.py): a record corrected, two records of one person merged, the
players page's pages and search. Marked `db`: they run again on PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp import history
from judgeapp.errors import FieldError
from judgeapp.events import player_records
from judgeapp.events.imports import apply, receive
from judgeapp.events.player_services import add_player
from judgeapp.lifecycles import IllegalTransition
from judgeapp.models import IncidentSubject, Pairing, Player
from tests.services.conftest import World

pytestmark = pytest.mark.db


def correct(world: World, code: str, **fields):
    player = world.player(code)
    given = {
        "name": player.name,
        "reading": player.reading,
        "handle": player.handle,
        "player_code": player.player_code,
        "platform_ids": player_records.platform_lines(player.platform_ids),
        **fields,
    }
    changes = player_records.correct_player(
        world.session, actor=world.user("scorekeeper"), event=world.event, player=player, **given
    )
    world.session.commit()
    return changes


def add(world: World, name: str, code: str | None, **fields) -> Player:
    player = add_player(world.session, actor=world.user("organizer"), event=world.event, name=name, player_code=code,
                        **fields)  # fmt: skip
    world.session.commit()
    return player


def merge(world: World, merged: Player, kept: Player, reason: str = "the same person, registered twice"):
    outcome = player_records.merge_players(
        world.session, actor=world.user("organizer"), event=world.event, merged=merged, kept=kept, reason=reason
    )
    world.session.commit()
    return outcome


# ---- correcting a record ---------------------------------------------------------------------------------------------


def test_a_corrected_record_keeps_the_new_name_reading_id_and_platform_ids_and_the_audit_has_before_and_after(
    world: World,
):
    changes = correct(
        world, "P-003", name="Chen Yuwen", reading="ちぇん ゆうぇん", player_code="P-013",
        platform_ids="konami: 0041200101\nbushiroad: 12345678901",
    )  # fmt: skip
    player = world.session.get(Player, world.ids["players"]["P-003"])
    assert (player.name, player.reading, player.player_code) == ("Chen Yuwen", "ちぇん ゆうぇん", "P-013")
    assert player.platform_ids == {"konami": "0041200101", "bushiroad": "12345678901"}
    (entry,) = world.entries("player.correct")
    assert entry.details["changes"]["name"] == ["Chen Yu", "Chen Yuwen"]
    assert entry.details["changes"]["player_code"] == ["P-003", "P-013"]
    assert set(changes) == {"name", "reading", "player_code", "platform_ids"}


def test_a_record_saved_unchanged_writes_no_audit_entry(world: World):
    assert correct(world, "P-003") == {}
    assert world.entries("player.correct") == []


def test_an_id_another_player_of_the_event_holds_is_refused_at_the_id_field(world: World):
    with pytest.raises(FieldError) as refused:
        correct(world, "P-003", player_code="P-004")
    world.session.rollback()
    assert refused.value.field == "player_code" and "Dana Roy" in refused.value.message
    assert world.player("P-003").player_code == "P-003"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "  "}, "name"),
        ({"player_code": "X" * 65}, "player_code"),
        ({"platform_ids": "konami"}, "platform_ids"),
    ],
)
def test_a_blank_name_an_over_long_id_or_a_platform_line_without_a_colon_is_refused_at_its_field(world, fields, field):
    with pytest.raises(FieldError) as refused:
        correct(world, "P-003", **fields)
    world.session.rollback()
    assert refused.value.field == field


def test_a_corrected_reading_is_what_the_players_search_finds(world: World):
    correct(world, "P-003", reading="チェン ユー")
    found = player_records.page_of_players(world.session, world.event, query="ちぇんゆ")
    assert [p.name for p in found.players] == ["Chen Yu"]


# ---- merging two records of one person -------------------------------------------------------------------------------


def test_a_merged_records_incidents_and_pairings_follow_it_and_its_history_is_recounted(world: World):
    twin = add(world, "Aiko Mori", "P-101")
    world.seat("1,P-002,P-101\n2,P-003,P-004")
    world.log(player="P-101", infraction="3.5.2", penalty="warning")
    kept = world.player("P-001")
    assert history.priors_of_players(world.session, world.event, [kept.id]) == []
    outcome = merge(world, twin, kept)
    assert (outcome.incidents, outcome.pairings) == (1, 1)
    assert [p.ref for p in history.priors_of_players(world.session, world.event, [kept.id])] == [1]
    seat = world.session.scalars(select(Pairing).where(Pairing.round_number == 1, Pairing.table_number == 1)).all()
    assert {p.player_id for p in seat} == {kept.id, world.player("P-002").id}
    twin = world.session.get(Player, twin.id)
    assert twin is not None and twin.merged_into_id == kept.id and twin.merged_at is not None, "kept, never deleted"
    assert twin.player_code == "P-101"
    (entry,) = world.entries("player.merge")
    assert entry.object_id == twin.id and entry.details["into"] == kept.id and entry.note
    assert len(entry.details["incident_subjects"]) == 1 and len(entry.details["pairings"]) == 1


def test_a_merged_record_is_off_the_players_page_and_its_id_still_finds_the_person(world: World):
    twin = add(world, "Aiko Mori", "P-101")
    kept = world.player("P-001")
    merge(world, twin, kept)
    listed = player_records.page_of_players(world.session, world.event, query="Aiko")
    assert [p.id for p in listed.players] == [kept.id]
    assert player_records.find_other(world.session, world.event, "P-101", besides=world.player("P-003")).id == kept.id
    assert world.session.get(Player, kept.id).platform_ids.get("merged") == "P-101"


def test_a_file_naming_the_merged_records_id_seats_the_record_kept(world: World):
    twin = add(world, "Aiko Mori", "P-101")
    kept = world.player("P-001")
    merge(world, twin, kept)
    data = b"Round,Table,Player,Player ID\n2,1,Aiko Mori,P-101\n2,1,Ben Ode,P-002\n"
    upload = receive(world.session, actor=world.user("organizer"), event=world.event, data=data, filename="r2.csv")
    outcome = apply(world.session, actor=world.user("organizer"), event=world.event, upload=upload)
    world.session.commit()
    assert outcome.new_players == 0
    seated = world.session.scalars(select(Pairing.player_id).where(Pairing.round_number == 2)).all()
    assert sorted(seated) == sorted([kept.id, world.player("P-002").id])


def test_two_records_seated_in_the_same_round_are_two_people_and_are_not_merged(world: World):
    world.seat("1,P-001,P-002\n2,P-003,P-004")
    with pytest.raises(FieldError) as refused:
        merge(world, world.player("P-003"), world.player("P-001"))
    world.session.rollback()
    assert refused.value.field == "other" and "round 1" in refused.value.message
    assert world.player("P-003").merged_into_id is None and world.entries("player.merge") == []


def test_a_record_merged_already_is_not_merged_again_nor_kept_and_a_record_is_not_merged_into_itself(world: World):
    twin = add(world, "Aiko Mori", "P-101")
    merge(world, twin, world.player("P-001"))
    with pytest.raises(IllegalTransition):
        merge(world, world.session.get(Player, twin.id), world.player("P-003"))
    world.session.rollback()
    with pytest.raises(IllegalTransition):
        merge(world, world.player("P-003"), world.session.get(Player, twin.id))
    world.session.rollback()
    with pytest.raises(FieldError):
        merge(world, world.player("P-003"), world.player("P-003"))
    world.session.rollback()


def test_a_merge_needs_a_reason(world: World):
    twin = add(world, "Aiko Mori", "P-101")
    with pytest.raises(FieldError) as refused:
        merge(world, twin, world.player("P-001"), reason=" ")
    world.session.rollback()
    assert refused.value.field == "reason"


def test_an_incident_naming_both_records_stays_one_incident_of_the_record_kept(world: World):
    from judgeapp.models import SubjectKind

    add(world, "Aiko Mori", "P-101", team="Blue Lions")
    world.log(subject_kind=SubjectKind.TEAM, team="Blue Lions", player="", infraction="3.5.2", penalty="warning")
    kept = world.player("P-001")
    merge(world, world.session.scalars(select(Player).where(Player.player_code == "P-101")).one(), kept)
    assert [p.ref for p in history.priors_of_players(world.session, world.event, [kept.id])] == [1]
    subjects = world.session.scalars(select(IncidentSubject.player_id)).all()
    assert len(subjects) == 3, "the subject rows are all kept (one stays on the merged record)"


# ---- the players page: pages and search ------------------------------------------------------------------------------


def test_the_players_page_pages_a_few_dozen_at_a_time_in_name_order(world: World):
    for i in range(120):
        world.session.add(Player(event_id=world.ids["event_id"], name=f"Zed {i:03d}", player_code=f"Z-{i:03d}"))
    world.session.commit()
    per_page = player_records.PER_PAGE
    first = player_records.page_of_players(world.session, world.event)
    last = player_records.page_of_players(world.session, world.event, page=99)
    assert (first.total, first.pages, len(first.players)) == (124, -(-124 // per_page), per_page)
    assert [p.name for p in first.players[:4]] == ["Aiko Mori", "Ben Ode", "Chen Yu", "Dana Roy"]
    assert (last.page, len(last.players), last.players[-1].name) == (first.pages, 124 % per_page or per_page, "Zed 119")


def test_a_japanese_events_players_page_goes_by_the_reading_in_gojuon_order_whatever_the_kana(world: World):
    world.event.language = "ja"
    world.session.commit()
    for code, reading in (("P-001", "わだ あいこ"), ("P-002", "カトウ ベン"), ("P-003", "がもう ちぇん")):
        correct(world, code, reading=reading)
    listed = player_records.page_of_players(world.session, world.event)
    assert [p.player_code for p in listed.players] == ["P-002", "P-003", "P-001", "P-004"], (
        "か, が, わ, then no reading"
    )


def test_the_search_finds_by_part_of_a_name_an_id_typed_any_way_or_a_reading_in_either_kana(world: World):
    correct(world, "P-004", reading="ロイ ダナ")
    assert [p.name for p in player_records.page_of_players(world.session, world.event, query="ben").players] == [
        "Ben Ode"
    ]
    assert [p.name for p in player_records.page_of_players(world.session, world.event, query="ｐ－００３").players] == [
        "Chen Yu"
    ]
    assert [p.name for p in player_records.page_of_players(world.session, world.event, query="ろいだ").players] == [
        "Dana Roy"
    ]
