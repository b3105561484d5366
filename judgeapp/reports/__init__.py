"""PDF rendering: plain-data contexts in, bytes out. The only module that imports WeasyPrint.

A report is written in the language in force when it is made: the views make the event's reports under
`flask_babel.force_locale(event.language)`, whoever asks for them (the same words for everyone who reads or signs
them). The templates' `_()` and the context builders' gettext read that language; `written` writes its dates and times.
Outside an application (unit tests, benchmarks) a report is English."""

from __future__ import annotations

import gc
import re
import threading
import unicodedata
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit

from flask_babel import force_locale
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from weasyprint import CSS, HTML
from weasyprint.document import Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from ..i18n import format_local, language
from ..texts import gettext, install_gettext

ASSETS = Path(__file__).resolve().parent / "assets"
TEMPLATES = Path(__file__).resolve().parent / "templates"
PAPERS = {"a4": "A4", "letter": "letter"}
# Report templates have their own environment, independent of Flask; user text is always escaped.
templates = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
    extensions=["jinja2.ext.i18n"],
)
# The same catalogs as the pages (judgeapp/translations), in the language in force (English outside an application);
# Jinja fills in the placeholders itself, escaping the values.
install_gettext(templates)


templates.globals["language"] = language  # the language in force: the event's, see the views (in_language)


@contextmanager
def in_language(lang: str):
    """Make the event's reports (and their CSV files) in the event's language, whatever the language of whoever
    asks: the same words for everyone who reads, signs or files them. Everything translated inside is in `lang`."""
    with force_locale(lang):
        yield


def written(at: datetime, *, seconds: bool = False) -> str:
    """A time already on the venue's clock, as the report's language writes it: 2026-11-23 14:05 in English (the ISO
    form the CSV files also use), 2026年11月23日 14:05 in Japanese (24-hour clock)."""
    return format_local(at, "%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def css_content(text: str, *counters: str) -> Markup:
    """`text` as the CSS content of a page's margin box (its footer, its running head), each `%(name)s` placeholder
    among `counters` becoming that CSS counter: css_content(_("Page %(page)s of %(pages)s"), "page", "pages") gives
    "Page " counter(page) " of " counter(pages). The words come from a translation and may hold values (a report
    number), so each piece is quoted and escaped for CSS: it goes inside a <style> element, where HTML escaping means
    nothing."""
    out = []
    for n, piece in enumerate(re.split(r"%\((" + "|".join(counters or ("-",)) + r")\)s", text)):
        if n % 2:
            out.append(f"counter({piece})")
        elif piece:
            quoted = "".join(ch if ch.isalnum() or ch in " -_.,:#/()" else f"\\{ord(ch):x} " for ch in piece)
            out.append(f'"{quoted}"')
    return Markup(" ".join(out) or '""')


def page_margins(running_head: str) -> dict[str, Markup]:
    """The margin boxes' words, in the report's language: its running head and the page numbers."""
    return {
        "running_head": css_content(running_head),
        "page_numbers": css_content(gettext("Page %(page)s of %(pages)s"), "page", "pages"),
    }


def page_size(paper: str) -> str:
    """The CSS page size of a paper name ("a4" or "letter")."""
    size = PAPERS.get(paper)
    if size is None:
        raise ValueError(f"unknown paper size {paper!r}")
    return size


def slug(text: str) -> str:
    """A readable piece of a download's file name: letters and digits of any script, other runs become "-"."""
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"[^\w]+", "-", text, flags=re.UNICODE).strip("-_")[:60] or "x"


class RefusedURL(ValueError):
    """A report tried to load something from outside the app's own report assets."""


class LockedFetcher(URLFetcher):
    """Serves only files under reports/assets/ and inline data: URLs; refuses the network and every other file."""

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        if parts.scheme == "data":
            return super().fetch(url, headers)
        if parts.scheme == "file" and not parts.netloc:
            path = Path(unquote(parts.path)).resolve()
            if path.is_relative_to(ASSETS) and path.is_file():
                return super().fetch(path.as_uri(), headers)
        raise RefusedURL(f"report rendering does not fetch {url!r}")


@contextmanager
def _no_gc_pauses():
    """Layout makes hundreds of thousands of boxes; the cyclic collector's passes over them cost about a third of a
    long report's layout time (bench/event_report.py), and once layout is over its passes over the laid-out pages
    (kept until the PDF is written) cost as much again. It is off from the first layout to the last byte of the
    PDF; by then reference counting frees most of what it would have found."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_fonts = threading.local()


def font_configuration() -> FontConfiguration:
    """This thread's fontconfig and Pango font map, kept between renders. Left to itself WeasyPrint builds a new one
    for every document, so each report opens its fonts again (the CJK ones are 20 MB files): about a tenth of a
    DQ report's time, paid again by each disqualification report appended to a post-event report
    (bench/dq_report.py). Pango's font maps are not thread-safe, hence one per thread. The reports declare no
    @font-face, so the configuration never changes once made."""
    config = getattr(_fonts, "config", None)
    if config is None:
        config = _fonts.config = FontConfiguration()
    return config


def render(html: str, css: str | None = None) -> Document:
    """Lay out trusted template output without fetching anything from outside the app."""
    fetcher = LockedFetcher(allowed_protocols=("file", "data"), allow_redirects=False, timeout=1)
    fonts = font_configuration()
    document = HTML(string=html, base_url=ASSETS.as_uri() + "/", url_fetcher=fetcher)
    stylesheets = (
        [CSS(string=css, url_fetcher=fetcher, base_url=ASSETS.as_uri() + "/", font_config=fonts)] if css else None
    )
    with _no_gc_pauses():
        return document.render(stylesheets=stylesheets, font_config=fonts)


def html_to_pdf(html: str, css: str | None = None) -> bytes:
    """Render trusted template output to PDF without fetching anything from outside the app."""
    return documents_to_pdf([html], css)


def documents_to_pdf(htmls: list[str], css: str | None = None, progress: Callable[[int], None] | None = None) -> bytes:
    """Each piece of template output laid out as its own document (its own page numbers), one after the other in a
    single PDF. `progress(n)` is told each time the first n documents are laid out."""
    with _no_gc_pauses():
        documents = []
        for html in htmls:
            documents.append(render(html, css))
            if progress is not None:
                progress(len(documents))
        whole = (
            documents[0]
            if len(documents) == 1
            else documents[0].copy([page for document in documents for page in document.pages])
        )
        pdf = whole.write_pdf()
        del documents, whole  # freed while the collector is off: it never walks the pages
    return pdf
