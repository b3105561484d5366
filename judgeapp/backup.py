"""A consistent copy of a live SQLite database, taken with SQLite's online backup API.

The backup API copies the database page by page while other connections keep writing; SQLite restarts the copy
when a write lands on a page already copied, so the result is always one committed state, never half a
transaction. The copy is written beside the target and renamed into place only after `PRAGMA integrity_check`
has passed, so an interrupted backup never leaves a broken file under the target's name.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL


class BackupError(Exception):
    pass


@dataclass(frozen=True)
class BackupResult:
    path: Path
    bytes: int
    pages: int
    integrity: str


def sqlite_path(url: URL) -> Path:
    """The file behind a SQLite database URL."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        raise BackupError(
            f"not a SQLite database file: {url.render_as_string(hide_password=True)}. "
            "For PostgreSQL use pg_dump (README)."
        )
    return Path(url.database)


def backup_sqlite(source: Path, target: Path, *, pages_per_step: int = 256) -> BackupResult:
    """Copy the live database `source` to `target` (replaced if it exists)."""
    if not source.exists():
        raise BackupError(f"{source}: no such database file")
    target = target.resolve()
    if target == source.resolve():
        raise BackupError("the backup must not overwrite the live database")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=15)
    dst = sqlite3.connect(partial)
    try:
        src.backup(dst, pages=pages_per_step, sleep=0.005)  # small steps: writers wait only briefly
        dst.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file, no -wal beside it
        integrity = dst.execute("PRAGMA integrity_check").fetchone()[0]
        pages = dst.execute("PRAGMA page_count").fetchone()[0]
    finally:
        dst.close()
        src.close()
    if integrity != "ok":
        partial.unlink(missing_ok=True)
        raise BackupError(f"the copy failed its integrity check: {integrity}")
    os.replace(partial, target)
    return BackupResult(target, target.stat().st_size, pages, integrity)
