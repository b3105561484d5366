"""Offline capture: the installable app (manifest, service worker, offline page) and what a phone keeps to log
incidents, time extensions and deck checks with no network (sent later from its outbox)."""
from flask import Blueprint

bp = Blueprint("offline", __name__, template_folder="templates")

from . import views  # noqa: E402,F401
