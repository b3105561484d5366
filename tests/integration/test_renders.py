"""Long renders leave the request (issue 32): the QR call sheet and the post-event report PDF are asked for with a
POST (CSRF), made by a real job worker, stored, and downloaded by a GET of what was stored. A GET, such as a
cross-site link followed by signed-in staff, never renders a PDF."""

import re
import subprocess

import pytest
from sqlalchemy import func, select

from judgeapp.extensions import db
from tests.conftest import PASSWORD, csrf_token, login, post_form

pytestmark = pytest.mark.db


def signed_in(app, people, role):
    client = app.test_client()
    assert login(client, people[role][1], PASSWORD).status_code == 302
    return client


def organizer_of(app, floor):
    client = app.test_client()
    assert login(client, floor["organizer"][1]).status_code == 302
    return client


def jobs_of(app, kind):
    from judgeapp.models import Job

    with app.app_context():
        found = list(db.session.scalars(select(Job).where(Job.kind == kind).order_by(Job.id)))
        for job in found:
            db.session.expunge(job)
        return found


def pdf_words(data: bytes) -> str:
    return subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


def pdf_pages(data: bytes) -> int:
    info = subprocess.run(["pdfinfo", "-"], input=data, capture_output=True, check=True).stdout.decode()
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def ask_for_sheet(client, event_id, first, last, paper="a4"):
    links = f"/events/{event_id}/calls/links"
    return post_form(
        client,
        f"{links}/sheet",
        {"first": str(first), "last": str(last), "paper": paper, "action": "sheet"},
        form_page=links,
    )


def ask_for_report_pdf(client, event_id, paper="a4"):
    page = f"/events/{event_id}/report"
    return post_form(client, f"{page}/pdf", {"paper": paper}, form_page=page)


# ---- the QR sheet ----------------------------------------------------------------------------------------------------


def test_a_get_of_the_qr_sheet_with_format_pdf_renders_no_pdf_and_starts_no_job(app, floor):
    """What a cross-site link can make a signed-in organizer's browser send: it gets the links page, nothing more."""
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    answer = organizer.get(f"/events/{floor['event_id']}/calls/links?first=1&last=500&paper=a4&format=pdf")
    assert answer.mimetype == "text/html"
    assert not answer.data.startswith(b"%PDF")
    assert jobs_of(app, renders.QR_SHEET) == []


def test_the_qr_sheet_is_started_by_a_post_and_a_real_worker_makes_it_with_one_card_per_table(app, floor, job_worker):
    from judgeapp import renders
    from judgeapp.lifecycles import JobState

    organizer = organizer_of(app, floor)
    event_id = floor["event_id"]
    started = ask_for_sheet(organizer, event_id, 3, 13, "letter")
    assert started.status_code == 303
    (job,) = jobs_of(app, renders.QR_SHEET)
    assert job.payload == {"first": 3, "last": 13, "paper": "letter"} and job.event_id == event_id

    job = job_worker.wait(job.id)
    assert job.state is JobState.DONE, job.error
    assert job.done == job.total == 3 and job.counts == {"pages_rendered": 3}  # 11 cards, four to a page

    page = organizer.get(f"/events/{event_id}/calls/links?first=3&last=13&paper=letter").get_data(as_text=True)
    download = re.search(r'id="qr-sheet-download" href="([^"]+)"', page)
    assert download, page
    pdf = organizer.get(download.group(1))
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert f"call-links-{event_id}-tables-3-13.pdf" in pdf.headers["Content-Disposition"]
    words = pdf_words(pdf.data)
    assert [int(n) for n in re.findall(r"Table (\d+)", words)] == list(range(3, 14))  # one card per table, in order
    assert pdf_pages(pdf.data) == 3
    info = subprocess.run(["pdfinfo", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
    assert "612 x 792 pts (letter)" in info


def test_the_qr_sheet_cannot_be_started_without_the_forms_csrf_token(app, floor):
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    refused = organizer.post(
        f"/events/{floor['event_id']}/calls/links/sheet", data={"first": "1", "last": "8", "paper": "a4"}
    )
    assert refused.status_code == 400
    assert jobs_of(app, renders.QR_SHEET) == []


def test_a_qr_sheet_out_of_order_or_too_large_is_refused_at_its_field_and_starts_no_job(app, floor):
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    backwards = ask_for_sheet(organizer, floor["event_id"], 9, 3)
    assert backwards.status_code == 400 and "The last table comes after the first" in backwards.get_data(as_text=True)
    too_many = ask_for_sheet(organizer, floor["event_id"], 1, 600)
    assert too_many.status_code == 400 and "At most 500 tables on one sheet" in too_many.get_data(as_text=True)
    assert re.search(r'name="last"[^>]*value="600"', too_many.get_data(as_text=True))  # the input is kept
    assert jobs_of(app, renders.QR_SHEET) == []


def test_show_these_links_posts_the_range_and_lands_on_the_page_of_those_links_without_a_job(app, floor):
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    links = f"/events/{floor['event_id']}/calls/links"
    shown = post_form(organizer, f"{links}/sheet", {"first": "2", "last": "4", "action": "show"}, form_page=links)
    assert shown.status_code == 303 and "first=2" in shown.location and "last=4" in shown.location
    page = organizer.get(shown.location).get_data(as_text=True)
    assert page.count('class="link url-text"') == 3
    assert jobs_of(app, renders.QR_SHEET) == []


# ---- the post-event report PDF ---------------------------------------------------------------------------------------


def test_a_get_of_the_post_event_report_pdf_renders_no_pdf_and_starts_no_job(app, floor):
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    for paper in ("a4", "letter"):
        answer = organizer.get(f"/events/{floor['event_id']}/report.pdf?paper={paper}")
        assert not answer.data.startswith(b"%PDF") and answer.mimetype != "application/pdf"
    assert jobs_of(app, renders.EVENT_REPORT) == []


def test_the_post_event_report_pdf_is_started_by_a_post_and_made_by_a_real_worker(app, floor, job_worker):
    from judgeapp import renders
    from judgeapp.lifecycles import JobState

    head = signed_in(app, floor["people"], "head_judge")
    event_id = floor["event_id"]
    assert ask_for_report_pdf(head, event_id, "letter").status_code == 303
    (job,) = jobs_of(app, renders.EVENT_REPORT)
    job = job_worker.wait(job.id)
    assert job.state is JobState.DONE, job.error
    page = head.get(f"/events/{event_id}/report").get_data(as_text=True)
    download = re.search(r'id="report-pdf-download" href="([^"]+)"', page)
    assert download, page
    pdf = head.get(download.group(1))
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    words = " ".join(pdf_words(pdf.data).split())
    assert "Regional Qualifier" in words and "Post-event report" in words
    info = subprocess.run(["pdfinfo", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
    assert "612 x 792 pts (letter)" in info


def test_the_post_event_report_pdf_cannot_be_started_without_the_forms_csrf_token(app, floor):
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    refused = organizer.post(f"/events/{floor['event_id']}/report/pdf", data={"paper": "a4"})
    assert refused.status_code == 400
    assert jobs_of(app, renders.EVENT_REPORT) == []


# ---- who may ---------------------------------------------------------------------------------------------------------


def test_a_floor_judge_can_neither_start_nor_fetch_the_qr_sheet_or_the_report_pdf(app, floor, job_worker):
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    event_id = floor["event_id"]
    ask_for_sheet(organizer, event_id, 1, 4)
    ask_for_report_pdf(organizer, event_id)
    sheet = job_worker.wait(jobs_of(app, renders.QR_SHEET)[0].id)
    report = job_worker.wait(jobs_of(app, renders.EVENT_REPORT)[0].id)
    downloads = (
        f"/events/{event_id}/calls/links/sheet/{sheet.id}.pdf",
        f"/events/{event_id}/report/pdf/{report.id}",
    )
    assert all(organizer.get(url).mimetype == "application/pdf" for url in downloads)  # they are there

    floor_judge = signed_in(app, floor["people"], "floor_judge")
    token = csrf_token(floor_judge, "/")  # a valid token of the floor judge's own session
    for url in downloads:
        assert floor_judge.get(url).status_code == 403
    for url, fields in (
        (f"/events/{event_id}/calls/links/sheet", {"first": "1", "last": "4", "paper": "a4", "action": "sheet"}),
        (f"/events/{event_id}/report/pdf", {"paper": "a4"}),
    ):
        assert floor_judge.post(url, data={"csrf_token": token, **fields}).status_code == 403
    assert len(jobs_of(app, renders.QR_SHEET)) == 1 and len(jobs_of(app, renders.EVENT_REPORT)) == 1

    outsider = signed_in(app, floor["people"], "outsider")
    assert all(outsider.get(url).status_code in (403, 404) for url in downloads)


def test_a_stored_render_is_offered_only_at_its_own_event_and_only_as_its_own_kind(app, floor, job_worker, make_event):
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    event_id = floor["event_id"]
    ask_for_sheet(organizer, event_id, 1, 2)
    sheet = job_worker.wait(jobs_of(app, renders.QR_SHEET)[0].id)
    other = make_event(floor["organizer"][0], name="Second Cup")
    assert organizer.get(f"/events/{other}/calls/links/sheet/{sheet.id}.pdf").status_code == 404
    assert organizer.get(f"/events/{event_id}/report/pdf/{sheet.id}").status_code == 404


def test_an_event_keeps_the_bytes_of_only_its_newest_file_of_each_kind(app, floor, job_worker):
    """Storage stays bounded however often the sheet is asked for: the older files' bytes are let go, their rows
    (name, size) kept; the older download is gone, the newer one is there."""
    from judgeapp import renders
    from judgeapp.models import JobFile

    organizer = organizer_of(app, floor)
    event_id = floor["event_id"]
    for last in (2, 3, 4):
        ask_for_sheet(organizer, event_id, 1, last)
        job_worker.wait(jobs_of(app, renders.QR_SHEET)[-1].id)
    ask_for_report_pdf(organizer, event_id)
    job_worker.wait(jobs_of(app, renders.EVENT_REPORT)[-1].id)
    sheets = jobs_of(app, renders.QR_SHEET)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(JobFile)) == 4
        kept = db.session.scalar(select(func.count()).select_from(JobFile).where(JobFile.data.is_not(None)))
        assert kept == 2  # the newest sheet and the report
    assert organizer.get(f"/events/{event_id}/calls/links/sheet/{sheets[0].id}.pdf").status_code == 404
    newest = organizer.get(f"/events/{event_id}/calls/links/sheet/{sheets[-1].id}.pdf")
    assert newest.mimetype == "application/pdf" and pdf_pages(newest.data) == 1


def test_a_second_request_while_a_render_is_being_prepared_starts_no_second_job(app, floor):
    """One render of each kind at a time per event: pressing the button again (or a script doing so) while the first
    waits for the worker starts nothing more, and says so."""
    from judgeapp import renders

    organizer = organizer_of(app, floor)
    event_id = floor["event_id"]
    assert ask_for_sheet(organizer, event_id, 1, 500).status_code == 303
    again = ask_for_sheet(organizer, event_id, 1, 500)
    assert again.status_code == 303
    page = organizer.get(again.location).get_data(as_text=True)
    assert "A QR sheet is already being prepared: ask again once it is ready." in page
    assert ask_for_report_pdf(organizer, event_id).status_code == 303
    ask_for_report_pdf(organizer, event_id, "letter")
    assert len(jobs_of(app, renders.QR_SHEET)) == 1 and len(jobs_of(app, renders.EVENT_REPORT)) == 1
