from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import or_, select
from wtforms.fields.choices import SelectChoice

from .. import jobs
from ..auth import emails as staff_email
from ..choices import catalog_name
from ..errors import FieldError, show_on_form
from ..extensions import csrf, current_catalog, db, event_policy, known_event_policy, limiter
from ..floor import int_or_none
from ..forms import strip_control_characters
from ..imports.model import round_label
from ..lifecycles import JobState
from ..models import Event, EventPolicy, Job, Role, StaffAssignment
from ..permissions import Action, account_route, can, event_route, found
from ..permissions import Role as Authority
from ..web import button, clock
from . import imports, pairing_services, player_records, player_services, round_services, services, staff_services
from .forms import (
    OTHER_ROLES_IN_SENTENCE,
    ROLE_IN_SENTENCE,
    ROLE_NAMES,
    AnswerInvitationForm,
    EndRoundForm,
    EndStaffForm,
    EventForm,
    ImportForm,
    ImportStepForm,
    JoinAsScorekeeperForm,
    PairingsForm,
    PlayerForm,
    PolicyUploadForm,
    RoundDayForm,
    StaffForm,
    StartRoundForm,
)

bp = Blueprint("events", __name__, template_folder="templates")


@bp.app_template_filter("role_name")
def role_name(role: str) -> str:
    """A staff role as a label ("Head judge"), in the page's language."""
    return str(ROLE_NAMES[Role(role)])


@bp.app_template_filter("role_in_sentence")
def role_in_sentence(role: str) -> str:
    """A role as running text names it ("head judge", "organizer"), in the page's language."""
    value = getattr(role, "value", role)
    if value in OTHER_ROLES_IN_SENTENCE:
        return str(OTHER_ROLES_IN_SENTENCE[value])
    try:
        return str(ROLE_IN_SENTENCE[Role(value)])
    except ValueError:
        return value.replace("_", " ")


def _event_form(event=None, **kwargs) -> EventForm:
    """The event's settings form: every shipped policy (and the event's uploaded one), and each policy's own levels,
    grouped by policy (static/js/policy-levels.js shows the chosen policy's group only)."""
    form = EventForm(obj=event, **kwargs)
    policies = list(current_catalog().policies.values())
    if event is not None and event.policy_sha:
        policies.insert(0, event_policy(event))
    form.policy_id.choices = [
        SelectChoice(
            p.id,
            _("%(policy)s (uploaded for this event)", policy=catalog_name(p))
            if event and p is policies[0] and event.policy_sha
            else catalog_name(p),
        )
        for p in policies
    ]
    form.level.choices = [
        SelectChoice(lv.number, catalog_name(lv), optgroup=catalog_name(p), render_kw={"data-policy": p.id})
        for p in policies
        for lv in p.levels
    ]
    return form


def _event_data(form: EventForm) -> services.EventData:
    return services.EventData(**{k: getattr(form, k).data for k in services.EventData.__dataclass_fields__})


@bp.route("/")
@login_required
def index():
    staffed = select(StaffAssignment.event_id).where(
        StaffAssignment.user_id == current_user.id, StaffAssignment.ended_at.is_(None)
    )
    events = db.session.scalars(
        select(Event)
        .where(or_(Event.organizer_id == current_user.id, Event.id.in_(staffed)))
        .order_by(Event.date.desc(), Event.id.desc())
    ).all()
    return render_template(
        "events/index.html",
        events=events,
        invitations=staff_services.open_invitations(db.session, current_user),
        answer_form=AnswerInvitationForm(),
    )


@bp.route("/events/new", methods=["GET", "POST"])
@account_route(Action.CREATE_EVENT)
def create():
    form = _event_form()
    if form.validate_on_submit():
        try:
            event = services.create_event(db.session, current_catalog(), organizer=current_user, data=_event_data(form))
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(_("Event “%(name)s” created. Now add its staff.", name=event.name), "success")
            return redirect(url_for("events.staff", event_id=event.id))
    return render_template(
        "events/form.html", form=form, event=None, policies=list(current_catalog().policies.values())
    )


@dataclass
class RoundPanel:
    """The event page's round controls of one division (None: the event's only one); `phase(n)` names a top-cut
    round ("Top 8, semifinal"), None for a Swiss round."""

    division: Any
    rounds: list
    phase: Callable[[int], str | None]


@bp.route("/events/<int:event_id>")
@event_route(Action.VIEW_EVENT)
def show(event, roles):
    rounds = round_services.rounds_of(db.session, event)
    policy = known_event_policy(event)
    divisions = player_services.divisions_of(db.session, event)
    if len(divisions) > 1:  # each division its own rounds, clock and top cut
        panels = [
            RoundPanel(d, [r for r in rounds if r.division_id == d.id], partial(round_label, d)) for d in divisions
        ]
    else:
        panels = [RoundPanel(None, rounds, partial(round_label, divisions[0]) if divisions else lambda n: None)]
    return render_template(
        "events/show.html",
        event=event,
        roles=roles,
        rounds=rounds,
        round_panels=panels,
        policy=policy,
        staff=staff_services.current_staff(db.session, event),
        start_form=StartRoundForm(),
        end_form=EndRoundForm(),
        day_form=RoundDayForm(),
        days_open_to=partial(round_services.days_open_to, db.session),
        several_days=any(r.day > 1 for r in rounds),
        join_form=JoinAsScorekeeperForm(),
        ends_at=round_services.round_ends_at,
        keeps_open=_what_keeps_it_open(event, roles),
    )


def _what_keeps_it_open(event, roles):
    """For the head judge of an open event: what must be finished before the organizer can close it (the close
    page's own list), so they can end it early once every match is reported. None for everyone else."""
    if Authority.HEAD_JUDGE not in roles or event.closed_at is not None:
        return None
    from ..localtime import to_local
    from ..postevent.services import blockers

    return blockers(db.session, event, local=to_local)


@bp.route("/events/<int:event_id>/settings", methods=["GET", "POST"])
@event_route(Action.EDIT_SETTINGS)
def settings(event, roles):
    form = _event_form(event)
    if form.validate_on_submit():
        try:
            services.update_event(
                db.session,
                current_catalog(),
                actor=current_user,
                event=event,
                data=_event_data(form),
                uploaded=event_policy(event) if event.policy_sha else None,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(_("Event settings saved."), "success")
            return redirect(url_for("events.show", event_id=event.id))
    policies = list(current_catalog().policies.values())
    return render_template("events/form.html", form=form, event=event, policies=policies), 400 if form.errors else 200


@bp.route("/events/<int:event_id>/policy", methods=["GET", "POST"])
@event_route(Action.EDIT_SETTINGS)
def upload_policy(event, roles):
    """The organizer's own policy file for this event (house rules, a publisher's newer version)."""
    form = PolicyUploadForm()
    if form.validate_on_submit():
        upload = form.file.data
        try:
            content = upload.read(services.MAX_POLICY_BYTES + 1)
        finally:
            upload.close()  # a file over 500 KB is spooled to a temporary file: closed now, not at garbage collection
        try:
            policy = services.upload_policy(
                db.session,
                actor=current_user,
                event=event,
                filename=upload.filename or "",
                content=content,
                level=form.level.data or "",
                reserved=current_catalog().policies,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _(
                    "The event now enforces %(policy)s %(version)s, uploaded.",
                    policy=catalog_name(policy),
                    version=policy.version,
                ),
                "success",
            )
            return redirect(url_for("events.settings", event_id=event.id))
    uploads = db.session.scalars(
        select(EventPolicy).where(EventPolicy.event_id == event.id).order_by(EventPolicy.id.desc())
    ).all()
    return render_template(
        "events/policy.html", form=form, event=event, policy=event_policy(event), uploads=uploads
    ), 400 if form.errors else 200


def _invitations_key() -> str:
    """Invitations count per organizer account, in the shared limiter store (every worker counts together)."""
    return f"invite-organizer:{getattr(current_user, 'id', None)}"


def _invited(response) -> bool:
    return response.status_code == 302  # an invitation was made (a form error invites nobody and costs nothing)


@bp.route("/events/<int:event_id>/staff", methods=["GET", "POST"])
@event_route(Action.MANAGE_STAFF)
@limiter.limit(
    lambda: current_app.config["INVITE_LIMIT_PER_ORGANIZER"],
    key_func=_invitations_key,
    methods=["POST"],
    deduct_when=_invited,
)
def staff(event, roles):
    form = StaffForm()
    head = staff_services.current_head_judge(db.session, event)
    if head is None:
        del form.replace_head_judge  # asked only when someone would be replaced
    if form.validate_on_submit():
        try:
            result = staff_services.add_staff(
                db.session,
                actor=current_user,
                event=event,
                email=form.email.data,
                name=form.name.data or "",
                role=Role(form.role.data),
                invite_lifetime=staff_email.invite_lifetime(),
                replace_head_judge=bool(head is not None and form.replace_head_judge.data),
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            # One message whether or not the account existed: the organizer learns nothing about it, and never
            # sees a password or a link (the invite goes to the person's own inbox).
            flash(*staff_email.tell_staff(event, result.invitation, result.invite_token, organizer=current_user))
            return redirect(url_for("events.staff", event_id=event.id))
    return render_template(
        "events/staff.html",
        event=event,
        roles=roles,
        form=form,
        end_form=EndStaffForm(),
        staff=staff_services.current_staff(db.session, event),
        invitations=staff_services.invitations_of(db.session, event),
        invitation_state=staff_services.invitation_state_of,
    ), 400 if form.errors else 200


@bp.route("/invitations/<int:invitation_id>/<any(accept, decline):answer>", methods=["POST"])
@login_required
def answer_invitation(invitation_id, answer):
    """The invited person accepts or declines (permissions.answer_invitation: only they, only while it waits)."""
    if not AnswerInvitationForm().validate_on_submit():
        abort(400)
    try:
        invitation = staff_services.answer_invitation(
            db.session, user=current_user, invitation_id=invitation_id, accept=answer == "accept"
        )
    except LookupError:
        abort(404)
    db.session.commit()
    if answer == "accept":
        flash(
            _(
                "You are now %(role)s at %(event)s.",
                role=role_in_sentence(invitation.role),
                event=invitation.event.name,
            ),
            "success",
        )
        return redirect(url_for("events.index", accepted=invitation.event_id))  # the list, with the event now in it
    flash(_("You declined the invitation to %(event)s.", event=invitation.event.name), "info")
    return redirect(url_for("events.index"))


@bp.route("/events/<int:event_id>/staff/<int:assignment_id>/end", methods=["POST"])
@event_route(Action.MANAGE_STAFF)
def end_staff(event, roles, assignment_id):
    if staff_services.current_assignment(db.session, event, assignment_id) is None:
        abort(404)  # before the form: another event's assignment id is unknown here, whatever was sent
    form = EndStaffForm()
    if not form.validate_on_submit():
        flash(_("Say why this person leaves the role."), "error")
        return redirect(url_for("events.staff", event_id=event.id))
    try:
        staff_services.end_staff(
            db.session, actor=current_user, event=event, assignment_id=assignment_id, reason=form.reason.data
        )
    except LookupError:
        abort(404)
    db.session.commit()
    flash(_("Removed from the staff; the record is kept."), "success")
    return redirect(url_for("events.staff", event_id=event.id))


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


@bp.route("/events/<int:event_id>/rounds", methods=["POST"])
@event_route(Action.START_ROUND)
def start_round(event, roles):
    if StartRoundForm().validate_on_submit():
        division_id = int_or_none(request.form.get("division"))
        button(
            lambda: round_services.start_round(db.session, actor=current_user, event=event, division_id=division_id),
            lambda rnd: _(
                "Round %(number)s started; it ends at %(time)s.",
                number=rnd.number,
                time=clock(round_services.round_ends_at(rnd)),
            ),
        )
    return redirect(url_for("events.show", event_id=event.id))


@bp.route("/events/<int:event_id>/staff/me-as-scorekeeper", methods=["POST"])
@event_route(Action.JOIN_AS_SCOREKEEPER)
def join_as_scorekeeper(event, roles):
    """The organizer, who may not start rounds, becomes the scorekeeper in one tap (events/show.html offers it)."""
    if JoinAsScorekeeperForm().validate_on_submit():
        button(
            lambda: staff_services.join_as_scorekeeper(db.session, actor=current_user, roles=roles, event=event),
            _("You are now this event's scorekeeper: you can start and end its rounds."),
        )
    else:
        flash(_("The form had expired; nothing was changed. Try again."), "error")
    return redirect(url_for("events.show", event_id=event.id, _anchor="rounds"))


@bp.route("/events/<int:event_id>/rounds/<int:number>/day", methods=["POST"])
@event_route(Action.START_ROUND)
def round_day(event, roles, number):
    """Say which of the event's days a round is on: Day 2 begins with it (or it stays on Day 1)."""
    division_id = int_or_none(request.args.get("division"))
    rnd = found(round_services.round_by_number(db.session, event, number, division_id))
    form = RoundDayForm()
    if form.validate_on_submit():
        button(
            lambda: round_services.set_round_day(
                db.session, actor=current_user, event=event, rnd=rnd, day=form.day.data
            ),
            lambda changed: _("Round %(number)s is on day %(day)s.", number=number, day=form.day.data),
        )
    else:
        flash(_("The form had expired; nothing was changed. Try again."), "error")
    return redirect(url_for("events.show", event_id=event.id, _anchor="rounds"))


@bp.route("/events/<int:event_id>/rounds/<int:number>/end", methods=["POST"])
@event_route(Action.END_ROUND)
def end_round(event, roles, number):
    """End a round early (every match reported) or on time; what is still open in it ends with it."""
    division_id = int_or_none(request.args.get("division"))
    rnd = found(round_services.round_by_number(db.session, event, number, division_id), Action.END_ROUND)
    if not EndRoundForm().validate_on_submit():
        flash(_("The form had expired; nothing was changed. Try again."), "error")
        return redirect(url_for("events.show", event_id=event.id))
    ended = round_services.end_round(db.session, actor=current_user, event=event, rnd=rnd)
    db.session.commit()
    flash(
        " ".join(
            [
                _("Round %(number)s ended.", number=rnd.number),
                *(
                    _(
                        "The deck check at table %(table)s was still running: it ended with the round, without a "
                        "result.",
                        table=dc.table_number,
                    )
                    for dc in ended.deck_checks
                ),
            ]
        ),
        "success",
    )
    return redirect(url_for("events.show", event_id=event.id))


@bp.route("/events/<int:event_id>/pairings", methods=["GET", "POST"])
@event_route(Action.IMPORT_PAIRINGS)
def pairings(event, roles):
    """The scorekeeper seats the current round's players, so judges can pick players by table."""
    form, report = PairingsForm(), None
    divisions = player_services.divisions_of(db.session, event)
    division_id = int_or_none(request.args.get("division"))
    if division_id not in {d.id for d in divisions}:
        division_id = divisions[0].id if divisions else None
    rnd = round_services.current_round(db.session, event, division_id)  # the chosen division's (?division=)
    if form.validate_on_submit():
        if rnd is None:
            form.file.errors.append(_("Start round 1 before importing its pairings."))
        else:
            try:
                text = strip_control_characters(form.file.data.read().decode("utf-8"))
            except UnicodeDecodeError:
                form.file.errors.append(_("The file is not UTF-8 text; save it as “CSV UTF-8”."))
            else:
                report = pairing_services.import_pairings(
                    db.session, actor=current_user, event=event, round_number=rnd.number, text=text,
                    division_id=rnd.division_id,
                )  # fmt: skip
                db.session.commit()
    status = 400 if form.errors else 200
    return render_template(
        "events/pairings.html",
        event=event,
        roles=roles,
        form=form,
        report=report,
        round=rnd,
        seating=pairing_services.pairings_of(db.session, rnd),
        divisions=divisions if len(divisions) > 1 else [],
        division_id=division_id,
    ), status
