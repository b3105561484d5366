"""Dates and times are written the way the judge's language writes them, on the venue's 24-hour clock."""

from datetime import date, datetime

import pytest
from flask import Flask

from judgeapp.i18n import format_clock, format_day


@pytest.fixture(scope="module")
def app():
    app = Flask(__name__)
    app.config["JUDGEAPP_TIMEZONE"] = "Asia/Tokyo"  # the venue's clock; no database or catalog needed
    return app


AT = datetime(2026, 11, 23, 5, 5, 9)  # stored UTC: 14:05:09 in Tokyo


@pytest.mark.parametrize(
    ("lang", "fmt", "shown"),
    [
        ("en", "%H:%M", "14:05"),
        ("en", "%Y-%m-%d %H:%M", "2026-11-23 14:05"),
        ("ja", "%H:%M", "14:05"),
        ("ja", "%H:%M:%S", "14:05:09"),
        ("ja", "%Y-%m-%d %H:%M", "2026年11月23日 14:05"),
        ("ja", "%Y-%m-%d %H:%M:%S", "2026年11月23日 14:05:09"),
    ],
)
def test_a_stored_time_is_shown_on_the_venues_clock_in_the_judges_language(app, lang, fmt, shown):
    with app.app_context():
        assert format_clock(AT, fmt, lang) == shown


def test_a_date_is_iso_in_english_and_written_out_in_japanese(app):
    with app.app_context():
        assert format_day(date(2026, 11, 23), "en") == "2026-11-23"
        assert format_day(date(2026, 11, 23), "ja") == "2026年11月23日"
        assert format_clock(None) == "" and format_day(None) == ""
