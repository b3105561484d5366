"""The policy language's last forms through the incident form, the records and the reports (issue 35): a per-game
window (Flesh and Blood PPG 3.3 counts the slow-play Caution "in the same game") and one penalty for related errors
(Magic IPG 1.2: infractions of one root cause get one penalty)."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry
from tests.integration.staffed import give as give_as
from tests.integration.staffed import staffed_event
from tests.integration.test_assistant_head_judge import client
from tests.integration.test_incidents import incidents, log
from tests.integration.test_postevent import rows_of

pytestmark = pytest.mark.db  # the new columns, the self-reference and the reports read alike on PostgreSQL

COMPETITIVE = 1


def give(app, event, infraction, penalty, **fields):
    return give_as(app, event, "head_judge", infraction, penalty, deviation_reason="", **fields)


def refused(app, event, **fields):
    """The head judge sends the form and it is refused: the page, with the errors at their fields."""
    response = log(client(app, event, "head_judge"), event["event_id"], player="P-001", table="1", **fields)
    assert response.status_code == 400, response.status_code
    return response.get_data(as_text=True)


def suggestion(app, event, **args):
    c = client(app, event, "head_judge")
    query = "&".join(f"{k}={v}" for k, v in {"kind": "player", "player": "P-001", "round": "1", **args}.items())
    response = c.get(f"/events/{event['event_id']}/incidents/suggest?{query}")
    return response.status_code, json.loads(response.get_data(as_text=True))


# ---- FaB PPG 3.3: the caution "in the same game" -------------------------------------------------------------------


@pytest.fixture
def fab(app, make_user, make_event):
    return staffed_event(app, make_user, make_event, policy_id="fab-ppg", level=COMPETITIVE)


def test_3_3_slow_play_after_a_caution_in_the_same_game_is_suggested_a_warning_and_not_after_one_in_game_1(app, fab):
    give(app, fab, "3.3", "caution", game="1")
    status, game_2 = suggestion(app, fab, infraction="3.3", game="2")
    assert status == 200 and (game_2["suggested"], game_2["upgraded"], game_2["asks_game"]) == ("caution", False, True)
    _, game_1 = suggestion(app, fab, infraction="3.3", game="1")
    assert (game_1["suggested"], game_1["upgraded"], game_1["rule"]) == ("warning", True, "slow-play-after-caution")
    assert game_1["explanation"] == (
        "Upgraded: 2nd 3.3 Slow Play in this game (PPG 3.3): Warning — after incident #1, round 1, game 1"
    )
    give(app, fab, "3.3", "warning", game="1")
    first, second = incidents(app, fab["event_id"])
    assert (first.game_number, second.game_number, second.suggested_rank_id, second.upgraded) == (1, 1, "warning", True)


def test_the_form_keeps_the_game_only_for_an_infraction_a_per_game_rule_counts(app, fab):
    _, other = suggestion(app, fab, infraction="3.1", game="2")
    assert (other["asks_game"], other["game"]) == (False, None)
    give(app, fab, "3.1", "intellect_penalty", game="2")  # tardiness: no rule counts it per game
    assert incidents(app, fab["event_id"])[-1].game_number is None


def test_a_game_number_out_of_range_is_refused_at_its_field_with_the_input_kept(app, fab):
    page = refused(app, fab, infraction="3.3", penalty="caution", game="0")
    assert re.search(r'id="game"[^>]*value="0"|value="0"[^>]*id="game"', page)
    assert "The game of the match: 1 to 99." in page
    assert incidents(app, fab["event_id"]) == []


def test_the_incident_and_the_csv_show_the_game(app, fab):
    give(app, fab, "3.3", "caution", game="2")
    c = client(app, fab, "head_judge")
    page = c.get(f"/events/{fab['event_id']}/incidents/1").get_data(as_text=True)
    assert "game 2 of the match" in page.split('id="incident-game"')[1].split("</dd>")[0]
    rows = rows_of(c.get(f"/events/{fab['event_id']}/export/incidents.csv"))
    assert [(r["incident"], r["game"], r["same_cause_as"]) for r in rows] == [("1", "2", "")]


# ---- Magic IPG 1.2: one penalty for related errors ------------------------------------------------------------------


@pytest.fixture
def mtg(app, make_user, make_event):
    return staffed_event(app, make_user, make_event, policy_id="mtg-ipg", level=COMPETITIVE)


def test_ipg_1_2_a_record_linked_as_the_same_cause_is_kept_with_no_penalty_and_audited(app, mtg):
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "", related_to="1")
    first, linked = incidents(app, mtg["event_id"])
    assert (linked.rank_id, linked.suggested_rank_id, linked.related_to_id) == (None, None, first.id)
    assert linked.suggestion_explanation == (
        "One penalty for related errors (IPG 1.2): the same cause as incident #1, round 1, whose Warning stands for "
        "both; no second penalty."
    )
    with app.app_context():
        entry = db.session.scalars(
            select(AuditEntry).where(AuditEntry.action == "incident.log").order_by(AuditEntry.id.desc())
        ).first()
        assert entry.details["related_to"] == 1


def test_ipg_1_2_a_linked_record_is_not_counted_as_a_repeat(app, mtg):
    """IPG 2: a third Warning for the same Game Play Error the same day is a Game Loss. With #2 linked to #1 as the
    same cause, the next Game Rule Violation is the second, not the third: a Warning."""
    give(app, mtg, "2.5", "warning")
    give(app, mtg, "2.5", "", related_to="1")
    give(app, mtg, "2.5", "warning")
    third = incidents(app, mtg["event_id"])[-1]
    assert (third.suggested_rank_id, third.upgraded) == ("warning", False)


def test_ipg_1_2_a_penalty_on_a_linked_record_is_refused_at_the_penalty_with_the_link_kept(app, mtg):
    give(app, mtg, "2.2", "warning")
    page = refused(app, mtg, infraction="2.5", penalty="warning", related_to="1")
    assert "Linked to incident #1 as the same cause: this record carries no penalty of its own (IPG 1.2)." in page
    assert re.search(r'id="related_to"[^>]*value="1"|value="1"[^>]*id="related_to"', page)
    assert len(incidents(app, mtg["event_id"])) == 1


def test_ipg_1_2_a_link_to_a_record_that_is_not_this_players_or_not_there_is_refused_at_the_link(app, mtg):
    page = refused(app, mtg, infraction="2.5", penalty="", related_to="7")
    assert "No earlier incident #7 at this event." in page
    status, answer = suggestion(app, mtg, infraction="2.5", related_to="7")
    assert (status, answer["field"]) == (422, "related_to")


def test_a_policy_whose_text_gives_every_error_its_own_penalty_asks_no_link_and_refuses_one(app, fab):
    page = client(app, fab, "head_judge").get(f"/events/{fab['event_id']}/incidents/new").get_data(as_text=True)
    assert 'id="related_to"' not in page
    give(app, fab, "3.3", "caution", game="1")
    page = refused(app, fab, infraction="2.1", penalty="", related_to="1")
    assert "has no rule of one penalty for related errors: each record carries its own." in page


def test_ipg_1_2_the_incident_the_report_and_the_csv_show_the_link(app, mtg):
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "", related_to="1")
    c = client(app, mtg, "head_judge")
    page = c.get(f"/events/{mtg['event_id']}/incidents/2").get_data(as_text=True)
    shown = page.split('id="incident-related"')[1].split("</dd>")[0]
    assert f'href="/events/{mtg["event_id"]}/incidents/1"' in shown and "no second penalty" in shown
    rows = rows_of(c.get(f"/events/{mtg['event_id']}/export/incidents.csv"))
    assert [(r["incident"], r["rank"], r["same_cause_as"]) for r in rows] == [
        ("1", "Warning", ""),
        ("2", "No penalty", "1"),
    ]
    report = c.get(f"/events/{mtg['event_id']}/report").get_data(as_text=True)
    assert "same cause as incident #1: no second penalty" in report.split('id="judged"')[1].split("</ul>")[0]


def correct(app, event, number, **fields):
    from tests.integration.test_incidents import csrf_token

    judge = client(app, event, "head_judge")
    url = f"/events/{event['event_id']}/incidents/{number}"
    data = {"csrf_token": csrf_token(judge, f"{url}/edit"), "round": "1", "table": "1", "description": "", **fields}
    return judge.post(f"{url}/edit", data=data)


def void(app, event, number):
    from tests.integration.test_incidents import csrf_token

    judge = client(app, event, "head_judge")
    url = f"/events/{event['event_id']}/incidents/{number}"
    return judge.post(f"{url}/void", data={"csrf_token": csrf_token(judge, url), "reason": "Logged twice by mistake"})


def test_ipg_1_2_a_correction_keeps_a_linked_record_without_a_penalty_while_the_earlier_one_stands(app, mtg):
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "", related_to="1")
    page = correct(app, mtg, 2, infraction="2.5", penalty="warning").get_data(as_text=True)
    assert "Linked to incident #1 as the same cause" in page
    assert incidents(app, mtg["event_id"])[1].rank_id is None


def test_ipg_1_2_once_the_earlier_record_is_voided_the_linked_one_may_be_given_its_own_penalty(app, mtg):
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "", related_to="1")
    assert void(app, mtg, 1).status_code == 302
    assert correct(app, mtg, 2, infraction="2.5", penalty="warning").status_code == 302
    linked = incidents(app, mtg["event_id"])[1]
    assert (linked.rank_id, linked.suggested_rank_id, linked.related_to_id is not None) == ("warning", "warning", True)


def test_the_phones_copy_carries_each_penalty_s_game_and_the_policy_s_related_errors_for_the_offline_engine(app, fab):
    give(app, fab, "3.3", "caution", game="2")
    body = client(app, fab, "floor_judge").get("/offline/copy.json").get_json()
    [event] = body["events"]
    assert [(p["ref"], p["round"], p["game"]) for p in event["priors"]] == [(1, 1, 2)]
    # the engine's input comes from the policy's file the copy names (kept once per version), not from the copy
    policy = client(app, fab, "floor_judge").get(event["finder"]).get_json()["policy"]
    rule = next(r for r in policy["repeat_rules"] if r["id"] == "slow-play-after-caution")
    assert (rule["window"], policy["related_errors"]) == ("game", None)


# ---- the head judge's correction: the game of the match and the same-cause link (issue 35) ---------------------------


def corrections(app):
    with app.app_context():
        return [
            e.details["changed"]
            for e in db.session.scalars(
                select(AuditEntry).where(AuditEntry.action == "incident.correct").order_by(AuditEntry.id)
            )
        ]


def field_value(page, name):
    tag = re.search(rf'<input[^>]*id="{name}"[^>]*>', page)
    assert tag, f"no field {name}"
    value = re.search(r'value="([^"]*)"', tag.group(0))
    return value.group(1) if value else ""


def test_the_correction_form_shows_the_game_and_a_correction_changes_it_audited_and_re_checked(app, fab):
    give(app, fab, "3.3", "caution", game="1")
    give(app, fab, "3.3", "warning", game="1")  # the caution of the same game: upgraded (PPG 3.3)
    page = client(app, fab, "head_judge").get(f"/events/{fab['event_id']}/incidents/2/edit").get_data(as_text=True)
    assert field_value(page, "game") == "1"
    response = correct(app, fab, 2, infraction="3.3", penalty="caution", game="2", note="It was game 2")
    assert response.status_code == 302, response.get_data(as_text=True)
    _, second = incidents(app, fab["event_id"])
    # another game than the caution's: the per-game rule no longer counts it, a caution is the suggestion
    assert (second.game_number, second.rank_id, second.suggested_rank_id, second.upgraded) == (
        2,
        "caution",
        "caution",
        False,
    )
    assert corrections(app)[-1]["game_number"] == [1, 2]


def test_a_game_out_of_range_in_a_correction_is_refused_at_its_field_with_the_input_kept_and_nothing_changed(app, fab):
    give(app, fab, "3.3", "caution", game="1")
    response = correct(app, fab, 1, infraction="3.3", penalty="caution", game="0")
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert field_value(page, "game") == "0" and "The game of the match: 1 to 99." in page
    assert incidents(app, fab["event_id"])[0].game_number == 1 and corrections(app) == []


def test_a_correction_links_a_record_to_an_earlier_one_of_the_same_player_and_round_ipg_1_2(app, mtg):
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "warning")
    response = correct(app, mtg, 2, infraction="2.5", penalty="", related_to="1", note="Same slip as #1")
    assert response.status_code == 302, response.get_data(as_text=True)
    first, linked = incidents(app, mtg["event_id"])
    assert (linked.related_to_id, linked.rank_id, linked.suggested_rank_id) == (first.id, None, None)
    assert linked.suggestion_explanation.startswith(
        "One penalty for related errors (IPG 1.2): the same cause as incident #1, round 1, whose Warning stands"
    )
    assert corrections(app)[-1]["related_to"] == [None, 1] and corrections(app)[-1]["rank_id"] == ["warning", None]


def test_a_correction_removes_the_link_and_the_record_gets_its_own_penalty_again_ipg_1_2(app, mtg):
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "", related_to="1")
    page = client(app, mtg, "head_judge").get(f"/events/{mtg['event_id']}/incidents/2/edit").get_data(as_text=True)
    assert field_value(page, "related_to") == "1"
    assert correct(app, mtg, 2, infraction="2.5", penalty="warning", related_to="").status_code == 302
    linked = incidents(app, mtg["event_id"])[1]
    assert (linked.related_to_id, linked.rank_id, linked.suggested_rank_id) == (None, "warning", "warning")
    assert corrections(app)[-1]["related_to"] == [1, None]


@pytest.mark.parametrize(
    "number, target, message",
    [
        (2, "2", "An incident cannot be linked to itself."),
        (1, "2", "Incident #2 is linked to this one: a link may not go round in a circle."),
        (2, "9", "No earlier incident #9 at this event."),
    ],
    ids=["itself", "a-cycle", "not-there"],
)
def test_a_correction_refuses_a_link_to_itself_in_a_cycle_or_to_nothing_at_the_field_with_the_input_kept(
    app, mtg, number, target, message
):
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "", related_to="1")
    before = [(i.related_to_id, i.rank_id) for i in incidents(app, mtg["event_id"])]
    infraction, penalty = ("2.5", "") if number == 2 else ("2.2", "warning")
    response = correct(app, mtg, number, infraction=infraction, penalty=penalty, related_to=target)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and message in page
    assert field_value(page, "related_to") == target
    assert [(i.related_to_id, i.rank_id) for i in incidents(app, mtg["event_id"])] == before and corrections(app) == []


def test_a_correction_refuses_a_link_that_would_make_a_chain_of_links(app, mtg):
    """#3 is linked to #2: linking #2 to #1 would leave #3 pointing at a record without a penalty of its own."""
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "warning")
    give(app, mtg, "2.6", "", related_to="2")
    response = correct(app, mtg, 2, infraction="2.5", penalty="", related_to="1")
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Incident #3 is linked to this one as the same cause: link it to incident #1 first." in page
    assert incidents(app, mtg["event_id"])[1].related_to_id is None


def test_a_correction_refuses_a_link_to_another_players_record(app, mtg):
    from judgeapp.events.player_services import add_player
    from judgeapp.models import Event

    with app.app_context():
        event = db.session.get(Event, mtg["event_id"])
        add_player(db.session, actor=event.organizer, event=event, name="Ren Kato", player_code="P-002", team=None)
        db.session.commit()
    give(app, mtg, "2.2", "warning")
    other = log(
        client(app, mtg, "head_judge"), mtg["event_id"], player="P-002", table="1", infraction="2.5", penalty="warning"
    )
    assert other.status_code == 302
    response = correct(app, mtg, 2, infraction="2.5", penalty="", related_to="1")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Incident #1 is not this player&#39;s in this round." in page, re.findall(r"error[^>]*>([^<]*)", page)


def test_the_correction_form_of_a_policy_without_the_rules_asks_neither_game_nor_link(app, make_user, make_event):
    event = staffed_event(app, make_user, make_event, policy_id="bushiroad-afr", level=2)
    give_as(app, event, "head_judge", "3.1.1", "loss_of_game", deviation_reason="")
    page = client(app, event, "head_judge").get(f"/events/{event['event_id']}/incidents/1/edit").get_data(as_text=True)
    assert 'id="game"' not in page and 'id="related_to"' not in page


HEADING = "Minutes late, games, same-cause links and offered escalations (%s)"


def test_the_report_heading_names_the_games_and_links_it_lists_on_the_page_and_in_the_pdf(
    app, mtg, tmp_path, job_worker
):
    from tests.integration.test_investigations import pdf_text
    from tests.renders import report_pdf

    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "", related_to="1")
    head = client(app, mtg, "head_judge")
    page = head.get(f"/events/{mtg['event_id']}/report").get_data(as_text=True)
    assert HEADING % 1 in page and "escalations offered (" not in page.replace(HEADING % 1, "")
    body = " ".join(pdf_text(report_pdf(head, job_worker, mtg["event_id"]).data, tmp_path).split())
    assert HEADING % 1 in body and "same cause as incident #1: no second penalty" in body


# ---- the player's history: where the next one is upgraded, for a rule that counts per game (FaB PPG 3.3) -------------


def player_page(app, event):
    from judgeapp.models import Player

    with app.app_context():
        player_id = db.session.scalar(select(Player.id).where(Player.event_id == event["event_id"]))
    return (
        client(app, event, "head_judge").get(f"/events/{event['event_id']}/players/{player_id}").get_data(as_text=True)
    )


def test_the_player_history_says_the_next_slow_play_is_upgraded_in_the_cautions_game_only_ppg_3_3(app, fab):
    give(app, fab, "3.3", "caution", game="2")
    page = player_page(app, fab)
    marker = page.split('class="upgrade-marker"')[1].split("</p>")[0]
    assert "Next 3.3 Slow Play in game 2 of round 1 is upgraded" in marker
    assert "a rule counts it per game: in another game it is not" in marker


def test_the_player_history_marks_no_upgrade_after_a_caution_whose_game_is_unknown_ppg_3_3(app, fab):
    """Just below: without the caution's game the per-game rule cannot count it, as the engine says; the page says
    why instead of marking an upgrade (or saying nothing)."""
    give(app, fab, "3.3", "caution")
    page = player_page(app, fab)
    assert 'class="upgrade-marker"' not in page
    assert (
        "3.3 Slow Play counts per game: the form says whether the next one is upgraded once its game is given." in page
    )


def test_the_incidents_history_names_the_corrected_game_and_link_in_words(app, mtg):
    give(app, mtg, "2.2", "warning")
    give(app, mtg, "2.5", "warning")
    assert correct(app, mtg, 2, infraction="2.5", penalty="", related_to="1").status_code == 302
    page = client(app, mtg, "head_judge").get(f"/events/{mtg['event_id']}/incidents/2").get_data(as_text=True)
    assert "same cause as incident #: <del>—</del> → <ins>1</ins>" in page
