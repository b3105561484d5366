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


def test_forty_judges_posting_ten_incidents_each_with_resends_and_killed_workers_store_exactly_four_hundred(
    app, staffing, server
):
    """Every judge's 10 incidents stored once, 10 % of the posts sent twice, workers killed mid-run. (Until 27 Nov 25
    each, 1,000: the same property, at 2.5 times the CPU; with a worker killed every 4 s whatever it was doing, on a
    busy machine the server was booting workers most of the time.)"""
    tally = Tally()

    # kill -9 a worker that is answering, in the middle of the run, and again every 2 s (3 at most: each one killed
    # is a worker to boot again, seconds of CPU)
    def posting() -> bool:  # each kill once another 100 incidents are acknowledged: it cuts the judges' posts
        return len(tally.acknowledged) >= 100 * (server.killed + 1)

    with WorkerKiller(server, every=2.0, serving=True, kills=3, ready=posting):
        run_judges(server.url, staffing, tally, incidents=10, resend=0.1)
    db = assert_nothing_lost_or_doubled(app, staffing, tally)
    assert len(db["rows"]) == 400
    assert server.killed >= 1 and tally.resent > 0
    print(f"\n40 judges × 10 incidents, {server.killed} workers killed: {tally.summary()}")


def test_thirty_two_clients_sending_the_same_twenty_keys_at_once_store_twenty_incidents(app, staffing, server):
    """32 sessions send the same 20 one-time keys, all starting together, each in its own order: one incident per key,
    every client shown the same number for it. (Until 27 Nov 50 keys: 1,600 posts for the same race, now 640.)"""
    seen = same_keys_at_once(server.url, staffing, clients=32, keys=20)
    assert all(len(numbers) == 1 for numbers in seen.values()), "a key was answered with two different incidents"
    db = check_database(app, staffing.event_id)
    assert len(db["rows"]) == 20
    assert {k: n for k, (n,) in seen.items()} == db["rows"]


def test_judges_posting_while_twelve_serving_workers_are_killed_one_after_another_lose_nothing(
    app, staffing, server, workers_to_kill
):
    """40 judges post (10 % resent) while a worker that is answering is killed with SIGKILL, one every 1.5 s at most
    and each once another 10 incidents are acknowledged, until `workers_to_kill` (12) have been: the posts they were
    answering are sent again, and every acknowledged incident is stored exactly once, numbered without a gap, with
    its player and one audit entry."""
    tally = Tally()

    def posting() -> bool:  # each kill once another 10 incidents are acknowledged: it cuts posts, not logins
        return len(tally.acknowledged) >= 10 * (server.killed + 1)

    with WorkerKiller(server, every=1.5, serving=True, kills=workers_to_kill, ready=posting) as killer:
        limit = threading.Timer(600, killer.done.set)  # a stuck server: end the run, the kill count assertion fails
        limit.start()
        try:
            run_judges(server.url, staffing, tally, stop=killer.done, resend=0.1)
        finally:
            limit.cancel()
    db = assert_nothing_lost_or_doubled(app, staffing, tally)
    assert server.killed == workers_to_kill, f"{server.killed} of {workers_to_kill} workers killed in 10 minutes"
    assert len(db["rows"]) >= 10 * workers_to_kill and tally.dropped > 0, "kills cut requests, which were sent again"
    print(f"\n40 judges, {server.killed} serving workers killed: {tally.summary()}")
