"""The app as gunicorn serves it (wsgi.py), plus the throughput baseline of bench/load.py: a route that inserts one
row and commits, with no session, form, access check or history behind it. Served only by the benchmark
(`gunicorn bench.served:app`), never by wsgi.py."""

from __future__ import annotations

from judgeapp.extensions import csrf, db
from judgeapp.models import AuditEntry
from wsgi import app


@app.post("/bench/bare")
@csrf.exempt
def bare():
    db.session.add(AuditEntry(action="bench.bare", object_type="Bench", details={}))
    db.session.commit()
    return "", 204
