"""The server side of offline capture: what the phone keeps, and records sent from its outbox (JSON answers, one
record per key, the writer's account only, a changed suggestion flagged, the phone's clock checked)."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import brotli
import pytest
from flask import url_for
from sqlalchemy import func, select

from judgeapp.extensions import db
from judgeapp.incidents.services import phone_time
from judgeapp.models import AuditEntry, DeckCheck, Incident, utcnow
from tests.conftest import csrf_token
from tests.integration.test_incidents import incidents, log, signed_in

JSON = {"Accept": "application/json"}


def outbox_send(client, event_id, user_id, *, key, path="incidents/new", **fields):
    """What static/js/sync.js sends: the form's fields, a fresh token from /offline/token, the writer's account."""
    token = client.get("/offline/token").get_json()
    data = {
        "csrf_token": token["csrf_token"],
        "key": key,
        "outbox_owner": str(user_id),
        "round": "1",
        "subject_kind": "player",
        "table": "2",
    }
    data.update({k: str(v) for k, v in fields.items()})
    return client.post(f"/events/{event_id}/{path}", data=data, headers=JSON)


def test_the_token_endpoint_names_the_account_and_gives_a_token_the_forms_accept(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    body = judge.get("/offline/token").get_json()
    assert body["ok"] and body["user_id"] == floor["people"]["floor_judge"][0]
    assert judge.get("/offline/token").headers["Cache-Control"] == "no-store"
    assert app.test_client().get("/offline/token").status_code == 401


@pytest.mark.db
def test_a_record_from_the_outbox_is_stored_once_and_answered_in_json(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    uid = floor["people"]["floor_judge"][0]
    first = outbox_send(
        judge,
        floor["event_id"],
        uid,
        key="phone-outbox-key-0001",
        player_id=floor["players"]["P-001"],
        infraction="3.5.2",
        penalty="warning",
        logged_at="2020-01-01T00:00:00Z",
    )
    again = outbox_send(
        judge,
        floor["event_id"],
        uid,
        key="phone-outbox-key-0001",
        player_id=floor["players"]["P-001"],
        infraction="3.5.2",
        penalty="warning",
    )
    assert first.status_code == 201 and again.status_code == 200
    assert first.get_json() | {"created": False} == again.get_json()
    assert first.get_json()["number"] == 1 and first.get_json()["url"].endswith("/incidents/1?saved=1")
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Incident)) == 1
        assert (
            db.session.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "incident.log"))
            == 1
        )


def test_a_refused_record_gets_its_messages_per_field_in_json(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = outbox_send(
        judge,
        floor["event_id"],
        floor["people"]["floor_judge"][0],
        key="phone-outbox-key-0002",
        player="Nobody Known",
        infraction="3.5.2",
        penalty="warning",
    )
    assert response.status_code == 422
    assert "No player at this event matches" in " ".join(response.get_json()["errors"]["player"])
    assert incidents(app, floor["event_id"]) == []


def test_another_accounts_record_is_refused_even_with_a_valid_session_and_token(app, floor):
    judge = signed_in(app, floor["people"]["other_floor"][1])
    writer = floor["people"]["floor_judge"][0]
    for path, fields in [
        ("incidents/new", {"player": "P-001", "infraction": "3.5.2", "penalty": "warning"}),
        ("extensions/new", {"reason": "ruling", "minutes": "3"}),
        ("deck-checks/new", {"player_1": "P-001"}),
    ]:
        response = outbox_send(judge, floor["event_id"], writer, key=f"not-mine-{path[:4]}-00001", path=path, **fields)
        assert response.status_code == 403, path
    assert incidents(app, floor["event_id"]) == []


def test_a_record_without_a_fresh_token_is_refused(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = judge.post(
        f"/events/{floor['event_id']}/incidents/new",
        headers=JSON,
        data={
            "key": "phone-outbox-key-0003",
            "round": "1",
            "subject_kind": "player",
            "table": "2",
            "player": "P-001",
            "infraction": "3.5.2",
            "penalty": "warning",
            "outbox_owner": floor["people"]["floor_judge"][0],
        },
    )
    assert response.status_code == 400 and incidents(app, floor["event_id"]) == []


def test_an_upgrade_that_changed_before_the_record_arrived_is_kept_as_given_and_flagged(app, floor):
    other = signed_in(app, floor["people"]["other_floor"][1])
    assert log(other, floor["event_id"], player="P-001", infraction="3.5.1.1", penalty="warning").status_code == 302
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    logged = (utcnow() - timedelta(minutes=20)).isoformat() + "Z"
    # the phone, without network, knew of no earlier penalty: it suggested a warning, and the judge gave one
    response = outbox_send(
        judge,
        floor["event_id"],
        floor["people"]["floor_judge"][0],
        key="phone-outbox-key-0004",
        player_id=floor["players"]["P-001"],
        infraction="3.5.2",
        penalty="warning",
        logged_at=logged,
        phone_suggested="warning",
        phone_upgraded="0",
        phone_because="",
    )
    assert response.status_code == 201 and response.get_json()["changed"] is True
    incident = incidents(app, floor["event_id"])[-1]
    assert (incident.rank_id, incident.suggested_rank_id, incident.upgraded, incident.suggestion_changed) == (
        "warning",
        "loss_of_game",
        True,
        True,
    )
    assert incident.phone_suggestion == {"suggested": "warning", "upgraded": False, "because": []}
    assert abs(incident.logged_offline_at - datetime.fromisoformat(logged[:-1])) < timedelta(seconds=1)
    with app.app_context():
        entry = db.session.scalar(
            select(AuditEntry).where(AuditEntry.action == "incident.log", AuditEntry.object_id == incident.id)
        )
        details = entry.details if isinstance(entry.details, dict) else json.loads(entry.details)
        assert details["suggestion_changed"] is True and details["phone_suggested"] == "warning"
    page = judge.get(response.get_json()["url"]).get_data(as_text=True)
    assert "Check this penalty: the suggestion changed" in page
    head = signed_in(app, floor["people"]["head_judge"][1])
    feed = head.get(f"/events/{floor['event_id']}/feed").get_data(as_text=True)
    assert "Logged offline: the suggestion changed to Loss of Game" in feed


def test_the_same_suggestion_on_phone_and_server_is_not_flagged_and_still_needs_a_reason_below_it(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    uid = floor["people"]["floor_judge"][0]
    fine = outbox_send(
        judge,
        floor["event_id"],
        uid,
        key="phone-outbox-key-0005",
        player_id=floor["players"]["P-002"],
        infraction="3.5.2",
        penalty="warning",
        phone_suggested="warning",
        phone_upgraded="0",
    )
    assert fine.status_code == 201 and fine.get_json()["changed"] is False
    below = outbox_send(
        judge,
        floor["event_id"],
        uid,
        key="phone-outbox-key-0006",
        player_id=floor["players"]["P-002"],
        infraction="3.5.3.2",
        penalty="warning",
        phone_suggested="loss_of_game",
        phone_upgraded="1",
        phone_because="1",
    )
    assert below.status_code == 422 and "deviation_reason" in below.get_json()["errors"]


def test_the_phones_clock_is_believed_only_within_twelve_hours_and_never_in_the_future():
    now = datetime(2026, 11, 21, 14, 0)
    assert phone_time("2026-11-21T13:40:00Z", now) == datetime(2026, 11, 21, 13, 40)
    assert phone_time("2026-11-21T14:40:00+01:00", now) == datetime(2026, 11, 21, 13, 40)  # another zone
    assert phone_time("2026-11-21T18:00:00Z", now) == now  # a phone clock running ahead
    assert phone_time("2026-11-20T00:00:00Z", now) is None
    assert phone_time("yesterday", now) is None and phone_time("", now) is None


def test_a_deck_check_started_offline_keeps_the_phones_start_time(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    started = utcnow() - timedelta(minutes=7)
    response = outbox_send(
        judge,
        floor["event_id"],
        floor["people"]["floor_judge"][0],
        key="phone-deck-check-0001",
        path="deck-checks/new",
        player_1="P-001",
        logged_at=started.isoformat() + "Z",
    )
    assert response.status_code == 201 and response.get_json()["kind"] == "deck_check"
    with app.app_context():
        dc = db.session.scalar(select(DeckCheck))
        assert abs(dc.started_at - started) < timedelta(seconds=1)


def test_the_phones_copy_holds_only_events_the_account_judges_with_standing_penalties(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    second = log(judge, floor["event_id"], player="P-003", infraction="3.4", penalty="warning")
    number = int(second.headers["Location"].split("/incidents/")[1].split("?")[0])
    token = csrf_token(judge, f"/events/{floor['event_id']}/incidents/{number}")
    judge.post(
        f"/events/{floor['event_id']}/incidents/{number}/void", data={"csrf_token": token, "reason": "wrong table"}
    )
    copy = judge.get("/offline/copy.json")
    assert copy.headers["Cache-Control"] == "no-store"
    body = copy.get_json()
    [event] = body["events"]
    assert event["id"] == floor["event_id"] and event["level"] == 2 and event["current_round"] == 1
    assert {p["code"] for p in event["players"]} == {"P-001", "P-002", "P-003", "P-004"}
    assert [(p["ref"], p["infraction"], p["rank"], p["players"]) for p in event["priors"]] == [
        (1, "3.5.2", "warning", [floor["players"]["P-001"]])
    ]  # the voided one does not count
    assert "policies" not in body  # the engine's input is in the policy's file the event names, kept once per version
    assert judge.get(event["finder"]).get_json()["policy"]["ranks"][0]["id"] == "caution"
    assert f"/events/{floor['event_id']}/incidents/new" in event["pages"]
    for outsider in ("scorekeeper", "outsider"):
        other = signed_in(app, floor["people"][outsider][1])
        assert other.get("/offline/copy.json").get_json()["events"] == []


def test_the_app_installs_a_manifest_and_a_root_scoped_service_worker_listing_the_shell(app, client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    body = manifest.get_json(force=True)
    assert body["display"] == "standalone" and body["start_url"] == "/"
    assert {i["sizes"] for i in body["icons"]} == {"192x192", "512x512"}
    for icon in body["icons"]:
        with client.get(icon["src"]) as image:
            assert image.mimetype == "image/png" and image.get_data()[:4] == b"\x89PNG"
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript" and worker.headers["Cache-Control"] == "no-cache"
    text = worker.get_data(as_text=True)
    # shell files under their content-hashed addresses (judgeapp/static_files.py), as the pages load them
    assert "__VERSION__" not in text and '"/offline"' in text
    assert re.search(r'"/static/js/bundle/finder\.js\?v=[0-9a-f]{12}"', text)
    page = client.get("/login").get_data(as_text=True)
    assert 'rel="manifest"' in page
    assert re.search(r'/static/js/bundle/app\.js\?v=[0-9a-f]{12}" data-entry="page"', page)
    assert "No network" in client.get("/offline").get_data(as_text=True)


def test_every_page_names_its_account_for_the_phones_page_cache_and_shared_files_name_none(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    uid = str(floor["people"]["floor_judge"][0])
    for path in ("/", f"/events/{floor['event_id']}", f"/events/{floor['event_id']}/incidents/new", "/offline/token"):
        assert judge.get(path).headers["X-Judgeapp-Account"] == uid, path
    stranger = app.test_client()
    assert stranger.get("/login").headers["X-Judgeapp-Account"] == "none"
    assert (
        stranger.get(f"/events/{floor['event_id']}").headers["X-Judgeapp-Account"] == "none"
    )  # the redirect to log in
    for path in ("/offline", "/sw.js", "/manifest.webmanifest", "/static/js/page.js"):  # the same for every account
        response = judge.get(path)
        assert "X-Judgeapp-Account" not in response.headers, path
        response.close()


def test_every_page_maps_each_module_it_may_load_one_by_one_from_its_plain_address_before_any_module_runs(app):
    """The import map: a relative import resolves to the plain static address (under the app's URL prefix too), which
    the map sends to the address url_for gives, for every module a page loads one by one (those of pages that need the
    network anyway); the modules the bundles hold are not in it, and the bundles import each other at their versioned
    addresses. The service worker installs the bundles and keeps the other modules when a page asks for them."""
    from judgeapp.offline.bundles import make_bundles

    modules = sorted(p.name for p in (Path(app.static_folder) / "js").glob("*.js"))
    bundles = make_bundles()
    bundled = {m.removeprefix("js/") for b in bundles for m in b.modules}
    one_by_one = {"clock.js", "servertime.js", "i18n.js", "call-status.js", "jobs.js"}
    assert {"engine.js", "outbox.js", "storage.js", "sync.js", "page.js", "incident.js"} <= bundled
    assert one_by_one <= set(modules)
    client = app.test_client()
    for prefix in ("", "/judgeapp"):
        for path in ("/login", "/offline"):
            html = client.get(path, base_url=f"http://localhost{prefix}").get_data(as_text=True)
            found = re.search(r'<script type="importmap">(.*?)</script>', html, re.DOTALL)
            assert found and found.start() < html.index('<script type="module"'), path
            imports = json.loads(found.group(1))["imports"]
            with app.test_request_context(path, base_url=f"http://localhost{prefix}"):
                expected = {f"{prefix}/static/js/{m}": url_for("static", filename=f"js/{m}") for m in one_by_one}
            assert expected.items() <= imports.items(), path
            only_bundled = bundled - {"i18n.js", "servertime.js"}  # those two a clock's page loads one by one too
            assert not any(key.removeprefix(f"{prefix}/static/js/") in only_bundled for key in imports), path
    worker = client.get("/sw.js").get_data(as_text=True)
    assert all(re.search(rf'"/static/js/bundle/{b.name}\.js\?v=[0-9a-f]{{12}}"', worker) for b in bundles)
    assert all(re.search(rf'"/static/js/{re.escape(m)}\?v=[0-9a-f]{{12}}"', worker) for m in one_by_one)


def test_the_service_worker_waits_for_a_page_as_long_as_the_server_is_configured_to_let_it(tmp_path, sqlite_schema):
    """How long the worker waits for the server before it shows the phone's copy (or the offline page) is a setting:
    6 s deployed (a crowded venue network), longer on the browser tests' servers, whose pages are slow because the
    test machine is busy, not because the network is; each server's worker says its own, also when compressed."""
    import shutil

    from judgeapp import create_app
    from tests.conftest import app_config

    waits = {}
    for wait in (None, 60000):
        folder = tmp_path / str(wait)
        folder.mkdir()
        shutil.copyfile(sqlite_schema, folder / "test.sqlite3")
        config = app_config(folder) if wait is None else app_config(folder, JUDGEAPP_NETWORK_WAIT_MS=wait)
        client = create_app(config).test_client()
        for encoding in ("identity", "br"):
            worker = client.get("/sw.js", headers={"Accept-Encoding": encoding})
            text = brotli.decompress(worker.get_data()) if worker.content_encoding == "br" else worker.get_data()
            found = re.findall(rb"NETWORK_WAIT_MS\s*=\s*(\d+)", text)
            waits[(wait, encoding)] = [int(n) for n in found]
    assert waits == {
        (None, "identity"): [6000],
        (None, "br"): [6000],
        (60000, "identity"): [60000],
        (60000, "br"): [60000],
    }


def test_a_page_shown_from_the_phones_copy_can_ask_whether_the_judges_events_changed_since_closing_included(app, floor):
    from judgeapp.models import Event, User
    from judgeapp.postevent import services as postevent
    from tests.conftest import login

    judge = app.test_client()
    assert judge.get("/offline/changed.json").status_code == 401
    assert login(judge, floor["people"]["floor_judge"][1]).status_code == 302
    before = judge.get("/offline/changed.json").get_json()["changed"]
    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        head = db.session.get(User, floor["people"]["head_judge"][0])
        from judgeapp.events import round_services

        round_services.end_round(
            db.session, actor=head, event=event, rnd=round_services.current_round(db.session, event)
        )
        db.session.commit()
        assert postevent.close_event(db.session, actor=event.organizer, event=event, local=lambda t: t)
        db.session.commit()
    answer = judge.get("/offline/changed.json")
    assert answer.get_json()["changed"] > before and "no-store" in answer.headers["Cache-Control"]
