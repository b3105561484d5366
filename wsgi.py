"""WSGI entry point: `gunicorn wsgi:app` or `flask --app wsgi ...`."""

import sys

from judgeapp import create_app
from judgeapp.infractions import CatalogError

try:
    app = create_app()
except CatalogError as err:  # refuse to start, naming the file, line and field
    sys.exit("judgeapp cannot start: the infraction catalog has problems:\n" + str(err))
