"""People's names as judges type and read them: one search key for any way of writing a name or an ID, and the
gojūon sort key of a Japanese list. Pure Python (no Flask, no database).

- `search_key(text)`: what a search compares. The infraction search's `fold` (NFKC: full-width ＡＢＣ１２３ and
  half-width ｶﾀｶﾅ become ABC123 and カタカナ; lower case; katakana as hiragana), then everything but letters, digits
  and the long vowel mark dropped (spaces, hyphens, middle dots): ﾔﾏﾀﾞ, ヤマダ and やまだ are all やまだ;
  ＤＥＭＯ－００１ and demo001 are both demo001. The phone's incident form does the same
  (judgeapp/static/js/names.js); the cases in tests/shared/name_cases.json hold both to one answer.
- `matches(query, *fields)`: whether the query is part of any of the fields, compared by their search keys.
- `sort_key(name, reading)`: the order of a list for a Japanese event. By reading in gojūon order: first by the
  reading with the voiced marks and small kana folded (か, が and ゕ sort together), then by the reading as written
  (か before が), then by the name; players without a reading come after those with one, by name.
"""

from __future__ import annotations

import unicodedata

from .infractions.search import fold

LONG_VOWEL = "ー"
VOICED_MARKS = ("\u3099", "\u309a")  # combining (han)dakuten, as NFD writes が = か + U+3099
SMALL_KANA = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ")


def _folded(text: str | None) -> str:
    """NFKC, lower case, katakana as hiragana, runs of white space as one space."""
    return " ".join(fold(text or "").split())


def search_key(text: str | None) -> str:
    """The text as a search compares it: width, case and kana kind ignored, only letters, digits and ー kept."""
    return "".join(c for c in _folded(text) if c.isalnum() or c == LONG_VOWEL)


def matches(query: str | None, *fields: str | None) -> bool:
    """Whether the query (its search key, non-empty) is part of one of the fields."""
    key = search_key(query)
    return bool(key) and any(key in search_key(f) for f in fields if f)


def equals(query: str | None, *fields: str | None) -> bool:
    """Whether the query is one of the fields, written any way (width, case, kana kind, spaces, hyphens)."""
    key = search_key(query)
    return bool(key) and any(key == search_key(f) for f in fields if f)


def gojuon_key(reading: str | None) -> str:
    """The reading's first level: hiragana without voiced marks and with small kana made full size."""
    decomposed = unicodedata.normalize("NFD", _folded(reading))
    plain = "".join(c for c in decomposed if c not in VOICED_MARKS)
    return unicodedata.normalize("NFC", plain).translate(SMALL_KANA)


def sort_key(name: str | None, reading: str | None) -> tuple[int, str, str, str, str]:
    """Where a person goes in a Japanese list: by reading (gojūon order), those without a reading last, by name."""
    written = _folded(reading)
    if not written:
        return (1, "", "", _folded(name), name or "")
    return (0, gojuon_key(reading), written, _folded(name), name or "")


SEPARATOR = "|"  # between the fields of a stored search text: search_key never keeps it, so no match spans two


def search_text(*fields: str | None) -> str:
    """The fields' search keys in one string, as the players page's search stores and compares them."""
    return SEPARATOR.join(search_key(f) for f in fields if f)


def list_key(name: str | None, reading: str | None) -> str:
    """`sort_key` as one string, so a database orders by it (compared code point by code point: "C" collation)."""
    return "\x01".join(str(part) for part in sort_key(name, reading))
