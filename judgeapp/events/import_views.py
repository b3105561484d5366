"""The players page and the imports of players and pairings from a tournament file, with their jobs (thin views
over judgeapp/events/player_services.py and judgeapp/events/imports.py)."""

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user

from .. import jobs
from ..errors import FieldError, show_on_form
from ..extensions import csrf, db
from ..lifecycles import JobState
from ..models import Job
from ..permissions import Action, can, event_route, found
from ..texts import gettext as _
from . import imports, player_records, player_services
from .forms import ImportForm, ImportStepForm, PlayerForm
from .views import bp


@bp.route("/events/<int:event_id>/players", methods=["GET", "POST"])
@event_route(Action.VIEW_EVENT, post=Action.EDIT_PLAYERS)
def players(event, roles):
    form = PlayerForm()
    if form.is_submitted() and not can(Action.EDIT_PLAYERS):
        abort(403)
    if form.validate_on_submit():
        try:
            player = player_services.add_player(
                db.session,
                actor=current_user,
                event=event,
                name=form.name.data,
                player_code=form.player_code.data,
                team=form.team.data,
                reading=form.reading.data,
                handle=form.handle.data,
                bushiroad_id=form.bushiroad_id.data,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(f"{player.name} added.", "success")
            return redirect(url_for("events.players", event_id=event.id))
    return _players_page(event, roles, form=form)


def _players_page(event, roles, *, form=None, import_form=None, status=200):
    """The players page (an import's summary is on its job's page): one page of the players, those the search finds
    where one is typed (`q`), `page` from 1."""
    pending = imports.pending_uploads(db.session, event)
    page_text = request.args.get("page", "1")
    listed = player_records.page_of_players(
        db.session,
        event,
        query=request.args.get("q", ""),
        page=int(page_text) if page_text.isascii() and page_text.isdigit() and len(page_text) < 7 else 1,
    )
    return render_template(
        "events/players.html",
        event=event,
        roles=roles,
        form=form or PlayerForm(formdata=None),
        import_form=import_form or ImportForm(formdata=None),
        step_form=ImportStepForm(formdata=None),
        listed=listed,
        adding=request.args.get("add") == "1",
        pending=pending,
        pending_jobs={u.id: jobs.latest(db.session, imports.subject(u)) for u in pending},
        format_names=imports.FORMAT_NAMES,
    ), status


@bp.route("/events/<int:event_id>/players/import", methods=["POST"])
@csrf.exempt  # checked below, once this route's own upload limit is set (a 130,000-row file is 4-5 MB)
@event_route(Action.IMPORT_TOURNAMENT)
def import_players(event, roles):
    """A tournament file (players and pairings): kept, then read and applied by the job worker; the answer is the
    job's page at once, which shows its progress and then what it did."""
    db.session.commit()  # ends the access check's transaction: no write lock while the file is received
    request.max_content_length = current_app.config["JUDGEAPP_IMPORT_MAX_BYTES"]
    csrf.protect()
    import_form = ImportForm()
    if not import_form.validate_on_submit():
        return _players_page(event, roles, import_form=import_form, status=400)
    running = imports.import_running(db.session, event)
    if running is not None:
        import_form.file.errors.append(
            _("A file is already being imported at this event; wait until it is done, then upload this one.")
        )
        return _players_page(event, roles, import_form=import_form, status=409)
    data = import_form.file.data.read()
    upload = imports.receive(
        db.session, actor=current_user, event=event, data=data, filename=import_form.file.data.filename or ""
    )
    job = imports.submit(db.session, actor=current_user, event=event, upload=upload)
    db.session.commit()
    return redirect(url_for("events.job", event_id=event.id, job_id=job.id), 303)


def _mapping_page(event, roles, upload, needs, status=200):
    """Name a spreadsheet's columns: from what its import job found (`needs`), never by reading the file again."""
    return render_template(
        "events/import_mapping.html",
        event=event,
        roles=roles,
        upload=upload,
        problem=needs["problem"],
        headers=needs["headers"],
        sample=needs["sample"],
        guess={int(k): v for k, v in (needs.get("guess") or {}).items()},
        column_roles=imports.COLUMN_ROLES,
        step_form=ImportStepForm(formdata=None),
    ), status


@bp.route("/events/<int:event_id>/imports/<int:upload_id>", methods=["GET", "POST"])
@event_route(Action.IMPORT_TOURNAMENT)
def import_step(event, roles, upload_id):
    """The steps of an uploaded file still pending: map its columns, replace the rounds it changed, or drop it. A
    step that applies the file is a job again; seeing the step never reads the file."""
    upload = imports.pending_upload(db.session, event, upload_id)
    if upload is None:
        abort(404)
    form = ImportStepForm()
    if request.method == "GET" or not form.validate_on_submit():
        if form.is_submitted():
            flash(_("The form had expired; nothing was changed. Try again."), "error")
        if upload.status is imports.ImportState.APPLIED:
            flash(_("This file was already applied."), "info")
            return redirect(url_for("events.players", event_id=event.id))
        if upload.status is not imports.ImportState.PENDING:
            flash(_("This file was already discarded."), "info")
            return redirect(url_for("events.players", event_id=event.id))
        return _pending_page(event, roles, upload)
    if form.discard.data:
        imports.discard(db.session, actor=current_user, event=event, upload=upload)
        db.session.commit()
        flash(_("The rest of the file was not imported; the pairings already there are kept."), "success")
        return redirect(url_for("events.players", event_id=event.id))
    mapping = {}
    for key, role in request.form.items():
        index = key.removeprefix("column-")
        if (
            key.startswith("column-")
            and index.isascii()
            and index.isdigit()
            and len(index) < 4
            and role in (imports.COLUMN_ROLES)
        ):
            mapping[int(index)] = role
    running = imports.import_running(db.session, event)
    if running is not None:  # one file at a time per event: this step waits for it
        flash(
            _("A file is already being imported at this event; wait until it is done, then upload this one."), "error"
        )
        return redirect(url_for("events.job", event_id=event.id, job_id=running.id))
    replace = set(form.replace_rounds.data or ()) if form.replace.data else set()
    job = imports.submit(
        db.session, actor=current_user, event=event, upload=upload, mapping=mapping or None, replace_rounds=replace
    )
    db.session.commit()
    return redirect(url_for("events.job", event_id=event.id, job_id=job.id), 303)


def _pending_page(event, roles, upload):
    """A pending upload seen again: its latest job's page while it runs, the mapping step it stopped at, or the
    rounds that wait to be confirmed (on the players page). The file is never read here."""
    job = jobs.latest(db.session, imports.subject(upload))
    if job is not None and job.state in (JobState.QUEUED, JobState.RUNNING):
        return redirect(url_for("events.job", event_id=event.id, job_id=job.id))
    if job is not None and job.state is JobState.DONE and (job.result or {}).get("needs") == "mapping":
        return _mapping_page(event, roles, upload, job.result)
    if job is not None and job.state is JobState.DONE and (job.result or {}).get("needs") == "confirmation":
        return redirect(url_for("events.job", event_id=event.id, job_id=job.id))
    return redirect(url_for("events.players", event_id=event.id, _anchor="pending-imports"))


# ---- jobs ------------------------------------------------------------------------------------------------------------


def _job_at_event(event, job_id):
    return found(db.session.get(Job, job_id), Action.VIEW_JOB)


@bp.route("/events/<int:event_id>/jobs/<int:job_id>")
@event_route(Action.VIEW_JOB)
def job(event, roles, job_id):
    """A job's progress (a bar and its counts, kept up to date by jobs.js polling the JSON view; without scripts a
    link to look again), then its result: for an import, the import's summary, or the step it waits for."""
    job = _job_at_event(event, job_id)
    upload = None
    result = job.result or {}
    if job.kind == "import":
        upload = imports.pending_upload(db.session, event, job.payload.get("upload_id"))
        waits = upload is not None and upload.status is imports.ImportState.PENDING
        if job.state is JobState.DONE and result.get("needs") == "mapping" and waits:
            return _mapping_page(event, roles, upload, result)
    return render_template(
        "events/job.html",
        event=event,
        roles=roles,
        job=job,
        result=result,
        upload=upload,
        view=jobs.view(job),
        step_form=ImportStepForm(formdata=None),
        format_names=imports.FORMAT_NAMES,
    )


@bp.route("/events/<int:event_id>/jobs/<int:job_id>.json")
@event_route(Action.VIEW_JOB)
def job_status(event, roles, job_id):
    """The job's state and counts for the page's script (polled while it waits or runs)."""
    job = _job_at_event(event, job_id)
    return jobs.view(job)
