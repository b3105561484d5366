"""Cookies, Content-Security-Policy on every page, and the login limits with the app's own settings."""

import base64
import hashlib
import re

from tests.conftest import PASSWORD, csrf_token, login, post_form
from tests.security.conftest import url_of

# JSON data blocks never run; the import map is data too, allowed by its hash in the CSP (IMPORT_MAP, checked below)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\b(?:src=|type=\"(?:application/json|importmap)\"))[^>]*>", re.I)
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.DOTALL)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def test_the_session_cookie_is_httponly_samesite_lax_and_secure_when_served_over_https(app, make_user):
    _, email = make_user()
    plain = login(app.test_client(), email).headers["Set-Cookie"]
    secure_client = app.test_client()
    token = csrf_token(secure_client, "https://judge.example/login")
    tls = secure_client.post(
        "https://judge.example/login",
        data={"csrf_token": token, "email": email, "password": PASSWORD},
        headers={"Referer": "https://judge.example/login"},
    )  # over HTTPS the origin is checked too
    assert tls.status_code == 302
    cookie = tls.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie
    assert (
        "HttpOnly" in plain and "SameSite=Lax" in plain and "Secure" not in plain
    )  # plain HTTP on a laptop still works


def test_behind_a_trusted_proxy_the_forwarded_https_marks_the_cookie_secure(tmp_path, make_user):
    from judgeapp import create_app
    from tests.conftest import app_config

    proxied = create_app(app_config(tmp_path, JUDGEAPP_PROXY_HOPS=1))
    client = proxied.test_client()
    with proxied.app_context():
        from judgeapp.extensions import db

        db.create_all()
    _, email = make_user()
    headers = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9", "Referer": "https://localhost/login"}
    page = client.get("/login", headers=headers).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    answer = client.post("/login", headers=headers, data={"csrf_token": token, "email": email, "password": PASSWORD})
    with proxied.app_context():
        db.engine.dispose()  # its own engine: close its connections (PostgreSQL warns about open ones at exit)
    assert "Secure" in answer.headers["Set-Cookie"]


def test_every_page_sends_a_csp_forbidding_foreign_and_inline_scripts_and_framing_with_only_its_import_map_inline(
    app, world
):
    users, args = world
    clients = {}
    for role in ("head_judge", "organizer"):
        clients[role] = app.test_client()
        login(clients[role], users[role][1])
    checked, wrong = 0, []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        url = url_of(app, rule, args)
        for client in clients.values():
            response = client.get(url)
            csp = response.headers.get("Content-Security-Policy", "")
            directives = dict(([*d.strip().split(" ", 1), ""])[:2] for d in csp.split(";") if d.strip())
            html = response.get_data(as_text=True) if response.mimetype == "text/html" else ""
            maps = IMPORT_MAP.findall(html)
            hashes = [f"'sha256-{base64.b64encode(hashlib.sha256(m.encode()).digest()).decode()}'" for m in maps]
            if (
                directives.get("script-src") != " ".join(["'self'", *sorted(set(hashes))])
                or directives.get("frame-ancestors") != "'none'"
                or directives.get("object-src") != "'none'"
            ):
                wrong.append(f"{url}: CSP {csp!r}")
            if response.mimetype == "text/html":
                if INLINE_SCRIPT.search(html) or INLINE_HANDLER.search(html) or len(maps) > 1:
                    wrong.append(f"{url}: inline script or event handler")
                checked += 1
    assert not wrong, "\n".join(wrong)
    assert checked > 40


def test_the_sixth_failed_login_for_one_account_from_one_address_is_refused(app, make_user):
    _, email = make_user()
    client = app.test_client()
    codes = [login(client, email, f"guess-{n}").status_code for n in range(6)]
    assert codes == [401] * 5 + [429]
    assert login(client, email).status_code == 429, "the right password waits too, from that address"
    elsewhere = app.test_client()
    answer = post_form(
        elsewhere, "/login", {"email": email, "password": PASSWORD}, environ_base={"REMOTE_ADDR": "10.9.9.9"}
    )
    assert answer.status_code == 302, "the judge can still log in from another network"


def test_a_wrong_password_and_an_unknown_email_give_the_same_page(app, make_user):
    _, email = make_user()
    pages = []
    for who in (email, "nobody@example.test"):
        answer = login(app.test_client(), who, "not-the-password")
        body = re.sub(r'value="[^"]*"', 'value=""', answer.get_data(as_text=True))  # typed email and token differ
        pages.append((answer.status_code, body, sorted(answer.headers.keys())))
    assert pages[0] == pages[1]
