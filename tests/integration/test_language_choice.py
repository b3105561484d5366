"""The browser's Accept-Language is read the way a browser means it: its languages in the order of preference it
gives (their q values), each matched by its primary tag (ja-JP is Japanese, en-GB English), the first one judgeapp
has wins; a wildcard (*) or a header naming none we have leaves the choice to the event's language. Odd headers
(a q that is not a number, a huge list) never fail a page."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from judgeapp.extensions import db
from judgeapp.models import Event


def lang_of(client, headers: dict, url: str = "/no-such-page") -> str:
    html = client.get(url, headers=headers).get_data(as_text=True)
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ja-JP,en;q=0.9", "ja"),  # a Japanese phone with English as its second language
        ("ja-JP,en-US;q=0.9,en;q=0.8", "ja"),
        ("ja-jp", "ja"),
        ("en-GB,ja;q=0.5", "en"),  # a British judge who also reads Japanese
        ("en-GB,en;q=0.9,ja;q=0.8", "en"),
        ("zh-Hant-TW,ja;q=0.5,en;q=0.4", "ja"),  # a language we lack first: the next one we have
        ("en;q=0.2,ja;q=0.8", "ja"),  # the q values decide, not the order written
        ("ja-JP,*;q=0.1", "ja"),
    ],
)
def test_the_browsers_first_language_that_judgeapp_has_wins_whatever_region_it_names(client, header, expected):
    assert lang_of(client, {"Accept-Language": header}) == expected


@pytest.mark.parametrize("header", ["*", "zh-Hant-TW", "ja;q=0", "ja;q=abc", "ja;q=nan", "x" * 8000, "日本語", ";;,,"])
def test_a_header_naming_no_language_we_have_leaves_the_choice_to_the_events_language(app, make_event, header):
    event_id = make_event()
    with app.app_context():
        db.session.execute(update(Event).where(Event.id == event_id).values(language="ja"))
        db.session.commit()
    visitor = app.test_client()
    response = visitor.post(
        f"/events/{event_id}/rounds", data={"csrf_token": "stale"}, headers={"Accept-Language": header}
    )
    assert response.status_code == 400
    assert '<html lang="ja">' in response.get_data(as_text=True)


def test_the_notice_after_choosing_a_language_is_in_the_language_just_chosen(app, make_user):
    from tests.conftest import CSRF_RE, login

    _, email = make_user(name="山田 太郎")
    judge = app.test_client()
    login(judge, email)

    def choose(locale: str) -> str:
        token = CSRF_RE.search(judge.get("/account/password").get_data(as_text=True)).group(1)
        form = {"csrf_token": token, "name": "山田 太郎", "reading": "やまだ たろう", "locale": locale}
        return judge.post("/account/profile", data=form, follow_redirects=True).get_data(as_text=True)

    japanese = choose("ja")
    assert '<html lang="ja">' in japanese
    assert "保存しました。" in japanese and "Saved." not in japanese
    english = choose("en")
    assert '<html lang="en">' in english
    assert "Saved." in english and "保存しました。" not in english
