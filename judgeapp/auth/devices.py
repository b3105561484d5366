"""Known devices: a signed cookie, set when an account signs in, that lets its owner past the per-account limits.

The per-account login and reset limits stop a guesser spread over many addresses, but counted alone they let anyone
lock an account's owner out: ten wrong passwords from ten forged X-Forwarded-For addresses (issue 32). A browser in
which the account has signed in before carries this cookie; a login or reset request for that account from it is
counted per device (LOGIN_LIMIT_PER_ACCOUNT_AND_ADDRESS for its wrong passwords, FORGOT_LIMIT_PER_ACCOUNT for its
reset mails) instead of against the account's shared count, so a stranger's failures never block the owner's own
phone. The cookie is signed with SECRET_KEY (itsdangerous), so it cannot be made up or given another account; it
names accounts only by a keyed hash of their address, and holds at most MAX_ACCOUNTS (a shared venue tablet).
The counts live in the limiter's store, so they hold across workers (Redis) like every other limit.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import Response, current_app, request
from itsdangerous import BadSignature, URLSafeSerializer

COOKIE = "judgeapp_device"
MAX_ACCOUNTS = 5
MAX_AGE_DAYS = 365


def _serializer() -> URLSafeSerializer:
    secret = current_app.secret_key
    if secret is None:
        raise RuntimeError("SECRET_KEY is not set: nothing to sign the known-device cookie with")
    return URLSafeSerializer(secret, salt="judgeapp known device")


def _account(email: str) -> str:
    """The account as the cookie names it: a keyed hash of its normalised address (the address itself never)."""
    key = str(current_app.secret_key).encode()
    return hmac.new(key, b"device-account:" + email.encode(), hashlib.sha256).hexdigest()[:32]


def _read() -> dict:
    raw = request.cookies.get(COOKIE)
    if not raw or len(raw) > 2000:
        return {}
    try:
        value = _serializer().loads(raw)
    except BadSignature:
        return {}
    if not isinstance(value, dict) or not isinstance(value.get("d"), str) or not isinstance(value.get("a"), list):
        return {}
    return value


def device_for(email: str) -> str | None:
    """This browser's device id when `email` (normalised) has signed in on it before; else None."""
    value = _read()
    return value["d"] if value and email and _account(email) in value["a"] else None


def remember(response: Response, email: str) -> Response:
    """After a successful sign-in: this browser is a known device of the account (its id is kept if it had one)."""
    value = _read()
    device = value.get("d") or secrets.token_urlsafe(16)
    accounts = [a for a in value.get("a", []) if a != _account(email)]
    accounts = [*accounts, _account(email)][-MAX_ACCOUNTS:]
    response.set_cookie(
        COOKIE,
        _serializer().dumps({"d": device, "a": accounts}),
        max_age=MAX_AGE_DAYS * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure,
        path="/",
    )
    return response
