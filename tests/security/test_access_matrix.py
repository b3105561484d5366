"""Every route × every role, with the status designed for it. A new route without a row here fails."""
from tests.conftest import csrf_token, login
from tests.security.conftest import ROLES, url_of

OK, LOGIN, FORBIDDEN = "ok", "login", 403
STAFF = {"floor_judge": OK, "scorekeeper": OK, "head_judge": OK, "organizer": OK}
# no role at this event: signed out, an account with no event, the organizer and the head judge of another event
NOT_STAFF = {"signed_out": LOGIN, "no_role": FORBIDDEN, "other_organizer": FORBIDDEN, "other_event_judge": FORBIDDEN}
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
    ("clock.new_extension", "GET"): only("floor_judge", "head_judge"),
    ("clock.new_extension", "POST"): only("floor_judge", "head_judge"),
    ("clock.void_extension", "POST"): only("floor_judge", "head_judge"),
    ("clock.clock", "GET"): NOT_STAFF | STAFF,
    ("deckchecks.index", "GET"): NOT_STAFF | STAFF,
    ("deckchecks.new", "GET"): only("floor_judge", "head_judge"),
    ("deckchecks.new", "POST"): only("floor_judge", "head_judge"),
    ("deckchecks.show", "GET"): NOT_STAFF | STAFF,
    ("deckchecks.show", "POST"): only("floor_judge", "head_judge"),
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
    # the installable app's files: no data in them
    ("offline.service_worker", "GET"): {r: OK for r in ROLES},
    ("offline.manifest", "GET"): {r: OK for r in ROLES},
    ("offline.page", "GET"): {r: OK for r in ROLES},
    # the outbox's token and the phone's copy: the account's own (only events it judges; tests/integration/test_offline)
    ("offline.token", "GET"): ANY_SIGNED_IN,
    ("offline.copy", "GET"): ANY_SIGNED_IN,
}
PUBLIC = {"static"}


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
            url = url_of(app, rules[endpoint], args)
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
    if response.status_code == 401:  # a JSON answer for the phone: sign in first
        return LOGIN
    if response.status_code in (403, 404):
        return response.status_code
    if response.status_code == 302 and "/login" in response.headers["Location"]:
        return LOGIN
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    return OK
