"""State transitions: each writes exactly one audit entry in its own transaction, and two judges acting on one record
at the same moment get one result and one clear refusal (run on SQLite and on PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import func, select

from judgeapp.extensions import db
from judgeapp.models import Appeal, AppealStatus, AuditEntry, Incident, IncidentStatus
from tests.conftest import csrf_token
from tests.integration.conftest import floor  # noqa: F401  (fixture)
from tests.integration.test_appeals import decide, file_appeal, ruled  # noqa: F401  (fixture)
from tests.integration.test_incidents import log, signed_in, text
from tests.integration.test_investigations import statement
from tests.integration.test_time_and_deck_checks import start_check

# Row locks and transactions under two clients at once: what PostgreSQL does differently from SQLite.
pytestmark = pytest.mark.db


def post(client, url, form_page="/account/password", **data):
    return client.post(url, data={"csrf_token": csrf_token(client, form_page), **data})


def actions(app):
    with app.app_context():
        return dict(db.session.execute(select(AuditEntry.action, func.count()).group_by(AuditEntry.action)).all())


def test_every_transition_writes_exactly_one_audit_entry_in_its_transaction(app, ruled, audit_watch):
    event_id, judge, head = ruled["event_id"], ruled["judge"], ruled["head"]
    incident = f"/events/{event_id}/incidents"
    before = actions(app)
    steps = [
        lambda: post(judge, f"{incident}/1/note", text="The opponent agreed it was a misplay."),
        lambda: post(judge, f"{incident}/1/note", text="Was a warning right?", ask_head_judge="y"),
        lambda: post(
            judge,
            f"{incident}/1/edit",
            round="1",
            table="2",
            infraction="3.5.2",
            penalty="warning",
            description="Forgot the discard.",
        ),
        lambda: file_appeal(judge, event_id),
        lambda: decide(head, event_id, outcome="upheld"),
        lambda: post(head, f"{incident}/1/void", reason="Logged twice"),
        lambda: log(head, event_id, player="P-003", table=2, infraction="4.1", penalty="disqualification"),
        lambda: statement(head, {"event_id": event_id}, body="I saw it."),
        lambda: post(
            head,
            f"{incident}/2/edit",
            round="1",
            table="2",
            infraction="3.5.2",
            penalty="warning",
            deviation_reason="Not cheating after all",
        ),  # withdraws the investigation with it
        lambda: start_check(judge, event_id, table=1),
        lambda: post(head, f"/events/{event_id}/rounds/1/end", form_page=f"/events/{event_id}"),
    ]
    for n, step in enumerate(steps):
        response = step()
        assert response.status_code == 302, (n, text(response))
    assert not audit_watch
    assert audit_watch.audited >= len(steps)
    after = actions(app)
    new = {a: after[a] - before.get(a, 0) for a in after if after[a] != before.get(a, 0)}
    assert new == {
        "incident.note": 1,
        "incident.question": 1,
        "incident.correct": 2,
        "appeal.file": 1,
        "appeal.decide": 1,
        "incident.void": 1,
        "incident.log": 1,
        "investigation.open": 1,
        "statement.add": 1,
        "investigation.withdraw": 1,
        "deck_check.start": 1,
        "deck_check.end_with_round": 1,
        "round.end": 1,
    }


# ---- two judges at the same moment -----------------------------------------------------------------------------------


def at_once(*requests):
    """Run each request in its own thread, released together by a barrier; their responses, in order."""
    barrier = threading.Barrier(len(requests))
    results: list = [None] * len(requests)

    def run(i, request):
        barrier.wait()
        try:
            results[i] = request()
        except BaseException as err:  # a raised error is the 500 a browser would get
            results[i] = err

    threads = [threading.Thread(target=run, args=(i, r)) for i, r in enumerate(requests)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for r in results:
        assert not isinstance(r, BaseException), repr(r)
    return results


def test_two_head_judge_clients_deciding_one_appeal_at_once_give_one_decision_and_one_clear_refusal(app, ruled):
    event_id = ruled["event_id"]
    assert file_appeal(ruled["judge"], event_id).status_code == 302
    clients = [signed_in(app, ruled["people"]["head_judge"][1]) for _ in range(2)]
    tokens = [csrf_token(c, f"/events/{event_id}/appeals") for c in clients]
    outcomes = [
        {"outcome": "upheld", "count_challenge": "y"},
        {"outcome": "overturned", "reason": "Resolved correctly"},
    ]
    responses = at_once(
        *(
            lambda c=c, t=t, o=o: c.post(f"/events/{event_id}/appeals/1", data={"csrf_token": t, **o})
            for c, t, o in zip(clients, tokens, outcomes, strict=True)
        )
    )
    assert sorted(r.status_code for r in responses) == [302, 409]
    refused = next(r for r in responses if r.status_code == 409)
    assert "This appeal is already decided" in text(refused)
    winner = outcomes[[r.status_code for r in responses].index(302)]["outcome"]
    with app.app_context():
        [appeal] = db.session.scalars(select(Appeal)).all()
        assert appeal.status is AppealStatus(winner)
        incident = db.session.scalar(select(Incident).where(Incident.number == 1))
        assert incident.status is (IncidentStatus.OVERTURNED if winner == "overturned" else IncidentStatus.STANDING)
    assert actions(app)["appeal.decide"] == 1


@pytest.mark.parametrize("attempt", range(3))
def test_a_floor_judge_voiding_while_the_head_judge_corrects_ends_in_one_consistent_state(app, ruled, attempt):
    event_id = ruled["event_id"]
    url = f"/events/{event_id}/incidents/1"
    judge, head = ruled["judge"], ruled["head"]
    tokens = csrf_token(judge, url), csrf_token(head, url)
    correction = {
        "round": "1",
        "table": "1",
        "infraction": "3.5.2",
        "penalty": "warning",
        "description": "Corrected by the head judge.",
    }
    voided, corrected = at_once(
        lambda: judge.post(f"{url}/void", data={"csrf_token": tokens[0], "reason": "Wrong player"}),
        lambda: head.post(f"{url}/edit", data={"csrf_token": tokens[1], **correction}),
    )
    assert voided.status_code in (302, 409) and corrected.status_code in (302, 400, 409)
    with app.app_context():
        incident = db.session.scalar(select(Incident).where(Incident.number == 1))
        trail = db.session.scalars(
            select(AuditEntry.action)
            .where(
                AuditEntry.object_type == "Incident",
                AuditEntry.object_id == incident.id,
                AuditEntry.action != "incident.log",
            )
            .order_by(AuditEntry.id)
        ).all()
        state = (incident.status, incident.table_number, incident.description)
    if corrected.status_code == 302 and voided.status_code == 302:  # the correction first, then the void
        assert trail == ["incident.correct", "incident.void"]
        assert state == (IncidentStatus.VOID, 1, "Corrected by the head judge.")
    elif voided.status_code == 302:  # the void first: a void incident can no longer be corrected
        assert "it can no longer be corrected" in text(corrected) or "cannot be corrected" in text(corrected)
        assert trail == ["incident.void"] and state[:2] == (IncidentStatus.VOID, 2)
    else:  # the correction first, and the head judge's correction stands against the floor judge
        assert corrected.status_code == 302 and "only the head judge may change it now" in text(voided)
        assert trail == ["incident.correct"] and state == (IncidentStatus.STANDING, 1, "Corrected by the head judge.")
