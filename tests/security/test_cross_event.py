"""The objects of one event cannot be reached through another event's URLs, even by that event's organizer and head
judge: incidents, appeals, investigations and their statement links, time extensions, deck checks, staff, reports."""

import subprocess

from tests.conftest import login
from tests.renders import report_pdf
from tests.security.conftest import url_of, with_every_role

OBJECT_ARGUMENTS = {"number", "extension_id", "deck_check_id", "request_id", "assignment_id", "player_id"}


def test_every_route_naming_an_object_answers_404_when_the_object_is_another_events(app, world, give_role):
    users, args = world
    # The organizer of the other event is also its head judge, scorekeeper and floor judge: every role there, none here.
    client, token = with_every_role(app, give_role, args["other_event_id"], users["other_organizer"])
    rules = [r for r in app.url_map.iter_rules() if "event_id" in r.arguments and r.arguments & OBJECT_ARGUMENTS]
    assert len(rules) >= 19
    wrong = []
    for rule in rules:
        url = url_of(app, rule, args, event_id=args["other_event_id"])  # this event's object ids, the other event's URL
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            response = client.get(url) if method == "GET" else client.post(url, data={"csrf_token": token})
            if response.status_code != 404:
                wrong.append(f"{method} {url} ({rule.endpoint}): {response.status_code}")
    assert not wrong, "\n".join(wrong)


def test_the_other_events_report_pdf_and_csv_show_none_of_this_events_records(app, world, tmp_path, job_worker):
    users, args = world
    client = app.test_client()
    login(client, users["other_organizer"][1])
    other = args["other_event_id"]
    page = client.get(f"/events/{other}/report").get_data(as_text=True)
    csv = client.get(f"/events/{other}/export/incidents.csv").get_data(as_text=True)
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(report_pdf(client, job_worker, other).data)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Other event" in page and "Other event" in text
    for shown in (page, csv, text):
        assert "Matrix Player" not in shown and "M-1" not in shown


def test_a_statement_link_answers_only_for_its_own_token(app, world):
    _, args = world
    client = app.test_client()
    assert client.get(f"/statement/{args['token']}").status_code == 200
    assert client.get(f"/statement/{args['token'][:-1]}x").status_code in (404, 410)
