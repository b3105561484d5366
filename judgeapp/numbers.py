"""A number a request names (a table, a round, a record's id in a query string or hidden field), read safely. A leaf:
it imports nothing of judgeapp, so any module, the views of every package included, may use it without a circle."""

from __future__ import annotations

DB_INT = 2**31 - 1  # the database's integer: a number beyond it names no record, and SQLite cannot even bind it


def int_or_none(value) -> int | None:
    """A number from a query string or hidden field (a table, a record's number or id); None when it is none, or
    beyond the database's integer (it would make the driver overflow: a 500 instead of "no such record")."""
    try:
        number = int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None
    return number if number is None or -DB_INT <= number <= DB_INT else None
