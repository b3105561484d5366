"""The organizer's and account pages in Japanese: an organizer whose account language is Japanese gets the event form,
the event page and an import's messages in Japanese; dates are written the Japanese way; account emails go in the
recipient's language (their account's, else the event's for an invitation, else English)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import User
from tests.conftest import login, post_form, run_jobs
from tests.integration.test_imports import import_players, page, rejected_rows

pytestmark = pytest.mark.db


def set_locale(app, user_id: int, locale: str | None) -> None:
    with app.app_context():
        db.session.get(User, user_id).locale = locale
        db.session.commit()


@pytest.fixture
def japanese_organizer(app, make_user, make_event):
    """An organizer whose account language is Japanese, signed in, with an event on 2026-11-23: (client, event id)."""
    uid, email = make_user(organizer=True, name="森 直子")
    set_locale(app, uid, "ja")
    client = app.test_client()
    assert login(client, email).status_code == 302
    return client, make_event(uid, name="冬季大会", date=date(2026, 11, 23), language="ja")


def test_the_event_form_of_an_organizer_whose_account_is_japanese_is_in_japanese(japanese_organizer):
    client, _ = japanese_organizer
    html = page(client.get("/events/new"))
    assert '<html lang="ja">' in html
    assert "新しい大会" in html and ">大会名" in html and ">大会レベル" in html
    assert "この大会で適用する罰則規定。" in html
    assert "大会の報告書とプレイヤー向け画面の言語です。言語を選んでいないジャッジの画面もこの言語になります。" in html
    assert 'value="Save event"' not in html and 'value="大会を保存"' in html

    refused = post_form(client, "/events/new", {"name": "春季大会", "venue": "ホールA"})
    assert refused.status_code == 200 and "大会の日付を入力してください。" in page(refused)


def test_the_event_page_in_japanese_writes_the_date_2026年11月23日_and_names_the_events_language(
    app, japanese_organizer, make_user, make_event
):
    client, event_id = japanese_organizer
    html = page(client.get(f"/events/{event_id}"))
    assert "<dd>2026年11月23日</dd>" in html and "2026-11-23" not in html
    assert '<dd id="event-language">日本語</dd>' in html
    assert "ラウンド未開始" in html and "主催者：森 直子" in html and "5ラウンド × 50分" in html
    assert "2026年11月23日" in page(client.get("/")), "the list of events too"

    uid, email = make_user(organizer=True, name="Olivia Organizer")
    set_locale(app, uid, "en")  # an account that chose English: its pages stay English at a Japanese event
    own_id = make_event(uid, name="Autumn Cup", date=date(2026, 11, 23), language="ja")
    english = app.test_client()
    assert login(english, email).status_code == 302
    html = page(english.get(f"/events/{own_id}"))
    assert "<dt>Date</dt><dd>2026-11-23</dd>" in html
    assert '<dt>Language</dt><dd id="event-language">日本語</dd>' in html


def test_an_import_in_japanese_says_what_is_wrong_with_each_row_in_japanese(japanese_organizer, job_worker):
    client, event_id = japanese_organizer
    body = "name,player id,round,table,opponent id\n山田 太郎,J-1,,,\n鈴木 花,,,,\n,J-3,,,\n佐藤 蓮,J-4,2,x,J-1\n"
    html = page(import_players(client, event_id, body, job_worker))
    assert "表計算ファイル（CSVかTSV）" in html, "the file's format, named in Japanese"
    problems = [problem for _, problem in rejected_rows(html)]
    assert "プレイヤーIDが空欄です" in problems
    assert "プレイヤーの名前がありません" in problems
    assert "第2ラウンド：卓番号「x」が数字ではありません" in problems


def test_a_spreadsheet_whose_columns_are_unknown_asks_for_them_in_japanese(japanese_organizer, job_worker):
    client, event_id = japanese_organizer
    html = page(import_players(client, event_id, "Teilnehmer;Kennung\r\nLena Pike;K-1\r\n", job_worker))
    assert 'id="column-mapping"' in html
    assert "ファイルの列を認識できませんでした。プレイヤーの名前かIDがどの列にあるか選んでください。" in html
    assert '<option value="">読み込まない</option>' in html and ">読み（フリガナ）</option>" in html
    assert 'value="この列の指定で読み込む"' in html


def test_an_invitation_to_a_japanese_event_is_written_in_japanese(app, make_user, make_event, mailbox):
    uid, email = make_user(organizer=True, name="Olivia Organizer")
    set_locale(app, uid, "en")  # the organizer chose English: their own pages stay English
    event_id = make_event(uid, name="冬季大会", language="ja")
    client = app.test_client()
    assert login(client, email).status_code == 302
    added = post_form(
        client,
        f"/events/{event_id}/staff",
        {"email": "hana@example.test", "name": "井上 花", "role": "floor_judge"},
        follow_redirects=True,
    )
    assert "井上 花 is invited as floor judge; we emailed them. The role is theirs once they accept." in page(added)
    [invite] = mailbox.to("hana@example.test")
    assert invite["Subject"].strip() == "judgeappへの招待：冬季大会のフロアジャッジ"
    body = invite.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert body.startswith("井上 花様\n\nOlivia Organizerさんが、あなたを冬季大会のフロアジャッジに招待しています。")
    assert "こちらからパスワードを設定してください（このリンクは7日間、1回だけ使えます）：" in body
    assert re.search(r"/account/set-password/[\w-]+", body)


def test_an_account_that_chose_english_gets_its_staff_email_in_english_even_for_a_japanese_event(
    app, make_user, make_event, give_role, mailbox
):
    uid, _ = make_user(organizer=True)
    judge, judge_email = make_user(name="Kim Known")
    set_locale(app, judge, "en")
    give_role(make_event(uid, name="冬季大会", language="ja"), judge, "head_judge")
    with app.app_context():
        from judgeapp.auth import emails
        from judgeapp.models import Event, Role

        event = db.session.scalar(select(Event))
        emails.send_staff_notice(
            db.session.get(User, judge), event_name=event.name, role=Role.HEAD_JUDGE, organizer="Org", event=event
        )
    [notice] = mailbox.to(judge_email)
    assert notice["Subject"].strip() == "Invitation: head judge at 冬季大会 on judgeapp"


def test_a_password_reset_for_a_japanese_account_is_written_in_japanese(app, make_user, mailbox, job_worker):
    uid, email = make_user(name="松本 健一")
    set_locale(app, uid, "ja")
    post_form(app.test_client(), "/account/forgot", {"email": email})
    run_jobs(job_worker)  # sent by the job worker
    [reset] = mailbox.to(email)
    assert reset["Subject"].strip() == "judgeappの新しいパスワードを設定してください"
    body = reset.get_body(("plain",)).get_content()
    assert "心当たりがない場合は、このメールを無視してください。パスワードは変わりません。" in body


def test_a_japanese_account_is_told_in_japanese_that_its_current_password_is_wrong(app, make_user):
    uid, email = make_user(name="松本 健一")
    set_locale(app, uid, "ja")
    client = app.test_client()
    assert login(client, email).status_code == 302
    wrong = {"current_password": "not-my-password", "new_password": "a-new-password-1", "confirm": "a-new-password-1"}
    html = page(post_form(client, "/account/password", wrong))
    assert "現在のパスワードが違います。" in html and "パスワードの変更" in html
