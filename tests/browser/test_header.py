"""The header on a phone (Chromium, 390x844): the head judge's, the fullest one (the calls and appeals badges, the
rules, the theme, help, the account, logging out), fits one line in English and in Japanese, light and dark, without
scrolling sideways; every item keeps its 44 px tap height. Screenshots: tests/artifacts/header-<lang>-<scheme>.png."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import User
from tests.browser.conftest import ARTIFACTS, DEMO_PASSWORD, PHONE

pytestmark = pytest.mark.browser

HEAD = "head@demo.test"


def in_language(server, email: str, locale: str) -> None:
    with server.app.app_context():
        user = db.session.scalars(select(User).where(User.email == email)).one()
        user.locale = locale
        db.session.commit()


@pytest.mark.parametrize("locale", ["en", "ja"])
def test_the_head_judges_header_fits_one_line_on_a_390_px_phone_in_english_and_japanese_light_and_dark(
    live_server, browser, locale
):
    in_language(live_server, HEAD, locale)
    for scheme in ("light", "dark"):
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme=scheme
        )
        page = context.new_page()
        page.goto(f"{live_server}/login")
        page.locator("#email").fill(HEAD)
        page.locator("#password").fill(DEMO_PASSWORD)
        page.locator("main form [type=submit]").click()
        page.wait_for_url(f"{live_server}/")
        page.goto(f"{live_server}/events/1")
        page.locator("#theme-toggle").wait_for()  # the page's script ran: the theme button shows
        assert page.locator("html").get_attribute("lang") == locale
        assert page.locator("#calls-badge").is_visible() and page.locator("#appeals-badge").is_visible()
        boxes = page.evaluate(
            """() => [document.querySelector('.top .brand'), ...document.querySelectorAll('.topnav > *')]
                .map(e => { const r = e.getBoundingClientRect(); return [e.textContent.trim(), r.top, r.bottom,
                                                                        r.left, r.right]; })"""
        )
        header = page.locator("header.top").bounding_box()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"header-{locale}-{scheme}.png"), clip={**header, "height": 120})
        tops = {round(top) for _, top, _, _, _ in boxes}
        assert max(tops) - min(tops) <= 2, boxes  # one line: every item at the brand's height
        assert header["height"] < 60, (header, boxes)
        assert all(right <= PHONE["width"] and left >= 0 for _, _, _, left, right in boxes), boxes
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        tap = page.evaluate(
            """() => [...document.querySelectorAll('.topnav a, .topnav .link')]
                .filter(e => e.offsetParent).map(e => e.getBoundingClientRect().height)"""
        )
        assert tap and min(tap) >= 44, tap
        context.close()
