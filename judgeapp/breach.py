"""Compressed pages that give no secret away (BREACH).

Over HTTPS an attacker who can put text in a page (a search, a form sent back with its input) and can watch the
sizes of the compressed answers learns a secret the page repeats in every answer, a few characters at a time. Two
defences, as Django and Rails have them:

- the CSRF token is masked afresh each time it is written: a random pad as long as the token, then the token XOR
  that pad, both in URL-safe base64. No byte of it repeats from one answer to the next; the server XORs it back
  before Flask-WTF checks it (MaskedCSRFProtect for every POST, MaskedCSRF for a form's own check).
- a page that carries a raw one-time secret (a statement link just made, a link's token in the page's own address,
  the tables' call links) calls secret_on_page(): compress() below sends it as it is. The HTTPS proxy in front
  must not compress anything itself (README, Production): it would undo both.

Everything else that is text (HTML, CSS, JavaScript, JSON, CSV) is compressed by Flask-Compress (config.DEFAULTS).
"""

from __future__ import annotations

import base64
import binascii
import os

from flask import Flask, Response, g
from flask_wtf.csrf import CSRFProtect, generate_csrf, validate_csrf
from wtforms.csrf.core import CSRF

SECRET_FLAG = "judgeapp_secret_on_page"


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def mask(token: str) -> str:
    """`token` under a fresh random pad: pad + (token XOR pad), URL-safe base64 without padding."""
    raw = token.encode("ascii")
    pad = os.urandom(len(raw))
    return base64.urlsafe_b64encode(pad + _xor(pad, raw)).rstrip(b"=").decode("ascii")


def unmask(value: str | None) -> str | None:
    """The token `value` was masked from; an unmasked token (a page kept from before masking: it has dots, which
    base64 has not) as it is; anything else unchanged, for Flask-WTF to refuse."""
    if not value or "." in value:
        return value
    try:
        both = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return value
    half = len(both) // 2
    if not both or len(both) % 2:
        return value
    try:
        return _xor(both[:half], both[half:]).decode("ascii")
    except UnicodeDecodeError:
        return value


def masked_csrf_token() -> str:
    """The session's CSRF token, masked afresh: what every page, form and the phone's /offline/token carry."""
    return mask(generate_csrf())


class MaskedCSRF(CSRF):
    """A form's CSRF field: written masked, unmasked before Flask-WTF's check (for a request CSRFProtect skipped)."""

    def setup_form(self, form):
        self.meta = form.meta
        return super().setup_form(form)

    def generate_csrf_token(self, csrf_token_field):
        return mask(generate_csrf(secret_key=self.meta.csrf_secret, token_key=self.meta.csrf_field_name))

    def validate_csrf_token(self, form, field):
        if g.get("csrf_valid", False):  # already checked by CSRFProtect for this request
            return
        validate_csrf(unmask(field.data), self.meta.csrf_secret, self.meta.csrf_time_limit, self.meta.csrf_field_name)


class MaskedCSRFProtect(CSRFProtect):
    """Flask-WTF's CSRFProtect, reading the masked token (form field or X-CSRFToken header) and writing it masked
    in templates (`csrf_token()`)."""

    def init_app(self, app: Flask) -> None:
        super().init_app(app)
        app.jinja_env.globals["csrf_token"] = masked_csrf_token
        app.context_processor(lambda: {"csrf_token": masked_csrf_token})  # after Flask-WTF's own: this one wins

    def _get_csrf_token(self):
        return unmask(super()._get_csrf_token())


def secret_on_page() -> None:
    """This request's answer carries a raw one-time secret: it is never compressed (see the module's text)."""
    g.setdefault(SECRET_FLAG, True)


def compress(compressor, response: Response) -> Response:
    """Flask-Compress's after_request, except for an answer that carries a raw secret."""
    if g.get(SECRET_FLAG):
        return response
    return compressor.after_request(response)
