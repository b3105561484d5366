"""Judge calls' response times for the post-event report: nearest-rank percentiles, waiting and time at the table,
per round and per judge."""

from datetime import datetime, timedelta

import pytest

from judgeapp.infractions.calltimes import CallTimes, minutes_seconds, percentile, summarize

T0 = datetime(2026, 11, 28, 10, 0, 0)


def s(seconds: int) -> timedelta:
    return timedelta(seconds=seconds)


def call(round_=1, wait=None, stay=None, judge="Jane Floor", outcome="no_incident", at=0):
    raised = T0 + s(at)
    taken = raised + s(wait) if wait is not None else None
    closed = taken + s(stay) if taken is not None and stay is not None else (raised if outcome == "cancelled" else None)
    return CallTimes(round_, raised, taken, closed, judge if taken else None, outcome)


def test_the_percentile_is_nearest_rank_so_always_one_of_the_measured_times():
    ten = [s(n) for n in range(10, 110, 10)]  # 10 … 100 s
    assert percentile(ten, 90) == s(90)  # the 9th shortest of 10
    assert percentile(ten, 50) == s(50)  # the lower middle of an even count
    assert percentile([s(30), s(10), s(20)], 50) == s(20)
    assert percentile([s(7)], 90) == percentile([s(7)], 50) == s(7)
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(ten, 0)


def test_waiting_runs_from_the_call_to_the_take_and_time_at_the_table_from_the_take_to_the_close():
    summary = summarize([call(wait=40, stay=200), call(wait=100, stay=60), call(wait=20, stay=30)])
    assert summary.total.calls == summary.total.taken == 3
    assert summary.total.median_wait == s(40) and summary.total.p90_wait == s(100)
    assert summary.total.median_at_table == s(60)


def test_calls_are_counted_per_round_in_round_order_with_calls_between_rounds_last():
    summary = summarize([call(round_=2, wait=10), call(round_=None, wait=5), call(round_=1, wait=30), call(round_=2)])
    assert [(g.label, g.calls, g.taken) for g in summary.rounds] == [
        ("Round 1", 1, 1),
        ("Round 2", 2, 1),
        ("Between rounds", 1, 1),
    ]
    assert summary.rounds[1].median_wait == s(10)  # the open call has no waiting time yet


def test_per_judge_the_calls_they_took_and_the_incidents_logged_from_them():
    summary = summarize(
        [
            call(wait=10, stay=60, judge="Ben Floor", outcome="incident"),
            call(wait=50, stay=120, judge="ana Head", outcome="no_incident"),
            call(wait=30, stay=90, judge="Ben Floor", outcome="no_incident"),
            call(outcome="cancelled"),
        ]
    )
    assert [(g.label, g.calls, g.incidents) for g in summary.judges] == [("ana Head", 1, 0), ("Ben Floor", 2, 1)]
    assert summary.judges[1].median_wait == s(10) and summary.judges[1].median_at_table == s(60)
    assert summary.total.cancelled == 1 and summary.total.taken == 3


def test_no_calls_give_empty_figures_not_errors():
    summary = summarize([])
    assert summary.total.calls == 0 and summary.rounds == [] and summary.judges == []
    assert summary.total.median_wait is None and minutes_seconds(summary.total.p90_wait) == "—"


def test_durations_print_as_minutes_and_seconds_or_hours_from_an_hour():
    assert minutes_seconds(s(75)) == "1:15"
    assert minutes_seconds(s(3725)) == "1:02:05"
    assert minutes_seconds(s(0)) == "0:00"
