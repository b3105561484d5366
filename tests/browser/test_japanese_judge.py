"""A Japanese judge's whole turn at the table, in real Chromium at 390x844 with a Japanese phone (ja-JP):
signing in, the Japanese demo event, an incident, the repeat upgrade the Bushiroad penalty guide sets, and the
player's appeal. Every word on every screen is Japanese; what is not is data the judges typed or imported (names,
player IDs) or a code (3.5.2). The screenshots are in tests/artifacts/ja-judge-*.png."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import DEMO_PASSWORD, PHONE, shot

pytestmark = pytest.mark.browser

# Words in Latin letters a Japanese screen may show: the product's name, codes and abbreviations used as such.
ALLOWED = {"judgeapp", "ID", "PDF", "CSV", "QR", "FR", "OK", "TCG"}
READS_OUT = """() => {
  const parts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], input[type=submit], button')) {
    for (const a of ['aria-label', 'placeholder', 'title']) if (el.getAttribute(a)) parts.push(el.getAttribute(a));
    if (el.matches('input[type=submit]')) parts.push(el.value);
  }
  return parts.join('\\n');
}"""


def english_on(page) -> list[str]:
    """Latin-letter words on the screen (text, labels read out, placeholders, titles) that are not data or codes."""
    text = page.evaluate(READS_OUT)
    text = re.sub(r"\S+@\S+", " ", text)  # e-mail addresses
    text = re.sub(r"DEMOJA-\d+", " ", text)  # the demo's player IDs
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z'’-]+", text) if w not in ALLOWED})


def all_japanese(page, name: str) -> None:
    assert page.evaluate("document.documentElement.lang") == "ja", name
    shot(page, f"ja-judge-{name}")
    assert english_on(page) == [], f"{name}: {english_on(page)}"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


@pytest.fixture
def japanese_phone(browser):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="ja-JP", timezone_id="Asia/Tokyo"
    )
    page = context.new_page()
    yield page
    context.close()


def test_a_japanese_judge_logs_a_repeat_upgrade_and_files_an_appeal_with_every_word_in_japanese(
    live_server, japanese_phone
):
    phone = japanese_phone
    phone.goto(f"{live_server}/login")
    all_japanese(phone, "01-login")
    phone.locator("#email").fill("floor-ja@demo.test")
    phone.locator("#password").fill(DEMO_PASSWORD)
    phone.locator("form input[type=submit], form button[type=submit]").first.click()
    phone.wait_for_url(f"{live_server}/")
    all_japanese(phone, "02-events")

    phone.get_by_role("link", name="デモ大会").click()
    phone.locator("h1", has_text="デモ大会").wait_for()
    event_url = phone.url.rstrip("/")
    all_japanese(phone, "03-event")

    def log(code: str, expect: str):
        phone.goto(f"{event_url}/incidents/new")
        phone.locator("#table").fill("1")
        phone.locator("#table-players .chip", has_text="山田 太郎").click()
        phone.locator("#infraction-search").press_sequentially(code, delay=10)
        phone.locator("#suggestion").get_by_text(expect).first.wait_for()
        assert phone.locator("#infraction").input_value() == code

    log("3.5.2", "警告")
    assert phone.locator("#penalty").input_value() == "warning"
    all_japanese(phone, "04-incident-form")
    phone.locator("#incident-form [type=submit]").click()
    phone.locator(".confirm").wait_for()
    assert "違反記録 #1" in phone.locator(".confirm").inner_text()
    all_japanese(phone, "05-incident-saved")

    log("3.5.3.2", "格上げ")  # a second penalty in 3.5 at this event: Penalty Guide §2 upgrades it
    suggestion = phone.locator("#suggestion").inner_text()
    assert "格上げ" in suggestion and "ゲームの敗北" in suggestion and "#1" in suggestion, suggestion
    assert phone.locator("#penalty").input_value() == "loss_of_game"
    all_japanese(phone, "06-incident-form-upgrade")
    phone.locator("#incident-form [type=submit]").click()
    confirmation = phone.locator(".confirm")
    confirmation.wait_for()
    assert "違反記録 #2" in confirmation.inner_text() and "ゲームの敗北" in confirmation.inner_text()
    all_japanese(phone, "07-upgrade-saved")

    phone.goto(f"{event_url}/incidents/2")
    assert "格上げ" in phone.locator("#incident-explanation").inner_text()
    all_japanese(phone, "08-incident")

    phone.goto(f"{event_url}/incidents/2/appeal")
    phone.locator("label.choice", has_text="山田 太郎").click()
    phone.locator("#contest").fill("ゲームの敗北は重すぎると考えています。")
    all_japanese(phone, "09-appeal-form")
    phone.locator("form.card [type=submit]").click()
    phone.wait_for_url(re.compile(r".*/appeals/\d+.*"))
    page_text = phone.locator("main").inner_text()
    assert "ゲームの敗北は重すぎると考えています。" in page_text
    all_japanese(phone, "10-appeal-sent")
