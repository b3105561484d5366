"""The incident form's draft (kept on the phone until the server has the incident) never outlives the save: a draft
left behind carries the saved incident's one-time key, and the next incident typed over it would be stored by the
server as that same incident, i.e. dropped, while the phone says it was sent. Found by the WebKit scenario
(tests/browser/test_webkit.py), where the network went away before the confirmation page had run its script."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import log_in, shot
from tests.browser.test_offline import incidents_in_db, log_offline_incident, ready_for_offline

pytestmark = pytest.mark.browser

DRAFT = "judgeapp:incident-draft:/events/1/incidents/new"


def test_an_incident_saved_just_before_the_network_drops_leaves_no_draft_and_the_next_one_is_stored_too(
    live_server, phone
):
    context = phone.context
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new")
    ready_for_offline(phone, live_server)
    # the network goes as the confirmation page opens: the page that clears the draft never comes
    confirmation = re.compile(r"/events/1/incidents/1\?saved=1$")
    context.route(confirmation, lambda route: route.abort("internetdisconnected"))
    phone.evaluate(  # what the form page leaves on the phone as it goes
        "draft => addEventListener('pagehide', () =>"
        " sessionStorage.setItem('draft-left', localStorage.getItem(draft) ?? 'none'))",
        DRAFT,
    )
    phone.get_by_label("Table").fill("1")
    phone.get_by_role("button", name="Haruto Sato · DEMO-001").click()
    phone.get_by_placeholder("Search by code or words").fill("failure to discard")
    phone.locator("#picker-rows .pick[data-code='3.5.2']").click()  # words list it; a tap chooses it
    phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for()
    phone.get_by_role("button", name="Save incident").click()
    phone.wait_for_url(confirmation)
    assert phone.evaluate("sessionStorage.getItem('draft-left')") == "none"
    assert [i.number for i in incidents_in_db(live_server)] == [1]

    context.set_offline(True)
    phone.goto(f"{live_server}/events/1/incidents/new")  # from the phone: an empty form, nothing "restored"
    assert phone.get_by_role("heading", name="New incident").is_visible()
    assert phone.get_by_text("Restored what you had typed").count() == 0
    log_offline_incident(phone, "2", "Sota Takahashi · DEMO-003", "3.4", "Suggested: Warning")
    shot(phone, "55-offline-after-a-save-the-network-cut-short")
    context.unroute(confirmation)
    context.set_offline(False)
    phone.wait_for_function("() => document.body.dataset.outboxWaiting === '0'", timeout=30000)
    phone.locator("#outbox .outbox-sent").filter(has_text="Sent as incident #2").wait_for()
    stored = incidents_in_db(live_server)
    assert [(i.number, i.subject_name, i.infraction_code) for i in stored] == [
        (1, "Haruto Sato", "3.5.2"),
        (2, "Sota Takahashi", "3.4"),
    ]
    assert len({i.client_key for i in stored}) == 2
