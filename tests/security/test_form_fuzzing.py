"""No form payload produces a server error: hypothesis sends 500 payloads to every form (JUDGEAPP_FUZZ_EXAMPLES),
with a valid CSRF token, signed in with every role at the event, so the payloads reach validation and the services.
One test per form, each on its own world, so pytest-xdist spreads the forms over the cores (one test for all the forms
ran alone on one core for most of the security tier's time)."""

import io
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from judgeapp import create_app
from judgeapp.forms import Form
from tests.conftest import app_config
from tests.security.conftest import post_routes, url_of, with_every_role

EXAMPLES = int(os.environ.get("JUDGEAPP_FUZZ_EXAMPLES", "500"))
SKIP = {"auth.logout"}  # ends the session the other payloads need
# One multipart boundary for every payload: Werkzeug's parser compiles two regular expressions that contain the
# boundary, and the test client makes a new one per request (re's cache then never hits: ~7 % of the fuzzer's CPU).
# A phone's browser makes a new one per form it sends, so the server's cost is unchanged; only the tests pay less.
# (No payload can hold it: their field values are at most 300 characters of text, and the boundary is 40 ASCII ones
# that the strategies below would have to draw exactly.)
BOUNDARY = "judgeapp-fuzz-boundary-6f1d0c9b2e7a4c15"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"
PLAUSIBLE = [
    "",
    "0",
    "1",
    "2",
    "-1",
    "3",
    "15",
    "241",
    "9999",
    "1e9",
    "99999999999999999999999",
    "nan",
    "1.5",
    "y",
    "on",
    "true",
    "3.5.2",
    "4.1",
    "3.2.1",
    "warning",
    "caution",
    "loss_of_game",
    "disqualification",
    "player",
    "team",
    "spectator",
    "M-1",
    "M-2",
    "player:1",
    "upheld",
    "overturned",
    "changed",
    "matches",
    "problems",
    "ruling",
    "deck_check",
    "other",
    "witness",
    "head_judge",
    "floor_judge",
    "12:00",
    "25:61",
    "2026-11-28",
    "2026-02-30",
    "x" * 70,
    "a" * 5000,
    "<script>alert(1)</script>",
    "\u202e\x00\x1b",
    "' OR 1=1 --",
    "%s%s%n",
    "\ud7ff\ufffd",
    "../../etc/passwd",
]


def field_names() -> list[str]:
    names, todo = set(), list(Form.__subclasses__())
    while todo:
        form = todo.pop()
        todo.extend(form.__subclasses__())
        names.update(name for name, value in vars(form).items() if hasattr(value, "field_class"))
    names.update({"link-author_name", "link-author_role", "statement-text", "close-confirm", "key", "kind"})
    return sorted(names - {"csrf_token"})


def payloads():
    value = st.one_of(st.sampled_from(PLAUSIBLE), st.text(max_size=300), st.integers().map(str))
    return st.dictionaries(st.sampled_from(field_names()), value, max_size=14)


def form_endpoints() -> list[str]:
    """The endpoint of every form (every rule that accepts POST), read from an app made for the purpose: the tests are
    parametrized by it before any fixture exists. Every xdist worker reads the same sorted list."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(app_config(Path(folder)))
        return sorted({r.endpoint for r in post_routes(app)} - SKIP)


@pytest.mark.db
@pytest.mark.parametrize("endpoint", form_endpoints())
def test_no_form_payload_produces_a_server_error(app, world, give_role, endpoint):
    users, args = world
    client, token = with_every_role(app, give_role, args["event_id"], users["organizer"])
    routes = [r for r in post_routes(app) if r.endpoint == endpoint]
    assert routes, endpoint
    failures = []
    for rule in routes:
        url = url_of(app, rule, args)

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(payload=payloads(), upload=st.one_of(st.none(), st.binary(max_size=2000)))
        def send(payload, upload):
            data = {**payload, "csrf_token": token}
            if upload is not None:
                data["file"] = FileStorage(io.BytesIO(upload), filename="upload.csv")
            body = encode_multipart(data, boundary=BOUNDARY)[1]
            # send() runs within this iteration of the loop, so `url` is this form's
            response = client.post(url, data=body, content_type=MULTIPART)  # noqa: B023
            assert response.status_code < 500, f"{url} {payload!r}: {response.status_code}"  # noqa: B023

        try:
            send()
        except AssertionError as err:
            failures.append(str(err)[:600])
    assert not failures, "\n".join(failures)
