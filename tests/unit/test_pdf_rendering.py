"""The PDF renderer: real WeasyPrint output, read back; nothing fetched from outside the app."""

import shutil
import subprocess

import pytest

from judgeapp.reports import html_to_pdf


def pdf_text(pdf: bytes, tmp_path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: run `make test`, which installs poppler-utils")
    path = tmp_path / "out.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_player_names_in_japanese_and_other_scripts_come_out_as_text(tmp_path):
    html = (
        "<link rel=stylesheet href=report.css><h1>Disqualification report</h1><p>佐藤 陽翔 · Chloé Dubois · 김지호</p>"
    )
    text = pdf_text(html_to_pdf(html), tmp_path)
    assert "Disqualification report" in text
    assert "佐藤 陽翔" in text and "Chloé Dubois" in text and "김지호" in text


def test_rendering_fetches_nothing_from_the_network_or_other_files(tmp_path, listening_server):
    base, hits = listening_server
    secret = tmp_path / "secret.css"
    secret.write_text("body { color: red }")
    html = (
        f'<link rel=stylesheet href="{base}/style.css"><img src="{base}/track.png">'
        f'<link rel=stylesheet href="file://{secret}"><p style="background: url({base}/bg.png)">hello</p>'
    )
    pdf = html_to_pdf(html, css=f"@import url({base}/import.css);")
    assert pdf.startswith(b"%PDF") and hits == []


def embedded_fonts(pdf: bytes, tmp_path) -> list[str]:
    path = tmp_path / "fonts.pdf"
    path.write_bytes(pdf)
    lines = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()
    return [line.split()[0].split("+")[-1] for line in lines[2:] if line.strip()]


def test_reports_rendered_one_after_another_each_embed_the_fonts_their_own_text_needs(tmp_path):
    # The font configuration is kept between renders: what one report loaded must not leak into the next.
    japanese = html_to_pdf("<link rel=stylesheet href=report.css><p>佐藤 陽翔</p>")
    latin = html_to_pdf("<link rel=stylesheet href=report.css><p>Chloé Dubois</p>")
    japanese_again = html_to_pdf("<link rel=stylesheet href=report.css><p>鈴木 結衣</p>")
    assert "Noto-Sans-CJK-JP" in embedded_fonts(japanese, tmp_path)
    assert embedded_fonts(latin, tmp_path) == ["Noto-Sans"]
    assert "Noto-Sans-CJK-JP" in embedded_fonts(japanese_again, tmp_path)
    assert "鈴木 結衣" in pdf_text(japanese_again, tmp_path) and "Chloé Dubois" in pdf_text(latin, tmp_path)


@pytest.mark.parametrize("paragraphs", [27, 28, 29, 58])  # lengths that used to push the signatures onto a page alone
def test_the_signature_block_never_stands_alone_on_the_last_page(tmp_path, paragraphs):
    body = "".join(
        f"<p>Paragraph {n} of the report, long enough to fill one printed line.</p>" for n in range(paragraphs)
    )
    signatures = (
        '<section class="signatures"><h2>Signatures</h2><table><tr><td class="sign">Head judge</td></tr></table>'
    )
    path = tmp_path / "signed.pdf"
    path.write_bytes(html_to_pdf(f"<link rel=stylesheet href=report.css><h1>Report</h1>{body}{signatures}</section>"))
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    last = next(line.split()[1] for line in info.splitlines() if line.startswith("Pages:"))
    page = subprocess.run(["pdftotext", "-f", last, "-l", last, str(path), "-"], capture_output=True, text=True).stdout
    assert "Signatures" in page and "Paragraph" in page  # the report's last lines go with it


def test_a_reports_page_numbers_and_running_head_come_from_the_translation_as_css_that_cannot_leave_its_style():
    from judgeapp.reports import css_content

    assert css_content("Page %(page)s of %(pages)s", "page", "pages") == '"Page " counter(page) " of " counter(pages)'
    assert css_content("%(page)s / %(pages)s ページ", "page", "pages") == 'counter(page) " / " counter(pages) " ページ"'
    hostile = str(css_content('Report </style><script>"x\\'))
    assert "<" not in hostile and hostile.count('"') == 2  # one quoted string: the quote and the backslash escaped


def test_a_venue_time_in_a_japanese_report_is_written_with_the_japanese_date_and_a_24_hour_clock():
    from datetime import datetime

    from flask import Flask
    from flask_babel import Babel, force_locale

    from judgeapp.reports import written

    app = Flask(__name__)
    Babel(app)
    at = datetime(2026, 11, 23, 14, 5, 9)
    assert written(at) == "2026-11-23 14:05"  # outside an application: English
    with app.app_context(), force_locale("ja"):
        assert written(at) == "2026年11月23日 14:05" and written(at, seconds=True) == "2026年11月23日 14:05:09"
    with app.app_context(), force_locale("en"):
        assert written(at) == "2026-11-23 14:05"
