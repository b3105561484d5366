"""Time extensions, the round clock, deck checks and pairings, through the pages judges use."""

from __future__ import annotations

import io
import json
import random
import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, DeckCheck, Incident, Round, TimeExtension
from tests.conftest import csrf_token
from tests.integration.test_incidents import KEY_RE, log, signed_in, text


def form_key(client, url):
    page = client.get(url).get_data(as_text=True)
    return csrf_token(client, url), KEY_RE.search(page).group(1)


def add_time(client, event_id, **fields):
    url = f"/events/{event_id}/extensions/new"
    token, key = form_key(client, url)
    data = {"csrf_token": token, "key": key, "round": "1", "reason": "ruling"} | {k: str(v) for k, v in fields.items()}
    return client.post(url, data=data)


def round_one(app):
    with app.app_context():
        rnd = db.session.scalar(select(Round).where(Round.number == 1))
        return rnd.started_at, rnd.length_minutes


def extensions(app):
    with app.app_context():
        return [
            (e.table_number, e.minutes, e.proposed_minutes, e.adjust_reason, e.reason.value)
            for e in db.session.scalars(select(TimeExtension).order_by(TimeExtension.id))
        ]


# ---- time extensions -------------------------------------------------------------------------------------------------


def test_a_pause_timed_by_its_start_and_end_is_worked_out_by_the_policy(app, floor):
    app.config["JUDGEAPP_TIMEZONE"] = "UTC"
    started, _ = round_one(app)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    begin, end = started + timedelta(minutes=10), started + timedelta(minutes=14, seconds=0)
    add_time(judge, floor["event_id"], table=2, paused_from=f"{begin:%H:%M}", paused_to=f"{end:%H:%M}")
    assert extensions(app) == [(2, 4, 4, None, "ruling")]


def test_a_short_ruling_owes_nothing_so_giving_time_needs_a_reason(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = add_time(judge, floor["event_id"], table=1, taken_minutes="0.5", minutes=2)
    assert response.status_code == 400
    assert "The policy owes 0 min; say why you give 2." in text(response)
    assert 'value="2"' in response.get_data(as_text=True)  # the input is kept
    assert extensions(app) == []


def test_adjusting_the_proposed_minutes_keeps_the_reason_with_the_record(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    add_time(
        judge,
        floor["event_id"],
        table=1,
        taken_minutes="3",
        minutes=5,
        adjust_reason="Players lost track of the shuffle",
    )
    assert extensions(app) == [(1, 5, 3, "Players lost track of the shuffle", "ruling")]
    with app.app_context():
        entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "extension.add"))
        assert entry.details["minutes"] == 5 and entry.details["proposed"] == 3


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"table": 7, "minutes": 3}, "There is no table 7"),
        ({"table": 1, "minutes": -1}, "0 to 240 minutes."),
        ({"table": 1, "minutes": 75}, "75 minutes is longer than a whole round (50 min)."),
        ({"table": 1}, "Give the minutes to add"),
        ({"table": 1, "taken_minutes": "300"}, "between 0 and 240"),
    ],
)
def test_bad_time_extensions_come_back_with_a_message(app, floor, fields, message):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = add_time(judge, floor["event_id"], **fields)
    assert response.status_code == 400 and message in text(response)
    assert extensions(app) == []


# ---- the round clock -------------------------------------------------------------------------------------------------


@pytest.mark.db
def test_the_round_clock_lists_tables_with_time_latest_end_first(app, floor):
    app.config["JUDGEAPP_TIMEZONE"] = "UTC"
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    add_time(judge, floor["event_id"], table=1, reason="other", minutes=3)
    add_time(judge, floor["event_id"], table=2, reason="other", minutes=7)
    add_time(judge, floor["event_id"], table=1, reason="other", minutes=2)
    started, length = round_one(app)
    scorekeeper = signed_in(app, floor["people"]["scorekeeper"][1])
    page = text(scorekeeper.get(f"/events/{floor['event_id']}/clock"))
    assert f'Ends <span class="end">{started + timedelta(minutes=length):%H:%M}</span>' in page
    tables = re.findall(r'<li class="row" id="table-(\d+)">.*?<strong>(\d\d:\d\d)</strong>', page)
    assert tables == [
        ("2", f"{started + timedelta(minutes=57):%H:%M}"),
        ("1", f"{started + timedelta(minutes=55):%H:%M}"),
    ]
    assert "+5 min" in page and "+7 min" in page
    assert page.count('class="countdown" data-end="') == 3  # the round and each table count down live


def test_a_withdrawn_extension_no_longer_moves_the_tables_end(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    add_time(judge, floor["event_id"], table=1, reason="other", minutes=3)
    with app.app_context():
        ext_id = db.session.scalar(select(TimeExtension.id))
    clock = f"/events/{floor['event_id']}/clock"
    judge.post(
        f"/events/{floor['event_id']}/extensions/{ext_id}/void",
        data={"csrf_token": csrf_token(judge, clock), "reason": "Given to the wrong table"},
    )
    assert 'id="table-1"' not in judge.get(clock).get_data(as_text=True)
    with app.app_context():
        ext = db.session.get(TimeExtension, ext_id)
        assert ext.void_reason == "Given to the wrong table" and ext.voided_at is not None


# ---- deck checks -----------------------------------------------------------------------------------------------------


def import_pairings(app, client, event_id, csv_text):
    url = f"/events/{event_id}/pairings"
    return client.post(
        url,
        data={"csrf_token": csrf_token(client, url), "file": (io.BytesIO(csv_text.encode()), "pairings.csv")},
        content_type="multipart/form-data",
    )


def test_pairings_import_seats_good_rows_and_reports_bad_ones(app, floor):
    scorekeeper = signed_in(app, floor["people"]["scorekeeper"][1])
    response = import_pairings(
        app,
        scorekeeper,
        floor["event_id"],
        "table,player 1,player 2\n1,P-001,P-003\n2,P-002,P-404\nx,P-004\n2,P-001,P-004\n",
    )
    page = text(response)
    assert "Import: 2 players seated, 3 rows rejected" in page
    assert "unknown player ID P-404" in page and "already seated this round: P-001" in page
    assert "Table 1</strong><span>Aiko Mori – Chen Yu" in page


def test_the_incident_form_offers_the_players_seated_at_a_table(app, floor):
    scorekeeper = signed_in(app, floor["people"]["scorekeeper"][1])
    import_pairings(app, scorekeeper, floor["event_id"], "1,P-001,P-003\n")
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    page = judge.get(f"/events/{floor['event_id']}/incidents/new").get_data(as_text=True)
    found = re.search(r'<script type="application/json" id="seating" data-round="(\d+)">(.*?)</script>', page)
    assert found.group(1) == "1", "the seating is of round 1, the round the form presets"
    seating = json.loads(found.group(2))
    assert [p["label"] for p in seating["1"]] == ["Aiko Mori · P-001", "Chen Yu · P-003"]


def start_check(client, event_id, **fields):
    url = f"/events/{event_id}/deck-checks/new"
    token, key = form_key(client, url)
    return client.post(
        url, data={"csrf_token": token, "key": key, "round": "1"} | {k: str(v) for k, v in fields.items()}
    )


def test_a_deck_check_records_players_result_and_gives_back_the_time_it_took(app, floor):
    scorekeeper = signed_in(app, floor["people"]["scorekeeper"][1])
    import_pairings(app, scorekeeper, floor["event_id"], "1,P-001,P-003\n2,P-002,P-004\n")
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = start_check(judge, floor["event_id"], table=1)  # players come from the pairing
    check_url = response.headers["Location"]
    with app.app_context():
        dc = db.session.scalar(select(DeckCheck))
        assert sorted(p.name for p in dc.players) == ["Aiko Mori", "Chen Yu"]
        dc.started_at -= timedelta(minutes=6, seconds=20)  # the check took six and a bit minutes
        db.session.commit()
    ended = judge.post(
        check_url,
        data={"csrf_token": csrf_token(judge, check_url), "result": "matches", "notes": "Counted 50, sleeves fine."},
    )
    assert ended.status_code == 302
    page = text(judge.get(check_url))
    assert "Deck check ended. Table 1: 7 min added" in page and "deck matches the registration" in page
    assert extensions(app) == [(1, 7, 7, None, "deck_check")]
    clock = text(judge.get(f"/events/{floor['event_id']}/clock"))
    assert 'id="table-1"' in clock and "7 min deck check" in clock


def test_problems_found_link_to_the_incidents_logged_for_them(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    check_url = start_check(judge, floor["event_id"], table=2, player_1="P-002").headers["Location"]
    dc_id = int(check_url.rsplit("/", 1)[1])
    log(judge, floor["event_id"], player="P-002", infraction="3.1.3", penalty="loss_of_game", deck_check_id=dc_id)
    judge.post(
        check_url,
        data={
            "csrf_token": csrf_token(judge, check_url),
            "result": "problems",
            "minutes": "0",
            "adjust_reason": "Match ended by the loss of game",
        },
    )
    page = text(judge.get(check_url))
    assert "problems found" in page and "#1</a> Ben Ode · 3.1.3" in page
    with app.app_context():
        assert db.session.scalar(select(Incident.deck_check_id)) == dc_id


def test_ending_a_deck_check_twice_is_refused(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    check_url = start_check(judge, floor["event_id"], table=2, player_1="P-002").headers["Location"]
    judge.post(check_url, data={"csrf_token": csrf_token(judge, check_url), "result": "matches"})
    again = judge.post(check_url, data={"csrf_token": csrf_token(judge, check_url), "result": "problems"})
    assert again.status_code == 409 and "This deck check already ended" in text(again)


def test_a_deck_check_without_pairings_must_name_the_players(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = start_check(judge, floor["event_id"], table=1)
    assert response.status_code == 400 and "No pairings known for this table" in text(response)


def test_pick_tables_skips_tables_checked_this_round_and_players_checked_earlier(app, floor, make_user):
    from judgeapp.deckchecks import services as deckchecks
    from judgeapp.events.pairing_services import import_pairings as seat
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round
    from judgeapp.models import Event, User

    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        judge = db.session.get(User, floor["people"]["floor_judge"][0])
        for n in range(5, 13):
            add_player(db.session, actor=judge, event=event, name=f"Player {n}", player_code=f"P-{n:03d}")
        seat(db.session, actor=judge, event=event, round_number=1, text="1,P-001,P-002\n2,P-003,P-004\n3,P-005,P-006\n")
        deckchecks.start_deck_check(
            db.session,
            actor=judge,
            event=event,
            data=deckchecks.DeckCheckInput(key="round-one-check-table-1", table_number=1),
        )
        start_round(db.session, actor=judge, event=event)
        seat(
            db.session,
            actor=judge,
            event=event,
            round_number=2,
            text="1,P-005,P-006\n2,P-001,P-007\n3,P-003,P-008\n4,P-009,P-010\n5,P-011,P-012\n",
        )
        deckchecks.start_deck_check(
            db.session,
            actor=judge,
            event=event,
            data=deckchecks.DeckCheckInput(key="round-two-check-table-3", table_number=3),
        )
        db.session.commit()
        for seed in range(20):
            pick = deckchecks.pick_tables(db.session, event, count=5, rng=random.Random(seed))
            # table 3 was checked this round; table 2 seats P-001, checked in round 1
            assert pick.tables == [1, 4, 5] and pick.skipped_tables == [3] and pick.skipped_players == 1
    client = signed_in(app, floor["people"]["floor_judge"][1])
    page = text(client.get(f"/events/{floor['event_id']}/deck-checks?count=2"))
    picked = re.search(r"Check tables (.*?)</p>", page).group(1)
    assert len(re.findall(r">(\d+)</a>", picked)) == 2
    assert re.findall(r"<h2>Round (\d) <span class=\"muted\">\((\d+)\)</span>", page) == [("2", "1"), ("1", "1")]


# ---- extra turns (Bushiroad Floor Rules 1.2.2, 4.2) ------------------------------------------------------------------


def test_the_form_takes_extra_turns_and_reminds_the_judge_to_announce_them_before_the_result(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    page = text(judge.get(f"/events/{floor['event_id']}/extensions/new"))
    assert "Extra turns" in page and "before the result" in page and "1.2.2" in page
    response = add_time(judge, floor["event_id"], table=2, minutes=0, extra_turns=1, adjust_reason="A turn, no time")
    assert response.status_code == 302
    clock_page = text(judge.get(response.headers["Location"]))
    assert "Table 2: 1 extra turn added" in clock_page and "tell both players" in clock_page.lower()
    assert "+1 extra turn" in clock_page
    with app.app_context():
        assert [(e.minutes, e.extra_turns) for e in db.session.scalars(select(TimeExtension))] == [(0, 1)]


def test_extra_turns_are_not_offered_where_the_policy_gives_none(app, floor):
    with app.app_context():
        from judgeapp.models import Event

        db.session.get(Event, floor["event_id"]).policy_id = "transformers-tcg"
        db.session.get(Event, floor["event_id"]).level = 1
        db.session.commit()
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    page = text(judge.get(f"/events/{floor['event_id']}/extensions/new"))
    assert "Extra turns" not in page and "before the result" not in page
    given = add_time(judge, floor["event_id"], table=2, minutes=3, extra_turns=1, adjust_reason="x")
    assert given.status_code == 302  # the field is not on the form: only the minutes are given
    with app.app_context():
        assert [(e.minutes, e.extra_turns) for e in db.session.scalars(select(TimeExtension))] == [(3, None)]
