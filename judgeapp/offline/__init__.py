"""Offline capture: the installable app (manifest, service worker, offline page) and what a phone keeps to log
incidents, time extensions and deck checks with no network (sent later from its outbox)."""

from flask import Blueprint

bp = Blueprint("offline", __name__, template_folder="templates")

from . import views  # noqa: E402,F401
from .scripts import import_map_tag, module_preloads  # noqa: E402

bp.add_app_template_global(import_map_tag, "import_map")  # base.html and the offline page, before any module
bp.add_app_template_global(module_preloads, "module_preloads")  # a page's entry module and all it imports
