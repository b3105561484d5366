"""The shipped Yu-Gi-Oh! policy (KDE-E Infractions and Penalties Policy v2.2) on the phone, in real Chromium at
390x844, at a Tier 2 event: a PE-Minor's Warning stands, the same PE-Minor raised to a Game Loss by a floor judge
waits for the head judge (III.E: only the head judge upgrades), a Match Loss waits too but not for tardiness
(III.C)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, log_in, shot
from tests.browser.policy_event import choose, serve_policy_event

pytestmark = pytest.mark.browser


@pytest.fixture
def yugioh_server(tmp_path):
    """A live server on the shipped catalog: a Yu-Gi-Oh! event at Tier 2, round 1 running."""
    yield from serve_policy_event(tmp_path, policy_id="yugioh", domain="ygo.test", name="Regional Qualifier")


def test_the_phone_shows_that_a_floor_judges_upgrade_or_match_loss_waits_for_the_head_judge_but_tardiness_does_not(
    yugioh_server, phone
):
    base, event_id = yugioh_server
    log_in(phone, base, "floor@ygo.test")
    phone.goto(f"{base}/events/{event_id}/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.locator("#player").press_sequentially("Aiko", delay=10)
    phone.locator("#player-matches button").first.click()
    suggestion = phone.locator("#suggestion")
    penalty = phone.get_by_label("Penalty", exact=True)

    choose(phone, "PE-minor")
    suggestion.get_by_text("Suggested: Warning").wait_for(timeout=30_000)
    assert phone.locator("#pending-note").is_hidden()  # the default: the floor judge gives it alone
    penalty.select_option("game_loss")  # an upgrade is the head judge's (III.E)
    phone.locator("#pending-note").wait_for(state="visible", timeout=30_000)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-yugioh-upgrade-waits-for-head-judge")

    choose(phone, "T-strict")
    suggestion.get_by_text("Suggested: Match Loss").wait_for(timeout=30_000)
    penalty.select_option("match_loss")  # the judge's earlier pick is kept; the default now
    phone.locator("#pending-note").wait_for(state="hidden", timeout=30_000)  # tardiness: no head judge (III.C)

    choose(phone, "PE-strict")
    suggestion.get_by_text("Suggested: Match Loss").wait_for(timeout=30_000)
    assert penalty.input_value() == "match_loss"
    phone.locator("#pending-note").wait_for(state="visible", timeout=30_000)
