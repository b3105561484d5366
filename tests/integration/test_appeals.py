"""Appeals of floor rulings: the head judge's queue, decisions, proxies, the challenge limit and who may decide."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Appeal, AppealStatus, AuditEntry, Event, Incident, IncidentStatus
from tests.conftest import csrf_token
from tests.integration.test_incidents import KEY_RE, log, signed_in, suggestion, text


@pytest.fixture
def ruled(app, floor):
    """The floor judge has given Aiko Mori (P-001, table 2 against Chen Yu P-003 in the pairings) a warning."""
    from judgeapp.events.pairing_services import import_pairings

    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        import_pairings(
            db.session, actor=event.organizer, event=event, round_number=1, text="1,P-002,P-004\n2,P-001,P-003\n"
        )
        db.session.commit()
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning").status_code == 302
    return {**floor, "judge": judge, "head": signed_in(app, floor["people"]["head_judge"][1])}


@pytest.fixture
def tf_ruled(app, floor):
    """The same table at a Transformers event: the floor judge rules slow play (5.5) for Aiko Mori and, the rules
    naming no penalty but disqualification, writes the penalty given in the description."""
    from judgeapp.events.pairing_services import import_pairings

    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        event.policy_id, event.level = "transformers-tcg", 1
        import_pairings(
            db.session, actor=event.organizer, event=event, round_number=1, text="1,P-002,P-004\n2,P-001,P-003\n"
        )
        db.session.commit()
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(judge, floor["event_id"], player="P-001", infraction="5.5", description="Warning, per the IPG")
    assert response.status_code == 302
    return {**floor, "judge": judge, "head": signed_in(app, floor["people"]["head_judge"][1])}


def appeal_url(event_id, number=1):
    return f"/events/{event_id}/incidents/{number}/appeal"


def file_appeal(
    client, event_id, number=1, *, appellant=None, contest="The effect was resolved.", key=None, contests="both"
):
    """Fill the appeal form like a judge; the penalized player (the first choice) appeals unless told otherwise."""
    page = client.get(appeal_url(event_id, number)).get_data(as_text=True)
    found_key, first = KEY_RE.search(page), re.search(r'name="appellant" value="([^"]+)"', page)
    data = {
        "csrf_token": csrf_token(client, "/account/password"),
        "contest": contest,
        "key": key or (found_key.group(1) if found_key else "appeal-key-form-not-shown-01"),
        "appellant": appellant or (first.group(1) if first else "player:1"),
        "contests": contests,
    }
    return client.post(appeal_url(event_id, number), data=data)


def decide(client, event_id, number=1, **fields):
    url = f"/events/{event_id}/appeals/{number}"
    data = {"csrf_token": csrf_token(client, f"/events/{event_id}/appeals"), "count_challenge": "y"}
    data.update(fields)
    return client.post(url, data=data)


def appeals(app, event_id):
    with app.app_context():
        return db.session.scalars(select(Appeal).where(Appeal.event_id == event_id).order_by(Appeal.number)).all()


def set_challenge_limit(app, event_id, limit):
    with app.app_context():
        db.session.get(Event, event_id).challenge_limit = limit
        db.session.commit()


def player_value(app, floor, code):
    return f"player:{floor['players'][code]}"


# ---- filing ----------------------------------------------------------------------------------------------------------


def test_the_floor_judge_files_an_appeal_with_who_appeals_what_they_contest_and_the_ruling_as_it_stood(app, ruled):
    page = text(ruled["judge"].get(f"/events/{ruled['event_id']}/incidents/1"))
    assert "Player appeals" in page
    form = text(ruled["judge"].get(appeal_url(ruled["event_id"])))
    assert "Aiko Mori" in form and "(penalized" in form and "Chen Yu" in form and "(opponent" in form
    response = file_appeal(
        ruled["judge"],
        ruled["event_id"],
        appellant=player_value(app, ruled, "P-003"),
        contest="Opponent says the discard should have been random",
        contests="remedy",
    )
    assert response.status_code == 302
    [appeal] = appeals(app, ruled["event_id"])
    assert appeal.appellant_name == "Chen Yu" and not appeal.appellant_is_penalized
    assert (appeal.contest, appeal.contests) == ("Opponent says the discard should have been random", "remedy")
    assert appeal.ruling["infraction_code"] == "3.5.2" and appeal.ruling["rank_id"] == "warning"
    assert appeal.status is AppealStatus.OPEN


def test_a_ruling_cannot_be_appealed_before_the_head_judge_decides_a_recommended_penalty(app, ruled):
    assert (
        log(ruled["judge"], ruled["event_id"], player="P-003", infraction="4.1", penalty="disqualification").status_code
        == 302
    )
    page = text(ruled["judge"].get(appeal_url(ruled["event_id"], 2)))
    assert "The ruling is not complete" in page
    assert (
        file_appeal(ruled["judge"], ruled["event_id"], 2, appellant=player_value(app, ruled, "P-003")).status_code
        == 409
    )
    assert appeals(app, ruled["event_id"]) == []


def test_the_queue_lists_open_appeals_oldest_first_with_table_round_infraction_ruling_and_waiting_time(app, ruled):
    assert (
        log(
            ruled["judge"], ruled["event_id"], player="P-002", table=1, infraction="3.5.2", penalty="warning"
        ).status_code
        == 302
    )
    file_appeal(ruled["judge"], ruled["event_id"], 2)
    file_appeal(ruled["judge"], ruled["event_id"], 1)
    page = text(ruled["head"].get(f"/events/{ruled['event_id']}/appeals"))
    first, second = page.index("Appeal #1 · round 1 · table 1"), page.index("Appeal #2 · round 1 · table 2")
    assert first < second
    # at a glance: who was penalized, for which infraction by name, the ruling, and who appeals it
    assert (
        "<strong>Ben Ode</strong>: 3.5.2 Failure to Discard Cards · ruled <strong>Warning</strong> by Floor Judge"
        in page
    )
    assert "Appealed by Ben Ode" in page and "waiting 0 min" in page


def test_a_new_appeal_reaches_the_head_judges_queue_and_badge_without_a_reload(app, ruled):
    partial = f"/events/{ruled['event_id']}/appeals?partial=1"
    assert "No appeal is waiting" in text(ruled["head"].get(partial))
    assert ruled["head"].get("/appeals/waiting?format=json").get_json() == {"count": 0}
    file_appeal(ruled["judge"], ruled["event_id"])
    assert "Appeal #1" in text(ruled["head"].get(partial))  # what the queue page fetches every 4 s
    assert ruled["head"].get("/appeals/waiting?format=json").get_json() == {"count": 1}  # what the badge fetches
    for page in ("/", f"/events/{ruled['event_id']}/players", "/rules"):
        assert 'aria-label="1 appeal waiting for you">1</span>' in text(ruled["head"].get(page)), page
    assert "appeals waiting for you" not in text(ruled["judge"].get("/"))  # a floor judge has no queue


# ---- decisions ------------------------------------------------------------------------------------------------------


def test_an_upheld_appeal_spends_one_challenge_and_an_overturned_one_does_not(app, ruled):
    set_challenge_limit(app, ruled["event_id"], 2)
    file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001"))
    assert decide(ruled["head"], ruled["event_id"], outcome="upheld").status_code == 302
    assert (
        log(ruled["judge"], ruled["event_id"], player="P-001", infraction="3.1.1", penalty="loss_of_game").status_code
        == 302
    )
    file_appeal(ruled["judge"], ruled["event_id"], 2, appellant=player_value(app, ruled, "P-001"))
    assert decide(ruled["head"], ruled["event_id"], 2, outcome="overturned", reason="Not a 3.1.1").status_code == 302
    first, second = appeals(app, ruled["event_id"])
    assert first.status is AppealStatus.UPHELD and first.uses_challenge
    assert second.status is AppealStatus.OVERTURNED and not second.uses_challenge
    assert "1 of 2 challenges left" in text(ruled["judge"].get(f"/events/{ruled['event_id']}/appeals/2"))


def test_the_head_judge_may_decide_an_upheld_appeal_does_not_count(app, ruled):
    set_challenge_limit(app, ruled["event_id"], 1)
    file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001"))
    data = {"csrf_token": csrf_token(ruled["head"], f"/events/{ruled['event_id']}/appeals"), "outcome": "upheld"}
    assert ruled["head"].post(f"/events/{ruled['event_id']}/appeals/1", data=data).status_code == 302  # box unticked
    assert not appeals(app, ruled["event_id"])[0].uses_challenge


def test_a_player_with_no_challenge_left_cannot_appeal_and_the_screen_says_so(app, ruled):
    set_challenge_limit(app, ruled["event_id"], 1)
    file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001"))
    decide(ruled["head"], ruled["event_id"], outcome="upheld")
    assert (
        log(ruled["judge"], ruled["event_id"], player="P-001", infraction="3.1.1", penalty="loss_of_game").status_code
        == 302
    )
    form = text(ruled["judge"].get(appeal_url(ruled["event_id"], 2)))
    assert 'disabled> <span>Aiko Mori <span class="muted">(penalized; 0 of 1 challenge left)</span>' in form
    response = file_appeal(ruled["judge"], ruled["event_id"], 2, appellant=player_value(app, ruled, "P-001"))
    assert response.status_code == 400
    assert "Aiko Mori has no challenge left (0 of 1 challenge left); the ruling stands." in text(response)
    assert len(appeals(app, ruled["event_id"])) == 1


def test_a_changed_penalty_replaces_the_old_one_and_the_old_ruling_stays_in_the_history(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    response = decide(
        ruled["head"],
        ruled["event_id"],
        outcome="changed",
        infraction="3.2.1",
        penalty="loss_of_game",
        reason="It was a procedure error that changed the game state",
    )
    assert response.status_code == 302, text(response)
    with app.app_context():
        incident = db.session.scalar(select(Incident).where(Incident.number == 1))
        assert (incident.infraction_code, incident.rank_id, incident.status) == (
            "3.2.1",
            "loss_of_game",
            IncidentStatus.STANDING,
        )
    [appeal] = appeals(app, ruled["event_id"])
    assert appeal.ruling["rank_id"] == "warning" and appeal.new_ruling == {
        "infraction_code": "3.2.1",
        "rank_id": "loss_of_game",
    }
    page = text(ruled["judge"].get(f"/events/{ruled['event_id']}/incidents/1"))
    assert "infraction code: <del>3.5.2</del> → <ins>3.2.1</ins>" in page
    assert "rank id: <del>warning</del> → <ins>loss_of_game</ins>" in page
    # the history counts the new ruling: a second 3.2 is a repeat, a second 3.5 is not
    assert suggestion(ruled["judge"], ruled["event_id"], player="P-001", infraction="3.2.1").get_json()["upgraded"]
    assert not suggestion(ruled["judge"], ruled["event_id"], player="P-001", infraction="3.5.1.1").get_json()[
        "upgraded"
    ]


def test_overturning_or_changing_needs_a_reason_and_keeps_what_was_typed(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    response = decide(ruled["head"], ruled["event_id"], outcome="changed", penalty="loss_of_game", reason="")
    assert response.status_code == 400 and "Give the reason for the decision" in text(response)
    assert '<option selected value="loss_of_game">' in response.get_data(as_text=True)
    assert appeals(app, ruled["event_id"])[0].status is AppealStatus.OPEN


def test_an_appeal_is_decided_once(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    decide(ruled["head"], ruled["event_id"], outcome="upheld")
    again = decide(ruled["head"], ruled["event_id"], outcome="overturned", reason="second thoughts")
    assert again.status_code == 409 and "This appeal is already decided: upheld." in text(again)
    assert appeals(app, ruled["event_id"])[0].status is AppealStatus.UPHELD


def test_the_head_judges_decision_is_final(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    decide(ruled["head"], ruled["event_id"], outcome="upheld")
    assert "their decision is final" in text(ruled["judge"].get(appeal_url(ruled["event_id"])))
    assert file_appeal(ruled["judge"], ruled["event_id"]).status_code == 409


def test_only_the_head_judge_decides(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    for who in ("floor_judge", "other_floor", "scorekeeper"):
        client = signed_in(app, ruled["people"][who][1])
        response = client.post(
            f"/events/{ruled['event_id']}/appeals/1",
            data={"csrf_token": csrf_token(client, "/account/password"), "outcome": "overturned", "reason": "no"},
        )
        assert response.status_code == 403, who
    organizer = signed_in(app, ruled["organizer"][1])
    assert (
        organizer.post(
            f"/events/{ruled['event_id']}/appeals/1",
            data={"csrf_token": csrf_token(organizer, "/account/password"), "outcome": "upheld"},
        ).status_code
        == 403
    )
    assert appeals(app, ruled["event_id"])[0].status is AppealStatus.OPEN


# ---- proxies ------------------------------------------------------------------------------------------------------


def delegate(client, event_id, proxy_id, number=1):
    return client.post(
        f"/events/{event_id}/appeals/{number}/proxy",
        data={"csrf_token": csrf_token(client, f"/events/{event_id}/appeals/{number}"), "proxy": str(proxy_id or "")},
    )


def test_the_head_judge_delegates_one_appeal_to_a_proxy_who_alone_may_decide_it_where_the_policy_provides_one(
    app, tf_ruled
):
    file_appeal(tf_ruled["judge"], tf_ruled["event_id"])
    other_id, other_email = tf_ruled["people"]["other_floor"]
    assert delegate(tf_ruled["head"], tf_ruled["event_id"], other_id).status_code == 302
    assert appeals(app, tf_ruled["event_id"])[0].proxy_id == other_id
    proxy = signed_in(app, other_email)
    assert "Your decision" in text(proxy.get(f"/events/{tf_ruled['event_id']}/appeals/1"))
    assert proxy.get("/appeals/waiting?format=json").get_json() == {"count": 1}
    assert decide(proxy, tf_ruled["event_id"], outcome="overturned", reason="Misread the card").status_code == 302
    [appeal] = appeals(app, tf_ruled["event_id"])
    assert appeal.decided_as_proxy and appeal.status is AppealStatus.OVERTURNED


def test_the_judge_whose_ruling_is_appealed_cannot_be_the_proxy_where_the_policy_provides_one(app, tf_ruled):
    file_appeal(tf_ruled["judge"], tf_ruled["event_id"])
    response = delegate(tf_ruled["head"], tf_ruled["event_id"], tf_ruled["people"]["floor_judge"][0])
    assert response.status_code == 302 and appeals(app, tf_ruled["event_id"])[0].proxy_id is None
    assert "Choose a floor judge of this event who did not make the ruling" in text(
        tf_ruled["head"].get(response.headers["Location"])
    )


def test_a_proxy_cannot_decide_appeals_not_delegated_to_them(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    proxy = signed_in(app, ruled["people"]["other_floor"][1])
    assert decide(proxy, ruled["event_id"], outcome="upheld").status_code == 403


def test_after_a_proxy_rules_the_player_may_still_appeal_to_the_head_judge_where_the_policy_provides_one(app, tf_ruled):
    file_appeal(tf_ruled["judge"], tf_ruled["event_id"])
    delegate(tf_ruled["head"], tf_ruled["event_id"], tf_ruled["people"]["other_floor"][0])
    decide(signed_in(app, tf_ruled["people"]["other_floor"][1]), tf_ruled["event_id"], outcome="upheld")
    assert "may still appeal to the head judge" in text(
        tf_ruled["judge"].get(f"/events/{tf_ruled['event_id']}/appeals/1")
    )
    assert file_appeal(tf_ruled["judge"], tf_ruled["event_id"]).status_code == 302
    second = delegate(tf_ruled["head"], tf_ruled["event_id"], tf_ruled["people"]["other_floor"][0], number=2)
    assert second.status_code == 409 and "A proxy has already ruled on this incident" in text(second)
    assert (
        decide(tf_ruled["head"], tf_ruled["event_id"], 2, outcome="overturned", reason="Final: no penalty").status_code
        == 302
    )
    assert [a.status for a in appeals(app, tf_ruled["event_id"])] == [AppealStatus.UPHELD, AppealStatus.OVERTURNED]


# ---- the ruling judge hears back -------------------------------------------------------------------------------------


def test_the_floor_judge_sees_the_decision_on_their_next_page_until_they_acknowledge_it(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    decide(ruled["head"], ruled["event_id"], outcome="overturned", reason="Resolved correctly after all")
    page = text(ruled["judge"].get("/"))
    assert (
        "Appeal of your ruling, incident #1: overturned</strong> by Head Judge: “Resolved correctly after all”" in page
    )
    assert "Appeal of your ruling" not in text(ruled["head"].get("/"))
    response = ruled["judge"].post(
        f"/events/{ruled['event_id']}/appeals/1/seen", data={"csrf_token": csrf_token(ruled["judge"], "/"), "next": "/"}
    )
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert "Appeal of your ruling" not in text(ruled["judge"].get("/"))
    with app.app_context():
        actions = db.session.scalars(
            select(AuditEntry.action).where(AuditEntry.object_type == "Appeal").order_by(AuditEntry.id)
        ).all()
    assert actions == ["appeal.file", "appeal.decide", "appeal.seen"]


def test_when_both_players_appeal_each_spends_a_challenge_if_the_ruling_is_upheld(app, ruled):
    set_challenge_limit(app, ruled["event_id"], 2)
    assert (
        file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001")).status_code == 302
    )
    form = text(ruled["judge"].get(appeal_url(ruled["event_id"])))
    assert "2 of 2 challenges left, 1 appeal waiting for a decision; appeal waiting" in form
    again = file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001"))
    assert again.status_code == 400 and "Aiko Mori&#39;s appeal of this ruling is already waiting" in text(again)
    assert (
        file_appeal(
            ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-003"), contests="remedy"
        ).status_code
        == 302
    )  # the opponent contests the remedy only (Bushiroad Floor Rules 1.2.1)
    decide(ruled["head"], ruled["event_id"], 1, outcome="upheld")
    decide(ruled["head"], ruled["event_id"], 2, outcome="upheld")
    assert [(a.appellant_name, a.uses_challenge) for a in appeals(app, ruled["event_id"])] == [
        ("Aiko Mori", True),
        ("Chen Yu", True),
    ]


def test_while_an_appeal_waits_the_floor_judge_cannot_correct_or_void_the_ruling(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    url = f"/events/{ruled['event_id']}/incidents/1"
    response = ruled["judge"].post(
        f"{url}/void", data={"csrf_token": csrf_token(ruled["judge"], url), "reason": "changed my mind"}
    )
    assert response.status_code == 409
    assert "This incident is under appeal: only the head judge may change it now" in text(response)
    assert ruled["judge"].get(f"{url}/edit").status_code == 409
    with app.app_context():
        assert db.session.scalar(select(Incident).where(Incident.number == 1)).status is IncidentStatus.STANDING


# ---- the policy's appeal rules ---------------------------------------------------------------------------------------


def test_under_bushiroad_an_opponent_may_contest_only_the_remedy_floor_rules_1_2_1(app, ruled):
    form = text(ruled["judge"].get(appeal_url(ruled["event_id"])))
    assert "An opponent may contest only the remedy" in form and "1.2.1" in form
    response = file_appeal(
        ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-003"), contests="penalty"
    )
    assert response.status_code == 400
    assert "Chen Yu is the opponent" in text(response) and "never the penalty" in text(response)
    assert appeals(app, ruled["event_id"]) == []


def test_the_penalized_player_may_contest_the_penalty_under_bushiroad(app, ruled):
    assert file_appeal(ruled["judge"], ruled["event_id"], contests="penalty").status_code == 302
    assert appeals(app, ruled["event_id"])[0].contests == "penalty"


def test_a_remedy_only_appeal_offers_no_overturn_and_keeps_the_penalty_when_the_remedy_changes(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-003"), contests="remedy")
    page = text(ruled["head"].get(f"/events/{ruled['event_id']}/appeals/1"))
    assert "Upheld: the remedy stands" in page and "Overturned" not in page and "New infraction or penalty" not in page
    refused = decide(ruled["head"], ruled["event_id"], outcome="overturned", reason="No")
    assert refused.status_code == 400 and appeals(app, ruled["event_id"])[0].status is AppealStatus.OPEN
    changed = decide(ruled["head"], ruled["event_id"], outcome="changed", reason="Discard at random instead")
    assert changed.status_code == 302
    [appeal] = appeals(app, ruled["event_id"])
    assert appeal.status is AppealStatus.CHANGED and appeal.new_ruling == {"remedy": "Discard at random instead"}
    with app.app_context():
        incident = db.session.scalars(select(Incident)).one()
        assert (incident.rank_id, incident.infraction_code) == ("warning", "3.5.2")


def test_bushiroad_names_no_proxy_so_the_head_judge_cannot_delegate(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    assert "Delegate to a proxy" not in text(ruled["head"].get(f"/events/{ruled['event_id']}/appeals/1"))
    response = delegate(ruled["head"], ruled["event_id"], ruled["people"]["other_floor"][0])
    assert response.status_code == 302 and appeals(app, ruled["event_id"])[0].proxy_id is None
    assert "provides no proxy" in text(ruled["head"].get(response.headers["Location"]))


def test_at_a_transformers_event_the_opponent_may_contest_the_penalty_and_no_challenge_limit_applies(app, tf_ruled):
    set_challenge_limit(app, tf_ruled["event_id"], 1)  # the setting is ignored: 2.9 limits no appeals
    form = text(tf_ruled["judge"].get(appeal_url(tf_ruled["event_id"])))
    assert "An opponent may contest only the remedy" not in form and "limits no player's challenges" in form
    opponent = player_value(app, tf_ruled, "P-003")
    assert (
        file_appeal(tf_ruled["judge"], tf_ruled["event_id"], appellant=opponent, contests="penalty").status_code == 302
    )
    decide(tf_ruled["head"], tf_ruled["event_id"], outcome="upheld")
    [appeal] = appeals(app, tf_ruled["event_id"])
    assert appeal.status is AppealStatus.UPHELD and not appeal.uses_challenge


# ---- appeal rights follow the ruling, not a clerical fix (issue 33, guard 14) ----------------------------------------


def correct_as_head_judge(ruled, **fields):
    url = f"/events/{ruled['event_id']}/incidents/1/edit"
    data = {"round": "1", "table": "2", "infraction": "3.5.2", "penalty": "warning", "description": ""}
    data.update(fields)
    return ruled["head"].post(url, data={"csrf_token": csrf_token(ruled["head"], url), **data})


def test_a_head_judge_who_only_corrects_the_table_number_leaves_the_floor_judges_ruling_appealable(app, ruled):
    assert correct_as_head_judge(ruled, table="1", note="Wrong table").status_code == 302
    assert incident_row(app, 1).table_number == 1
    assert "Player appeals" in text(ruled["judge"].get(f"/events/{ruled['event_id']}/incidents/1"))
    form = text(ruled["judge"].get(appeal_url(ruled["event_id"])))
    assert "final" not in form and "Send the appeal to the head judge" in form
    assert file_appeal(ruled["judge"], ruled["event_id"]).status_code == 302
    [appeal] = appeals(app, ruled["event_id"])
    assert appeal.status is AppealStatus.OPEN and appeal.ruling["rank_id"] == "warning"


def test_a_head_judge_who_changes_the_penalty_makes_the_ruling_their_own_final_decision(app, ruled):
    response = correct_as_head_judge(ruled, penalty="loss_of_game", deviation_reason="Repeated after a caution")
    assert response.status_code == 302, text(response)
    assert incident_row(app, 1).rank_id == "loss_of_game"
    form = text(ruled["judge"].get(appeal_url(ruled["event_id"])))
    assert "The head judge has decided on this ruling: their decision is final." in form
    assert "Send the appeal to the head judge" not in form
    incident_page = text(ruled["judge"].get(f"/events/{ruled['event_id']}/incidents/1"))
    assert "Player appeals" not in incident_page
    assert "The head judge has decided on this ruling: their decision is final." in incident_page
    assert file_appeal(ruled["judge"], ruled["event_id"]).status_code == 409
    assert appeals(app, ruled["event_id"]) == []


def test_a_recommended_penalty_the_head_judge_accepted_is_their_final_decision_as_the_page_said_before(app, ruled):
    assert (
        log(ruled["judge"], ruled["event_id"], player="P-003", infraction="4.1", penalty="disqualification").status_code
        == 302
    )
    before = text(ruled["judge"].get(appeal_url(ruled["event_id"], 2)))
    assert "The ruling is not complete" in before
    assert "Appeal once the head judge has accepted or declined it" not in before
    assert "decision on it will be final: there is no appeal of it" in before
    url = f"/events/{ruled['event_id']}/incidents/2/accept"
    assert (
        ruled["head"].post(url, data={"csrf_token": csrf_token(ruled["head"], "/account/password")}).status_code == 302
    )
    after = text(ruled["judge"].get(appeal_url(ruled["event_id"], 2)))
    assert "The head judge has decided on this ruling: their decision is final." in after
    assert "Send the appeal to the head judge" not in after
    incident_page = text(ruled["judge"].get(f"/events/{ruled['event_id']}/incidents/2"))
    assert "Player appeals" not in incident_page
    assert "The head judge has decided on this ruling: their decision is final." in incident_page
    assert (
        file_appeal(ruled["judge"], ruled["event_id"], 2, appellant=player_value(app, ruled, "P-003")).status_code
        == 409
    )


def incident_row(app, number):
    with app.app_context():
        return db.session.scalar(select(Incident).where(Incident.number == number))


# ---- the challenge box follows the decision (issue 33, guard 12) -----------------------------------------------------


def test_the_challenge_box_is_ticked_for_upheld_and_unticked_and_locked_for_a_changed_ruling(app, ruled):
    set_challenge_limit(app, ruled["event_id"], 2)
    file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001"))
    page = ruled["head"].get(f"/events/{ruled['event_id']}/appeals/1").get_data(as_text=True)
    box = re.search(r"<input[^>]*id=\"count_challenge\"[^>]*>", page).group(0)
    assert "checked" in box and "disabled" not in box
    assert "An upheld appeal uses one of the player's challenges unless you untick this." in page
    refused = decide(ruled["head"], ruled["event_id"], outcome="changed", penalty="loss_of_game", reason="")
    assert refused.status_code == 400
    page = refused.get_data(as_text=True)
    box = re.search(r"<input[^>]*id=\"count_challenge\"[^>]*>", page).group(0)
    assert "checked" not in box and "disabled" in box
    assert "An overturned or changed ruling uses no challenge." in page
