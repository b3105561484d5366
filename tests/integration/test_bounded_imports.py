"""Issue 32, tournament imports over HTTP: a file of 100,000 rejected rows answers a short page and stores a short
summary (the first rejections and a count), and the catastrophic-backtracking DOCTYPE is answered at once. The upload
answers with its job (issue 32, imports as jobs): the page read is the job's, once the worker has run it."""

from __future__ import annotations

from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.lifecycles import JobState
from judgeapp.models import AuditEntry, Job, Player, TournamentImport
from tests.conftest import JOB_URL_RE
from tests.integration.test_imports import (  # noqa: F401  (organizer_at: the fixture)
    counts,
    import_players,
    organizer_at,
    page,
    rejected_rows,
    upload,
)


def test_a_300_kb_csv_of_100000_rejected_rows_answers_a_short_page_and_stores_200_and_a_count(
    app, organizer_at, job_worker
):
    """It answered a 10 MB page of 100,000 rejections, all stored in `upload.summary` (now also the job's result)."""
    client, event_id = organizer_at
    body = "name,code\n" + "a,\n" * 100_000
    response = import_players(client, event_id, body, job_worker)
    html = page(response)
    assert response.status_code == 200 and len(html) < 200_000
    assert counts(html)["rejected"] == 99_999
    assert len(rejected_rows(html)) == 200
    assert "And 99799 more not imported." in html  # the merged report's wording (_import_report.html)
    with app.app_context():
        summary = db.session.scalars(select(TournamentImport.summary)).one()
        audit = db.session.scalars(select(AuditEntry.details).where(AuditEntry.action == "import.apply")).one()
        report = db.session.scalars(select(Job.result).where(Job.kind == "import")).one()["report"]
    assert len(summary["rejected"]) == 200 and summary["rejected_more"] == 99_799
    assert audit["rejected"] == 99_999
    assert len(report["rejected"]) == 200 and report["rejected_more"] == 99_799, "the job keeps no more than that"


def test_a_doctype_of_40_bracket_groups_is_answered_at_once_not_after_97_seconds(app, organizer_at, job_worker):
    """The upload answers its job at once; the worker refuses the file with its reason in a moment (the DOCTYPE took
    97 s to read before), and the job's page says why; nothing is imported."""
    client, event_id = organizer_at
    job_worker.start()
    posted = upload(
        client,
        f"/events/{event_id}/players/import",
        b"<!DOCTYPE " + b"[a]" * 40,
        form_page=f"/events/{event_id}/players",
    )
    assert posted.status_code == 303, page(posted)[:2000]
    location = posted.headers["Location"]
    job = job_worker.wait(int(JOB_URL_RE.search(location).group(1)))
    assert job.state == JobState.FAILED
    assert (job.finished_at - job.started_at).total_seconds() < 5, "read at once, not after tens of seconds"
    response = client.get(location)
    html = page(response)
    assert response.status_code == 200 and 'id="job-error"' in html
    assert "The file is XML or HTML that no reader recognised" in html
    with app.app_context():
        assert db.session.scalars(select(Player).where(Player.event_id == event_id)).all() == []
