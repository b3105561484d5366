"""The tables' call links as a printable sheet: one card per table (event name, table number in large type, its QR
code and the link written out), four to a page, A4 or US Letter. A plain list in, a PDF out."""

from __future__ import annotations

import segno

from . import html_to_pdf, in_language, page_size, templates


def qr_data_uri(url: str) -> str:
    """The QR code of `url` as an inline SVG data: URL (medium error correction: it still scans when a corner is worn
    or a drink stands on it)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2, dark="#000", light="#fff"))


def call_sheet_html(event_name: str, tables: list[tuple[int, str]], paper: str = "a4") -> str:
    cards = [{"number": n, "url": url, "qr": qr_data_uri(url)} for n, url in tables]
    return templates.get_template("call_sheet.html").render(event=event_name, cards=cards, page_size=page_size(paper))


def call_sheet_pdf(event_name: str, tables: list[tuple[int, str]], paper: str = "a4", language: str = "en") -> bytes:
    """Render the sheet in `language` (the event's: the players at its tables read it); `paper` is "a4" or
    "letter"."""
    with in_language(language):
        return html_to_pdf(call_sheet_html(event_name, tables, paper))
