"""PDF rendering: plain-data contexts in, bytes out. The only module that imports WeasyPrint."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint import CSS, HTML
from weasyprint.urls import URLFetcher

ASSETS = Path(__file__).resolve().parent / "assets"


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


def html_to_pdf(html: str, css: str | None = None) -> bytes:
    """Render trusted template output to PDF without fetching anything from outside the app."""
    fetcher = LockedFetcher(allowed_protocols=("file", "data"), allow_redirects=False, timeout=1)
    document = HTML(string=html, base_url=ASSETS.as_uri() + "/", url_fetcher=fetcher)
    stylesheets = [CSS(string=css, url_fetcher=fetcher, base_url=ASSETS.as_uri() + "/")] if css else None
    return document.write_pdf(stylesheets=stylesheets)
