"""Small request helpers every blueprint uses: where a `next` link may lead, one answer for the phone's outbox script
and for a browser, the venue's clock, and a refusal that says why on the page."""

from __future__ import annotations

import io
import re
from datetime import datetime
from typing import NoReturn
from urllib.parse import unquote, urlsplit

from flask import abort, flash, jsonify, make_response, redirect, render_template, send_file
from werkzeug.wrappers import Response

from .texts import gettext as _
from .texts import lazy_gettext as _l

# Titles of the error page, by status; each refusal gives its own text (refuse) or falls back to the default here.
# Lazy strings: in the request's language.
ERROR_PAGES = {
    400: (_l("Bad request"), _l("The request could not be understood. Go back and try again.")),
    403: (_l("Not allowed"), _l("Your role at this event does not allow this. Ask the organizer or the head judge.")),
    404: (_l("Not found"), _l("There is nothing here, or it is not yours to see.")),
    405: (_l("Not allowed"), _l("This address does not accept that kind of request.")),
    409: (_l("Event closed"), _l("This event is closed; nothing was changed.")),
    410: (_l("Link no longer works"), _l("This link has been used or has expired.")),
    413: (_l("Too large"), _l("What was sent is larger than this page accepts. Nothing was saved.")),
    429: (_l("Too many attempts"), _l("Too many attempts in a short time. Wait a few minutes and try again.")),
    500: (
        _l("Something went wrong"),
        _l("Nothing was saved from this request. Try again; if it keeps failing, tell the head judge."),
    ),
    503: (
        _l("The server is busy"),
        _l(
            "Nothing was saved from this request: too many were sent at once. Wait a few seconds and send it again; "
            "a record waiting on a phone is sent again by itself."
        ),
    ),
}

# Characters a browser drops from a URL (control characters) or reads as a slash: a target with any is not followed.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f\\]")
_MAX_NEXT = 2000


def safe_next(target: str | None, default: str) -> str:
    """`target` when it is a path on this site, else `default`. Browsers drop tabs and new lines inside a URL, strip
    control characters and spaces around it and read a backslash as a slash, so `/\\t/evil.example` or
    `/\\evil.example` would leave the site: such a target, raw or once percent-decoded, is refused, and what is left
    must parse as a path with no scheme and no host."""
    if not target or len(target) > _MAX_NEXT:
        return default
    for candidate in (target, unquote(target)):
        if _UNSAFE.search(candidate):
            return default
        parts = urlsplit(candidate)  # "///host" parses with an empty host, but a browser goes to `host`: refuse "//"
        if parts.scheme or parts.netloc or not candidate.startswith("/") or candidate.startswith("//"):
            return default
    return target


def outbox_post(form) -> bool:
    """Whether this request asks for a JSON answer: a record sent from a phone's outbox (static/js/sync.js). It carries
    its writer's account, and another account's record is refused even with a valid session and token."""
    from flask import request
    from flask_login import current_user

    if form.is_submitted() and form.outbox_owner.data and form.outbox_owner.data != str(current_user.id):
        refuse(
            403,
            _(
                "This record was written on this phone by another account; it is sent only when that judge is "
                "signed in."
            ),
        )
    return request.accept_mimetypes.best == "application/json"


def json_errors(form):
    """A form the phone's outbox sent that did not validate: the field messages, for the outbox to show."""
    return jsonify(ok=False, errors=form.errors), 422


def answer(
    as_json: bool,
    url: str,
    *,
    created: bool = True,
    message: str | None = None,
    redirect_to: str | None = None,
    **fields,
):
    """The one answer to a saved form: JSON for the phone's outbox script (201 when the record is new, 200 when its
    one-time key had stored it already, with the message the browser would have flashed: the outbox says it when
    the record went in the background), a flashed message and a redirect (to `redirect_to`, else `url`) for a
    browser."""
    if as_json:
        said = {"message": message} if message else {}
        return jsonify(ok=True, created=created, url=url, **said, **fields), 201 if created else 200
    if message:
        flash(message, "success")
    return redirect(redirect_to or url)


def button(do, success) -> tuple[bool, object]:
    """One service call behind a button: commit and flash `success` (a text, or a function of the call's result)
    when it went through; when the service objected at a field (FieldError), undo the request's writes and flash why.
    Returns (went through, the call's result)."""
    from .errors import FieldError
    from .extensions import db

    try:
        result = do()
    except FieldError as err:
        db.session.rollback()
        flash(err.message, "error")
        return False, None
    db.session.commit()
    flash(success(result) if callable(success) else success, "success")
    return True, result


PARTIAL_HEADER = "X-Judgeapp-Partial"


def live_list(page):
    """A live list's own answer (?partial=1, static/js/feed.js): marked as one, so that the page puts into the list
    only such an answer, never a sign-in page or an error page it was sent instead."""
    from flask import request

    response = make_response(page)
    if request.args.get("partial"):
        response.headers[PARTIAL_HEADER] = "1"
    return response


def clock(value: datetime | None, fmt: str = "%H:%M") -> str:
    """A stored UTC time as the venue's clock shows it ('' for none): pages, flash messages and JSON answers alike, in
    the request's language (judgeapp/i18n.py)."""
    from .i18n import format_clock

    return format_clock(value, fmt)


# ---- the player's page (a table's call link, judgeapp/calls) -----------------------------------------------------

NOT_KNOWN = _l("This call link is not known. Scan the QR code on your table again, or raise your hand.")
RAISE_YOUR_HAND = _l("Raise your hand and call “Judge!” aloud: a judge will come to your table.")
NOT_SENT = _l("This page could not send your call. Scan the QR code on your table again. %(raise_hand)s")
# The player's own error pages (error_page sends every error under /call/ here): what a player can do about it.
# Each text is one message; %(raise_hand)s is RAISE_YOUR_HAND, in the same language.
PLAYER_ERRORS = {
    400: (_l("Not sent"), NOT_SENT),
    404: (_l("Not found"), NOT_KNOWN),
    405: (_l("Not sent"), NOT_SENT),
    409: (_l("Judge calls are closed"), _l("Judge calls cannot be made from this page now. %(raise_hand)s")),
    413: (_l("Not sent"), _l("What was sent is too long: nothing was sent. %(raise_hand)s")),
    429: (
        _l("Too many calls"),
        _l("Too many calls were sent from here in a short time: this one was not sent. %(raise_hand)s"),
    ),
    500: (_l("Not sent"), _l("Something went wrong: your call may not have been sent. %(raise_hand)s")),
}


def player_error(code: int):
    """A player's error page: their own small page (call.css, no script, no judges' menu), in the language the phone
    asks for, else the table's event's once its link is checked (g.link_event), else the default: a made-up link says
    nothing of any event, not even its language (i18n.SIGNED_LINK_ENDPOINTS)."""
    title, text = PLAYER_ERRORS.get(code, PLAYER_ERRORS[400])
    text = str(text) % {"raise_hand": RAISE_YOUR_HAND}
    return render_template("calls/error.html", code=code, title=str(title), text=text), code


def error_page(code: int, text: str | None = None, instead: str | None = None, *, title: str | None = None):
    """The error page for `code` with a specific reason (the status's default text when none is given). Under a
    table's call link (/call/…) it is the player's own small page, never the judges' (judgeapp/calls)."""
    from flask import request

    if request.path.startswith("/call/"):
        return player_error(code)
    default_title, default = ERROR_PAGES.get(code, ERROR_PAGES[400])
    return render_template(
        "errors/error.html", code=code, title=title or str(default_title), text=text or str(default), instead=instead
    ), code


def refuse(code: int, why: str, instead: str | None = None, *, title: str | None = None) -> NoReturn:
    """Stop the request with the error page saying why it was refused, never a bare status; nothing is written."""
    from .extensions import db

    db.session.rollback()
    abort(make_response(error_page(code, why, instead, title=title)))


def refuse_form(form) -> NoReturn:
    """A button's form that did not validate (its token sent only in a header, a field missing): say what was wrong."""
    problems = [f"{message}" for messages in form.errors.values() for message in messages]
    if problems:
        refuse(
            400,
            _(
                "This form could not be used (%(problems)s). Reload the page and send it again; nothing was changed.",
                problems=" ".join(problems),
            ),
        )
    refuse(400, _("This form could not be used. Reload the page and send it again; nothing was changed."))


def too_large_text(limit: int | None) -> str:
    """Why a body over the limit was refused, with the limit in words (2 MB for forms, more for the imports)."""
    if not limit:
        return _(
            "What was sent is larger than this page accepts (at most the server's limit). Nothing was saved: go "
            "back and send a smaller file, or shorten the text."
        )
    size = f"{limit / (1024 * 1024):g} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"
    return _(
        "What was sent is larger than this page accepts (at most %(size)s). Nothing was saved: go back and send "
        "a smaller file, or shorten the text.",
        size=size,
    )


def send_kept(kept) -> Response:
    """A file a job made and kept (renders.stored_file: a JobFile, or None when there is none of that kind at that
    event), sent as a download that is read, never made again: 404 when there is none."""
    if kept is None:
        abort(404)
    return send_file(
        io.BytesIO(kept.data), mimetype=kept.mimetype, as_attachment=True, download_name=kept.filename, max_age=0
    )
