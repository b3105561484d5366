"""A judge whose account language is Japanese, on a phone (Chromium, 390x844) whose browser asks for English: what the
phone's scripts write (the offline form checks, the suggestion worked out on the phone, the outbox banner and its
counts, what was stored and sent, the offline page) is Japanese, also with the network cut, from the catalog the
service worker keeps (static/i18n/ja.json, static/js/i18n.js). Screenshots: tests/artifacts/ja-*.png.

Elements are found by id, not by their English labels: the pages' own words are translated elsewhere."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Event, User
from tests.browser.conftest import DEMO_PASSWORD, shot
from tests.browser.test_offline import eventually, incidents_in_db, ready_for_offline, waiting

pytestmark = pytest.mark.browser

# the scripts' words are Japanese: what is left in Latin letters is the player's name and code, the infraction's code,
# the policy's own names of penalties, and the app's name
LATIN_ALLOWED = re.compile(r"Haruto|Sato|DEMO|judgeapp|Warning|Caution|Loss|of|Game|Match|OK")


def japanese_judge(server, email="floor1@demo.test"):
    with server.app.app_context():
        user = db.session.scalars(select(User).where(User.email == email)).one()
        user.locale = "ja"
        db.session.commit()


def event_level(server, event_id=1) -> int:
    with server.app.app_context():
        return db.session.get(Event, event_id).level


def log_in_by_id(page, base, email="floor1@demo.test"):
    page.goto(f"{base}/login")
    page.locator("#email").fill(email)
    page.locator("#password").fill(DEMO_PASSWORD)
    page.locator("main form [type=submit]").click()
    page.wait_for_url(f"{base}/")


def latin_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if not LATIN_ALLOWED.fullmatch(w)]


def test_a_japanese_judge_logs_an_incident_with_the_network_cut_and_every_word_the_phone_writes_is_japanese(
    live_server, phone
):
    problems: list[str] = []
    phone.on("pageerror", lambda e: problems.append(str(e)))
    japanese_judge(live_server)
    log_in_by_id(phone, live_server)
    assert phone.locator("html").get_attribute("lang") == "ja"  # the account's language, not the browser's (en-US)
    catalog = phone.locator('meta[name="judgeapp-messages"]').get_attribute("content")
    assert re.fullmatch(r"/static/i18n/ja\.json(\?v=[0-9a-f]+)?", catalog), catalog

    phone.goto(f"{live_server}/events/1/incidents/new")
    ready_for_offline(phone, live_server)
    # the catalog is one of the worker's shell files, at the page's versioned address
    eventually(
        phone,
        f"""async () => {{
        for (const name of await caches.keys())
            if (name.startsWith('judgeapp-shell-') && await (await caches.open(name)).match({catalog!r})) return true;
        return false;
    }}""",
    )
    # the offline page the worker installed with (the browser's English) is kept again in the account's language
    eventually(
        phone,
        """async () => {
        for (const name of await caches.keys()) {
            if (!name.startsWith('judgeapp-shell-')) continue;
            const kept = await (await caches.open(name)).match('/offline');
            if (!kept || !(await kept.text()).includes('<html lang="ja"')) return false;
        }
        return true;
    }""",
    )

    phone.context.set_offline(True)
    phone.goto(f"{live_server}/events/1/incidents/new")  # from the phone's copy, the catalog from the worker's shell
    assert phone.locator("html").get_attribute("lang") == "ja"

    # saved empty offline: the phone checks the form itself, in Japanese
    phone.locator("#incident-form [type=submit]").click()
    errors = phone.locator("#incident-form .offline-error")
    errors.first.wait_for()
    said = errors.all_inner_texts()
    assert "違反を選んでください。" in said
    assert "プレイヤー名の一部かプレイヤーIDを入力してください。" in said
    assert "卓番号を入力してください。" in said
    shot(phone, "ja-10-offline-form-checked")

    phone.locator("#table").fill("1")
    assert phone.locator("#table-players .muted").inner_text() == "1番卓："
    phone.locator("#table-players .chip", has_text="Haruto Sato").click()
    phone.locator("#infraction-search").fill("3.5.2")
    head = phone.locator("#picker-head")
    assert re.fullmatch(r"\d+件の違反が該当（近い順）：", head.inner_text()), head.inner_text()
    assert phone.locator("#infraction").input_value() == "3.5.2"  # the exact code chooses it
    suggestion = phone.locator("#suggestion")
    suggestion.locator(".note.local").wait_for()
    note = suggestion.locator(".note.local").inner_text()
    assert re.fullmatch(
        r"オフライン：\d\d:\d\d時点の履歴からこの端末で算出しました。違反記録の送信時にサーバーが再確認します。", note
    ), note
    assert suggestion.locator(".suggested strong").inner_text().startswith("推奨の罰則：")
    assert "大会レベル" in suggestion.locator(".suggested").inner_text()
    shot(phone, "ja-11-offline-suggestion")

    phone.locator("#incident-form [type=submit]").click()
    stored = phone.locator("#outbox-said")
    stored.get_by_text("この端末に保存しました：").wait_for()
    text = stored.inner_text()
    assert text.startswith("この端末に保存しました：違反記録 · 1番卓 · Haruto Sato")
    assert text.endswith("。ネットワークが戻ると送信されます。"), text
    assert phone.locator("#incident-form [type=submit]").input_value() == "違反記録を保存"
    banner = phone.locator("#outbox")
    assert banner.locator(".outbox-count strong").inner_text() == "送信待ちの記録 1件"
    assert "オフライン：この端末に保存され、ネットワークが戻ると送信されます。" in banner.inner_text()
    assert banner.get_by_role("button").inner_text() == "今すぐ送信"
    assert latin_words(banner.inner_text()) == [] and latin_words(text) == [], (banner.inner_text(), text)
    shot(phone, "ja-12-offline-stored")

    # a second one: the count says so, the same way (Japanese has one form for every count)
    phone.locator("#table").fill("1")
    phone.locator("#table-players .chip", has_text="Haruto Sato").click()
    phone.locator("#infraction-search").fill("3.4")
    suggestion.locator(".note.local").wait_for()
    phone.locator("#incident-form [type=submit]").click()
    banner.locator(".outbox-count strong").get_by_text("送信待ちの記録 2件").wait_for()
    assert waiting(phone) == 2

    # a page the phone has no copy of: the offline page, in Japanese, listing what works from the phone's copy
    phone.goto(f"{live_server}/events/1/players")
    assert phone.locator("html").get_attribute("lang") == "ja"
    assert phone.locator("h1").inner_text() == "ネットワークに接続されていません"
    ready = phone.locator("#offline-ready")
    ready.get_by_role("link", name="違反を記録").wait_for()
    assert [a.inner_text() for a in ready.locator("li").first.locator("a").all()] == [
        "大会",
        "違反を記録",
        "時間延長",
        "デッキチェック",
        "ルール",  # the quick reference, rendered on the phone from the policy's file it keeps
    ]
    assert re.fullmatch(r"担当大会のコピー（\d\d:\d\d時点）。", phone.locator("#offline-copy-time").inner_text())
    assert phone.locator("#outbox .outbox-count strong").inner_text() == "送信待ちの記録 2件"
    shot(phone, "ja-13-offline-page")
    # the rules with no network: in Japanese, the names and the explanations the policy gives in it
    ready.get_by_role("link", name="ルール").first.click()
    phone.wait_for_selector("#infractions[data-finder-loaded]", state="attached", timeout=30_000)
    assert phone.locator("#level").input_value() == str(event_level(live_server))  # the event's level
    tardy = phone.locator(".infraction[data-code='3.9.1']")
    assert tardy.locator(".name").inner_text() == "遅刻" and tardy.locator(".penalty").inner_text().strip()
    assert latin_words(phone.locator("#count").inner_text()) == [], phone.locator("#count").inner_text()
    shot(phone, "ja-13b-offline-reference")

    # the network is back: each record is said to be sent, as which incident
    phone.context.set_offline(False)
    phone.goto(f"{live_server}/events/1/incidents/new")
    phone.wait_for_function("() => document.body.dataset.outboxWaiting === '0'", timeout=30000)
    sent = phone.locator("#outbox .outbox-sent")
    sent.filter(has_text="違反記録 #2 として送信済み：").wait_for()
    assert sent.count() == 2
    assert sent.first.get_by_role("link").inner_text() == "開く"
    assert latin_words(phone.locator("#outbox").inner_text()) == [], phone.locator("#outbox").inner_text()
    shot(phone, "ja-14-sent")
    assert [i.infraction_code for i in incidents_in_db(live_server)] == ["3.5.2", "3.4"]
    assert not problems, problems
