"""Languages: Flask-Babel's gettext catalogs (judgeapp/translations), the request's language, locale-aware dates.

The language of a request is, in this order: the signed-in account's choice (Account page), the browser's
Accept-Language, the language of the event the page belongs to, English. Dates and times are shown in the venue's
time zone (JUDGEAPP_TIMEZONE), written the locale's way: English keeps the ISO forms judges and the CSV files use
(2026-11-23 14:05); Japanese writes 2026年11月23日 14:05 (always a 24-hour clock).

The phone's scripts read their strings from a JSON catalog made from the same .po file (scripts/i18n.py js, run by
`make`): only the messages found in judgeapp/static/js.
"""

from __future__ import annotations

import os
import re
from datetime import date, datetime
from typing import TYPE_CHECKING

from babel.dates import format_date, format_skeleton
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, get_locale
from flask_login import current_user

from .localtime import to_local
from .texts import install_gettext

if TYPE_CHECKING:
    from .models import User

LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語"}  # code -> the language's own name
DEFAULT_LANGUAGE = "en"
# strftime forms the pages ask for -> the CLDR skeleton a non-English locale writes them with
SKELETONS = {"%H:%M": "Hm", "%H:%M:%S": "Hms"}
DATED = {"%Y-%m-%d %H:%M": "Hm", "%Y-%m-%d %H:%M:%S": "Hms"}  # the locale's long date, then its 24-hour time

babel = Babel()


# Routes whose event_id is only believed with the link's signature: their views set g.link_event once it checks, so
# that a made-up link's 404 answers in the request's (else the default) language and tells nothing of event N.
SIGNED_LINK_ENDPOINTS = frozenset({"calls.table", "calls.division_table"})


def event_language() -> str | None:
    """The language of the event the request is about (g.event, or the route's event_id), if any."""
    event = g.get("event")
    if request.endpoint in SIGNED_LINK_ENDPOINTS:
        event = event or g.get("link_event")
    elif event is None and request.view_args and "event_id" in request.view_args:
        from .extensions import db
        from .models import Event

        event = db.session.get(Event, request.view_args["event_id"])
    return getattr(event, "language", None)


def language_of(user: User, event=None) -> str:
    """The language of an email to `user`: their account's, else the event's (an invitation to it), else English."""
    if user.locale in LANGUAGES:
        return user.locale
    if event is not None and getattr(event, "language", None) in LANGUAGES:
        return event.language
    return DEFAULT_LANGUAGE


def select_locale() -> str:
    if not has_request_context():  # the command line: JUDGEAPP_LANGUAGE=ja flask --app wsgi …
        chosen = re.split(r"[-_.@]", os.environ.get("JUDGEAPP_LANGUAGE", ""))[0].lower()  # ja, ja-JP, ja_JP.UTF-8
        return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE
    if getattr(current_user, "is_authenticated", False) and current_user.locale in LANGUAGES:
        return current_user.locale
    return browser_language() or event_language() or DEFAULT_LANGUAGE


def browser_language() -> str | None:
    """The first language of the browser's Accept-Language that judgeapp has, in the browser's order of preference
    (its q values; werkzeug sorts them, a tie keeping the header's order), each matched by its primary tag: ja-JP is
    Japanese, en-GB English. Not werkzeug's best_match, which takes any exact match before a regional one, so that
    `ja-JP,en;q=0.9` (a Japanese phone that also reads English) gave English and `en-GB,ja;q=0.5` Japanese, and
    which reads a wildcard as the first language we have. A wildcard, a refused language (q=0) or a header naming
    none we have leaves the choice to what comes next (the event's language)."""
    for value, quality in request.accept_languages:
        if value == "*" or quality <= 0:
            continue
        primary = value.replace("_", "-").split("-", 1)[0].lower()
        if primary in LANGUAGES:
            return primary
    return None


def language() -> str:
    """The language in force: the request's, the one a report or e-mail forces (force_locale), the command line's;
    English outside the app."""
    locale = get_locale()  # None outside an application context
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def format_clock(value: datetime | None, fmt: str = "%H:%M", lang: str | None = None) -> str:
    """A stored UTC time as the venue's clock shows it, in the language's way ('' for none)."""
    return "" if value is None else format_local(to_local(value), fmt, lang)


def format_local(at: datetime, fmt: str = "%H:%M", lang: str | None = None) -> str:
    """A time already on the venue's clock, in the language's way: English as `fmt` says (the ISO forms), another
    language its long date and 24-hour time for the forms it knows (2026年11月23日 14:05)."""
    lang = lang or language()
    if lang == "en" or (fmt not in SKELETONS and fmt not in DATED):
        return at.strftime(fmt)
    if fmt in DATED:
        return f"{format_date(at, 'long', locale=lang)} {format_skeleton(DATED[fmt], at, locale=lang)}"
    return format_skeleton(SKELETONS[fmt], at, locale=lang)


def format_day(value: date | datetime | None, lang: str | None = None) -> str:
    """A calendar date: ISO in English (2026-11-23), the locale's long form otherwise (2026年11月23日)."""
    if value is None:
        return ""
    lang = lang or language()
    day = value.date() if isinstance(value, datetime) else value
    return day.isoformat() if lang == "en" else format_date(day, "long", locale=lang)


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_DEFAULT_TIMEZONE", app.config.get("JUDGEAPP_TIMEZONE") or "UTC")
    babel.init_app(app, locale_selector=select_locale)
    install_gettext(app.jinja_env)  # the pages' `_()` through texts.translations, not Flask-Babel's slower look-up
    app.add_template_global(language, "language")
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.add_template_filter(format_day, "day")

    @app.template_global()
    def messages_url() -> str | None:
        """The phone scripts' catalog for the page's language (none for English, whose strings are the ids)."""
        from flask import url_for

        lang = language()
        return None if lang == DEFAULT_LANGUAGE else url_for("static", filename=f"i18n/{lang}.json")
