"""A judge removed from an event (the organizer ends their staff assignment) stops seeing it: no appeals badge or
count for its appeals, no banner for its decisions, no pages, no "Got it", no decision as its proxy, no offline
copy. The records stay; only what is shown to the removed judge changes."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Appeal, AppealStatus, StaffAssignment
from tests.conftest import csrf_token
from tests.integration.test_appeals import (  # noqa: F401  (ruled, tf_ruled: fixtures)
    decide,
    delegate,
    file_appeal,
    ruled,
    tf_ruled,
)
from tests.integration.test_incidents import signed_in, text

pytestmark = pytest.mark.db


def remove(app, setup, person: str) -> None:
    """The organizer ends every role `person` holds at the event, through the staff page's form."""
    organizer = signed_in(app, setup["organizer"][1])
    event_id = setup["event_id"]
    with app.app_context():
        ids = db.session.scalars(
            select(StaffAssignment.id).where(
                StaffAssignment.event_id == event_id,
                StaffAssignment.user_id == setup["people"][person][0],
                StaffAssignment.ended_at.is_(None),
            )
        ).all()
    assert ids
    for assignment_id in ids:
        response = organizer.post(
            f"/events/{event_id}/staff/{assignment_id}/end",
            data={"csrf_token": csrf_token(organizer, f"/events/{event_id}/staff"), "reason": "Left the event"},
        )
        assert response.status_code == 302


def waiting_count(client) -> int:
    return client.get("/appeals/waiting?format=json").get_json()["count"]


def appeal_of(app, event_id) -> Appeal:
    with app.app_context():
        appeal = db.session.scalars(select(Appeal).where(Appeal.event_id == event_id)).one()
        db.session.expunge(appeal)
        return appeal


def test_an_appeal_delegated_to_a_judge_who_was_then_removed_no_longer_counts_as_waiting_for_them(app, tf_ruled):
    file_appeal(tf_ruled["judge"], tf_ruled["event_id"])
    delegate(tf_ruled["head"], tf_ruled["event_id"], tf_ruled["people"]["other_floor"][0])
    proxy = signed_in(app, tf_ruled["people"]["other_floor"][1])
    assert waiting_count(proxy) == 1
    remove(app, tf_ruled, "other_floor")
    assert waiting_count(proxy) == 0
    assert 'id="appeals-badge"' not in text(proxy.get("/"))
    assert (
        waiting_count(tf_ruled["head"]) == 1
    )  # still waiting: for the head judge, who can decide it or delegate again


def test_a_removed_proxy_can_no_longer_open_or_decide_the_delegated_appeal(app, tf_ruled):
    file_appeal(tf_ruled["judge"], tf_ruled["event_id"])
    delegate(tf_ruled["head"], tf_ruled["event_id"], tf_ruled["people"]["other_floor"][0])
    proxy = signed_in(app, tf_ruled["people"]["other_floor"][1])
    token = csrf_token(proxy, "/")
    remove(app, tf_ruled, "other_floor")
    assert proxy.get(f"/events/{tf_ruled['event_id']}/appeals/1").status_code == 403
    response = proxy.post(
        f"/events/{tf_ruled['event_id']}/appeals/1",
        data={"csrf_token": token, "outcome": "overturned", "reason": "Misread the card", "count_challenge": "y"},
    )
    assert response.status_code == 403
    assert appeal_of(app, tf_ruled["event_id"]).status is AppealStatus.OPEN
    assert (
        decide(tf_ruled["head"], tf_ruled["event_id"], outcome="upheld").status_code == 302
    )  # the head judge still can


def test_a_decision_on_the_ruling_of_a_judge_since_removed_is_no_longer_bannered_on_their_pages(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    decide(ruled["head"], ruled["event_id"], outcome="overturned", reason="Resolved correctly after all")
    assert "Appeal of your ruling, incident #1" in text(ruled["judge"].get("/"))
    remove(app, ruled, "floor_judge")
    page = text(ruled["judge"].get("/"))
    assert "Appeal of your ruling" not in page and "Got it" not in page
    assert "Appeal of your ruling" not in text(ruled["judge"].get("/account/password"))


def test_a_removed_judge_cannot_acknowledge_a_decision_nor_open_the_events_pages(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    decide(ruled["head"], ruled["event_id"], outcome="upheld")
    token = csrf_token(ruled["judge"], "/")
    remove(app, ruled, "floor_judge")
    event = f"/events/{ruled['event_id']}"
    response = ruled["judge"].post(f"{event}/appeals/1/seen", data={"csrf_token": token, "next": "/"})
    assert response.status_code == 403
    assert appeal_of(app, ruled["event_id"]).seen_by_judge_at is None  # the record is unchanged
    for path in ("", "/incidents", "/incidents/1", "/incidents/new", "/appeals", "/appeals/1"):
        assert ruled["judge"].get(f"{event}{path}").status_code == 403, path


def test_a_removed_head_judge_loses_the_appeals_badge_the_feed_and_its_pending_count(app, ruled):
    file_appeal(ruled["judge"], ruled["event_id"])
    assert waiting_count(ruled["head"]) == 1 and 'id="appeals-badge"' in text(ruled["head"].get("/"))
    remove(app, ruled, "head_judge")
    assert waiting_count(ruled["head"]) == 0
    assert 'id="appeals-badge"' not in text(ruled["head"].get("/"))
    event = f"/events/{ruled['event_id']}"
    for path in ("", "/feed", "/appeals"):
        assert ruled["head"].get(f"{event}{path}").status_code == 403, path
    waiting_page = ruled["head"].get("/appeals/waiting")  # where the badge led: no longer to this event
    assert waiting_page.status_code == 200 and f'href="{event}/appeals"' not in text(waiting_page)


def test_the_phones_copy_of_a_removed_judge_no_longer_holds_the_event(app, ruled):
    copy = ruled["judge"].get("/offline/copy.json")
    assert copy.headers["Cache-Control"] == "no-store"
    assert [e["id"] for e in copy.get_json()["events"]] == [ruled["event_id"]]
    remove(app, ruled, "floor_judge")
    copy = ruled["judge"].get("/offline/copy.json")
    assert copy.headers["Cache-Control"] == "no-store"
    assert copy.get_json()["events"] == []
