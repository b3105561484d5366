"""The judge's guide in real Chromium at 390x844: its screenshots are taken here, from the real pages, in English and
Japanese (`make help-shots` sets JUDGEAPP_HELP_SHOTS and keeps them in judgeapp/static/help/<lang>/), and a guide
opens from the phone's copy with the network cut."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from sqlalchemy import update

from judgeapp.extensions import db
from judgeapp.models import User
from tests.browser.conftest import ARTIFACTS, DEMO_PASSWORD, PHONE, log_in
from tests.browser.test_offline import ready_for_offline

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("JUDGEAPP_HELP_SHOTS")  # where `make help-shots` keeps them; else tests/artifacts/
# one pixel per CSS pixel at 390x844: the guide shows them at that width, and they stay small
SHOT_CONTEXT = dict(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)


def take(page, lang: str, name: str) -> Path:
    """The page as the phone shows it (the screen, not the whole page), as a PNG of at most 64 colours."""
    from PIL import Image

    path = Path(SHOTS) / lang / f"{name}.png" if SHOTS else ARTIFACTS / f"help-{lang}-{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)
    return path


def sign_in(browser, server, email: str, lang: str):
    with server.app.app_context():
        db.session.execute(update(User).where(User.email == email).values(locale=lang))
        db.session.commit()
    context = browser.new_context(**SHOT_CONTEXT)
    page = context.new_page()
    page.goto(f"{server}/login")
    page.locator("#email").fill(email)
    page.locator("#password").fill(DEMO_PASSWORD)
    page.locator("form [type=submit]").last.click()
    page.wait_for_url(f"{server}/")
    return page


def help_link(page) -> str:
    return page.locator("#help-link").get_attribute("href")


def top(page, selector: str) -> None:
    """Scroll so that `selector` is near the top of the screen, its label above it still shown."""
    page.locator(selector).first.evaluate("e => window.scrollTo(0, e.getBoundingClientRect().top + scrollY - 60)")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_guides_screenshots_are_the_real_pages_each_with_its_question_mark_leading_to_the_part_about_it(
    browser, live_server_with_cases, lang
):
    server = live_server_with_cases
    head = sign_in(browser, server, "head@demo.test", lang)
    try:
        head.goto(f"{server}/events/1/incidents/new")
        assert head.locator("html").get_attribute("lang") == lang
        assert help_link(head) == "/help/floor-judge#log-a-penalty"
        head.locator("#table").fill("5")
        head.locator("#table-players .chip").first.click()
        head.locator("#description").fill("Drew an extra card." if lang == "en" else "カードを1枚多く引いた。")
        head.evaluate("window.scrollTo(0, 0)")
        take(head, lang, "incident-form")

        head.locator("#infraction-search").press_sequentially("draw" if lang == "en" else "引きすぎ", delay=10)
        head.locator("#picker-rows .pick").first.wait_for()
        top(head, "#infraction-search")
        take(head, lang, "picker")

        head.goto(f"{server}/events/1/extensions/new")
        assert help_link(head) == "/help/floor-judge#give-time"
        head.locator("#table").fill("5")
        head.locator("#minutes").fill("3")
        take(head, lang, "add-time")

        head.goto(f"{server}/events/1/deck-checks/new")
        head.locator("#table").fill("7")
        head.locator("#submit").click()
        head.wait_for_url(re.compile(r".*/deck-checks/\d+$"))
        assert help_link(head) == "/help/floor-judge#start-a-deck-check"
        take(head, lang, "deck-check")

        head.goto(f"{server}/events/1/appeals/1")  # the sample case: a warning at table 3, appealed
        assert help_link(head) == "/help/head-judge#decide-an-appeal"
        top(head, "form[method=post]:has([name=outcome])")
        take(head, lang, "appeal-decision")
    finally:
        head.context.close()

    organizer = sign_in(browser, server, "organizer@demo.test", lang)
    try:
        organizer.goto(f"{server}/events/1/players")
        assert help_link(organizer) == "/help/organizer#import-pairings"
        organizer.locator("details#import").evaluate("e => { e.open = true; }")
        top(organizer, "details#import")
        take(organizer, lang, "import")

        organizer.goto(f"{server}/events/1/close")
        assert help_link(organizer) == "/help/organizer#close-the-event"
        take(organizer, lang, "close-event")
    finally:
        organizer.context.close()


def test_a_guide_opens_from_the_phones_copy_with_the_network_cut_from_the_question_mark(live_server, phone):
    log_in(phone, live_server)
    phone.goto(f"{live_server}/events/1/incidents/new")
    ready_for_offline(phone, live_server)
    kept = """async () => {
        const cache = await caches.open('judgeapp-pages');
        return !!(await cache.match('/help/floor-judge')) && !!(await cache.match('/help/'));
    }"""
    deadline = time.monotonic() + 60  # the worker fetches the guide in the background with the events' pages
    while not phone.evaluate(kept):
        assert time.monotonic() < deadline, "the guide was not kept within 60 s"
        phone.wait_for_timeout(200)

    phone.context.set_offline(True)
    phone.goto(f"{live_server}/events/1/incidents/new")  # the form, from the phone's copy
    phone.locator("#help-link").click()
    phone.wait_for_url("**/help/floor-judge#log-a-penalty")
    part = phone.locator("#log-a-penalty")
    part.wait_for()
    assert part.inner_text() == "Log a penalty"
    assert phone.locator("body").get_attribute("data-kept")  # shown from the phone, not the network
    # the guide's index too; the organizer's guide is for a desk with a network, not kept on a floor judge's phone
    phone.goto(f"{live_server}/help/")
    assert phone.locator("body").get_attribute("data-kept")
    phone.screenshot(path=str(ARTIFACTS / "help-offline.png"))
