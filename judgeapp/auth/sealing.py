"""Sealing for a secret that must wait one redirect in the browser's session cookie.

Flask's session cookie is signed, not encrypted: anyone holding it can read it (base64). A one-time statement link,
shown on the page after the POST that made it, therefore travels sealed with Fernet (AES-128-CBC + HMAC-SHA256) under
a key derived from SECRET_KEY, and only for a few minutes."""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

MAX_AGE_SECONDS = 600


def _fernet() -> Fernet:
    secret = current_app.secret_key
    if secret is None:
        raise RuntimeError("SECRET_KEY is not set: nothing to seal with")
    secret = secret.encode() if isinstance(secret, str) else secret
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"judgeapp sealed session value").derive(secret)
    return Fernet(base64.urlsafe_b64encode(key))


def seal(value: str) -> str:
    """`value` encrypted and authenticated, for the session cookie."""
    return _fernet().encrypt(value.encode()).decode()


def unseal(sealed: str | None, max_age: int = MAX_AGE_SECONDS) -> str | None:
    """The sealed value, or None when it was tampered with, sealed under another key or is older than max_age."""
    if not sealed:
        return None
    try:
        return _fernet().decrypt(sealed.encode(), ttl=max_age).decode()
    except InvalidToken:
        return None
