"""Ask for a render as a browser does (the page's POST, with its CSRF token), let the test's real job worker make it
(tests/conftest.py `job_worker`), then download it from the link the page offers: the QR sheet and the post-event
report PDF are never rendered by a GET (judgeapp/renders.py)."""

from __future__ import annotations

import gzip
import re

import brotli
from sqlalchemy import select

from judgeapp.extensions import db
from tests.conftest import CSRF_RE


def page_text(response) -> str:
    """The page as the browser shows it: decompressed when it was sent brotli or gzip (asked with Accept-Encoding)."""
    data = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    return {"br": brotli.decompress, "gzip": gzip.decompress}.get(encoding, bytes)(data).decode()


def post_form(client, url: str, data: dict, *, form_page: str, **kwargs):
    """POST like a browser: the form page first for its CSRF token, every request with the same options."""
    token = CSRF_RE.search(page_text(client.get(form_page, **kwargs)))
    assert token, f"no CSRF token on {form_page}"
    return client.post(url, data={"csrf_token": token.group(1), **data}, **kwargs)


def newest_job(app, kind: str, event_id: int) -> int:
    from judgeapp.models import Job

    with app.app_context():
        job_id = db.session.scalar(
            select(Job.id).where(Job.kind == kind, Job.event_id == event_id).order_by(Job.id.desc()).limit(1)
        )
        db.session.remove()
    assert job_id is not None, f"no {kind} job at event {event_id}"
    return job_id


def made_and_downloaded(client, worker, kind, event_id, page, link_id, **kwargs):
    from judgeapp.lifecycles import JobState

    job = worker.wait(newest_job(worker.app, kind, event_id))
    assert job.state is JobState.DONE, job.error
    shown = page_text(client.get(page, **kwargs))
    link = re.search(rf'id="{link_id}" href="([^"]+)"', shown)
    assert link, f"no download link on {page}"
    return client.get(link.group(1), **kwargs)


def qr_sheet(client, worker, event_id: int, first: int, last: int, paper: str = "a4", **kwargs):
    """The QR sheet of tables `first` to `last` (the download's response). `kwargs`: the test client's request
    options (headers, base_url), for every request."""
    from judgeapp import renders

    links = f"/events/{event_id}/calls/links"
    fields = {"first": str(first), "last": str(last), "paper": paper, "action": "sheet"}
    started = post_form(client, f"{links}/sheet", fields, form_page=links, **kwargs)
    assert started.status_code == 303, page_text(started)[:2000]
    page = f"{links}?first={first}&last={last}&paper={paper}"
    return made_and_downloaded(client, worker, renders.QR_SHEET, event_id, page, "qr-sheet-download", **kwargs)


def report_pdf(client, worker, event_id: int, paper: str = "a4", **kwargs):
    """The post-event report's PDF (the download's response)."""
    from judgeapp import renders

    page = f"/events/{event_id}/report"
    started = post_form(client, f"{page}/pdf", {"paper": paper}, form_page=page, **kwargs)
    assert started.status_code == 303, page_text(started)[:2000]
    return made_and_downloaded(client, worker, renders.EVENT_REPORT, event_id, page, "report-pdf-download", **kwargs)
