"""Forty judges on four gunicorn workers: every acknowledged incident is stored exactly once, even with resends and
workers killed with SIGKILL mid-request."""

import threading

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
    # kill -9 a worker that is answering, in the middle of the run, and again every 4 s (4 at most: each one killed
    # is a worker to boot again, seconds of CPU, and on a busy machine killing every 4 s whatever runs left the
    # server booting workers most of the time)
    with WorkerKiller(server, every=4.0, serving=True, kills=4):
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


def test_judges_posting_while_twelve_serving_workers_are_killed_one_after_another_lose_nothing(
    app, staffing, server, workers_to_kill
):
    """40 judges post (10 % resent) while a worker that is answering is killed with SIGKILL, one every 1.5 s at most,
    until `workers_to_kill` (12) have been: the posts they were answering are sent again, and every acknowledged
    incident is stored exactly once, numbered without a gap, with its player and one audit entry."""
    tally = Tally()
    with WorkerKiller(server, every=1.5, serving=True, kills=workers_to_kill) as killer:
        limit = threading.Timer(600, killer.done.set)  # a stuck server: end the run, the kill count assertion fails
        limit.start()
        try:
            run_judges(server.url, staffing, tally, stop=killer.done, resend=0.1)
        finally:
            limit.cancel()
    db = assert_nothing_lost_or_doubled(app, staffing, tally)
    assert server.killed == workers_to_kill, f"{server.killed} of {workers_to_kill} workers killed in 10 minutes"
    assert len(db["rows"]) > 0 and tally.dropped > 0, "a kill cut a request in flight, which was sent again"
    print(f"\n40 judges, {server.killed} serving workers killed: {tally.summary()}")
