"""A policy's cap on the time given back to one table in a round: Play! Pokémon Penalty Guidelines 4.4 (no more
than 16 minutes in all at Regional Championships and above). The cap holds across every extension of the table in the
round (rulings, deck checks, the incident form), counts no withdrawn one, and leaves lower levels alone."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Event, TimeExtension
from tests.conftest import csrf_token
from tests.integration.test_incidents import incidents, log, signed_in, text
from tests.integration.test_time_and_deck_checks import add_time

pytestmark = pytest.mark.db  # the sum over a table's extensions runs in the database


def pokemon_at(app, event_id, level):
    with app.app_context():
        event = db.session.get(Event, event_id)
        event.policy_id, event.level = "pokemon", level
        db.session.commit()


def given(app, table=1):
    with app.app_context():
        rows = db.session.scalars(select(TimeExtension).where(TimeExtension.table_number == table))
        return [e.minutes for e in rows if e.voided_at is None]


def test_at_regional_championships_a_table_gets_at_most_16_minutes_in_a_round_4_4(app, floor):
    pokemon_at(app, floor["event_id"], 2)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert add_time(judge, floor["event_id"], table=1, taken_minutes=10).status_code == 302
    refused = add_time(judge, floor["event_id"], table=1, taken_minutes=7)
    assert refused.status_code == 400
    assert "no more than 16 minutes in all per table in a round (4.4); 10 already given" in text(refused)
    assert 'value="7"' in refused.get_data(as_text=True)  # the input is kept
    assert given(app) == [10]
    assert add_time(judge, floor["event_id"], table=1, taken_minutes=6).status_code == 302  # exactly 16: allowed
    assert given(app) == [10, 6]
    assert add_time(judge, floor["event_id"], table=2, taken_minutes=16).status_code == 302  # another table


@pytest.mark.parametrize("minutes", [17, 30])
def test_below_regional_championships_the_cap_does_not_apply_4_4(app, floor, minutes):
    pokemon_at(app, floor["event_id"], 1)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert add_time(judge, floor["event_id"], table=1, taken_minutes=minutes).status_code == 302
    assert given(app) == [minutes]


def test_time_past_the_cap_on_the_incident_form_is_refused_at_its_field_and_nothing_is_written_4_4(app, floor):
    pokemon_at(app, floor["event_id"], 2)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert add_time(judge, floor["event_id"], table=2, taken_minutes=12).status_code == 302
    refused = log(judge, floor["event_id"], player="P-001", infraction="5.5.1-minor", penalty="warning", extension="5")
    assert refused.status_code == 400
    assert "no more than 16 minutes in all per table in a round (4.4); 12 already given" in text(refused)
    assert incidents(app, floor["event_id"]) == [] and given(app, table=2) == [12]  # all or nothing


def test_a_withdrawn_extension_no_longer_counts_towards_the_cap_4_4(app, floor):
    pokemon_at(app, floor["event_id"], 2)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    add_time(judge, floor["event_id"], table=1, taken_minutes=15)
    with app.app_context():
        ext_id = db.session.scalar(select(TimeExtension.id))
    clock = f"/events/{floor['event_id']}/clock"
    judge.post(
        f"/events/{floor['event_id']}/extensions/{ext_id}/void",
        data={"csrf_token": csrf_token(judge, clock), "reason": "Given to the wrong table"},
    )
    assert given(app) == []
    assert add_time(judge, floor["event_id"], table=1, taken_minutes=16).status_code == 302
