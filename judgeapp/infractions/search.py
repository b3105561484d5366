"""Find infractions by code or words: in English, or by the name in another language the catalog gives and its
reading in kana (hiragana or katakana, full- or half-width alike: `fold`). judgeapp/static/js/search.js is the same
on the phone (tests/shared/search_cases.json holds for both)."""

from __future__ import annotations

import unicodedata

from .catalog import Infraction, Policy

# ァ..ヶ and the iteration marks ヽ ヾ: each is its hiragana (ぁ..ゖ, ゝ ゞ) + 0x60
_KATAKANA = frozenset([*range(0x30A1, 0x30F7), 0x30FD, 0x30FE])


def fold(text: str) -> str:
    """Text as search compares it: NFKC (full-width letters and digits and half-width katakana become the usual
    ones), lower case, and katakana as hiragana (チコク, ﾁｺｸ and ちこく are one word). Infraction search and people's
    names (judgeapp/names.py) both fold with it."""
    text = unicodedata.normalize("NFKC", text).lower()  # lower(), not casefold(): as the phone's toLowerCase()
    return "".join(chr(ord(c) - 0x60) if ord(c) in _KATAKANA else c for c in text)


def search_text(policy: Policy, inf: Infraction) -> str:
    """Everything a judge might type to find this infraction, folded: its code, name, sub-section, our notes and
    remedy, the other words the source text uses for it (its synonyms), and its names and their readings in the
    other languages the catalog gives (with the sub-section's)."""
    sub = policy.subsection(inf.subsection)
    parts = [inf.code, inf.name, sub.name, inf.notes, inf.remedy, *inf.synonyms]
    return fold(" ".join([*parts, *inf.names.search_words(), *sub.names.search_words()]))


def matches(code: str, text: str, query: str) -> bool:
    """Whether an infraction (its code and folded search text) is found by `query`: the code starts with it, or the
    text holds every word of it. An empty query finds everything."""
    q = fold(query.strip())
    if not q:
        return True
    return code.lower().startswith(q) or all(w in text for w in q.split())


def search(policy: Policy, query: str) -> list[Infraction]:
    """Infractions whose code starts with the query, or whose text holds every word of it."""
    return [inf for inf in policy.infractions if matches(inf.code, search_text(policy, inf), query)]
