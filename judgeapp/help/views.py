"""The judge's guide: a page per role, in the request's language. Thin views: the guide's text is its templates."""

from pathlib import Path

from flask import Blueprint, current_app, render_template, request, url_for

from ..i18n import language
from ..permissions import Action, account_route, open_route
from ..roles import Role
from .topics import GUIDES, topic_of

bp = Blueprint("help", __name__, template_folder="templates", url_prefix="/help")

STAFF_GUIDES = tuple(g for g in GUIDES if g != "player")
SHOTS = "help"  # under static/: <lang>/<name>.png, taken by the browser tests (make help-shots)


@bp.context_processor
def _shots():
    def help_shot_exists(lang: str, name: str) -> bool:
        return (Path(current_app.static_folder or "") / SHOTS / lang / f"{name}.png").is_file()

    return {"help_shot_exists": help_shot_exists}


def _guide(guide: str, lang: str) -> list[str]:
    """The guide's template in `lang`, then in English (a language whose guide is not written yet)."""
    return [f"help/{lang}/{guide}.html", f"help/en/{guide}.html"]


@bp.route("/")
@account_route(Action.READ_HELP)
def index():
    return render_template(_guide("index", language()), guides=STAFF_GUIDES)


@bp.route('/<any("floor-judge", "head-judge", "organizer"):guide>')
@account_route(Action.READ_HELP)
def guide(guide):
    return render_template(_guide(guide, language()), guide=guide, guides=STAFF_GUIDES)


@bp.route("/player")
@open_route(Action.READ_PLAYER_HELP)
def player():
    """The player's guide to the table's call page: small, no script, no account (like the call page itself)."""
    return render_template(_guide("player", language()))


def help_url() -> str | None:
    """For the header's "?": the guide's part about the page being shown (topics.HELP_FOR), or None."""
    topic = topic_of(request.endpoint)
    if topic is None:
        return None
    guide, anchor = topic
    if guide == "player":
        return url_for("help.player", _anchor=anchor)
    return url_for("help.guide", guide=guide, _anchor=anchor)


def help_pages(roles: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The guide's pages a judge's phone keeps for use without network (offline/copy.json, sw.js OFFLINE_PAGES): the
    index, the floor judge's guide, and the head judge's when `roles` (the judge's roles at the events kept) hold it;
    the organizer's guide is for a desk with a network, not a phone at the tables (issue 36: a page less to fetch)."""
    guides = ["floor-judge", *(["head-judge"] if Role.HEAD_JUDGE.value in roles else [])]
    return [url_for("help.index"), *(url_for("help.guide", guide=g) for g in guides if g in STAFF_GUIDES)]
