"""The shipped Pokémon policy (Play! Pokémon Penalty Guidelines, January 1, 2026) on the phone, in real Chromium at
390x844: tardiness by minutes late at a Regional Championships level event (5.2.1), a Major gameplay error's Double
Prize Card penalty (5.5.1), and the note that anything above a Warning waits for the head judge (4.1.1.1)."""

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
    phone.get_by_label("Minutes late").fill("5")  # at it: a Game Loss, confirmed by the head judge or an assistant
    suggestion.get_by_text("Default at Regional Championships and above for 5 minutes late: Game Loss.").wait_for(
        timeout=30_000
    )
    phone.locator("#pending-note").wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Minutes late").fill("")

    choose(phone, "5.5.1-major")
    suggestion.get_by_text("Suggested: Double Prize Card Penalty").wait_for(timeout=30_000)
    assert phone.get_by_label("Penalty", exact=True).input_value() == "double_prize_card"
    phone.locator("#pending-note").wait_for(state="visible", timeout=30_000)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-pokemon-double-prize-card-waits")
