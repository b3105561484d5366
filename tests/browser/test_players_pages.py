"""The players page of an event of 130,000 players on a phone (390x844): it pages, and finds a player by the reading of
their name typed in the other kana; each page stays under 10 KB as sent (issue 34)."""

from __future__ import annotations

import hashlib
import inspect
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import Column, MetaData, Table, func, insert, literal, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateTable

from judgeapp import names
from judgeapp.extensions import db
from judgeapp.models import Division, Event, Player, utcnow
from tests.browser.conftest import ARTIFACTS, log_in, shot

pytestmark = pytest.mark.browser

PLAYERS = 130_000
KANA = "アイウエオカキクケコ"
WANTED = 86_420  # the player searched for
ROW_COLUMNS = ("name", "reading", "player_code", "search_key", "list_key")


def reading_of(n: int) -> str:
    return "".join(KANA[int(d)] for d in f"{n:06d}") + " ヤマ"


def generated_rows():
    """The 130,000 players as the app would store them: their search and list keys from judgeapp/names.py."""
    for n in range(PLAYERS):
        name, reading, code = f"Visitor {n:06d}", reading_of(n), f"BIG-{n:07d}"
        yield name, reading, code, names.search_text(name, reading, code), names.list_key(name, reading)


def cached_rows() -> Path:
    """An SQLite file of `generated_rows`, built once and kept in tests/artifacts (git-ignored), named after what the
    rows depend on: this generator's source, judgeapp/names.py and the fold it uses, and the players table as the
    models define it. Computing the keys is most of the rows' cost (~4 CPU s); a file from an earlier run is used as
    it is, one from other sources is replaced."""
    from judgeapp.infractions import search

    sources = [inspect.getsource(reading_of), inspect.getsource(generated_rows), str(PLAYERS)]
    sources += [Path(m.__file__).read_text(encoding="utf-8") for m in (names, search)]
    sources.append(str(CreateTable(Player.__table__).compile(dialect=sqlite.dialect())))
    key = hashlib.sha256("\0".join(sources).encode()).hexdigest()[:16]
    path = ARTIFACTS / f"players-130k-{key}.sqlite3"
    if path.exists():
        return path
    ARTIFACTS.mkdir(exist_ok=True)
    for stale in ARTIFACTS.glob("players-130k-*.sqlite3"):
        if stale != path:  # another worker may have just built this one
            stale.unlink(missing_ok=True)
    building = path.with_suffix(f".{os.getpid()}.tmp")
    with closing(sqlite3.connect(building)) as conn, conn:
        conn.execute("CREATE TABLE rows (name, reading, player_code, search_key, list_key)")
        conn.executemany("INSERT INTO rows VALUES (?, ?, ?, ?, ?)", generated_rows())
    os.replace(building, path)  # whole or not there: another process may build the same file at the same time
    return path


@pytest.fixture
def big_event(live_server):
    """The demo's event with 130,000 more players, written straight into the database (an import of that size takes
    minutes; bench/players_page.py measures the page after a real one, and tests/browser/test_import_progress.py
    watches a large file's real import job): one INSERT … SELECT from `cached_rows`."""
    rows = Table("rows", MetaData(), *(Column(c) for c in ROW_COLUMNS), schema="big")
    players = Player.__table__
    with live_server.app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "Demo Open"))
        division = db.session.scalar(  # a bulk insert skips the hook that gives a new record the first division
            select(Division.id).where(Division.event_id == event.id).order_by(Division.position).limit(1)
        )
        event_id = event.id
        db.session.remove()
        with db.engine.connect() as conn:
            driver = conn.connection.driver_connection  # ATTACH outside a transaction (no BEGIN emitted yet)
            driver.execute("ATTACH DATABASE ? AS big", (str(cached_rows()),))
            constants = [
                literal(event_id, players.c.event_id.type),
                literal(division, players.c.division_id.type),
                literal({}, players.c.platform_ids.type),
                literal(utcnow(), players.c.created_at.type),
            ]
            conn.execute(
                insert(players).from_select(
                    ["event_id", "division_id", "platform_ids", "created_at", *ROW_COLUMNS],
                    select(*constants, *(rows.c[c] for c in ROW_COLUMNS)),
                )
            )
            conn.commit()
            driver.execute("DETACH DATABASE big")
        assert db.session.scalar(select(func.count()).where(Player.event_id == event_id)) > PLAYERS
        return live_server, event_id


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
