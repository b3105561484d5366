"""`range_to` for the head judge only (issue 35), from the Riftbound Tournament Rules (7/16/2026) 704.1.b and 704.1.c:
a second Unsporting Minor at the event is a Game Loss; only the head judge may go further, up to a Disqualification.
A floor judge's choice above the Game Loss needs a reason and is saved as recommended, waiting for the head judge; the
head judge's own choice up to the Disqualification stands without one. Just below (the first Unsporting Minor) nothing
is reserved."""

from __future__ import annotations

import pytest

from judgeapp.models import IncidentStatus
from tests.integration.test_assistant_head_judge import client, give
from tests.integration.test_disqualification_judges import staffed
from tests.integration.test_incidents import incidents, log

# Not `db`: who decides is decided in Python (permissions, the engine), the rows go through the ORM
# (docs/contributing/tests.md)

COMPETITIVE = 2


@pytest.fixture
def riftbound(app, make_user, make_event):
    event = staffed(app, make_user, make_event, COMPETITIVE, policy_id="riftbound")
    give(app, event, "floor_judge", "704.2", "warning")  # the first Unsporting Minor
    return event


def test_704_1_b_a_floor_judges_match_loss_for_a_second_unsporting_minor_waits_for_the_head_judge(app, riftbound):
    incident = give(app, riftbound, "floor_judge", "704.2", "match_loss")
    assert (incident.rank_id, incident.status) == ("match_loss", IncidentStatus.RECOMMENDED)
    feed = client(app, riftbound, "head_judge").get(f"/events/{riftbound['event_id']}/feed?partial=1")
    assert "#2 · Match Loss — recommended, your decision" in feed.get_data(as_text=True)


def test_704_1_b_the_floor_judge_must_say_why_above_the_game_loss(app, riftbound):
    response = log(
        client(app, riftbound, "floor_judge"),
        riftbound["event_id"],
        player="P-001",
        table="1",
        infraction="704.2",
        penalty="match_loss",
        deviation_reason="",
    )
    assert response.status_code == 400  # the form again, the message at its field
    assert "Match Loss is outside the default" in response.get_data(as_text=True)


def test_704_1_c_the_head_judge_goes_up_to_a_disqualification_without_a_reason_and_it_stands(app, riftbound):
    response = log(
        client(app, riftbound, "head_judge"),
        riftbound["event_id"],
        player="P-001",
        table="1",
        infraction="704.2",
        penalty="match_loss",
        deviation_reason="",
    )
    assert response.status_code == 302
    incident = incidents(app, riftbound["event_id"])[-1]
    assert (incident.rank_id, incident.status) == ("match_loss", IncidentStatus.STANDING)
    assert not incident.deviation_reason  # within the head judge's reach: no reason asked


def test_704_1_b_the_game_loss_itself_stands_from_a_floor_judge(app, riftbound):
    incident = give(app, riftbound, "floor_judge", "704.2", "game_loss")
    assert incident.status is IncidentStatus.STANDING


def test_704_1_b_just_below_a_first_unsporting_minor_at_match_loss_is_a_deviation_not_a_reservation(
    app, make_user, make_event
):
    event = staffed(app, make_user, make_event, COMPETITIVE, policy_id="riftbound")
    incident = give(app, event, "floor_judge", "704.2", "match_loss")  # with a reason, no rule holds yet
    assert incident.status is IncidentStatus.STANDING
