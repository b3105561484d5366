"""The shipped Pokémon policy (Play! Pokémon Penalty Guidelines, January 1, 2026) on the phone, in real Chromium at
390x844: tardiness by minutes late at a Regional Championships level event (5.2.1), a Major gameplay error's Double
Prize Card penalty (5.5.1), and the note that anything above a Warning waits for the head judge or an assistant head
judge (4.1.1.1), who confirms it on their phone."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, log_in, shot
from tests.browser.policy_event import choose, serve_policy_event

pytestmark = pytest.mark.browser


@pytest.fixture
def pokemon_server(tmp_path):
    """A live server on the shipped catalog: a Pokémon event at Regional Championships level, round 1 running."""
    yield from serve_policy_event(tmp_path, policy_id="pokemon", domain="poke.test", name="Poké Regionals")


def test_the_phone_suggests_pokemon_tardiness_by_minutes_and_a_double_prize_card_that_waits_for_the_head_judge(
    pokemon_server, phone
):
    base, event_id = pokemon_server
    log_in(phone, base, "floor@poke.test")
    phone.goto(f"{base}/events/{event_id}/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.locator("#player").press_sequentially("Aiko", delay=10)
    phone.locator("#player-matches button").first.click()
    suggestion = phone.locator("#suggestion")

    choose(phone, "5.2.1")
    phone.locator("#minutes-late-field").wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Minutes late").fill("4")  # just below the Major row (5.2.1)
    suggestion.get_by_text("Default at Regional Championships and above for 4 minutes late: Warning.").wait_for(
        timeout=30_000
    )
    assert phone.locator("#pending-note").is_hidden()  # a Warning needs no confirmation (3.2)
    assert phone.locator("#pending-note-assistant").is_hidden()
    phone.get_by_label("Minutes late").fill("5")  # at it: a Game Loss, confirmed by the head judge or an assistant
    suggestion.get_by_text("Default at Regional Championships and above for 5 minutes late: Game Loss.").wait_for(
        timeout=30_000
    )
    phone.locator("#pending-note-assistant").wait_for(state="visible", timeout=30_000)
    assert phone.locator("#pending-note").is_hidden()  # not the head judge's alone
    phone.get_by_label("Minutes late").fill("")

    choose(phone, "5.5.1-major")
    suggestion.get_by_text("Suggested: Double Prize Card Penalty").wait_for(timeout=30_000)
    assert phone.get_by_label("Penalty", exact=True).input_value() == "double_prize_card"
    note = phone.locator("#pending-note-assistant")
    note.wait_for(state="visible", timeout=30_000)
    assert note.inner_text().startswith("The head judge or an assistant head judge confirms this")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-pokemon-double-prize-card-waits")


@pytest.fixture
def pokemon_league(tmp_path):
    """A Pokémon League Challenge (below Regional Championships) with an assistant head judge, round 1 running."""
    yield from serve_policy_event(
        tmp_path, policy_id="pokemon", domain="league.test", name="Poké League", level=1, assistant=True
    )


def test_an_assistant_head_judge_confirms_a_floor_judges_double_prize_card_from_the_feed_4_1_1_1(
    pokemon_league, phone, browser
):
    base, event_id = pokemon_league
    log_in(phone, base, "floor@league.test")
    phone.goto(f"{base}/events/{event_id}/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.locator("#player").press_sequentially("Aiko", delay=10)
    phone.locator("#player-matches button").first.click()
    choose(phone, "5.5.1-major")
    phone.locator("#suggestion").get_by_text("Suggested: Double Prize Card Penalty").wait_for(timeout=30_000)
    phone.locator("#pending-note-assistant").wait_for(state="visible", timeout=30_000)
    phone.get_by_role("button", name="Save incident").click()
    phone.wait_for_url("**/incidents/1**", timeout=30_000)

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    assistant = context.new_page()  # the assistant head judge's own phone
    try:
        log_in(assistant, base, "ahj@league.test")
        assistant.goto(f"{base}/events/{event_id}")
        assistant.get_by_label("1 waiting for you").wait_for(timeout=30_000)
        assistant.goto(f"{base}/events/{event_id}/feed")
        assistant.get_by_text("#1 · Double Prize Card Penalty — recommended, your decision").click()
        card = assistant.locator("#recommendation")
        card.wait_for(timeout=30_000)
        assert "the player may still appeal your decision to the head judge" in card.inner_text()
        card.get_by_role("button", name="Confirm: Double Prize Card Penalty").click()
        assistant.get_by_text("Incident #1 confirmed: it stands; the player may still appeal it").wait_for(
            timeout=30_000
        )
        assistant.get_by_text("confirmed by an assistant head judge").first.wait_for(timeout=30_000)
        assert assistant.locator("#recommendation").count() == 0
        assert assistant.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(assistant, "35-assistant-head-judge-confirms")
    finally:
        context.close()
