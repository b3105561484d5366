"""Forty judges on four gunicorn workers: every acknowledged incident is stored exactly once, even with resends and
workers killed with SIGKILL mid-request."""

from tests.load.harness import Tally, WorkerKiller, check_database, run_judges, same_keys_at_once


def assert_nothing_lost_or_doubled(app, staffing, tally: Tally) -> dict:
    db = check_database(app, staffing.event_id)
    assert not tally.unexpected, f"{len(tally.unexpected)} unexpected answers, first: {tally.unexpected[:3]}"
    assert not tally.mismatches, tally.mismatches[:5]
    assert not any(status >= 500 for status in tally.statuses), tally.statuses
    assert db["rows"] == tally.acknowledged, "the database and what the judges were shown differ"
    assert sorted(db["rows"].values()) == list(range(1, len(db["rows"]) + 1)), "incident numbers skip or repeat"
    assert db["without_subject"] == 0, "an incident was stored without its player"
    assert len(db["audit_counts"]) == len(db["rows"]) and set(db["audit_counts"].values()) == {1}, (
        "each incident has exactly one audit entry"
    )
    assert db["integrity"] in ("ok", "n/a")
    return db


def test_forty_judges_posting_twenty_five_incidents_each_with_resends_store_exactly_one_thousand(app, staffing, server):
    tally = Tally()
    with WorkerKiller(server, every=4.0):  # kill -9 a worker in the middle of the run (and again every 4 s)
        run_judges(server.url, staffing, tally, incidents=25, resend=0.1)
    db = assert_nothing_lost_or_doubled(app, staffing, tally)
    assert len(db["rows"]) == 1000
    assert server.killed >= 1 and tally.resent > 0
    print(f"\n40 judges × 25 incidents, {server.killed} workers killed: {tally.summary()}")


def test_thirty_two_clients_sending_the_same_fifty_keys_at_once_store_fifty_incidents(app, staffing, server):
    seen = same_keys_at_once(server.url, staffing, clients=32, keys=50)
    assert all(len(numbers) == 1 for numbers in seen.values()), "a key was answered with two different incidents"
    db = check_database(app, staffing.event_id)
    assert len(db["rows"]) == 50
    assert {k: n for k, (n,) in seen.items()} == db["rows"]


def test_judges_posting_for_a_minute_with_a_worker_killed_every_five_seconds_lose_nothing(
    app, staffing, server, load_seconds
):
    tally = Tally()
    with WorkerKiller(server, every=5.0):
        run_judges(server.url, staffing, tally, seconds=load_seconds, resend=0.1)
    db = assert_nothing_lost_or_doubled(app, staffing, tally)
    assert len(db["rows"]) > 0 and server.killed >= int(load_seconds // 5) - 1
    print(f"\n40 judges for {load_seconds:.0f} s, {server.killed} workers killed: {tally.summary()}")
