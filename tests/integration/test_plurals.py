"""Counts read as a person writes them: one day, 7 days; never "day(s)" nor "1 appeals" (issue 33, guard 15): through
ngettext, never a noun built by hand; in Japanese, which has one form, the same sentence for one and for many."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import render_template_string
from flask_babel import force_locale

from judgeapp.appeals.services import challenges_text
from judgeapp.extensions import db
from judgeapp.infractions.appeals import Challenges
from judgeapp.models import TokenPurpose, User
from tests.integration.test_incidents import signed_in, text

ROOT = Path(__file__).resolve().parents[2] / "judgeapp"


@pytest.mark.parametrize(
    ("hours", "said"),
    [(168, "7 days"), (24, "1 day"), (48, "2 days"), (1, "1 hour"), (5, "5 hours")],
)
def test_the_invitation_says_how_long_its_link_works_in_words_with_the_right_plural(app, hours, said):
    from judgeapp.auth.emails import _expires

    app.config["ACCOUNT_INVITE_HOURS"] = hours
    with app.test_request_context("/"):
        assert _expires(TokenPurpose.INVITE) == said


def test_a_reset_link_of_one_minute_says_one_minute(app):
    from judgeapp.auth.emails import _expires

    app.config["ACCOUNT_RESET_MINUTES"] = 1
    with app.test_request_context("/"):
        assert _expires(TokenPurpose.RESET) == "1 minute"


def test_no_message_counts_with_a_parenthesised_plural():
    """Every user-facing count goes through ngettext: no "(s)" left in a template or a message."""
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in sorted(ROOT.rglob("*"))
        if path.suffix in (".py", ".html", ".txt") and "translations" not in path.parts
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.search(r"""(\b_|gettext|_l)\(\s*['"][^'"]*[a-z]\((s|es)\)""", line)
    ]
    assert found == []


@pytest.mark.parametrize(
    ("challenges", "english", "japanese"),
    [
        (Challenges(1, 1, 0), "0 of 1 challenge left", "チャレンジ残り0回（全1回）"),
        (Challenges(2, 1, 0), "1 of 2 challenges left", "チャレンジ残り1回（全2回）"),
        (
            Challenges(1, 0, 1),
            "1 of 1 challenge left, 1 appeal waiting for a decision",
            "チャレンジ残り1回（全1回）、判断待ちのアピール1件",
        ),
        (
            Challenges(3, 0, 2),
            "3 of 3 challenges left, 2 appeals waiting for a decision",
            "チャレンジ残り3回（全3回）、判断待ちのアピール2件",
        ),
        (Challenges(None, 0, 0), "no challenge limit at this event", "この大会ではチャレンジ回数の上限なし"),
    ],
)
def test_the_challenges_left_read_in_the_singular_or_plural_their_count_needs(app, challenges, english, japanese):
    with app.test_request_context():
        with force_locale("en"):
            assert challenges_text(challenges) == english
        with force_locale("ja"):
            assert challenges_text(challenges) == japanese


@pytest.mark.parametrize(
    ("count", "english", "japanese"),
    [
        (1, "1 appeal waiting for you", "あなたの判断を待つアピール 1件"),
        (2, "2 appeals waiting for you", "あなたの判断を待つアピール 2件"),
    ],
)
def test_the_appeals_badge_reads_its_count_in_the_plural_it_needs(app, make_user, count, english, japanese):
    from flask_login import login_user

    user_id, _email = make_user("head.reader@example.test")
    for lang, expected in (("en", english), ("ja", japanese)):
        with app.test_request_context("/"), force_locale(lang):
            login_user(db.session.get(User, user_id))
            page = render_template_string("{% include 'base.html' %}", appeals_waiting=count, calls_waiting=None)
            assert f'aria-label="{expected}">{count}</span>' in page


@pytest.mark.parametrize(("minutes", "said"), [(1, "for 1 minute;"), (30, "for 30 minutes;")])
def test_a_one_time_link_printed_by_the_command_line_says_minute_or_minutes(app, make_user, minutes, said):
    make_user("operator.help@example.test")
    app.config["ACCOUNT_RESET_MINUTES"] = minutes
    result = app.test_cli_runner().invoke(args=["users", "reset-link", "operator.help@example.test"])
    assert result.exit_code == 0, result.output
    assert said in result.output


@pytest.mark.parametrize(
    ("lang", "total_words"),
    [("en", "of 57 infractions"), ("ja", "57件中")],
)
def test_the_quick_references_count_reads_in_the_pages_language(app, make_user, lang, total_words):
    user_id, _email = make_user("reader@example.test")
    with app.app_context():
        db.session.get(User, user_id).locale = lang
        db.session.commit()
    page = text(signed_in(app, "reader@example.test").get("/reference/bushiroad-afr?q=3.5.4"))
    assert ("1 of 57 infractions" if lang == "en" else "57件中1件の違反") in page and total_words in page
