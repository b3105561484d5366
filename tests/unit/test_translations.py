"""Every string a user sees is in both languages' catalogs, and Japanese has a translation for each.

The catalogs are compared with what scripts/i18n.py extracts from the code right now (Python, templates, the phone's
scripts), so a string added without `make i18n`, or a translation left empty, fails here.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import i18n  # noqa: E402

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


@pytest.fixture(scope="module")
def extracted():
    return i18n.extract()


def ids(catalog) -> set:
    return {m.id if not isinstance(m.id, tuple) else m.id[0] for m in catalog if m.id}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_string_of_the_code_is_in_each_languages_catalog(extracted, lang):
    missing = sorted(ids(extracted) - ids(i18n.read(lang)))
    assert not missing, f"not in {lang}/messages.po (run `make i18n`): {missing[:20]}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_catalog_keeps_a_string_the_code_no_longer_uses(extracted, lang):
    stale = sorted(ids(i18n.read(lang)) - ids(extracted))
    assert not stale, f"in {lang}/messages.po but not in the code (run `make i18n`): {stale[:20]}"


def test_every_string_has_a_japanese_translation(extracted):
    catalog = i18n.read("ja")
    untranslated = sorted(
        str(m.id)
        for m in catalog
        if m.id and (m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string))
    )
    assert not untranslated, f"{len(untranslated)} strings have no Japanese: {untranslated[:20]}"


def test_a_japanese_translation_names_the_same_placeholders_as_the_english():
    wrong = []
    for m in i18n.read("ja"):
        if not m.id or not m.string:
            continue
        source = " ".join(m.id) if isinstance(m.id, tuple) else m.id
        target = " ".join(m.string) if isinstance(m.string, tuple) else m.string
        names = lambda text: {a or b for a, b in PLACEHOLDER.findall(text)}  # noqa: E731
        if names(source) - {"num"} != names(target) - {"num"}:
            wrong.append((source, target))
    assert not wrong, wrong[:10]


def test_the_phone_scripts_catalog_holds_every_string_of_the_scripts(extracted):
    i18n.compile_all()
    shipped = json.loads((i18n.STATIC_CATALOGS / "ja.json").read_text(encoding="utf-8"))
    used = {
        m.id if not isinstance(m.id, tuple) else m.id[0]
        for m in extracted
        if m.id and any(p.startswith("judgeapp/static/") for p, _ in m.locations)
    }
    assert used and used <= set(shipped)
    assert shipped["Go to the call"] == "ジャッジコールへ"
