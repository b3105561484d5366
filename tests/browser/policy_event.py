"""A live server with one small event on a given policy, for the browser tests of a policy on the phone: an organizer,
a head judge and a floor judge (`org@DOMAIN`, `head@DOMAIN`, `floor@DOMAIN`, the demo password), a level-2 event of
three rounds with round 1 running, and two players (Aiko Mori P-001, Ben Ode P-002)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date

from werkzeug.serving import make_server

from judgeapp import create_app
from judgeapp.extensions import CATALOG_KEY, db
from tests.browser.conftest import DEMO_PASSWORD, NETWORK_WAIT_MS, SAVE_WAIT_MS
from tests.conftest import app_config


def serve_policy_event(
    tmp_path, *, policy_id: str, domain: str, name: str, level: int = 2, assistant: bool = False, **config_overrides
) -> Iterator:
    """`assistant`: an assistant head judge too (`ahj@DOMAIN`, Asa Assistant)."""
    from judgeapp.auth.services import create_user
    from judgeapp.events import player_services, round_services, services, staff_services
    from judgeapp.models import Role

    config = app_config(
        tmp_path,
        **{"JUDGEAPP_SAVE_WAIT_MS": SAVE_WAIT_MS, "JUDGEAPP_NETWORK_WAIT_MS": NETWORK_WAIT_MS, **config_overrides},
    )
    config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path / 'browser.sqlite3'}"  # shared with the server thread
    app = create_app(config)
    with app.app_context():
        db.create_all()
        organizer = create_user(
            db.session, email=f"org@{domain}", name="Mika Organizer", password=DEMO_PASSWORD, organizer=True
        )
        head = create_user(db.session, email=f"head@{domain}", name="Hana Head", password=DEMO_PASSWORD)
        floor = create_user(db.session, email=f"floor@{domain}", name="Fumi Floor", password=DEMO_PASSWORD)
        event = services.create_event(
            db.session,
            app.extensions[CATALOG_KEY],
            organizer=organizer,
            data=services.EventData(
                name=name,
                date=date(2026, 11, 28),
                venue="Hall B",
                policy_id=policy_id,
                level=level,
                rounds=3,
                round_minutes=50,
                challenge_limit=None,
            ),
        )
        staff = [(head, Role.HEAD_JUDGE), (floor, Role.FLOOR_JUDGE)]
        if assistant:
            ahj = create_user(db.session, email=f"ahj@{domain}", name="Asa Assistant", password=DEMO_PASSWORD)
            staff.append((ahj, Role.ASSISTANT_HEAD_JUDGE))
        for user, role in staff:
            staff_services.assign_staff(db.session, actor=organizer, event=event, email=user.email, name="", role=role)
        round_services.start_round(db.session, actor=head, event=event)
        for player, code in (("Aiko Mori", "P-001"), ("Ben Ode", "P-002")):
            player_services.add_player(
                db.session, actor=organizer, event=event, name=player, player_code=code, team=None
            )
        db.session.commit()
        event_id = event.id
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", event_id
    finally:
        server.shutdown()
        thread.join(5)
        with app.app_context():
            db.engine.dispose()


def choose(page, code: str) -> None:
    """The infraction `code`, typed into the picker's search and tapped."""
    page.get_by_placeholder("Search by code or words").fill("")
    page.get_by_placeholder("Search by code or words").press_sequentially(code, delay=10)
    page.locator("#picker-rows .pick").first.click()
    page.wait_for_function(f"() => document.querySelector('#infraction').value === {code!r}", timeout=30_000)
