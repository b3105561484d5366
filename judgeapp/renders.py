"""Long renders as jobs: the QR call sheet and the post-event report PDF (its disqualification reports appended) are
made by the job worker (judgeapp/jobs.py), never in a request. A POST (with its CSRF token) starts the job; the page
that asked shows it being prepared (pages rendered of the pages to render) and then offers the finished file, whose
download is a GET of what is stored. A cross-site link therefore cannot make the server render anything, and a
300-table sheet no longer races the server's request timeout.

Where the finished file is kept: a `JobFile` row of its own, one per job (the PDF's bytes, its name and size), not
the job's `result`. The result is a small JSON summary, cut by `jobs.bounded` (strings at 2,000 characters) and read
with every job listing; a PDF is up to a few megabytes and is read only when downloaded. The database (not a file
under instance/) because the worker and the web servers share it, also when several servers share one queue. It
stays bounded: a file is refused over `MAX_FILE_BYTES`, and when a newer file of the same kind for the same event is
stored, the bytes of the older ones are let go (the rows stay, with their size and a `released_at`): an event keeps
one stored file per kind of render, however often it is asked for.

A single disqualification report stays a synchronous GET (investigations.views.report): it grows linearly with its
statements (20 statements of the longest allowed, 20,000 characters each: about 5 s of CPU) and only the event's
head judge and organizer can reach it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from . import jobs
from .lifecycles import JobState
from .localtime import to_local
from .models import Division, Event, Job, JobFile, User, utcnow
from .reports import in_language
from .texts import gettext as _

QR_SHEET = "render.qr_sheet"
EVENT_REPORT = "render.event_report"
MAX_FILE_BYTES = 64 * 1024 * 1024  # far above any sheet or report judgeapp makes (500 tables: about 0.5 MB)
PDF = "application/pdf"


@dataclass(frozen=True)
class Render:
    """A render job as its page shows it: the job (state, progress, error) and, once done, its file's name."""

    job: Job
    filename: str | None

    @property
    def preparing(self) -> bool:
        return self.job.state in (JobState.QUEUED, JobState.RUNNING)

    @property
    def done(self) -> bool:
        return self.job.state is JobState.DONE and self.filename is not None

    @property
    def failed(self) -> bool:
        return self.job.state is JobState.FAILED


def _tz_name() -> str:
    return current_app.config.get("JUDGEAPP_TIMEZONE") or "UTC"


# ---- starting, finding, downloading ---------------------------------------------------------------------------------


def start(
    session: Session, kind: str, *, actor: User, event: Event, payload: dict[str, Any], subject: str
) -> Job | None:
    """A render job, queued once the request's transaction commits; None (nothing started) while a render of the
    same kind at the event is still waiting or running: one at a time per event, however often the button is
    pressed."""
    if jobs.running_for(session, event.id, kind) is not None:
        return None
    return jobs.submit(session, kind, actor=actor, event=event, payload=payload, subject=subject)


def latest(session: Session, event: Event, subject: str) -> Render | None:
    """The newest render about `subject` at `event` ("qr-sheet:12", "event-report:12"), with its file's name."""
    job = session.scalar(
        select(Job).where(Job.event_id == event.id, Job.subject == subject).order_by(Job.id.desc()).limit(1)
    )
    if job is None:
        return None
    name = session.scalar(select(JobFile.filename).where(JobFile.job_id == job.id, JobFile.data.is_not(None)))
    return Render(job, name)


def stored_file(session: Session, event: Event, kind: str, job_id: int) -> JobFile | None:
    """The stored file of job `job_id`, when it is a render of `kind` at `event` whose bytes are still kept."""
    return session.scalar(
        select(JobFile)
        .join(Job, Job.id == JobFile.job_id)
        .where(
            JobFile.job_id == job_id,
            Job.event_id == event.id,
            Job.kind == kind,
            Job.state == JobState.DONE,
            JobFile.data.is_not(None),
        )
    )


def keep_file(session: Session, job: Job, filename: str, data: bytes, mimetype: str = PDF) -> JobFile:
    """Store a render's file; the older files of the same kind at the same event let their bytes go."""
    if len(data) > MAX_FILE_BYTES:
        raise jobs.JobError(
            _("The file would be larger than %(mb)s MB: print fewer pages at a time.", mb=MAX_FILE_BYTES // 2**20)
        )
    older = select(Job.id).where(Job.event_id == job.event_id, Job.kind == job.kind, Job.id != job.id)
    session.execute(
        update(JobFile)
        .where(JobFile.job_id.in_(older), JobFile.data.is_not(None))
        .values(data=None, released_at=utcnow())
    )
    kept = JobFile(job_id=job.id, filename=filename, mimetype=mimetype, size=len(data), data=data)
    session.add(kept)
    session.flush()
    return kept


# ---- the tasks (run by the worker, in an application context, in the event's language) ------------------------------


def _pages_progress(progress: jobs.Progress) -> Callable[[int, int], None]:
    return lambda done, total: progress.update(done, total, pages_rendered=done)


def _session_and_event(job: Job) -> tuple[Session, Event]:
    from .extensions import db

    session: Session = db.session()
    event = session.get(Event, job.event_id) if job.event_id is not None else None
    if event is None:
        raise jobs.JobError(_("This event no longer exists."))
    return session, event


@jobs.task(QR_SHEET, counting="pages_rendered")
def render_qr_sheet(job: Job, progress: jobs.Progress) -> dict[str, Any]:
    from .calls.services import table_links
    from .reports.call_sheet import call_sheet_pdf, sheet_pages

    session, event = _session_and_event(job)
    first, last, paper = int(job.payload["first"]), int(job.payload["last"]), str(job.payload["paper"])
    pages = sheet_pages(last - first + 1)
    progress.update(0, pages, pages_rendered=0)
    division_id = job.payload.get("division")
    links = table_links(session, event, job.actor, first, last, division_id)
    division = session.get(Division, division_id) if division_id is not None else None
    title = f"{event.name} · {division.name}" if division is not None and division.name else event.name
    pdf = call_sheet_pdf(title, links, paper, language=event.language, progress=_pages_progress(progress))
    name = f"call-links-{event.id}-tables-{first}-{last}.pdf"
    keep_file(session, job, name, pdf)
    session.commit()
    return {"filename": name, "tables": last - first + 1, "pages": pages, "bytes": len(pdf)}


@jobs.task(EVENT_REPORT, counting="batches")
def render_event_report(job: Job, progress: jobs.Progress) -> dict[str, Any]:
    from .extensions import event_policy
    from .investigations import services as investigations
    from .postevent import services
    from .reports import slug
    from .reports.dq import dq_report_html
    from .reports.event import event_report_pdf

    session, event = _session_and_event(job)
    paper = str(job.payload["paper"])
    policy = event_policy(event)
    with in_language(event.language):  # the event's report, in the event's language whoever asked for it
        data = services.report_of(session, policy, event, local=to_local, tz_name=_tz_name())
        appendices = [
            dq_report_html(
                investigations.report_of(session, policy, event, inv, local=to_local, tz_name=_tz_name()), paper
            )
            for inv in services.dq_investigations(session, event, data)
        ]
        total = 1 + len(appendices)  # documents: the report, then each DQ report
        progress.update(0, total, batches=0)
        pdf = event_report_pdf(
            data, paper, appendices, progress=lambda done: progress.update(done, total, batches=done)
        )
    name = f"event-report_{slug(event.name)}_{event.date.isoformat()}.pdf"
    keep_file(session, job, name, pdf)
    session.commit()
    return {"filename": name, "bytes": len(pdf)}
