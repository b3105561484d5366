"""Issue 32, tournament imports over HTTP: a file of 100,000 rejected rows answers a short page and stores a short
summary (the first rejections and a count), and the catastrophic-backtracking DOCTYPE is answered at once."""

from __future__ import annotations

from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, TournamentImport
from tests.integration.test_imports import counts, import_players, organizer_at, page, rejected_rows  # noqa: F401


def test_a_300_kb_csv_of_100000_rejected_rows_answers_a_short_page_and_stores_200_and_a_count(app, organizer_at):
    """It answered a 10 MB page of 100,000 rejections, all stored in `upload.summary`."""
    client, event_id = organizer_at
    body = "name,code\n" + "a,\n" * 100_000
    response = import_players(client, event_id, body)
    html = page(response)
    assert response.status_code == 200 and len(html) < 200_000
    assert counts(html)["rejected"] == 99_999
    assert len(rejected_rows(html)) == 200
    assert "… and 99799 more entries not imported." in html
    with app.app_context():
        summary = db.session.scalars(select(TournamentImport.summary)).one()
        audit = db.session.scalars(select(AuditEntry.details).where(AuditEntry.action == "import.apply")).one()
    assert len(summary["rejected"]) == 200 and summary["rejected_more"] == 99_799
    assert audit["rejected"] == 99_999


def test_a_doctype_of_40_bracket_groups_is_answered_at_once_not_after_97_seconds(app, organizer_at):
    client, event_id = organizer_at
    response = import_players(client, event_id, b"<!DOCTYPE " + b"[a]" * 40)
    assert response.status_code == 400
    assert "The file is XML or HTML that no reader recognised" in page(response)
