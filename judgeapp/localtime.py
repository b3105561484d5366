"""The venue's clock: times are stored in UTC and shown, or typed, in the venue's time zone."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask import current_app


def venue_tz() -> ZoneInfo:
    return ZoneInfo(current_app.config.get("JUDGEAPP_TIMEZONE") or "UTC")


def to_local(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC).astimezone(venue_tz())


def local_time_to_utc(clock: time, near: datetime) -> datetime:
    """A wall-clock time typed at the venue, on the venue day closest to `near` (a stored UTC time)."""
    tz = venue_tz()
    local_near = to_local(near)
    candidates = [datetime.combine(local_near.date() + timedelta(days=d), clock, tzinfo=tz) for d in (-1, 0, 1)]
    best = min(candidates, key=lambda c: abs(c - local_near))
    return best.astimezone(UTC).replace(tzinfo=None)
