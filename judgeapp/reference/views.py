from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_login import login_required

from ..choices import finder_url_of
from ..extensions import current_catalog, event_policy
from ..infractions import UnknownChoice
from ..infractions.engine import rule_applies
from ..permissions import Action, event_route
from . import services

bp = Blueprint("reference", __name__, template_folder="templates", url_prefix="/reference")


@bp.route("/")
@login_required
def index():
    first = next(iter(current_catalog().policies))
    return redirect(url_for("reference.policy", policy_id=first))


def rules_url(event, with_level: bool = True) -> str:
    """Where an event's own policy reads: the shipped policy's page, or the event's page for an uploaded file."""
    level = {"level": event.level} if with_level else {}
    if event.policy_sha:
        return url_for("reference.event_rules", event_id=event.id, **level)
    return url_for("reference.policy", policy_id=event.policy_id, **level)


@bp.route("/<policy_id>")
@login_required
def policy(policy_id):
    try:
        pol = current_catalog().policy(policy_id)
    except UnknownChoice:
        abort(404)
    return _show(pol)


@bp.route("/events/<int:event_id>")
@event_route(Action.VIEW_EVENT)
def event_rules(event, roles):
    """The event's own policy when its organizer uploaded one (a house policy, a newer version of a guide)."""
    return _show(event_policy(event), event=event)


def _show(pol, event=None):
    level = request.args.get("level", type=int)
    if level not in {lv.number for lv in pol.levels}:
        level = pol.levels[0].number
    q = request.args.get("q", "")
    found = services.found(pol, q)  # best first; the page lists the rest after them, hidden
    found_codes = {inf.code for inf in found}
    rest = [inf for inf in pol.infractions if inf.code not in found_codes]
    return render_template(
        "reference/policy.html",
        policy=pol,
        level=level,
        q=q,
        found=found,
        found_codes=found_codes,
        listed=[*found, *rest],
        # the finder file static/js/reference.js searches as the judge types (search.js `rank`): the incident form's,
        # fetched once per policy version and kept by the phone, not embedded in the page
        finder_url=finder_url_of(pol, event),
        repeat_rules_of=lambda inf: [r for r in pol.repeat_rules if rule_applies(pol, r, inf, level)],
        uploaded_for=event,
    )
