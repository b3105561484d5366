"""The assistant head judge (issue 35), from the Play! Pokémon Penalty Guidelines (January 1, 2026):

- 3.2, 4.1, 4.1.1.1: any penalty above a Warning is confirmed by the head judge *or an assistant head judge* before it
  is given: a floor judge's Double Prize Card is saved as recommended and waits in the head judge's and the assistant
  head judges' feeds; either may confirm it, or decline it with another penalty (audited).
- 2.1: a player appeals to the head judge: an assistant head judge's confirmation is final for the floor judge but
  still appealable, and the assistant decides no appeal.
- 4.1, 6.2: a Disqualification (its report is the head judge's) waits for the head judge alone.
Several assistant head judges per event; one head judge as before."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, IncidentStatus
from tests.conftest import csrf_token
from tests.integration.staffed import give, staffed_event
from tests.integration.test_incidents import incidents, signed_in, suggestion

# Not `db`: who decides is decided in Python (permissions, the engine), the rows go through the ORM
# (docs/contributing/tests.md)
# (the staff invitations are `db`)


@pytest.fixture
def pokemon(app, make_user, make_event):
    """A Pokémon League Challenge (below Regional Championships), round 1 running: a head judge, two assistant head
    judges, a floor judge, and the player Aiko Mori (P-001)."""
    roles = {
        "head_judge": "head_judge",
        "assistant": "assistant_head_judge",
        "second_assistant": "assistant_head_judge",
        "floor_judge": "floor_judge",
    }
    return staffed_event(app, make_user, make_event, policy_id="pokemon", level=1, roles=roles)


def client(app, event, who):
    return signed_in(app, event["people"][who][1])


def post(c, url, **data):
    return c.post(url, data={"csrf_token": csrf_token(c, "/account/password"), **data})


def url(event, number, what=""):
    return f"/events/{event['event_id']}/incidents/{number}{what}"


def audit_of(app, action):
    with app.app_context():
        return db.session.scalars(select(AuditEntry).where(AuditEntry.action == action)).all()


def test_4_1_a_floor_judges_double_prize_card_waits_for_the_head_judge_and_every_assistant_head_judge(app, pokemon):
    incident = give(app, pokemon, "floor_judge", "5.5.1-major", "double_prize_card")
    assert incident.status is IncidentStatus.RECOMMENDED
    for who in ("head_judge", "assistant", "second_assistant"):
        judge = client(app, pokemon, who)
        assert 'aria-label="1 waiting for you"' in judge.get(f"/events/{pokemon['event_id']}").get_data(as_text=True)
        feed = judge.get(f"/events/{pokemon['event_id']}/feed?partial=1").get_data(as_text=True)
        assert "#1 · Double Prize Card Penalty — recommended, your decision" in feed, who
        page = judge.get(url(pokemon, 1)).get_data(as_text=True)
        assert 'id="recommendation"' in page and "Confirm: Double Prize Card Penalty" in page, who
    floor = client(app, pokemon, "floor_judge")
    assert floor.get(f"/events/{pokemon['event_id']}/feed").status_code == 403
    assert 'id="recommendation"' not in floor.get(url(pokemon, 1)).get_data(as_text=True)


def test_4_1_an_assistant_confirms_it_final_for_the_floor_judge_and_the_player_may_still_appeal_2_1(app, pokemon):
    give(app, pokemon, "floor_judge", "5.5.1-major", "double_prize_card")
    assistant = client(app, pokemon, "assistant")
    page = assistant.get(url(pokemon, 1)).get_data(as_text=True)
    assert "the player may still appeal your decision to the head judge" in page
    assert "Disqualify" not in page  # no disqualification's question on a Double Prize Card
    assert post(assistant, url(pokemon, 1, "/accept")).status_code == 302
    (incident,) = incidents(app, pokemon["event_id"])
    assert (incident.status, incident.rank_id) == (IncidentStatus.STANDING, "double_prize_card")
    assert incident.confirmed_by_id == pokemon["people"]["assistant"][0] and incident.head_judge_decided_at is None
    (entry,) = audit_of(app, "incident.accept")
    assert entry.actor_id == pokemon["people"]["assistant"][0]
    assert entry.details["decided_as"] == "assistant_head_judge"
    floor = client(app, pokemon, "floor_judge")
    shown = floor.get(url(pokemon, 1)).get_data(as_text=True)
    assert "confirmed by an assistant head judge" in shown
    assert post(floor, url(pokemon, 1, "/void"), reason="Wrong table").status_code == 409  # final for the floor
    assert floor.get(url(pokemon, 1, "/appeal")).status_code == 200  # the player may appeal to the head judge
    assert 'id="recommendation"' not in client(app, pokemon, "second_assistant").get(url(pokemon, 1)).get_data(
        as_text=True
    )  # decided: no longer waiting for the other assistant


def test_4_1_an_assistant_declines_it_with_another_penalty_audited_with_the_reason(app, pokemon):
    give(app, pokemon, "floor_judge", "5.5.1-major", "double_prize_card")
    assistant = client(app, pokemon, "second_assistant")
    response = post(assistant, url(pokemon, 1, "/decline"), reason="Caught at once, no advantage", rank="warning")
    assert response.status_code == 302
    (incident,) = incidents(app, pokemon["event_id"])
    assert (incident.status, incident.rank_id) == (IncidentStatus.STANDING, "warning")
    assert incident.deviation_reason.startswith("Assistant head judge declined the recommended")
    (entry,) = audit_of(app, "incident.decline")
    assert entry.note == "Caught at once, no advantage" and entry.details["decided_as"] == "assistant_head_judge"


def test_6_2_a_floor_judges_disqualification_waits_for_the_head_judge_alone(app, pokemon):
    incident = give(app, pokemon, "floor_judge", "5.4", "disqualification")
    assert incident.status is IncidentStatus.RECOMMENDED
    assistant = client(app, pokemon, "assistant")
    feed = assistant.get(f"/events/{pokemon['event_id']}/feed?partial=1").get_data(as_text=True)
    assert "#1 · Disqualification — recommended, for the head judge" in feed
    assert 'aria-label="1 waiting for you"' not in assistant.get(f"/events/{pokemon['event_id']}").get_data(
        as_text=True
    )
    refused = post(assistant, url(pokemon, 1, "/accept"))
    assert refused.status_code == 409 and "only the head judge decides it" in refused.get_data(as_text=True)
    assert incidents(app, pokemon["event_id"])[0].status is IncidentStatus.RECOMMENDED
    head = client(app, pokemon, "head_judge")
    assert post(head, url(pokemon, 1, "/accept")).status_code == 302
    assert incidents(app, pokemon["event_id"])[0].status is IncidentStatus.STANDING


def test_4_1_an_assistant_head_judges_own_double_prize_card_stands_but_their_disqualification_waits(app, pokemon):
    assert give(app, pokemon, "assistant", "5.5.1-major", "double_prize_card").status is IncidentStatus.STANDING
    assert give(app, pokemon, "assistant", "5.4", "disqualification").status is IncidentStatus.RECOMMENDED


def test_2_1_an_assistant_head_judge_decides_no_appeal(app, pokemon):
    from tests.integration.test_appeals import appeals, decide, file_appeal

    give(app, pokemon, "floor_judge", "5.5.1-minor", "warning")
    assert file_appeal(client(app, pokemon, "floor_judge"), pokemon["event_id"]).status_code == 302
    assistant = client(app, pokemon, "assistant")
    assert decide(assistant, pokemon["event_id"], outcome="upheld", reason="The ruling was right.").status_code == 403
    assert appeals(app, pokemon["event_id"])[0].status.value == "open"


def test_the_suggestion_names_the_ranks_an_assistant_confirms_and_the_form_says_who_confirms(app, pokemon):
    from judgeapp.models import Player

    with app.app_context():
        player_id = db.session.query(Player.id).scalar()
    floor = client(app, pokemon, "floor_judge")
    answer = suggestion(floor, pokemon["event_id"], player_id=player_id, infraction="5.5.1-major").get_json()
    assert answer["confirm_ranks"] == [
        "double_prize_card",
        "quadruple_prize_card",
        "game_loss",
        "match_loss",
        "disqualification",
    ]
    assert answer["assistant_ranks"] == ["double_prize_card", "quadruple_prize_card", "game_loss", "match_loss"]
    assert answer["is_assistant"] is False
    page = floor.get(f"/events/{pokemon['event_id']}/incidents/new").get_data(as_text=True)
    assert "The head judge or an assistant head judge confirms this" in page


@pytest.mark.db  # staff assignments: several per event, one per judge and role (unique index)
def test_the_organizer_invites_assistant_head_judges_several_per_event(app, pokemon, make_user):
    from judgeapp.models import Role, StaffAssignment

    organizer = signed_in(app, pokemon["organizer"][1])
    page = organizer.get(f"/events/{pokemon['event_id']}/staff").get_data(as_text=True)
    assert '<option value="assistant_head_judge">Assistant head judge</option>' in page
    _, email = make_user(name="Third Assistant")
    response = post(
        organizer, f"/events/{pokemon['event_id']}/staff", email=email, name="Third", role="assistant_head_judge"
    )
    assert response.status_code == 302
    with app.app_context():
        held = db.session.scalars(
            select(StaffAssignment).where(StaffAssignment.role == Role.ASSISTANT_HEAD_JUDGE)
        ).all()
    assert len(held) == 2  # the invitation gives no role until accepted: the fixture's two assistants
    listed = organizer.get(f"/events/{pokemon['event_id']}/staff").get_data(as_text=True)
    assert "Assistant head judge" in listed and "Third" in listed
