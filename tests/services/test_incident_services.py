"""Incidents through judgeapp/incidents/ (services.py and the lookup, ruling, edit and list services): the engine's
suggestion and upgrades, one-time keys, who the incident is about, bad input, corrections, voiding and notes, each
asserted on the stored rows and audit entries."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.errors import FieldError
from judgeapp.history import priors_of_players
from judgeapp.incidents import edit_services, list_services, services
from judgeapp.infractions import Suggestion, suggest
from judgeapp.models import (
    Event,
    Incident,
    IncidentStatus,
    IncidentSubject,
    Investigation,
    Player,
    SubjectKind,
    TimeExtension,
    utcnow,
)
from tests.services.conftest import World

pytestmark = pytest.mark.db


def next_suggestion(world: World, code: str, infraction: str) -> Suggestion:
    """What the engine would suggest for this player's next infraction, from their stored history."""
    priors = priors_of_players(world.session, world.event, [world.player(code).id])
    return suggest(world.policy, world.event.level, infraction, priors, today=utcnow().date())


def edit(incident: Incident, **changes) -> edit_services.IncidentEdit:
    """The correction form as the edit page fills it: the incident's facts, with `changes`."""
    facts = dict(
        round_number=incident.round.number,
        table_number=incident.table_number,
        infraction_code=incident.infraction_code,
        rank_id=incident.rank_id,
        deviation_reason="",
        description=incident.description,
    )
    return edit_services.IncidentEdit(**{**facts, **changes})


def correct(world: World, who: str, number: int = 1, **changes) -> dict:
    incident = world.incident(number)
    changed = edit_services.correct_incident(
        world.session,
        world.policy,
        actor=world.user(who),
        roles=world.roles(who),
        event=world.event,
        incident=incident,
        data=edit(incident, **changes),
    )
    world.session.commit()
    return changed


def void(world: World, who: str, number: int = 1, reason: str = "Logged on the wrong player") -> None:
    edit_services.void_incident(
        world.session,
        world.policy,
        actor=world.user(who),
        roles=world.roles(who),
        event=world.event,
        incident=world.incident(number),
        reason=reason,
    )
    world.session.commit()


# ---- logging: the engine's suggestion and upgrades -------------------------------------------------------------------


def test_logging_a_warning_stores_the_policys_suggestion_the_player_and_one_audit_entry(world):
    result = world.log(player="Aiko Mori · P-001", infraction="3.5.2", penalty="warning", description="Forgot.")
    [incident] = world.incidents()
    assert result.created and result.incident.id == incident.id
    assert (
        incident.number,
        incident.rank_id,
        incident.suggested_rank_id,
        incident.upgraded,
        incident.table_number,
        incident.status,
    ) == (1, "warning", "warning", False, 2, IncidentStatus.STANDING)
    assert [s.player_id for s in incident.subjects] == [world.player("P-001").id]
    [entry] = world.entries("incident.log")
    assert (entry.object_id, entry.actor_id) == (incident.id, world.user("floor_judge").id)
    assert (entry.details["rank"], entry.details["suggested"], entry.details["upgraded"]) == (
        "warning",
        "warning",
        False,
    )


def test_a_repeat_in_the_same_subsection_is_suggested_as_an_upgrade_and_stores_the_incidents_behind_it(world):
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    upcoming = next_suggestion(world, "P-001", "3.5.3.2")
    assert (upcoming.suggested.id, upcoming.upgraded, [p.ref for p in upcoming.because]) == ("loss_of_game", True, [1])
    world.log(player="P-001", infraction="3.5.3.2", penalty="loss_of_game")
    second = world.incident(2)
    assert (second.upgraded, second.upgrade_refs, second.suggested_rank_id) == (True, [1], "loss_of_game")


def test_a_penalty_in_another_subsection_or_for_another_player_is_no_upgrade(world):
    world.log(player="P-001", infraction="3.2.1", penalty="caution")
    world.log(player="P-003", infraction="3.5.2", penalty="warning")
    upcoming = next_suggestion(world, "P-001", "3.5.2")
    assert (upcoming.suggested.id, upcoming.upgraded) == ("warning", False)


def test_incidents_are_numbered_per_event(world):
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    world.log(player="P-003", infraction="3.2.1", penalty="caution")
    assert [i.number for i in world.incidents()] == [1, 2]


def test_the_same_one_time_key_sent_twice_stores_one_incident_and_one_audit_entry(world):
    first = world.log(key="retried-on-bad-wifi-0001", player="P-001")
    again = world.log(key="retried-on-bad-wifi-0001", player="P-001")
    assert (first.created, again.created, again.incident.id) == (True, False, first.incident.id)
    assert len(world.incidents()) == 1 and len(world.entries("incident.log")) == 1


def test_an_incident_and_its_audit_entry_land_in_one_transaction_or_not_at_all(world):
    services.log_incident(
        world.session,
        world.policy,
        actor=world.user("floor_judge"),
        roles=world.roles("floor_judge"),
        event=world.event,
        data=services.IncidentInput(
            key="undone-with-the-request-01",
            infraction_code="3.5.2",
            round_number=1,
            table_number=2,
            player_text="P-001",
            rank_id="warning",
        ),
    )
    world.session.rollback()  # what the app does when a later step of the same request fails
    assert (world.count(Incident), world.count(IncidentSubject)) == (0, 0)
    assert world.entries("incident.log") == []


def test_a_penalty_below_the_upgrade_needs_a_reason_and_nothing_is_stored_without_one(world):
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    with pytest.raises(FieldError) as caught:
        world.log(key="below-the-upgrade-key-1", player="P-001", infraction="3.5.3.2", penalty="warning")
    world.session.rollback()
    assert (caught.value.field, caught.value.message) == (
        "deviation_reason",
        "Warning is below the suggested Loss of Game: give a short reason.",
    )
    assert len(world.incidents()) == 1 and len(world.entries("incident.log")) == 1
    world.log(
        key="below-the-upgrade-key-1",
        player="P-001",
        infraction="3.5.3.2",
        penalty="warning",
        deviation_reason="Opponent's shuffle caused it",
    )
    assert world.incident(2).deviation_reason == "Opponent's shuffle caused it"
    assert world.entries("incident.log")[-1].note == "Opponent's shuffle caused it"


def test_a_penalty_outside_the_default_range_needs_a_reason_and_one_inside_it_does_not(world):
    with pytest.raises(FieldError) as caught:
        world.log(player="P-003", infraction="3.2.1", penalty="loss_of_match")
    world.session.rollback()
    assert caught.value.message == "Loss of Match is outside the default Caution ~ Warning: give a short reason."
    world.log(player="P-003", infraction="3.2.1", penalty="warning")
    assert [(i.rank_id, i.deviation_reason) for i in world.incidents()] == [("warning", None)]


# ---- penalties only the head judge gives, and the feed --------------------------------------------------------------


def test_a_floor_judges_disqualification_is_stored_as_recommended_and_waits_in_the_head_judges_feed(world):
    world.log(player="P-004", infraction="3.8.3", penalty="disqualification", description="Threatened the opponent.")
    [incident] = world.incidents()
    assert (incident.status, incident.rank_id, incident.head_judge_decided_at) == (
        IncidentStatus.RECOMMENDED,
        "disqualification",
        None,
    )
    assert list_services.pending_count(world.session, world.event) == 1
    assert [i.number for i in list_services.head_judge_feed(world.session, world.policy, world.event)] == [1]
    assert world.session.scalars(select(Investigation)).one().incident_id == incident.id
    assert world.entries("incident.log")[0].details["status"] == "recommended"


def test_the_head_judges_own_disqualification_stands_at_once_as_their_decision_with_an_investigation(world):
    world.log("head_judge", player="P-004", table=1, infraction="4.1", penalty="disqualification")
    [incident] = world.incidents()
    assert incident.status is IncidentStatus.STANDING and incident.head_judge_decided_at is not None
    assert list_services.pending_count(world.session, world.event) == 0
    [investigation] = world.session.scalars(select(Investigation)).all()
    assert investigation.incident_id == incident.id
    assert [e.action for e in world.entries()][-2:] == ["incident.log", "investigation.open"]


def test_loss_of_game_and_above_reach_the_head_judges_feed_and_warnings_do_not(world):
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    world.log(player="P-003", infraction="3.5.4", penalty="loss_of_game")
    assert [i.number for i in list_services.head_judge_feed(world.session, world.policy, world.event)] == [2]


def test_a_floor_judges_question_reaches_the_head_judges_feed_and_a_note_does_not(world):
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    world.log(player="P-003", infraction="3.2.1", penalty="caution")
    for number, ask in ((1, True), (2, False)):
        edit_services.add_note(
            world.session,
            actor=world.user("floor_judge"),
            roles=world.roles("floor_judge"),
            event=world.event,
            incident=world.incident(number),
            text=f"About #{number}",
            ask_head_judge=ask,
        )
    world.session.commit()
    assert [e.action for e in world.entries()][-2:] == ["incident.question", "incident.note"]
    feed = list_services.head_judge_feed(world.session, world.policy, world.event)
    assert [i.number for i in feed] == [1]
    assert list_services.questions_of(world.session, world.event, feed) == {feed[0].id: [("Floor Judge", "About #1")]}


# ---- who the incident is about ---------------------------------------------------------------------------------------


def test_a_team_penalty_counts_in_each_members_history_and_in_no_one_elses(world):
    world.log(subject_kind=SubjectKind.TEAM, team="Blue Lions", player="", infraction="3.5.2", penalty="warning")
    [incident] = world.incidents()
    assert (incident.subject_kind, incident.subject_name) == (SubjectKind.TEAM, "Blue Lions")
    members = sorted([world.player("P-001").id, world.player("P-002").id])
    assert sorted(s.player_id for s in incident.subjects) == members
    assert next_suggestion(world, "P-001", "3.5.3.2").upgraded and next_suggestion(world, "P-002", "3.5.3.2").upgraded
    assert not next_suggestion(world, "P-003", "3.5.3.2").upgraded


def test_a_spectator_incident_needs_no_table_and_touches_no_player(world):
    world.log(
        subject_kind=SubjectKind.SPECTATOR,
        spectator_name="Man in the red cap",
        player="",
        table=None,
        infraction="4.5",
        penalty="disqualification",
    )
    [incident] = world.incidents()
    assert (incident.subject_name, incident.table_number, incident.subjects) == ("Man in the red cap", None, [])


def test_a_player_not_yet_registered_is_added_with_the_incident(world):
    world.log(player="Late Comer", new_player=True, new_player_code="P-099", infraction="3.9.1", penalty="warning")
    [incident] = world.incidents()
    late = world.session.scalars(select(Player).where(Player.player_code == "P-099")).one()
    assert (late.name, late.event_id, [s.player_id for s in incident.subjects]) == (
        "Late Comer",
        world.ids["event_id"],
        [late.id],
    )


# ---- bad input: a message at the field, nothing stored ---------------------------------------------------------------

BAD_INPUT = {  # what the form sent: (fields, the field blamed, its message)
    "table": ({"table": 99}, "table", "There is no table 99: this event has tables 1 to 2."),
    "ambiguous player": ({"player": "o"}, "player", "Several players match “o”; pick one from the list."),
    "unknown player": ({"player": "Nobody Here"}, "player", "No player at this event matches “Nobody Here”."),
    "infraction": ({"infraction": "9.9.9"}, "infraction", "Choose an infraction of"),
    "no penalty": ({"penalty": None}, "penalty", "Choose the penalty."),
    "negative minutes": ({"extension_minutes": -2}, "extension", "Minutes cannot be negative."),
    "minutes over a round": (
        {"extension_minutes": 90},
        "extension",
        "90 minutes is longer than a whole round (50 min).",
    ),
    "description": ({"description": "x" * 4001}, "description", "At most 4000 characters."),
    "key": ({"key": "short"}, "key", "This form has no valid one-time key"),
}


def test_bad_input_is_refused_at_its_field_and_nothing_is_stored(world, subtests):
    for name, (fields, field, message) in BAD_INPUT.items():
        with subtests.test(name):
            with pytest.raises(FieldError) as caught:
                world.log(**{"player": "P-001", "infraction": "3.5.2", "penalty": "warning", **fields})
            world.session.rollback()
            assert caught.value.field == field and message in caught.value.message
            assert world.incidents() == [] and world.entries("incident.log") == []


def test_a_round_not_yet_started_is_refused_at_the_round(world):
    data = services.IncidentInput(
        key="round-three-not-started",
        infraction_code="3.5.2",
        round_number=3,
        table_number=2,
        player_text="P-001",
        rank_id="warning",
    )
    with pytest.raises(FieldError) as caught:
        services.log_incident(
            world.session,
            world.policy,
            actor=world.user("floor_judge"),
            roles=world.roles("floor_judge"),
            event=world.event,
            data=data,
        )
    world.session.rollback()
    assert (caught.value.field, caught.value.message) == ("round", "Round 3 has not started.")
    assert world.incidents() == []


def test_a_player_of_another_event_is_refused(world, make_event, app):
    from judgeapp.events.player_services import add_player

    world.session.commit()  # nothing open: the other event is made in an app context of its own
    other_id = make_event(world.ids["organizer"][0], name="Other")
    other = world.session.get(Event, other_id)
    stranger = add_player(world.session, actor=other.organizer, event=other, name="Stranger", player_code="X-1")
    world.session.commit()
    with pytest.raises(FieldError) as caught:
        world.log(player_id=stranger.id, player="Stranger")
    world.session.rollback()
    assert caught.value.message == "That player is not registered at this event."
    assert world.incidents() == []


# ---- time on the incident --------------------------------------------------------------------------------------------


def test_time_given_on_the_incident_is_its_own_record_linked_to_it(world):
    result = world.log(player="P-001", extension_minutes=4)
    [ext] = world.session.scalars(select(TimeExtension)).all()
    assert (ext.minutes, ext.table_number, ext.reason.value, ext.incident_id, ext.judge_id) == (
        4,
        2,
        "ruling",
        result.incident.id,
        world.user("floor_judge").id,
    )
    assert [e.action for e in world.entries()][-2:] == ["incident.log", "extension.add"]


def test_a_call_timed_by_the_stopwatch_owes_the_policys_minutes(world):
    from datetime import timedelta

    now = utcnow()
    data = services.IncidentInput(
        key="call-stopwatch-key-0001",
        infraction_code="3.5.2",
        round_number=1,
        table_number=2,
        player_text="P-001",
        rank_id="warning",
        call_started_at=now - timedelta(minutes=3, seconds=10),
    )
    result = services.log_incident(
        world.session,
        world.policy,
        actor=world.user("floor_judge"),
        roles=world.roles("floor_judge"),
        event=world.event,
        data=data,
        now=now,
    )
    assert result.owed is not None and result.owed.minutes == 4  # 3:10 rounds up to the next whole minute
    assert result.incident.call_started_at == now - timedelta(minutes=3, seconds=10)


# ---- corrections, voiding --------------------------------------------------------------------------------------------


def test_a_correction_keeps_before_and_after_and_the_judges_note_in_one_audit_entry(world):
    world.log(player="P-001", description="First account")
    changed = correct(world, "floor_judge", table_number=1, description="Corrected account", note="Wrong table number")
    assert changed == {"table_number": [2, 1], "description": ["First account", "Corrected account"]}
    incident = world.incident(1)
    assert (incident.table_number, incident.description, incident.head_judge_decided_at) == (
        1,
        "Corrected account",
        None,
    )
    [entry] = world.entries("incident.correct")
    assert (entry.details["changed"], entry.note, entry.actor_id) == (
        changed,
        "Wrong table number",
        world.user("floor_judge").id,
    )


def test_a_correction_that_changes_nothing_writes_no_audit_entry(world):
    world.log(player="P-001")
    assert correct(world, "floor_judge") == {}
    assert world.entries("incident.correct") == []


def test_correcting_the_infraction_rechecks_the_penalty_against_the_earlier_history(world):
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    world.log(player="P-001", infraction="3.2.1", penalty="caution")
    with pytest.raises(FieldError) as caught:
        correct(world, "floor_judge", 2, infraction_code="3.5.3.2", rank_id="warning")
    world.session.rollback()
    assert "below the suggested Loss of Game" in caught.value.message
    assert world.incident(2).infraction_code == "3.2.1"
    correct(world, "floor_judge", 2, infraction_code="3.5.3.2", rank_id="loss_of_game")
    second = world.incident(2)
    assert (second.infraction_code, second.upgraded, second.upgrade_refs) == ("3.5.3.2", True, [1])


def test_the_head_judges_correction_of_a_floor_rulings_penalty_is_their_decision(world):
    world.log(player="P-001")
    correct(world, "head_judge", rank_id="loss_of_game", deviation_reason="Repeated after a caution")
    assert world.incident(1).head_judge_decided_at is not None
    assert world.entries("incident.correct")[0].actor_id == world.user("head_judge").id


def test_the_head_judges_clerical_correction_leaves_the_ruling_the_floor_judges(world):
    """Issue 33, guard 14: a new table number changes neither infraction nor penalty, so the ruling stays appealable."""
    world.log(player="P-001")
    correct(world, "head_judge", table_number=1)
    assert world.incident(1).head_judge_decided_at is None
    assert world.entries("incident.correct")[0].actor_id == world.user("head_judge").id


def test_only_the_judge_who_logged_it_or_the_head_judge_may_correct_or_void_it(world, refused):
    world.log(player="P-001")
    with refused(403) as caught:
        correct(world, "other_floor", table_number=1)
    assert caught.value.decision.why == "Only the judge who logged an incident, or the head judge, may correct it."
    with refused(403):
        void(world, "other_floor")
    for who in ("scorekeeper", "organizer", "outsider"):
        with refused(403):
            void(world, who)
    incident = world.incident(1)
    assert (incident.table_number, incident.status) == (2, IncidentStatus.STANDING)
    assert world.entries("incident.correct") == [] and world.entries("incident.void") == []


def test_voiding_needs_a_reason_and_keeps_the_incident_which_no_longer_counts_for_upgrades(world):
    world.log(player="P-001", infraction="3.5.2", penalty="warning")
    assert next_suggestion(world, "P-001", "3.5.2").upgraded
    with pytest.raises(FieldError) as caught:
        void(world, "floor_judge", reason="  ")
    world.session.rollback()
    assert (caught.value.field, caught.value.message) == ("reason", "Say why the incident is withdrawn.")
    assert world.incident(1).status is IncidentStatus.STANDING and world.entries("incident.void") == []
    void(world, "floor_judge", reason="Wrong player: it was the opponent.")
    incident = world.incident(1)
    assert (incident.status, incident.status_reason) == (IncidentStatus.VOID, "Wrong player: it was the opponent.")
    [entry] = world.entries("incident.void")
    assert (entry.details["changed"], entry.note) == (
        {"status": ["standing", "void"]},
        "Wrong player: it was the opponent.",
    )
    after = next_suggestion(world, "P-001", "3.5.2")
    assert (after.suggested.id, after.upgraded) == ("warning", False)


def test_a_void_incident_cannot_be_voided_again_and_nothing_is_written(world, refused):
    world.log(player="P-001")
    void(world, "floor_judge")
    with refused(409) as caught:
        void(world, "head_judge", reason="Again")
    assert caught.value.decision.why == "This incident is already void."
    assert len(world.entries("incident.void")) == 1


# ---- what the seed texts leave to the head judge or name elsewhere (issue 19) ---------------------------------------


@pytest.fixture
def transformers(world, catalog):
    """The floor's event under the Transformers TCG rules: disqualification is the only penalty they name."""
    world.policy = catalog.policy("transformers-tcg")
    world.event.policy_id, world.event.level = "transformers-tcg", 1
    world.session.commit()
    return world


def test_a_floor_judges_cheating_ruling_is_only_a_recommendation_transformers_5_1(transformers):
    from judgeapp.investigations import services as investigations
    from judgeapp.models import Investigation

    result = transformers.log(infraction="5.1", penalty=None, description="Game loss per the IPG: hid a card")
    assert result.incident.status is IncidentStatus.RECOMMENDED and result.incident.rank_id is None
    investigations.accept_recommendation(
        transformers.session,
        actor=transformers.user("head_judge"),
        roles=transformers.roles("head_judge"),
        event=transformers.event,
        incident=result.incident,
        policy=transformers.policy,
    )
    transformers.session.commit()
    assert result.incident.status is IncidentStatus.STANDING
    assert transformers.count(Investigation) == 0  # not a disqualification: nothing to investigate


def test_the_head_judges_own_cheating_ruling_stands_transformers_5_1(transformers):
    result = transformers.log(who="head_judge", infraction="5.1", penalty="disqualification")
    assert result.incident.status is IncidentStatus.STANDING


def test_a_penalty_the_text_does_not_name_is_recorded_in_words_and_never_left_blank(transformers):
    with pytest.raises(FieldError) as caught:
        transformers.log(infraction="5.5", penalty=None)
    transformers.session.rollback()
    assert caught.value.field == "description" and "does not name it" in caught.value.message
    result = transformers.log(infraction="5.5", penalty=None, description="Warning per the IPG")
    assert (result.incident.rank_id, result.incident.status) == (None, IncidentStatus.STANDING)


def test_bushiroad_still_needs_a_rank_for_an_infraction_without_a_default(world):
    with pytest.raises(FieldError) as caught:
        world.log(infraction="FR4.4", penalty=None, description="Agreed a draw")
    world.session.rollback()
    assert (caught.value.field, caught.value.message) == ("penalty", "Choose the penalty.")
