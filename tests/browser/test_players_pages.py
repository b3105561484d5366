"""The players page of an event of 130,000 players on a phone (390x844): it pages, and finds a player by the reading of
their name typed in the other kana; each page stays under 10 KB as sent (issue 34)."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, select

from judgeapp import names
from judgeapp.extensions import db
from judgeapp.models import Division, Event, Player
from tests.browser.conftest import log_in, shot

pytestmark = pytest.mark.browser

PLAYERS = 130_000
KANA = "アイウエオカキクケコ"
WANTED = 86_420  # the player searched for


def reading_of(n: int) -> str:
    return "".join(KANA[int(d)] for d in f"{n:06d}") + " ヤマ"


@pytest.fixture
def big_event(live_server):
    """The demo's event with 130,000 more players, written straight into the database (an import of that size takes
    minutes; bench/players_page.py measures the page after a real one)."""
    with live_server.app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "Demo Open"))
        division = db.session.scalar(  # a bulk insert skips the hook that gives a new record the first division
            select(Division.id).where(Division.event_id == event.id).order_by(Division.position).limit(1)
        )
        for start in range(0, PLAYERS, 10_000):
            rows = []
            for n in range(start, min(start + 10_000, PLAYERS)):
                name, reading, code = f"Visitor {n:06d}", reading_of(n), f"BIG-{n:07d}"
                rows.append(
                    {
                        "event_id": event.id,
                        "division_id": division,
                        "name": name,
                        "reading": reading,
                        "player_code": code,
                        "platform_ids": {},
                        "search_key": names.search_text(name, reading, code),
                        "list_key": names.list_key(name, reading),
                    }
                )
            db.session.execute(insert(Player), rows)
        db.session.commit()
        return live_server, event.id


def test_the_players_page_of_130000_players_pages_and_finds_a_player_by_reading(big_event, phone):
    base, event_id = big_event
    log_in(phone, base, "organizer@demo.test")
    first = phone.goto(f"{base}/events/{event_id}/players")
    assert first is not None and len(first.body()) < 10 * 1024, len(first.body())
    pager = phone.locator("#player-pages")
    assert "Page 1 of" in pager.inner_text()
    assert phone.locator("#player-list > li").count() == 30
    shot(phone, "players-130k-first-page")

    with phone.expect_navigation() as went:
        pager.get_by_role("link", name="Next").click()
    assert went.value is not None and len(went.value.body()) < 10 * 1024
    assert "Page 2 of" in phone.locator("#player-pages").inner_text()
    assert phone.locator("#player-list > li").count() == 30

    typed = "".join(chr(ord(c) - 0x60) for c in reading_of(WANTED)[:6])  # the same reading, in hiragana
    phone.get_by_label("Find a player by name, reading or ID").fill(typed)
    with phone.expect_navigation() as found_page:
        phone.get_by_role("button", name="Find").click()
    assert found_page.value is not None and len(found_page.value.body()) < 10 * 1024
    found = phone.locator("#player-list > li")
    assert found.count() == 1 and f"BIG-{WANTED:07d}" in found.inner_text()
    assert "1 player found" in phone.locator("#found").inner_text()
    shot(phone, "players-130k-found-by-reading")
    found.get_by_role("link").click()
    phone.get_by_role("heading", name=f"Visitor {WANTED:06d}").wait_for()
