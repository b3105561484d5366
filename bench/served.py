"""The app as gunicorn serves it (wsgi.py), plus the throughput baseline of bench/load.py: the bare one-row-insert
route (bench/fixtures.py). Served only by the benchmark (`gunicorn bench.served:app`), never by wsgi.py."""

from __future__ import annotations

from bench.fixtures import add_bare_route
from wsgi import app

add_bare_route(app)
