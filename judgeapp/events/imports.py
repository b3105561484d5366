"""One import for every tournament file: the upload kept as it came, then its players and pairings applied to an
event, idempotently and round by round.

The CLI (`flask import-tournament`) calls `receive` then `apply` inline; the players page calls `receive` then
`submit`, and the job worker reads and applies the file (the "import" job below, with its progress: rows read,
players written, batches), so no request reads or writes a large file. The file is read by the pure
`judgeapp.imports`. Applying is incremental: players are matched by player ID (or by exact name where the file
has no IDs), a round already imported the same is left alone, a new round is added, and a round whose pairings
changed is replaced only when the organizer asked for exactly that round (`replace_rounds`), after being shown the
incidents already logged in it. Large files are written in batches (`end_batch` commits between them), so judges of
other events keep saving while a big file imports.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .. import audit, jobs
from ..imports import (
    COLUMN_ROLES,
    FORMAT_NAMES,
    MAX_REJECTED,
    FilePlayer,
    NeedsMapping,
    TournamentFile,
    UnreadableFile,
    read_tournament_file,
)
from ..imports.model import FileDivision, check_tables
from ..lifecycles import TOURNAMENT_IMPORT, IllegalTransition, ImportState
from ..models import (
    Division,
    Event,
    Incident,
    IncidentStatus,
    Job,
    Pairing,
    Player,
    Round,
    TournamentImport,
    User,
    utcnow,
)
from ..records import lock_event
from ..texts import gettext as _

__all__ = [
    "COLUMN_ROLES",
    "FORMAT_NAMES",
    "ImportOutcome",
    "ImportState",
    "NeedsMapping",
    "RoundChange",
    "UnreadableFile",
    "apply",
    "discard",
    "pending_uploads",
    "read",
    "read_tournament_file",
    "receive",
    "stored_mapping",
]

BATCH_ROWS = 250  # players or seats written per transaction (the app sets JUDGEAPP_IMPORT_BATCH_ROWS)


@dataclass
class RoundChange:
    """A round of one division the file pairs differently from the pairings already imported: waits for the
    organizer."""

    round: int
    tables: list[int]  # the tables whose players differ (a bye counts as table 0)
    incidents: list[tuple[int, int | None, str]]  # (number, table, subject) of incidents already logged in the round
    division_id: int | None = None
    division: str = ""  # its name ("" in an event of one division)

    @property
    def key(self) -> str:
        """How the organizer asks for this round to be replaced: "division id:round" (see `replace_keys`)."""
        return f"{self.division_id}:{self.round}" if self.division_id is not None else str(self.round)


def replace_keys(wanted: Collection[int | str], divisions: list[Division]) -> set[tuple[int | None, int]]:
    """The rounds to replace as (division id or None for every division, round number): from a round number (of
    every division: the CLI's --replace-round 5, or an event of one division), "division id:round" (the page's
    ticks) or "division name:round" (the CLI's --replace-round Masters:5). Anything else is ignored."""
    by_name = {d.name.casefold(): d.id for d in divisions}
    ids = {d.id for d in divisions}
    out: set[tuple[int | None, int]] = set()
    for item in wanted:
        text = str(item).strip()
        where, sep, number = text.rpartition(":")
        if not (number.isascii() and number.isdigit()):
            continue
        if not sep:
            out.add((None, int(number)))
        elif where.isascii() and where.isdigit() and int(where) in ids:
            out.add((int(where), int(number)))
        elif where.strip().casefold() in by_name:
            out.add((by_name[where.strip().casefold()], int(number)))
    return out


@dataclass
class ImportOutcome:
    upload: TournamentImport
    file: TournamentFile
    new_players: int = 0
    updated_players: int = 0
    rounds_added: list[int] = field(default_factory=list)
    rounds_unchanged: list[int] = field(default_factory=list)
    rounds_replaced: list[int] = field(default_factory=list)
    changed: list[RoundChange] = field(default_factory=list)  # not applied: the organizer confirms each
    rounds_raised_to: int | None = None  # the event's number of rounds, raised to the file's
    batches: int = 0
    player_rejects: list[dict[str, Any]] = field(default_factory=list)  # file players this event cannot take
    division_ids: dict[str, int] = field(default_factory=dict)  # the file's division key -> the event's division

    def report(self) -> dict[str, Any]:
        """The summary the CLI prints and the page shows: the file's counts, then what changed at the event."""
        summary = self.file.summary()
        rejected = sorted(summary["rejected"] + self.player_rejects, key=lambda r: (r.get("line", 0), r.get("row", 0)))
        summary["rejected"] = rejected[:MAX_REJECTED]  # the first MAX_REJECTED kept, the rest counted
        summary["rejected_more"] = summary.get("rejected_more", 0) + max(0, len(rejected) - MAX_REJECTED)
        summary["players"] -= len(self.player_rejects)
        for entry in summary["divisions"]:  # the event's division ids, where applied
            entry["id"] = self.division_ids.get(entry["id"], entry["id"])
        return {
            **summary,
            "event": {
                "new_players": self.new_players,
                "updated_players": self.updated_players,
                "rounds_added": self.rounds_added,
                "rounds_unchanged": self.rounds_unchanged,
                "rounds_replaced": self.rounds_replaced,
                "rounds_to_confirm": [
                    {
                        "round": c.round,
                        "division_id": c.division_id,
                        "division": c.division,
                        "key": c.key,
                        "tables": c.tables,
                        "incidents": [n for n, _, _ in c.incidents],
                    }
                    for c in self.changed
                ],
                "rounds_of_event": self.rounds_raised_to,
            },
        }


def receive(session: Session, *, actor: User, event: Event, data: bytes, filename: str = "") -> TournamentImport:
    """Keep an uploaded file as it came (pending until applied), with who sent it and its SHA-256."""
    upload = TournamentImport(
        event_id=event.id,
        uploaded_by_id=actor.id,
        filename="".join(c for c in (filename or "") if c.isprintable())[-255:],  # no NUL for PostgreSQL
        sha256=hashlib.sha256(data).hexdigest(),
        content=data,
        status=ImportState.PENDING,
    )
    session.add(upload)
    session.flush()
    audit.record(
        session, actor, "import.upload", upload, event_id=event.id, filename=upload.filename, bytes=len(data),
        sha256=upload.sha256,
    )  # fmt: skip
    return upload


def stored_mapping(upload: TournamentImport) -> dict[int, str] | None:
    """The columns of a spreadsheet as the organizer mapped them when it was first applied."""
    return {int(k): v for k, v in upload.mapping.items()} if upload.mapping else None


def read(upload: TournamentImport, mapping: dict[int, str] | None = None) -> TournamentFile:
    """The upload read as a tournament file (UnreadableFile, NeedsMapping as `read_tournament_file`)."""
    return read_tournament_file(upload.content, mapping=mapping or stored_mapping(upload))


def apply(
    session: Session,
    *,
    actor: User,
    event: Event,
    upload: TournamentImport,
    mapping: dict[int, str] | None = None,
    replace_rounds: Collection[int | str] = (),
    batch_rows: int = BATCH_ROWS,
    end_batch: Callable[[], None] | None = None,
    file: TournamentFile | None = None,
    progress: Callable[[ImportOutcome], None] | None = None,
) -> ImportOutcome:
    """Apply an uploaded file to its event; raises UnreadableFile / NeedsMapping (nothing written) when it cannot be
    read. The upload stays pending while changed rounds wait for confirmation, else it is applied.

    `file`: the upload already read (with `mapping`) by the caller outside any transaction. Reading a large file
    takes seconds, and on SQLite a request's transaction holds the one write lock from its first statement.
    `progress(outcome)`: called after each batch, before `end_batch` (the job reports its counts there).
    `replace_rounds`: the changed rounds to replace, as `replace_keys` reads them."""
    if file is None:
        file = read(upload, mapping)
    TOURNAMENT_IMPORT.move(upload.status, "apply")
    if mapping is not None:
        upload.mapping = {str(k): v for k, v in mapping.items()}
    upload.format = file.format
    if event.tables_across_divisions:
        check_tables(file, across=True)  # the venue numbers its tables across divisions
    outcome = ImportOutcome(upload, file)
    event_id, upload_id = event.id, upload.id
    outcome.division_ids = _apply_divisions(session, actor, event, file)
    replace = replace_keys(replace_rounds, _divisions_of(session, event_id))
    between: Callable[[], None] | None = end_batch
    if progress is not None:

        def between() -> None:
            progress(outcome)
            if end_batch is not None:
                end_batch()

    ids = _apply_players(session, actor, event, file, outcome, batch_rows, between)
    _apply_rounds(session, actor, event, file, ids, replace, outcome, batch_rows, between)
    lock_event(session, event)
    upload = session.get(TournamentImport, upload_id) or upload
    outcome.upload = upload
    rounds = max(file.rounds(), default=0)
    if rounds > event.rounds:
        audit.record(session, actor, "event.rounds", event, event_id=event_id, before=event.rounds, after=rounds,
                     because="import")  # fmt: skip
        event.rounds = outcome.rounds_raised_to = rounds
    _supersede_older(session, actor, event_id, upload_id)
    report = outcome.report()
    upload.summary = report
    if not outcome.changed:
        upload.status, upload.settled_at = ImportState.APPLIED, utcnow()
    audit.record(
        session,
        actor,
        "import.apply",
        upload,
        event_id=event_id,
        format=file.format,
        players=report["players"],
        rounds=report["rounds"],
        pairings=report["pairings"],
        byes=report["byes"],
        rejected=len(report["rejected"]) + report["rejected_more"],
        **report["event"],
    )
    return outcome


def discard(session: Session, *, actor: User, event: Event, upload: TournamentImport, why: str = "") -> None:
    """A pending file not to apply (the rest of): the organizer said so, or it could not be read (`why`). Kept,
    marked discarded."""
    upload.status = TOURNAMENT_IMPORT.move(upload.status, "discard")  # type: ignore[assignment]
    upload.settled_at = utcnow()
    audit.record(session, actor, "import.discard", upload, event_id=event.id, because=why or "the organizer chose")


def _supersede_older(session: Session, actor: User, event_id: int, upload_id: int) -> None:
    """Files uploaded before this one and still waiting are discarded: confirming an older file's changed round
    after a newer file was applied would put older pairings over newer ones."""
    older = session.scalars(
        select(TournamentImport).where(
            TournamentImport.event_id == event_id,
            TournamentImport.id < upload_id,
            TournamentImport.status == ImportState.PENDING,
        )
    )
    for upload in older:
        upload.status, upload.settled_at = ImportState.DISCARDED, utcnow()
        audit.record(session, actor, "import.discard", upload, event_id=event_id, because=f"file {upload_id} is newer")


# ---- the import as a job ---------------------------------------------------------------------------------------------


def subject(upload: TournamentImport | int) -> str:
    """The jobs' subject for an upload: its latest job is `jobs.latest(session, subject(upload))`."""
    return f"import:{upload if isinstance(upload, int) else upload.id}"


def submit(
    session: Session,
    *,
    actor: User,
    event: Event,
    upload: TournamentImport,
    mapping: dict[int, str] | None = None,
    replace_rounds: Collection[int | str] = (),
) -> Job:
    """Apply a kept upload off the request: an "import" job, queued when the session commits. Refused
    (IllegalTransition, 409) when the upload was already applied or discarded, so a resent form changes nothing."""
    TOURNAMENT_IMPORT.move(upload.status, "apply")
    payload = {
        "upload_id": upload.id,
        "mapping": {str(k): v for k, v in mapping.items()} if mapping else None,
        "replace_rounds": sorted(str(r) for r in replace_rounds),
    }
    return jobs.submit(session, "import", actor=actor, event=event, payload=payload, subject=subject(upload))


def import_running(session: Session, event: Event) -> Job | None:
    """The event's import job still waiting or running: one file at a time per event (two at once would match the
    same new players twice)."""
    return jobs.running_for(session, event.id, "import")


@jobs.task("import", counting="players_written", list_limit=MAX_REJECTED)  # the report keeps 200 rejections
def _import_job(job: Job, progress: jobs.Progress) -> dict[str, Any]:
    """Read the kept upload (no transaction open), then apply it in batches, each batch's commit carrying the
    job's counts. Stops at "needs the organizer" (columns to name, rounds to confirm): the job page asks."""
    import time

    from flask import current_app

    from ..extensions import db

    session: Any = db.session
    upload = session.get(TournamentImport, job.payload["upload_id"])
    event, actor = session.get(Event, job.event_id), job.actor
    if upload is None or event is None or actor is None:
        raise jobs.JobError(_("The uploaded file of this job is not there."))
    upload_id, data = upload.id, upload.content
    mapping = {int(k): v for k, v in (job.payload.get("mapping") or {}).items()} or stored_mapping(upload)
    replace = set(job.payload.get("replace_rounds") or ())
    progress.update(0, None, counting="rows_read", rows_read=0, players_written=0, batches=0)  # ends the transaction
    try:
        file = read_tournament_file(data, mapping=mapping)
    except NeedsMapping as err:
        return {
            "upload_id": upload_id,
            "needs": "mapping",
            "problem": str(err),
            "headers": list(err.headers),
            "sample": [list(row) for row in err.sample],
            "guess": {str(k): v for k, v in err.mapping.items()},
        }
    except UnreadableFile as err:
        upload, event = session.get(TournamentImport, upload_id), session.get(Event, job.event_id)
        discard(session, actor=actor, event=event, upload=upload, why=str(err))
        session.commit()
        raise jobs.JobError(str(err)) from err
    rows = len(file.players) + len(file.matches)
    players = len(file.players)
    batch_rows = int(current_app.config["JUDGEAPP_IMPORT_BATCH_ROWS"])
    pause = current_app.config["JUDGEAPP_IMPORT_PAUSE_MS"] / 1000 if db.engine.dialect.name == "sqlite" else 0

    def report(outcome: ImportOutcome) -> None:
        written = min(outcome.batches * batch_rows, players)
        rounds = len(outcome.rounds_added) + len(outcome.rounds_replaced)
        progress.update(written, players, rows_read=rows, players_written=written, batches=outcome.batches,
                        rounds_written=rounds)  # fmt: skip
        if pause:
            time.sleep(pause)  # SQLite: the lock is free a moment for the requests waiting for it

    progress.update(0, players, counting="players_written", rows_read=rows)
    upload, event = session.get(TournamentImport, upload_id), session.get(Event, job.event_id)
    try:
        outcome = apply(
            session,
            actor=actor,
            event=event,
            upload=upload,
            mapping=mapping,
            replace_rounds=replace,
            batch_rows=batch_rows,
            file=file,
            progress=report,
        )
    except IllegalTransition as err:  # applied or discarded meanwhile (a newer file, the organizer)
        raise jobs.JobError(err.why) from err
    summary = outcome.report()
    changed = [
        {
            "round": c.round,
            "division": c.division,
            "key": c.key,
            "tables": c.tables,
            "incidents": [list(i) for i in c.incidents[:50]],
        }
        for c in outcome.changed
    ]
    session.commit()
    rounds = len(outcome.rounds_added) + len(outcome.rounds_replaced)
    progress.update(players, players, rows_read=rows, players_written=players, batches=outcome.batches,
                    rounds_written=rounds)  # fmt: skip
    return {
        "upload_id": upload_id,
        "needs": "confirmation" if changed else None,
        "report": {**summary, "rejected_total": len(summary["rejected"]) + summary.get("rejected_more", 0)},
        "changed": changed,
    }


def pending_uploads(session: Session, event: Event) -> list[TournamentImport]:
    """Files applied but for rounds that wait for the organizer's confirmation (or columns still to map)."""
    return list(
        session.scalars(
            select(TournamentImport)
            .where(TournamentImport.event_id == event.id, TournamentImport.status == ImportState.PENDING)
            .order_by(TournamentImport.id)
        )
    )


def pending_upload(session: Session, event: Event, upload_id: int | None) -> TournamentImport | None:
    if upload_id is None:
        return None
    return session.scalar(
        select(TournamentImport).where(TournamentImport.id == upload_id, TournamentImport.event_id == event.id)
    )


# ---- divisions -------------------------------------------------------------------------------------------------------


def _divisions_of(session: Session, event_id: int) -> list[Division]:
    return list(
        session.scalars(select(Division).where(Division.event_id == event_id).order_by(Division.position, Division.id))
    )


def _apply_divisions(session: Session, actor: User, event: Event, file: TournamentFile) -> dict[str, int]:
    """The file's division key -> the event's division, by name. A file of one division fills the event's first; a
    file of several adds the divisions the event lacks, and names the event's one division when nothing is in it yet
    (the event set up before the file, or a save made before pairing)."""
    event_id = event.id
    known = _divisions_of(session, event_id)
    if not known:
        known = [Division(event_id=event_id, name="", position=0)]
        session.add(known[0])
        session.flush()
    if len(file.divisions) == 1 and (len(known) == 1 or not file.divisions[0].name):
        _fill_division(session, actor, known[0], file.divisions[0])
        return {file.divisions[0].key: known[0].id}
    by_name = {d.name: d for d in known}
    out: dict[str, int] = {}
    for fd in sorted(file.divisions, key=lambda d: d.order):
        division = by_name.get(fd.name)
        if division is None and len(known) == 1 and known[0].name == "" and _is_empty(session, known[0]):
            division = known[0]  # the event's one division, unnamed and unused: it becomes the file's first
            audit.record(session, actor, "division.rename", division, event_id=event_id, before="", after=fd.name,
                         because="import")  # fmt: skip
            division.name = fd.name
            by_name[fd.name] = division
            del by_name[""]
        elif division is None:
            division = Division(
                event_id=event_id, name=fd.name, position=max((d.position for d in known), default=-1) + 1
            )
            session.add(division)
            session.flush()
            known.append(division)
            by_name[fd.name] = division
            audit.record(session, actor, "division.add", division, event_id=event_id, name=fd.name, because="import")
        _fill_division(session, actor, division, fd)
        out[fd.key] = division.id
    return out


def _is_empty(session: Session, division: Division) -> bool:
    """No round started and no pairings in it: nothing yet hangs on which division it is."""
    rounds = session.scalar(select(Round.id).where(Round.division_id == division.id).limit(1))
    pairings = session.scalar(select(Pairing.id).where(Pairing.division_id == division.id).limit(1))
    return rounds is None and pairings is None


def _apply_days(session: Session, actor: User, division: Division, fd: FileDivision) -> None:
    """The day the file dates each of the division's started rounds on (TOM's `<starttime>`), audited as round.day as
    the event page's "Set the day" is; kept only where the division's days still run 1, 2… in its rounds' order (a
    file dating some rounds and not those before them leaves the days as they are). A round started after the import
    continues its division's day as any round does, until the next import dates it."""
    if not fd.round_days:
        return
    rounds = list(session.scalars(select(Round).where(Round.division_id == division.id).order_by(Round.number)))
    days = [fd.round_days.get(r.number, r.day) for r in rounds]
    if not days or days[0] != 1 or any(b not in (a, a + 1) for a, b in pairwise(days)):
        return
    for rnd, day in zip(rounds, days, strict=True):
        if rnd.day != day:
            audit.record(session, actor, "round.day", rnd, event_id=division.event_id, number=rnd.number,
                         changes={"day": [rnd.day, day]}, because="import")  # fmt: skip
            rnd.day = day


def _fill_division(session: Session, actor: User, division: Division, fd: FileDivision) -> None:
    """What the file says of a division's tables, top cut and its rounds' days, kept (audited when it changes)."""
    _apply_days(session, actor, division, fd)
    changes: dict[str, Any] = {
        name: value
        for name, value in (
            ("starting_table", fd.starting_table),
            ("top_cut_from", fd.top_cut_from),
            ("top_cut_size", fd.top_cut_size),
        )
        if value is not None and getattr(division, name) != value
    }
    if changes:
        for name, value in changes.items():
            setattr(division, name, value)
        audit.record(session, actor, "division.update", division, event_id=division.event_id, because="import",
                     **changes)  # fmt: skip


# ---- players ---------------------------------------------------------------------------------------------------------


@dataclass
class _Known:
    """A player already at the event, as far as matching and filling in need it (read once per import)."""

    id: int
    name: str
    code: str | None
    reading: str | None
    country: str | None
    team: str | None
    platform_ids: dict[str, str]
    handle: str | None = None
    division_id: int | None = None


def _apply_players(
    session: Session,
    actor: User,
    event: Event,
    file: TournamentFile,
    outcome: ImportOutcome,
    batch_rows: int,
    end_batch: Callable[[], None] | None,
) -> dict[str, int]:
    """File player key → player id at the event, adding the new players and filling in what the file adds to known
    ones (reading, handle, country, other IDs; an ID for a player registered by name only). The event's players are read
    once, as plain values: a batch's commit expires ORM objects, and reloading them per batch would make a large
    file's import quadratic."""
    event_id = event.id
    ids: dict[str, int] = {}
    columns = (Player.id, Player.name, Player.player_code, Player.reading, Player.country, Player.team)
    known = [
        _Known(pid, name, code, reading, country, team, dict(extra or {}), handle, division_id)
        for pid, name, code, reading, country, team, extra, handle, division_id in session.execute(
            select(*columns, Player.platform_ids, Player.handle, Player.division_id)
            .where(Player.event_id == event_id)
            .order_by(Player.id)
        )
    ]
    divisions = outcome.division_ids
    several = len(file.divisions) > 1
    paired = (
        set(
            session.scalars(
                select(Pairing.player_id).where(Pairing.event_id == event_id, Pairing.replaced_at.is_(None))
            )
        )
        if several
        else set()
    )
    # a record merged into another (the same person, judgeapp/events/player_records.py): its ID is the other's
    merged_into: dict[int, int] = {
        pid: into
        for pid, into in session.execute(
            select(Player.id, Player.merged_into_id).where(
                Player.event_id == event_id, Player.merged_into_id.is_not(None)
            )
        )
        if into is not None
    }
    by_id = {k.id: k for k in known}

    def kept(pid: int) -> _Known:
        seen = {pid}
        while pid in merged_into and merged_into[pid] not in seen:  # A into B, then B into C: A's ID is C's
            pid = merged_into[pid]
            seen.add(pid)
        return by_id[pid]

    by_code = {k.code: kept(k.id) for k in known if k.code}
    by_name: dict[str, list[_Known]] = {}
    for k in known:
        if k.id not in merged_into:
            by_name.setdefault(k.name, []).append(k)
    for start in range(0, len(file.players), batch_rows) or [0]:
        batch = file.players[start : start + batch_rows]
        lock_event(session, event)
        added: list[tuple[FilePlayer, Player]] = []
        for fp in batch:
            match = by_code.get(fp.code) if fp.code is not None else None
            if match is None:
                namesakes = by_name.get(fp.name, [])
                if fp.code is not None:
                    namesakes = [k for k in namesakes if k.code is None]  # registered by hand, without ID
                if len(namesakes) > 1:
                    outcome.player_rejects.append(
                        {
                            **fp.where.as_dict(),
                            "reason": _(
                                "%(count)s players at this event are named %(name)s; give player IDs in the file "
                                "to tell them apart",
                                count=len(namesakes),
                                name=fp.name,
                            ),
                        }
                    )
                    continue
                match = namesakes[0] if namesakes else None
            if match is None:
                player = Player(
                    event_id=event_id,
                    division_id=divisions[fp.division],
                    name=fp.name,
                    player_code=fp.code,
                    team=fp.team,
                    reading=fp.reading,
                    handle=fp.handle,
                    country=fp.country,
                    platform_ids=dict(fp.platform_ids),
                )
                added.append((fp, player))
                continue
            changes = _fill_in(match, fp)
            moved = divisions[fp.division]
            if several and match.division_id != moved and match.id not in paired:
                # a multi-division file says where a player plays; moved while no pairing seats them elsewhere
                changes["division_id"] = match.division_id = moved
            if match.code is not None:
                by_code.setdefault(match.code, match)
            if changes:
                row = session.get(Player, match.id)
                assert row is not None  # read above, in this event; players are never deleted
                for name, value in changes.items():
                    setattr(row, name, value)
                outcome.updated_players += 1
                audit.record(session, actor, "player.update", row, event_id=event_id, source="import", **changes)
            ids[fp.key] = match.id
        session.add_all(p for _, p in added)
        session.flush()
        for fp, player in added:
            ids[fp.key] = player.id
            k = _Known(
                player.id, fp.name, fp.code, fp.reading, fp.country, fp.team, dict(fp.platform_ids), fp.handle,
                player.division_id,
            )  # fmt: skip
            by_name.setdefault(k.name, []).append(k)
            if k.code is not None:
                by_code[k.code] = k
        session.add_all(
            audit.entry_for(
                actor,
                "player.add",
                player,
                event_id=event_id,
                name=fp.name,
                player_code=fp.code,
                team=fp.team,
                division_id=player.division_id,
                source=f"{fp.where.kind} {fp.where.number}",
            )
            for fp, player in added
        )
        outcome.new_players += len(added)
        outcome.batches += 1
        if end_batch is not None and start + batch_rows < len(file.players):
            end_batch()
    return ids


def _fill_in(known: _Known, fp: FilePlayer) -> dict[str, Any]:
    """What the file adds to a known player (never overwriting what is there): the fields to set, also kept in
    `known` so that the same player later in the file changes nothing more."""
    changes: dict[str, Any] = {}
    for name, attr in (
        ("player_code", "code"),
        ("reading", "reading"),
        ("handle", "handle"),
        ("country", "country"),
        ("team", "team"),
    ):
        value = getattr(fp, attr)
        if value is not None and getattr(known, attr) is None:
            setattr(known, attr, value)
            changes[name] = value
    merged = {**fp.platform_ids, **known.platform_ids}
    if merged != known.platform_ids:
        known.platform_ids = merged
        changes["platform_ids"] = merged
    return changes


# ---- pairings --------------------------------------------------------------------------------------------------------


def _apply_rounds(
    session: Session,
    actor: User,
    event: Event,
    file: TournamentFile,
    ids: dict[str, int],
    replace_rounds: set[tuple[int | None, int]],
    outcome: ImportOutcome,
    batch_rows: int,
    end_batch: Callable[[], None] | None,
) -> None:
    """Each division's rounds, one at a time: added when new, left alone when the same, replaced when changed and
    the organizer asked for that round of that division, else kept waiting for them (`outcome.changed`)."""
    event_id, upload_id = event.id, outcome.upload.id
    names = {d.id: d.name for d in _divisions_of(session, event_id)}
    several = len(names) > 1
    wanted: dict[tuple[int, int], dict[int, tuple[int | None, int]]] = {}  # (division, round) -> player -> table, seat
    for match in file.matches:
        if not all(key in ids for key in match.players):
            continue  # a player of this match was refused above
        division = outcome.division_ids[match.division]
        for seat, key in enumerate(match.players, start=1):
            wanted.setdefault((division, match.round), {})[ids[key]] = (match.table, seat)
    seats_written = 0
    for division, number in sorted(wanted, key=lambda k: (k[1], k[0])):
        lock_event(session, event)
        stored = {
            pairing.player_id: pairing
            for pairing in session.scalars(
                select(Pairing).where(
                    Pairing.event_id == event_id,
                    Pairing.division_id == division,
                    Pairing.round_number == number,
                    Pairing.replaced_at.is_(None),
                )
            )
        }
        seating = wanted[(division, number)]
        tables = {pid: table for pid, (table, _seat) in seating.items()}
        done = (division, number)
        if stored and {pid: p.table_number for pid, p in stored.items()} == tables:
            outcome.rounds_unchanged.append(number)
            continue
        if stored and done not in replace_rounds and (None, number) not in replace_rounds:
            change = _change(session, event_id, division, number, stored, tables)
            change.division_id, change.division = (division, names.get(division, "")) if several else (None, "")
            outcome.changed.append(change)
            continue
        now = utcnow()
        for pairing in stored.values():
            pairing.replaced_at, pairing.replaced_by_import_id = now, upload_id
        session.flush()
        session.add_all(
            Pairing(
                event_id=event_id,
                division_id=division,
                round_number=number,
                table_number=table,
                seat=seat,
                player_id=pid,
                import_id=upload_id,
            )
            for pid, (table, seat) in seating.items()
        )
        action = "pairings.replace" if stored else "pairings.import"
        audit.record(
            session,
            actor,
            action,
            event,
            event_id=event_id,
            division_id=division,
            round=number,
            import_id=upload_id,
            seats=sum(1 for t in tables.values() if t is not None),
            byes=sum(1 for t in tables.values() if t is None),
            replaced=sorted([p.table_number or 0, p.player_id] for p in stored.values()),
        )
        (outcome.rounds_replaced if stored else outcome.rounds_added).append(number)
        seats_written += len(seating)
        if end_batch is not None and seats_written >= batch_rows:
            end_batch()
            seats_written = 0


def _change(
    session: Session,
    event_id: int,
    division_id: int,
    number: int,
    stored: dict[int, Pairing],
    seating: dict[int, int | None],
) -> RoundChange:
    """Which tables of a division's round `number` the file seats differently, and the incidents already logged in
    that round."""
    tables: set[int] = set()
    for pid in set(stored) | set(seating):
        before = stored[pid].table_number if pid in stored else -1
        after = seating.get(pid, -1)
        if before != after:
            tables |= {t or 0 for t in (before, after) if t != -1}
    incidents = session.execute(
        select(Incident.number, Incident.table_number, Incident.subject_name)
        .join(Round, Round.id == Incident.round_id)
        .where(
            Incident.event_id == event_id,
            Round.division_id == division_id,
            Round.number == number,
            Incident.status != IncidentStatus.VOID,
        )
        .order_by(Incident.number)
    )
    return RoundChange(number, sorted(tables), [(n, t, s) for n, t, s in incidents])
