"""Reports in the event's language: a Japanese event's disqualification report, post-event report (page and PDF),
call sheet and CSV files are in Japanese for whoever makes them, with Japanese dates, the player's reading and a
Japanese font embedded; an English event's stay English for a judge who reads Japanese. The PDFs are real WeasyPrint
output read back with pdftotext and pdffonts; pages of them are kept as PNG in tests/artifacts/ to be looked at."""

from __future__ import annotations

import csv
import io
import re
import subprocess
from pathlib import Path

import pytest

from judgeapp.extensions import db
from judgeapp.models import Event, Player, User
from tests.integration.test_incidents import log, text
from tests.integration.test_investigations import WRITE_UP, base, dq, pdf_text, post  # noqa: F401  (fixture)
from tests.integration.test_postevent import finish_rounds
from tests.renders import qr_sheet, report_pdf

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
SENTENCES = [
    "シャッフルの際、プレイヤーが山札の上から数枚のカードを見て並べ替えているのを対戦相手が目撃し、ジャッジを呼んだ。",
    "フロアジャッジが事情を聞いたところ、本人は「ただシャッフルしていただけ」と答えたが、隣の卓の観戦者も同じ動きを見ていた。",
    "山札を確認すると、クライマックスカードが上から三枚目までにまとめて置かれていた。",
    "ヘッドジャッジに報告し、プレイヤーIDとデッキリストを控えたうえで、対戦はいったん止めてもらった。",
]
DESCRIPTION = "".join(SENTENCES * 3)[:299] + "。"  # 300 characters, written as a floor judge would


@pytest.fixture
def japanese(app, floor):
    """The floor fixture's event held in Japanese: its name, its language, and the player to be disqualified, 佐藤 陽翔
    (さとう はると, P-003), with a 300-character Japanese description of what happened."""
    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        event.name, event.language = "ヴァイスシュヴァルツ 地区予選", "ja"
        player = db.session.get(Player, floor["players"]["P-003"])
        player.name, player.reading = "佐藤 陽翔", "さとう はると"
        db.session.commit()
    return floor


def disqualified(app, world, description=DESCRIPTION):
    """The floor judge recommends disqualifying P-003 at table 2 (as in the `dq` fixture); the head judge finalizes."""
    from judgeapp.events.pairing_services import import_pairings
    from tests.integration.test_incidents import signed_in

    with app.app_context():
        event = db.session.get(Event, world["event_id"])
        import_pairings(db.session, actor=event.organizer, event=event, round_number=1, text="2,P-003,P-001\n")
        db.session.commit()
    judge = signed_in(app, world["people"]["floor_judge"][1])
    head = signed_in(app, world["people"]["head_judge"][1])
    response = log(
        judge, world["event_id"], player="P-003", table=2, infraction="4.1", penalty="disqualification",
        description=description,
    )  # fmt: skip
    assert response.status_code == 302
    assert (
        post(
            head, f"{base(world)}/investigations/1/write-up", finalize="y", without_statement="y", **WRITE_UP
        ).status_code
        == 302
    )
    return {**world, "judge": judge, "head": head}


def set_locale(app, user_id, locale):
    with app.app_context():
        db.session.get(User, user_id).locale = locale
        db.session.commit()


def fonts(pdf: bytes) -> list[str]:
    lines = subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, check=True).stdout.decode().splitlines()
    return [line.split()[0].split("+")[-1] for line in lines[2:] if line.strip()]


def keep_pages(pdf: bytes, name: str, pages: int = 1) -> list[Path]:
    """The first pages as PNG in tests/artifacts/ (150 dpi), to look at: glyphs, no tofu boxes, line breaks."""
    ARTIFACTS.mkdir(exist_ok=True)
    for old in ARTIFACTS.glob(f"{name}-*.png"):
        old.unlink()
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", str(pages), "-", str(ARTIFACTS / name)],
        input=pdf,
        check=True,
    )
    return sorted(ARTIFACTS.glob(f"{name}-*.png"))


JAPANESE_DAY_AND_TIME = re.compile(r"\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}")  # CLDR ja: H:mm


def test_a_japanese_events_dq_report_is_in_japanese_with_japanese_dates_the_players_reading_and_a_cjk_font(
    app, japanese, tmp_path
):
    world = disqualified(app, japanese)
    response = world["head"].get(f"{base(world)}/investigations/1/report.pdf")
    assert response.status_code == 200
    words = pdf_text(response.data, tmp_path)
    for heading in (
        "失格報告書",
        "大会",
        "プレイヤーとマッチ",
        "違反と罰則",
        "経緯",
        "ヘッドジャッジの所見",
        "判断",
        "署名",
    ):
        assert heading in words, heading
    assert "Disqualification report" not in words and "Player and match" not in words
    assert "2026年11月28日" in words  # the event's date
    assert JAPANESE_DAY_AND_TIME.search(words)  # generated, finalized, the timeline
    assert "佐藤 陽翔（さとう はると）" in words
    assert "ヴァイスシュヴァルツ 地区予選" in words and re.search(r"^報告書 DQ-\d+-1$", words, re.M)  # running head
    assert re.search(r"1 / \d ページ", words)  # the page numbers
    assert "Noto-Sans-CJK-JP" in fonts(response.data)
    assert keep_pages(response.data, "dq-report-ja", pages=2)


def test_a_300_character_japanese_description_wraps_inside_the_page_without_losing_a_character(app, japanese, tmp_path):
    world = disqualified(app, japanese)
    pdf = world["head"].get(f"{base(world)}/investigations/1/report.pdf").data
    words = pdf_text(pdf, tmp_path)  # pdftotext -layout: what is cut at the page's edge is not in it
    flat = re.sub(r"\s+", "", words)
    assert len(DESCRIPTION) == 300 and re.sub(r"\s+", "", DESCRIPTION) in flat
    start = words.index(SENTENCES[0][:12])
    lines = [line.strip() for line in words[start : start + 1200].splitlines() if line.strip()]
    assert len(lines) >= 4  # it wrapped
    # Japanese line breaking: no line of it starts with a closing mark or a small kana
    assert not [line for line in lines[:6] if line[0] in "、。」）ゃゅょっャュョッ"]


def test_a_japanese_events_post_event_report_pdf_is_in_japanese_with_its_dq_report_appended(
    app, japanese, tmp_path, job_worker
):
    world = disqualified(app, japanese)
    finish_rounds(app, world["event_id"])
    set_locale(app, world["people"]["head_judge"][0], "en")  # the report is the event's, not the asker's
    response = report_pdf(world["head"], job_worker, world["event_id"])
    assert response.status_code == 200
    words = pdf_text(response.data, tmp_path)
    assert "大会報告書：ヴァイスシュヴァルツ 地区予選" in words
    for heading in (
        "違反別・罰則別の件数",
        "アピール（0）",
        "デッキチェック（0）",
        "時間延長（0）",
        "ジャッジコール（0）",
    ):
        assert heading in words, heading
    assert "2026年11月28日" in words and JAPANESE_DAY_AND_TIME.search(words)
    assert "下書き：大会は終了していません" in words
    assert "失格報告書" in words and "佐藤 陽翔（さとう はると）" in words  # the appended DQ report, in Japanese too
    assert "Post-event report" not in words and "Penalties by infraction and rank" not in words
    assert "Noto-Sans-CJK-JP" in fonts(response.data)
    assert keep_pages(response.data, "event-report-ja", pages=2)


def test_the_report_page_of_a_japanese_event_is_in_japanese_even_for_a_judge_who_chose_english(app, japanese):
    world = disqualified(app, japanese)
    set_locale(app, world["people"]["head_judge"][0], "en")
    page = text(world["head"].get(f"{base(world)}/report"))
    assert "<h1>大会報告書</h1>" in page and "有効な罰則：違反記録1件中1件。" in page
    assert '<html lang="ja"' in page


def test_an_english_events_reports_stay_english_for_a_judge_who_reads_japanese(app, dq, tmp_path, job_worker):
    set_locale(app, dq["people"]["head_judge"][0], "ja")
    assert (
        post(
            dq["head"], f"{base(dq)}/investigations/1/write-up", finalize="y", without_statement="y", **WRITE_UP
        ).status_code
        == 302
    )
    report = pdf_text(dq["head"].get(f"{base(dq)}/investigations/1/report.pdf").data, tmp_path)
    assert "Disqualification report" in report and "Player and match" in report and "2026-11-28" in report
    assert "失格報告書" not in report and "年" not in report
    whole = pdf_text(report_pdf(dq["head"], job_worker, dq["event_id"]).data, tmp_path)
    assert "Post-event report: Regional Qualifier" in whole and "Page 1 of" in whole and "大会報告書" not in whole
    page = text(dq["head"].get(f"{base(dq)}/report"))
    assert "<h1>Post-event report</h1>" in page and "大会報告書" not in page
    header = dq["head"].get(f"{base(dq)}/export/incidents.csv").data.decode("utf-8-sig").splitlines()[0]
    assert header.startswith("event,incident,round,table,player,player_id,")


def rows_of(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))


def test_a_japanese_events_csv_files_have_japanese_headers_and_words_for_any_downloader_and_stay_inert(app, japanese):
    world = disqualified(app, japanese, description='=HYPERLINK("http://evil.example","見る")')
    set_locale(app, world["people"]["head_judge"][0], "en")  # the file is the event's, not the reader's
    [header, row] = rows_of(world["head"].get(f"{base(world)}/export/incidents.csv"))
    assert header[:6] == ["大会", "違反記録", "ラウンド", "卓", "プレイヤー", "プレイヤーID"]
    assert "違反コード" in header and "説明" in header
    fields = dict(zip(header, row, strict=True))
    assert fields["プレイヤー"] == "佐藤 陽翔" and fields["状態"] == "有効" and fields["無効"] == "いいえ"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", fields["時刻"])  # times stay ISO: spreadsheets sort them
    assert fields["説明"].startswith("'=")  # a formula stays text in a spreadsheet, in Japanese files too
    [header, row] = rows_of(world["head"].get(f"{base(world)}/export/player-penalties.csv"))
    assert header[:3] == ["プレイヤーID", "プレイヤー", "読み（フリガナ）"] and row[2] == "さとう はると"


def test_the_call_sheet_of_a_japanese_event_is_in_japanese(app, japanese, job_worker):
    from tests.integration.test_incidents import signed_in

    organizer = signed_in(app, japanese["organizer"][1])
    pdf = qr_sheet(organizer, job_worker, japanese["event_id"], 7, 8)
    assert pdf.status_code == 200
    words = subprocess.run(["pdftotext", "-", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
    assert "7番卓" in words and "8番卓" in words
    assert "ジャッジが必要ですか？\nこのコードを読み取ってください。" in words  # one sentence a line
    assert "Table 7" not in words and "Noto-Sans-CJK-JP" in fonts(pdf.data)
    assert keep_pages(pdf.data, "call-sheet-ja")
