"""Issue 35, "Everywhere a policy reaches", checked for Pokémon, Yu-Gi-Oh! and Lorcana through the requests a judge and
an organizer make: the event set-up with each policy's levels by their names, the incident form and its suggestion, the
explanation sentence on the incident, the quick reference and its search in each game's own words, the post-event
report and the CSVs."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Event
from tests.conftest import post_form
from tests.integration.staffed import give as give_as
from tests.integration.staffed import staffed_event
from tests.integration.test_assistant_head_judge import client as staff_client
from tests.integration.test_postevent import rows_of

pytestmark = pytest.mark.db

EVENT_FORM = {
    "name": "Spring Cup",
    "date": "2026-12-12",
    "venue": "Hall C",
    "rounds": "6",
    "round_minutes": "50",
    "challenge_limit": "2",
}

# policy: its levels by the text's names (number, name shown), the infraction a judge logs at the first level with
# its default and the sentence the engine explains it with, and words of the game that find it first in the quick
# reference
CASES = {
    "pokemon": (
        [
            ("league", 1, "Below Regional Championships"),
            ("regional-championships", 2, "Regional Championships and above"),
        ],
        ("5.5.1-minor", "warning", "Warning", "Default at Below Regional Championships: Warning."),
        ("attack without the required energy", "5.5.1-minor"),
    ),
    "yugioh": (
        [("tier-1", 1, "Tier 1"), ("tier-2", 2, "Tier 2"), ("tier-3", 3, "Tier 3"), ("tier-4", 4, "Tier 4")],
        ("PE-minor", "warning", "Warning", "Default at Tier 1: Warning."),
        ("drew an extra card", "DC-minor"),
    ),
    "lorcana": (
        [("entry-level", 1, "Entry-level"), ("competitive", 2, "Competitive"), ("premier-play", 3, "Premier Play")],
        ("2.1", "caution", "Caution", "Default at Entry-level: Caution."),
        ("missed trigger", "2.1"),
    ),
}


@pytest.fixture
def organizer(make_user, login_as):
    uid, email = make_user(organizer=True, name="Olivia Organizer")
    login_as(email)
    return uid


@pytest.mark.parametrize("policy_id", sorted(CASES))
def test_the_event_set_up_offers_each_policys_levels_by_their_names_and_keeps_the_one_chosen(
    app, client, organizer, policy_id
):
    levels, _, _ = CASES[policy_id]
    page = client.get("/events/new").get_data(as_text=True)
    for _, number, name in levels:
        options = re.findall(r"<option([^>]*)>([^<]*)</option>", page)
        assert any(
            f'value="{number}"' in attrs and f'data-policy="{policy_id}"' in attrs and label == name
            for attrs, label in options
        ), name
    for _, number, _ in levels:
        response = post_form(client, "/events/new", {**EVENT_FORM, "policy_id": policy_id, "level": str(number)})
        assert response.status_code == 302, response.get_data(as_text=True)[:500]
        with app.app_context():
            event = db.session.scalars(select(Event).order_by(Event.id.desc())).first()
            assert (event.policy_id, event.level) == (policy_id, number)


@pytest.mark.parametrize("policy_id", sorted(CASES))
def test_an_incident_of_each_policy_reaches_the_form_the_explanation_the_report_and_the_csvs(
    app, make_user, make_event, policy_id
):
    _, (code, rank_id, rank_name, sentence), _ = CASES[policy_id]
    event = staffed_event(app, make_user, make_event, policy_id=policy_id, level=1)
    judge = staff_client(app, event, "head_judge")
    form = judge.get(f"/events/{event['event_id']}/incidents/new").get_data(as_text=True)
    assert f'value="{code}"' in form
    answer = judge.get(
        f"/events/{event['event_id']}/incidents/suggest?kind=player&player=P-001&round=1&infraction={code}"
    ).get_json()
    assert (answer["suggested"], answer["explanation"]) == (rank_id, sentence)
    give_as(app, event, "head_judge", code, rank_id, deviation_reason="")
    shown = judge.get(f"/events/{event['event_id']}/incidents/1").get_data(as_text=True)
    assert sentence in shown
    report = judge.get(f"/events/{event['event_id']}/report").get_data(as_text=True)
    assert code in report and rank_name in report
    [row] = rows_of(judge.get(f"/events/{event['event_id']}/export/incidents.csv"))
    assert (row["infraction_code"], row["rank"]) == (code, rank_name)
    [by_player] = rows_of(judge.get(f"/events/{event['event_id']}/export/player-penalties.csv"))
    assert (by_player["incident"], by_player["infraction_code"]) == ("1", code)


@pytest.mark.parametrize("policy_id", sorted(CASES))
def test_the_quick_reference_search_finds_the_infraction_first_in_the_games_own_words(client, organizer, policy_id):
    _, _, (words, code) = CASES[policy_id]
    page = client.get(f"/reference/{policy_id}?q={words}").get_data(as_text=True)
    listed = re.findall(r'<li class="infraction" data-code="([^"]+)"( hidden)?', page)
    assert listed[0] == (code, ""), listed[:5]  # the best hit first, shown; the rest listed after it
