"""Counts read as a person writes them: one day, 7 days; never "day(s)" (issue 33, guard 15)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judgeapp.models import TokenPurpose

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
