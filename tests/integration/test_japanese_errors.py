"""A Japanese-speaking judge reads every refusal, error page and field message in Japanese: whatever the page, the
reason it gives and what to do instead are in the request's language (the account's choice, else the browser's
Accept-Language, else the event's language), and an English-speaking judge still reads the same pages in English."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import update

from judgeapp.extensions import db
from judgeapp.models import Event, User, utcnow
from tests.conftest import login, post_form

THREE_MB = 3 * 1024 * 1024


def page(response) -> str:
    """The page's HTML with white space collapsed, as a browser shows it."""
    return " ".join(response.get_data(as_text=True).split())


def speaks(app, user_id: int, locale: str | None) -> None:
    with app.app_context():
        db.session.execute(update(User).where(User.id == user_id).values(locale=locale))
        db.session.commit()


@pytest.fixture
def japanese_judge(app, make_user, make_event, give_role):
    """A floor judge whose account language is Japanese, signed in, on an event's staff: (client, event id)."""
    event_id = make_event()
    uid, email = make_user(name="山田 太郎")
    give_role(event_id, uid, "floor_judge")
    speaks(app, uid, "ja")
    client = app.test_client()
    assert login(client, email).status_code == 302
    return client, event_id


@pytest.fixture
def japanese_head_judge(app, make_user, make_event, give_role):
    event_id = make_event()
    uid, email = make_user(name="佐藤 花子")
    give_role(event_id, uid, "head_judge")
    speaks(app, uid, "ja")
    client = app.test_client()
    assert login(client, email).status_code == 302
    return client, event_id


def test_a_missing_page_is_a_japanese_404_in_a_japanese_document(japanese_judge):
    client, _ = japanese_judge
    response = client.get("/events/999999")
    html = page(response)
    assert response.status_code == 404
    assert '<html lang="ja">' in html
    assert "<h1>見つかりません" in html and "ここには何もないか、あなたには表示できないページです。" in html
    assert "自分の大会一覧に戻る" in html and "Back to my events" not in html


def test_a_role_refusal_is_a_japanese_403_naming_who_may_and_what_to_do(japanese_judge):
    client, event_id = japanese_judge
    response = client.get(f"/events/{event_id}/settings")
    html = page(response)
    assert response.status_code == 403
    assert "<h1>許可されていません" in html
    assert "大会の設定を変更できるのは大会の主催者だけです。" in html
    assert "この大会でのあなたの役割では、この操作はできません。主催者かヘッドジャッジに相談してください。" in html
    assert "Only the event" not in html


def test_a_closed_event_is_a_japanese_409_that_says_it_can_be_reopened(app, japanese_head_judge):
    client, event_id = japanese_head_judge
    with app.app_context():
        db.session.execute(update(Event).where(Event.id == event_id).values(closed_at=utcnow()))
        db.session.commit()
    response = client.get(f"/events/{event_id}/incidents/new")
    html = page(response)
    assert response.status_code == 409
    assert "<h1>今はできません" in html
    assert "この大会は終了しています。記録は閲覧のみです。" in html
    assert "まだ変更が必要な場合は、主催者が理由を添えて大会を再開できます。" in html
    assert "大会に戻る" in html  # the 409 page leads back to the event


def test_a_refused_state_change_gives_its_reason_in_japanese(japanese_head_judge):
    client, event_id = japanese_head_judge
    post_form(client, f"/events/{event_id}/rounds", {}, form_page=f"/events/{event_id}")
    ended = post_form(client, f"/events/{event_id}/rounds/1/end", {}, form_page=f"/events/{event_id}")
    assert ended.status_code == 302
    again = post_form(client, f"/events/{event_id}/rounds/1/end", {}, form_page=f"/events/{event_id}")
    html = page(again)
    assert again.status_code == 409
    assert "<h1>今はできません" in html and "このラウンドはすでに終了しています。" in html


def test_a_body_over_the_limit_is_a_japanese_413_with_the_limit(japanese_judge):
    client, event_id = japanese_judge
    response = client.post(f"/events/{event_id}/incidents/new", data={"description": "x" * THREE_MB})
    response.request.environ["wsgi.input"].close()
    html = page(response)
    assert response.status_code == 413
    assert "<h1>サイズが大きすぎます" in html
    assert "（最大2 MB）を超えています。何も保存されていません。" in html


def test_a_bad_form_comes_back_with_japanese_messages_at_its_fields(app, make_user, login_as):
    uid, email = make_user(organizer=True)
    speaks(app, uid, "ja")
    client = login_as(email)
    response = post_form(
        client,
        "/events/new",
        {"name": "", "date": "2026-11-23", "venue": "秋葉原", "rounds": "五", "round_minutes": "50"},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    name_error = re.search(r'<p id="name-error" class="error" role="alert">([^<]*)</p>', html)
    rounds_error = re.search(r'<p id="rounds-error" class="error" role="alert">([^<]*)</p>', html)
    assert name_error and name_error.group(1) == "このフィールドは必須です。"  # WTForms' own message, in Japanese
    assert rounds_error and rounds_error.group(1) == "12のように整数を数字で入力してください。"


def test_an_english_judge_still_reads_the_same_pages_in_english(app, make_user, make_event, give_role, login_as):
    event_id = make_event()
    uid, email = make_user()
    give_role(event_id, uid, "floor_judge")
    speaks(app, uid, "en")
    client = login_as(email)
    missing = page(client.get("/events/999999", headers={"Accept-Language": "ja"}))  # the account's choice wins
    assert '<html lang="en">' in missing and "<h1>Not found" in missing and "見つかりません" not in missing
    refused = page(client.get(f"/events/{event_id}/settings"))
    assert "Only the event&#39;s organizer changes its settings." in refused
    assert "Your role at this event does not allow this. Ask the organizer or the head judge." in refused


def test_the_browsers_accept_language_alone_gives_japanese(client):
    response = client.get("/no-such-page", headers={"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"})
    html = page(response)
    assert response.status_code == 404
    assert '<html lang="ja">' in html and "<h1>見つかりません" in html


def test_a_japanese_events_pages_speak_japanese_to_a_signed_out_visitor_without_accept_language(app, make_event):
    event_id = make_event()
    with app.app_context():
        db.session.execute(update(Event).where(Event.id == event_id).values(language="ja"))
        db.session.commit()
    visitor = app.test_client()
    expired = page(visitor.post(f"/events/{event_id}/rounds", data={"csrf_token": "stale"}))
    assert '<html lang="ja">' in expired
    assert "このフォームは期限切れか、judgeappから送信されたものではありません" in expired
    to_login = visitor.get(f"/events/{event_id}")
    assert to_login.status_code == 302
    assert "続けるにはログインしてください。" in page(visitor.get(to_login.headers["Location"]))
    assert "Log in to continue." in page(app.test_client().get("/events/999999", follow_redirects=True))
