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


def test_a_message_reads_in_the_language_in_force_before_during_and_after_a_forced_one(app):
    """A request's messages are looked up once per language (judgeapp/texts.py keeps the catalog): a report or an
    e-mail written in another language inside the request (force_locale) reads in that one, in Python and in a
    template, and the request's own language comes back after it."""
    from flask import render_template_string
    from flask_babel import force_locale

    from judgeapp.texts import gettext, lazy_gettext, ngettext

    later = lazy_gettext("Log in")
    with app.test_request_context("/", headers={"Accept-Language": "ja"}):
        page = "{{ _('Log in') }}"
        assert (gettext("Log in"), render_template_string(page), str(later)) == ("ログイン", "ログイン", "ログイン")
        with force_locale("en"):
            assert (gettext("Log in"), render_template_string(page), str(later)) == ("Log in", "Log in", "Log in")
            assert ngettext("%(left)s of %(num)d challenge left", "%(left)s of %(num)d challenges left", 2, left=1) == (
                "1 of 2 challenges left"
            )
        assert ngettext("%(left)s of %(num)d challenge left", "%(left)s of %(num)d challenges left", 2, left=1) == (
            "チャレンジ残り1回（全2回）"
        )
        assert (gettext("Log in"), render_template_string(page), str(later)) == ("ログイン", "ログイン", "ログイン")
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert (gettext("Log in"), render_template_string(page)) == ("Log in", "Log in")
    assert gettext("Log in") == "Log in"  # outside any application: English
