"""Floor judges log incidents: the engine's suggestion, upgrades, one-time keys, corrections and history."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, Incident, IncidentStatus, Player, TimeExtension, utcnow
from tests.conftest import KEY_RE, csrf_token, login


def new_url(event_id):
    return f"/events/{event_id}/incidents/new"


def log(client, event_id, *, key=None, **fields):
    """Fill the incident form like a judge: fetch it (for its token and one-time key), then send it."""
    page = client.get(new_url(event_id)).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    data = {
        "csrf_token": token,
        "key": key or KEY_RE.search(page).group(1),
        "round": "1",
        "subject_kind": "player",
        "table": "2",
        "penalty": "",
        "description": "",
    }
    data.update({k: str(v) for k, v in fields.items()})
    return client.post(new_url(event_id), data=data)


def signed_in(app, email):
    client = app.test_client()
    assert login(client, email).status_code == 302
    return client


def incidents(app, event_id):
    from sqlalchemy.orm import selectinload

    with app.app_context():
        return db.session.scalars(
            select(Incident)
            .where(Incident.event_id == event_id)
            .order_by(Incident.number)
            .options(selectinload(Incident.subjects))
        ).all()


def text(response) -> str:
    """The page's HTML with white space collapsed, as a browser shows it."""
    return " ".join(response.get_data(as_text=True).split())


def form_fields(html: str) -> dict:
    """Name → value of every <input> in `html`."""
    fields = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name, value = re.search(r'name="([^"]+)"', tag), re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = value.group(1) if value else ""
    return fields


def suggestion(client, event_id, **params):
    return client.get(f"/events/{event_id}/incidents/suggest", query_string=params)


# ---- logging and the confirmation ---------------------------------------------------------------------------------


def test_the_form_has_the_fields_a_judge_expects_with_visible_labels(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    page = judge.get(new_url(floor["event_id"])).get_data(as_text=True)
    for label in ("Round", "Table", "Player", "Infraction", "Penalty", "Description", "Time extension (minutes)"):
        assert re.search(rf"<label for=\"\w+\">{re.escape(label)}( <span|</label>)", page), label
    assert 'value="Save incident"' in page
    assert '<option selected value="1">Round 1</option>' in page  # the current round is preset


def test_a_floor_judge_logs_a_warning_and_is_told_what_to_say_at_the_table(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(
        judge,
        floor["event_id"],
        player="Aiko Mori · P-001",
        infraction="3.5.2",
        penalty="warning",
        description="Forgot to discard after the effect.",
    )
    assert response.status_code == 302 and response.headers["Location"].endswith("/incidents/1?saved=1")
    page = text(judge.get(response.headers["Location"]))
    assert "Saved: incident #1" in page
    assert "Aiko Mori receives a Warning for Failure to Discard Cards (3.5.2)" in page
    [incident] = incidents(app, floor["event_id"])
    assert (incident.rank_id, incident.suggested_rank_id, incident.upgraded, incident.table_number) == (
        "warning",
        "warning",
        False,
        2,
    )
    assert incident.status is IncidentStatus.STANDING


@pytest.mark.db
def test_the_same_one_time_key_sent_twice_stores_one_incident_and_one_audit_entry(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    first = log(
        judge, floor["event_id"], key="retried-on-bad-wifi-0001", player="P-001", infraction="3.5.2", penalty="warning"
    )
    second = log(
        judge, floor["event_id"], key="retried-on-bad-wifi-0001", player="P-001", infraction="3.5.2", penalty="warning"
    )
    assert first.headers["Location"] == second.headers["Location"]
    assert len(incidents(app, floor["event_id"])) == 1
    with app.app_context():
        assert (
            db.session.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "incident.log"))
            == 1
        )


def test_each_new_form_carries_a_fresh_one_time_key(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    keys = {KEY_RE.search(judge.get(new_url(floor["event_id"])).get_data(as_text=True)).group(1) for _ in range(3)}
    assert len(keys) == 3


# ---- the engine on the form ---------------------------------------------------------------------------------------


def test_the_form_suggests_the_upgrade_after_an_earlier_penalty_in_the_same_subsection(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    answer = suggestion(judge, floor["event_id"], player_id=floor["players"]["P-001"], infraction="3.5.3.2").get_json()
    assert answer["default_label"] == "Warning"
    assert (answer["suggested"], answer["upgraded"]) == ("loss_of_game", True)
    assert (
        answer["explanation"]
        == "Upgraded: 2nd penalty in 3.5 at this event (Penalty Guide §2): Loss of Game — after incident #1, round 1"
    )
    assert answer["because"][0]["url"] == f"/events/{floor['event_id']}/incidents/1"


def test_no_upgrade_after_a_penalty_in_another_subsection_or_for_another_player(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.2.1", penalty="caution")
    log(judge, floor["event_id"], player="P-003", infraction="3.5.2", penalty="warning")
    answer = suggestion(judge, floor["event_id"], player="Aiko", infraction="3.5.2").get_json()
    assert (answer["suggested"], answer["upgraded"]) == ("warning", False)
    assert answer["explanation"] == "Default at Level 2: Warning."


def test_the_stored_incident_keeps_the_upgrade_and_the_incidents_behind_it(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    response = log(judge, floor["event_id"], player="P-001", infraction="3.5.3.2", penalty="loss_of_game")
    second = incidents(app, floor["event_id"])[1]
    assert (second.upgraded, second.upgrade_refs, second.suggested_rank_id) == (True, [1], "loss_of_game")
    page = text(judge.get(response.headers["Location"]))
    assert "upgraded because it repeats an earlier infraction in 3.5" in page


def test_a_penalty_below_the_upgrade_needs_a_reason_and_the_form_keeps_the_input(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    response = log(
        judge,
        floor["event_id"],
        key="below-the-upgrade-key-1",
        player="P-001",
        infraction="3.5.3.2",
        penalty="warning",
        description="Saw the top card while shuffling.",
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert 'id="deviation_reason-error"' in page and "Warning is below the suggested Loss of Game" in page
    assert "Saw the top card while shuffling." in page and 'value="P-001"' in page
    assert len(incidents(app, floor["event_id"])) == 1
    log(
        judge,
        floor["event_id"],
        key="below-the-upgrade-key-1",
        player="P-001",
        infraction="3.5.3.2",
        penalty="warning",
        deviation_reason="Opponent's shuffle caused it",
    )
    assert incidents(app, floor["event_id"])[1].deviation_reason == "Opponent's shuffle caused it"


def test_a_floor_judges_disqualification_is_saved_as_recommended_and_reaches_the_head_judge(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(
        judge,
        floor["event_id"],
        player="P-004",
        infraction="3.8.3",
        penalty="disqualification",
        description="Threatened the opponent.",
    )
    [incident] = incidents(app, floor["event_id"])
    assert incident.status is IncidentStatus.RECOMMENDED and incident.rank_id == "disqualification"
    head = signed_in(app, floor["people"]["head_judge"][1])
    event_page = head.get(f"/events/{floor['event_id']}").get_data(as_text=True)
    assert 'aria-label="1 waiting for you"' in event_page
    feed = head.get(f"/events/{floor['event_id']}/feed?partial=1").get_data(as_text=True)
    assert "#1 · Disqualification — recommended, your decision" in feed and "Dana Roy" in feed
    history = head.get(f"/events/{floor['event_id']}/players/{floor['players']['P-004']}").get_data(as_text=True)
    assert "pending head judge" in history


def test_loss_of_game_and_above_appear_in_the_head_judges_feed_and_warnings_do_not(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    log(judge, floor["event_id"], player="P-003", infraction="3.5.4", penalty="loss_of_game")
    head = signed_in(app, floor["people"]["head_judge"][1])
    feed = head.get(f"/events/{floor['event_id']}/feed").get_data(as_text=True)
    assert "#2 · Loss of Game" in feed and "Chen Yu" in feed
    assert "#1 ·" not in feed
    assert signed_in(app, floor["people"]["floor_judge"][1]).get(f"/events/{floor['event_id']}/feed").status_code == 403


# ---- who the incident is about ---------------------------------------------------------------------------------------


def test_a_team_penalty_counts_in_each_members_history(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(
        judge, floor["event_id"], subject_kind="team", team="Blue Lions", infraction="3.5.2", penalty="warning"
    )
    assert response.status_code == 302
    for code in ("P-001", "P-002"):
        answer = suggestion(judge, floor["event_id"], player_id=floor["players"][code], infraction="3.5.3.2").get_json()
        assert answer["upgraded"] is True, code
    assert suggestion(judge, floor["event_id"], player="P-003", infraction="3.5.3.2").get_json()["upgraded"] is False


def test_a_spectator_incident_needs_no_table_and_touches_no_player(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(
        judge,
        floor["event_id"],
        subject_kind="spectator",
        spectator="Man in the red cap",
        table="",
        infraction="4.5",
        penalty="disqualification",
    )
    assert response.status_code == 302
    [incident] = incidents(app, floor["event_id"])
    assert (incident.subject_name, incident.table_number, incident.subjects) == ("Man in the red cap", None, [])


def test_a_player_not_yet_registered_is_added_from_the_incident_form(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(
        judge,
        floor["event_id"],
        player="Late Comer",
        new_player="y",
        new_player_code="P-099",
        infraction="3.9.1",
        penalty="warning",
    )
    assert response.status_code == 302
    with app.app_context():
        player = db.session.scalar(select(Player).where(Player.player_code == "P-099"))
        assert player.name == "Late Comer" and player.event_id == floor["event_id"]


# ---- bad input -------------------------------------------------------------------------------------------------------


def test_an_infraction_the_judges_search_words_do_not_find_is_refused_with_the_words_kept(app, floor):
    """A choice left over from an earlier search ("phone" chose 3.17, then the judge typed "slow play") is not recorded
    as if the judge had picked it: the form comes back asking which infraction, nothing stored."""
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(
        judge, floor["event_id"], player="P-001", infraction="3.17", infraction_query="slow play", penalty="warning"
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    error = re.search(r'<p id="infraction-error" class="error" role="alert">(.*?)</p>', page, re.S)
    assert error, page
    assert "Your search “slow play” does not find 3.17 Use of Unnecessary Electronic Devices in a Match: choose" in (
        error.group(1)
    )
    assert 'name="infraction_query" value="slow play"' in page
    assert incidents(app, floor["event_id"]) == []


def test_an_infraction_the_judges_search_words_find_is_logged(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(
        judge, floor["event_id"], player="P-001", infraction="3.17", infraction_query="phone", penalty="warning"
    )
    assert response.status_code == 302
    assert [i.infraction_code for i in incidents(app, floor["event_id"])] == ["3.17"]


def test_the_policys_own_alternative_needs_no_typed_reason_and_records_its_condition_as_the_reason(app, floor):
    """Issue 33, guard 6: 3.5.1.2's default is a Loss of Game; the policy offers a Warning when the judge can still
    legalise the game state. Taking it needs no typed reason, and the condition is what the record keeps."""
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(judge, floor["event_id"], player="P-001", infraction="3.5.1.2", penalty="warning")
    assert response.status_code == 302
    [incident] = incidents(app, floor["event_id"])
    assert (incident.rank_id, incident.suggested_rank_id) == ("warning", "loss_of_game")
    assert incident.deviation_reason == (
        "the judge can still legalise the game state without advantage to the offender (the game continues)"
    )


def test_a_penalty_the_policy_does_not_offer_below_the_suggestion_still_needs_a_typed_reason(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(judge, floor["event_id"], player="P-001", infraction="3.5.1.2", penalty="caution")
    assert response.status_code == 400
    assert "Caution is below the suggested Loss of Game: give a short reason." in text(response)
    assert incidents(app, floor["event_id"]) == []


@pytest.mark.parametrize(
    "fields, field, message",
    [
        ({"table": "99"}, "table", "There is no table 99: this event has tables 1 to 2."),
        ({"round": "3"}, "round", "Round 3 has not started."),
        ({"infraction": "9.9.9"}, "infraction", "Not a valid choice."),
        ({"extension": "-2"}, "extension", "0 to 240 minutes."),
        ({"extension": "90"}, "extension", "90 minutes is longer than a whole round (50 min)."),
        ({"player": "Nobody Here"}, "player", "No player at this event matches “Nobody Here”."),
    ],
)
def test_bad_input_comes_back_with_the_input_kept_and_a_message_at_the_field(app, floor, fields, field, message):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    data = {"player": "P-001", "infraction": "3.5.2", "penalty": "warning", "description": "Kept text ✓"} | fields
    response = log(judge, floor["event_id"], **data)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    error = re.search(rf'<p id="{field}-error" class="error" role="alert">(.*?)</p>', page, re.S)
    assert error and message in error.group(1).replace("&#34;", '"')
    assert "Kept text ✓" in page
    assert incidents(app, floor["event_id"]) == []


def test_no_incident_before_the_first_round_starts(app, make_user, make_event, give_role):
    judge_id, email = make_user()
    event_id = make_event()
    give_role(event_id, judge_id, "floor_judge")
    judge = signed_in(app, email)
    page = judge.get(new_url(event_id)).get_data(as_text=True)
    assert "No round has started yet." in page


@pytest.mark.parametrize("who", ["outsider", "scorekeeper"])
def test_people_who_are_not_judges_of_the_event_get_403_and_nothing_is_written(app, floor, who):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    page = judge.get(new_url(floor["event_id"])).get_data(as_text=True)
    other = signed_in(app, floor["people"][who][1])
    token = csrf_token(other, "/account/password")
    response = other.post(
        new_url(floor["event_id"]),
        data={
            "csrf_token": token,
            "key": KEY_RE.search(page).group(1),
            "round": "1",
            "table": "1",
            "subject_kind": "player",
            "player": "P-001",
            "infraction": "3.5.2",
            "penalty": "warning",
        },
    )
    assert response.status_code == 403 and "Not allowed" in response.get_data(as_text=True)
    assert incidents(app, floor["event_id"]) == []


# ---- corrections, voiding, history -----------------------------------------------------------------------------------


def test_a_judge_corrects_their_incident_and_the_before_and_after_stay_visible(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning", description="First account")
    url = f"/events/{floor['event_id']}/incidents/1"
    response = judge.post(
        f"{url}/edit",
        data={
            "csrf_token": csrf_token(judge, f"{url}/edit"),
            "round": "1",
            "table": "1",
            "infraction": "3.5.2",
            "penalty": "warning",
            "description": "Corrected account",
            "note": "Wrong table number",
        },
    )
    assert response.status_code == 302
    page = judge.get(url).get_data(as_text=True)
    assert "Corrected account" in page
    assert "<del>2</del> → <ins>1</ins>" in page and "<del>First account</del> → <ins>Corrected account</ins>" in page
    assert "“Wrong table number”" in page and "correct</strong> by Floor Judge" in page
    with app.app_context():
        entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "incident.correct"))
        assert entry.details["changed"]["table_number"] == [2, 1]


def test_only_the_judge_who_logged_it_or_the_head_judge_may_correct_an_incident(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    url = f"/events/{floor['event_id']}/incidents/1/edit"
    other = signed_in(app, floor["people"]["other_floor"][1])
    assert other.get(url).status_code == 403
    assert (
        other.post(
            url,
            data={
                "csrf_token": csrf_token(other, "/account/password"),
                "round": "1",
                "table": "9",
                "infraction": "3.5.2",
                "penalty": "warning",
            },
        ).status_code
        == 403
    )
    head = signed_in(app, floor["people"]["head_judge"][1])
    response = head.post(
        url,
        data={
            "csrf_token": csrf_token(head, url),
            "round": "1",
            "table": "1",
            "infraction": "3.5.2",
            "penalty": "warning",
        },
    )
    assert response.status_code == 302 and incidents(app, floor["event_id"])[0].table_number == 1


def test_correcting_the_infraction_rechecks_the_penalty_against_the_earlier_history(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    log(judge, floor["event_id"], player="P-001", infraction="3.2.1", penalty="caution")
    url = f"/events/{floor['event_id']}/incidents/2/edit"
    response = judge.post(
        url,
        data={
            "csrf_token": csrf_token(judge, url),
            "round": "1",
            "table": "2",
            "infraction": "3.5.3.2",
            "penalty": "warning",
        },
    )
    assert response.status_code == 400 and "below the suggested Loss of Game" in response.get_data(as_text=True)
    judge.post(
        url,
        data={
            "csrf_token": csrf_token(judge, url),
            "round": "1",
            "table": "2",
            "infraction": "3.5.3.2",
            "penalty": "loss_of_game",
        },
    )
    second = incidents(app, floor["event_id"])[1]
    assert (second.infraction_code, second.upgraded, second.upgrade_refs) == ("3.5.3.2", True, [1])


def test_voiding_needs_a_reason_and_keeps_the_incident(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    url = f"/events/{floor['event_id']}/incidents/1"
    judge.post(f"{url}/void", data={"csrf_token": csrf_token(judge, url), "reason": ""})
    assert incidents(app, floor["event_id"])[0].status is IncidentStatus.STANDING
    judge.post(f"{url}/void", data={"csrf_token": csrf_token(judge, url), "reason": "Logged twice by mistake"})
    page = judge.get(url).get_data(as_text=True)
    assert "void" in page and "Logged twice by mistake" in page and "<del>standing</del> → <ins>void</ins>" in page


def test_player_history_groups_by_subsection_newest_first_and_marks_the_next_upgrade(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    log(judge, floor["event_id"], player="P-001", infraction="3.2.1", penalty="caution")
    log(judge, floor["event_id"], player="P-001", infraction="3.5.3.2", penalty="loss_of_game")
    url = f"/events/{floor['event_id']}/incidents/2"
    judge.post(f"{url}/void", data={"csrf_token": csrf_token(judge, url), "reason": "Not an infraction after all"})
    page = judge.get(f"/events/{floor['event_id']}/players/{floor['players']['P-001']}").get_data(as_text=True)
    sections = re.findall(r"<h2>(3\.\d+) ", page)
    assert sections == ["3.5", "3.2"]  # the group with the newest incident first
    three_five = page[page.index("<h2>3.5 ") : page.index("<h2>3.2 ")]
    assert three_five.index("#3</a>") < three_five.index("#1</a>")
    assert "Next infraction in 3.5 is upgraded (2 standing penalties here)." in page
    three_two = page[page.index("<h2>3.2 ") :]
    assert "Next infraction in 3.2" not in three_two and 'class="void"' in three_two


# ---- time on the incident, the call stopwatch ------------------------------------------------------------------------


def test_time_given_on_the_incident_is_its_own_record_and_moves_the_tables_end(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning", extension="4")
    page = judge.get(response.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        ext = db.session.scalar(select(TimeExtension))
        assert (ext.minutes, ext.table_number, ext.reason.value, ext.incident_id) == (4, 2, "ruling", 1)
        from judgeapp.models import Round

        rnd = db.session.scalar(select(Round))
        expected = rnd.started_at + timedelta(minutes=54)
    assert f"table 2 now ends at <strong>{expected:%H:%M}</strong>" in page


def test_the_call_stopwatch_opens_the_form_with_the_start_time_and_proposes_the_time_owed(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    opened = judge.get(f"/events/{floor['event_id']}/incidents/call")
    assert opened.status_code == 302 and "call_started=" in opened.headers["Location"]
    form = judge.get(opened.headers["Location"]).get_data(as_text=True)
    assert 'id="stopwatch"' in form and 'name="call_started_at" type="hidden" value="20' in form
    started = (utcnow() - timedelta(minutes=3, seconds=10)).replace(microsecond=0).isoformat()
    response = log(
        judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning", call_started_at=started
    )
    page = text(judge.get(response.headers["Location"]))
    assert re.search(r"The call took 3 min 1\d s", page) and "Add the 4 min owed" in page  # 3:10 plus the request
    owed_form = page[page.index('class="owed-form"') : page.index("Add the 4 min owed")]
    fields = form_fields(owed_form)
    assert fields["csrf_token"] and fields["table"] == "2" and fields["reason"] == "ruling"
    for _ in range(2):  # a double tap adds the time once
        added = judge.post(f"/events/{floor['event_id']}/extensions/new?next_incident=1", data=fields)
        assert added.headers["Location"].endswith("/incidents/1")
    with app.app_context():
        assert [(e.minutes, e.proposed_minutes) for e in db.session.scalars(select(TimeExtension))] == [(4, 4)]
