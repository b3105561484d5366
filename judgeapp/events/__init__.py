from flask import Blueprint

bp = Blueprint("events", __name__, template_folder="templates")

from . import player_views, views  # noqa: E402,F401
