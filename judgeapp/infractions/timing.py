"""Time-extension arithmetic: what a match is owed back, and when a table's round ends."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from .catalog import ExtensionReason, Policy, TimeRule


@dataclass(frozen=True)
class ExtensionOwed:
    minutes: int
    rule: TimeRule | None
    extra_turns_allowed: bool

    def explanation(self) -> str:
        if self.rule is None:
            return "This policy sets no time extension for this; the judge decides."
        if self.minutes == 0:
            return f"No time owed: {self.rule.summary} ({self.rule.section})"
        return f"{self.minutes} min owed: {self.rule.summary} ({self.rule.section})"


def extension_owed(policy: Policy, reason: ExtensionReason | str, taken: timedelta) -> ExtensionOwed:
    """Minutes owed to a match that was stopped for `taken`, under the policy's rule for `reason`.

    Time taken is rounded up to whole minutes, in the players' favour, since round clocks run in minutes.
    """
    if taken < timedelta(0):
        raise ValueError("time taken cannot be negative")
    rule = policy.time_rule(ExtensionReason(reason))
    if rule is None:
        return ExtensionOwed(0, None, False)
    if taken.total_seconds() <= rule.over_minutes * 60 or taken == timedelta(0):
        return ExtensionOwed(0, rule, False)
    minutes = math.ceil(taken.total_seconds() / 60) + rule.plus_minutes
    return ExtensionOwed(minutes, rule, rule.extra_turns_allowed)


def round_end(start: datetime, length_minutes: int) -> datetime:
    """When the round clock runs out for a table with no extension."""
    return start + timedelta(minutes=length_minutes)


def table_end_time(start: datetime, length_minutes: int, extensions_minutes: Iterable[int] = ()) -> datetime:
    """When a table's round ends: the round's end plus every extension given to that table."""
    extra = sum(extensions_minutes)
    if extra < 0:
        raise ValueError("extensions cannot shorten a round")
    return round_end(start, length_minutes) + timedelta(minutes=extra)
