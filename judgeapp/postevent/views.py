"""After the event: close and reopen it, the post-event report (page and PDF), CSV exports, player look-up."""

from __future__ import annotations

from io import BytesIO

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, send_file, url_for
from flask_login import current_user

from .. import renders
from ..errors import FieldError, show_on_form
from ..extensions import db, event_policy, known_event_policy
from ..infractions.calltimes import minutes_seconds
from ..localtime import to_local
from ..permissions import Action, account_route, event_route
from ..reports import in_language, slug
from ..reports.event import bar_chart_svg
from ..texts import gettext as _
from ..web import refuse_form, send_kept
from . import services
from .forms import CloseForm, LookupForm, ReopenForm, ReportPdfForm

bp = Blueprint("postevent", __name__, template_folder="templates")

EXPORTS = {
    "incidents": (
        services.INCIDENT_HEADER,
        lambda policy, event, rec: services.incident_rows(policy, event, rec, to_local),
    ),
    "time-extensions": (
        services.EXTENSION_HEADER,
        lambda policy, event, rec: services.extension_rows(event, rec, to_local),
    ),
    "player-penalties": (
        services.PLAYER_PENALTY_HEADER,
        lambda policy, event, rec: services.player_penalty_rows(policy, event, rec),
    ),
    "deck-checks": (
        services.DECK_CHECK_HEADER,
        lambda policy, event, rec: services.deck_check_rows(event, rec, to_local),
    ),
    "judge-calls": (
        services.CALL_HEADER,
        lambda policy, event, rec: services.call_rows(event, rec, to_local),
    ),
}


def _tz_name() -> str:
    return current_app.config.get("JUDGEAPP_TIMEZONE") or "UTC"


def _close_page(event, roles, *, form=None, reopen_form=None, found=None, status=200):
    found = services.blockers(db.session, event, local=to_local) if found is None and event.closed_at is None else found
    return render_template(
        "postevent/close.html",
        event=event,
        roles=roles,
        form=form or CloseForm(),
        reopen_form=reopen_form or ReopenForm(formdata=None),
        blockers=found or [],
        warnings=services.warnings(db.session, event) if event.closed_at is None else [],
        history=services.closing_history(db.session, event),
    ), status


@bp.route("/events/<int:event_id>/close", methods=["GET", "POST"])
@event_route(Action.VIEW_REPORT, post=Action.CLOSE_EVENT)
def close(event, roles):
    form = CloseForm()
    if form.validate_on_submit():
        try:
            closed = services.close_event(db.session, actor=current_user, event=event, local=to_local)
        except services.CannotClose as err:
            db.session.rollback()
            return _close_page(event, roles, form=form, found=err.blockers, status=409)
        db.session.commit()
        flash(
            _("Event closed: its records are now read-only.") if closed else _("The event was already closed."),
            "success",
        )
        return redirect(url_for("postevent.close", event_id=event.id))
    return _close_page(event, roles, form=form)


@bp.route("/events/<int:event_id>/reopen", methods=["POST"])
@event_route(Action.REOPEN_EVENT)
def reopen(event, roles):
    form = ReopenForm()
    if form.validate_on_submit():
        try:
            services.reopen_event(db.session, actor=current_user, event=event, reason=form.reason.data)
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(_("Event reopened; the reason is recorded. Close it again when you are done."), "success")
            return redirect(url_for("postevent.close", event_id=event.id))
    return _close_page(event, roles, reopen_form=form, status=400)


def _report_subject(event) -> str:
    return f"event-report:{event.id}"


@bp.route("/events/<int:event_id>/report")
@event_route(Action.VIEW_REPORT)
def report(event, roles):
    """The report on screen (made here, it is quick) and its PDF being prepared or ready to download."""
    pdf = renders.latest(db.session, event, _report_subject(event))
    with in_language(event.language):  # the report's page too is the event's, whoever reads it
        data = services.report_of(db.session, event_policy(event), event, local=to_local, tz_name=_tz_name())
        return render_template(
            "postevent/report.html",
            event=event,
            roles=roles,
            r=data,
            chart=bar_chart_svg(data),
            mmss=minutes_seconds,
            pdf=pdf,
            pdf_form=ReportPdfForm(formdata=None),
        )


@bp.route("/events/<int:event_id>/report.pdf")
@event_route(Action.VIEW_REPORT)
def report_pdf(event, roles):
    """The old address of the PDF: a GET renders nothing (a cross-site link could make the server work for minutes);
    it leads to the report's page, where the PDF is prepared by a POST."""
    return redirect(url_for("postevent.report", event_id=event.id, _anchor="report-pdf"), code=303)


@bp.route("/events/<int:event_id>/report/pdf", methods=["POST"])
@event_route(Action.VIEW_REPORT)
def prepare_report_pdf(event, roles):
    """Start the report PDF's job (judgeapp/renders.py); the report's page shows it, then offers the file."""
    form = ReportPdfForm()
    if not form.validate():
        refuse_form(form)
    started = renders.start(
        db.session,
        renders.EVENT_REPORT,
        actor=current_user,
        event=event,
        payload={"paper": form.paper.data},
        subject=_report_subject(event),
    )
    db.session.commit()
    if started is None:
        flash(_("The report's PDF is already being prepared: ask again once it is ready."), "error")
    else:
        flash(_("The report's PDF is being prepared: it will be offered for download on this page."), "success")
    return redirect(url_for("postevent.report", event_id=event.id, _anchor="report-pdf"), code=303)


@bp.route("/events/<int:event_id>/report/pdf/<int:pdf_id>")
@event_route(Action.VIEW_REPORT)
def report_pdf_download(event, roles, pdf_id):
    """A finished report PDF (`pdf_id`: the id of the job that made it), as stored: a GET that reads, never
    renders."""
    return send_kept(renders.stored_file(db.session, event, renders.EVENT_REPORT, pdf_id))


@bp.route("/events/<int:event_id>/export/<kind>.csv")
@event_route(Action.VIEW_REPORT)
def export(event, roles, kind):
    if kind not in EXPORTS:
        abort(404)
    header, rows = EXPORTS[kind]
    records = services.records_of(db.session, event)
    with in_language(event.language):  # the event's file: its headers and words in the event's language
        table = rows(event_policy(event), event, records)
        if services.several_divisions(db.session, event):
            header, table = services.with_divisions(kind, header, table, records)
        body = services.to_csv(header, table)
    return send_file(
        BytesIO(body),
        mimetype="text/csv",  # Werkzeug adds the charset (utf-8): naming it here too sent it twice
        as_attachment=True,
        max_age=0,
        download_name=f"{kind}_{slug(event.name)}_{event.date.isoformat()}.csv",
    )


@bp.route("/players/history")
@account_route(Action.SEARCH_PLAYER_HISTORY)
def player_history():
    form = LookupForm(request.args)
    history = None
    if "code" in request.args and form.validate():
        try:
            history = services.player_history(
                db.session, known_event_policy, organizer=current_user, code=form.code.data
            )
        except FieldError as err:
            form.code.errors.append(err.message)
    status = 400 if form.errors else 200
    return render_template("postevent/history.html", form=form, history=history), status
