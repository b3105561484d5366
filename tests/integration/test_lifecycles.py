"""Record lifecycles through the pages judges use: a head judge's decision is final for floor judges (a note or a
question instead), a disqualification corrected down withdraws its investigation, deck checks and rounds can always
be ended, an event whose rounds are over can be closed, and an event's policy stays with its incidents."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from judgeapp.extensions import db
from judgeapp.models import (
    AuditEntry,
    DeckCheck,
    Event,
    Incident,
    IncidentStatus,
    Investigation,
    InvestigationStatus,
    Round,
    Statement,
    TimeExtension,
    utcnow,
)
from tests.conftest import csrf_token
from tests.integration.test_appeals import decide, file_appeal, ruled  # noqa: F401  (fixture)
from tests.integration.test_incidents import log, signed_in, text
from tests.integration.test_investigations import WRITE_UP, dq, make_link, post, statement  # noqa: F401  (fixture)
from tests.integration.test_time_and_deck_checks import start_check

pytestmark = pytest.mark.db

FINAL_WHY = "only the head judge may change it now"
FINAL_INSTEAD = "Add a note to it, or ask the head judge"


def incident_url(event_id, number=1):
    return f"/events/{event_id}/incidents/{number}"


def correct(client, event_id, number=1, **fields):
    """Send the correction form as the edit page would, with the incident's facts unless told otherwise."""
    data = {
        "csrf_token": csrf_token(client, "/account/password"),
        "round": "1",
        "table": "2",
        "infraction": "3.5.2",
        "penalty": "warning",
        "deviation_reason": "",
        "description": "",
        "note": "",
    }
    data.update({k: str(v) for k, v in fields.items()})
    return client.post(f"{incident_url(event_id, number)}/edit", data=data)


def void(client, event_id, number=1, reason="Logged on the wrong player"):
    return client.post(
        f"{incident_url(event_id, number)}/void",
        data={"csrf_token": csrf_token(client, "/account/password"), "reason": reason},
    )


def add_note(client, event_id, number=1, body="The player says the opponent agreed.", ask=False):
    data = {"csrf_token": csrf_token(client, "/account/password"), "text": body}
    if ask:
        data["ask_head_judge"] = "y"
    return client.post(f"{incident_url(event_id, number)}/note", data=data)


def end_round(client, event_id, number=1):
    return client.post(
        f"/events/{event_id}/rounds/{number}/end", data={"csrf_token": csrf_token(client, f"/events/{event_id}")}
    )


def close_event(client, event_id):
    return client.post(
        f"/events/{event_id}/close", data={"csrf_token": csrf_token(client, f"/events/{event_id}/close")}
    )


def incident_row(app, number=1):
    with app.app_context():
        incident = db.session.scalar(select(Incident).where(Incident.number == number))
        return {
            "status": incident.status,
            "rank_id": incident.rank_id,
            "table_number": incident.table_number,
            "description": incident.description,
            "updated_at": incident.updated_at,
        }


def entries(app, action):
    with app.app_context():
        return db.session.scalars(select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)).all()


def assert_refused_as_final(response):
    assert response.status_code == 409
    page = text(response)
    assert FINAL_WHY in page and FINAL_INSTEAD in page


# ---- a head judge's decision is final for floor judges ------------------------------------------------------------


@pytest.fixture
def decided(app, ruled):
    """The floor judge's warning (incident #1) was appealed and the head judge upheld it."""
    assert file_appeal(ruled["judge"], ruled["event_id"]).status_code == 302
    assert decide(ruled["head"], ruled["event_id"], outcome="upheld").status_code == 302
    return ruled


def test_a_floor_judge_cannot_correct_or_void_an_incident_once_the_head_judge_decided_its_appeal(app, decided):
    judge, event_id = decided["judge"], decided["event_id"]
    before = incident_row(app)
    assert_refused_as_final(judge.get(f"{incident_url(event_id)}/edit"))
    assert_refused_as_final(correct(judge, event_id, penalty="caution", deviation_reason="Too harsh after all"))
    assert_refused_as_final(void(judge, event_id))
    assert incident_row(app) == before
    assert before["status"] is IncidentStatus.STANDING and before["rank_id"] == "warning"
    assert entries(app, "incident.correct") == entries(app, "incident.void") == []


def test_a_floor_judge_cannot_correct_or_void_a_disqualification_the_head_judge_finalized(app, dq):
    event_id = dq["event_id"]
    accept = dq["head"].post(
        f"{incident_url(event_id)}/accept", data={"csrf_token": csrf_token(dq["head"], incident_url(event_id))}
    )
    assert accept.status_code == 302
    assert (
        post(
            dq["head"], f"/events/{event_id}/investigations/1/write-up", finalize="y", without_statement="y", **WRITE_UP
        ).status_code
        == 302
    )
    before = incident_row(app)
    assert_refused_as_final(dq["judge"].get(f"{incident_url(event_id)}/edit"))
    assert_refused_as_final(
        correct(dq["judge"], event_id, infraction="3.5.2", penalty="warning", deviation_reason="Not cheating after all")
    )
    assert_refused_as_final(void(dq["judge"], event_id))
    assert incident_row(app) == before
    assert (before["status"], before["rank_id"]) == (IncidentStatus.STANDING, "disqualification")
    with app.app_context():
        assert db.session.scalar(select(Investigation)).status is InvestigationStatus.FINALIZED


def test_the_head_judge_still_corrects_a_decided_incident_as_a_dated_audited_change(app, decided):
    head, event_id = decided["head"], decided["event_id"]
    assert head.get(f"{incident_url(event_id)}/edit").status_code == 200
    response = correct(
        head, event_id, table=1, description="Seen again on video: it was table 1.", note="Table was wrong"
    )
    assert response.status_code == 302, text(response)
    after = incident_row(app)
    assert (after["table_number"], after["description"]) == (1, "Seen again on video: it was table 1.")
    assert after["updated_at"] is not None
    [entry] = entries(app, "incident.correct")
    assert entry.details["changed"] == {
        "table_number": [2, 1],
        "description": [None, "Seen again on video: it was table 1."],
    } or entry.details["changed"] == {
        "table_number": [2, 1],
        "description": ["", "Seen again on video: it was table 1."],
    }
    assert entry.note == "Table was wrong" and entry.at is not None
    page = text(head.get(incident_url(event_id)))
    assert "table number: <del>2</del> → <ins>1</ins>" in page


def test_on_a_decided_incident_a_floor_judge_may_add_a_note_or_ask_the_head_judge(app, decided):
    judge, head, event_id = decided["judge"], decided["head"], decided["event_id"]
    feed = f"/events/{event_id}/feed"
    assert "#1 · Warning" not in text(head.get(feed))  # a warning is not reported to the head judge by itself

    asked = add_note(judge, event_id, body="Player now says he had priority. Should we look again?", ask=True)
    assert asked.status_code == 302
    assert "Question sent to the head judge" in text(judge.get(asked.headers["Location"]))
    assert "#1 · Warning" in text(head.get(feed))
    assert "Player now says he had priority. Should we look again?" in text(head.get(feed))  # the question itself
    assert "Player now says he had priority. Should we look again?" in text(head.get(incident_url(event_id)))

    noted = add_note(judge, event_id, body="Opponent confirmed the board state.")
    assert noted.status_code == 302
    history = text(judge.get(incident_url(event_id)))
    assert "<strong>note</strong> by Floor Judge" in history and "“Opponent confirmed the board state.”" in history
    assert [e.action for e in entries(app, "incident.question") + entries(app, "incident.note")] == [
        "incident.question",
        "incident.note",
    ]

    empty = add_note(judge, event_id, body="   ", ask=True)
    assert empty.status_code == 400
    page = empty.get_data(as_text=True)
    assert 'id="text-error"' in page and "Write the note." in page
    assert 'checked id="ask_head_judge"' in page  # the box stays ticked
    assert len(entries(app, "incident.question")) == 1


def test_the_incident_page_offers_a_floor_judge_no_correct_or_void_button_on_a_decided_incident(app, ruled):
    judge, event_id = ruled["judge"], ruled["event_id"]
    standing = text(judge.get(incident_url(event_id)))
    assert "Correct this incident" in standing and "Void this incident" in standing  # their own standing ruling
    file_appeal(judge, event_id)
    decide(ruled["head"], event_id, outcome="upheld")
    page = text(judge.get(incident_url(event_id)))
    assert "Correct this incident" not in page and "Void this incident" not in page
    assert f"{incident_url(event_id)}/edit" not in page and f"{incident_url(event_id)}/void" not in page
    assert "Add a note or ask the head judge" in page and f'action="{incident_url(event_id)}/note"' in page
    assert FINAL_WHY in page  # why the buttons are gone
    head_page = text(ruled["head"].get(incident_url(event_id)))
    assert "Correct this incident" in head_page and "Void this incident" in head_page


# ---- a disqualification that is no longer one ---------------------------------------------------------------------


@pytest.fixture
def head_dq(app, floor, request):
    """Chen Yu (P-003, table 2) stands disqualified by the head judge: logged so at once, or (param "under appeal")
    the floor judge's warning, appealed, which the head judge corrected up to a disqualification while the appeal
    waits. A statement was typed and a one-time link is out."""
    from judgeapp.events.pairing_services import import_pairings

    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        import_pairings(db.session, actor=event.organizer, event=event, round_number=1, text="2,P-003,P-001\n")
        db.session.commit()
    head, judge = (signed_in(app, floor["people"][who][1]) for who in ("head_judge", "floor_judge"))
    world = {**floor, "head": head, "judge": judge}
    if getattr(request, "param", "logged") == "logged":
        assert (
            log(
                head,
                floor["event_id"],
                player="P-003",
                table=2,
                infraction="4.1",
                penalty="disqualification",
                description="Looked at the opponent's hand.",
            ).status_code
            == 302
        )
    else:
        assert (
            log(judge, floor["event_id"], player="P-003", table=2, infraction="3.5.2", penalty="warning").status_code
            == 302
        )
        assert file_appeal(judge, floor["event_id"]).status_code == 302
        assert (
            correct(
                head,
                floor["event_id"],
                infraction="4.1",
                penalty="disqualification",
                description="Looked at the opponent's hand.",
            ).status_code
            == 302
        )
    with app.app_context():
        assert db.session.scalar(select(Investigation)).status is InvestigationStatus.OPEN
    assert statement(head, world, body="I saw him lean over.").status_code == 302
    world["token"] = make_link(head, world)
    return world


def _corrected_down(world):
    return correct(
        world["head"],
        world["event_id"],
        infraction="3.5.2",
        penalty="warning",
        deviation_reason="Video shows he did not see the hand",
        note="Not cheating",
    )


def _voided(world):
    return void(world["head"], world["event_id"], reason="Wrong player")


def _overturned(world):
    return decide(world["head"], world["event_id"], outcome="overturned", reason="The hand was shown to him")


@pytest.mark.parametrize(
    "undo, head_dq",
    [(_corrected_down, "logged"), (_voided, "logged"), (_overturned, "under appeal")],
    ids=["corrected down", "voided", "overturned on appeal"],
    indirect=["head_dq"],
)
def test_a_disqualification_corrected_down_withdraws_its_investigation_and_keeps_its_statements(app, head_dq, undo):
    event_id, head = head_dq["event_id"], head_dq["head"]
    assert undo(head_dq).status_code == 302
    with app.app_context():
        inv = db.session.scalar(select(Investigation))
        assert inv.status is InvestigationStatus.WITHDRAWN and inv.withdrawn_at is not None
        assert [s.text for s in db.session.scalars(select(Statement))] == ["I saw him lean over."]
    page = text(head.get(f"/events/{event_id}/investigations/1"))
    assert "withdrawn (no longer a disqualification)" in page
    assert '<span class="badge badge-withdrawn">withdrawn</span> Aiko Mori' in page and "I saw him lean over." in page
    visitor = app.test_client()
    assert visitor.get(f"/statement/{head_dq['token']}").status_code == 410
    assert len(entries(app, "investigation.withdraw")) == 1

    assert end_round(head, event_id).status_code == 302
    organizer = signed_in(app, head_dq["organizer"][1])
    assert "is not finalized" not in text(organizer.get(f"/events/{event_id}/close"))  # the inquiry blocks nothing
    response = close_event(organizer, event_id)
    assert response.status_code == 302, text(response)
    with app.app_context():
        assert db.session.get(Event, event_id).closed_at is not None


# ---- deck checks and rounds ---------------------------------------------------------------------------------------


def _seat(app, floor, csv_text="1,P-001,P-003\n2,P-002,P-004\n"):
    from judgeapp.events.pairing_services import import_pairings

    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        import_pairings(db.session, actor=event.organizer, event=event, round_number=1, text=csv_text)
        db.session.commit()


def _deck_check(app):
    with app.app_context():
        return db.session.scalar(select(DeckCheck))


@pytest.mark.parametrize("typed, given", [("", []), ("3", [3])], ids=["nothing typed", "minutes typed"])
def test_a_deck_check_left_open_for_hours_can_still_be_ended_with_its_real_length(app, floor, typed, given):
    _seat(app, floor)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    check_url = start_check(judge, floor["event_id"], table=2).headers["Location"]
    with app.app_context():
        db.session.execute(update(DeckCheck).values(started_at=utcnow() - timedelta(hours=5, minutes=3)))
        db.session.commit()
    ended = judge.post(
        check_url,
        data={
            "csrf_token": csrf_token(judge, check_url),
            "result": "matches",
            "minutes": typed,
            "adjust_reason": "Left open by mistake" if typed else "",
        },
    )
    assert ended.status_code == 302, text(ended)
    dc = _deck_check(app)
    assert dc.ended_at is not None and dc.result.value == "matches"
    [entry] = entries(app, "deck_check.end")
    assert 5 * 3600 + 3 * 60 <= entry.details["seconds"] <= 5 * 3600 + 4 * 60
    with app.app_context():
        assert [e.minutes for e in db.session.scalars(select(TimeExtension))] == given


def test_ending_a_round_ends_its_open_deck_checks_and_says_so(app, floor):
    _seat(app, floor)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    check_url = start_check(judge, floor["event_id"], table=2).headers["Location"]
    scorekeeper = signed_in(app, floor["people"]["scorekeeper"][1])
    response = end_round(scorekeeper, floor["event_id"])
    assert response.status_code == 302
    flashed = text(scorekeeper.get(response.headers["Location"]))
    assert "Round 1 ended." in flashed and "The deck check at table 2 was still running" in flashed
    dc = _deck_check(app)
    assert dc.result.value == "unfinished" and dc.ended_at is not None
    with app.app_context():
        assert db.session.scalar(select(Round)).ended_at is not None
    again = end_round(signed_in(app, floor["people"]["head_judge"][1]), floor["event_id"])
    assert again.status_code == 409 and "This round has already ended." in text(again)
    late = judge.post(check_url, data={"csrf_token": csrf_token(judge, check_url), "result": "matches"})
    assert late.status_code == 409 and "This deck check already ended (ended with the round, no result)" in text(late)
    assert len(entries(app, "round.end")) == 1


def test_starting_the_next_round_ends_the_previous_one_and_what_was_open_in_it(app, floor):
    _seat(app, floor)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    start_check(judge, floor["event_id"], table=1)
    head = signed_in(app, floor["people"]["head_judge"][1])
    started = head.post(
        f"/events/{floor['event_id']}/rounds", data={"csrf_token": csrf_token(head, f"/events/{floor['event_id']}")}
    )
    assert started.status_code == 302
    assert "Round 2 started" in text(head.get(started.headers["Location"]))
    assert _deck_check(app).result.value == "unfinished"
    with app.app_context():
        first, second = db.session.scalars(select(Round).order_by(Round.number)).all()
        assert first.ended_at is not None and first.ended_at <= second.started_at and second.ended_at is None
    assert [e.details["number"] for e in entries(app, "round.end")] == [1]


def test_an_event_whose_last_round_was_ended_early_can_be_closed(app, floor):
    organizer = signed_in(app, floor["organizer"][1])
    blocked = close_event(organizer, floor["event_id"])
    assert blocked.status_code == 409 and "Round 1 is still being played" in text(blocked)
    assert end_round(signed_in(app, floor["people"]["head_judge"][1]), floor["event_id"]).status_code == 302
    assert "still being played" not in text(organizer.get(f"/events/{floor['event_id']}/close"))
    response = close_event(organizer, floor["event_id"])
    assert response.status_code == 302, text(response)
    with app.app_context():
        assert db.session.get(Event, floor["event_id"]).closed_at is not None


# ---- the event's policy stays with its incidents ------------------------------------------------------------------


def settings(client, event_id, **fields):
    data = {
        "csrf_token": csrf_token(client, f"/events/{event_id}/settings"),
        "name": "Regional Qualifier",
        "date": "2026-11-28",
        "venue": "Hall A",
        "policy_id": "bushiroad-afr",
        "level": "2",
        "rounds": "5",
        "round_minutes": "50",
        "challenge_limit": "",
        "statement_days": "7",
    }
    data.update(fields)
    return client.post(f"/events/{event_id}/settings", data=data)


@pytest.mark.parametrize(
    "change, field",
    [({"policy_id": "transformers-tcg", "level": "1"}, "policy_id"), ({"level": "1"}, "level")],
    ids=["policy", "level"],
)
def test_changing_the_policy_or_level_after_incidents_exist_is_refused_at_the_field_and_nothing_changes(
    app, floor, change, field
):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert log(judge, floor["event_id"], player="P-001", infraction="3.1.1", penalty="loss_of_game").status_code == 302
    organizer = signed_in(app, floor["organizer"][1])
    response = settings(organizer, floor["event_id"], venue="Hall B", **change)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert f'id="{field}-error"' in page and "1 incident was logged under bushiroad-afr at level 2" in text(response)
    assert 'value="Hall B"' in page  # what was typed is kept
    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        assert (event.policy_id, event.level, event.venue) == ("bushiroad-afr", 2, "Hall A")
    # had the change gone through, the incidents page would fail on a rank the new policy lacks (a 500 before)
    for url in (
        f"/events/{floor['event_id']}/incidents",
        incident_url(floor["event_id"]),
        f"/events/{floor['event_id']}/feed",
        f"{incident_url(floor['event_id'])}/edit",
    ):
        client = signed_in(app, floor["people"]["head_judge"][1])
        assert client.get(url).status_code == 200, url
    assert settings(organizer, floor["event_id"], venue="Hall B").status_code == 302  # other settings still change


# ---- illegal transitions --------------------------------------------------------------------------------------------


def test_an_illegal_transition_answers_409_with_why_and_what_may_be_done_instead(app, dq):
    event_id = dq["event_id"]
    assert log(dq["judge"], event_id, player="P-001", table=2, infraction="3.5.2", penalty="warning").status_code == 302
    assert file_appeal(dq["judge"], event_id, 2).status_code == 302
    assert decide(dq["head"], event_id, outcome="upheld").status_code == 302
    again = decide(dq["head"], event_id, outcome="overturned", reason="Second thoughts")
    assert again.status_code == 409
    assert "This appeal is already decided: upheld." in text(again)
    assert "Open the incident to see the decision." in text(again)
    assert len(entries(app, "appeal.decide")) == 1

    assert (
        post(
            dq["head"], f"/events/{event_id}/investigations/1/write-up", finalize="y", without_statement="y", **WRITE_UP
        ).status_code
        == 302
    )
    locked = post(
        dq["head"],
        f"/events/{event_id}/investigations/1/write-up",
        save="y",
        **{**WRITE_UP, "summary": "Changed afterwards"},
    )
    assert locked.status_code == 409
    assert "finalized and locked: nothing was changed" in text(locked)
    assert "Add a dated addendum (a statement) instead." in text(locked)
    with app.app_context():
        assert db.session.scalar(select(Investigation)).summary == WRITE_UP["summary"]


def test_a_floor_judge_cannot_undo_the_head_judges_correction_of_their_ruling(app, ruled):
    judge, event_id = ruled["judge"], ruled["event_id"]
    assert (
        correct(
            ruled["head"],
            event_id,
            penalty="loss_of_game",
            deviation_reason="Seen on video: deliberate",
        ).status_code
        == 302
    )
    assert_refused_as_final(correct(judge, event_id, penalty="warning"))
    assert_refused_as_final(void(judge, event_id))
    assert incident_row(app)["rank_id"] == "loss_of_game"
