"""The appeal form follows the event's policy, in real Chromium at 390x844: under Bushiroad an opponent may contest
only the remedy (Floor Rules 1.2.1, Penalty Guide 3.8.1) and the challenges left are shown; under the Transformers
rules (2.9) the opponent may contest the penalty and no challenge limit applies."""

import pytest
from sqlalchemy import select

from tests.browser.conftest import log_in, shot
from tests.browser.test_floor_judge import no_horizontal_scroll

pytestmark = pytest.mark.browser


def _warning_at_table_2(app):
    """Floor judge Fatima gives Sota Takahashi (DEMO-003, table 2 against Mei Tanaka) a warning for 3.5.2."""
    from judgeapp.extensions import current_catalog, db
    from judgeapp.incidents import services as incidents
    from judgeapp.models import Event, Player, User

    with app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "Demo Open"))
        judge = db.session.scalar(select(User).where(User.email == "floor1@demo.test"))
        sota = db.session.scalar(select(Player).where(Player.event_id == event.id, Player.player_code == "DEMO-003"))
        incidents.log_incident(
            db.session,
            current_catalog().policy(event.policy_id),
            actor=judge,
            roles=frozenset({"floor_judge"}),
            event=event,
            data=incidents.IncidentInput(
                key="browser-appeal-rules-0001",
                infraction_code="3.5.2",
                round_number=1,
                table_number=2,
                player_id=sota.id,
                rank_id="warning",
            ),
        )
        db.session.commit()
        return event.id


def _switch_policy(app, event_id, policy_id):
    from judgeapp.extensions import db
    from judgeapp.models import Event

    with app.app_context():
        event = db.session.get(Event, event_id)
        event.policy_id, event.level = policy_id, 1
        db.session.commit()


def test_the_appeal_form_limits_an_opponent_to_the_remedy_under_bushiroad_but_not_under_transformers(
    live_server, phone
):
    event_id = _warning_at_table_2(live_server.app)
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/{event_id}/incidents/1/appeal")
    phone.get_by_label("Mei Tanaka").check()
    rule = phone.locator("#opponent-rule")
    assert "only the remedy" in rule.inner_text() and "1.2.1" in rule.inner_text()
    assert "2 of 2 challenges left" in phone.locator("form.card").inner_text()
    phone.get_by_label("The penalty", exact=True).check()
    phone.get_by_label("What they contest").fill("The opponent wants a loss of game instead of the warning.")
    phone.get_by_role("button", name="Send the appeal to the head judge").click()
    phone.get_by_text("Mei Tanaka is the opponent").wait_for()
    assert no_horizontal_scroll(phone)
    shot(phone, "seeds-appeal-bushiroad-opponent-refused")

    _switch_policy(live_server.app, event_id, "transformers-tcg")
    phone.goto(f"{live_server}/events/{event_id}/incidents/1/appeal")
    assert phone.locator("#opponent-rule").count() == 0
    assert "limits no player's challenges" in phone.locator("main").inner_text()
    assert "challenges left" not in phone.locator("form.card").inner_text()
    phone.get_by_label("Mei Tanaka").check()
    phone.get_by_label("The penalty", exact=True).check()
    phone.get_by_label("What they contest").fill("The opponent wants a loss of game instead of the warning.")
    assert no_horizontal_scroll(phone)
    shot(phone, "seeds-appeal-transformers-opponent")
    phone.get_by_role("button", name="Send the appeal to the head judge").click()
    phone.get_by_text("Appeal #1 sent to the head judge").wait_for()
