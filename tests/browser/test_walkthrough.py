"""Issue 21's walkthrough at 390x844, in Chromium: a refused save puts the judge on the first field in error, and a
step that cannot be undone asks first, naming what will happen."""

import pytest

from judgeapp.extensions import db
from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.browser


def test_after_a_refused_save_the_first_field_in_error_has_the_focus(live_server, phone):
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new")
    phone.get_by_role("button", name="Save incident").click()  # nothing filled in
    phone.locator(".field-error").first.wait_for()
    first = phone.locator(".field-error").first
    assert first.evaluate("field => field.contains(document.activeElement)")  # the first field the server refused
    assert first.locator("[role=alert]").inner_text()  # and its message is read out
    shot(phone, "81-refused-save-focus-on-the-first-error")


def test_issuing_a_disqualification_asks_first_naming_the_player_and_a_cancel_changes_nothing(
    live_server_with_cases, phone
):
    from judgeapp.models import Incident, IncidentStatus

    log_in(phone, live_server_with_cases, "head@demo.test")
    phone.goto(f"{live_server_with_cases}/events/1/incidents/2")
    asked = []
    phone.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    phone.get_by_role("button", name="Accept: disqualify").click()
    phone.wait_for_timeout(300)  # a cancelled dialog sends nothing: give a stray request the time to show
    assert asked == ["Disqualify Wei Chen? The disqualification is issued now and its investigation opens."]
    with live_server_with_cases.app.app_context():
        assert db.session.get(Incident, 2).status is IncidentStatus.RECOMMENDED
    phone.once("dialog", lambda d: d.accept())
    phone.get_by_role("button", name="Accept: disqualify").click()
    phone.wait_for_url("**/investigations/**")
    with live_server_with_cases.app.app_context():
        assert db.session.get(Incident, 2).status is not IncidentStatus.RECOMMENDED


def test_typing_an_exact_code_selects_it_even_when_it_is_among_the_most_used(live_server, phone):
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.get_by_role("button", name="Haruto Sato · DEMO-001").click()
    phone.get_by_placeholder("Search by code or words").press_sequentially("3.5.2", delay=10)
    phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for()
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    phone.goto(f"{live_server}/events/1/incidents/new")  # 3.5.2 is now among this event's most used
    assert phone.locator("#picker-head").inner_text() == "Most used at this event:"
    assert phone.locator("#picker-rows .pick[data-code='3.5.2']").count() == 1
    phone.get_by_placeholder("Search by code or words").press_sequentially("3.5.2", delay=10)
    assert phone.locator("#infraction").input_value() == "3.5.2"  # selected, not "2 matches"
    assert phone.locator("#picker-rows .pick[data-code='3.5.2']").count() == 1  # listed once


def test_a_word_the_guide_itself_uses_or_part_of_one_finds_the_infraction_and_a_tap_selects_it(live_server, phone):
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new")
    search = phone.get_by_placeholder("Search by code or words")
    search.press_sequentially("phone", delay=10)  # the floor rules' word for §3.17's devices, not in its name
    assert phone.locator("#picker-rows .pick").first.get_attribute("data-code") == "3.17"
    phone.locator("#picker-rows .pick").first.click()
    assert phone.locator("#infraction").input_value() == "3.17"
    search.fill("")
    search.press_sequentially("unsportsm maj", delay=10)  # parts of words: 3.8.2, Unsportsmanlike Conduct — Major
    assert phone.locator("#infraction").input_value() == ""  # 3.17 is not what these words find: no longer chosen
    assert phone.locator("#picker-rows .pick").first.get_attribute("data-code") == "3.8.2"
    phone.locator("#picker-rows .pick").first.click()
    assert phone.locator("#infraction").input_value() == "3.8.2"
    phone.get_by_label("Table").fill("1")
    phone.get_by_role("button", name="Haruto Sato · DEMO-001").click()
    phone.locator("#suggestion").get_by_text("Suggested:").wait_for()
    shot(phone, "83-infraction-found-by-the-guides-word")


def test_the_extension_form_shows_the_minutes_owed_before_saving_and_a_deck_check_counts_live(live_server, phone):
    from datetime import timedelta

    from judgeapp.infractions import ExtensionReason, extension_owed

    policy = live_server.app.extensions["judgeapp.catalog"].policy("bushiroad-afr")
    owed = extension_owed(policy, ExtensionReason.RULING, timedelta(minutes=4)).minutes
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/extensions/new")
    phone.get_by_label("Table").fill("3")
    phone.get_by_label("Match stopped at").fill("10:00")
    phone.get_by_label("Match resumed at").fill("10:04")
    preview = phone.locator("#owed-preview")
    preview.get_by_text(f"Stopped 4:00: {owed} min owed").wait_for()
    shot(phone, "82-extension-owed-before-saving")

    phone.goto(f"{live_server}/events/1/deck-checks/new")
    phone.get_by_label("Table").fill("2")
    phone.get_by_role("button", name="Start deck check").click()
    running = phone.locator("#running")
    running.get_by_text("So far 0:0").wait_for()
    first = running.inner_text()
    phone.wait_for_function(f"() => document.getElementById('running').textContent !== {first!r}", timeout=3_000)
