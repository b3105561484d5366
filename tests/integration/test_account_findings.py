"""Issue 32's account findings, each named after what it guards: staff invitations accepted before they count (and
issue 33's guard 9 on the staff form), lockouts that forged addresses cannot cause, forgot-password doing the same
work for every address, mail and log text on one line, reset links spent by a password change, and small leaks."""

import logging
import re
from datetime import timedelta

import pytest
from flask_mailman.backends.base import BaseEmailBackend
from flask_mailman.message import BadHeaderError
from sqlalchemy import select

from judgeapp import models  # models.StaffInvitation, models.Job: read at run time (the tests name today's gaps)
from judgeapp.extensions import db
from judgeapp.models import AccountToken, AuditEntry, Event, StaffAssignment, User, utcnow
from tests import conftest
from tests.conftest import ACCOUNT_LINK_RE, PASSWORD, app_config, login, post_form
from tests.integration.test_investigations import base, dq, post  # noqa: F401 (dq: a fixture)

pytestmark = pytest.mark.db


@pytest.fixture
def organizer(app, make_user, make_event):
    """An organizer signed in on their own client, with one event: (client, event_id)."""
    uid, email = make_user("olivia@example.test", organizer=True, name="Olivia Organizer")
    client = app.test_client()
    assert login(client, email).status_code == 302
    return client, make_event(uid, name="Winter Open")


def invite(client, event_id, email, name="", role="floor_judge", fields=None, **kwargs):
    data = {"email": email, "name": name, "role": role, **(fields or {})}
    return post_form(client, f"/events/{event_id}/staff", data, **kwargs)


def signed_in(app, email, password=PASSWORD):
    client = app.test_client()
    assert login(client, email, password).status_code == 302
    return client


def answer_url(page: str, answer: str) -> str:
    return re.search(rf'action="(/invitations/\d+/{answer})"', page).group(1)


def answer(client, answer_: str):
    return post_form(client, answer_url(client.get("/").get_data(as_text=True), answer_), {}, form_page="/")


def flash_of(response) -> str:
    return re.search(r'role="status">([^<]*)<', response.get_data(as_text=True)).group(1).strip()


def audit_actions(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(AuditEntry.action).order_by(AuditEntry.id)))


# ---- staff invitations ----------------------------------------------------------------------------------------------


def test_an_added_account_is_not_staff_until_it_accepts_the_invitation(app, organizer, make_user, mailbox):
    client, event_id = organizer
    make_user("kim@example.test", name="Kim Known")
    assert invite(client, event_id, "kim@example.test", name="Kim").status_code == 302
    judge = signed_in(app, "kim@example.test")
    home = judge.get("/").get_data(as_text=True)
    assert "Olivia Organizer invites you as floor judge at Winter Open" in home
    assert f'href="/events/{event_id}"' not in home  # not in their list
    assert judge.get(f"/events/{event_id}").status_code == 403  # no role: no event page, no calls, no feed
    assert judge.get(f"/events/{event_id}/calls").status_code == 403
    assert judge.get("/offline/copy.json").get_json()["events"] == []  # nothing on the phone
    [mail] = mailbox.to("kim@example.test")
    assert "Accept or decline the invitation on your events page" in mail.get_body(("plain",)).get_content()

    assert answer(judge, "accept").status_code == 302
    assert f'href="/events/{event_id}"' in judge.get("/").get_data(as_text=True)
    assert judge.get(f"/events/{event_id}").status_code == 200
    assert [e["id"] for e in judge.get("/offline/copy.json").get_json()["events"]] == [event_id]
    assert audit_actions(app)[-2:] == ["staff.add", "staff.invitation_accepted"]


def test_a_declined_invitation_is_kept_gives_no_role_and_cannot_be_accepted_afterwards(app, organizer, make_user):
    client, event_id = organizer
    make_user("dee@example.test", name="Dee Declines")
    invite(client, event_id, "dee@example.test", name="Dee")
    judge = signed_in(app, "dee@example.test")
    accept = answer_url(judge.get("/").get_data(as_text=True), "accept")
    assert answer(judge, "decline").status_code == 302
    assert "invites you" not in judge.get("/").get_data(as_text=True)
    late = post_form(judge, accept, {}, form_page="/")
    assert late.status_code == 409 and "You have declined this invitation." in late.get_data(as_text=True)
    assert judge.get(f"/events/{event_id}").status_code == 403
    with app.app_context():
        [kept] = db.session.scalars(select(models.StaffInvitation)).all()
        assert kept.status.value == "declined" and kept.answered_at is not None and kept.assignment_id is None
        assert db.session.scalars(select(StaffAssignment)).all() == []
    assert "staff.invite" in audit_actions(app) and audit_actions(app)[-1] == "staff.invitation_declined"
    staff_page = client.get(f"/events/{event_id}/staff").get_data(as_text=True)
    assert "Dee" in staff_page and "declined" in staff_page


def test_an_expired_invitation_cannot_be_accepted_and_the_organizer_sees_it_expired(app, organizer, make_user):
    client, event_id = organizer
    make_user("late@example.test", name="Lee Late")
    invite(client, event_id, "late@example.test", name="Lee")
    judge = signed_in(app, "late@example.test")
    accept = answer_url(judge.get("/").get_data(as_text=True), "accept")
    with app.app_context():
        db.session.scalar(select(models.StaffInvitation)).expires_at = utcnow() - timedelta(minutes=1)
        db.session.commit()
    assert "invites you" not in judge.get("/").get_data(as_text=True)
    late = post_form(judge, accept, {}, form_page="/")
    assert late.status_code == 409 and "This invitation has expired." in late.get_data(as_text=True)
    assert "expired" in client.get(f"/events/{event_id}/staff").get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(models.StaffInvitation)) is not None  # kept, never deleted


def test_only_the_invited_account_may_answer_an_invitation(app, organizer, make_user):
    client, event_id = organizer
    make_user("ivy@example.test", name="Ivy Invited")
    _, other = make_user("oscar@example.test", name="Oscar Other")
    invite(client, event_id, "ivy@example.test")
    url = answer_url(signed_in(app, "ivy@example.test").get("/").get_data(as_text=True), "accept")
    for stranger in (signed_in(app, other), client):  # another judge, and the organizer who sent it
        assert post_form(stranger, url, {}, form_page="/").status_code == 404
    with app.app_context():
        assert db.session.scalar(select(models.StaffInvitation)).status.value == "invited"


def test_adding_staff_by_email_shows_the_typed_name_not_the_account_owners_own_name(app, organizer, make_user):
    client, event_id = organizer
    make_user("kim@example.test", name="Kim Secretname")
    known = invite(client, event_id, "kim@example.test", name="Whatever Name", follow_redirects=True)
    unknown = invite(client, event_id, "nobody@example.test", name="Whatever Name", follow_redirects=True)
    assert (
        flash_of(known)
        == flash_of(unknown)
        == ("Whatever Name is invited as floor judge; we emailed them. The role is theirs once they accept.")
    )
    page = client.get(f"/events/{event_id}/staff").get_data(as_text=True)
    assert "Kim Secretname" not in page
    assert page.count("Whatever Name") == 2 and page.count("Floor judge · invited") == 2


def test_invitations_are_rate_limited_per_organizer(app, organizer, make_user, make_event):
    client, event_id = organizer
    app.config["INVITE_LIMIT_PER_ORGANIZER"] = "3 per hour"
    codes = [
        invite(client, event_id, f"n{n}@example.test", environ_base={"REMOTE_ADDR": f"10.9.0.{n}"}).status_code
        for n in range(4)
    ]
    assert codes == [302, 302, 302, 429]
    with app.app_context():
        assert len(db.session.scalars(select(models.StaffInvitation)).all()) == 3
    other_uid, other_email = make_user(organizer=True)  # another organizer is not held up by the first one's count
    assert invite(signed_in(app, other_email), make_event(other_uid), "n9@example.test").status_code == 302


def test_add_staff_compares_roles_by_value_so_a_permissions_role_replaces_the_head_judge(app, make_user, make_event):
    from judgeapp.events import staff_services
    from judgeapp.permissions import Role as Authority

    org_id, _ = make_user(organizer=True)
    event_id = make_event(org_id)
    first_id, first = make_user("first.head@example.test")
    second_id, second = make_user("second.head@example.test")
    with app.app_context():
        event, org = db.session.get(Event, event_id), db.session.get(User, org_id)
        for n, (uid, email) in enumerate(((first_id, first), (second_id, second))):
            made = staff_services.add_staff(
                db.session, actor=org, event=event, email=email, name="", role=Authority.HEAD_JUDGE,
                replace_head_judge=n > 0,
            )  # fmt: skip
            staff_services.answer_invitation(
                db.session, user=db.session.get(User, uid), invitation_id=made.invitation.id, accept=True
            )
            db.session.commit()
        heads = db.session.scalars(select(StaffAssignment).order_by(StaffAssignment.id)).all()
        assert [(a.user_id, a.ended_at is None) for a in heads] == [(first_id, False), (second_id, True)]


def test_the_staff_form_preselects_no_role(app, organizer):
    client, event_id = organizer
    page = client.get(f"/events/{event_id}/staff").get_data(as_text=True)
    role_select = re.search(r'<select[^>]*name="role".*?</select>', page, re.S).group(0)
    assert "selected" not in role_select and '<option value="">Choose a role</option>' in role_select
    response = post_form(client, f"/events/{event_id}/staff", {"email": "nina@example.test", "name": "Nina"})
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and "Choose the role this person is invited to." in html
    assert 'value="nina@example.test"' in html  # what was typed is kept
    with app.app_context():
        assert db.session.scalars(select(models.StaffInvitation)).all() == []


def test_replacing_the_head_judge_asks_first_naming_who_is_replaced(app, organizer, make_user, give_role):
    client, event_id = organizer
    head_id, _ = make_user("hana@example.test", name="Hana Head")
    give_role(event_id, head_id, "head_judge")
    make_user("new.head@example.test", name="Nao New")
    asked = invite(client, event_id, "new.head@example.test", name="Nao", role="head_judge")
    html = asked.get_data(as_text=True)
    assert asked.status_code == 400
    assert "Hana Head is the head judge now. Tick the box to replace them once this person accepts." in html
    assert 'value="new.head@example.test"' in html
    assert invite(
        client, event_id, "new.head@example.test", role="head_judge", fields={"replace_head_judge": "y"}
    ).status_code == (302)
    with app.app_context():  # the current head judge stays until the new one accepts
        [head] = db.session.scalars(select(StaffAssignment).where(StaffAssignment.ended_at.is_(None))).all()
        assert head.user_id == head_id
    assert answer(signed_in(app, "new.head@example.test"), "accept").status_code == 302
    with app.app_context():
        [head] = db.session.scalars(select(StaffAssignment).where(StaffAssignment.ended_at.is_(None))).all()
        assert head.user.email == "new.head@example.test"


# ---- mail and log text on one line; mail errors after the commit -----------------------------------------------------

FORGED_NAME = (
    "Mail Test\nTo: victim@example.test\nSubject: Choose a new judgeapp password\n\n"
    "http://evil.example/account/set-password/forged\n" + "-" * 72
)


def test_an_event_name_with_line_breaks_forges_no_second_mail_in_the_console_log(tmp_path, caplog):
    from datetime import date

    from judgeapp import create_app
    from judgeapp.auth.services import create_user
    from judgeapp.events import services
    from judgeapp.extensions import limiter

    app = create_app(app_config(tmp_path))  # no MAIL_* settings: the mail goes to the server's log
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
                name=FORGED_NAME, date=date(2026, 12, 1), venue="Hall", policy_id="bushiroad-afr", level=2, rounds=5,
                round_minutes=50,
            ),
        )  # fmt: skip
        db.session.commit()
        event_id = event.id
    client = signed_in(app, "org@example.test")
    with caplog.at_level(logging.WARNING, logger="judgeapp.mail"):
        assert invite(client, event_id, "logged@example.test", name="Lou").status_code == 302
    [record] = [r for r in caplog.records if r.name == "judgeapp.mail"]
    text = record.getMessage()
    assert re.findall(r"^(From|To|Subject): ", text, re.M) == ["From", "To", "Subject"]
    assert re.findall(r"^To: .*$", text, re.M) == ["To: logged@example.test"]
    assert not re.search(r"^http://evil", text, re.M)  # the forged link never stands on a line of its own
    assert re.findall(r"^" + ACCOUNT_LINK_RE.pattern + "$", text, re.M)[0].startswith("http://127.0.0.1:5000/")
    assert [line for line in text.splitlines() if line == "-" * 72] == ["-" * 72]  # one mail, one separator
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


class RefusingEmailBackend(BaseEmailBackend):
    """A mail backend that refuses every message as Flask-Mailman refuses a bad header (BadHeaderError)."""

    def send_messages(self, email_messages):
        raise BadHeaderError("Header values can't contain newlines")


def test_a_mail_error_after_the_invitation_is_saved_says_saved_but_the_mail_could_not_be_sent(app, organizer, caplog):
    client, event_id = organizer
    app.extensions["mailman"].backend = RefusingEmailBackend
    with caplog.at_level(logging.ERROR):
        response = invite(client, event_id, "nina@example.test", name="Nina", follow_redirects=True)
    assert response.status_code == 200
    assert "Nina is invited as floor judge: saved, but the mail could not be sent." in flash_of(response)
    with app.app_context():
        assert db.session.scalar(select(models.StaffInvitation)).name == "Nina"  # committed before the mail was tried
    [logged] = [r for r in caplog.records if "Could not send the staff invitation" in r.getMessage()]
    assert "'nina@example.test'" in logged.getMessage()  # the log field written with repr


def test_forgot_password_runs_the_same_code_path_for_a_known_and_an_unknown_address(
    app, make_user, mailbox, job_worker
):
    _, email = make_user("known.reset@example.test")
    for address in (email, "nobody.here@example.test"):
        assert post_form(app.test_client(), "/account/forgot", {"email": address}).status_code == 302
    with app.app_context():  # each request queued the same job, and did nothing else: no link, no mail, no lookup
        jobs = db.session.scalars(select(models.Job).order_by(models.Job.id)).all()
        assert [(j.kind, j.actor_id, sorted(j.payload)) for j in jobs] == [("account.reset", None, ["email"])] * 2
        assert db.session.scalars(select(AccountToken)).all() == []
    assert mailbox.messages == []
    ran = conftest.run_jobs(job_worker)
    assert [j.state.value for j in ran] == ["done", "done"] and all(j.payload == {} for j in ran)  # address not kept
    assert len(mailbox.to(email)) == 1 and mailbox.to("nobody.here@example.test") == []


# ---- reset links ----------------------------------------------------------------------------------------------------


def test_changing_the_password_spends_every_open_reset_link(app, make_user):
    _, email = make_user("changer@example.test")
    printed = app.test_cli_runner().invoke(args=["users", "reset-link", email])  # an open reset link of the account
    link = "/" + ACCOUNT_LINK_RE.search(printed.output).group(0).split("://", 1)[1].partition("/")[2]
    owner = signed_in(app, email)
    changed = post_form(
        owner,
        "/account/password",
        {"current_password": PASSWORD, "new_password": "a-brand-new-password", "confirm": "a-brand-new-password"},
    )
    assert changed.status_code == 302
    assert app.test_client().get(link).status_code == 410
    thief = app.test_client()
    used = post_form(
        thief, link, {"new_password": "thiefs-password-1", "confirm": "thiefs-password-1"}, form_page="/login"
    )
    assert used.status_code == 410
    assert login(app.test_client(), email, "a-brand-new-password").status_code == 302


# ---- small leaks ----------------------------------------------------------------------------------------------------


def test_the_call_link_404_answers_in_the_requests_language_not_the_events(app, make_event):
    event_id = make_event(name="大会", language="ja")
    made_up = app.test_client().get(f"/call/{event_id}/7/{'a' * 16}")
    nowhere = app.test_client().get(f"/call/99999/7/{'a' * 16}")
    assert made_up.status_code == nowhere.status_code == 404
    assert '<html lang="en"' in made_up.get_data(as_text=True)
    assert made_up.get_data(as_text=True) == nowhere.get_data(as_text=True)  # nothing tells event N exists
    asked = app.test_client().get(f"/call/{event_id}/7/{'a' * 16}", headers={"Accept-Language": "ja"})
    assert '<html lang="ja"' in asked.get_data(as_text=True)


def test_statement_links_are_built_on_the_configured_address_not_the_request_host(app, dq):
    app.config["JUDGEAPP_BASE_URL"] = "https://judges.example.org/app"
    head = dq["head"]
    made = post(
        head, f"{base(dq)}/investigations/1/links", **{"link-author_name": "Eve Witness", "link-author_role": "witness"}
    )
    page = head.get(made.headers["Location"]).get_data(as_text=True)
    assert re.search(r'href="https://judges\.example\.org/app/statement/[^"]+"', page)
    assert "http://localhost/statement/" not in page


# ---- lockouts that forged addresses cannot cause --------------------------------------------------------------------


@pytest.fixture
def proxied(app, tmp_path):
    """The app behind one trusted proxy (JUDGEAPP_PROXY_HOPS=1: X-Forwarded-For is believed), on the same database."""
    from judgeapp import create_app

    built = create_app(app_config(tmp_path, JUDGEAPP_PROXY_HOPS=1))
    yield built
    with built.app_context():
        db.engine.dispose()


def login_from(client, email: str, password: str, address: str) -> int:
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', client.get("/login").get_data(as_text=True))
    data = {"csrf_token": token.group(1), "email": email, "password": password}
    return client.post("/login", data=data, headers={"X-Forwarded-For": address}).status_code


def sign_out(client):
    post_form(client, "/logout", {}, form_page="/")


def test_wrong_passwords_from_forged_addresses_do_not_lock_the_owner_out_of_their_own_device(proxied, make_user):
    _, email = make_user("targeted@example.test")
    owner = proxied.test_client()
    assert login_from(owner, email, PASSWORD, "198.51.100.7") == 302  # the owner's phone, signed in before
    sign_out(owner)
    attacker = proxied.test_client()
    wrong = [login_from(attacker, email, "not-the-password", f"203.0.113.{n}") for n in range(1, 12)]
    assert wrong == [401] * 10 + [429]  # the guesser is stopped after LOGIN_LIMIT_PER_ACCOUNT, from any address
    assert login_from(proxied.test_client(), email, PASSWORD, "192.0.2.99") == 429  # an unknown browser waits
    assert login_from(owner, email, PASSWORD, "192.0.2.50") == 302  # the owner's own phone signs in, any address


def test_the_owners_known_device_still_has_a_limit_of_its_own(proxied, make_user):
    _, email = make_user("careless@example.test")
    owner = proxied.test_client()
    assert login_from(owner, email, PASSWORD, "198.51.100.7") == 302
    sign_out(owner)
    codes = [login_from(owner, email, "not-the-password", f"192.0.2.{n}") for n in range(1, 7)]
    assert codes == [401] * 5 + [429]  # LOGIN_LIMIT_PER_ACCOUNT_AND_ADDRESS, counted per device whatever its address


def test_a_device_cookie_names_only_the_accounts_signed_in_on_it(proxied, make_user):
    _, mine = make_user("mine@example.test")
    _, victim = make_user("victim@example.test")
    attacker = proxied.test_client()
    assert login_from(attacker, mine, PASSWORD, "203.0.113.1") == 302  # the attacker's own account: a device cookie
    sign_out(attacker)
    wrong = [login_from(attacker, victim, "not-the-password", f"203.0.113.{n}") for n in range(2, 14)]
    assert wrong == [401] * 10 + [429] * 2  # for the victim's account it is any stranger's browser: no exemption


def test_reset_requests_from_forged_addresses_do_not_block_the_owners_own_device(proxied, make_user):
    _, email = make_user("reset.target@example.test")
    owner = proxied.test_client()
    assert login_from(owner, email, PASSWORD, "198.51.100.7") == 302
    sign_out(owner)

    def forgot(client, address):
        token = csrf_token_of(client, "/account/forgot")
        data = {"csrf_token": token, "email": email}
        return client.post("/account/forgot", data=data, headers={"X-Forwarded-For": address}).status_code

    stranger = proxied.test_client()
    assert [forgot(stranger, f"203.0.113.{n}") for n in range(1, 5)] == [302, 302, 302, 429]
    assert forgot(owner, "192.0.2.50") == 302  # the owner's phone can still ask for a link


def csrf_token_of(client, url: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', client.get(url).get_data(as_text=True)).group(
        1
    )
