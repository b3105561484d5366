"""The translation catalogs: `update` extracts every marked string of judgeapp (Python, templates, the phone's
scripts; babel.cfg) and brings each language's messages.po up to date; `compile` makes the .mo files Flask-Babel reads
and, per language, the JSON catalog of the phone's scripts (judgeapp/static/i18n/<lang>.json: the messages used in
judgeapp/static). `make` runs `compile`; after changing strings, run `make i18n` and translate what it added.

Usage: python scripts/i18n.py update|compile|check
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "judgeapp" / "translations"
STATIC_CATALOGS = ROOT / "judgeapp" / "static" / "i18n"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "_l": None,
    "lazy_ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
LANGUAGES = ("en", "ja")


def extract() -> Catalog:
    """Every marked string of judgeapp, with where it is used."""
    with open(ROOT / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project="judgeapp", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(lang: str) -> Path:
    return TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"


def read(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as f:
        return read_po(f, locale=lang)


def update() -> None:
    template = extract()
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            catalog = read(lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, project="judgeapp", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()  # a string no longer used is gone from the file, not kept commented out
        buf = io.BytesIO()
        write_po(buf, catalog, width=120, sort_output=True, include_lineno=False, include_previous=False)
        path.write_bytes(buf.getvalue())
        missing = sum(1 for m in catalog if m.id and not m.string) if lang != "en" else 0
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages" + (f", {missing} not translated" if missing else ""))


def js_messages(catalog: Catalog) -> dict[str, str | list[str]]:
    out: dict[str, str | list[str]] = {}
    for m in catalog:
        if not m.id or not m.string or m.fuzzy:
            continue
        if not any(path.replace("\\", "/").startswith("judgeapp/static/") for path, _ in m.locations):
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        out[key] = list(m.string) if isinstance(m.string, tuple) else m.string
    return out


def compile_all() -> None:
    STATIC_CATALOGS.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        catalog = read(lang)
        with open(po_path(lang).with_suffix(".mo"), "wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        if lang != "en":
            text = json.dumps(js_messages(catalog), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            target = STATIC_CATALOGS / f"{lang}.json"
            if not target.exists() or target.read_text(encoding="utf-8") != text:  # keep its hash when unchanged
                target.write_text(text, encoding="utf-8")


def union(ours: str, theirs: str, out: str) -> None:
    """Both sides' messages (a translation given on either side is kept; ours wins a difference)."""
    with open(ours, "rb") as f:
        a = read_po(f)
    with open(theirs, "rb") as f:
        b = read_po(f)
    for m in b:
        if not m.id:
            continue
        mine = a.get(m.id, m.context)
        if mine is None:
            a[m.id] = m
        elif not mine.string and m.string:
            mine.string = m.string
    buf = io.BytesIO()
    write_po(buf, a, width=120, sort_output=True, include_lineno=False, include_previous=False)
    Path(out).write_bytes(buf.getvalue())


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "update":
        update()
        compile_all()
    elif command == "union":  # git merge of two branches' translations: python scripts/i18n.py union OURS THEIRS OUT
        union(*sys.argv[2:5])
    elif command == "compile":
        compile_all()
    else:
        sys.exit(__doc__)
