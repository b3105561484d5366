"""A floor judge at the table, in real Chromium at 390x844: incidents, the upgrade, a deck check, the round clock."""

import re

import pytest

from tests.browser.conftest import PHONE, log_in, shot

pytestmark = pytest.mark.browser


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def open_event(page, base):
    log_in(page, base)
    page.get_by_role("link", name="Demo Open").click()


def pick_player_at_table(page, table: str, label: str):
    page.get_by_label("Table").fill(table)
    page.get_by_role("button", name=label).click()


def test_floor_judge_logs_a_warning_then_sees_the_upgrade_then_a_deck_check_moves_the_clock(live_server, phone):
    open_event(phone, live_server)
    taps = 0
    phone.get_by_role("link", name="New incident").click()
    taps += 1
    phone.get_by_label("Table").click()
    taps += 1
    pick_player_at_table(phone, "1", "Haruto Sato · DEMO-001")
    taps += 1
    phone.get_by_placeholder("Search by code or words").click()
    taps += 1
    phone.get_by_placeholder("Search by code or words").press_sequentially("failure to discard", delay=10)
    phone.locator("#picker-rows .pick").first.click()  # the top row: words list, a tap chooses
    taps += 1
    suggestion = phone.locator("#suggestion")
    suggestion.get_by_text("Suggested: Warning").wait_for()
    assert phone.locator("#infraction").input_value() == "3.5.2"
    assert phone.get_by_label("Penalty", exact=True).input_value() == "warning"  # pre-set to the suggestion
    assert "default at level 2: Warning" in suggestion.inner_text()
    assert no_horizontal_scroll(phone)
    shot(phone, "10-incident-form-warning")
    phone.get_by_role("button", name="Save incident").click()
    taps += 1
    assert taps <= 6
    confirmation = phone.locator(".confirm")
    confirmation.get_by_text("Saved: incident #1").wait_for()
    assert "Haruto Sato receives a Warning for Failure to Discard Cards (3.5.2)" in confirmation.inner_text()
    shot(phone, "11-incident-saved")

    phone.get_by_role("link", name="Another incident").click()
    pick_player_at_table(phone, "1", "Haruto Sato · DEMO-001")
    phone.get_by_placeholder("Search by code or words").press_sequentially("3.5.3.2", delay=10)
    suggestion.get_by_text("Suggested: Loss of Game").wait_for()
    assert (
        "Upgraded: 2nd penalty in 3.5 at this event (Penalty Guide §2): Loss of Game — after incident #1, round 1"
        in suggestion.inner_text()
    )
    assert suggestion.get_by_role("link", name=re.compile(r"#1 \(3\.5\.2, round 1\)")).is_visible()
    assert phone.get_by_label("Penalty", exact=True).input_value() == "loss_of_game"
    phone.get_by_label("Penalty", exact=True).select_option("warning")  # below the upgrade: a reason is asked at once
    assert phone.get_by_label("Reason for this penalty").is_visible()
    phone.get_by_label("Penalty", exact=True).select_option("loss_of_game")
    assert not phone.get_by_label("Reason for this penalty").is_visible()
    assert "upgraded" in phone.locator("#suggestion").get_attribute("class")  # the panel itself says upgrade
    shot(phone, "12-incident-form-upgrade")
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #2").wait_for()

    phone.get_by_role("link", name="Back to the event").click()
    phone.get_by_role("link", name="Start a deck check").click()
    phone.get_by_label("Table").fill("2")
    phone.get_by_role("button", name="Start deck check").click()
    phone.get_by_role("heading", name="Deck check · table 2").wait_for()
    assert "Sota Takahashi" in phone.locator(".facts").inner_text()  # seated at table 2 by the pairings
    phone.wait_for_timeout(1200)  # the check takes a moment; the policy gives that time back
    phone.get_by_text("Deck matches the registration").click()
    phone.get_by_role("button", name="End deck check").click()
    flash = phone.locator(".flash-success")
    flash.wait_for()
    ends = re.search(r"Table 2: 1 min added; it now ends at (\d\d:\d\d)", flash.inner_text())
    assert ends, flash.inner_text()
    shot(phone, "13-deck-check-ended")

    phone.get_by_role("link", name="Clock").click()
    row = phone.locator("#table-2")
    assert ends.group(1) in row.inner_text() and "+1 min" in row.inner_text()
    phone.wait_for_function("() => document.querySelector('#table-2 .countdown').textContent.includes('left')")
    assert no_horizontal_scroll(phone)
    shot(phone, "14-round-clock")
    phone.reload()
    assert ends.group(1) in phone.locator("#table-2").inner_text()  # still right after a reload


def test_a_floor_judges_disqualification_reaches_the_head_judges_feed_without_a_reload(live_server, browser, phone):
    from tests.browser.conftest import PHONE as VIEW

    head_context = browser.new_context(viewport=VIEW, device_scale_factor=2, is_mobile=True, has_touch=True)
    head = head_context.new_page()
    log_in(head, live_server, "head@demo.test")
    head.get_by_role("link", name="Demo Open").click()
    head.get_by_role("link", name="Feed").click()
    head.get_by_text("Nothing to report yet.").wait_for()

    open_event(phone, live_server)
    phone.get_by_role("link", name="New incident").click()
    pick_player_at_table(phone, "2", "Sota Takahashi · DEMO-003")
    phone.get_by_placeholder("Search by code or words").press_sequentially("3.8.3", delay=10)
    phone.locator("#suggestion").get_by_text("Suggested: Disqualification").wait_for()
    assert phone.get_by_text("Only the head judge decides this: it is saved as").is_visible()
    phone.get_by_label("Description").fill("Threw a chair towards the opponent.")
    shot(phone, "15-disqualification-recommended")
    phone.get_by_role("button", name="Save incident").click()
    assert "recommended" in phone.locator(".confirm").inner_text()

    head.get_by_text("#1 · Disqualification — recommended, your decision").wait_for(timeout=10_000)
    shot(head, "16-head-judge-feed")
    head.get_by_role("link", name="Event").click()
    assert head.locator(".subnav .count").inner_text() == "1"
    head_context.close()


def test_what_was_typed_survives_a_reload_until_the_incident_is_saved_once(live_server, phone):
    open_event(phone, live_server)
    phone.get_by_role("link", name="New incident").click()
    pick_player_at_table(phone, "4", "佐藤 陽翔 · DEMO-007")
    phone.get_by_placeholder("Search by code or words").press_sequentially("3.9.1", delay=10)
    phone.locator("#suggestion").get_by_text("Suggested:").wait_for()
    phone.get_by_label("Description").fill("Arrived 4 minutes late; 東京 train delay.")
    key = phone.locator("input[name=key]").input_value()
    phone.reload()  # the phone dropped the page (or the tab was closed) before saving
    assert phone.get_by_text("Restored what you had typed and not yet saved.").is_visible()
    assert phone.get_by_label("Description").input_value() == "Arrived 4 minutes late; 東京 train delay."
    assert phone.get_by_role("combobox", name="Player").input_value() == "佐藤 陽翔 · DEMO-007"
    assert phone.locator("input[name=key]").input_value() == key  # the same one-time key: still stored once
    shot(phone, "17-draft-restored")
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    phone.get_by_role("link", name="Another incident").click()
    assert phone.get_by_label("Description").input_value() == ""
    assert not phone.get_by_text("Restored what you had typed").is_visible()


def test_a_player_typed_at_the_wrong_table_is_flagged_at_once_and_their_real_table_is_one_tap_away(live_server, phone):
    """The demo's pairings seat Ji-ho Kim (DEMO-009) at table 5 in round 1; the judge typed table 3."""
    open_event(phone, live_server)
    phone.get_by_role("link", name="New incident").click()
    phone.get_by_label("Table").fill("3")
    assert phone.locator("#table-players").get_by_role("button").count() == 2, "the table's two players come first"
    phone.get_by_role("combobox", name="Player").fill("Ji-ho Kim · DEMO-009")

    warning = phone.get_by_role("status").filter(has_text="Ji-ho Kim")
    warning.get_by_text("Ji-ho Kim is at table 5 this round, not table 3.").wait_for()
    assert no_horizontal_scroll(phone)
    shot(phone, "15a-player-at-another-table")
    warning.get_by_role("button", name="Use table 5").click()

    assert phone.get_by_label("Table").input_value() == "5"
    assert not phone.locator("#seat-warning").is_visible()
    assert phone.locator("#table-players .chip.on").inner_text() == "Ji-ho Kim · DEMO-009"
