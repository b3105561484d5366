"""An organizer's own policy file for one event (a house policy, a publisher's newer version): validated like the
shipped catalog, enforced by the event's forms, engine, rules page and the phone's copy, and kept as it came.
Also: the event's settings offer each policy's own levels, and every incident keeps the engine's explanation."""

import csv
import hashlib
import io
import re
from pathlib import Path

from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, Event, EventPolicy, Incident
from tests.conftest import csrf_token, login
from tests.integration.test_incidents import log, signed_in, suggestion

HOUSE = (Path(__file__).resolve().parents[1] / "fixtures" / "catalogs" / "valid.yaml").read_bytes()


def organizer(app, floor):
    client = app.test_client()
    assert login(client, floor["organizer"][1]).status_code == 302
    return client


def upload(client, event_id, content=HOUSE, name="house.yaml", level=""):
    url = f"/events/{event_id}/policy"
    data = {"csrf_token": csrf_token(client, url), "file": (io.BytesIO(content), name), "level": level}
    return client.post(url, data=data, content_type="multipart/form-data")


def the_event(app, event_id):
    with app.app_context():
        event = db.session.get(Event, event_id)
        db.session.expunge(event)
        return event


def test_the_organizer_uploads_a_house_policy_and_the_event_enforces_it_everywhere(app, floor):
    event_id = floor["event_id"]
    answer = upload(organizer(app, floor), event_id)
    assert answer.status_code == 302
    event = the_event(app, event_id)
    assert (event.policy_id, event.policy_version, event.level) == ("house-rules", "2026.1", 2)
    assert event.policy_sha == hashlib.sha256(HOUSE.decode().encode()).hexdigest()
    with app.app_context():
        kept = db.session.scalars(select(EventPolicy)).one()
        assert (kept.filename, kept.text.encode()) == ("house.yaml", HOUSE)  # kept as it came
        audit = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "event.policy_upload")).one()
        assert audit.details["before"]["policy"] == "bushiroad-afr" and audit.details["file"] == "house.yaml"

    judge = signed_in(app, floor["people"]["floor_judge"][1])
    form = judge.get(f"/events/{event_id}/incidents/new").get_data(as_text=True)
    assert 'value="1.1"' in form and "Drew an extra card" in form and 'value="3.5.2"' not in form
    s = suggestion(judge, event_id, player_id=floor["players"]["P-001"], infraction="1.1").get_json()
    assert (s["default_label"], s["suggested"]) == ("Warning ~ Loss of Game", "warning")
    log(judge, event_id, player="P-001", infraction="2.1", penalty="warning")
    again = suggestion(judge, event_id, player_id=floor["players"]["P-001"], infraction="2.1").get_json()
    assert again["upgraded"] and again["explanation"].startswith("Upgraded: 2nd penalty in 2 today (§1)")

    rules = re.search(r'href="([^"]+)" id="rules-link"', form).group(1)
    assert rules == f"/reference/events/{event_id}?level=2"
    page = judge.get(rules).get_data(as_text=True)
    assert "Shop House Rules" in page and "Same section twice in a day upgrades." in page
    copy = judge.get("/offline/copy.json").get_json()
    key = f"house-rules@{event.policy_sha}"  # the whole SHA-256: a 48-bit prefix could be made to collide
    assert [e["policy"] for e in copy["events"]] == [key] and "policies" not in copy
    # the engine's input, as the quick reference and the finder's words: in the event's policy file, kept by the phone
    assert {i["code"] for i in judge.get(copy["events"][0]["finder"]).get_json()["policy"]["infractions"]} == {
        "1.1",
        "2.1",
    }
    # the quick reference is no page the phone keeps: it renders it offline from the event's policy file
    assert copy["events"][0]["reference"] == f"/reference/events/{event_id}"
    assert not any(page.startswith("/reference/") for page in copy["events"][0]["pages"])
    assert copy["events"][0]["finder"].startswith(f"/offline/finder/events/{event_id}.json?v=")


def test_a_policy_file_with_a_mistake_is_refused_at_the_file_field_naming_its_line_and_field(app, floor):
    bad = HOUSE.replace(b"max: loss_of_game", b"max: loss of gme", 1)
    answer = upload(organizer(app, floor), floor["event_id"], bad, name="../../etc/house.yaml")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert (
        "house.yaml:30: policies.house-rules.infractions[0].defaults.level_2.max: "
        "&#39;loss of gme&#39; is not a rank of this policy" in page
    )
    assert "../" not in page.split('id="file-error"')[1][:300]  # only the file's own name
    event = the_event(app, floor["event_id"])
    assert (event.policy_id, event.policy_sha) == ("bushiroad-afr", None)
    with app.app_context():
        assert db.session.scalars(select(EventPolicy)).all() == []


def test_a_file_of_two_policies_or_a_level_the_policy_lacks_or_not_utf8_is_refused_with_the_reason(app, floor):
    client = organizer(app, floor)
    two = HOUSE + HOUSE.split(b"policies:\n", 1)[1].replace(b"  house-rules:", b"  other-rules:", 1)
    page = upload(client, floor["event_id"], two).get_data(as_text=True)
    assert "house.yaml holds 2 policies (house-rules, other-rules); upload one at a time." in page
    page = upload(client, floor["event_id"], level="3").get_data(as_text=True)
    assert "Shop House Rules has levels 1, 2; choose one." in page
    page = upload(client, floor["event_id"], HOUSE.replace(b"Drew", "Drëw".encode("latin-1"))).get_data(as_text=True)
    assert "house.yaml: not UTF-8 text" in page
    assert the_event(app, floor["event_id"]).policy_sha is None


def test_a_floor_judge_or_the_head_judge_cannot_upload_a_policy(app, floor):
    for role in ("floor_judge", "head_judge"):
        client = signed_in(app, floor["people"][role][1])
        token = csrf_token(client, f"/events/{floor['event_id']}")
        answer = client.post(
            f"/events/{floor['event_id']}/policy",
            data={"csrf_token": token, "file": (io.BytesIO(HOUSE), "house.yaml")},
            content_type="multipart/form-data",
        )
        assert answer.status_code == 403
    assert the_event(app, floor["event_id"]).policy_sha is None


def test_once_an_incident_is_logged_the_policy_can_no_longer_be_replaced(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    page = upload(organizer(app, floor), floor["event_id"]).get_data(as_text=True)
    assert "1 incident was logged under bushiroad-afr 1.11" in page
    assert the_event(app, floor["event_id"]).policy_id == "bushiroad-afr"


def test_choosing_a_shipped_policy_again_in_the_settings_leaves_the_uploaded_file(app, floor):
    client = organizer(app, floor)
    upload(client, floor["event_id"])
    settings = client.get(f"/events/{floor['event_id']}/settings").get_data(as_text=True)
    assert "Shop House Rules (uploaded for this event)" in settings
    event = the_event(app, floor["event_id"])
    fields = {
        "name": event.name,
        "date": event.date.isoformat(),
        "venue": event.venue,
        "level": "2",
        "rounds": str(event.rounds),
        "round_minutes": str(event.round_minutes),
        "statement_days": "7",
    }
    url = f"/events/{floor['event_id']}/settings"
    kept = client.post(url, data={"csrf_token": csrf_token(client, url), "policy_id": "house-rules", **fields})
    assert kept.status_code == 302 and the_event(app, floor["event_id"]).policy_sha == event.policy_sha
    back = client.post(url, data={"csrf_token": csrf_token(client, url), "policy_id": "bushiroad-afr", **fields})
    assert back.status_code == 302
    event = the_event(app, floor["event_id"])
    assert (event.policy_id, event.policy_sha) == ("bushiroad-afr", None)


def test_the_settings_offer_each_policys_own_levels_under_its_name(app, floor, catalog):
    page = organizer(app, floor).get(f"/events/{floor['event_id']}/settings").get_data(as_text=True)
    levels = page.split('id="level"')[1].split("</select>")[0]
    groups = {
        label: re.findall(r">([^<]+)</option>", body)
        for label, body in re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', levels, re.S)
    }
    assert groups["Bushiroad TCG Advanced Floor Rules — Penalty Guide"] == ["Level 1", "Level 2", "Level 3"]
    assert groups == {p.name: [lv.name for lv in p.levels] for p in catalog.policies.values()}  # every shipped one


def test_an_incident_keeps_the_engines_explanation_shown_on_its_page_and_in_the_csv(app, floor):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    log(judge, floor["event_id"], player="P-001", infraction="3.5.3.2", penalty="loss_of_game")
    why = "Upgraded: 2nd penalty in 3.5 at this event (Penalty Guide §2): Loss of Game — after incident #1, round 1"
    with app.app_context():
        stored = [i.suggestion_explanation for i in db.session.scalars(select(Incident).order_by(Incident.number))]
    assert stored == ["Default at Level 2: Warning.", why]
    head = signed_in(app, floor["people"]["head_judge"][1])
    assert why in head.get(f"/events/{floor['event_id']}/incidents/2").get_data(as_text=True)
    body = head.get(f"/events/{floor['event_id']}/export/incidents.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [r["suggestion_explanation"] for r in rows] == ["Default at Level 2: Warning.", why]
    report = head.get(f"/events/{floor['event_id']}/report").get_data(as_text=True)
    assert why in report  # the players with upgraded penalties, each with the rule that upgraded it
