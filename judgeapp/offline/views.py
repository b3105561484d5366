"""The installable app's files and the phone's offline copy. Thin views over offline.services."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from flask_login import current_user

from ..breach import masked_csrf_token
from ..choices import finder_file_of, finder_url_of
from ..extensions import current_catalog, db, event_policy
from ..help.views import help_pages
from ..models import utcnow
from ..permissions import Action, event_route
from ..reference.views import rules_url
from ..static_files import IMMUTABLE, minify, send_compressed_once
from ..texts import gettext as _
from . import services
from .bundles import BUNDLE_DIR, BUNDLES, unbundled_modules
from .scripts import STATIC

bp = Blueprint("offline", __name__, template_folder="templates")


def catalog_files() -> list[str]:
    """The phone scripts' catalogs (static/i18n/<lang>.json, built by `make`): kept with the modules, so a phone
    offline still shows its language (every module waits for its page's catalog: static/js/i18n.js)."""
    return sorted(f"i18n/{p.name}" for p in (STATIC / "i18n").glob("*.json"))


# The pages a judge's phone keeps for offline use (sw.js OFFLINE_PAGES) run the bundles (judgeapp/offline/bundles.py:
# every module those pages run, in two files): the app shell the service worker installs is them, the stylesheet and
# the small icon; served from the phone's cache when there is no network.
SHELL_FILES = ["app.css", *(f"{BUNDLE_DIR}/{name}.js" for name in BUNDLES), "icons/icon-192.png"]
# Kept by the worker the first time a page asks for them, not downloaded with the first page (issue 36): the modules of
# pages that need the network anyway (an import, an appeal's decision, a player's call page), loaded one by one, every
# language's catalog of the phone's strings (a judge needs one; the page sends its own to be kept, static/js/page.js),
# the home screen's large icons.
LAZY_FILES = [
    *unbundled_modules(),
    *catalog_files(),
    "icons/icon-512.png",
    "icons/maskable-512.png",
]


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def shell_version() -> str:
    """Changes whenever a shell file, the catalog or a translation changes, so phones replace their cached copy (the
    offline page is kept in the language it was fetched in: a translation changed is fetched again)."""
    cached = current_app.extensions.get("judgeapp.shell_version")
    if cached is None:
        digest = hashlib.sha256()
        for name in [*SHELL_FILES, *LAZY_FILES, "sw.js"]:
            digest.update((STATIC / name).read_bytes())
        digest.update(Path(current_catalog().path).read_bytes())
        for po in sorted((STATIC.parent / "translations").glob("*/LC_MESSAGES/messages.po")):
            digest.update(po.read_bytes())
        cached = current_app.extensions["judgeapp.shell_version"] = digest.hexdigest()[:16]
    return cached


def _worker_source() -> str:
    """sw.js without its comments (judgeapp/static_files.py minify), made once per process."""
    made = current_app.extensions.get("judgeapp.worker_source")
    if made is None:
        source = (STATIC / "sw.js").read_bytes()
        made = current_app.extensions["judgeapp.worker_source"] = minify("text/javascript", source).decode("utf-8")
    return made


@bp.route("/sw.js")
def service_worker():
    """The service worker, at the root so it can serve every page of the app."""
    shell = [url_for("offline.page"), url_for("offline.manifest")] + [
        url_for("static", filename=f) for f in SHELL_FILES
    ]
    lazy = [url_for("static", filename=f) for f in LAZY_FILES]
    text = _worker_source().replace("__VERSION__", shell_version())
    text = text.replace("__SHELL__", json.dumps(shell)).replace("__LAZY__", json.dumps(lazy))
    wait = int(current_app.config["JUDGEAPP_NETWORK_WAIT_MS"])
    text = text.replace("__NETWORK_WAIT_MS__", str(wait))
    response = Response(text, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    send_compressed_once(response, ("sw.js", f"{shell_version()}-{wait}"))
    # The browser asks for the worker again after each page it opens: with an ETag an unchanged worker is a 304 of a
    # few hundred bytes, not the whole script (Flask-Compress answers the condition after compressing: its ETag says
    # which encoding).
    response.add_etag()
    return response.make_conditional(request)


@bp.route("/manifest.webmanifest")
def manifest():
    icons = [
        {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": url_for("static", filename="icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "name": "judgeapp",
        "short_name": "judgeapp",
        "description": _("Log rulings, penalties and time at the table."),
        "start_url": url_for("events.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f7f9",
        "theme_color": "#102a43",
        "icons": icons,
    }
    return Response(json.dumps(body), mimetype="application/manifest+json")


@bp.route("/offline")
def page():
    """The page the phone shows for an address it has no copy of; it lists what works offline (from the phone)."""
    return render_template("offline/page.html")


@bp.route("/offline/token")
def token():
    """A fresh CSRF token and the signed-in account, fetched by the outbox before it sends."""
    if not current_user.is_authenticated:
        return _no_store(jsonify(ok=False, signed_in=False)), 401
    return _no_store(jsonify(ok=True, user_id=current_user.id, csrf_token=masked_csrf_token()))


@bp.route("/offline/changed.json")
def changed():
    """When anything the judge's kept pages show last changed (ms, UTC), for a page the phone answered from its copy:
    page.js loads it afresh when the event changed after the copy was made. A few hundred bytes."""
    if not current_user.is_authenticated:
        return _no_store(jsonify(ok=False, signed_in=False)), 401
    return _no_store(jsonify(changed=services.changed_for(db.session, current_user)))


@bp.route("/offline/copy.json")
def copy():
    """What logging needs offline for every event the judge is staffed on now."""
    if not current_user.is_authenticated:
        return _no_store(jsonify(ok=False, signed_in=False)), 401
    now = utcnow()
    events, held = [], set()
    for event, roles in services.staffed_events(db.session, current_user, now.date()):
        held |= roles
        data = services.event_copy(db.session, event, roles)
        data["pages"] = [
            url_for("events.show", event_id=event.id),
            url_for("incidents.new", event_id=event.id),
            url_for("clock.new_extension", event_id=event.id),
            url_for("deckchecks.new", event_id=event.id),
        ]
        # the policy's file, one per version, kept by the phone: the finder's words, and the quick reference, which the
        # phone renders from it at the reference's address when it has no network (static/js/reference.js): the
        # reference page itself is not kept per event
        data["finder"] = finder_url(event)
        data["reference"] = rules_url(event, with_level=False)
        events.append(data)
    return _no_store(
        jsonify(
            ok=True,
            user_id=current_user.id,
            user_name=current_user.name,
            fetched_at=now.isoformat() + "Z",
            shell=shell_version(),
            # no `policies`: the engine's input is in each policy's file, named by the event's `finder` and kept once
            # per version (incident.js reads it there), not sent again with every copy
            events=events,
            home=url_for("events.index"),
            help=help_pages(held),  # the judge's guide for the roles held, kept with the events' pages
        )
    )


# ---- the finder's words, one file per policy version (incident.js builds its index from it; sw.js keeps it) ----


def finder_url(event) -> str:
    """The address of the finder file of the policy `event` enforces (choices.finder_url_of)."""
    return finder_url_of(event_policy(event), event)


def _finder_answer(data: bytes, digest: str) -> Response:
    """The file; kept a year by the browser at the address that names its content, stored nowhere at any other."""
    response = Response(data, mimetype="application/json")
    private = IMMUTABLE.replace("public", "private")  # for signed-in judges only: no shared cache keeps it
    response.headers["Cache-Control"] = private if request.args.get("v") == digest else "no-store"
    return send_compressed_once(response, ("finder", digest))


@bp.route("/offline/finder/<policy_id>.json")
def finder(policy_id):
    if not current_user.is_authenticated:
        return _no_store(jsonify(ok=False, signed_in=False)), 401
    if policy_id not in current_catalog().policies:
        return _no_store(jsonify(ok=False)), 404
    return _finder_answer(*finder_file_of(current_catalog().policy(policy_id)))


@bp.route("/offline/finder/events/<int:event_id>.json")
@event_route(Action.VIEW_EVENT)
def event_finder(event, roles):
    return _finder_answer(*finder_file_of(event_policy(event), shipped=not event.policy_sha))
