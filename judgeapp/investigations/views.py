"""Disqualifications: accept or decline a recommendation, investigations, statements, one-time links, the PDF."""

from __future__ import annotations

from io import BytesIO

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)
from flask_login import current_user

from ..auth import sealing
from ..auth.emails import external_url
from ..breach import secret_on_page
from ..choices import infraction_choices_of, rank_namer
from ..errors import FieldError, show_on_form
from ..extensions import db, event_policy, limiter
from ..incidents import list_services
from ..localtime import to_local
from ..models import Event, StatementRequest, User
from ..permissions import Action, Role, event_route, found
from ..reports import PAPERS, in_language
from ..reports.dq import dq_report_pdf
from ..texts import gettext as _
from ..texts import lazy_gettext as _l
from ..web import button, refuse_form
from . import services
from .agreement import agreeing_judges
from .forms import AcceptForm, LinkForm, PublicStatementForm, RevokeForm, StatementForm, WriteUpForm, decline_form

bp = Blueprint("investigations", __name__, template_folder="templates")

NEW_LINK = "judgeapp.new_statement_link"


def _investigation(event, number, action=None):
    """The event's investigation `number` (404), and the table's answer for `action` on it (403/409, with why)."""
    return found(services.investigation_by_number(db.session, event, number), action)


# ---- recommendations -------------------------------------------------------------------------------------------------


@bp.route("/events/<int:event_id>/incidents/<int:number>/accept", methods=["POST"])
@event_route(Action.ACCEPT_RECOMMENDATION)
def accept(event, roles, number):
    incident = found(list_services.incident_by_number(db.session, event, number), Action.ACCEPT_RECOMMENDATION)
    if not (form := AcceptForm()).validate_on_submit():
        refuse_form(form)
    policy = event_policy(event)
    try:  # too few judges agreed (Play! Pokémon 4.1): the incident's page again, the message at the field, ticks kept
        agreeing_judges(db.session, policy, event, incident, current_user, form.judges.data)
    except FieldError as err:
        from ..incidents.list_views import incident_page  # incidents' views import ours: read it when asked

        form.judges.errors = [err.message]
        return incident_page(event, roles, number, accept_form=form, status=422)
    given, investigation = button(
        lambda: services.accept_recommendation(
            db.session,
            actor=current_user,
            roles=roles,
            event=event,
            incident=incident,
            policy=policy,
            agreed=form.judges.data,
        ),
        lambda inv: (
            _(
                "Disqualification given (incident #%(number)s). Gather the statements and write your report.",
                number=number,
            )
            if inv is not None
            else _("Ruling of incident #%(number)s accepted: it stands as your decision.", number=number)
            if Role.HEAD_JUDGE in roles
            else _(
                "Incident #%(number)s confirmed: it stands; the player may still appeal it to the head judge.",
                number=number,
            )
        ),
    )
    if not given or investigation is None:
        return redirect(url_for("incidents.show", event_id=event.id, number=number))
    return redirect(url_for("investigations.show", event_id=event.id, number=investigation.number))


@bp.route("/events/<int:event_id>/incidents/<int:number>/decline", methods=["POST"])
@event_route(Action.DECLINE_RECOMMENDATION)
def decline(event, roles, number):
    policy = event_policy(event)
    incident = found(list_services.incident_by_number(db.session, event, number), Action.DECLINE_RECOMMENDATION)
    form = decline_form(policy)
    if form.validate_on_submit():
        button(
            lambda: services.decline_recommendation(
                db.session,
                policy,
                actor=current_user,
                roles=roles,
                event=event,
                incident=incident,
                reason=form.reason.data,
                rank_id=form.rank.data or None,
            ),
            lambda _result: _(
                "Recommendation declined; incident #%(number)s now stands as %(penalty)s.",
                number=number,
                penalty=rank_namer(policy)(incident.rank_id),
            ),
        )
    else:
        flash(" ".join(str(e) for errs in form.errors.values() for e in errs), "error")
    return redirect(url_for("incidents.show", event_id=event.id, number=number))


# ---- investigations -------------------------------------------------------------------------------------------------


@bp.route("/events/<int:event_id>/investigations")
@event_route(Action.VIEW_INVESTIGATIONS)
def index(event, roles):
    policy = event_policy(event)
    return render_template(
        "investigations/index.html",
        event=event,
        roles=roles,
        investigations=services.investigations_of(db.session, event),
        rank_name=rank_namer(policy),
    )


def _show(
    event, roles, investigation, *, status=200, statement_form=None, link_form=None, write_up=None, new_link=None
):
    policy = event_policy(event)
    if write_up is None:
        write_up = WriteUpForm(obj=investigation, formdata=None)
        write_up.decision_infraction_code.data = (
            investigation.decision_infraction_code or investigation.incident.infraction_code
        )
    write_up.decision_infraction_code.choices = infraction_choices_of(policy)
    return render_template(
        "investigations/show.html",
        event=event,
        roles=roles,
        inv=investigation,
        policy=policy,
        incident=investigation.incident,
        rank_name=rank_namer(policy),
        statement_form=statement_form or StatementForm(formdata=None),
        link_form=link_form or LinkForm(formdata=None, prefix="link"),
        write_up=write_up,
        revoke_form=RevokeForm(formdata=None),
        missing=services.missing_statements(investigation),
        timeline=services.timeline(investigation),
        number=services.report_number(event, investigation),
        new_link=new_link,
    ), status


@bp.route("/events/<int:event_id>/investigations/<int:number>")
@event_route(Action.VIEW_INVESTIGATIONS)
def show(event, roles, number):
    investigation = _investigation(event, number)
    fresh = session.pop(NEW_LINK, None) or {}
    token = sealing.unseal(fresh.get("sealed"))  # the cookie is signed, not encrypted: the link travels sealed
    req = next((r for r in investigation.requests if token and r.id == fresh.get("request_id")), None)
    if req is None:
        return _show(event, roles, investigation)
    secret_on_page()  # the raw link is on this answer: never compressed (BREACH)
    url = external_url("investigations.public_statement", token=token)  # JUDGEAPP_BASE_URL, never the request's Host
    qr = segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True, title=_("QR code of the link"))
    link = {"url": url, "qr": qr, "author": req.author_name, "expires": req.expires_at}
    response, status = _show(event, roles, investigation, new_link=link)
    return response, status, {"Cache-Control": "no-store"}


@bp.route("/events/<int:event_id>/investigations/<int:number>/statements", methods=["POST"])
@event_route(Action.TAKE_STATEMENT)  # dated addenda go on after closing
def add_statement(event, roles, number):
    investigation = _investigation(event, number, Action.TAKE_STATEMENT)
    form = StatementForm()
    if form.validate_on_submit():
        try:
            statement, _created = services.add_statement(
                db.session,
                actor=current_user,
                roles=roles,
                event=event,
                investigation=investigation,
                key=form.key.data,
                author_name=form.author_name.data,
                author_role=form.author_role.data,
                text=form.text.data,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _("Addendum of %(name)s saved.", name=statement.author_name)
                if statement.addendum
                else _("Statement of %(name)s saved.", name=statement.author_name),
                "success",
            )
            return redirect(url_for("investigations.show", event_id=event.id, number=number) + "#statements")
    return _show(event, roles, _investigation(event, number), status=400, statement_form=form)


@bp.route("/events/<int:event_id>/investigations/<int:number>/links", methods=["POST"])
@event_route(Action.MANAGE_STATEMENT_LINKS)
def new_link(event, roles, number):
    """A one-time link, shown once (with its QR code) in the answer to this request; only its hash is stored."""
    investigation = _investigation(event, number, Action.MANAGE_STATEMENT_LINKS)
    form = LinkForm(prefix="link")  # the statement form on the same page has the same fields
    if form.validate_on_submit():
        try:
            req, token = services.request_statement(
                db.session,
                actor=current_user,
                roles=roles,
                event=event,
                investigation=investigation,
                author_name=form.author_name.data,
                author_role=form.author_role.data,
            )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            # Shown once, on the page this redirects to (so a reload does not make another link), then forgotten.
            session[NEW_LINK] = {"request_id": req.id, "sealed": sealing.seal(token)}
            return redirect(url_for("investigations.show", event_id=event.id, number=number) + "#new-link")
    return _show(event, roles, _investigation(event, number), status=400, link_form=form)


@bp.route("/events/<int:event_id>/investigations/<int:number>/links/<int:request_id>/revoke", methods=["POST"])
@event_route(Action.MANAGE_STATEMENT_LINKS)
def revoke_link(event, roles, number, request_id):
    investigation = _investigation(event, number, Action.MANAGE_STATEMENT_LINKS)
    req = db.session.get(StatementRequest, request_id)
    if req is None or req.investigation_id != investigation.id:
        abort(404)
    if not (form := RevokeForm()).validate_on_submit():
        refuse_form(form)
    services.revoke_request(db.session, actor=current_user, roles=roles, event=event, request=req)
    db.session.commit()
    flash(_("The link for %(name)s no longer works.", name=req.author_name), "success")
    return redirect(url_for("investigations.show", event_id=event.id, number=number))


@bp.route("/events/<int:event_id>/investigations/<int:number>/write-up", methods=["POST"])
@event_route(Action.WRITE_UP)
def write_up(event, roles, number):
    policy = event_policy(event)
    investigation = _investigation(event, number, Action.WRITE_UP)  # 409 once locked, and why
    form = WriteUpForm()
    form.decision_infraction_code.choices = infraction_choices_of(policy)
    if form.validate_on_submit():
        data = services.WriteUp(
            **{
                name: getattr(form, name).data if getattr(form, name).data is not None else ""
                for name in services.WRITE_UP_FIELDS
            }
        )
        try:
            if form.finalize.data:
                services.finalize(
                    db.session,
                    policy,
                    actor=current_user,
                    roles=roles,
                    event=event,
                    investigation=investigation,
                    data=data,
                    without_statement=form.without_statement.data,
                )
            else:
                services.save_write_up(
                    db.session,
                    policy,
                    actor=current_user,
                    roles=roles,
                    event=event,
                    investigation=investigation,
                    data=data,
                )
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            flash(
                _("Investigation finalized and locked. Download the report below.")
                if form.finalize.data
                else _("Draft saved."),
                "success",
            )
            return redirect(url_for("investigations.show", event_id=event.id, number=number))
    return _show(event, roles, _investigation(event, number), status=400, write_up=form)


@bp.route("/events/<int:event_id>/investigations/<int:number>/report.pdf")
@event_route(Action.VIEW_INVESTIGATIONS)
def report(event, roles, number):
    policy = event_policy(event)
    investigation = _investigation(event, number)
    paper = request.args.get("paper", "a4")
    if paper not in PAPERS:
        abort(404)
    with in_language(event.language):
        data = services.report_of(
            db.session,
            policy,
            event,
            investigation,
            local=to_local,
            tz_name=current_app.config.get("JUDGEAPP_TIMEZONE") or "UTC",
        )
        pdf = dq_report_pdf(data, paper)
    return send_file(
        BytesIO(pdf),
        mimetype="application/pdf",
        as_attachment=True,
        download_name=services.report_filename(event, data),
        max_age=0,
    )


# ---- the one-time link, for people without an account --------------------------------------------------------------


@bp.route("/statement/<token>", methods=["GET", "POST"])
@limiter.limit("30 per minute")
def public_statement(token):
    secret_on_page()  # the link's token is in this page's own address, which a page may repeat
    gone_title = _l("This link no longer works")
    try:
        req = services.request_by_token(db.session, token)
    except LookupError:
        abort(404)
    except services.LinkGone as gone:
        g.event = db.session.get(Event, gone.event_id)  # its language, as below
        return render_template("errors/error.html", code=410, title=gone_title, text=gone.why), 410
    # The person has no account: the page is in their browser's language if we have it, else the event's
    # (i18n.select_locale reads g.event). Set before anything is translated: the request's language is kept once known.
    g.event = db.session.get(Event, req.investigation.event_id)
    form = PublicStatementForm()
    if form.validate_on_submit():
        try:
            services.submit_by_link(db.session, token=token, text=form.text.data)
        except services.LinkGone as gone:
            db.session.rollback()
            return render_template("errors/error.html", code=410, title=gone_title, text=gone.why), 410
        except FieldError as err:
            show_on_form(form, err, db.session)
        else:
            db.session.commit()
            return render_template("investigations/public_done.html", name=req.author_name)
    event = g.event
    asker = db.session.get(User, req.created_by_id)
    return render_template(
        "investigations/public.html", form=form, req=req, event=event, asker=asker
    ), 400 if form.errors else 200
