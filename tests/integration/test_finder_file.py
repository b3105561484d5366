"""The finder's words as one file per policy version, fetched once and kept by the phone (issue 36).

The incident form no longer embeds every infraction's names, readings and phrases in every language (136 KB of a
page of 140 KB): it names a versioned JSON file of the policy's finder entries (judgeapp/infractions/search.py
`finder_entries`), cached for a year under an address carrying its content's hash, which the phone's service worker
keeps for offline use (static/sw.js) and incident.js builds its index from.
"""

from __future__ import annotations

import hashlib
import json
import re

from judgeapp.extensions import db
from judgeapp.infractions.search import entries_of_file, finder_entries
from judgeapp.models import Event
from tests.conftest import login

FINDER_RE = re.compile(r'data-finder="([^"]+)"')


def form_page(client, event_id: int) -> str:
    return client.get(f"/events/{event_id}/incidents/new").get_data(as_text=True)


def test_the_incident_form_names_a_versioned_finder_file_instead_of_embedding_the_words(app, floor):
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1])
    page = form_page(judge, floor["event_id"])
    assert 'id="infraction-finder"' not in page
    url = FINDER_RE.search(page).group(1)
    with app.app_context():
        policy = db.session.get(Event, floor["event_id"]).policy_id
        entries = finder_entries(app.extensions["judgeapp.catalog"].policy(policy))
    answer = judge.get(url)
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert entries_of_file(answer.get_json()) == json.loads(json.dumps(entries))
    assert url.endswith(f"?v={hashlib.sha256(answer.get_data()).hexdigest()[:12]}")
    assert answer.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    assert len(page.encode()) < 40_000  # the form without the words of every infraction in every language


def test_one_file_per_policy_version_whatever_the_event_and_another_version_is_not_kept(app, floor):
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1])
    url = FINDER_RE.search(form_page(judge, floor["event_id"])).group(1)
    assert str(floor["event_id"]) not in url.split("?")[0]  # named by the policy: every event of it shares the file
    stale = judge.get(url.split("?")[0] + "?v=000000000000")
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "no-store"
    assert app.test_client().get(url).status_code == 401  # for signed-in judges only
    assert judge.get("/offline/finder/no-such-policy.json").status_code == 404


def test_the_offline_copy_names_each_events_finder_file_for_the_phone_to_keep(app, floor):
    judge = app.test_client()
    login(judge, floor["people"]["floor_judge"][1])
    url = FINDER_RE.search(form_page(judge, floor["event_id"])).group(1)
    copy = judge.get("/offline/copy.json").get_json()
    assert [e["finder"] for e in copy["events"] if e["id"] == floor["event_id"]] == [url]
