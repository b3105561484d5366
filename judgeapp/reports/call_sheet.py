"""The tables' call links as a printable sheet: one card per table (event name, table number in large type, its QR
code and the link written out), four to a page, A4 or US Letter. A plain list in, a PDF out.

The time per table is flat (bench/qr_sheet.py): each page's four cards are their own box (a single flex box wrapping
every card was laid out again for each page, so 500 tables took minutes), and the sheet is laid out in chunks of
`CHUNK_CARDS` cards, each its own document, their pages joined into one PDF: no layout ever holds more than a chunk,
and the job that makes the sheet can say how many pages are done."""

from __future__ import annotations

from collections.abc import Callable

import segno

from . import documents_to_pdf, in_language, page_size, templates

CARDS_PER_PAGE = 4
CHUNK_CARDS = 10 * CARDS_PER_PAGE  # ten pages per document


def qr_data_uri(url: str) -> str:
    """The QR code of `url` as an inline SVG data: URL (medium error correction: it still scans when a corner is worn
    or a drink stands on it)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2, dark="#000", light="#fff"))


def call_sheet_html(event_name: str, tables: list[tuple[int, str]], paper: str = "a4") -> str:
    cards = [{"number": n, "url": url, "qr": qr_data_uri(url)} for n, url in tables]
    return templates.get_template("call_sheet.html").render(event=event_name, cards=cards, page_size=page_size(paper))


def sheet_pages(tables: int) -> int:
    """How many pages the sheet of `tables` tables has."""
    return -(-tables // CARDS_PER_PAGE)


def call_sheet_pdf(
    event_name: str,
    tables: list[tuple[int, str]],
    paper: str = "a4",
    language: str = "en",
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """Render the sheet in `language` (the event's: the players at its tables read it); `paper` is "a4" or
    "letter". `progress(pages_done, pages)` is told after each chunk is laid out."""
    chunks = [tables[i : i + CHUNK_CARDS] for i in range(0, len(tables), CHUNK_CARDS)] or [[]]
    pages = sheet_pages(len(tables))
    with in_language(language):
        htmls = [call_sheet_html(event_name, chunk, paper) for chunk in chunks]

        def laid_out(done: int) -> None:
            if progress is not None:
                progress(min(pages, sum(sheet_pages(len(c)) for c in chunks[:done])), pages)

        return documents_to_pdf(htmls, progress=laid_out)
