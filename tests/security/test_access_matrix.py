"""Every route × every role × every state of the record the route names, expected from the permission table.

The expectations are not written here: each event route declares its action (`event_route` / `account_route`), and
`judgeapp.permissions.decide` says, from the table, what each role may do to a record in each state. This test builds
one event holding a record in every state of every lifecycle, sends every request, and checks the answer: allowed
(the view did its work or showed its form), 403 (the role may not), 409 (the state or the closed event stops it),
or the login page. A route with neither a declared action nor a row in NOT_EVENT_ROUTES fails the first test.
"""

from datetime import timedelta

import pytest
from sqlalchemy import select

from judgeapp.extensions import CATALOG_KEY, db, limiter
from judgeapp.lifecycles import (
    AppealState,
    CallState,
    DeckCheckState,
    IncidentState,
    InvestigationState,
    RoundState,
)
from judgeapp.permissions import Role, decide
from tests.conftest import PASSWORD, csrf_token, login
from tests.security.conftest import ROLES as SHARED_ROLES
from tests.security.conftest import url_of

ROLES = [*SHARED_ROLES, "assistant_head_judge"]  # the assistant head judge (issue 35): every route, as the others

OK, LOGIN, FORBIDDEN, CONFLICT = "ok", "login", 403, 409
ANY_SIGNED_IN = {r: OK for r in ROLES if r != "signed_out"} | {"signed_out": LOGIN}
EVERYONE = {r: OK for r in ROLES}

# What each test user holds at the event under test (the others hold nothing there).
HOLDS = {
    "no_role": set(),
    "other_organizer": set(),
    "other_event_judge": set(),
    "floor_judge": {Role.FLOOR_JUDGE},
    "scorekeeper": {Role.SCOREKEEPER},
    "head_judge": {Role.HEAD_JUDGE},
    "organizer": {Role.ORGANIZER},
    "assistant_head_judge": {Role.ASSISTANT_HEAD_JUDGE},
}
ORGANIZER_ACCOUNTS = {"organizer", "other_organizer"}

# Pages that belong to no event: the account's own, and the installable app's files (no data in them).
NOT_EVENT_ROUTES = {
    ("auth.login", "GET"): EVERYONE,
    ("auth.login", "POST"): EVERYONE,
    ("auth.logout", "POST"): {r: LOGIN for r in ROLES},  # signed in: logged out and sent to the login page
    ("auth.change_password", "GET"): ANY_SIGNED_IN,
    ("auth.change_password", "POST"): ANY_SIGNED_IN,
    ("auth.profile", "POST"): ANY_SIGNED_IN,  # the account's own name, reading and language
    ("auth.forgot", "GET"): EVERYONE,
    ("auth.forgot", "POST"): EVERYONE,
    # the link itself is the credential: a token that is no link is 404 for everyone (real links: test_accounts)
    ("auth.set_password", "GET"): {r: 404 for r in ROLES},
    ("auth.set_password", "POST"): {r: 404 for r in ROLES},
    ("events.index", "GET"): ANY_SIGNED_IN,
    ("appeals.waiting", "GET"): ANY_SIGNED_IN,
    ("reference.index", "GET"): ANY_SIGNED_IN,
    ("reference.policy", "GET"): ANY_SIGNED_IN,
    ("investigations.public_statement", "GET"): EVERYONE,  # the one-time link needs no account
    ("investigations.public_statement", "POST"): EVERYONE,
    ("offline.service_worker", "GET"): EVERYONE,
    ("offline.manifest", "GET"): EVERYONE,
    ("offline.page", "GET"): EVERYONE,
    ("offline.token", "GET"): ANY_SIGNED_IN,  # the account's own (tests/integration/test_offline)
    ("offline.copy", "GET"): ANY_SIGNED_IN,
    ("offline.finder", "GET"): ANY_SIGNED_IN,  # a shipped policy's search words (an uploaded one's: event_finder)
    ("offline.changed", "GET"): ANY_SIGNED_IN,  # when the staffed events last changed (tests/integration/test_offline)
    # a table's call link needs no account, and the link is the credential: the matrix's made-up signature is "not
    # found" for everyone (real links, closed events and limits: tests/integration/test_calls.py)
    ("calls.table", "GET"): {r: 404 for r in ROLES},
    ("calls.table", "POST"): {r: 404 for r in ROLES},
    ("calls.division_table", "GET"): {r: 404 for r in ROLES},  # a division's table link: the same, signed with it
    ("calls.division_table", "POST"): {r: 404 for r in ROLES},
    ("calls.waiting", "GET"): ANY_SIGNED_IN,
    # a staff invitation is answered by the invited account alone: one that is not theirs is "not found" for everyone
    # (the invited person's own answers, and the states: tests/integration/test_account_findings.py)
    ("events.answer_invitation", "POST"): {r: 404 for r in ROLES if r != "signed_out"} | {"signed_out": LOGIN},
    # the judge's guide (judgeapp/help): any account; the player's guide to the call page, anyone
    ("help.index", "GET"): ANY_SIGNED_IN,
    ("help.guide", "GET"): ANY_SIGNED_IN,
    ("help.player", "GET"): EVERYONE,
}
PUBLIC = {"static"}

# Which record a route's URL names, so the route is tried on a record in every state of its lifecycle.
RECORD_OF = {
    "incidents.show": "incident",
    "incidents.edit": "incident",
    "incidents.void": "incident",
    "incidents.note": "incident",
    "appeals.new": "incident",
    "investigations.accept": "incident",
    "investigations.decline": "incident",
    "appeals.show": "appeal",
    "appeals.delegate": "appeal",
    "appeals.seen": "appeal",
    "investigations.show": "investigation",
    "investigations.add_statement": "investigation",
    "investigations.new_link": "investigation",
    "investigations.revoke_link": "investigation",
    "investigations.write_up": "investigation",
    "investigations.report": "investigation",
    "deckchecks.show": "deck_check",
    "clock.void_extension": "extension",
    "events.end_round": "round",
    "calls.show": "call",
    "calls.take": "call",
    "calls.escalate": "call",
    "calls.close": "call",
    "events.job": "job",
    "events.job_status": "job",
}
# One tap changes the record with nothing but the CSRF token: after such a request succeeds the world is built again.
ONE_TAP = {
    "events.start_round",
    "events.import_step",  # applies the pending file
    "events.end_round",
    "events.join_as_scorekeeper",  # the organizer becomes the scorekeeper: their roles changed
    "investigations.accept",
    "appeals.seen",
    "appeals.delegate",
    "postevent.close",
    "auth.logout",
    "calls.take",
    "calls.escalate",
    "calls.close",
}


def build_world(app):
    """Users, two events, and at the event under test a record in each state: returns (users, args, records) where
    records[kind] is a list of (state, url arguments, whose record it is)."""
    from judgeapp.appeals import services as appeals
    from judgeapp.auth.services import create_user
    from judgeapp.clock import services as clock
    from judgeapp.deckchecks import services as deckchecks
    from judgeapp.events import player_services, round_services, staff_services
    from judgeapp.events import services as events
    from judgeapp.incidents import edit_services
    from judgeapp.incidents import services as incidents
    from judgeapp.investigations import services as investigations
    from judgeapp.models import Division, StaffAssignment, User, utcnow
    from judgeapp.models import Role as StaffRole

    with app.app_context():
        db.drop_all()
        db.create_all()
        limiter.reset()
        catalog = app.extensions[CATALOG_KEY]
        users = {}
        for role in ROLES[1:]:
            user = create_user(
                db.session,
                email=f"{role}@matrix.test",
                name=role,
                password=PASSWORD,
                organizer=role in ORGANIZER_ACCOUNTS,
            )
            db.session.flush()
            users[role] = (user.id, user.email)
        get = lambda role: db.session.get(User, users[role][0])  # noqa: E731
        data = dict(
            name="Matrix Open",
            date=utcnow().date(),
            venue="Hall",
            policy_id="bushiroad-afr",
            level=2,
            rounds=5,
            round_minutes=50,
            challenge_limit=None,
        )
        event = events.create_event(db.session, catalog, organizer=get("organizer"), data=events.EventData(**data))
        other = events.create_event(
            db.session,
            catalog,
            organizer=get("other_organizer"),
            data=events.EventData(**{**data, "name": "Other event"}),
        )
        db.session.flush()
        staff_services.assign_staff(
            db.session,
            actor=get("other_organizer"),
            event=other,
            email=users["other_event_judge"][1],
            name="",
            role=StaffRole.HEAD_JUDGE,
        )
        for role in ("floor_judge", "scorekeeper", "head_judge", "assistant_head_judge"):
            staff_services.assign_staff(
                db.session, actor=get("organizer"), event=event, email=users[role][1], name="", role=StaffRole(role)
            )
        floor, head = get("floor_judge"), get("head_judge")
        colleague = create_user(db.session, email="colleague@matrix.test", name="colleague", password=PASSWORD)
        db.session.flush()
        staff_services.assign_staff(
            db.session, actor=get("organizer"), event=event, email=colleague.email, name="", role=StaffRole.FLOOR_JUDGE
        )
        F, H = frozenset({Role.FLOOR_JUDGE}), frozenset({Role.HEAD_JUDGE})
        policy = catalog.policy(event.policy_id)
        first = round_services.start_round(db.session, actor=head, event=event, now=utcnow() - timedelta(hours=2))
        player = player_services.add_player(
            db.session, actor=floor, event=event, name="Matrix Player", player_code="M-1"
        )
        player_services.add_player(db.session, actor=floor, event=event, name="Matrix Opponent", player_code="M-2")
        db.session.flush()
        second = round_services.start_round(db.session, actor=head, event=event)  # round 1 ends: round 2 runs

        def log(key, rank="warning", code="3.5.2", actor=floor, roles=F):
            """An incident of a player of its own (no upgrade from the others)."""
            someone = player_services.add_player(
                db.session, actor=floor, event=event, name=f"Player {key}", player_code=f"M-{key}"
            )
            db.session.flush()
            return incidents.log_incident(
                db.session,
                policy,
                actor=actor,
                roles=roles,
                event=event,
                data=incidents.IncidentInput(
                    key=f"matrix-{key}-key-00001",
                    table_number=1,
                    infraction_code=code,
                    player_id=someone.id,
                    rank_id=rank,
                ),
            ).incident

        def appeal(incident, key):
            return appeals.file_appeal(
                db.session,
                actor=incident.judge,
                event=event,
                incident=incident,
                data=appeals.AppealInput(
                    f"matrix-appeal-{key}-0001", f"player:{incident.subjects[0].player_id}", "not me"
                ),
            )[0]

        def decided(incident, key, outcome, **kw):
            a = appeal(incident, key)
            appeals.decide(
                db.session,
                policy,
                actor=head,
                roles=H,
                event=event,
                appeal=a,
                data=appeals.Decision(outcome=outcome, reason="heard both players", **kw),
            )
            return a

        logged = log("logged")
        under_appeal = log("appealed")
        open_appeal = appeal(under_appeal, "open")
        delegated = log("delegated", actor=colleague)  # the proxy may not be the judge who ruled
        proxied = appeal(delegated, "proxied")
        appeals.delegate(db.session, actor=head, roles=H, event=event, appeal=proxied, proxy_id=floor.id)
        upheld_incident = log("upheld")
        upheld = decided(upheld_incident, "upheld", "upheld")
        overturned_incident = log("overturned")
        overturned = decided(overturned_incident, "overturned", "overturned")
        recommended = log("recommended", rank="disqualification", code="4.1")
        void = log("void")
        edit_services.void_incident(
            db.session, policy, actor=floor, roles=F, event=event, incident=void, reason="wrong table"
        )
        given_dq = log("given-dq", rank="disqualification", code="4.1", actor=head, roles=H)
        open_investigation = investigations.investigation_of_incident(db.session, given_dq)
        link, token = investigations.request_statement(
            db.session,
            actor=head,
            roles=H,
            event=event,
            investigation=open_investigation,
            author_name="Witness",
            author_role="witness",
        )
        final_dq = log("final-dq", rank="disqualification", code="4.1", actor=head, roles=H)
        final_investigation = investigations.investigation_of_incident(db.session, final_dq)
        final_link, _ = investigations.request_statement(
            db.session,
            actor=head,
            roles=H,
            event=event,
            investigation=final_investigation,
            author_name="Judge",
            author_role="judge",
        )
        investigations.finalize(
            db.session,
            policy,
            actor=head,
            roles=H,
            event=event,
            investigation=final_investigation,
            without_statement=True,  # only a link was asked for
            data=investigations.WriteUp(
                hj_infraction="4.1",
                hj_facts="seen",
                hj_assumptions="",
                hj_reasoning="clear",
                decision_infraction_code="4.1",
                revoke_prizes=True,
                revoke_standing=False,
                ejected=False,
                summary="disqualified",
            ),
        )
        running_check, _ = deckchecks.start_deck_check(
            db.session,
            actor=floor,
            event=event,
            data=deckchecks.DeckCheckInput(key="matrix-deck-check-key-1", table_number=1, player_texts=["M-1"]),
        )
        ended_check, _ = deckchecks.start_deck_check(
            db.session,
            actor=floor,
            event=event,
            data=deckchecks.DeckCheckInput(key="matrix-deck-check-key-2", table_number=2, player_texts=["M-2"]),
        )
        deckchecks.end_deck_check(
            db.session,
            policy,
            actor=floor,
            event=event,
            dc=ended_check,
            result="matches",
            notes="",
            minutes=0,
            adjust_reason="no time lost",
        )
        ext, _ = clock.add_extension(
            db.session,
            policy,
            actor=floor,
            event=event,
            data=clock.ExtensionInput(key="matrix-extension-key-01", reason="other", table_number=1, minutes=3),
        )
        heads_ext, _ = clock.add_extension(
            db.session,
            policy,
            actor=head,
            event=event,
            data=clock.ExtensionInput(key="matrix-extension-key-02", reason="other", table_number=2, minutes=2),
        )
        from judgeapp.events import imports

        upload = imports.receive(
            db.session,
            actor=get("organizer"),
            event=event,
            data=b"name,player id\nMatrix Player,M-1\n",
            filename="m.csv",
        )
        from judgeapp import jobs

        floors_job = jobs.submit(db.session, "test.count", actor=floor, event=event, payload={})
        heads_job = jobs.submit(db.session, "test.count", actor=head, event=event, payload={})
        from judgeapp.calls import services as calls

        def call(table, *steps):
            made, _ = calls.raise_call(db.session, event=event, table=table, reason="dispute", note="")
            for step, actor, roles in steps:
                getattr(calls, step)(db.session, actor=actor, roles=roles, event=event, call=made)
            return made

        waiting_call = call(11)
        floors_call = call(12, ("take", floor, F))
        colleagues_call = call(13, ("take", colleague, F))
        handed_call = call(14, ("take", floor, F), ("escalate", floor, F))
        closed_call = call(15, ("take", floor, F), ("close", floor, F))
        from tests.security.conftest import finished_renders

        rendered = finished_renders(event)  # a kept QR sheet and report PDF, for their download routes
        db.session.commit()
        assignment_id = db.session.scalar(select(StaffAssignment.id).where(StaffAssignment.event_id == event.id))
        args = {
            "event_id": event.id,
            "other_event_id": other.id,
            "assignment_id": assignment_id,
            "policy_id": "bushiroad-afr",
            "kind": "incidents",
            "player_id": player.id,
            "number": logged.number,
            "deck_check_id": running_check.id,
            "extension_id": ext.id,
            "request_id": link.id,
            "token": token,
            "upload_id": upload.id,
            "table": 11,
            "sig": "made-up-signature",
            "division_id": db.session.scalar(select(Division.id).where(Division.event_id == event.id)),
            **rendered,
            "invitation_id": 999999,
            "answer": "accept",
            "guide": "floor-judge",
        }
        # (state, url arguments, the test users it is "own" for, the test users it makes proxy)
        records = {
            "incident": [
                (IncidentState.LOGGED, {"number": logged.number}, {"floor_judge"}, set()),
                (IncidentState.UNDER_APPEAL, {"number": under_appeal.number}, {"floor_judge"}, set()),
                (IncidentState.DECIDED, {"number": upheld_incident.number}, {"floor_judge"}, set()),
                (IncidentState.OVERTURNED, {"number": overturned_incident.number}, {"floor_judge"}, set()),
                (IncidentState.RECOMMENDED, {"number": recommended.number}, {"floor_judge"}, set()),
                (IncidentState.VOID, {"number": void.number}, {"floor_judge"}, set()),
            ],
            "appeal": [
                (AppealState.OPEN, {"number": open_appeal.number}, {"floor_judge"}, set()),
                (AppealState.OPEN, {"number": proxied.number}, set(), {"floor_judge"}),
                (AppealState.UPHELD, {"number": upheld.number}, {"floor_judge"}, set()),
                (AppealState.OVERTURNED, {"number": overturned.number}, {"floor_judge"}, set()),
            ],
            "investigation": [
                (InvestigationState.OPEN, {"number": open_investigation.number, "request_id": link.id}, set(), set()),
                (
                    InvestigationState.FINALIZED,
                    {"number": final_investigation.number, "request_id": final_link.id},
                    set(),
                    set(),
                ),
            ],
            "deck_check": [
                (DeckCheckState.IN_PROGRESS, {"deck_check_id": running_check.id}, {"floor_judge"}, set()),
                (DeckCheckState.MATCHES, {"deck_check_id": ended_check.id}, {"floor_judge"}, set()),
            ],
            "extension": [
                (None, {"extension_id": ext.id}, {"floor_judge"}, set()),
                (None, {"extension_id": heads_ext.id}, {"head_judge"}, set()),
            ],
            "round": [
                (RoundState.ENDED, {"number": first.number}, set(), set()),
                (RoundState.RUNNING, {"number": second.number}, set(), set()),
            ],
            "job": [
                (None, {"job_id": floors_job.id}, {"floor_judge"}, set()),
                (None, {"job_id": heads_job.id}, {"head_judge"}, set()),
            ],
            "call": [
                (CallState.OPEN, {"number": waiting_call.number}, set(), set()),
                (CallState.TAKEN, {"number": floors_call.number}, {"floor_judge"}, set()),
                (CallState.TAKEN, {"number": colleagues_call.number}, set(), set()),
                (CallState.ESCALATED, {"number": handed_call.number}, {"floor_judge"}, set()),
                (CallState.CLOSED, {"number": closed_call.number}, {"floor_judge"}, set()),
            ],
        }
        return users, args, records


def close_event(app, event_id):
    """The event closed as the organizer would, once nothing blocks it (set directly: the world has open records)."""
    from judgeapp.models import Event, utcnow

    with app.app_context():
        event = db.session.get(Event, event_id)
        event.closed_at, event.closed_by_id = utcnow(), event.organizer_id
        db.session.commit()


# Allowed by the table, then refused by the service for a reason of the world's: the open event has open appeals and
# investigations, so closing it answers 409 with the list of what blocks it (tests/integration/test_postevent); the
# closed one answers "already closed".
REFUSED_FOR_THE_WORLD = {("postevent.close", "POST"): CONFLICT}
# Refused by the table, answered by the service: "I'll take it" on a call one already holds is a resent tap (the
# phone's outbox sends again after a lost answer), so it is answered as the first one was, changing nothing.
ANSWERED_AGAIN = {("calls.take", "POST", CallState.TAKEN)}


def expected(app, endpoint, method, role, state=None, own=False, proxy=False, closed=False, on_record=False):
    """What the permission table says the answer to this request is."""
    view = app.view_functions[endpoint]
    if (endpoint, method) in NOT_EVENT_ROUTES:
        return NOT_EVENT_ROUTES[endpoint, method][role]
    if role == "signed_out":
        return LOGIN
    action = view.actions["GET" if method == "GET" else "POST"]
    account_route = endpoint in ("events.create", "postevent.player_history")
    holds = ({Role.ORGANIZER} if role in ORGANIZER_ACCOUNTS else set()) if account_route else HOLDS[role]
    if proxy:
        holds = holds | {Role.PROXY}
    if (endpoint, method, state) in ANSWERED_AGAIN and own and not closed and holds & roles_of(view, method):
        return OK
    decision = decide(
        action,
        frozenset(holds),
        state=state,
        own=own,
        on_record=on_record,
        event_closed=closed and not account_route,
        opening_form=method == "GET",
    )
    if decision.allowed:
        return OK if closed else REFUSED_FOR_THE_WORLD.get((endpoint, method), OK)
    return decision.status


def roles_of(view, method):
    """The roles the table grants the route's action at all."""
    from judgeapp.permissions import TABLE

    return TABLE[view.actions["GET" if method == "GET" else "POST"]].roles()


def classify(response):
    if response.status_code == 401:  # a JSON answer for the phone: sign in first
        return LOGIN
    if response.status_code in (403, 404, 409):
        return response.status_code
    if response.status_code == 302 and "/login" in response.headers["Location"]:
        return LOGIN
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    return OK


def routes(app):
    return sorted(
        (
            (rule.endpoint, m, rule)
            for rule in app.url_map.iter_rules()
            if rule.endpoint not in PUBLIC
            for m in rule.methods - {"HEAD", "OPTIONS"}
        ),
        key=lambda r: (r[0], r[1]),
    )


def test_every_route_declares_its_action_or_is_listed_as_no_event_s(app):
    undeclared = {
        (endpoint, method)
        for endpoint, method, _ in routes(app)
        if not hasattr(app.view_functions[endpoint], "actions") and (endpoint, method) not in NOT_EVENT_ROUTES
    }
    assert undeclared == set(), "give these routes an action in judgeapp/permissions.py (event_route/account_route)"
    assert set(NOT_EVENT_ROUTES) - {(e, m) for e, m, _ in routes(app)} == set(), "rows for routes that are gone"


class Sessions:
    """Each role's signed-in session (its cookie and CSRF token), made once per world: every request gets a fresh
    client holding only that cookie, so nothing one route does leaks into the next."""

    def __init__(self, app, users):
        self.app, self.users, self.held = app, users, {}

    def client(self, role):
        client = self.app.test_client()
        if role not in self.held:
            token_page = "/login" if role == "signed_out" else "/account/password"
            if role != "signed_out":
                assert login(client, self.users[role][1]).status_code == 302
            token = csrf_token(client, token_page)  # the session cookie keeps the token's secret: read it after
            self.held[role] = (client.get_cookie(self.app.config["SESSION_COOKIE_NAME"]), token)
        cookie, token = self.held[role]
        if cookie is not None:
            client.set_cookie(cookie.key, cookie.value)
        return client, token

    def request(self, role, method, url, endpoint):
        client, token = self.client(role)
        response = client.get(url) if method == "GET" else client.post(url, data={"csrf_token": token})
        if endpoint == "auth.logout":
            self.held.pop(role, None)  # that session has ended
        return response


@pytest.mark.parametrize("closed", [False, True], ids=["open event", "closed event"])
def test_every_route_answers_every_role_in_every_state_as_the_table_says(app, closed):
    users, args, records = build_world(app)
    sessions = Sessions(app, users)
    if closed:
        close_event(app, args["event_id"])
    wrong, tried = [], 0
    for endpoint, method, rule in routes(app):
        kind = RECORD_OF.get(endpoint)
        cases = records[kind] if kind else [(None, {}, set(), set())]
        for state, overrides, owners, proxies in cases:
            for role in ROLES:
                want = expected(
                    app,
                    endpoint,
                    method,
                    role,
                    state,
                    own=role in owners,
                    proxy=role in proxies,
                    closed=closed,
                    on_record=kind is not None,
                )
                url = url_of(app, rule, args, **overrides)
                got = classify(sessions.request(role, method, url, endpoint))
                tried += 1
                if got != want:
                    wrong.append(
                        f"{role:17} {method:4} {url:48} {getattr(state, 'value', ''):13} expected {want}, got {got}"
                    )
                if got == OK and method == "POST" and endpoint in ONE_TAP:
                    users, args, records = build_world(app)  # that tap changed the world: build it again
                    sessions = Sessions(app, users)
                    if closed:
                        close_event(app, args["event_id"])
    assert not wrong, f"\n{len(wrong)} of {tried} answers differ from the table:\n" + "\n".join(wrong)
