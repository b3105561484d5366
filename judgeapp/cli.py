"""Command line: thin wrappers over the same services the web uses."""

from __future__ import annotations

import json
import re
import sys
from datetime import date

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext
from sqlalchemy import select

from .demo import DEMO_JA_EVENT, english_demo, japanese_demo
from .errors import EventClosed, FieldError
from .extensions import current_catalog, db
from .infractions import CatalogError, Prior, UnknownChoice, load_catalog, suggest
from .infractions.search import rank as finder_rank
from .texts import gettext as _
from .texts import ngettext

DEMO_PASSWORD = "judgeapp-demo"


def register(app: Flask) -> None:
    app.cli.add_command(init_db)
    app.cli.add_command(demo)
    app.cli.add_command(users)
    app.cli.add_command(catalog)
    app.cli.add_command(penalty)
    app.cli.add_command(backup)
    app.cli.add_command(import_tournament)
    app.cli.add_command(jobs_group)


jobs_group = AppGroup("jobs", help="The job worker: imports, renders and mail run off the request.")


@jobs_group.command("worker")
@click.option("--workers", type=int, help="Worker processes (default JOBS_WORKERS).")
@with_appcontext
def jobs_worker(workers):
    """Run the job worker until Ctrl-C or SIGTERM (make run and make serve start one beside the server)."""
    from . import jobs

    app = current_app._get_current_object()
    db.session.remove()
    db.engine.dispose()
    jobs.run_worker(app, workers=workers)


@click.command("import-tournament")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--event", "event_name", required=True, help="The event's name; created when no event has it.")
@click.option("--organizer", "organizer_email", help="Who owns a new event (default: the first organizer account).")
@click.option("--policy", "policy_id", default="bushiroad-afr", show_default=True, help="A new event's policy.")
@click.option("--level", default=1, show_default=True, help="A new event's enforcement level.")
@click.option(
    "--replace-round",
    "replace_rounds",
    multiple=True,
    help="Replace this round's pairings: N (every division's round N) or DIVISION:N (Masters:5).",
)
@click.option(
    "--column",
    "columns",
    multiple=True,
    metavar="ROLE=HEADER",
    help="A spreadsheet's column HEADER holds ROLE (name, code, first_name, last_name, reading, handle, bushiroad, "
    "country, team, round, table, name_2, code_2); repeat for each column the file does not name plainly.",
)
@with_appcontext
def import_tournament(file, event_name, organizer_email, policy_id, level, replace_rounds, columns):
    """Import players and pairings from FILE (TOM .tdf, KTS .Tournament, Melee CSV, or any CSV/TSV).

    Prints the import summary as JSON. Exit status 0 when the file was understood, even with rejected rows; 1 with
    a one-line reason when it was not. A round whose pairings changed is replaced only with --replace-round N. A
    spreadsheet whose columns are not all plain (an unknown ID header, swapped name columns) is read with
    --column ROLE=HEADER, as the players page's mapping step would."""
    from pathlib import Path

    from .events import imports
    from .events import services as events
    from .imports import detect as detect_format
    from .imports.table import mapping_of_headers
    from .models import Event, User

    def fail(message: str):
        db.session.rollback()
        click.echo(_("import-tournament: %(problem)s", problem=message), err=True)
        sys.exit(1)

    event_name = " ".join(event_name.split())
    if not 1 <= len(event_name) <= 200:
        fail(_("--event: give the event's name (1 to 200 characters)"))
    data = Path(file).read_bytes()
    mapping = None
    if columns:
        chosen: dict[str, str] = {}
        for given in columns:
            role, equals, header = given.partition("=")
            if not equals or not role.strip() or not header.strip():
                fail(_("--column: give ROLE=HEADER, e.g. code=WSCode (not %(given)s)", given=given))
            chosen[role.strip()] = header.strip()
        if detect_format(data) != "csv":
            fail(_("--column: only a spreadsheet's columns are named; this file is read without them"))
        try:
            mapping = mapping_of_headers(data, chosen)
        except imports.UnreadableFile as err:
            fail(f"--column: {err}")
    event = db.session.scalar(select(Event).where(Event.name == event_name).order_by(Event.id))
    if event is None:
        query = select(User).where(User.is_organizer.is_(True)).order_by(User.id)
        if organizer_email:
            query = select(User).where(User.email == organizer_email.strip().lower(), User.is_organizer.is_(True))
        organizer = db.session.scalar(query)
        if organizer is None:
            fail(
                _("no organizer account %(email)s", email=organizer_email)
                if organizer_email
                else _("no organizer account exists")
            )
        try:
            rounds = max(imports.read_tournament_file(data, mapping=mapping).rounds(), default=0)
        except imports.NeedsMapping as err:
            fail(
                _(
                    "%(problem)s Import it on the event's players page, where its columns can be mapped, or name them "
                    "here with --column ROLE=HEADER.",
                    problem=err,
                )
            )
        except imports.UnreadableFile as err:
            fail(str(err))
        try:
            event = events.create_event(
                db.session,
                current_catalog(),
                organizer=organizer,
                data=events.EventData(
                    name=event_name,
                    date=date.today(),
                    venue="",
                    policy_id=policy_id,
                    level=level,
                    rounds=max(rounds, 1),
                    round_minutes=50,
                ),
            )
        except FieldError as err:
            fail(f"--{err.field.replace('_id', '')}: {err.message}")
    else:
        organizer = event.organizer
    upload = imports.receive(db.session, actor=organizer, event=event, data=data, filename=Path(file).name)
    try:
        outcome = imports.apply(
            db.session, actor=organizer, event=event, upload=upload, replace_rounds=replace_rounds, mapping=mapping,
            batch_rows=current_app.config["JUDGEAPP_IMPORT_BATCH_ROWS"], end_batch=db.session.commit,
        )  # fmt: skip
    except imports.NeedsMapping as err:
        fail(
            _(
                "%(problem)s Import it on the event's players page, where its columns can be mapped, or name them "
                "here with --column ROLE=HEADER.",
                problem=err,
            )
        )
    except imports.UnreadableFile as err:
        fail(str(err))
    except EventClosed:
        fail(_("the event %(event)s is closed; reopen it first", event=event_name))
    db.session.commit()
    click.echo(json.dumps(outcome.report(), ensure_ascii=False, indent=2))


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
@with_appcontext
def backup(path):
    """Write a consistent copy of the live SQLite database to PATH (safe while judges keep logging)."""
    from pathlib import Path

    from .backup import BackupError, backup_sqlite, sqlite_path

    try:
        result = backup_sqlite(sqlite_path(db.engine.url), Path(path))
    except BackupError as err:
        click.echo(_("Backup failed: %(problem)s", problem=err), err=True)
        sys.exit(1)
    click.echo(
        _(
            "Backed up to %(path)s: %(bytes)s bytes, %(pages)s pages, integrity check %(check)s",
            path=result.path,
            bytes=f"{result.bytes:,}",
            pages=f"{result.pages:,}",
            check=result.integrity,
        )
    )


@click.command("init-db")
@with_appcontext
def init_db():
    """Bring the database to the latest schema (safe to run again)."""
    from flask_migrate import upgrade

    upgrade()
    click.echo(_("Database ready: %(url)s", url=db.engine.url.render_as_string(hide_password=True)))


users = AppGroup("users", help="Manage accounts.")


@users.command("create")
@click.option("--email", required=True)
@click.option("--name", required=True)
@click.option("--password", required=True)
@click.option("--organizer", is_flag=True, help="May create events.")
def users_create(email, name, password, organizer):
    """Create an account."""
    from .auth.services import create_user

    try:
        user = create_user(db.session, email=email, name=name, password=password, organizer=organizer)
    except FieldError as err:
        db.session.rollback()
        raise click.ClickException(f"{err.field}: {err.message}") from None
    db.session.commit()
    click.echo(
        _("Created %(email)s (organizer).", email=user.email)
        if organizer
        else _("Created %(email)s.", email=user.email)
    )


@users.command("reset-link")
@click.argument("email")
def users_reset_link(email):
    """Print a one-time link with which EMAIL's owner sets a new password (for the server's operator only)."""
    from .auth.emails import lifetime, new_link
    from .auth.services import user_by_email
    from .models import TokenPurpose

    user = user_by_email(db.session, email)
    if user is None:
        raise click.ClickException(_("No account uses %(email)s.", email=repr(email)))
    url = new_link(db.session, user, TokenPurpose.RESET)
    db.session.commit()
    minutes = int(lifetime(TokenPurpose.RESET).total_seconds() // 60)
    click.echo(
        ngettext(
            "One-time link for %(email)s (works once, for %(num)s minute; give it to them privately):",
            "One-time link for %(email)s (works once, for %(num)s minutes; give it to them privately):",
            minutes,
            email=user.email,
        )
    )
    click.echo(url)


@click.command("demo")
@with_appcontext
@click.option("--password", default=DEMO_PASSWORD, show_default=True, help="Password of every demo account.")
@click.option(
    "--sample-cases",
    is_flag=True,
    help="Also log a ruling under appeal and a disqualification under investigation, to show the head judge's screens.",
)
def demo(password, sample_cases):
    """Create the "Demo Open" event with demo accounts, 32 players and round 1's pairings, and the Japanese
    "デモ大会" with its own Japanese-speaking accounts (for trying the app only)."""
    from .models import Event

    english = db.session.scalar(select(Event).where(Event.name == "Demo Open")) is None
    japanese = db.session.scalar(select(Event).where(Event.name == DEMO_JA_EVENT)) is None
    if not english and not japanese:
        click.echo(_("The demo event already exists; nothing to do."))
        return
    if english:
        english_demo(password, sample_cases)
    if japanese:
        japanese_demo(password)


catalog = AppGroup("catalog", help="Check an infraction catalog file.")


@catalog.command("check")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
def catalog_check(path):
    """Validate a catalog file (default: the configured one); exit 1 when it has problems."""
    path = path or current_app.config["JUDGEAPP_CATALOG"]
    try:
        cat = load_catalog(path)
    except CatalogError as err:
        for problem in err.problems:
            click.echo(problem, err=True)
        click.echo(
            ngettext(
                "%(path)s: %(num)d problem; the catalog cannot be used.",
                "%(path)s: %(num)d problems; the catalog cannot be used.",
                len(err.problems),
                path=path,
            ),
            err=True,
        )
        sys.exit(1)
    for p in cat.policies.values():
        levels = ", ".join(lv.id or str(lv.number) for lv in p.levels)
        click.echo(
            _(
                "%(policy)s %(version)s: %(infractions)s infractions in %(sections)s sub-sections, levels %(levels)s, "
                "ranks %(ranks)s",
                policy=p.id,
                version=p.version,
                infractions=len(p.infractions),
                sections=len(p.subsections),
                levels=levels,
                ranks=" < ".join(r.id for r in p.ranks),
            )
        )


@catalog.command("search")
@click.option("--policy", "policy_id", required=True)
@click.option(
    "--lang", default="en", show_default=True, help="The language of the names shown: en or one the policy is named in."
)
@click.option("--level", default=None, help="Also show each infraction's default penalty at this level.")
@click.argument("query")
def catalog_search(policy_id, lang, level, query):
    """Print the infractions QUERY finds, best first, as a JSON list (code, name, score, kind, whole)."""
    try:
        pol = current_catalog().policy(policy_id)
        if lang != "en" and lang not in pol.languages:
            raise UnknownChoice("language", lang, ["en", *sorted(pol.languages)])
        number = pol.level(level).number if level is not None else None
    except UnknownChoice as err:
        click.echo(f"Error: {err}", err=True)
        sys.exit(2)
    found = []
    for hit in finder_rank(pol, query):
        inf = pol.infraction(hit.code)
        row = {"code": hit.code, "name": inf.name_in(lang), **hit.as_json()}
        if number is not None:
            default = inf.default_at(number) if inf.defaults is not None else None
            row["penalty"] = default.label(lang) if default else None
        found.append(row)
    click.echo(json.dumps(found, ensure_ascii=False, indent=1))


penalty = AppGroup("penalty", help="Ask the penalty engine.")


@penalty.command("suggest")
@click.option("--policy", "policy_id", required=True)
@click.option("--level", required=True, help="The level's number or the policy's own name for it (competitive).")
@click.option("--infraction", required=True)
@click.option(
    "--prior",
    multiple=True,
    metavar="CODE:RANK[:gGAME]",
    help="An earlier standing penalty of the player; with :gN, given in game N of this round (with --game).",
)
@click.option("--minutes-late", type=click.IntRange(min=0), help="For tardiness by minutes: how late the player was.")
@click.option("--game", type=click.IntRange(min=1), help="For rules counting per game: the game of this round's match.")
@click.option(
    "--related-to",
    metavar="CODE:RANK",
    help="The earlier penalty of the same round this error shares its cause with (one penalty for related errors).",
)
def penalty_suggest(policy_id, level, infraction, prior, minutes_late, game, related_to):
    """Print the suggested penalty as one JSON object."""
    cat = current_catalog()
    this_round = 1 if game is not None else None  # with --game, every prior marked :gN is of this round
    try:
        pol = cat.policy(policy_id)
        priors = []
        for n, item in enumerate(prior, start=1):
            code, sep, rest = item.partition(":")
            rank, _, in_game = rest.partition(":")
            if not sep or (in_game and not re.fullmatch(r"g[1-9][0-9]{0,2}", in_game)):
                raise click.UsageError(
                    f"--prior {item!r}: write CODE:RANK or CODE:RANK:gGAME, for example 3.3:caution:g1"
                )
            if in_game and game is None:
                raise click.UsageError(f"--prior {item!r}: a game is counted against --game, this incident's game")
            pol.infraction(code)
            pol.rank(rank)
            prior_game = int(in_game[1:]) if in_game else None
            priors.append(Prior(code, rank, ref=n, round=this_round if prior_game else None, game=prior_game))
        related = None
        if related_to is not None:
            code, sep, rank = related_to.partition(":")
            if not sep:
                raise click.UsageError(f"--related-to {related_to!r}: write CODE:RANK, for example 2.2:warning")
            if pol.related_errors is None:
                raise click.UsageError(f"--related-to: {pol.id} has no rule of one penalty for related errors")
            pol.infraction(code)
            pol.rank(rank)
            related = Prior(code, rank, ref=len(priors) + 1)
        result = suggest(
            pol,
            pol.level(level).number,
            infraction,
            priors,
            this_round=this_round,
            minutes_late=minutes_late,
            this_game=game,
            related_to=related,
        )
    except UnknownChoice as err:
        click.echo(f"Error: {err}", err=True)
        sys.exit(2)
    click.echo(json.dumps(result.as_dict(), ensure_ascii=False))
