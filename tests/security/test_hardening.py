"""Hardening from the security review: `next` links stay on the site, oversized bodies and odd numbers get a readable
answer, pages with credentials or personal data are never stored by a cache, HSTS behind HTTPS, and every refusal
says why on the page."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.conftest import PASSWORD, csrf_token, login, post_form

# Targets of a `next` parameter, as the app receives them (already percent-decoded once by the query parser).
OFFSITE_NEXT = [
    "/%09/evil.example",
    "/\t/evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "https://evil.example",
    "HTTPS://evil.example/x",
    "\t//evil.example",
    " //evil.example",
    "/\r\n/evil.example",
    "\x00//evil.example",
    "/\x0b/evil.example",
    "\x01//evil.example",
    "/%2F%2Fevil.example",
    "%2F%2Fevil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "javascript:alert(1)",
    "data:text/html,hi",
    "/" + "a" * 5000,
]
_C0_AND_SPACE = "".join(map(chr, range(0x21)))


def browser_host(location: str) -> str:
    """The host a browser on http://localhost goes to for this Location header: it drops tabs and new lines, trims
    control characters and spaces, reads a backslash as a slash and any number of leading slashes as a host."""
    url = re.sub(r"[\t\n\r]", "", location).strip(_C0_AND_SPACE).replace("\\", "/")
    if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", url):
        return "scheme:" + url.split(":", 1)[0]  # a scheme of its own: off the site for this test
    if url.startswith("//"):
        return re.match(r"/+([^/?#]*)", url).group(1)
    return "localhost"


def lands_on_the_site(response) -> bool:
    assert response.status_code == 302, response.status_code
    return browser_host(response.headers["Location"]) == "localhost"


@pytest.mark.parametrize("target", OFFSITE_NEXT)
def test_next_parameter_never_leaves_the_site_after_login(app, make_user, target):
    _, email = make_user()
    client = app.test_client()
    response = post_form(client, "/login", {"email": email, "password": PASSWORD}, query_string={"next": target})
    assert lands_on_the_site(response)


@pytest.fixture
def decided(app, world):
    """The floor judge's incident #1 was appealed and the head judge decided it: the floor judge has a 'Got it'."""
    users, args = world
    head = app.test_client()
    assert login(head, users["head_judge"][1]).status_code == 302
    url = f"/events/{args['event_id']}/appeals/1"
    response = head.post(
        url,
        data={
            "csrf_token": csrf_token(head, url),
            "outcome": "overturned",
            "reason": "Resolved correctly after all",
            "count_challenge": "y",
        },
    )
    assert response.status_code == 302
    judge = app.test_client()
    assert login(judge, users["floor_judge"][1]).status_code == 302
    return judge, f"/events/{args['event_id']}/appeals/1/seen"


@pytest.mark.parametrize("target", OFFSITE_NEXT)
def test_next_parameter_never_leaves_the_site_on_got_it(decided, target):
    judge, url = decided
    response = judge.post(url, data={"csrf_token": csrf_token(judge, "/"), "next": target})
    assert lands_on_the_site(response)


@pytest.mark.parametrize("target", ["/", "/events/1/incidents/1?saved=1", "/account/password"])
def test_next_parameter_on_the_site_is_followed(app, make_user, decided, target):
    _, email = make_user()
    client = app.test_client()
    response = post_form(client, "/login", {"email": email, "password": PASSWORD}, query_string={"next": target})
    assert response.headers["Location"] == target
    judge, url = decided
    response = judge.post(url, data={"csrf_token": csrf_token(judge, "/"), "next": target})
    assert response.headers["Location"] == target


# ---- number fields ---------------------------------------------------------------------------------------------------

ODD_NUMBERS = [
    "NaN",
    "nan",
    "sNaN",
    "Infinity",
    "-Infinity",
    "inf",
    "1e999",
    "1e999999999",
    "-1e-999999999",
    "1E3",
    "9" * 5000,
    "9" * 30,
    "-" + "9" * 30,
    "0x10",
    "١٢",
    "²",
    "1_000",
    "12abc",
    "+-1",
]


@pytest.fixture
def judge_at(app, world):
    """The event's head judge, signed in: the world's event has round 1 running and a table 1."""
    users, args = world
    client = app.test_client()
    assert login(client, users["head_judge"][1]).status_code == 302
    return client, args["event_id"], users


def send_extension(client, event_id, **fields):
    url = f"/events/{event_id}/extensions/new"
    page = client.get(url).get_data(as_text=True)
    key = re.search(r'id="key" name="key" type="hidden" value="([^"]+)"', page).group(1)
    data = {
        "csrf_token": csrf_token(client, url),
        "key": key,
        "round": "1",
        "table": "1",
        "reason": "other",
        "adjust_reason": "Moved tables",
    } | fields
    return client.post(url, data=data)


def field_error(response, field: str) -> str:
    """The message shown at `field` on a form page sent back."""
    html = response.get_data(as_text=True)
    found = re.search(rf'id="{field}-error"[^>]*>([^<]*)<', html)
    return found.group(1).strip() if found else ""


@pytest.mark.db
@pytest.mark.parametrize("value", ODD_NUMBERS)
def test_a_number_field_refuses_nan_infinity_exponents_and_huge_numbers_with_a_field_error(app, judge_at, value):
    from sqlalchemy import func, select

    from judgeapp.extensions import db
    from judgeapp.models import TimeExtension

    client, event_id, _ = judge_at
    with app.app_context():
        before = db.session.scalar(select(func.count()).select_from(TimeExtension))
    for field, extra in (("taken_minutes", {}), ("minutes", {}), ("table", {"minutes": "2"})):
        response = send_extension(client, event_id, **{field: value, **extra})
        assert response.status_code == 400, (field, value, response.status_code)
        assert field_error(response, field), (field, value)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(TimeExtension)) == before


@pytest.mark.db
@pytest.mark.parametrize("value", ["2.5", "2,5", " 3 ", "+4"])
def test_a_number_field_takes_plain_numbers_as_typed_on_a_phone(app, judge_at, value):
    client, event_id, _ = judge_at
    response = send_extension(client, event_id, reason="ruling", taken_minutes=value, adjust_reason="")
    assert response.status_code == 302, field_error(response, "taken_minutes")


@pytest.mark.db
@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e999", "9" * 5000, "٣"])
def test_number_fields_of_every_form_refuse_odd_numbers_without_a_500(app, judge_at, value):
    """The incident, deck check, table picking and event settings forms have number fields too."""
    client, event_id, users = judge_at
    posts = {
        f"/events/{event_id}/incidents/new": {
            "table": value,
            "extension": value,
            "round": "1",
            "subject_kind": "player",
            "player": "M-1",
            "infraction": "3.5.2",
        },
        f"/events/{event_id}/deck-checks/new": {"table": value, "round": "1"},
    }
    for url, data in posts.items():
        response = client.post(url, data={"csrf_token": csrf_token(client, url), "key": "k" * 32, **data})
        assert response.status_code == 400, (url, response.status_code)
        assert field_error(response, "table"), url
    picked = client.get(f"/events/{event_id}/deck-checks", query_string={"count": value})
    assert picked.status_code == 200 and field_error(picked, "count")
    organizer = app.test_client()
    assert login(organizer, users["organizer"][1]).status_code == 302
    url = f"/events/{event_id}/settings"
    form = {
        "name": "Regional Qualifier",
        "date": "2026-11-28",
        "venue": "Hall A",
        "policy_id": "bushiroad-afr",
        "level": "2",
    }
    for field in ("rounds", "round_minutes", "challenge_limit", "statement_days"):
        data = {"rounds": "5", "round_minutes": "50", "statement_days": "7", **form, field: value}
        response = organizer.post(url, data={"csrf_token": csrf_token(organizer, url), **data})
        assert response.status_code in (200, 400), (field, response.status_code)  # the form again, never a 500
        assert field_error(response, field) == "Give a whole number in digits, such as 12.", field


# ---- request bodies over the limit -----------------------------------------------------------------------------------

THREE_MB = 3 * 1024 * 1024


def unread(response):
    """The app never reads a body over the limit: close the test client's spooled copy of it (a temporary file)."""
    response.request.environ["wsgi.input"].close()
    return response


def test_a_form_post_over_the_limit_gets_a_readable_413(app, judge_at):
    client, event_id, _ = judge_at
    response = unread(client.post(f"/events/{event_id}/incidents/new", data={"description": "x" * THREE_MB}))
    assert response.status_code == 413
    page = " ".join(response.get_data(as_text=True).split())
    assert "Too large" in page and "at most 2 MB" in page and "Nothing was saved" in page
    anonymous = unread(app.test_client().post("/login", data={"email": "x" * THREE_MB}))
    assert anonymous.status_code == 413 and "at most 2 MB" in anonymous.get_data(as_text=True)


def test_an_upload_over_the_limit_gets_a_readable_413(app, judge_at):
    import io

    client, event_id, _ = judge_at
    response = unread(
        client.post(
            f"/events/{event_id}/pairings",
            content_type="multipart/form-data",
            data={"round": "1", "file": (io.BytesIO(b"1,M-1,M-2\n" * (THREE_MB // 10 + 1)), "p.csv")},
        )
    )
    assert response.status_code == 413
    assert "at most 2 MB" in response.get_data(as_text=True)


def test_a_body_over_the_limit_gets_the_413_page_from_a_real_server_not_a_reset_connection(app, tmp_path):
    """gunicorn as deployed: the answer arrives whole, although the app never reads the body it refuses."""
    import requests

    from tests.load.harness import Gunicorn

    with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=1, log=tmp_path / "gunicorn.log") as server:
        form = requests.post(server.url + "/login", data={"email": "x" * THREE_MB}, timeout=30)
        upload = requests.post(
            server.url + "/events/1/pairings", files={"file": ("p.csv", b"1,A,B\n" * THREE_MB)}, timeout=30
        )
    for response in (form, upload):
        assert response.status_code == 413
        assert "at most 2 MB" in response.text and "Nothing was saved" in response.text


# ---- caches, HSTS ----------------------------------------------------------------------------------------------------

CACHEABLE = {"static", "offline.service_worker", "offline.manifest", "offline.page"}


def test_every_page_and_file_for_a_signed_in_user_is_never_stored_by_a_cache(app, world):
    from tests.security.conftest import url_of

    users, args = world
    clients = {}
    for role in ("head_judge", "organizer"):
        clients[role] = app.test_client()
        assert login(clients[role], users[role][1]).status_code == 302
    checked, wrong = set(), []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in CACHEABLE:
            continue
        url = url_of(app, rule, args)
        for role, client in clients.items():
            response = client.get(url)
            if response.headers.get("Cache-Control") != "no-store":
                wrong.append(f"{role} {url} ({response.status_code}): {response.headers.get('Cache-Control')!r}")
            if response.status_code == 200:
                checked.add(rule.endpoint)
    assert not wrong, "\n".join(wrong)
    # among them the pages and files the review named, each seen in full by someone
    assert {
        "auth.change_password",
        "investigations.show",
        "investigations.report",
        "postevent.report",
        "postevent.report_pdf_download",
        "calls.sheet_download",
        "postevent.export",
        "postevent.player_history",
        "events.players",
    } <= checked


def test_pages_with_credentials_are_never_stored_even_signed_out(app, world):
    users, args = world
    client = app.test_client()
    for url in ("/login", "/account/forgot", f"/statement/{args['token']}"):
        response = client.get(url)
        assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store", url
    failed = client.post(
        "/login",
        data={"csrf_token": csrf_token(client, "/login"), "email": users["organizer"][1], "password": "wrong-password"},
    )
    assert failed.status_code == 401 and failed.headers["Cache-Control"] == "no-store"


def test_static_files_and_the_installable_apps_files_stay_cacheable(app):
    client = app.test_client()
    assert client.get("/sw.js").headers["Cache-Control"] == "no-cache"  # revalidated, so a new version is seen
    for url in ("/static/app.css", "/manifest.webmanifest", "/offline"):
        response = client.get(url)
        assert response.status_code == 200 and "no-store" not in response.headers.get("Cache-Control", ""), url
        response.close()


def test_https_requests_get_hsts_and_plain_http_does_not(app):
    client = app.test_client()
    secure = client.get("/login", base_url="https://judge.example")
    assert secure.headers["Strict-Transport-Security"] == f"max-age={365 * 24 * 3600}"
    assert "Strict-Transport-Security" not in client.get("/login").headers  # a laptop on plain HTTP


def test_behind_a_trusted_proxy_forwarded_https_gets_hsts_and_a_secure_cookie_and_untrusted_headers_do_not(
    app, tmp_path, make_user
):
    from judgeapp import create_app
    from judgeapp.extensions import db
    from tests.conftest import app_config

    _, email = make_user()
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9", "Referer": "https://localhost/login"}
    results = {}
    for hops in (1, 0):
        proxied = create_app(app_config(tmp_path, JUDGEAPP_PROXY_HOPS=hops))
        client = proxied.test_client()
        page = client.get("/login", headers=forwarded)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.get_data(as_text=True)).group(1)
        answer = client.post(
            "/login", headers=forwarded, data={"csrf_token": token, "email": email, "password": PASSWORD}
        )
        results[hops] = page.headers.get("Strict-Transport-Security"), answer.headers.get("Set-Cookie", "")
        with proxied.app_context():
            db.engine.dispose()
    assert results[1][0] == f"max-age={365 * 24 * 3600}" and "Secure" in results[1][1]
    assert results[0][0] is None and "Secure" not in results[0][1]  # nobody vouches for the header: plain HTTP


def test_hsts_can_be_turned_off_for_a_deployment_whose_proxy_sends_it(tmp_path):
    from judgeapp import create_app
    from tests.conftest import app_config

    quiet = create_app(app_config(tmp_path, JUDGEAPP_HSTS_SECONDS=0))
    assert "Strict-Transport-Security" not in quiet.test_client().get("/login", base_url="https://x.example").headers


# ---- every refusal says why ------------------------------------------------------------------------------------------


def reason_on_page(response) -> str:
    html = " ".join(response.get_data(as_text=True).split())
    return unescape(re.search(r'<section class="card error-page">.*?</h1> <p>(.*?)</p>', html).group(1))


def test_a_proxy_that_is_not_one_of_the_events_judges_is_refused_with_the_reason(app, world):
    users, args = world
    head = app.test_client()
    assert login(head, users["head_judge"][1]).status_code == 302
    base = f"/events/{args['event_id']}"
    response = head.post(
        f"{base}/appeals/1/proxy", data={"csrf_token": csrf_token(head, "/account/password"), "proxy": "someone"}
    )
    assert response.status_code == 400
    assert reason_on_page(response) == "Choose the proxy from the list of this event's judges; nothing was changed."
