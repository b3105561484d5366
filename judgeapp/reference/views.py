from flask import abort, redirect, render_template, request, url_for
from flask_login import login_required

from ..extensions import current_catalog
from ..infractions import UnknownChoice
from ..infractions.search import search
from . import bp


@bp.route("/")
@login_required
def index():
    first = next(iter(current_catalog().policies))
    return redirect(url_for("reference.policy", policy_id=first))


@bp.route("/<policy_id>")
@login_required
def policy(policy_id):
    try:
        pol = current_catalog().policy(policy_id)
    except UnknownChoice:
        abort(404)
    level = request.args.get("level", type=int)
    if level not in {lv.number for lv in pol.levels}:
        level = pol.levels[0].number
    q = request.args.get("q", "")
    found = search(pol, q)
    return render_template(
        "reference/policy.html",
        policy=pol,
        level=level,
        q=q,
        found=found,
    )
