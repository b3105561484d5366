from flask import Blueprint

bp = Blueprint("reference", __name__, template_folder="templates", url_prefix="/reference")

from . import views  # noqa: E402,F401
