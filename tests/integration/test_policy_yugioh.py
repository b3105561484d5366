"""The shipped `yugioh` policy at an event: who decides (KDE-E Infractions and Penalties Policy v2.2) and the quick
reference at the four tiers of the Tournament Policy (III.A).

A floor judge's penalty is saved as recommended and waits for the head judge when only the head judge may give it:
an upgrade or a downgrade (III.E), a Match Loss other than for tardiness (III.C); the default penalty, and the
tardiness Match Loss, stand at once."""

from __future__ import annotations

import re

import pytest

from judgeapp.models import IncidentStatus
from tests.integration.test_incidents import incidents, log, signed_in


def staffed_event(app, make_user, make_event, level: int) -> dict:
    """A yugioh event at `level`, round 1 running, a head judge, a floor judge and one player."""
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round
    from judgeapp.events.staff_services import assign_staff
    from judgeapp.extensions import db
    from judgeapp.models import Event, Role, User

    people = {role: make_user(name=role.replace("_", " ").title()) for role in ("head_judge", "floor_judge")}
    organizer = make_user(organizer=True, name="Organizer")
    event_id = make_event(organizer[0], policy_id="yugioh", level=level)
    with app.app_context():
        event = db.session.get(Event, event_id)
        for role, (_, email) in people.items():
            assign_staff(db.session, actor=event.organizer, event=event, email=email, name="", role=Role(role))
        start_round(db.session, actor=db.session.get(User, people["head_judge"][0]), event=event)
        add_player(db.session, actor=event.organizer, event=event, name="Rin Asano", player_code="P-001", team=None)
        db.session.commit()
    return {"event_id": event_id, "people": people}


def give(app, event, who, infraction, penalty):
    judge = signed_in(app, event["people"][who][1])
    response = log(
        judge,
        event["event_id"],
        player="P-001",
        table="1",
        infraction=infraction,
        penalty=penalty,
        deviation_reason="The head judge asked for it.",
    )
    errors = re.findall(r"class=\"(?:error|field-error)[^>]*>([^<]*)", response.get_data(as_text=True))
    assert response.status_code == 302, errors
    return incidents(app, event["event_id"])[-1]


@pytest.mark.db
def test_a_floor_judges_upgrade_of_a_repeated_procedural_error_waits_for_the_head_judge_iii_e(
    app, make_user, make_event
):
    event = staffed_event(app, make_user, make_event, level=2)
    first = give(app, event, "floor_judge", "PE-minor", "warning")
    assert first.status is IncidentStatus.STANDING
    upgraded = give(app, event, "floor_judge", "PE-minor", "game_loss")
    assert upgraded.status is IncidentStatus.RECOMMENDED and upgraded.rank_id == "game_loss"


@pytest.mark.db
def test_a_floor_judges_downgrade_waits_for_the_head_judge_but_the_head_judges_own_stands_iii_e(
    app, make_user, make_event
):
    event = staffed_event(app, make_user, make_event, level=3)
    assert give(app, event, "floor_judge", "DC-major", "warning").status is IncidentStatus.RECOMMENDED
    assert give(app, event, "head_judge", "DC-major", "warning").status is IncidentStatus.STANDING


@pytest.mark.db
def test_a_match_loss_waits_for_the_head_judge_except_for_tardiness_iii_c(app, make_user, make_event):
    event = staffed_event(app, make_user, make_event, level=2)
    assert give(app, event, "floor_judge", "PE-strict", "match_loss").status is IncidentStatus.RECOMMENDED
    assert give(app, event, "floor_judge", "T-strict", "match_loss").status is IncidentStatus.STANDING


@pytest.mark.parametrize("level, name", [(1, "Tier 1"), (2, "Tier 2"), (3, "Tier 3"), (4, "Tier 4")])
def test_quick_reference_shows_the_kde_e_rows_at_each_tier(client, make_user, login_as, level, name):
    _, email = make_user()
    login_as(email)
    page = client.get(f"/reference/yugioh?level={level}").get_data(as_text=True)
    assert "Tournament Infractions and Penalties Policy (KDE-E)" in page and "17 of 17 infractions" in page
    assert f'<option value="{level}" selected>{name}</option>' in page
    assert "Unsporting Conduct — Cheating" in page and "Drawing Extra Cards — Major" in page


def test_quick_reference_at_tier_1_marks_the_second_time_as_the_head_judges_call_iii_e(client, make_user, login_as):
    _, email = make_user()
    login_as(email)
    page = client.get("/reference/yugioh?level=1").get_data(as_text=True)
    assert "Repeats: the judge may escalate under" in page
    assert "Repeats: never upgraded" in page  # tardiness, IV.C
