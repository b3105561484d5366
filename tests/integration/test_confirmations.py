"""A penalty the policy has its head judge confirm (`confirm:` per rank and level, issue 35: a Pokémon Double Prize
Card and above, a Yu-Gi-Oh! match loss but for tardiness) is saved as recommended when a floor judge gives it, and
waits in the head judge's queue as a floor judge's disqualification does; at another level, for an infraction the rule
excepts, or given by the head judge, it stands. On the made-up policy of tests/fixtures/catalogs/rules.yaml."""

from __future__ import annotations

import json

import pytest

from judgeapp import create_app
from judgeapp.extensions import db, limiter
from judgeapp.models import IncidentStatus
from tests.conftest import app_config
from tests.integration import staffed
from tests.integration.staffed import give
from tests.integration.test_incidents import incidents, log, signed_in, suggestion
from tests.shared.engine_cases import RULES_CATALOG


@pytest.fixture
def app(tmp_path, smtp_server):
    mail = {"MAIL_BACKEND": "smtp", "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": smtp_server[1], "MAIL_USE_TLS": False}
    app = create_app(app_config(tmp_path, JUDGEAPP_CATALOG=str(RULES_CATALOG), **mail))
    with app.app_context():
        db.drop_all()
        db.create_all()
        limiter.reset()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def staffed_event(app, make_user, make_event, level: int) -> dict:
    """An event of the made-up policy at `level`, round 1 running, a head judge, a floor judge and one player."""
    return staffed.staffed_event(app, make_user, make_event, policy_id="rules-demo", level=level)


def test_c1_a_floor_judges_game_loss_at_the_confirmed_level_is_recommended_and_waits_for_the_head_judge(
    app, make_user, make_event
):
    event = staffed_event(app, make_user, make_event, level=2)
    incident = give(app, event, "floor_judge", "2.1", "game_loss")
    assert incident.status is IncidentStatus.RECOMMENDED and incident.rank_id == "game_loss"
    head = signed_in(app, event["people"]["head_judge"][1])
    assert 'aria-label="1 waiting for you"' in head.get(f"/events/{event['event_id']}").get_data(as_text=True)
    feed = head.get(f"/events/{event['event_id']}/feed?partial=1").get_data(as_text=True)
    assert "#1 · Game Loss — recommended, your decision" in feed


def test_c1_just_below_the_confirmed_rank_a_floor_judges_warning_stands(app, make_user, make_event):
    event = staffed_event(app, make_user, make_event, level=2)
    assert give(app, event, "floor_judge", "2.1", "warning").status is IncidentStatus.STANDING


def test_c1_at_a_level_the_rule_does_not_name_the_same_game_loss_stands(app, make_user, make_event):
    event = staffed_event(app, make_user, make_event, level=1)
    assert give(app, event, "floor_judge", "2.1", "game_loss").status is IncidentStatus.STANDING


def test_c1_an_infraction_the_rule_excepts_stands_when_a_floor_judge_gives_the_confirmed_rank(
    app, make_user, make_event
):
    event = staffed_event(app, make_user, make_event, level=2)
    assert give(app, event, "floor_judge", "3.1", "game_loss").status is IncidentStatus.STANDING


def test_c1_the_head_judges_own_game_loss_stands(app, make_user, make_event):
    event = staffed_event(app, make_user, make_event, level=2)
    assert give(app, event, "head_judge", "2.1", "game_loss").status is IncidentStatus.STANDING


def test_the_suggestion_names_the_ranks_to_confirm_and_offers_the_escalation_the_text_leaves_to_the_judge(
    app, make_user, make_event
):
    from judgeapp.models import Player

    event = staffed_event(app, make_user, make_event, level=2)
    give(app, event, "floor_judge", "10.1", "warning")
    with app.app_context():
        player_id = db.session.query(Player.id).scalar()
    judge = signed_in(app, event["people"]["floor_judge"][1])
    answer = suggestion(judge, event["event_id"], player_id=player_id, infraction="10.1").get_json()
    assert answer["confirm_ranks"] == ["game_loss", "match_loss", "disqualification"]
    assert answer["suggested"] == "warning" and answer["upgraded"] is False
    assert answer["offered"] == [{"rule": "may-escalate", "rank": "game_loss", "because": [1]}]
    assert answer["in_range"] == ["warning", "game_loss"]
    assert "The judge may escalate to Game Loss (R10: 2nd penalty in 10 at this event)" in answer["explanation"]
    excepted = suggestion(judge, event["event_id"], player_id=player_id, infraction="3.1").get_json()
    assert excepted["confirm_ranks"] == ["disqualification"]


def test_the_quick_reference_says_who_confirms_each_rank_and_marks_the_escalation_left_to_the_judge(app, make_user):
    _, email = make_user(name="Floor Judge")
    page = " ".join(signed_in(app, email).get("/reference/rules-demo").get_data(as_text=True).split())
    assert (
        "Game Loss, Match Loss given by a floor judge waits for the head judge or an assistant head judge (C1)."
        " At Open only. Not for 3.1." in page
    )
    assert (
        "Disqualification given by a floor judge waits for 3 judges, the head judge among them (C2). At Open only."
        in page
    )
    assert "Disqualification given by a floor judge waits for the head judge (C3)." in page
    offered = page.split('id="rule-may-escalate"')[1].split("</li>")[0]
    assert "The judge's call: offered, never applied by itself." in offered
    assert "never applied by itself" not in page.split('id="rule-from-given"')[1].split("</li>")[0]


def suggest_cli(app, level, infraction, *extra):
    args = ["penalty", "suggest", "--policy", "rules-demo", "--level", str(level), "--infraction", infraction, *extra]
    return app.test_cli_runner().invoke(args=args)


def test_penalty_suggest_answers_with_the_offered_escalation_and_whom_to_confirm(app):
    offered = json.loads(suggest_cli(app, 1, "10.1", "--prior", "10.1:warning").output)
    assert (offered["suggested"], offered["upgraded"], offered["confirm"]) == ("warning", False, None)
    assert offered["offered"] == [{"rule": "may-escalate", "rank": "game_loss", "because": [1]}]
    answer = json.loads(suggest_cli(app, 2, "11.1-major").output)
    assert answer["suggested"] == "game_loss"
    assert answer["confirm"] == {"by": "head_judge_or_assistant", "judges": None, "section": "C1"}


def test_catalog_check_passes_on_the_fixture_that_uses_every_rule_form(app):
    result = app.test_cli_runner().invoke(args=["catalog", "check", str(RULES_CATALOG)])
    assert result.exit_code == 0, result.output
    assert result.output.split()[0] == "rules-demo"


def test_penalty_suggest_picks_the_row_by_minutes_late_and_says_when_it_needs_them(app):
    def ask(*extra):
        return json.loads(suggest_cli(app, 2, "9.3", *extra).output)

    unknown = ask()
    assert (unknown["suggested"], unknown["asks_minutes_late"], unknown["minutes_late"]) == ("warning", True, None)
    assert ask("--minutes-late", "2")["suggested"] == "warning"
    at_threshold = ask("--minutes-late", "3")
    assert (at_threshold["suggested"], at_threshold["minutes_late"]) == ("game_loss", 3)
    assert at_threshold["explanation"] == "Default at Open for 3 minutes late: Game Loss."
    refused = suggest_cli(app, 2, "9.3", "--minutes-late", "-1")
    assert refused.exit_code == 2


# ---- defaults by minutes late, from the incident form -------------------------------------------------------------


def test_the_form_asks_the_minutes_late_and_the_engine_picks_the_row_from_them(app, make_user, make_event):
    from judgeapp.models import Player

    event = staffed_event(app, make_user, make_event, level=2)
    with app.app_context():
        player_id = db.session.query(Player.id).scalar()
    judge = signed_in(app, event["people"]["floor_judge"][1])
    page = judge.get(f"/events/{event['event_id']}/incidents/new").get_data(as_text=True)
    assert 'id="minutes-late-field" hidden' in page and 'name="minutes_late"' in page  # shown where asked (script)

    def ask(**minutes):
        params = {"player_id": player_id, "infraction": "9.3", **minutes}
        return suggestion(judge, event["event_id"], **params).get_json()

    unknown = ask()
    assert (unknown["asks_minutes_late"], unknown["suggested"], unknown["minutes_late"]) == (True, "warning", None)
    assert ask(minutes_late=2)["suggested"] == "warning"  # just below the 3-minute row
    assert ask(minutes_late=3)["suggested"] == "game_loss"  # at it
    assert ask(minutes_late=11)["suggested"] == "match_loss"
    assert suggestion(judge, event["event_id"], player_id=player_id, infraction="2.1").get_json()[
        "asks_minutes_late"
    ] is (False)


def test_an_incident_logged_with_minutes_late_keeps_them_and_is_checked_against_their_row(app, make_user, make_event):
    event = staffed_event(app, make_user, make_event, level=2)
    judge = signed_in(app, event["people"]["head_judge"][1])
    saved = log(
        judge, event["event_id"], player="P-001", table="1", infraction="9.3", penalty="game_loss", minutes_late="3"
    )
    assert saved.status_code == 302
    [incident] = incidents(app, event["event_id"])
    assert (incident.minutes_late, incident.suggested_rank_id, incident.rank_id) == (3, "game_loss", "game_loss")
    assert incident.deviation_reason in (None, "")  # the row's default: no reason needed
    assert "for 3 minutes late" in incident.suggestion_explanation
    below = log(
        judge, event["event_id"], player="P-001", table="1", infraction="9.3", penalty="game_loss", minutes_late="2"
    )
    assert below.status_code == 400  # a game loss at 2 minutes is above the row's default: a reason is needed
    assert "Reason for this penalty" in below.get_data(as_text=True)


def test_minutes_late_are_not_kept_for_an_infraction_whose_defaults_do_not_go_by_them(app, make_user, make_event):
    event = staffed_event(app, make_user, make_event, level=2)
    judge = signed_in(app, event["people"]["head_judge"][1])
    log(judge, event["event_id"], player="P-001", table="1", infraction="2.1", penalty="warning", minutes_late="7")
    [incident] = incidents(app, event["event_id"])
    assert incident.minutes_late is None
