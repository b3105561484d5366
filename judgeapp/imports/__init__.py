"""Tournament files as pairing software writes them: detect the format from the content, read it, check it.

`read_tournament_file(data)` is the one entry point: TOM (.tdf), KTS (.Tournament), Melee's CSV exports or any
spreadsheet saved as CSV/TSV. Pure Python; the database side is `judgeapp.events.imports`.
"""

from __future__ import annotations

from ..sandbox import ParseRefused, run_limited
from . import kts, melee, table, tom
from .model import (
    COLUMN_ROLES,
    FORMAT_NAMES,
    FORMATS,
    MAX_REJECTED,
    FileMatch,
    FilePlayer,
    Format,
    NeedsMapping,
    Rejected,
    TournamentFile,
    UnreadableFile,
    Where,
    finish,
)

MAX_FILE_BYTES = 16 * 1024 * 1024


def detect(data: bytes) -> Format:
    """Which software wrote these bytes, from the content alone (never the file name)."""
    if tom.looks_like(data):
        return "tom"
    if kts.looks_like(data):
        return "kts"
    if melee.looks_like(data):
        return "melee"
    return "csv"


def read_tournament_file(data: bytes, *, mapping: dict[int, str] | None = None) -> TournamentFile:
    """The file's players and matches, checked (`finish`); bad entries are in `.rejected` with their place (the first
    MAX_REJECTED, the rest counted in `.rejected_more`).

    Raises UnreadableFile (one plain sentence) when the file as a whole is not understood, and NeedsMapping when a
    spreadsheet's headers must be mapped by the organizer first (`mapping`: column index → one of COLUMN_ROLES).
    The file is read in a limited child process (judgeapp.sandbox): a reader that runs out of time or memory, or
    crashes, is an UnreadableFile too, and the caller's process carries on."""
    try:
        return run_limited(_read, data, mapping=mapping)
    except ParseRefused as refused:
        raise UnreadableFile(str(refused)) from None


def _read(data: bytes, *, mapping: dict[int, str] | None = None) -> TournamentFile:
    if not data.strip():
        raise UnreadableFile("The file is empty.")
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFile(f"The file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB.")
    fmt = detect(data)
    if fmt == "tom":
        return tom.read(data)
    if fmt == "kts":
        return kts.read(data)
    if fmt == "melee":
        return melee.read(data)
    return table.read(data, mapping=mapping)


__all__ = [
    "COLUMN_ROLES",
    "FORMATS",
    "FORMAT_NAMES",
    "MAX_REJECTED",
    "FileMatch",
    "FilePlayer",
    "Format",
    "NeedsMapping",
    "Rejected",
    "TournamentFile",
    "UnreadableFile",
    "Where",
    "detect",
    "finish",
    "read_tournament_file",
]
