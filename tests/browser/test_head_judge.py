"""The head judge in real Chromium at 390x844: an appeal reaches the queue without a reload and is overturned;
a disqualification is investigated with a statement written on a one-time link, and its report is printed."""

import subprocess

import pytest

from tests.browser.conftest import ARTIFACTS, PHONE, log_in, shot
from tests.browser.test_floor_judge import no_horizontal_scroll, open_event, pick_player_at_table

pytestmark = pytest.mark.browser


def second_phone(browser, **kwargs):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **kwargs)
    return context, context.new_page()


def test_a_floor_judge_files_an_appeal_the_head_judge_sees_it_without_reload_and_overturns_it(
    live_server, browser, phone
):
    head_context, head = second_phone(browser)
    log_in(head, live_server, "head@demo.test")
    head.get_by_role("link", name="Demo Open").click()
    head.get_by_role("link", name="Appeals").first.click()
    head.get_by_text("No appeal is waiting.").wait_for()
    badge = head.locator("#appeals-badge .count")
    assert badge.inner_text() == "0"

    open_event(phone, live_server)
    phone.get_by_role("link", name="New incident").click()
    pick_player_at_table(phone, "2", "Sota Takahashi · DEMO-003")
    phone.get_by_placeholder("Search by code or words").press_sequentially("3.5.2", delay=10)
    phone.locator("#suggestion").get_by_text("Suggested: Warning").wait_for()
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    phone.goto(f"{live_server}/events/1/incidents/1")
    phone.get_by_role("link", name="Player appeals").click()
    phone.get_by_label("Sota Takahashi").check()  # the penalized player appeals the penalty
    phone.get_by_label("The penalty", exact=True).check()
    phone.get_by_label("What they contest").fill("The player says the card was revealed as the effect asked.")
    assert no_horizontal_scroll(phone)
    shot(phone, "20-appeal-form")
    phone.get_by_role("button", name="Send the appeal to the head judge").click()
    phone.get_by_text("Appeal #1 sent to the head judge").wait_for()

    head.get_by_text("Appeal #1 · round 1 · table 2").wait_for(timeout=10_000)  # no reload: the queue refreshed itself
    head.wait_for_function(
        "() => document.querySelector('#appeals-badge .count').textContent.trim() === '1'", timeout=10_000
    )
    assert "Sota Takahashi" in head.locator("#feed").inner_text()
    shot(head, "21-appeals-queue")
    head.get_by_text("Appeal #1 · round 1 · table 2").click()
    head.get_by_label("Overturned: the penalty is taken back").check()
    head.get_by_label("Reason").fill("The card was revealed correctly; no infraction.")
    assert no_horizontal_scroll(head)
    shot(head, "22-appeal-decision")
    head.get_by_role("button", name="Record the decision").click()
    head.get_by_text("Appeal #1: overturned").wait_for()
    assert head.locator("#appeals-badge .count").inner_text() == "0"

    phone.goto(f"{live_server}/events/1")
    news = phone.locator(".decision-news")
    assert "Appeal of your ruling, incident #1: overturned by Hiro Head" in news.inner_text()
    shot(phone, "23-floor-judge-hears-the-decision")
    news.get_by_role("button", name="Got it").click()
    phone.wait_for_load_state()
    assert phone.locator(".decision-news").count() == 0
    phone.goto(f"{live_server}/events/1/incidents/1")
    assert "overturned" in phone.locator("h1").inner_text()
    head_context.close()


def test_the_head_judge_investigates_a_disqualification_and_prints_the_report(live_server, browser, phone):
    log_in(phone, live_server, "head@demo.test")
    phone.get_by_role("link", name="Demo Open").click()
    phone.get_by_role("link", name="New incident").click()
    pick_player_at_table(phone, "4", "佐藤 陽翔 · DEMO-007")
    phone.get_by_placeholder("Search by code or words").press_sequentially("4.1", delay=10)
    phone.locator("#suggestion").get_by_text("Suggested: Disqualification").wait_for()
    phone.get_by_label("Description").fill("Marked cards found during a deck check.")
    phone.get_by_role("button", name="Save incident").click()
    phone.locator(".confirm").get_by_text("Saved: incident #1").wait_for()
    phone.get_by_role("link", name="DQs").click()
    phone.get_by_text("DQ-1-1 · 佐藤 陽翔").click()

    phone.get_by_text("Type a statement on this phone").click()
    phone.locator("#author_name").fill("Akira Yamada")
    phone.locator("#author_role").select_option("opponent")
    phone.locator("#text").fill("I noticed the sleeves of three cards were bent at the corner.")
    phone.get_by_role("button", name="Save the statement").click()
    phone.get_by_text("Statement of Akira Yamada saved.").wait_for()

    phone.get_by_text("Let someone write their own statement").click()
    link_form = phone.locator("form[action$='/links']")
    link_form.get_by_label("Name").fill("Wendy Witness")
    link_form.get_by_label("Role").select_option("witness")
    link_form.get_by_role("button", name="Make a one-time link").click()
    phone.locator("#new-link svg").wait_for()
    url = phone.locator("#new-link .link-box a").inner_text()
    shot(phone, "24-one-time-link-qr")

    visitor_context, visitor = second_phone(browser)  # the witness's own phone, no account
    visitor.goto(url)
    visitor.get_by_label("Your statement").fill("Player 佐藤 shuffled and looked at the bottom card twice.")
    shot(visitor, "25-statement-on-the-link")
    visitor.get_by_role("button", name="Send my statement").click()
    visitor.get_by_text("Your statement was received").wait_for()
    visitor.goto(url)
    assert "already been used" in visitor.content()
    visitor_context.close()

    phone.reload()
    phone.get_by_label("The infraction").fill("Marked cards: 4.1 cheating.")
    phone.get_by_label("Facts you consider established, and why").fill("Three cards bent; seen by the opponent.")
    phone.get_by_label("Your reasoning").fill("Bent only on the key cards: intentional.")
    phone.get_by_label("Prizes revoked").check()
    phone.get_by_label("Summary of the decision").fill("Disqualified without prizes.")
    asked = []  # one stray tap cannot lock it: the phone asks first, saying what finalizing does
    phone.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    phone.get_by_role("button", name="Finalize and lock").click()
    phone.get_by_text("Investigation finalized and locked").wait_for()
    assert asked and asked[0].startswith("Finalize and lock this investigation?")
    assert "Statements (2)" in phone.content()
    assert no_horizontal_scroll(phone)
    shot(phone, "26-investigation-finalized")

    with phone.expect_download() as download:
        phone.get_by_role("link", name="Report PDF (A4)").click()
    pdf = ARTIFACTS / "27-dq-report.pdf"
    download.value.save_as(pdf)
    assert download.value.suggested_filename.startswith("dq-report_Demo-Open_")
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "70",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(ARTIFACTS / "27-dq-report-page-1"),
        ],
        check=True,
    )
    assert (ARTIFACTS / "27-dq-report-page-1.png").stat().st_size > 10_000
