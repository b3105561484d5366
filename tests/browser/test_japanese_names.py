"""A judge finds a Japanese player on the phone's incident form however the name is typed, in Chromium at 390x844."""

import pytest

from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.browser


def test_typing_half_width_katakana_offers_the_player_with_the_reading_beside_the_name(live_server, phone):
    log_in(phone, live_server, "head@demo.test")  # head judge and scorekeeper: adds players and logs incidents
    phone.get_by_role("link", name="Demo Open").click()
    event_url = phone.url.rstrip("/")
    phone.goto(f"{event_url}/players")
    phone.get_by_text("Add a player").click()
    phone.locator("#name").fill("山田 太郎")
    phone.get_by_label("Reading of the name (furigana)").fill("やまだ たろう")
    phone.get_by_label("Handle").fill("タロ")
    phone.locator("#player_code").fill("JP-7001")
    phone.get_by_role("button", name="Add player").click()
    phone.get_by_text("山田 太郎 added.").wait_for()

    phone.goto(f"{event_url}/incidents/new")
    player = phone.get_by_role("combobox", name="Player")
    matches = phone.locator("#player-matches")
    for typed in ("ﾔﾏﾀﾞ", "やまだ", "ヤマダ", "ﾀﾛ", "ｊｐ－７００１"):
        player.fill("")
        player.press_sequentially(typed, delay=10)
        chip = matches.get_by_role("button", name="山田 太郎 · JP-7001 やまだ たろう")
        chip.wait_for()
        assert matches.get_by_role("button").count() == 1, typed
    assert chip.locator("small[lang=ja]").inner_text() == "やまだ たろう"
    shot(phone, "60-player-found-by-half-width-kana")
    chip.click()
    assert player.input_value() == "山田 太郎 · JP-7001"
    assert matches.get_by_role("button").count() == 0, "a chosen player closes the list"
