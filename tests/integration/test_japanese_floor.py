"""A floor judge whose language is Japanese: the incident form, its confirmation and its errors, the round clock, time
extensions and deck checks speak Japanese, times on the 24-hour clock. (The infraction and penalty names come from
the catalog and are not asserted here.)"""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import DeckCheck, User
from tests.conftest import csrf_token
from tests.integration.test_incidents import log, new_url, signed_in, text
from tests.integration.test_time_and_deck_checks import add_time, round_one, start_check


def japanese_judge(app, floor, role="floor_judge"):
    """The event's floor judge, with Japanese chosen on their Account page, signed in."""
    user_id, email = floor["people"][role]
    with app.app_context():
        db.session.get(User, user_id).locale = "ja"
        db.session.commit()
    return signed_in(app, email)


def hm(at) -> str:
    """A time as the Japanese pages write it: the 24-hour clock, no leading zero on the hour (CLDR ja: H:mm)."""
    return f"{at.hour}:{at.minute:02d}"


def field_error(html: str, field: str) -> str:
    found = re.search(rf'<p id="{field}-error" class="error" role="alert">([^<]*)</p>', html)
    return found.group(1) if found else ""


def test_a_japanese_floor_judge_opens_the_incident_form_in_japanese(app, floor):
    judge = japanese_judge(app, floor)
    page = judge.get(new_url(floor["event_id"])).get_data(as_text=True)
    assert '<html lang="ja">' in page
    assert "<h1>違反を記録</h1>" in page
    for label in ("ラウンド", "卓", "プレイヤー", "違反", "罰則", "説明", "時間延長（分）"):
        assert re.search(rf"<label for=\"\w+\">{re.escape(label)}( <span|</label>)", page), label
    assert "<legend>対象</legend>" in page and "観戦者" in page and "チーム" in page
    assert "名前の一部、またはプレイヤーIDを入力します。" in page  # the player field's help
    assert "未登録：このプレイヤーを追加する" in page
    assert 'placeholder="番号または語句で検索"' in page
    assert "これはヘッドジャッジだけが判断します。<strong>推奨</strong>として保存され" in page
    assert '<option selected value="1">第1ラウンド</option>' in page
    assert 'value="違反記録を保存"' in page
    assert "Save incident" not in page and "Description" not in page


def test_saving_an_incident_gives_the_japanese_confirmation_of_what_to_tell_the_players(app, floor):
    judge = japanese_judge(app, floor)
    response = log(judge, floor["event_id"], player="Aiko Mori · P-001", infraction="3.5.2", penalty="warning")
    assert response.status_code == 302
    page = text(judge.get(response.headers["Location"]))
    assert "保存しました：違反記録 #1" in page
    assert "<strong>プレイヤーに伝えること：</strong>" in page
    assert re.search(r"Aiko Moriに「.+?」（3\.5\.2）で.+?を出します。", page), page
    assert "大会に戻る" in page and "続けて違反を記録" in page
    assert "<dt>ラウンド</dt><dd>1</dd>" in page and "<dt>プレイヤー</dt>" in page
    assert "変更履歴" in page and "<strong>記録</strong>（Floor Judge）、" in page
    assert "Tell the players" not in page


def test_an_upgrade_is_explained_in_japanese_and_a_lighter_penalty_asks_for_a_reason_in_japanese(app, floor):
    judge = japanese_judge(app, floor)
    log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning")
    below = log(judge, floor["event_id"], player="P-001", infraction="3.5.3.2", penalty="warning")
    assert below.status_code == 400
    assert re.fullmatch(
        r".+?は推奨の罰則（.+?）より軽いです。理由を短く入力してください。",
        field_error(below.get_data(as_text=True), "deviation_reason"),
    )
    upgraded = log(judge, floor["event_id"], player="P-001", infraction="3.5.3.2", penalty="loss_of_game")
    page = text(judge.get(upgraded.headers["Location"]))
    assert re.search(
        r"Aiko Moriに「.+?」（3\.5\.3\.2）で.+?を出します。3\.5の違反の再違反のため格上げされています。", page
    )
    assert re.search(r"<dt>格上げ</dt><dd>.*>#1</a>に続く3\.5の再違反</dd>", page)


def test_a_bad_submission_comes_back_with_the_japanese_error_at_the_field_and_the_input_kept(app, floor):
    judge = japanese_judge(app, floor)
    no_infraction = log(judge, floor["event_id"], player="Aiko Mori · P-001", description="山札を2枚多く引いた")
    assert no_infraction.status_code == 400
    html = no_infraction.get_data(as_text=True)
    assert field_error(html, "infraction") == "違反を選んでください。"
    assert "山札を2枚多く引いた</textarea>" in html and 'value="Aiko Mori · P-001"' in html

    # the service's own check, after the form's: a table the event does not have
    no_table = log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning", table=999)
    assert no_table.status_code == 400
    html = no_table.get_data(as_text=True)
    assert field_error(html, "table") == "999番卓はありません。この大会の卓は1〜2番です。"
    assert 'value="999"' in html


def test_the_round_clock_and_a_time_extension_in_japanese_on_the_24_hour_clock(app, floor):
    app.config["JUDGEAPP_TIMEZONE"] = "UTC"
    started, length = round_one(app)
    judge = japanese_judge(app, floor)
    added = add_time(judge, floor["event_id"], table=2, reason="other", minutes=3)
    assert added.status_code == 302
    ends = started + timedelta(minutes=length + 3)
    page = text(judge.get(added.headers["Location"]))
    assert f"2番卓：3分を追加しました。終了時刻は{hm(ends)}です。" in page
    assert "<h1>ラウンド時計</h1>" in page
    assert f"第1ラウンド・{hm(started)}開始・{length}分" in page
    assert f'終了 <span class="end">{hm(started + timedelta(minutes=length))}</span>' in page
    assert "時間延長のある卓" in page and "<strong>2番卓</strong>" in page and "+3分" in page
    assert "3分 その他（Floor Judge）" in page

    refused = add_time(judge, floor["event_id"], table=2, reason="ruling", taken_minutes="0.5", minutes=2)
    assert refused.status_code == 400
    assert field_error(refused.get_data(as_text=True), "adjust_reason") == (
        "罰則規定では0分です。2分にする理由を入力してください。"
    )


def test_the_time_extension_form_in_japanese(app, floor):
    judge = japanese_judge(app, floor)
    page = judge.get(f"/events/{floor['event_id']}/extensions/new").get_data(as_text=True)
    assert "<h1>時間延長</h1>" in page
    assert (
        '<option value="ruling">裁定</option>' in page and '<option value="deck_check">デッキチェック</option>' in page
    )
    assert "マッチ中断時刻" in page and "追加する時間（分）" in page
    assert "空欄にすると、中断に対して罰則規定が定める時間を追加します。" in page
    assert 'value="時間を追加"' in page


def test_a_deck_check_in_japanese(app, floor):
    app.config["JUDGEAPP_TIMEZONE"] = "UTC"
    started, length = round_one(app)
    judge = japanese_judge(app, floor)
    form = judge.get(f"/events/{floor['event_id']}/deck-checks/new").get_data(as_text=True)
    assert "<h1>デッキチェックを開始</h1>" in form and "チェックするプレイヤー" in form
    assert "両方を空欄にすると、その卓に着席している全員をチェックします（対戦表がある場合）。" in form

    no_pairings = start_check(judge, floor["event_id"], table=1)
    assert no_pairings.status_code == 400
    assert field_error(no_pairings.get_data(as_text=True), "player_1") == (
        "この卓の対戦表がありません。チェックするプレイヤーを入力してください。"
    )

    check_url = start_check(judge, floor["event_id"], table=2, player_1="P-002").headers["Location"]
    page = text(judge.get(check_url))
    assert "<h1>デッキチェック・2番卓</h1>" in page
    assert "<dt>チェック対象</dt>" in page and "<h2>チェックの終了</h2>" in page
    assert "デッキは登録どおり" in page and "問題あり" in page
    assert "デッキの問題を記録（3.1）：Ben Ode" in page

    with app.app_context():
        dc = db.session.scalar(select(DeckCheck))
        dc.started_at -= timedelta(minutes=6, seconds=20)  # the check took six and a bit minutes
        db.session.commit()
    unanswered = judge.post(check_url, data={"csrf_token": csrf_token(judge, check_url)})
    assert unanswered.status_code == 400 and "結果を選んでください。" in text(unanswered)
    ended = judge.post(check_url, data={"csrf_token": csrf_token(judge, check_url), "result": "matches"})
    assert ended.status_code == 302
    page = text(judge.get(check_url))
    ends = started + timedelta(minutes=length + 7)
    assert f"デッキチェックを終了しました。2番卓：7分を追加しました。終了時刻は{hm(ends)}です。" in page
    assert "時間延長：7分" in page
    clock = text(judge.get(f"/events/{floor['event_id']}/clock"))
    assert "7分 デッキチェック（Floor Judge）" in clock


def test_the_offline_page_is_in_the_language_of_the_judge_who_fetches_it(app, floor):
    judge = japanese_judge(app, floor)
    page = judge.get("/offline").get_data(as_text=True)
    assert '<html lang="ja">' in page and "<h1>ネットワークに接続されていません</h1>" in page
    assert 'name="judgeapp-messages"' in page  # the phone's scripts on it speak Japanese too
    english = app.test_client().get("/offline", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="en">' in english and "<h1>No network</h1>" in english
