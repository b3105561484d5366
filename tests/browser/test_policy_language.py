"""The policy language of issue 35 on the phone, in real Chromium at 390x844, over the made-up policy of
tests/fixtures/catalogs/rules.yaml: the form asks the minutes late where the default goes by them and the suggestion
follows them; an escalation the text leaves to the judge is offered, never applied; a penalty the policy has the head
judge confirm says it will wait for them."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, log_in, shot
from tests.browser.policy_event import choose, serve_policy_event
from tests.shared.engine_cases import RULES_CATALOG

pytestmark = pytest.mark.browser


@pytest.fixture
def rules_server(tmp_path):
    """A live server on the made-up policy: a level 2 event, round 1 running, a floor judge, two players."""
    yield from serve_policy_event(
        tmp_path,
        policy_id="rules-demo",
        domain="rules.test",
        name="Rules Demo Open",
        JUDGEAPP_CATALOG=str(RULES_CATALOG),
    )


def test_the_phone_asks_the_minutes_late_offers_the_judges_escalation_and_says_what_waits_for_the_head_judge(
    rules_server, phone
):
    base, event_id = rules_server
    log_in(phone, base, "floor@rules.test")
    phone.goto(f"{base}/events/{event_id}/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.locator("#player").press_sequentially("Aiko", delay=10)
    phone.locator("#player-matches button").first.click()  # the match: a tap chooses
    late_field = phone.locator("#minutes-late-field")
    assert late_field.is_hidden()

    choose(phone, "9.3")
    suggestion = phone.locator("#suggestion")
    suggestion.get_by_text("Suggested: Warning").wait_for(timeout=30_000)
    late_field.wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Minutes late").fill("2")  # just below the 3-minute row
    suggestion.get_by_text("Default at Open for 2 minutes late: Warning.").wait_for(timeout=30_000)
    phone.get_by_label("Minutes late").fill("3")  # at it: a game loss, which the head judge confirms at this level
    suggestion.get_by_text("Default at Open for 3 minutes late: Game Loss.").wait_for(timeout=30_000)
    assert phone.get_by_label("Penalty", exact=True).input_value() == "game_loss"
    # this rule has the head judge or an assistant head judge confirm it (rules.yaml C1): the phone says so
    phone.locator("#pending-note-assistant").wait_for(state="visible", timeout=30_000)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-minutes-late-game-loss-waits")

    choose(phone, "2.1")
    phone.wait_for_function(
        "() => !document.querySelector('#suggestion').innerText.includes('minutes late')", timeout=30_000
    )
    late_field.wait_for(state="visible", timeout=30_000)  # the minutes typed stay shown until cleared
    phone.get_by_label("Minutes late").fill("")
    choose(phone, "2.2")
    late_field.wait_for(state="hidden", timeout=30_000)
    assert phone.locator("#pending-note").is_hidden() and phone.locator("#pending-note-assistant").is_hidden()

    # a repeat the text only says "may" be escalated: the default stays suggested, the escalation is offered
    choose(phone, "10.1")
    suggestion.get_by_text("Suggested: Warning").wait_for(timeout=30_000)
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for(timeout=30_000)
    phone.get_by_role("link", name="Another incident").click()
    phone.get_by_label("Table").fill("1")
    phone.locator("#player").press_sequentially("Aiko", delay=10)
    phone.locator("#player-matches button").first.click()
    choose(phone, "10.1")
    offer = suggestion.locator(".offered")
    offer.get_by_text("The judge may escalate to Game Loss (R10: 2nd penalty in 10 at this event)").wait_for(
        timeout=30_000
    )
    assert "never applied by itself" in offer.inner_text()
    assert phone.get_by_label("Penalty", exact=True).input_value() == "warning"  # never applied by itself
    phone.get_by_label("Penalty", exact=True).select_option("game_loss")  # the judge's call: no reason asked
    assert phone.locator("#reason-field").is_hidden()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-offered-escalation")
