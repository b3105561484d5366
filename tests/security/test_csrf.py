"""Every state-changing route refuses a request without judgeapp's CSRF token, and writes nothing."""

from sqlalchemy import func, select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry
from tests.conftest import csrf_token, login
from tests.security.conftest import post_routes, url_of


def audit_rows(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(AuditEntry))


def tampered(token: str) -> str:
    """The token with one character of its signature changed. Not its last two: base64's last character carries
    unused bits, so a change there can decode to the same signature and the "tampered" token passes."""
    i = len(token) - 10
    return token[:i] + ("A" if token[i] != "A" else "B") + token[i + 1 :]


def test_every_post_route_refuses_a_missing_or_wrong_csrf_token_and_changes_nothing(app, world):
    users, args = world
    client = app.test_client()
    assert login(client, users["head_judge"][1]).status_code == 302
    real = csrf_token(client, "/account/password")
    other = app.test_client()  # a valid token, but of someone else's session
    login(other, users["organizer"][1])
    foreign = csrf_token(other, "/account/password")
    before = audit_rows(app)
    routes = post_routes(app)
    assert len(routes) > 30
    wrong = []
    for rule in routes:
        url = url_of(app, rule, args)
        for label, data in [
            ("missing", {}),
            ("garbage", {"csrf_token": "x" * 40}),
            ("another session's", {"csrf_token": foreign}),
            ("tampered", {"csrf_token": tampered(real)}),
        ]:
            response = client.post(url, data={**data, "reason": "csrf test", "text": "csrf test"})
            if response.status_code != 400 or "security token" not in response.get_data(as_text=True):
                wrong.append(f"{url} with {label} token: {response.status_code}")
    assert not wrong, "\n".join(wrong)
    assert audit_rows(app) == before, "a refused request wrote something"


def test_the_login_form_and_the_public_statement_link_also_need_the_token(app, world):
    _, args = world
    client = app.test_client()
    assert client.post("/login", data={"email": "x@example.test", "password": "x"}).status_code == 400
    assert client.post(f"/statement/{args['token']}", data={"text": "I saw it"}).status_code == 400


def test_a_token_from_a_get_sent_back_by_another_site_is_useless_without_the_session_cookie(app, world):
    users, _ = world
    client = app.test_client()
    login(client, users["organizer"][1])
    token = csrf_token(client, "/account/password")
    stranger = app.test_client()  # another browser: the token alone, no session cookie
    response = stranger.post("/login", data={"csrf_token": token, "email": users["organizer"][1], "password": "x"})
    assert response.status_code == 400
