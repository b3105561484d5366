"""One-time keys (retried saves, time extensions, deck checks, appeals, statements) are scoped to their event and
record kind: a resent form stores one record, the same key at another event or for another kind stores its own."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from judgeapp.extensions import db
from judgeapp.models import (
    Appeal,
    AuditEntry,
    DeckCheck,
    Event,
    Incident,
    Investigation,
    Statement,
    TimeExtension,
    User,
)
from tests.conftest import csrf_token
from tests.integration.test_incidents import log, signed_in, text

# Unique indexes over (event, kind, key) and the key's column length: constraints PostgreSQL enforces its own way.
pytestmark = pytest.mark.db

KEY = "same-key-on-two-phones-0001"
PAIRINGS = "1,P-002,P-004\n2,P-001,P-003\n"


def prepare(app, event_id, people):
    """Round 1 seated; incident #1 the floor judge's warning (to appeal), incident #2 the head judge's
    disqualification (with investigation #1, to take statements in)."""
    from judgeapp.events.pairing_services import import_pairings

    with app.app_context():
        event = db.session.get(Event, event_id)
        import_pairings(db.session, actor=event.organizer, event=event, round_number=1, text=PAIRINGS)
        db.session.commit()
    head, judge = signed_in(app, people["head_judge"][1]), signed_in(app, people["floor_judge"][1])
    assert log(judge, event_id, player="P-001", infraction="3.5.2", penalty="warning").status_code == 302
    assert (
        log(
            head,
            event_id,
            player="P-003",
            infraction="4.1",
            penalty="disqualification",
            description="Stacked the deck while shuffling.",
        ).status_code
        == 302
    )
    return head


@pytest.fixture
def two_events(app, floor, make_event, give_role):
    """The floor fixture's event and a second one with the same head judge and floor judge, and players of the same
    IDs; the head judge sends every form."""
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round

    head_id = floor["people"]["head_judge"][0]
    other = make_event(floor["organizer"][0], name="Second Regional")
    give_role(other, head_id, "head_judge")
    give_role(other, floor["people"]["floor_judge"][0], "floor_judge")
    with app.app_context():
        event = db.session.get(Event, other)
        start_round(db.session, actor=db.session.get(User, head_id), event=event)
        for name, code in [("Aiko Mori", "P-001"), ("Ben Ode", "P-002"), ("Chen Yu", "P-003"), ("Dana Roy", "P-004")]:
            add_player(db.session, actor=event.organizer, event=event, name=name, player_code=code, team=None)
        db.session.commit()
    head = prepare(app, floor["event_id"], floor["people"])
    prepare(app, other, floor["people"])
    return {"events": (floor["event_id"], other), "head": head}


def _post(client, url, form_page, **fields):
    return client.post(
        url, data={"csrf_token": csrf_token(client, form_page), **{k: str(v) for k, v in fields.items()}}
    )


def send(kind, client, event_id, key):
    """Send the form that creates one record of `kind` at the event, with the one-time `key`."""
    base = f"/events/{event_id}"
    if kind == "incident":
        return log(client, event_id, key=key, player="P-002", table=1, infraction="3.5.2", penalty="warning")
    if kind == "extension":
        return _post(
            client,
            f"{base}/extensions/new",
            f"{base}/extensions/new",
            key=key,
            round=1,
            table=1,
            reason="other",
            minutes=2,
            adjust_reason="Table moved",
        )
    if kind == "deck check":
        return _post(client, f"{base}/deck-checks/new", f"{base}/deck-checks/new", key=key, round=1, table=1)
    if kind == "appeal":
        return _post(
            client,
            f"{base}/incidents/1/appeal",
            f"{base}/incidents/1/appeal",
            key=key,
            appellant=_first_appellant(client, event_id),
            contest="The effect was resolved before the next draw.",
        )
    if kind == "statement":
        return _post(
            client,
            f"{base}/investigations/1/statements",
            f"{base}/investigations/1",
            key=key,
            author_name="Aiko Mori",
            author_role="opponent",
            text="I saw the cards being arranged.",
        )
    raise AssertionError(kind)


def _first_appellant(client, event_id):
    page = client.get(f"/events/{event_id}/incidents/1/appeal").get_data(as_text=True)
    return re.search(r'name="appellant" value="([^"]+)"', page).group(1)


MODELS = {
    "incident": Incident,
    "extension": TimeExtension,
    "deck check": DeckCheck,
    "appeal": Appeal,
    "statement": Statement,
}
KINDS = list(MODELS)


def stored(app, kind, event_id, key=KEY) -> int:
    """How many records of `kind` the event holds with one-time `key`."""
    model = MODELS[kind]
    query = select(func.count()).select_from(model).where(model.client_key == key)
    if model is Statement:
        query = query.join(Investigation, Investigation.id == Statement.investigation_id)
    with app.app_context():
        return db.session.scalar(query.where((Investigation if model is Statement else model).event_id == event_id))


def test_same_one_time_key_at_two_events_stores_two_incidents(app, two_events):
    first, second = two_events["events"]
    assert send("incident", two_events["head"], first, KEY).status_code == 302
    response = send("incident", two_events["head"], second, KEY)
    assert response.status_code == 302, text(response)
    assert f"/events/{second}/incidents/3" in response.headers["Location"]
    assert (stored(app, "incident", first), stored(app, "incident", second)) == (1, 1)


@pytest.mark.parametrize("kind", ["extension", "deck check", "appeal", "statement"])
def test_same_one_time_key_at_two_events_stores_one_record_at_each(app, two_events, kind):
    first, second = two_events["events"]
    assert send(kind, two_events["head"], first, KEY).status_code == 302
    response = send(kind, two_events["head"], second, KEY)
    assert response.status_code == 302, text(response)
    assert f"/events/{second}/" in response.headers["Location"]  # this event's record, never the other one's
    assert (stored(app, kind, first), stored(app, kind, second)) == (1, 1)


def test_same_one_time_key_for_two_kinds_stores_a_record_of_each_kind(app, two_events):
    event_id = two_events["events"][0]
    for kind in KINDS:
        response = send(kind, two_events["head"], event_id, KEY)
        assert response.status_code == 302, (kind, text(response))
    assert {kind: stored(app, kind, event_id) for kind in KINDS} == dict.fromkeys(KINDS, 1)


@pytest.mark.parametrize("kind", KINDS)
def test_a_retried_save_at_the_same_event_still_stores_once_with_one_audit_entry(app, two_events, kind):
    event_id = two_events["events"][0]
    with app.app_context():
        entries_before = db.session.scalar(select(func.count()).select_from(AuditEntry))
    first = send(kind, two_events["head"], event_id, KEY)
    again = send(kind, two_events["head"], event_id, KEY)
    assert first.status_code == again.status_code == 302
    assert again.headers["Location"] == first.headers["Location"]  # the retry is shown the record it already made
    assert stored(app, kind, event_id) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(AuditEntry)) == entries_before + 1


@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_one_time_key_says_why_on_the_page(app, two_events, kind):
    event_id = two_events["events"][0]
    response = send(kind, two_events["head"], event_id, "too-short")
    assert response.status_code == 400
    assert "no valid one-time key" in text(response) and "reload the page" in text(response)
    assert stored(app, kind, event_id, key="too-short") == 0


def test_the_time_given_with_an_incident_is_stored_with_a_key_of_the_longest_length(app, two_events):
    """The record made along with the incident derives its key from the incident's: it must fit the column."""
    event_id = two_events["events"][0]
    key = "k" * 64
    response = log(
        two_events["head"],
        event_id,
        key=key,
        player="P-002",
        table=1,
        infraction="3.5.2",
        penalty="warning",
        extension=3,
    )
    assert response.status_code == 302, text(response)
    with app.app_context():
        incident = db.session.scalar(select(Incident).where(Incident.client_key == key))
        ext = db.session.scalar(select(TimeExtension).where(TimeExtension.incident_id == incident.id))
        assert ext.minutes == 3 and len(ext.client_key) <= 64
    again = log(
        two_events["head"],
        event_id,
        key=key,
        player="P-002",
        table=1,
        infraction="3.5.2",
        penalty="warning",
        extension=3,
    )
    assert again.headers["Location"] == response.headers["Location"]
    with app.app_context():
        assert (
            db.session.scalar(
                select(func.count()).select_from(TimeExtension).where(TimeExtension.incident_id == incident.id)
            )
            == 1
        )
