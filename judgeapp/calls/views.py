"""Judge calls: the player's page behind a table's QR code (no account, no script needed), and the judges' queue,
taking, handing to the head judge and closing. Thin views."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, g, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from .. import renders
from ..breach import secret_on_page
from ..errors import EventClosed, FieldError
from ..events.player_services import by_division, divisions_of
from ..extensions import db, limiter
from ..incidents.lookup_services import table_count
from ..models import Division, utcnow
from ..permissions import Action, Role, decide, event_route, found
from ..texts import gettext as _
from ..web import (
    NOT_KNOWN,
    answer,
    button,
    clock,
    live_list,
    outbox_post,
    player_error,
    refuse,
    refuse_form,
    send_kept,
)
from . import services
from .forms import CallButtonForm, CallForm, SheetForm, TakeForm

bp = Blueprint("calls", __name__, template_folder="templates")

# ---- the player's page ---------------------------------------------------------------------------------------------


def _closed_page(event, table: int, division=None):
    return render_template("calls/table.html", event=event, table=table, division=division, closed=True), 409


def _table_key() -> str:
    args = request.view_args or {}
    return f"call-table:{args.get('event_id')}:{args.get('division_id', '')}:{args.get('table')}"


def _new_call() -> bool:
    return bool(g.get("call_created"))


@bp.route("/call/<int:event_id>/<int:table>/<sig>", methods=["GET", "POST"])
@bp.route(
    "/call/<int:event_id>/<int:division_id>/<int:table>/<sig>", methods=["GET", "POST"], endpoint="division_table"
)
@limiter.limit(
    lambda: current_app.config["CALL_LIMIT_PER_TABLE"],
    key_func=_table_key,
    methods=["POST"],
    deduct_when=lambda response: _new_call(),
)
@limiter.limit(  # the venue's players share one public address: only new calls count, never a forged link's post
    lambda: current_app.config["CALL_LIMIT_PER_ADDRESS"],
    methods=["POST"],
    deduct_when=lambda response: _new_call(),
)
def table(event_id, table, sig, division_id=None):
    """A table's call link (of a division, where the event has several: the link names it, and the call goes to that
    division's table and round): one big button; then the call's place in the queue, and "A judge is coming" once
    taken. The page refreshes itself (no script) while the call is live. It shows nothing of the event but its name
    (and the division's) and this table's own call."""
    event = services.event_of_link(db.session, event_id, table, sig, division_id)
    if event is None:
        refuse(404, NOT_KNOWN)
    g.link_event = event  # a real table's link: its pages speak the event's language (i18n.event_language)
    division = db.session.get(Division, division_id) if division_id is not None else None
    allowed = decide(Action.RAISE_CALL, frozenset({Role.TABLE_LINK}), event_closed=event.closed_at is not None)
    if not allowed:  # the event has closed: its links stop working (409, said plainly)
        return _closed_page(event, table, division)
    form = CallForm()
    if form.validate_on_submit():
        try:
            _, g.call_created = services.raise_call(
                db.session, event=event, table=table, reason=form.reason.data, note=form.note.data,
                division_id=division_id,
            )  # fmt: skip
        except FieldError as err:
            db.session.rollback()
            getattr(form, err.field).errors.append(err.message)
        except EventClosed:
            db.session.rollback()
            return _closed_page(event, table, division)
        else:
            db.session.commit()
            return redirect(request.path, code=303)
    state = services.table_call(db.session, event, table, division_id=division_id)
    return render_template(
        "calls/table.html", event=event, table=table, division=division, form=form, state=state, now=utcnow()
    ), 400 if form.errors else 200


def call_not_sent():
    """The call's form came back without its security token (the phone dropped the page's cookie, or the page was
    very old): nothing was sent; the page says so, with the button to try again. A link judgeapp never made is the
    same "not known" page a GET gets, and a closed event's link the same "judge calls are closed" (answered here, in
    the CSRF error's handler: an exception raised here would be nobody's to handle)."""
    args = request.view_args or {}
    division_id = args.get("division_id")
    event = services.event_of_link(
        db.session(), args.get("event_id", 0), args.get("table", 0), args.get("sig", ""), division_id
    )
    if event is None:
        db.session.rollback()
        return player_error(404)
    g.link_event = event
    if event.closed_at is not None:
        return _closed_page(event, args["table"])
    form = CallForm(formdata=None)
    form.submit.errors = [
        _(
            "Your call was not sent: this page was too old, or your browser refused its cookie (the page's security"
            " token did not come back). Tap the button again; if it still fails, raise your hand and call “Judge!”."
        )
    ]
    state = services.table_call(db.session(), event, args["table"], division_id=division_id)
    division = db.session.get(Division, division_id) if division_id is not None else None
    return render_template(
        "calls/table.html", event=event, table=args["table"], division=division, form=form, state=state, now=utcnow()
    ), 400


# ---- the judges' queue ---------------------------------------------------------------------------------------------


@bp.app_context_processor
def _calls_badge():
    """On every page of a judge at an open event: the number of calls waiting (and, for a head judge, handed to
    them), refreshed by static/js/badge.js."""
    if not current_user or not current_user.is_authenticated:
        return {}
    badge = services.badge_for(db.session(), current_user)
    return {"calls_waiting": badge.count, "calls_handed": badge.handed, "calls_handed_shown": handed_list(badge.handed)}


def handed_list(handed) -> list[dict]:
    """The calls handed to a head judge, as badge.js draws their banners."""
    return [
        {
            "table": c.table_number,
            "by": c.escalated_by.name if c.escalated_by else "",
            "at": clock(c.escalated_at),
            "url": url_for("calls.show", event_id=c.event_id, number=c.number),
        }
        for c in handed
    ]


@bp.route("/calls/waiting")
@login_required
def waiting():
    """The badge's number (JSON for the page to refresh it) and where the badge leads: the queue of the one event
    the judge works at, else the list of them."""
    if request.args.get("format") == "json":
        from ..offline.services import changed_for

        badge = services.badge_for(db.session, current_user)
        # When anything the judge's kept pages show last changed (page.js: a change ends the service worker's trust in
        # the pages it keeps, so the next page comes from the server, not a copy from before the change): one query.
        changed = changed_for(db.session, current_user)
        return jsonify(count=badge.count or 0, handed=handed_list(badge.handed), changed=changed)
    count = services.waiting_for(db.session, current_user)
    events = services.events_judged(db.session, current_user)
    if len(events) == 1:
        return redirect(url_for("calls.index", event_id=events[0].id))
    return render_template("calls/waiting.html", events=events, count=count or 0)


@bp.route("/events/<int:event_id>/calls")
@event_route(Action.VIEW_CALLS)
def index(event, roles):
    live = by_division(divisions_of(db.session, event), services.live_calls(db.session, event), lambda c: c.division_id)
    template = "calls/_queue.html" if request.args.get("partial") else "calls/index.html"
    closed = [] if request.args.get("partial") else services.closed_calls(db.session, event)
    return live_list(
        render_template(
            template, event=event, roles=roles, calls=live, closed=closed, now=utcnow(), take_form=TakeForm()
        )
    )


def _call(event, number, action=None):
    return found(services.call_by_number(db.session, event, number), action)


@bp.route("/events/<int:event_id>/calls/<int:number>")
@event_route(Action.VIEW_CALLS)
def show(event, roles, number):
    call = _call(event, number)
    return render_template(
        "calls/show.html",
        event=event,
        roles=roles,
        call=call,
        seated=services.seated_at(db.session, call),
        now=utcnow(),
        take_form=TakeForm(),
        button_form=CallButtonForm(),
    )


@bp.route("/events/<int:event_id>/calls/<int:number>/take", methods=["POST"])
@event_route(Action.TAKE_CALL)
def take(event, roles, number):
    call = _call(event, number)
    form = TakeForm()
    as_json = outbox_post(form)
    if not form.validate_on_submit():
        refuse_form(form)
    url = url_for("calls.show", event_id=event.id, number=number)
    try:
        services.take(db.session, actor=current_user, roles=roles, event=event, call=call)
    except services.CallTaken as taken:
        db.session.rollback()
        who, at = taken.call.holder.name if taken.call.holder else _("another judge"), clock(taken.call.held_since)
        why = _(
            "%(judge)s took the call at table %(table)s first (%(time)s).",
            judge=who,
            table=taken.call.table_number,
            time=at,
        )
        if as_json:
            return jsonify(ok=False, errors={"call": [why]}, url=url), 409
        refuse(409, why, _("Leave it to them, or see the queue for another call."), title=_("Someone was quicker"))
    table_number = call.table_number
    db.session.commit()
    return answer(
        as_json,
        url,
        kind="call",
        number=number,
        message=_("You took the call at table %(table)s. Go!", table=table_number),
    )


@bp.route("/events/<int:event_id>/calls/<int:number>/escalate", methods=["POST"])
@event_route(Action.ESCALATE_CALL)
def escalate(event, roles, number):
    call = _call(event, number, Action.ESCALATE_CALL)
    if not CallButtonForm().validate_on_submit():
        refuse_form(CallButtonForm())
    button(
        lambda: services.escalate(db.session, actor=current_user, roles=roles, event=event, call=call),
        _("Table %(table)s: handed to the head judge. Their phone shows it now.", table=call.table_number),
    )
    return redirect(url_for("calls.show", event_id=event.id, number=number))


@bp.route("/events/<int:event_id>/calls/<int:number>/close", methods=["POST"])
@event_route(Action.CLOSE_CALL)
def close(event, roles, number):
    call = _call(event, number, Action.CLOSE_CALL)
    if not CallButtonForm().validate_on_submit():
        refuse_form(CallButtonForm())
    button(
        lambda: services.close(db.session, actor=current_user, roles=roles, event=event, call=call),
        lambda c: _(
            "Call at table %(table)s closed: %(outcome)s.",
            table=c.table_number,
            outcome=c.outcome.label,
        ),
    )
    return redirect(url_for("calls.index", event_id=event.id))


# ---- the tables' links and their QR sheet --------------------------------------------------------------------------


MAX_SHEET_TABLES = 500


def _sheet_subject(event) -> str:
    return f"qr-sheet:{event.id}"


def _check_sheet(form) -> bool:
    """The range's own rules, beyond each field's: in order, and at most MAX_SHEET_TABLES tables."""
    if form.first.data > form.last.data:
        form.last.errors = [*form.last.errors, _("The last table comes after the first.")]
        return False
    if form.last.data - form.first.data + 1 > MAX_SHEET_TABLES:
        form.last.errors = [*form.last.errors, _("At most %(count)s tables on one sheet.", count=MAX_SHEET_TABLES)]
        return False
    return True


def _sheet_division(event, form) -> int | None:
    """The division whose tables' links are asked for: None in an event of one division (its links name none), else
    the one chosen (the first when none is); the form's choices are the event's divisions."""
    from ..events.player_services import divisions_of

    divisions = divisions_of(db.session(), event)
    if len(divisions) < 2:
        return None
    form.division.choices = [(d.id, d.name) for d in divisions]
    if form.division.data not in {d.id for d in divisions}:
        form.division.data = divisions[0].id
    return form.division.data


def _links_page(event, roles, form, *, status=200, show=True):
    tables = table_count(db.session, event)
    division_id = _sheet_division(event, form)
    shown = (
        services.table_links(db.session, event, current_user, form.first.data, form.last.data, division_id)
        if show and status == 200
        else []
    )
    sheet = renders.latest(db.session, event, _sheet_subject(event))
    db.session.commit()  # the event's call key, when these are its first links
    return render_template(
        "calls/links.html", event=event, roles=roles, form=form, links=shown, tables=tables, sheet=sheet
    ), status


@bp.route("/events/<int:event_id>/calls/links")
@event_route(Action.PRINT_CALL_LINKS)
def links(event, roles):
    """Every table's call link, and the QR sheet being prepared or ready to download. The sheet itself is asked for
    with a POST (sheet() below): a GET, even one with the old format=pdf, never renders a PDF."""
    secret_on_page()  # every table's signed link: never compressed (BREACH)
    form = SheetForm(request.args, meta={"csrf": False})
    status = 200
    if set(request.args) <= {"format"}:
        form.first.data, form.last.data = 1, table_count(db.session, event)
    elif not form.validate() or not _check_sheet(form):
        status = 400
    return _links_page(event, roles, form, status=status)


@bp.route("/events/<int:event_id>/calls/links/sheet", methods=["POST"])
@event_route(Action.PRINT_CALL_LINKS)
def sheet(event, roles):
    """Start the QR sheet's job (the worker renders it, judgeapp/renders.py); the links page shows it being prepared,
    then offers it for download."""
    form = SheetForm()
    if not form.validate() or not _check_sheet(form):
        return _links_page(event, roles, form, status=400, show=False)
    division_id = _sheet_division(event, form)
    query = {"first": form.first.data, "last": form.last.data, "paper": form.paper.data}
    if division_id is not None:
        query["division"] = division_id
    if request.form.get("action") == "show":  # "Show these links": the same fields, the page of their links
        return redirect(url_for("calls.links", event_id=event.id, **query), code=303)
    services.call_key_of(db.session, event, current_user)  # made here, in the request, if these are its first links
    started = renders.start(
        db.session,
        renders.QR_SHEET,
        actor=current_user,
        event=event,
        payload=query,  # with "division" only where the event has several
        subject=_sheet_subject(event),
    )
    db.session.commit()
    if started is None:
        flash(_("A QR sheet is already being prepared: ask again once it is ready."), "error")
    else:
        flash(_("The QR sheet is being prepared: it will be offered for download on this page."), "success")
    return redirect(url_for("calls.links", event_id=event.id, **query, _anchor="qr-sheet"), code=303)


@bp.route("/events/<int:event_id>/calls/links/sheet/<int:sheet_id>.pdf")
@event_route(Action.PRINT_CALL_LINKS)
def sheet_download(event, roles, sheet_id):
    """A finished QR sheet (`sheet_id`: the id of the job that made it), as stored: a GET that reads, never
    renders."""
    return send_kept(renders.stored_file(db.session, event, renders.QR_SHEET, sheet_id))
