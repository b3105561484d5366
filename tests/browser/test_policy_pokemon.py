"""The shipped Pokémon policy (Play! Pokémon Penalty Guidelines, January 1, 2026) on the phone, in real Chromium at
390x844: tardiness by minutes late at a Regional Championships level event (5.2.1), a Major gameplay error's Double
Prize Card penalty (5.5.1), and the note that anything above a Warning waits for the head judge (4.1.1.1)."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from werkzeug.serving import make_server

from judgeapp import create_app
from judgeapp.extensions import CATALOG_KEY, db
from tests.browser.conftest import DEMO_PASSWORD, PHONE, log_in, shot
from tests.conftest import app_config

pytestmark = pytest.mark.browser


@pytest.fixture
def pokemon_server(tmp_path):
    """A live server on the shipped catalog: a Pokémon event at Regional Championships level, round 1 running."""
    from judgeapp.auth.services import create_user
    from judgeapp.events import services
    from judgeapp.models import Role

    config = app_config(tmp_path)
    config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{tmp_path / 'browser.sqlite3'}"  # shared with the server thread
    app = create_app(config)
    with app.app_context():
        db.create_all()
        organizer = create_user(
            db.session, email="org@poke.test", name="Mika Organizer", password=DEMO_PASSWORD, organizer=True
        )
        head = create_user(db.session, email="head@poke.test", name="Hana Head", password=DEMO_PASSWORD)
        floor = create_user(db.session, email="floor@poke.test", name="Fumi Floor", password=DEMO_PASSWORD)
        event = services.create_event(
            db.session,
            app.extensions[CATALOG_KEY],
            organizer=organizer,
            data=services.EventData(
                name="Poké Regionals",
                date=date(2026, 11, 28),
                venue="Hall B",
                policy_id="pokemon",
                level=2,
                rounds=3,
                round_minutes=50,
                challenge_limit=None,
            ),
        )
        for user, role in ((head, Role.HEAD_JUDGE), (floor, Role.FLOOR_JUDGE)):
            services.assign_staff(db.session, actor=organizer, event=event, email=user.email, name="", role=role)
        services.start_round(db.session, actor=head, event=event)
        for name, code in (("Aiko Mori", "P-001"), ("Ben Ode", "P-002")):
            services.add_player(db.session, actor=organizer, event=event, name=name, player_code=code, team=None)
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


def choose(page, code: str):
    page.get_by_placeholder("Search by code or words").fill("")
    page.get_by_placeholder("Search by code or words").press_sequentially(code, delay=10)
    page.locator("#picker-rows .pick").first.click()
    page.wait_for_function(f"document.querySelector('#infraction').value === {code!r}", timeout=30_000)


def test_the_phone_suggests_pokemon_tardiness_by_minutes_and_a_double_prize_card_that_waits_for_the_head_judge(
    pokemon_server, phone
):
    base, event_id = pokemon_server
    log_in(phone, base, "floor@poke.test")
    phone.goto(f"{base}/events/{event_id}/incidents/new")
    phone.get_by_label("Table").fill("1")
    phone.locator("#player").press_sequentially("Aiko", delay=10)
    phone.locator("#player-matches button").first.click()
    suggestion = phone.locator("#suggestion")

    choose(phone, "5.2.1")
    phone.locator("#minutes-late-field").wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Minutes late").fill("4")  # just below the Major row (5.2.1)
    suggestion.get_by_text("Default at Regional Championships and above for 4 minutes late: Warning.").wait_for(
        timeout=30_000
    )
    assert phone.locator("#pending-note").is_hidden()  # a Warning needs no confirmation (3.2)
    phone.get_by_label("Minutes late").fill("5")  # at it: a Game Loss, confirmed by the head judge or an assistant
    suggestion.get_by_text("Default at Regional Championships and above for 5 minutes late: Game Loss.").wait_for(
        timeout=30_000
    )
    phone.locator("#pending-note").wait_for(state="visible", timeout=30_000)
    phone.get_by_label("Minutes late").fill("")

    choose(phone, "5.5.1-major")
    suggestion.get_by_text("Suggested: Double Prize Card Penalty").wait_for(timeout=30_000)
    assert phone.get_by_label("Penalty", exact=True).input_value() == "double_prize_card"
    phone.locator("#pending-note").wait_for(state="visible", timeout=30_000)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "35-pokemon-double-prize-card-waits")
