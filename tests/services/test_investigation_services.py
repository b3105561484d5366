"""Disqualifications through judgeapp/investigations/services.py: the head judge accepts or declines a recommendation,
statements typed or written on one-time links, the write-up, finalizing and its lock, and an investigation withdrawn
when its incident stops being a disqualification."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

import pytest
from sqlalchemy import select

from judgeapp.errors import FieldError
from judgeapp.incidents.edit_services import void_incident
from judgeapp.investigations import services
from judgeapp.models import Incident, IncidentStatus, Investigation, InvestigationStatus, Statement, StatementRequest
from tests.services.conftest import World

pytestmark = pytest.mark.db

WRITE_UP = dict(
    hj_infraction="Cheating: arranging the deck while shuffling (4.1).",
    hj_facts="Two people saw cards being arranged; the player admitted it.",
    hj_assumptions="That the player knew the order of the cards he moved.",
    hj_reasoning="Deliberate, for advantage: cheating.",
    decision_infraction_code="4.1",
    revoke_prizes=True,
    revoke_standing=False,
    ejected=False,
    summary="Disqualified; told the player, organizer informed.",
)


@pytest.fixture
def dq(world: World) -> World:
    """The floor judge recommended disqualifying Chen Yu (P-003) for cheating at table 2, against Aiko Mori."""
    world.seat("2,P-003,P-001\n")
    world.log(
        player="P-003",
        infraction="4.1",
        penalty="disqualification",
        description="Saw the player stack the deck while shuffling.",
    )
    return world


def investigation(world: World) -> Investigation:
    return world.session.scalars(select(Investigation)).one()


def head(world: World) -> dict:
    """The head judge as the actor, with their roles at the event."""
    return {"actor": world.user("head_judge"), "roles": world.roles("head_judge"), "event": world.event}


def accept(world: World, who: str = "head_judge") -> Investigation:
    found = services.accept_recommendation(
        world.session, actor=world.user(who), roles=world.roles(who), event=world.event, incident=world.incident(1)
    )
    world.session.commit()
    return found


def decline(world: World, reason: str, rank_id: str | None) -> None:
    services.decline_recommendation(
        world.session, world.policy, **head(world), incident=world.incident(1), reason=reason, rank_id=rank_id
    )
    world.session.commit()


def take_statement(
    world: World,
    *,
    name: str = "Aiko Mori",
    role: str = "opponent",
    text: str = "I saw the top cards being arranged.",
    key: str | None = None,
) -> tuple[Statement, bool]:
    from uuid import uuid4

    made = services.add_statement(
        world.session,
        **head(world),
        investigation=investigation(world),
        key=key or uuid4().hex,
        author_name=name,
        author_role=role,
        text=text,
    )
    world.session.commit()
    return made


def link(world: World, name: str = "Eve Witness", role: str = "witness") -> str:
    _, token = services.request_statement(
        world.session, **head(world), investigation=investigation(world), author_name=name, author_role=role
    )
    world.session.commit()
    return token


def write_up(
    world: World, *, final: bool = False, who: str = "head_judge", without_statement: bool = False, **changes
) -> None:
    data = services.WriteUp(**{**WRITE_UP, **changes})
    step = partial(services.finalize, without_statement=without_statement) if final else services.save_write_up
    step(
        world.session,
        world.policy,
        actor=world.user(who),
        roles=world.roles(who),
        event=world.event,
        investigation=investigation(world),
        data=data,
    )
    world.session.commit()


# ---- who gives a disqualification ----------------------------------------------------------------------------------


def test_a_floor_judges_recommended_disqualification_has_an_open_investigation_waiting_for_the_head_judge(dq):
    incident = dq.incident(1)
    assert incident.status is IncidentStatus.RECOMMENDED
    inv = investigation(dq)
    assert (inv.status, inv.incident_id, inv.hj_infraction) == (InvestigationStatus.OPEN, incident.id, "4.1")
    assert [e.action for e in dq.entries()][-2:] == ["incident.log", "investigation.open"]


def test_the_head_judge_accepts_a_recommendation_and_it_stands_as_their_decision(dq):
    accepted = accept(dq)
    incident = dq.incident(1)
    assert (incident.status, incident.head_judge_decided_at is not None) == (IncidentStatus.STANDING, True)
    assert accepted.id == investigation(dq).id and accepted.status is InvestigationStatus.OPEN
    [entry] = dq.entries("incident.accept")
    assert entry.details["changed"] == {"status": ["recommended", "standing"]}


def test_the_head_judge_declines_a_recommendation_with_a_reason_and_another_penalty(dq):
    decline(dq, "Could not establish intent", "warning")
    incident = dq.incident(1)
    assert (incident.status, incident.rank_id) == (IncidentStatus.STANDING, "warning")
    assert incident.deviation_reason == (
        "Head judge declined the recommended Disqualification: Could not establish intent"
    )
    inv = investigation(dq)
    assert (inv.status, inv.summary) == (InvestigationStatus.DECLINED, "Could not establish intent")
    [entry] = dq.entries("incident.decline")
    assert entry.details["changed"]["rank_id"] == ["disqualification", "warning"]
    assert len(dq.entries("investigation.decline")) == 1


def test_declining_needs_a_reason_and_another_penalty_and_changes_nothing_without(dq, subtests):
    for name, reason, rank_id, field, message in (
        ("no reason", "", "warning", "reason", "Say why you decline the recommendation."),
        (
            "still a disqualification",
            "no",
            "disqualification",
            "rank",
            "Choose the penalty you give instead of the recommendation.",
        ),
        ("no penalty", "no", None, "rank", "Choose the penalty you give instead of the recommendation."),
    ):
        with subtests.test(name):
            with pytest.raises(FieldError) as caught:
                decline(dq, reason, rank_id)
            dq.session.rollback()
            assert (caught.value.field, caught.value.message) == (field, message)
            assert dq.incident(1).status is IncidentStatus.RECOMMENDED and dq.entries("incident.decline") == []


def test_a_floor_judge_cannot_accept_their_own_recommendation_nor_finalize_it(dq, refused):
    with refused(403):
        accept(dq, "floor_judge")
    with refused(403):
        write_up(dq, final=True, who="floor_judge")
    assert dq.incident(1).status is IncidentStatus.RECOMMENDED
    assert investigation(dq).status is InvestigationStatus.OPEN and dq.entries("incident.accept") == []


def test_a_recommendation_already_decided_cannot_be_accepted_again(dq, refused):
    decline(dq, "Could not establish intent", "warning")
    with refused(409) as caught:
        accept(dq)
    assert "has no recommendation waiting for the head judge" in caught.value.decision.why
    assert dq.incident(1).rank_id == "warning"


# ---- statements ------------------------------------------------------------------------------------------------------


def test_the_head_judge_types_statements_with_author_role_time_and_taker(dq):
    take_statement(dq)
    take_statement(dq, name="Chen Yu", role="player", text="I was only shuffling.")
    rows = list(dq.session.scalars(select(Statement).order_by(Statement.id)))
    assert [(s.author_name, s.author_role.value, s.taken_by_id, s.addendum) for s in rows] == [
        ("Aiko Mori", "opponent", dq.user("head_judge").id, False),
        ("Chen Yu", "player", dq.user("head_judge").id, False),
    ]
    assert all(s.taken_at is not None for s in rows) and len(dq.entries("statement.add")) == 2


def test_a_retried_statement_is_stored_once(dq):
    first, _ = take_statement(dq, key="statement-key-000000001")
    again, created = take_statement(dq, key="statement-key-000000001")
    assert (created, again.id) == (False, first.id)
    assert len(dq.session.scalars(select(Statement)).all()) == 1 and len(dq.entries("statement.add")) == 1


def test_an_empty_statement_is_refused_at_its_text(dq):
    with pytest.raises(FieldError) as caught:
        take_statement(dq, text="   ")
    dq.session.rollback()
    assert (caught.value.field, caught.value.message) == ("text", "The statement is empty.")
    assert dq.session.scalars(select(Statement)).all() == []


def test_a_one_time_link_takes_one_statement_without_an_account_and_then_stops_working(dq):
    token = link(dq)
    saved = services.submit_by_link(dq.session, token=token, text="I saw him move the bottom card to the top.")
    dq.session.commit()
    assert (saved.author_name, saved.author_role.value, saved.taken_by_id) == ("Eve Witness", "witness", None)
    with pytest.raises(services.LinkGone, match="already been used"):
        services.submit_by_link(dq.session, token=token, text="A second statement")
    dq.session.rollback()
    assert [s.text for s in dq.session.scalars(select(Statement))] == ["I saw him move the bottom card to the top."]
    [entry] = dq.entries("statement.submit_by_link")
    assert entry.actor_id is None


def test_a_link_cannot_be_guessed_and_only_its_hash_is_stored(dq):
    token = link(dq)
    assert len(token) >= 40
    stored = dq.session.scalars(select(StatementRequest)).one()
    assert token not in stored.token_hash and len(stored.token_hash) == 64
    near = token[:-1] + ("x" if token[-1] != "x" else "y")  # one character off (the token may end in "x" itself)
    for guess in (near, "1", ""):
        with pytest.raises(LookupError):
            services.request_by_token(dq.session, guess)


def test_a_link_expires_after_the_events_statement_deadline(dq):
    dq.event.statement_days = 2
    dq.session.commit()
    token = link(dq)
    request = dq.session.scalars(select(StatementRequest)).one()
    assert abs(request.expires_at - (request.created_at + timedelta(days=2))) < timedelta(seconds=1)
    with pytest.raises(services.LinkGone, match="This link has expired"):
        services.request_by_token(dq.session, token, now=request.expires_at + timedelta(minutes=1))
    missing = services.missing_statements(investigation(dq), now=request.expires_at + timedelta(minutes=1))
    assert [(m.request.author_name, m.expired) for m in missing] == [("Eve Witness", True)]


def test_a_withdrawn_link_stops_working(dq):
    token = link(dq)
    request = dq.session.scalars(select(StatementRequest)).one()
    services.revoke_request(dq.session, **head(dq), request=request)
    dq.session.commit()
    with pytest.raises(services.LinkGone, match="withdrawn"):
        services.submit_by_link(dq.session, token=token, text="Too late")
    assert len(dq.entries("statement.revoke_link")) == 1


# ---- the write-up and the lock ---------------------------------------------------------------------------------------


def test_every_change_to_the_write_up_is_audited_with_what_changed(dq):
    write_up(dq)
    write_up(dq, hj_reasoning="Changed.")
    write_up(dq, hj_reasoning="Changed.")  # saved again unchanged: no entry
    entries = dq.entries("investigation.write_up")
    assert len(entries) == 2
    assert entries[1].details["changed"] == {"hj_reasoning": [WRITE_UP["hj_reasoning"], "Changed."]}


def test_finalizing_needs_facts_reasoning_infraction_and_summary(dq, subtests):
    for field, message in (
        ("hj_facts", "State the facts you consider established, and why."),
        ("hj_reasoning", "Give your reasoning."),
        ("decision_infraction_code", "Choose the infraction the disqualification is for."),
        ("summary", "Write the summary of your decision."),
    ):
        with subtests.test(field):
            with pytest.raises(FieldError) as caught:
                write_up(dq, final=True, **{field: ""})
            dq.session.rollback()
            assert (caught.value.field, caught.value.message) == (field, message + " It is required to finalize.")
            assert investigation(dq).status is InvestigationStatus.OPEN and dq.entries("investigation.finalize") == []


def test_finalizing_gives_the_recommended_disqualification_and_locks_the_investigation(dq, refused):
    take_statement(dq)
    write_up(dq, final=True)
    inv = investigation(dq)
    assert (inv.status, inv.revoke_prizes, inv.ejected, inv.finalized_by_id) == (
        InvestigationStatus.FINALIZED,
        True,
        False,
        dq.user("head_judge").id,
    )
    assert dq.incident(1).status is IncidentStatus.STANDING
    assert [e.action for e in dq.entries()][-3:] == [
        "investigation.write_up",
        "incident.accept",
        "investigation.finalize",
    ]
    with refused(409) as caught:
        write_up(dq, summary="edited")
    assert "finalized and locked: nothing was changed" in caught.value.decision.why
    assert investigation(dq).summary == WRITE_UP["summary"]


def test_finalizing_with_no_statement_on_file_asks_for_confirmation_and_changes_nothing(dq):
    with pytest.raises(FieldError) as caught:
        write_up(dq, final=True)
    dq.session.rollback()
    assert caught.value.field == "without_statement"
    assert caught.value.message.startswith("No statement is on file: not the player's, the opponent's nor a witness's.")
    assert investigation(dq).status is InvestigationStatus.OPEN and dq.entries("investigation.finalize") == []
    assert dq.incident(1).status is IncidentStatus.RECOMMENDED


def test_finalizing_with_no_statement_on_file_locks_once_confirmed(dq):
    write_up(dq, final=True, without_statement=True)
    assert investigation(dq).status is InvestigationStatus.FINALIZED
    assert dq.incident(1).status is IncidentStatus.STANDING
    assert dq.entries("investigation.finalize")[-1].details["without_statement"] is True


def test_after_finalizing_new_statements_are_dated_addenda_and_earlier_ones_are_unchanged(dq):
    take_statement(dq, text="Original statement.")
    token = link(dq)
    write_up(dq, final=True)
    take_statement(dq, name="Head Judge", role="judge", text="Addendum: video reviewed.")
    services.submit_by_link(dq.session, token=token, text="Late witness statement.")
    dq.session.commit()
    rows = dq.session.scalars(select(Statement).order_by(Statement.id)).all()
    assert [(s.text, s.addendum) for s in rows] == [
        ("Original statement.", False),
        ("Addendum: video reviewed.", True),
        ("Late witness statement.", True),
    ]


# ---- an incident that stops being a disqualification ---------------------------------------------------------------


def test_a_voided_disqualification_withdraws_its_investigation_keeps_its_statements_and_ends_its_links(dq):
    accept(dq)
    take_statement(dq, text="I saw him lean over.")
    token = link(dq)
    void_incident(
        dq.session,
        dq.policy,
        actor=dq.user("head_judge"),
        roles=dq.roles("head_judge"),
        event=dq.event,
        incident=dq.incident(1),
        reason="Wrong player",
    )
    dq.session.commit()
    inv = investigation(dq)
    assert (inv.status, inv.withdrawn_reason) == (InvestigationStatus.WITHDRAWN, "Incident #1 was voided: Wrong player")
    assert [s.text for s in inv.statements] == ["I saw him lean over."]
    with pytest.raises(services.LinkGone):
        services.request_by_token(dq.session, token)
    assert len(dq.entries("investigation.withdraw")) == 1


def test_a_disqualification_corrected_down_and_up_again_reopens_the_same_investigation(dq):
    from judgeapp.incidents.edit_services import IncidentEdit, correct_incident

    accept(dq)
    for rank, infraction, reason in (("warning", "3.5.2", "Not cheating"), ("disqualification", "4.1", "It was")):
        incident = dq.incident(1)
        correct_incident(
            dq.session,
            dq.policy,
            actor=dq.user("head_judge"),
            roles=dq.roles("head_judge"),
            event=dq.event,
            incident=incident,
            data=IncidentEdit(
                round_number=1,
                table_number=2,
                infraction_code=infraction,
                rank_id=rank,
                deviation_reason=reason,
                description=incident.description,
            ),
        )
        dq.session.commit()
    assert [i.status for i in dq.session.scalars(select(Investigation))] == [InvestigationStatus.OPEN]
    assert [e.action for e in dq.entries() if e.object_type == "Investigation"] == [
        "investigation.open",
        "investigation.withdraw",
        "investigation.reopen",
    ]
    assert dq.session.scalars(select(Incident)).one().rank_id == "disqualification"


def test_the_timeline_tells_the_investigation_in_order(dq):
    take_statement(dq)
    write_up(dq, final=True)
    assert [m.what for m in services.timeline(investigation(dq))] == [
        "Incident #1 logged by Floor Judge",
        "Investigation opened",
        "Statement of Aiko Mori (opponent), taken by Head Judge",
        "Decision: disqualification",
        "Investigation finalized",
    ]


def test_the_dq_report_names_as_opponent_the_player_seated_at_the_table_in_the_incidents_round(dq):
    """Round 1's table 2 is Chen Yu against Aiko Mori; the pairings also hold an earlier seating of that table that a
    re-import replaced and round 2's table 2 (not started yet): neither is the opponent."""
    from judgeapp.models import Pairing, utcnow

    event_id = dq.ids["event_id"]
    dq.session.add_all(
        [
            Pairing(
                event_id=event_id, round_number=1, table_number=2, player_id=dq.player("P-004").id, replaced_at=utcnow()
            ),
            Pairing(event_id=event_id, round_number=2, table_number=2, seat=1, player_id=dq.player("P-003").id),
            Pairing(event_id=event_id, round_number=2, table_number=2, seat=2, player_id=dq.player("P-002").id),
        ]
    )
    dq.session.commit()

    report = services.report_of(dq.session, dq.policy, dq.event, investigation(dq), local=lambda t: t, tz_name="UTC")

    assert report.opponents == "Aiko Mori (P-001)"
