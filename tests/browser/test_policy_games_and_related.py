"""The policy language's last forms on the phone, in real Chromium at 390x844 (issue 35): the form asks the game of
the match only for an infraction a rule counts per game (Flesh and Blood PPG 3.3: the slow-play Caution "in the
same game"), and links a record to an earlier one of the same cause where the text gives one penalty for related
errors (Magic IPG 1.2), the suggestion then saying no second penalty."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, log_in, shot
from tests.browser.policy_event import choose, serve_policy_event
from tests.browser.test_offline import eventually

pytestmark = pytest.mark.browser


@pytest.fixture
def fab_server(tmp_path):
    yield from serve_policy_event(tmp_path, policy_id="fab-ppg", domain="fab.test", name="Armory Night", level=1)


@pytest.fixture
def mtg_server(tmp_path):
    yield from serve_policy_event(tmp_path, policy_id="mtg-ipg", domain="mtg.test", name="Store Qualifier", level=1)


def start(phone, base, event_id):
    phone.goto(f"{base}/events/{event_id}/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.locator("#player").press_sequentially("Aiko", delay=10)
    phone.locator("#player-matches button").first.click()  # the match: a tap chooses


def save(phone):
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #").wait_for(timeout=30_000)


def test_the_phone_asks_the_game_only_for_slow_play_and_counts_the_caution_of_the_same_game_3_3(fab_server, phone):
    base, event_id = fab_server
    log_in(phone, base, "floor@fab.test")
    start(phone, base, event_id)
    game_field = phone.locator("#game-field")
    suggestion = phone.locator("#suggestion")
    choose(phone, "3.1")
    suggestion.get_by_text("Suggested: Intellect Penalty (IP2)").wait_for(timeout=30_000)
    assert game_field.is_hidden()  # tardiness: no rule counts it per game
    choose(phone, "3.3")
    game_field.wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Game of the match").fill("1")
    suggestion.get_by_text("Suggested: Caution").wait_for(timeout=30_000)
    save(phone)

    start(phone, base, event_id)
    choose(phone, "3.3")
    game_field.wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Game of the match").fill("2")  # another game of the match: just below the threshold
    suggestion.get_by_text("Suggested: Caution").wait_for(timeout=30_000)
    phone.get_by_label("Game of the match").fill("1")  # the same game: at it
    suggestion.get_by_text("Suggested: Warning").wait_for(timeout=30_000)
    suggestion.get_by_text("Upgraded: 2nd 3.3 Slow Play in this game (PPG 3.3): Warning").wait_for(timeout=30_000)
    assert phone.get_by_label("Penalty", exact=True).input_value() == "warning"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-game-slow-play-same-game")


def test_the_phone_links_an_error_to_an_earlier_one_of_the_same_cause_with_no_second_penalty_ipg_1_2(mtg_server, phone):
    base, event_id = mtg_server
    log_in(phone, base, "floor@mtg.test")
    start(phone, base, event_id)
    choose(phone, "2.2")
    phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for(timeout=30_000)
    save(phone)

    start(phone, base, event_id)
    choose(phone, "2.5")
    suggestion = phone.locator("#suggestion")
    suggestion.get_by_text("Suggested: Warning").wait_for(timeout=30_000)
    phone.get_by_label("Same cause as incident #").fill("1")
    suggestion.get_by_text("One penalty for related errors (IPG 1.2): the same cause as incident #1").wait_for(
        timeout=30_000
    )
    assert phone.get_by_label("Penalty", exact=True).input_value() == ""  # no second penalty
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-related-same-cause")
    save(phone)
    phone.goto(f"{base}/events/{event_id}/incidents/2")
    phone.locator("#incident-related").get_by_text("no second penalty").wait_for(timeout=30_000)
    shot(phone, "35-related-incident-page")


def test_offline_the_phone_counts_the_caution_of_the_same_game_from_its_copy_3_3(fab_server, phone):
    """With the network off, the phone's own engine reads the game of each penalty in its copy of the event."""
    base, event_id = fab_server
    log_in(phone, base, "floor@fab.test")
    start(phone, base, event_id)
    choose(phone, "3.3")
    phone.locator("#game-field").wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Game of the match").fill("1")
    phone.locator("#suggestion").get_by_text("Suggested: Caution").wait_for(timeout=30_000)
    save(phone)
    phone.goto(f"{base}/events/{event_id}")
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not phone.evaluate("!!navigator.serviceWorker.controller"):
        phone.reload()  # a page loaded while the worker installed is controlled once it loads again
    phone.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60_000)
    kept = f"""async () => {{
        const copy = await JudgeOutbox.copy(document.body.dataset.user);
        const ev = copy && copy.events.find(e => e.id === {event_id});
        if (!ev || !ev.priors.some(p => p.game === 1)) return false;
        const pages = await caches.open('judgeapp-pages');
        return !!(await pages.match('/events/{event_id}/incidents/new'));
    }}"""
    eventually(phone, kept, seconds=90)  # the copy and the kept pages come in the background: slow on a busy machine

    phone.context.set_offline(True)
    try:
        start(phone, base, event_id)  # served by the service worker from the phone's copy
        choose(phone, "3.3")
        suggestion = phone.locator("#suggestion")
        phone.locator("#game-field").wait_for(state="visible", timeout=30_000)
        phone.get_by_label("Game of the match").fill("2")  # another game: just below the threshold
        suggestion.get_by_text("Suggested: Caution").wait_for(timeout=30_000)
        phone.get_by_label("Game of the match").fill("1")  # the same game: at it
        suggestion.get_by_text("Upgraded: 2nd 3.3 Slow Play in this game (PPG 3.3): Warning").wait_for(timeout=30_000)
        suggestion.get_by_text("No network: worked out on this phone").wait_for(timeout=30_000)
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(phone, "35-game-offline-same-game")
    finally:
        phone.context.set_offline(False)


def test_the_head_judge_links_a_record_to_one_of_the_same_cause_in_the_correction_form_on_the_phone_ipg_1_2(
    mtg_server, phone
):
    base, event_id = mtg_server
    log_in(phone, base, "head@mtg.test")
    for code in ("2.2", "2.5"):  # two records of the same round, each with its own Warning
        start(phone, base, event_id)
        choose(phone, code)
        phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for(timeout=30_000)
        save(phone)
    phone.goto(f"{base}/events/{event_id}/incidents/2/edit")
    phone.get_by_label("Same cause as incident #").fill("2")  # itself: refused at the field, the input kept
    phone.get_by_role("button", name="Save correction").click()
    phone.get_by_text("An incident cannot be linked to itself.").wait_for(timeout=30_000)
    assert phone.get_by_label("Same cause as incident #").input_value() == "2"
    shot(phone, "35-correct-link-refused")
    phone.get_by_label("Same cause as incident #").fill("1")
    phone.get_by_label("Penalty", exact=True).select_option("")
    phone.get_by_label("Why the correction").fill("The same slip as #1")
    phone.get_by_role("button", name="Save correction").click()
    phone.locator("#incident-related").get_by_text("no second penalty").wait_for(timeout=30_000)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-correct-link-saved")


def test_the_players_history_on_the_phone_names_the_game_in_which_the_next_slow_play_is_upgraded_3_3(fab_server, phone):
    base, event_id = fab_server
    log_in(phone, base, "floor@fab.test")
    start(phone, base, event_id)
    choose(phone, "3.3")
    phone.locator("#game-field").wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Game of the match").fill("2")
    phone.locator("#suggestion").get_by_text("Suggested: Caution").wait_for(timeout=30_000)
    save(phone)
    phone.goto(f"{base}/events/{event_id}/incidents/1")
    phone.get_by_role("link", name="Aiko Mori").first.click()
    phone.locator(".upgrade-marker").get_by_text("Next 3.3 Slow Play in game 2 of round 1 is upgraded").wait_for(
        timeout=30_000
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-history-per-game")
