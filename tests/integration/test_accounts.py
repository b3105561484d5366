"""Accounts without shared secrets: invites and resets by email (a real SMTP sink on loopback), one-time links,
per-account limits keyed on the normalised email, and a session cookie with nothing secret in it."""

import base64
import json
import logging
import re
import zlib
from datetime import timedelta

import pytest
from flask.sessions import SecureCookieSessionInterface
from sqlalchemy import func, select

from judgeapp.extensions import db
from judgeapp.models import AccountToken, AuditEntry, StaffAssignment, StaffInvitation, User, UserSession
from tests.conftest import ACCOUNT_LINK_RE, PASSWORD, Worker, app_config, login, post_form, run_jobs
from tests.integration.test_investigations import base, dq, post, send_statement  # noqa: F401 (dq: a fixture)

pytestmark = pytest.mark.db

NEW_PASSWORD = "a-password-of-my-own"


@pytest.fixture
def organizer(app, make_user, make_event):
    """An organizer signed in on their own client, with one event: (client, event_id)."""
    uid, email = make_user(organizer=True, name="Olivia Organizer")
    client = app.test_client()
    assert login(client, email).status_code == 302
    return client, make_event(uid, name="Winter Open")


def add_staff(client, event_id, email, name="", role="floor_judge"):
    return post_form(
        client, f"/events/{event_id}/staff", {"email": email, "name": name, "role": role}, follow_redirects=True
    )


def use_link(client, url, password=NEW_PASSWORD, **extra):
    """Send the link's form as a browser would; the CSRF token comes from the login page (a spent link has no form)."""
    return post_form(client, path_of(url), {"new_password": password, "confirm": password, **extra}, form_page="/login")


def path_of(url):
    return "/" + url.split("://", 1)[1].partition("/")[2]


def session_cookie_text(app, client) -> str:
    """What Flask's session cookie carries, decoded without the key (it is signed, not encrypted)."""
    cookie = client.get_cookie("session")
    if cookie is None:
        return ""
    payload = cookie.value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    if cookie.value.startswith("."):
        raw = zlib.decompress(raw)
    # and the same through Flask's own serializer, to be sure the decoding above read the real thing
    serializer = SecureCookieSessionInterface().get_signing_serializer(app)
    assert json.dumps(serializer.loads(cookie.value), default=str)
    return raw.decode()


def test_adding_a_new_judge_emails_an_invite_and_never_shows_the_organizer_a_password(app, organizer, mailbox):
    client, event_id = organizer
    response = add_staff(client, event_id, "Nina.New@Example.test", name="Nina New")
    html = response.get_data(as_text=True)
    assert "Nina New is invited as floor judge; we emailed them. The role is theirs once they accept." in html
    assert "first password" not in html.lower()
    [invite] = mailbox.to("nina.new@example.test")
    body = invite.get_body(("plain",)).get_content()
    assert invite["Subject"] == "Invitation: floor judge at Winter Open on judgeapp"
    url = ACCOUNT_LINK_RE.search(body).group(0)
    token = url.rsplit("/", 1)[1]
    assert token not in html and "/account/set-password/" not in html  # the organizer never sees the link
    with app.app_context():
        user = db.session.scalar(select(User).where(User.email == "nina.new@example.test"))
        stored = db.session.scalar(select(AccountToken).where(AccountToken.user_id == user.id))
        assert token not in stored.token_hash and len(stored.token_hash) == 64  # only the SHA-256
        assert user.password_hash.startswith("!")  # no password anyone knows, not even a random one shown once
        audit_text = json.dumps([e.details for e in db.session.scalars(select(AuditEntry))])
        assert token not in audit_text
    # nobody can log in before the judge chose a password: not with an empty one, not with the hash's marker
    assert login(app.test_client(), "nina.new@example.test", "!").status_code == 401
    judge = app.test_client()
    page = judge.get(path_of(url))
    assert page.status_code == 200 and "Choose your password" in page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"
    assert use_link(judge, url, name="Nina Newcomer").status_code == 302
    invited = judge.get("/").get_data(as_text=True)
    assert "Olivia Organizer invites you as floor judge at Winter Open" in invited  # not in the list until accepted
    accept = re.search(r'action="(/invitations/\d+/accept)"', invited).group(1)
    assert post_form(judge, accept, {}, form_page="/").status_code == 302
    assert f'href="/events/{event_id}"' in judge.get("/").get_data(as_text=True)
    assert login(app.test_client(), "nina.new@example.test", NEW_PASSWORD).status_code == 302
    with app.app_context():
        assert db.session.scalar(select(User.name).where(User.email == "nina.new@example.test")) == "Nina Newcomer"


def test_organizer_sees_the_same_message_for_new_and_existing_accounts(app, organizer, make_user, mailbox):
    client, event_id = organizer
    make_user("known@example.test", name="Kim Known")
    known = add_staff(client, event_id, "known@example.test", name="Whatever Name")
    unknown = add_staff(client, event_id, "unknown@example.test", name="Whatever Name")
    nameless = add_staff(client, event_id, "nameless@example.test")  # no name typed: no error that would tell
    messages = [
        re.search(r'role="status">([^<]*)<', r.get_data(as_text=True)).group(1).strip()
        for r in (known, unknown, nameless)
    ]
    assert messages == [
        f"{e} is invited as floor judge; we emailed them. The role is theirs once they accept."
        for e in ("Whatever Name", "Whatever Name", "nameless@example.test")
    ]
    assert known.status_code == unknown.status_code == nameless.status_code == 200
    # the existing account gets a notice (no link, its password unchanged); the new ones an invite
    [notice] = mailbox.to("known@example.test")
    assert "/account/set-password/" not in notice.get_body(("plain",)).get_content()
    assert ACCOUNT_LINK_RE.search(mailbox.to("unknown@example.test")[0].get_body(("plain",)).get_content())
    assert login(app.test_client(), "known@example.test", PASSWORD).status_code == 302
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(StaffInvitation)) == 3
        assert db.session.scalar(select(func.count()).select_from(StaffAssignment)) == 0  # none accepted yet


def test_an_invited_judge_added_to_a_second_event_gets_a_fresh_invite(app, organizer, make_user, make_event, mailbox):
    client, event_id = organizer
    add_staff(client, event_id, "slow@example.test", name="Sam Slow")
    other_uid, other_email = make_user(organizer=True)
    other = app.test_client()
    login(other, other_email)
    add_staff(other, make_event(other_uid, name="Summer Open"), "slow@example.test", role="head_judge")
    _first, second = mailbox.to("slow@example.test")
    assert ACCOUNT_LINK_RE.search(second.get_body(("plain",)).get_content())  # still no password: a link, not a notice


def test_invite_link_works_once(app, organizer, mailbox):
    client, event_id = organizer
    add_staff(client, event_id, "once@example.test", name="Olga Once")
    url = mailbox.link("once@example.test")
    assert use_link(app.test_client(), url).status_code == 302
    for method in ("get", "post"):
        again = app.test_client()
        response = again.get(path_of(url)) if method == "get" else use_link(again, url, "attacker-password")
        assert response.status_code == 410
        assert "already been used" in response.get_data(as_text=True)
    assert login(app.test_client(), "once@example.test", "attacker-password").status_code == 401
    assert login(app.test_client(), "once@example.test", NEW_PASSWORD).status_code == 302


def test_expired_link_is_refused_with_a_readable_page(app, organizer, mailbox):
    client, event_id = organizer
    add_staff(client, event_id, "late@example.test", name="Lee Late")
    url = mailbox.link("late@example.test")
    with app.app_context():
        row = db.session.scalar(select(AccountToken))
        assert timedelta(days=6, hours=23) < row.expires_at - row.created_at <= timedelta(days=7)
        row.expires_at = row.created_at - timedelta(seconds=1)
        db.session.commit()
    judge = app.test_client()
    page = judge.get(path_of(url))
    assert page.status_code == 410
    html = page.get_data(as_text=True)
    assert "This link no longer works" in html and "expired" in html and "Forgot password?" in html
    assert use_link(judge, url).status_code == 410
    assert login(app.test_client(), "late@example.test", NEW_PASSWORD).status_code == 401


def test_a_link_that_was_never_sent_gets_a_readable_404(client):
    for token in ("nonsense", "x" * 500):
        response = client.get(f"/account/set-password/{token}")
        assert response.status_code == 404 and "not a link we sent" in response.get_data(as_text=True)


def test_forgot_password_answers_the_same_for_unknown_email(app, make_user, mailbox, job_worker):
    make_user("real@example.test")
    answers = []
    for email in ("real@example.test", "nobody@example.test"):
        c = app.test_client()
        response = post_form(c, "/account/forgot", {"email": email})
        answers.append(
            (
                response.status_code,
                response.headers.get("Location"),
                c.get("/login").get_data(as_text=True).count("If an account uses this address"),
            )
        )
    assert answers[0] == answers[1] == (302, "/login", 1)
    run_jobs(job_worker)  # the mail is sent by the job worker, off the request
    assert len(mailbox.to("real@example.test")) == 1 and mailbox.to("nobody@example.test") == []
    assert "Forgot password?" in app.test_client().get("/login").get_data(as_text=True)


def test_using_a_reset_link_ends_the_other_sessions(app, make_user, mailbox, job_worker):
    _, email = make_user("judge@example.test")
    elsewhere = app.test_client()
    login(elsewhere, email)
    assert elsewhere.get("/").status_code == 200
    post_form(app.test_client(), "/account/forgot", {"email": "  JUDGE@example.test "})
    run_jobs(job_worker)
    url = mailbox.link(email)
    assert "(the link works once, for 1 hour):" in mailbox.to(email)[-1].get_body(("plain",)).get_content()
    browser = app.test_client()
    assert use_link(browser, url).status_code == 302
    assert browser.get("/").status_code == 200  # this browser is signed in
    assert elsewhere.get("/").status_code == 302  # the other session is over
    assert login(app.test_client(), email, PASSWORD).status_code == 401
    with app.app_context():
        open_sessions = db.session.scalar(
            select(func.count()).select_from(UserSession).where(UserSession.ended_at.is_(None))
        )
        assert open_sessions == 1
        assert (
            db.session.scalar(
                select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "user.password_set_by_link")
            )
            == 1
        )


def test_a_used_reset_link_spends_the_older_links_of_the_account(app, make_user, mailbox, job_worker):
    _, email = make_user()
    for _ in range(2):
        post_form(app.test_client(), "/account/forgot", {"email": email})
        run_jobs(job_worker)
    older, newer = (ACCOUNT_LINK_RE.search(m.get_body(("plain",)).get_content()).group(0) for m in mailbox.to(email))
    assert use_link(app.test_client(), newer).status_code == 302
    assert app.test_client().get(path_of(older)).status_code == 410


def test_reset_link_uses_the_configured_address_not_the_request_host(app, make_user, mailbox):
    _, email = make_user()
    app.config["JUDGEAPP_BASE_URL"] = "https://judge.example.org/app"
    worker = Worker(app)  # started after the setting, as a server's worker reads the same configuration
    c = app.test_client()
    form = c.get("/account/forgot", headers={"Host": "evil.example"}).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
    response = c.post("/account/forgot", data={"csrf_token": token, "email": email}, headers={"Host": "evil.example"})
    assert response.status_code == 302
    try:
        run_jobs(worker)
    finally:
        worker.stop()
    assert mailbox.link(email).startswith("https://judge.example.org/app/account/set-password/")


def test_forgot_password_form_is_rate_limited_per_email(app, make_user, mailbox, job_worker):
    _, email = make_user()
    codes = [
        post_form(
            app.test_client(), "/account/forgot", {"email": variant}, environ_base={"REMOTE_ADDR": f"10.1.0.{n}"}
        ).status_code
        for n, variant in enumerate([email, email.upper(), f" {email}\t", email + "\x00"])
    ]
    assert codes == [302, 302, 302, 429]
    run_jobs(job_worker)
    assert len(mailbox.to(email)) == 3


def test_reset_link_cli_prints_a_working_link(app, make_user):
    make_user("operator.help@example.test")
    app.config["JUDGEAPP_BASE_URL"] = "https://judges.example.org"
    result = app.test_cli_runner().invoke(args=["users", "reset-link", "Operator.Help@example.test"])
    assert result.exit_code == 0, result.output
    url = ACCOUNT_LINK_RE.search(result.output).group(0)
    assert url.startswith("https://judges.example.org/account/set-password/") and "60 minutes" in result.output
    browser = app.test_client()
    assert use_link(browser, url).status_code == 302 and browser.get("/").status_code == 200
    unknown = app.test_cli_runner().invoke(args=["users", "reset-link", "nobody@example.test"])
    assert unknown.exit_code != 0 and "No account uses" in unknown.output


def test_login_limit_counts_case_and_whitespace_variants_of_one_email_together(app, make_user):
    make_user("floor@x.test")
    app.config["LOGIN_LIMIT_PER_ACCOUNT"] = "4 per 15 minutes"
    variants = ["Floor@X.test", " floor@x.test\t", "floor@x.test\x00", "FLOOR@X.TEST\u200b"]
    codes = [
        post_form(
            app.test_client(),
            "/login",
            {"email": v, "password": "wrong-password"},
            environ_base={"REMOTE_ADDR": f"10.2.0.{n}"},
        ).status_code
        for n, v in enumerate(variants)
    ]
    assert codes == [401, 401, 401, 401]
    locked = post_form(
        app.test_client(),
        "/login",
        {"email": "floor@x.test", "password": PASSWORD},
        environ_base={"REMOTE_ADDR": "10.2.0.99"},
    )
    assert locked.status_code == 429


def test_login_error_is_the_same_for_an_unknown_email_a_wrong_password_and_an_invited_account(
    app, organizer, make_user, mailbox
):
    client, event_id = organizer
    add_staff(client, event_id, "invited@example.test", name="Ivy Invited")
    _, email = make_user()
    pages = [
        login(app.test_client(), e, "not-the-password") for e in (email, "nobody@example.test", "invited@example.test")
    ]
    assert {p.status_code for p in pages} == {401}
    assert all("Email or password is wrong." in p.get_data(as_text=True) for p in pages)


def test_password_change_page_locks_after_repeated_wrong_current_passwords(app, make_user):
    _, email = make_user()
    app.config["LOGIN_LIMIT_PER_ACCOUNT"] = "3 per 15 minutes"
    client = app.test_client()
    login(client, email)
    wrong = {"current_password": "guess", "new_password": "a-new-long-password", "confirm": "a-new-long-password"}
    codes = [post_form(client, "/account/password", wrong).status_code for _ in range(3)]
    right = dict(wrong, current_password=PASSWORD)
    assert codes == [200, 200, 200]
    assert post_form(client, "/account/password", right).status_code == 429
    # the same account's login is locked too: the guesses count against the account wherever they are made
    assert login(app.test_client(), email, PASSWORD).status_code == 429


def test_wrong_logins_and_wrong_current_passwords_share_one_limit(app, make_user):
    _, email = make_user()
    app.config["LOGIN_LIMIT_PER_ACCOUNT"] = "3 per 15 minutes"
    client = app.test_client()
    login(client, email)
    for n in range(2):
        post_form(
            app.test_client(),
            "/login",
            {"email": email, "password": "wrong"},
            environ_base={"REMOTE_ADDR": f"10.3.0.{n}"},
        )
    wrong = {"current_password": "guess", "new_password": "a-new-long-password", "confirm": "a-new-long-password"}
    assert post_form(client, "/account/password", wrong).status_code == 200
    assert post_form(client, "/account/password", wrong).status_code == 429


def test_session_cookie_holds_no_secret(app, organizer, mailbox, make_user, job_worker):
    client, event_id = organizer
    # login
    _, email = make_user("cookie@example.test")
    judge = app.test_client()
    login(judge, email)
    assert PASSWORD not in session_cookie_text(app, judge)
    # invite use
    add_staff(client, event_id, "fresh@example.test", name="Fay Fresh")
    invite = mailbox.link("fresh@example.test")
    newcomer = app.test_client()
    newcomer.get(path_of(invite))
    use_link(newcomer, invite)
    text = session_cookie_text(app, newcomer)
    assert text and NEW_PASSWORD not in text and invite.rsplit("/", 1)[1] not in text
    # reset
    post_form(app.test_client(), "/account/forgot", {"email": email})
    run_jobs(job_worker)
    reset = mailbox.link(email)
    resetter = app.test_client()
    resetter.get(path_of(reset))
    use_link(resetter, reset, password="another-long-password")
    text = session_cookie_text(app, resetter)
    assert text and "another-long-password" not in text and reset.rsplit("/", 1)[1] not in text
    for c in (client, judge, newcomer, resetter):
        text = session_cookie_text(app, c)
        assert PASSWORD not in text and NEW_PASSWORD not in text


def test_statement_link_waits_in_the_session_cookie_sealed_not_readable(app, dq):
    head = dq["head"]
    response = post(
        head, f"{base(dq)}/investigations/1/links", **{"link-author_name": "Eve Witness", "link-author_role": "witness"}
    )
    assert response.status_code == 302
    waiting = session_cookie_text(app, head)  # between the POST and the page that shows the link once
    page = head.get(response.headers["Location"]).get_data(as_text=True)
    token = re.search(r'href="http://127.0.0.1:5000/statement/([^"]+)"', page).group(1)
    assert token not in waiting and "judgeapp.new_statement_link" in waiting
    assert token not in session_cookie_text(app, head)
    assert (
        re.search(
            r'href="http://127.0.0.1:5000/statement/', head.get(f"{base(dq)}/investigations/1").get_data(as_text=True)
        )
        is None
    )  # shown once only
    visitor = app.test_client()
    assert send_statement(visitor, token, "I saw it.").status_code == 200
    assert token not in session_cookie_text(app, visitor)


def test_a_tampered_or_foreign_sealed_link_shows_no_link(app, dq):
    head = dq["head"]
    with head.session_transaction() as s:
        s["judgeapp.new_statement_link"] = {"request_id": 1, "sealed": "not-a-sealed-value"}
    page = head.get(f"{base(dq)}/investigations/1")
    assert page.status_code == 200 and "/statement/" not in page.get_data(as_text=True).split("<footer")[0]


def test_without_mail_server_the_invite_goes_to_the_server_log(tmp_path, caplog):
    from datetime import date

    from judgeapp import create_app
    from judgeapp.auth.services import create_user
    from judgeapp.events import services
    from judgeapp.extensions import limiter

    app = create_app(app_config(tmp_path))  # no MAIL_* settings: what `make run` has
    with app.app_context():
        db.drop_all()
        db.create_all()
        limiter.reset()
        org = create_user(db.session, email="org@example.test", name="Org", password=PASSWORD, organizer=True)
        event = services.create_event(
            db.session,
            app.extensions["judgeapp.catalog"],
            organizer=org,
            data=services.EventData(
                name="Log Open",
                date=date(2026, 12, 1),
                venue="Hall",
                policy_id="bushiroad-afr",
                level=2,
                rounds=5,
                round_minutes=50,
                challenge_limit=None,
            ),
        )
        db.session.commit()
        event_id = event.id
    client = app.test_client()
    login(client, "org@example.test")
    with caplog.at_level(logging.WARNING, logger="judgeapp.mail"):
        page = add_staff(client, event_id, "logged@example.test", name="Lou Logged").get_data(as_text=True)
    [record] = [r for r in caplog.records if r.name == "judgeapp.mail"]
    url = ACCOUNT_LINK_RE.search(record.getMessage()).group(0)
    assert "To: logged@example.test" in record.getMessage() and "was not sent" in record.getMessage()
    assert "we emailed them" in page and url not in page and "/account/set-password/" not in page
    assert use_link(app.test_client(), url).status_code == 302
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
