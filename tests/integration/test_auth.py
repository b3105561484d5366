"""Accounts: login, server-side sessions, logout, password change, rate limits, CSRF."""

from sqlalchemy import func, select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, UserSession
from tests.conftest import PASSWORD, csrf_token, login, post_form


def test_login_page_has_email_password_and_log_in_button(client):
    html = client.get("/login").get_data(as_text=True)
    assert '<label for="email">Email' in html and '<label for="password">Password' in html
    assert 'value="Log in"' in html


def test_signed_in_judge_sees_their_event_list(client, make_user, make_event, give_role):
    uid, email = make_user(name="Fatima Floor")
    event_id = make_event(name="Spring Regional")
    give_role(event_id, uid, "floor_judge")
    make_event(name="Someone Else's Open")
    response = login(client, email)
    assert response.status_code == 302 and response.headers["Location"] == "/"
    html = client.get("/").get_data(as_text=True)
    assert "Spring Regional" in html and "Someone Else" not in html


def test_wrong_password_and_unknown_email_get_the_same_answer(client, make_user):
    _, email = make_user()
    wrong = login(client, email, "not-the-password")
    unknown = login(client, "nobody@example.test", "not-the-password")
    assert wrong.status_code == unknown.status_code == 401
    assert "Email or password is wrong." in wrong.get_data(as_text=True)
    assert "Email or password is wrong." in unknown.get_data(as_text=True)
    assert f'value="{email}"' in wrong.get_data(as_text=True)  # the email typed is kept


def test_passwords_are_stored_hashed_with_scrypt_by_default(app, make_user, client):
    from judgeapp.models import User

    app.config["JUDGEAPP_PASSWORD_HASH"] = None  # what a deployment has (the other tests use a cheap hash)
    uid, email = make_user()
    with app.app_context():
        stored = db.session.get(User, uid).password_hash
    assert PASSWORD not in stored and stored.startswith("scrypt:")
    assert login(client, email).status_code == 302


def test_session_cookie_copied_before_logout_no_longer_works(app, client, make_user):
    _, email = make_user()
    login(client, email)
    stolen = client.get_cookie("session").value
    assert client.get("/").status_code == 200
    post_form(client, "/logout", {}, form_page="/")
    thief = app.test_client()
    thief.set_cookie("session", stolen)
    response = thief.get("/")
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def test_changing_password_ends_other_sessions_but_keeps_this_one(app, client, make_user):
    _, email = make_user()
    other = app.test_client()
    login(other, email)
    login(client, email)
    response = post_form(
        client,
        "/account/password",
        {"current_password": PASSWORD, "new_password": "a-new-long-password", "confirm": "a-new-long-password"},
    )
    assert response.status_code == 302
    assert client.get("/").status_code == 200
    assert other.get("/").status_code == 302
    assert login(app.test_client(), email, PASSWORD).status_code == 401
    assert login(app.test_client(), email, "a-new-long-password").status_code == 302


def test_wrong_current_password_is_reported_at_the_field(client, make_user):
    _, email = make_user()
    login(client, email)
    response = post_form(
        client,
        "/account/password",
        {"current_password": "nope", "new_password": "a-new-long-password", "confirm": "a-new-long-password"},
    )
    assert response.status_code == 200
    assert 'id="current_password-error"' in response.get_data(as_text=True)


def test_login_is_rate_limited_per_account_even_from_many_addresses(app, make_user):
    _, email = make_user()
    app.config["LOGIN_LIMIT_PER_ACCOUNT"] = "3 per 15 minutes"
    codes = []
    for n in range(5):
        c = app.test_client()
        codes.append(
            login(
                c,
                email,
                "wrong-password",
            ).status_code
            if n < 4
            else post_form(
                c, "/login", {"email": email, "password": PASSWORD}, environ_base={"REMOTE_ADDR": f"10.0.0.{n}"}
            ).status_code
        )
    assert codes[:3] == [401, 401, 401]
    assert codes[3:] == [429, 429]  # even the right password waits once the account is locked


def test_login_rate_limit_page_is_readable(app, make_user):
    app.config["LOGIN_LIMIT_PER_ADDRESS"] = "1 per 15 minutes"
    c = app.test_client()
    login(c, "a@example.test", "x")
    response = login(c, "b@example.test", "x")
    assert response.status_code == 429 and "Too many attempts" in response.get_data(as_text=True)


def test_successful_logins_do_not_count_towards_the_limit(app, make_user):
    _, email = make_user()
    app.config["LOGIN_LIMIT_PER_ACCOUNT"] = "2 per 15 minutes"
    assert all(login(app.test_client(), email).status_code == 302 for _ in range(4))


def test_post_without_csrf_token_is_refused_with_a_readable_page(client, make_user):
    _, email = make_user()
    response = client.post("/login", data={"email": email, "password": PASSWORD})
    assert response.status_code == 400
    assert "security token" in response.get_data(as_text=True)


def test_csrf_token_of_a_form_left_open_for_hours_still_works(app, client, make_user):
    _, email = make_user()
    token = csrf_token(client, "/login")
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None
    assert client.post("/login", data={"csrf_token": token, "email": email, "password": PASSWORD}).status_code == 302


def test_next_parameter_cannot_send_the_user_to_another_site(client, make_user):
    _, email = make_user()
    token = csrf_token(client, "/login")
    response = client.post(
        "/login?next=//evil.example/", data={"csrf_token": token, "email": email, "password": PASSWORD}
    )
    assert response.headers["Location"] == "/"


def test_login_and_logout_write_audit_entries_and_session_rows(app, client, make_user):
    _, email = make_user()
    login(client, email)
    post_form(client, "/logout", {}, form_page="/")
    with app.app_context():
        actions = db.session.scalars(select(AuditEntry.action).order_by(AuditEntry.id)).all()
        ended = db.session.scalar(
            select(func.count()).select_from(UserSession).where(UserSession.ended_at.is_not(None))
        )
    assert actions[-2:] == ["session.start", "session.end"] and ended == 1


def test_pages_forbid_framing_and_foreign_scripts(client):
    headers = client.get("/login").headers
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "script-src 'self'" in headers["Content-Security-Policy"]


def test_session_cookie_is_httponly_and_samesite_lax(client, make_user):
    _, email = make_user()
    response = login(client, email)
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
