"""Judge calls' response times: how long players waited for a judge and how long the judge stayed, per round and per
judge, for the post-event report. Pure Python: plain records in, plain figures out.

Waiting time: from the player's call to a judge taking it (the first take: a call handed to the head judge keeps it).
Time at the table: from taking it to closing it. A call nobody took (cancelled) has neither; a call still open counts
in the totals only. A call handed to the head judge also counts as handed over, with the time from the hand-over to
the head judge taking it.

Percentiles are nearest-rank: the p-th percentile of n sorted values is the value at rank ceil(p/100 x n) (1-based),
so it is always one of the measured times (the 90th percentile of 10 calls is the 9th shortest wait; of 1 call, that
call). The median is the 50th percentile in the same sense: of an even count, the lower of the two middle values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass(frozen=True)
class CallTimes:
    """One call as the report needs it."""

    round: int | None  # the round running when it was raised (None: between rounds)
    raised_at: datetime
    taken_at: datetime | None = None
    closed_at: datetime | None = None
    judge: str | None = None  # who took it first (the judge who handed it to the head judge, for one handed over)
    outcome: str | None = None  # "no_incident", "incident", "cancelled"; None while open
    escalated_at: datetime | None = None  # handed to the head judge
    head_taken_at: datetime | None = None  # and taken by them

    @property
    def head_waited(self) -> timedelta | None:
        if self.escalated_at is None or self.head_taken_at is None:
            return None
        return self.head_taken_at - self.escalated_at

    @property
    def waited(self) -> timedelta | None:
        return self.taken_at - self.raised_at if self.taken_at is not None else None

    @property
    def at_table(self) -> timedelta | None:
        if self.taken_at is None or self.closed_at is None:
            return None
        return self.closed_at - self.taken_at


def percentile(values: Sequence[timedelta], p: float) -> timedelta | None:
    """The nearest-rank `p`-th percentile (0 < p <= 100) of `values`; None when there are none."""
    if not 0 < p <= 100:
        raise ValueError("a percentile is above 0 and at most 100")
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


@dataclass
class CallGroup:
    """The figures of a set of calls: all calls of a round, or the calls one judge took."""

    label: str
    calls: int = 0
    taken: int = 0
    cancelled: int = 0
    incidents: int = 0
    handed: int = 0  # handed to the head judge
    waits: list[timedelta] = field(default_factory=list)
    stays: list[timedelta] = field(default_factory=list)
    head_waits: list[timedelta] = field(default_factory=list)  # from the hand-over to the head judge's take

    def add(self, call: CallTimes) -> None:
        self.calls += 1
        self.cancelled += call.outcome == "cancelled"
        self.incidents += call.outcome == "incident"
        self.handed += call.escalated_at is not None
        if call.head_waited is not None:
            self.head_waits.append(call.head_waited)
        if call.waited is not None:
            self.taken += 1
            self.waits.append(call.waited)
        if call.at_table is not None:
            self.stays.append(call.at_table)

    @property
    def median_wait(self) -> timedelta | None:
        return percentile(self.waits, 50)

    @property
    def p90_wait(self) -> timedelta | None:
        return percentile(self.waits, 90)

    @property
    def median_at_table(self) -> timedelta | None:
        return percentile(self.stays, 50)

    @property
    def median_head_wait(self) -> timedelta | None:
        return percentile(self.head_waits, 50)


@dataclass
class CallSummary:
    total: CallGroup
    rounds: list[CallGroup]  # in round order; calls between rounds last
    judges: list[CallGroup]  # by name


def english_round_label(number: int | None) -> str:
    return f"Round {number}" if number is not None else "Between rounds"


def summarize(
    calls: Iterable[CallTimes], round_label: Callable[[int | None], str] = english_round_label
) -> CallSummary:
    """The figures of all calls, per round (named by `round_label`: the report passes its language's words) and per
    judge."""
    total = CallGroup("All calls")
    rounds: dict[int | None, CallGroup] = {}
    judges: dict[str, CallGroup] = {}
    for call in calls:
        total.add(call)
        if call.round not in rounds:
            rounds[call.round] = CallGroup(round_label(call.round))
        rounds[call.round].add(call)
        if call.judge is not None and call.taken_at is not None:
            judges.setdefault(call.judge, CallGroup(call.judge)).add(call)
    order = sorted(rounds, key=lambda r: (r is None, r or 0))
    return CallSummary(total, [rounds[r] for r in order], [judges[name] for name in sorted(judges, key=str.casefold)])


def minutes_seconds(value: timedelta | None) -> str:
    """A duration as the report prints it: m:ss (h:mm:ss from an hour), "—" for none."""
    if value is None:
        return "—"
    seconds = max(0, int(value.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
