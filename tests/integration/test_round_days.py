"""Multi-day events on the event page (issue 34): the head judge says Day 2 begins with a round; the page names each
round's day from then on, and an event that never has a second day shows no day at all."""

from __future__ import annotations

from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, Round
from tests.conftest import post_form


def test_the_head_judge_puts_round_two_on_day_two_and_the_event_page_names_the_day(app, client, floor, login_as):
    login_as(floor["people"]["head_judge"][1])
    page = f"/events/{floor['event_id']}"
    assert "Day 1" not in client.get(page).get_data(as_text=True)  # round 1 is Day 1: nothing to choose, none named
    assert post_form(client, f"{page}/rounds", {}, form_page=page).status_code == 302
    shown = client.get(page).get_data(as_text=True)
    assert 'name="day"' in shown and "Round 2 is on" in shown and "Day 2" not in shown.split('name="day"')[0]
    assert post_form(client, f"{page}/rounds/2/day", {"day": "2"}, form_page=page).status_code == 302
    shown = client.get(page).get_data(as_text=True)
    assert "Day 2 · Round 2 of 5" in shown
    with app.app_context():
        assert [r.day for r in db.session.scalars(select(Round).order_by(Round.number))] == [1, 2]
        assert db.session.scalar(select(AuditEntry.action).where(AuditEntry.action == "round.day")) == "round.day"


def test_a_day_the_round_may_not_be_on_is_refused_and_nothing_changes(app, client, floor, login_as):
    login_as(floor["people"]["head_judge"][1])
    page = f"/events/{floor['event_id']}"
    answer = post_form(client, f"{page}/rounds/1/day", {"day": "3"}, form_page=page)
    assert answer.status_code == 302
    assert "Round 1 cannot be on day 3" in client.get(page).get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Round.day)) == 1


def test_a_floor_judge_may_not_set_a_rounds_day(app, client, floor, login_as):
    login_as(floor["people"]["floor_judge"][1])
    page = f"/events/{floor['event_id']}"
    assert post_form(client, f"{page}/rounds/1/day", {"day": "1"}, form_page=page).status_code == 403
