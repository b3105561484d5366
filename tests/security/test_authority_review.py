"""A second pair of eyes on the authority model (issue 18), tried as a hostile floor judge, proxy, head judge,
organizer and scorekeeper would: through the pages and their forms, not the services.

The access matrix checks each route against the table in fixed states; these tests change the state between requests
(a head judge's correction, a proxy's decision, a void, a removal, a take-back) and compare each page's forms with what
the server then accepts from the same person. The findings' tests failed on the code the review read (82b4b38) and
pass since the fixes; the others guard what the review found right.
"""

import re

import pytest
from sqlalchemy import select

from judgeapp.extensions import CATALOG_KEY, db
from judgeapp.models import (
    Appeal,
    AppealStatus,
    Event,
    Incident,
    IncidentStatus,
    Investigation,
    InvestigationStatus,
    User,
)
from tests.conftest import csrf_token, login
from tests.security.conftest import url_of
from tests.security.test_access_matrix import RECORD_OF, build_world, close_event, routes

H, F = frozenset({"head_judge"}), frozenset({"floor_judge"})


@pytest.fixture
def floor(app, make_user, make_event, give_role):
    """An event with a running round, an organizer, a head judge, two floor judges (`floor`, `colleague`) and a
    scorekeeper; returns a namespace with their (id, email), the event id, and `run(fn)` to call services."""
    people = {
        name: make_user(name=name, organizer=name == "organizer")
        for name in ("organizer", "head", "floor", "colleague", "scorekeeper")
    }
    event_id = make_event(people["organizer"][0])
    for name, role in (
        ("head", "head_judge"),
        ("floor", "floor_judge"),
        ("colleague", "floor_judge"),
        ("scorekeeper", "scorekeeper"),
    ):
        give_role(event_id, people[name][0], role)

    class World:
        event = event_id
        who = people

        @staticmethod
        def run(fn):
            """Call `fn(event, user_of, policy)` in an app context and commit; returns what it returns."""
            with app.app_context():
                event = db.session.get(Event, event_id)
                policy = app.extensions[CATALOG_KEY].policy(event.policy_id)
                result = fn(event, lambda name: db.session.get(User, people[name][0]), policy)
                db.session.commit()
                return result

        @staticmethod
        def client(name):
            client = app.test_client()
            assert login(client, people[name][1]).status_code == 302
            return client

    from judgeapp.events import player_services, round_services

    def setup(event, user, policy):
        round_services.start_round(db.session, actor=user("head"), event=event)
        for n in range(1, 5):
            player_services.add_player(
                db.session, actor=user("head"), event=event, name=f"Player {n}", player_code=f"P-{n}"
            )

    World.run(setup)
    return World


def log(world, judge="floor", *, rank="warning", code="3.5.2", player=1, roles=F):
    """An incident logged by `judge`, of player P-`player` at table 1; returns its number."""
    from judgeapp.incidents import services as incidents
    from judgeapp.models import Player

    def do(event, user, policy):
        someone = db.session.scalar(
            select(Player).where(Player.event_id == event.id, Player.player_code == f"P-{player}")
        )
        return incidents.log_incident(
            db.session,
            policy,
            actor=user(judge),
            roles=roles,
            event=event,
            data=incidents.IncidentInput(
                key=f"review-{judge}-{rank}-{player}-0001",
                infraction_code=code,
                table_number=1,
                player_id=someone.id,
                rank_id=rank,
            ),
        ).incident.number

    return world.run(do)


def appeal_of(world, number, *, delegate_to=None, second=False):
    """An appeal of incident `number` by its player, delegated by the head judge to `delegate_to`; its number."""
    from judgeapp.appeals import services as appeals
    from judgeapp.incidents import list_services

    def do(event, user, policy):
        incident = list_services.incident_by_number(db.session, event, number)
        appeal, _ = appeals.file_appeal(
            db.session,
            actor=incident.judge,
            event=event,
            incident=incident,
            data=appeals.AppealInput(
                f"review-appeal-{number}-{int(second)}001", f"player:{incident.subjects[0].player_id}", "no"
            ),
        )
        if delegate_to:
            appeals.delegate(
                db.session, actor=user("head"), roles=H, event=event, appeal=appeal, proxy_id=user(delegate_to).id
            )
        return appeal.number

    return world.run(do)


def incident_status(world, number) -> IncidentStatus:
    return world.run(
        lambda event, user, policy: db.session.scalar(
            select(Incident.status).where(Incident.event_id == event.id, Incident.number == number)
        )
    )


def post(client, url, page, data=None, **kwargs):
    return client.post(url, data={"csrf_token": csrf_token(client, page), **(data or {})}, **kwargs)


# ---- a head judge's decision is final for floor judges -------------------------------------------------------------


def test_floor_judge_may_not_void_their_ruling_once_the_head_judge_corrected_it_to_a_disqualification(floor):
    from judgeapp.incidents import edit_services, list_services

    number = log(floor)

    def head_judge_corrects(event, user, policy):
        incident = list_services.incident_by_number(db.session, event, number)
        edit_services.correct_incident(
            db.session,
            policy,
            actor=user("head"),
            roles=H,
            event=event,
            incident=incident,
            data=edit_services.IncidentEdit(
                round_number=1,
                table_number=1,
                infraction_code="3.5.2",
                rank_id="disqualification",
                deviation_reason="did it on purpose, twice",
                description="",
            ),
        )

    floor.run(head_judge_corrects)
    client = floor.client("floor")
    page = f"/events/{floor.event}/incidents/{number}"
    assert "Void this incident" not in client.get(page).get_data(as_text=True)
    response = post(client, f"{page}/void", page, {"reason": "I was right the first time"})
    assert response.status_code == 409
    assert incident_status(floor, number) is IncidentStatus.STANDING
    assert floor.run(lambda e, u, p: db.session.scalar(select(Investigation.status))) is InvestigationStatus.OPEN


def test_ruling_judge_may_not_void_a_ruling_a_proxy_changed_on_appeal(floor):
    number = log(floor, "colleague")
    appeal = appeal_of(floor, number, delegate_to="floor")
    proxy = floor.client("floor")
    page = f"/events/{floor.event}/appeals/{appeal}"
    decided = post(proxy, page, page, {"outcome": "changed", "reason": "it was a caution", "penalty": "caution"})
    assert decided.status_code == 302
    ruling_judge = floor.client("colleague")
    incident_page = f"/events/{floor.event}/incidents/{number}"
    assert "Void this incident" not in ruling_judge.get(incident_page).get_data(as_text=True)
    response = post(ruling_judge, f"{incident_page}/void", incident_page, {"reason": "the proxy was wrong"})
    assert response.status_code == 409
    assert incident_status(floor, number) is IncidentStatus.STANDING


def test_the_head_judge_is_not_offered_to_delegate_an_appeal_a_proxy_already_ruled_on(floor):
    number = log(floor, "colleague")
    first = appeal_of(floor, number, delegate_to="floor")
    proxy = floor.client("floor")
    page = f"/events/{floor.event}/appeals/{first}"
    assert post(proxy, page, page, {"outcome": "upheld", "reason": "as ruled"}).status_code == 302
    second = appeal_of(floor, number, second=True)  # the player appeals on, to the head judge
    head = floor.client("head")
    page = f"/events/{floor.event}/appeals/{second}"
    offered = f'action="/events/{floor.event}/appeals/{second}/proxy"' in head.get(page).get_data(as_text=True)
    refused = post(head, f"{page}/proxy", page, {"proxy": str(floor.who["floor"][0])}).status_code == 409
    assert (offered, refused) in ((False, True), (False, False))


# ---- void is the end of an incident's life ---------------------------------------------------------------------------


def test_an_incident_under_appeal_cannot_be_voided_so_no_appeal_can_make_a_void_incident_stand_again(floor):
    """Voiding an incident whose appeal waits left the appeal open, and deciding it 'changed' set the void incident
    standing again. The waiting appeal now holds the ruling: the head judge settles it by deciding the appeal."""
    number = log(floor, "colleague")
    appeal = appeal_of(floor, number, delegate_to="floor")
    head = floor.client("head")
    page = f"/events/{floor.event}/incidents/{number}"
    assert 'action="' + page + '/void"' not in head.get(page).get_data(as_text=True)
    response = post(head, f"{page}/void", page, {"reason": "logged at the wrong event"})
    assert response.status_code == 409 and "under appeal" in response.get_data(as_text=True)
    assert incident_status(floor, number) is IncidentStatus.STANDING
    proxy = floor.client("floor")
    decided = f"/events/{floor.event}/appeals/{appeal}"
    response = post(proxy, decided, decided, {"outcome": "overturned", "reason": "wrong table"})
    assert response.status_code == 302 and incident_status(floor, number) is IncidentStatus.OVERTURNED


# ---- people whose authority ends mid-session -------------------------------------------------------------------------


def test_a_proxy_whose_appeal_was_taken_back_is_refused_with_the_form_they_already_loaded(floor):
    from judgeapp.appeals import services as appeals

    number = log(floor, "colleague")
    appeal = appeal_of(floor, number, delegate_to="floor")
    proxy = floor.client("floor")
    page = f"/events/{floor.event}/appeals/{appeal}"
    loaded = proxy.get(page).get_data(as_text=True)
    assert 'id="decide"' in loaded
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', loaded).group(1)
    floor.run(
        lambda event, user, policy: appeals.delegate(
            db.session,
            actor=user("head"),
            roles=H,
            event=event,
            appeal=appeals.appeal_by_number(db.session, event, appeal),
            proxy_id=None,
        )
    )
    response = proxy.post(page, data={"csrf_token": token, "outcome": "overturned", "reason": "mine to say"})
    assert response.status_code == 403
    assert 'id="decide"' not in proxy.get(page).get_data(as_text=True)
    status = floor.run(lambda e, u, p: db.session.scalar(select(Appeal.status).where(Appeal.number == appeal)))
    assert status is AppealStatus.OPEN


def test_a_floor_judge_removed_mid_session_can_neither_void_nor_send_from_the_outbox(floor):
    from judgeapp.events import staff_services
    from judgeapp.models import StaffAssignment

    number = log(floor)
    client = floor.client("floor")
    page = f"/events/{floor.event}/incidents/{number}"
    token = csrf_token(client, page)
    outbox_token = csrf_token(client, f"/events/{floor.event}/incidents/new")

    def remove(event, user, policy):
        assignment = db.session.scalar(
            select(StaffAssignment).where(
                StaffAssignment.event_id == event.id, StaffAssignment.user_id == user("floor").id
            )
        )
        staff_services.end_staff(
            db.session, actor=user("organizer"), event=event, assignment_id=assignment.id, reason="went home"
        )

    floor.run(remove)
    voided = client.post(f"{page}/void", data={"csrf_token": token, "reason": "never mind"})
    sent = client.post(
        f"/events/{floor.event}/incidents/new",
        headers={"Accept": "application/json"},
        data={
            "csrf_token": outbox_token,
            "key": "review-outbox-after-removal-01",
            "infraction": "3.5.2",
            "round": "1",
            "table": "1",
            "subject_kind": "player",
            "player": "P-2",
            "penalty": "warning",
            "outbox_owner": str(floor.who["floor"][0]),
        },
    )
    assert (voided.status_code, sent.status_code) == (403, 403)
    assert incident_status(floor, number) is IncidentStatus.STANDING
    assert (
        floor.run(
            lambda e, u, p: db.session.scalar(
                select(Incident.id).where(Incident.client_key == "review-outbox-after-removal-01")
            )
        )
        is None
    )


def test_only_the_organizer_is_offered_to_close_and_reopen_the_event_the_head_judge_reads_the_page(floor):
    from judgeapp.events import round_services
    from judgeapp.postevent import services as postevent

    floor.run(
        lambda event, user, policy: round_services.end_round(
            db.session, actor=user("head"), event=event, rnd=round_services.current_round(db.session, event)
        )
    )
    page, close, reopen = (
        f"/events/{floor.event}/close",
        f'action="/events/{floor.event}/close"',
        f'action="/events/{floor.event}/reopen"',
    )
    head, organizer = floor.client("head"), floor.client("organizer")
    assert "Ready to close" in head.get(page).get_data(as_text=True)
    offered = {
        who: close in client.get(page).get_data(as_text=True)
        for who, client in (("head", head), ("organizer", organizer))
    }
    refused = post(head, page, page).status_code
    assert (offered, refused) == ({"head": False, "organizer": True}, 403)
    floor.run(
        lambda event, user, policy: postevent.close_event(
            db.session, actor=user("organizer"), event=event, local=lambda at: at
        )
    )
    offered = {
        who: reopen in client.get(page).get_data(as_text=True)
        for who, client in (("head", head), ("organizer", organizer))
    }
    refused = post(head, f"/events/{floor.event}/reopen", page, {"reason": "one more correction"}).status_code
    assert (offered, refused) == ({"head": False, "organizer": True}, 403)


# ---- every form a page shows is one the server takes from that person ----------------------------------------------

FORM_RE = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.I | re.S)
DISABLED_RE = re.compile(r'type="submit"[^>]*\bdisabled\b|\bdisabled\b[^>]*type="submit"', re.I)
METHOD_RE = re.compile(r'method="post"', re.I)
ACTION_RE = re.compile(r'action="([^"]*)"', re.I)
# Forms of the account, not of the event's records (sign out, and "Got it" on a decision banner, which the matrix
# and test_hardening cover).
NOT_RECORD_FORMS = ("/logout", "/seen")
CRAWLED = ("floor_judge", "scorekeeper", "head_judge", "organizer")


def posted_forms(html: str, page: str) -> set[str]:
    """The URLs the page's POST forms send to (a form without an action posts to the page itself), leaving out a form
    whose button is shown disabled (closing an event with something left to finish)."""
    out = set()
    for attrs, body in FORM_RE.findall(html):
        if METHOD_RE.search(attrs) and not DISABLED_RE.search(body):
            action = ACTION_RE.search(attrs)
            out.add((action.group(1) if action and action.group(1) else page).replace("&amp;", "&"))
    return {url for url in out if not url.endswith(NOT_RECORD_FORMS)}


def refused_forms(app, closed: bool) -> list[str]:
    """Crawl every event page in every record state as each staff role and send each form it shows (with only its
    CSRF token, as the matrix does): the forms the server then refuses (403/409) for that same person."""
    wrong = []
    for role in CRAWLED:
        users, args, records = build_world(app)
        if closed:
            close_event(app, args["event_id"])
        client = app.test_client()
        assert login(client, users[role][1]).status_code == 302
        pages = []
        for endpoint, method, rule in routes(app):
            if method != "GET" or "event_id" not in rule.arguments or endpoint.endswith(("report", "export")):
                continue
            kind = RECORD_OF.get(endpoint)
            for _state, overrides, _owners, _proxies in records[kind] if kind else [(None, {}, set(), set())]:
                pages.append(url_of(app, rule, args, **overrides))
        seen = set()
        for page in pages:
            answer = client.get(page)
            assert answer.status_code < 500, f"{role} GET {page}: {answer.status_code}"
            if answer.status_code != 200 or answer.mimetype != "text/html":
                continue
            for action in sorted(posted_forms(answer.get_data(as_text=True), page) - seen):
                seen.add(action)
                fresh = client.get(page).get_data(as_text=True)  # an earlier tap may have changed the record
                if action not in posted_forms(fresh, page):
                    continue
                token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', fresh).group(1)
                got = client.post(action, data={"csrf_token": token})
                if got.status_code in (403, 409):
                    wrong.append(f"{role:12} {page:40} offers POST {action}: {got.status_code}")
    return wrong


def test_on_an_open_event_no_page_offers_a_form_the_server_refuses_to_the_same_person(app):
    wrong = refused_forms(app, closed=False)
    assert not wrong, "\n".join(wrong)


def test_on_a_closed_event_no_page_offers_a_form_the_server_refuses_to_the_same_person(app):
    wrong = refused_forms(app, closed=True)
    assert not wrong, "\n".join(wrong)
