"""Every route × every role, with the status designed for it. A new route without a row here fails."""
import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import StaffAssignment
from tests.conftest import csrf_token, login

ROLES = ["signed_out", "no_role", "other_organizer", "floor_judge", "scorekeeper", "head_judge", "organizer"]
OK, LOGIN, FORBIDDEN = "ok", "login", 403
STAFF = {"floor_judge": OK, "scorekeeper": OK, "head_judge": OK, "organizer": OK}
NOT_STAFF = {"signed_out": LOGIN, "no_role": FORBIDDEN, "other_organizer": FORBIDDEN}  # no role at this event
ANY_SIGNED_IN = {r: OK for r in ROLES if r != "signed_out"} | {"signed_out": LOGIN}


def only(*allowed):
    """Staff in `allowed` pass, other staff and outsiders get 403, signed-out users the login page."""
    return NOT_STAFF | {r: (OK if r in allowed else FORBIDDEN) for r in STAFF}


# (endpoint, method): expected per role
MATRIX = {
    ("auth.login", "GET"): {r: OK for r in ROLES},
    ("auth.login", "POST"): {r: OK for r in ROLES},
    ("auth.logout", "POST"): {r: LOGIN for r in ROLES},  # signed in: logged out and sent to the login page
    ("auth.change_password", "GET"): ANY_SIGNED_IN,
    ("auth.change_password", "POST"): ANY_SIGNED_IN,
    ("events.index", "GET"): ANY_SIGNED_IN,
    ("events.create", "GET"): {**{r: FORBIDDEN for r in ROLES}, "signed_out": LOGIN, "organizer": OK, "other_organizer": OK},
    ("events.create", "POST"): {**{r: FORBIDDEN for r in ROLES}, "signed_out": LOGIN, "organizer": OK, "other_organizer": OK},
    ("events.show", "GET"): NOT_STAFF | STAFF,
    ("events.settings", "GET"): only("organizer"),
    ("events.settings", "POST"): only("organizer"),
    ("events.staff", "GET"): only("organizer"),
    ("events.staff", "POST"): only("organizer"),
    ("events.end_staff", "POST"): only("organizer"),
    ("events.players", "GET"): NOT_STAFF | STAFF,
    ("events.players", "POST"): only("organizer", "head_judge", "scorekeeper"),
    ("events.import_players", "POST"): only("organizer", "head_judge", "scorekeeper"),
    ("events.start_round", "POST"): only("head_judge", "scorekeeper"),
    ("events.pairings", "GET"): only("head_judge", "scorekeeper"),
    ("events.pairings", "POST"): only("head_judge", "scorekeeper"),
    ("incidents.start_call", "GET"): only("floor_judge", "head_judge"),
    ("incidents.new", "GET"): only("floor_judge", "head_judge"),
    ("incidents.new", "POST"): only("floor_judge", "head_judge"),
    ("incidents.suggest", "GET"): only("floor_judge", "head_judge"),
    ("incidents.index", "GET"): NOT_STAFF | STAFF,
    ("incidents.show", "GET"): NOT_STAFF | STAFF,
    ("incidents.edit", "GET"): only("floor_judge", "head_judge"),  # the floor judge logged it
    ("incidents.edit", "POST"): only("floor_judge", "head_judge"),
    ("incidents.void", "POST"): only("floor_judge", "head_judge"),
    ("incidents.player", "GET"): NOT_STAFF | STAFF,
    ("incidents.feed", "GET"): only("head_judge"),
    ("incidents.new_extension", "GET"): only("floor_judge", "head_judge"),
    ("incidents.new_extension", "POST"): only("floor_judge", "head_judge"),
    ("incidents.void_extension", "POST"): only("floor_judge", "head_judge"),
    ("incidents.clock", "GET"): NOT_STAFF | STAFF,
    ("incidents.deck_checks", "GET"): NOT_STAFF | STAFF,
    ("incidents.new_deck_check", "GET"): only("floor_judge", "head_judge"),
    ("incidents.new_deck_check", "POST"): only("floor_judge", "head_judge"),
    ("incidents.deck_check", "GET"): NOT_STAFF | STAFF,
    ("incidents.deck_check", "POST"): only("floor_judge", "head_judge"),
    ("appeals.new", "GET"): only("floor_judge", "head_judge"),
    ("appeals.new", "POST"): only("floor_judge", "head_judge"),
    ("appeals.index", "GET"): only("floor_judge", "head_judge", "organizer"),
    ("appeals.show", "GET"): only("floor_judge", "head_judge", "organizer"),
    ("appeals.show", "POST"): only("head_judge"),  # or the proxy of that one appeal
    ("appeals.delegate", "POST"): only("head_judge"),
    ("appeals.seen", "POST"): only("floor_judge"),  # the judge whose ruling was appealed
    ("appeals.waiting", "GET"): ANY_SIGNED_IN,
    ("investigations.accept", "POST"): only("head_judge"),
    ("investigations.decline", "POST"): only("head_judge"),
    ("investigations.index", "GET"): only("head_judge", "organizer"),
    ("investigations.show", "GET"): only("head_judge", "organizer"),
    ("investigations.report", "GET"): only("head_judge", "organizer"),
    ("investigations.add_statement", "POST"): only("head_judge"),
    ("investigations.new_link", "POST"): only("head_judge"),
    ("investigations.revoke_link", "POST"): only("head_judge"),
    ("investigations.write_up", "POST"): only("head_judge"),
    ("investigations.public_statement", "GET"): {r: OK for r in ROLES},  # the one-time link needs no account
    ("investigations.public_statement", "POST"): {r: OK for r in ROLES},
    ("postevent.close", "GET"): only("organizer"),
    ("postevent.close", "POST"): only("organizer"),  # refused (409) while the appeal is open, but allowed to ask
    ("postevent.reopen", "POST"): only("organizer"),
    ("postevent.report", "GET"): only("head_judge", "organizer"),
    ("postevent.report_pdf", "GET"): only("head_judge", "organizer"),
    ("postevent.export", "GET"): only("head_judge", "organizer"),
    ("postevent.player_history", "GET"): {**{r: FORBIDDEN for r in ROLES}, "signed_out": LOGIN, "organizer": OK,
                                          "other_organizer": OK},
    ("reference.index", "GET"): ANY_SIGNED_IN,
    ("reference.policy", "GET"): ANY_SIGNED_IN,
}
PUBLIC = {"static"}


@pytest.fixture
def world(app, make_user, make_event, give_role):
    users = {}
    for role in ROLES[1:]:
        users[role] = make_user(organizer=role in ("organizer", "other_organizer"), name=role)
    event_id = make_event(users["organizer"][0])
    make_event(users["other_organizer"][0], name="Other event")
    for role in ("floor_judge", "scorekeeper", "head_judge"):
        give_role(event_id, users[role][0], role)
    with app.app_context():
        assignment_id = db.session.scalar(select(StaffAssignment.id).where(StaffAssignment.event_id == event_id))
        objects = floor_objects(app, event_id, users["floor_judge"][0], users["head_judge"][0])
    args = {"event_id": event_id, "assignment_id": assignment_id, "policy_id": "bushiroad-afr", "kind": "incidents",
            **objects}
    return users, args


def floor_objects(app, event_id, floor_id, head_id):
    """A round, a player, an incident, a time extension and a deck check, made by the floor judge; an appeal of the
    incident; a disqualification given by the head judge, with its investigation and a one-time statement link."""
    from judgeapp.events.services import add_player, start_round
    from judgeapp.extensions import CATALOG_KEY
    from judgeapp.appeals import services as appeals
    from judgeapp.incidents import deckchecks, services, timekeeping
    from judgeapp.investigations import services as investigations
    from judgeapp.models import Event, User

    event, floor = db.session.get(Event, event_id), db.session.get(User, floor_id)
    policy = app.extensions[CATALOG_KEY].policy(event.policy_id)
    start_round(db.session, actor=db.session.get(User, head_id), event=event)
    player = add_player(db.session, actor=floor, event=event, name="Matrix Player", player_code="M-1")
    add_player(db.session, actor=floor, event=event, name="Matrix Opponent", player_code="M-2")
    db.session.flush()
    roles = frozenset({"floor_judge"})
    logged = services.log_incident(db.session, policy, actor=floor, roles=roles, event=event, data=services.IncidentInput(
        key="matrix-incident-key-0001", infraction_code="3.5.2", table_number=1, player_id=player.id, rank_id="warning"))
    ext, _ = timekeeping.add_extension(db.session, policy, actor=floor, event=event, data=timekeeping.ExtensionInput(
        key="matrix-extension-key-01", reason="other", table_number=1, minutes=3))
    dc, _ = deckchecks.start_deck_check(db.session, actor=floor, event=event, data=deckchecks.DeckCheckInput(
        key="matrix-deck-check-key-1", table_number=1, player_texts=["M-1"]))
    appeal, _ = appeals.file_appeal(db.session, actor=floor, event=event, incident=logged.incident,
                                    data=appeals.AppealInput("matrix-appeal-key-0001", f"player:{player.id}", "not me"))
    head = db.session.get(User, head_id)
    dq = services.log_incident(db.session, policy, actor=head, roles=frozenset({"head_judge"}), event=event,
                               data=services.IncidentInput(key="matrix-incident-key-0002", infraction_code="4.1",
                                                           table_number=1, player_id=player.id,
                                                           rank_id="disqualification"))
    investigation = investigations.investigation_of_incident(db.session, dq.incident)
    link, token = investigations.request_statement(db.session, actor=head, roles=frozenset({"head_judge"}), event=event,
                                                   investigation=investigation, author_name="Witness",
                                                   author_role="witness")
    db.session.commit()
    assert appeal.number == investigation.number == logged.incident.number == 1  # one `number` argument serves all
    return {"number": logged.incident.number, "player_id": player.id, "extension_id": ext.id, "deck_check_id": dc.id,
            "request_id": link.id, "token": token}


def test_every_route_has_an_access_rule(app):
    routes = {(rule.endpoint, m) for rule in app.url_map.iter_rules() if rule.endpoint not in PUBLIC
              for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes - set(MATRIX) == set(), "add these routes to the access matrix"
    assert set(MATRIX) - routes == set(), "the matrix names routes that no longer exist"


def test_every_route_answers_every_role_as_designed(app, world):
    users, args = world
    rules = {rule.endpoint: rule for rule in app.url_map.iter_rules()}
    wrong = []
    for role in ROLES:
        for (endpoint, method), expected in MATRIX.items():
            client = app.test_client()  # fresh for each request: nothing one route does leaks into the next
            if role != "signed_out":
                assert login(client, users[role][1]).status_code == 302
            with app.test_request_context():
                from flask import url_for

                rule = rules[endpoint]
                url = url_for(endpoint, **{k: v for k, v in args.items() if k in rule.arguments})
            if method == "GET":
                response = client.get(url)
            else:
                token = csrf_token(client, "/login" if role == "signed_out" else "/account/password")
                response = client.post(url, data={"csrf_token": token})
            got = _classify(response)
            if got != expected[role]:
                wrong.append(f"{role:16} {method:4} {url:40} expected {expected[role]}, got {got} ({response.status_code})")
    assert not wrong, "\n" + "\n".join(wrong)


def _classify(response):
    if response.status_code in (403, 404):
        return response.status_code
    if response.status_code == 302 and "/login" in response.headers["Location"]:
        return LOGIN
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    return OK
