"""Issue 33's picker, in Chromium at 390x844: the infraction search lists tappable rows with full names, best first; a
row is chosen by a tap or an exact code, never by part of a word; a choice the words no longer find is dropped at once
and Save asks which infraction; the form still chooses without JavaScript; the walk is counted (tests/browser/taps.py,
also run by bench/taps.py). Screenshots: tests/artifacts/picker-*.png."""

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Incident
from tests.browser.conftest import ARTIFACTS, PHONE, log_in, shot
from tests.browser.taps import EXPECTED, first_incident, repeat_incident
from tests.browser.test_japanese_phone import japanese_judge, log_in_by_id

pytestmark = pytest.mark.browser


def stored(server) -> list[str]:
    with server.app.app_context():
        return list(db.session.scalars(select(Incident.infraction_code).order_by(Incident.number)))


def open_form_at_table_1(page, base):
    log_in(page, base)
    page.goto(f"{base}/events/1/incidents/new")
    page.get_by_label("Table").fill("1")
    page.get_by_role("button", name="Haruto Sato · DEMO-001").click()


def test_a_first_incident_from_the_judges_words_takes_at_most_7_taps_and_20_keys_and_a_repeat_at_most_5_taps(
    live_server, phone
):
    log_in(phone, live_server)
    first = first_incident(phone, live_server)
    assert first.taps <= 7 and first.keys <= 20, first.steps
    shot(phone, "picker-10-first-incident-saved")
    repeat = repeat_incident(phone)
    assert repeat.taps <= 5 and repeat.keys == 0, repeat.steps
    assert stored(live_server) == [EXPECTED, EXPECTED]


def test_the_events_most_used_infractions_are_the_rows_on_an_empty_search(live_server, phone):
    open_form_at_table_1(phone, live_server)
    phone.locator("#infraction-search").press_sequentially("3.5.2", delay=10)  # an exact code chooses it
    phone.locator("#suggestion .chosen").wait_for()
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    phone.goto(f"{live_server}/events/1/incidents/new")
    assert phone.locator("#picker-head").inner_text() == "Most used at this event:"
    assert phone.locator("#picker-rows .pick").first.get_attribute("data-code") == "3.5.2"
    assert phone.locator("#infraction").input_value() == ""  # listed, not chosen


def test_part_of_a_word_lists_the_infraction_but_never_chooses_it(live_server, phone):
    open_form_at_table_1(phone, live_server)
    phone.locator("#infraction-search").press_sequentially("ph", delay=10)
    phone.locator("#picker-rows .pick[data-code='3.17']").wait_for()
    assert phone.locator("#infraction").input_value() == ""
    assert phone.locator("#picker-rows .pick[aria-pressed=true]").count() == 0
    assert phone.locator("#suggestion").is_hidden()


def test_a_choice_the_search_no_longer_finds_is_dropped_at_once_and_save_asks_which_infraction(live_server, phone):
    open_form_at_table_1(phone, live_server)
    search = phone.locator("#infraction-search")
    search.press_sequentially("phone", delay=10)
    phone.locator("#picker-rows .pick[data-code='3.17']").click()
    suggestion = phone.locator("#suggestion")
    suggestion.get_by_text("Suggested: Warning").wait_for()
    assert suggestion.locator(".chosen").inner_text() == "3.17 Use of Unnecessary Electronic Devices in a Match"
    search.fill("")
    search.press_sequentially("slow play", delay=10)
    assert phone.locator("#infraction").input_value() == ""  # not 3.17 any more
    assert phone.locator("#penalty").input_value() == ""  # nor its warning
    stale = phone.locator("#infraction-stale")
    assert stale.is_visible()
    assert stale.inner_text() == (
        "“slow play” does not match 3.17 Use of Unnecessary Electronic Devices in a Match: it is no longer chosen. "
        "Choose the infraction again."
    )
    assert phone.locator("#picker-rows .pick[aria-pressed=true]").count() == 0
    shot(phone, "picker-20-stale-choice-dropped")
    phone.get_by_role("button", name="Save incident").click()
    phone.locator("#infraction-error").get_by_text("Choose the infraction.").wait_for()
    assert phone.locator("#infraction-search").input_value() == "slow play"  # the words are kept
    assert stored(live_server) == []


def test_without_javascript_the_server_rendered_form_still_chooses_and_checks_the_search_words(browser, live_server):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, java_script_enabled=False
    )
    page = context.new_page()
    log_in(page, live_server)
    page.goto(f"{live_server}/events/1/incidents/new")
    assert page.locator("#infraction").is_visible()  # the list the server rendered
    page.get_by_label("Table").fill("1")
    page.locator("#player").fill("DEMO-001")
    page.locator("#infraction-search").fill("phone")
    page.locator("#infraction").select_option("3.5.2")  # not what "phone" finds
    page.get_by_label("Penalty", exact=True).select_option("warning")
    page.get_by_role("button", name="Save incident").click()
    assert "Your search “phone” does not find 3.5.2 Failure to Discard Cards: choose the infraction again." in (
        page.locator("#infraction-error").inner_text()
    )
    assert stored(live_server) == []
    page.locator("#infraction").select_option("3.17")
    page.get_by_label("Penalty", exact=True).select_option("warning")
    page.get_by_role("button", name="Save incident").click()
    page.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    assert stored(live_server) == ["3.17"]
    context.close()


ROW_BOXES = """() => [...document.querySelectorAll('#picker-rows .pick')].map(b => {
  const r = b.getBoundingClientRect();
  return {code: b.dataset.code, height: r.height, right: r.right,
          clipped: b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1};
})"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_picker_rows_are_whole_names_at_least_44_pixels_high_in_light_dark_and_at_200_percent_text(
    browser, live_server, lang
):
    ARTIFACTS.mkdir(exist_ok=True)
    if lang == "ja":
        japanese_judge(live_server)
    for mode, scheme, font_size in [("light", "light", None), ("dark", "dark", None), ("200-percent", "light", 32)]:
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme=scheme
        )
        page = context.new_page()
        log_in_by_id(page, live_server)
        if font_size:  # the phone's text size setting at 200 %: Chromium's standard font size, 16 px → 32 px
            cdp = context.new_cdp_session(page)
            cdp.send("Page.enable")
            cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font_size, "fixed": font_size}})
        page.goto(f"{live_server}/events/1/incidents/new")
        page.locator("#table").fill("1")
        page.locator("#table-players .chip").first.click()
        page.locator("#infraction-search").press_sequentially("3.5.1", delay=10)
        rows = page.locator("#picker-rows .pick")
        rows.first.wait_for()
        rows.nth(1).click()
        chosen = rows.nth(1).get_attribute("data-code")
        page.locator("#suggestion .chosen").wait_for()
        boxes = page.evaluate(ROW_BOXES)
        assert len(boxes) >= 2
        for box in boxes:
            assert box["height"] >= 44 - 0.5 and not box["clipped"] and box["right"] <= PHONE["width"], (mode, box)
        assert page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth"), mode
        name = page.locator(f"#picker-rows .pick[data-code='{chosen}'] .pick-name").inner_text()
        assert page.locator("#suggestion .chosen").inner_text() == f"{chosen} {name}", mode
        assert page.locator("#picker-rows .pick[aria-pressed=true]").get_attribute("data-code") == chosen
        page.evaluate("document.getElementById('infraction-search').scrollIntoView({block: 'start'})")
        # the screen as the judge sees it (a full-page screenshot would reset the font size)
        page.screenshot(path=str(ARTIFACTS / f"picker-{lang}-{mode}.png"))
        context.close()


def test_an_infraction_that_is_its_own_subsection_is_named_once_in_its_row(live_server, phone):
    """4.1 Cheating is the whole of sub-section 4.1 Cheating: its row says so once, where a row of 3.5.2 also names the
    sub-section it belongs to (3.5 Revealing or Moving Cards in Zones)."""
    open_form_at_table_1(phone, live_server)
    phone.locator("#infraction-search").press_sequentially("cheat", delay=10)
    own = phone.locator("#picker-rows .pick[data-code='4.1']")
    own.wait_for()
    assert own.inner_text().split() == ["4.1", "Cheating"]
    assert own.locator(".pick-sub").count() == 0
    phone.locator("#infraction-search").fill("")
    phone.locator("#infraction-search").press_sequentially("failure to discard", delay=10)
    other = phone.locator("#picker-rows .pick[data-code='3.5.2']")
    other.wait_for()
    assert other.locator(".pick-sub").inner_text() == "3.5 Revealing or Moving Cards in Zones"
