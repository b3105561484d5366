"""The head judge's work and the players' pages at a Japanese event, in Japanese: appeals (filing, the challenge
count, the decision), investigations and the one-time statement link, judge calls (the player's table page and the
judges' queue).

A judge's pages follow their account's language; a player's or witness's page (no account) follows the browser when
it asks for a language the app has, else the event's language.
"""

from __future__ import annotations

import re

from sqlalchemy import update

from judgeapp.extensions import db
from judgeapp.models import Event, User
from tests.conftest import post_form
from tests.integration.test_appeals import decide, file_appeal, player_value, ruled, set_challenge_limit  # noqa: F401
from tests.integration.test_calls import calls, raise_call, take  # noqa: F401
from tests.integration.test_incidents import text
from tests.integration.test_investigations import base, dq, make_link, send_statement  # noqa: F401

JAPANESE_DATE_TIME = re.compile(r"\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}")  # CLDR ja: 2026年11月25日 9:05


def japanese(app, fixture, *accounts: str):
    """The fixture's event in Japanese, and these of its people (role names of the floor fixture) reading Japanese."""
    with app.app_context():
        db.session.execute(update(Event).where(Event.id == fixture["event_id"]).values(language="ja"))
        emails = [fixture["people"][role][1] for role in accounts]
        if emails:
            db.session.execute(update(User).where(User.email.in_(emails)).values(locale="ja"))
        db.session.commit()


# ---- appeals --------------------------------------------------------------------------------------------------------


def test_a_japanese_head_judge_reads_the_appeal_and_records_the_decision_in_japanese(app, ruled):
    japanese(app, ruled, "head_judge")
    file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001"))
    page = text(ruled["head"].get(f"/events/{ruled['event_id']}/appeals/1"))
    assert '<html lang="ja">' in page
    assert "<h1>アピール #1 " in page and "判断待ち</span>" in page
    assert '<dt>アピールした人</dt><dd>Aiko Mori <span class="muted">(罰則を受けたプレイヤー)</span>' in page
    assert "<h2>あなたの判断</h2>" in page and "<legend>判断</legend>" in page
    assert "維持：裁定はそのまま" in page and "覆す：罰則を取り消す" in page and "変更：別の違反または罰則" in page
    assert 'value="判断を記録"' in page and "新しい違反または罰則（「変更」のとき）" in page
    answer = decide(ruled["head"], ruled["event_id"], outcome="upheld")
    assert answer.status_code == 302
    queue = text(ruled["head"].get(answer.headers["Location"]))
    assert "アピール #1：維持。フロアジャッジには、次にページを開いたときに表示されます。" in queue  # the confirmation
    assert "<h2>判断済み</h2>" in queue and "アピール #1 · 維持" in queue
    assert "判断待ちのアピールはありません。" in queue
    # a judge whose account names no language reads the page as their browser asks, and else in the event's
    url = f"/events/{ruled['event_id']}/appeals/1"
    assert "<strong>Upheld</strong>" in text(ruled["judge"].get(url, headers={"Accept-Language": "en-GB,en;q=0.8"}))
    assert "<strong>維持</strong>" in text(ruled["judge"].get(url))


def test_a_japanese_floor_judge_files_an_appeal_and_reads_the_challenges_left_in_japanese(app, ruled):
    japanese(app, ruled, "floor_judge")
    set_challenge_limit(app, ruled["event_id"], 2)
    form = text(ruled["judge"].get(f"/events/{ruled['event_id']}/incidents/1/appeal"))
    assert "<legend>アピールする人</legend>" in form and "<legend>アピールの対象</legend>" in form
    assert "（罰則を受けたプレイヤー、チャレンジ残り2回（全2回））" in form
    assert 'value="ヘッドジャッジにアピールを送る"' in form
    answer = file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001"))
    assert answer.status_code == 302
    page = text(ruled["judge"].get(answer.headers["Location"]))
    assert "アピール #1をヘッドジャッジに送りました。判断が出るまでは元の裁定が適用されます。" in page
    # the appeal now waits: one sentence, the count of waiting appeals inside it (ngettext's Japanese form)
    assert "<dt>チャレンジ</dt><dd>チャレンジ残り2回（全2回）、判断待ちのアピール1件</dd>" in page


def test_an_appeal_refused_for_want_of_challenges_says_why_in_japanese(app, ruled):
    japanese(app, ruled, "floor_judge")
    set_challenge_limit(app, ruled["event_id"], 1)
    file_appeal(ruled["judge"], ruled["event_id"], appellant=player_value(app, ruled, "P-001"))
    decide(ruled["head"], ruled["event_id"], outcome="upheld")
    from tests.integration.test_incidents import log

    log(ruled["judge"], ruled["event_id"], player="P-001", infraction="3.1.1", penalty="loss_of_game")
    refused = file_appeal(ruled["judge"], ruled["event_id"], 2, appellant=player_value(app, ruled, "P-001"))
    assert refused.status_code == 400
    assert "Aiko Moriにはチャレンジが残っていません（チャレンジ残り0回（全1回））。裁定は維持されます。" in text(
        refused
    )


# ---- investigations and the statement link --------------------------------------------------------------------------


def test_the_investigation_page_of_a_japanese_event_is_in_japanese_with_japanese_dates(app, dq):
    japanese(app, dq, "head_judge")
    token = make_link(dq["head"], dq, name="Eve Witness", role="witness")
    assert token
    page = text(dq["head"].get(f"{base(dq)}/investigations/1"))
    assert "<h1>失格 DQ-" in page and "調査中</span>" in page
    assert "<h2>陳述（0）</h2>" in page and "<h3>未提出</h3>" in page
    assert "Eve Witness (目撃者):" in page and "リンクは" in page and "まで有効" in page
    assert "本人に陳述を書いてもらう（一度だけ使えるリンク、QRコード）" in page
    assert "リンクは7日間使えます（大会の陳述の期限）。" in page
    assert "<h2>あなたの見解と判断</h2>" in page and 'value="確定してロック"' in page
    timeline = page[page.index("<h2>経緯</h2>") :]
    assert "調査を開始" in timeline and "Eve Witness（目撃者）に陳述用リンクを発行" in timeline
    assert JAPANESE_DATE_TIME.search(timeline), timeline


def test_the_statement_link_of_a_japanese_event_is_in_japanese_for_a_browser_asking_for_none(app, dq):
    japanese(app, dq)  # the judges' accounts stay English: the page follows the event, not whoever made the link
    token = make_link(dq["head"], dq, name="Eve Witness", role="witness")
    visitor = app.test_client()  # no account, no Accept-Language
    page = text(visitor.get(f"/statement/{token}"))
    assert '<html lang="ja">' in page and "<h1>あなたの陳述</h1>" in page
    assert "こんにちは、Eve Witnessさん。" in page and "目撃者としてのあなたに" in page
    assert "<dt>期限</dt><dd>このリンクは" in page and JAPANESE_DATE_TIME.search(page)
    assert 'value="陳述を送信"' in page
    # a phone set to English reads it in English: the browser's language comes before the event's
    english = text(app.test_client().get(f"/statement/{token}", headers={"Accept-Language": "en-US,en;q=0.9"}))
    assert "<h1>Your statement</h1>" in english
    answer = send_statement(visitor, token, "見ました。")
    assert answer.status_code == 200 and "Eve Witnessさん、ありがとうございました" in text(answer)
    gone = visitor.get(f"/statement/{token}")
    assert gone.status_code == 410
    assert "このリンクはすでに使われ、陳述は受け付け済みです。リンクは一度だけ使えます。" in text(gone)


# ---- judge calls ----------------------------------------------------------------------------------------------------


def test_a_players_call_page_at_a_japanese_event_is_in_japanese_and_loads_no_judge_script(app, calls):
    japanese(app, calls)
    player = app.test_client()  # a phone that sends no Accept-Language
    page = text(player.get(calls["links"][7]))
    assert '<html lang="ja">' in page and "<title>7番卓 · ジャッジコール</title>" in page
    assert "<h1>7番卓にジャッジを呼ぶ</h1>" in page and "<legend>内容（任意）</legend>" in page
    assert "ルールの質問" in page and "対戦相手との意見の相違" in page and ">ジャッジを呼ぶ</button>" in page
    _, answer = raise_call(app, calls["links"][7])
    assert answer.status_code == 303
    waiting = text(app.test_client().get(calls["links"][7]))
    assert "あなたの呼び出しは順番待ちです：<strong>次</strong>。" in waiting
    assert "ゲームを止めて卓で待っていてください" in waiting and ">更新</a>" in waiting
    scripts = re.findall(r'<script[^>]*src="([^"?]+)', waiting)
    assert scripts == ["/static/js/call-status.js"]  # the player's own script only: no judge script, no i18n.js
    # a made-up link is believed of no event (i18n.SIGNED_LINK_ENDPOINTS): its 404 speaks the phone's language, and a
    # phone that asks for none gets the default one, which tells nothing of event N
    link = calls["links"][7]
    forged = link[:-1] + ("y" if link.endswith("x") else "x")  # a token that ends in "x" is not forged by another "x"
    unknown = app.test_client().get(forged, headers={"Accept-Language": "ja-JP,ja;q=0.9"})
    assert unknown.status_code == 404 and '<html lang="ja">' in text(unknown)
    assert "このジャッジコールのリンクは登録されていません。" in text(unknown)
    unasked = app.test_client().get(forged)
    assert unasked.status_code == 404 and '<html lang="en">' in text(unasked)
    assert "This call link is not known." in text(unasked)


def test_the_call_queue_reads_in_japanese_for_a_japanese_judge(app, calls):
    from tests.integration.test_calls import judge

    japanese(app, calls, "floor_judge")
    raise_call(app, calls["links"][7], note="カウンターは先に解決しますか？")
    floor = judge(app, calls["people"], "floor_judge")
    queue = text(floor.get(f"/events/{calls['event_id']}/calls"))
    assert "<h1>ジャッジコール</h1>" in queue and "<strong>7番卓</strong>" in queue
    assert "ルールの質問: “<bdi>カウンターは先に解決しますか？</bdi>”" in queue
    assert "待ち時間1分未満" in queue and ">対応する</button>" in queue
    assert 'data-summary="7番卓のジャッジコールに対応する"' in queue  # what the offline outbox lists
    answer = take(floor, calls["event_id"])
    page = text(floor.get(answer.headers["Location"]))
    assert "7番卓のジャッジコールに対応します。向かってください！" in page
    assert '<p class="big" id="call-state">対応中</p>' in page and "<dt>呼び出し</dt>" in page
    assert ">違反を記録</a>" in page and "違反なし：ジャッジコールを終了" in page
    closed = post_form(floor, f"/events/{calls['event_id']}/calls/1/close", {}, form_page=answer.headers["Location"])
    assert "7番卓のジャッジコールを終了しました：違反なし。" in text(floor.get(closed.headers["Location"]))
