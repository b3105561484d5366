"""Command line: thin wrappers over the same services the web uses."""

from __future__ import annotations

import json
import sys
from datetime import date

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from .errors import EventClosed, FieldError
from .extensions import current_catalog, db, event_policy
from .infractions import CatalogError, Prior, UnknownChoice, load_catalog, suggest
from .infractions.search import rank as finder_rank

DEMO_PASSWORD = "judgeapp-demo"
DEMO_PLAYERS = [
    "Haruto Sato",
    "Yui Suzuki",
    "Sota Takahashi",
    "Mei Tanaka",
    "Minato Watanabe",
    "Sakura Ito",
    "佐藤 陽翔",
    "鈴木 結衣",
    "Ji-ho Kim",
    "Seo-yeon Park",
    "Wei Chen",
    "Li Na Wang",
    "Nguyen Van An",
    "Tran Thi Mai",
    "Juan Pablo García",
    "María José López",
    "Liam O'Connor",
    "Aoife Byrne",
    "Lukas Müller",
    "Sophie Schneider",
    "Mateo Rossi",
    "Giulia Bianchi",
    "Noah Martin",
    "Chloé Dubois",
    "Oliver Smith",
    "Amelia Jones",
    "Ethan Brown",
    "Priya Sharma",
    "Arjun Patel",
    "Siti Nurhaliza",
    "Rizky Pratama",
    "Kwame Mensah",
]
# The Japanese demo ("デモ大会", the event's language Japanese): invented names with their readings, no real people.
DEMO_JA_EVENT = "デモ大会"
DEMO_JA_PLAYERS = [
    ("山田 太郎", "やまだ たろう"),
    ("佐々木 花", "ささき はな"),
    ("高橋 蓮", "たかはし れん"),
    ("伊藤 美咲", "いとう みさき"),
    ("渡辺 悠真", "わたなべ ゆうま"),
    ("中村 葵", "なかむら あおい"),
    ("小林 大翔", "こばやし ひろと"),
    ("加藤 結菜", "かとう ゆいな"),
]
DEMO_JA_ACCOUNTS = [  # email, name, reading, organizer
    ("organizer-ja@demo.test", "森 直子", "もり なおこ", True),
    ("head-ja@demo.test", "松本 健一", "まつもと けんいち", False),
    ("floor-ja@demo.test", "井上 さくら", "いのうえ さくら", False),
]


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
        _english_demo(password, sample_cases)
    if japanese:
        _japanese_demo(password)


def _english_demo(password, sample_cases):
    from .auth.services import create_user
    from .events import pairing_services, player_services, round_services, services, staff_services
    from .models import Role, User

    cat = current_catalog()
    people = {}
    for email, name, organizer in [
        ("organizer@demo.test", "Olivia Organizer", True),
        ("head@demo.test", "Hiro Head", False),
        ("floor1@demo.test", "Fatima Floor", False),
        ("floor2@demo.test", "Felix Floor", False),
    ]:
        user = db.session.scalar(select(User).where(User.email == email))
        people[email] = user or create_user(db.session, email=email, name=name, password=password, organizer=organizer)
    org = people["organizer@demo.test"]
    event = services.create_event(
        db.session,
        cat,
        organizer=org,
        data=services.EventData(
            name="Demo Open",
            date=date.today(),
            venue="Demo Convention Hall, Hall B",
            policy_id="bushiroad-afr",
            level=2,
            rounds=6,
            round_minutes=50,
            challenge_limit=2,
        ),
    )
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="head@demo.test", name="", role=Role.HEAD_JUDGE
    )
    for email in ("floor1@demo.test", "floor2@demo.test"):
        staff_services.assign_staff(db.session, actor=org, event=event, email=email, name="", role=Role.FLOOR_JUDGE)
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="head@demo.test", name="", role=Role.SCOREKEEPER
    )
    for n, name in enumerate(DEMO_PLAYERS, start=1):
        player_services.add_player(db.session, actor=org, event=event, name=name, player_code=f"DEMO-{n:03d}")
    round_services.start_round(db.session, actor=people["head@demo.test"], event=event)
    seating = "\n".join(f"{t},DEMO-{2 * t - 1:03d},DEMO-{2 * t:03d}" for t in range(1, len(DEMO_PLAYERS) // 2 + 1))
    pairing_services.import_pairings(
        db.session, actor=people["head@demo.test"], event=event, round_number=1, text=seating
    )
    if sample_cases:
        _sample_cases(event, people)
    from .calls import services as calls

    key = calls.call_key_of(db.session(), event, org)
    db.session.commit()
    click.echo(_("Demo event “Demo Open” created (for trying judgeapp only). Log in at http://127.0.0.1:5000 as:"))
    for email in people:
        click.echo(_("  %(email)s password: %(password)s", email=f"{email:<22}", password=password))
    table_link = f"http://127.0.0.1:5000/call/{event.id}/12/{calls.signature(key, event.id, 12)}"
    click.echo(_("A player's call from table 12 (open it in another browser, no account): %(link)s", link=table_link))


def _japanese_demo(password):
    """デモ大会: Bushiroad AFR at level 2 in Japanese, players with readings, round 1 seated; its organizer, head judge
    (also scorekeeper) and floor judge use judgeapp in Japanese."""
    from .auth.services import create_user
    from .events import pairing_services, player_services, round_services, services, staff_services
    from .models import Role, User

    people = {}
    for email, name, reading, organizer in DEMO_JA_ACCOUNTS:
        user = db.session.scalar(select(User).where(User.email == email))
        if user is None:
            user = create_user(db.session, email=email, name=name, password=password, organizer=organizer)
            user.reading, user.locale = reading, "ja"
        people[email] = user
    org, head = people["organizer-ja@demo.test"], people["head-ja@demo.test"]
    event = services.create_event(
        db.session,
        current_catalog(),
        organizer=org,
        data=services.EventData(
            name=DEMO_JA_EVENT,
            date=date.today(),
            venue="デモ会場 Bホール",
            policy_id="bushiroad-afr",
            level=2,
            rounds=4,
            round_minutes=50,
            language="ja",
        ),
    )
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="head-ja@demo.test", name="", role=Role.HEAD_JUDGE
    )
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="head-ja@demo.test", name="", role=Role.SCOREKEEPER
    )
    staff_services.assign_staff(
        db.session, actor=org, event=event, email="floor-ja@demo.test", name="", role=Role.FLOOR_JUDGE
    )
    for n, (name, reading) in enumerate(DEMO_JA_PLAYERS, start=1):
        player = player_services.add_player(
            db.session, actor=org, event=event, name=name, player_code=f"DEMOJA-{n:03d}"
        )
        player.reading = reading
    round_services.start_round(db.session, actor=head, event=event)
    seating = "\n".join(
        f"{t},DEMOJA-{2 * t - 1:03d},DEMOJA-{2 * t:03d}" for t in range(1, len(DEMO_JA_PLAYERS) // 2 + 1)
    )
    pairing_services.import_pairings(db.session, actor=head, event=event, round_number=1, text=seating)
    db.session.commit()
    click.echo(_("Japanese demo event “%(event)s” created (its pages are in Japanese). Log in as:", event=event.name))
    for email in people:
        click.echo(_("  %(email)s password: %(password)s", email=f"{email:<22}", password=password))


def _sample_cases(event, people) -> None:
    """A warning at table 3 that the opponent appeals; a recommended disqualification at table 6 with a statement."""
    from .appeals import services as appeals
    from .incidents import services as incidents
    from .investigations import services as investigations
    from .models import Player

    session = db.session()
    policy = event_policy(event)
    code = {p.player_code: p for p in session.scalars(select(Player).where(Player.event_id == event.id))}
    floor1, floor2, head = people["floor1@demo.test"], people["floor2@demo.test"], people["head@demo.test"]
    judge = frozenset({"floor_judge"})
    warning = incidents.log_incident(
        session,
        policy,
        actor=floor1,
        roles=judge,
        event=event,
        data=incidents.IncidentInput(
            key="demo-sample-incident-0001",
            infraction_code="3.5.2",
            table_number=3,
            player_id=code["DEMO-005"].id,
            rank_id="warning",
            description="Did not discard down at the end of the turn.",
        ),
    )
    appeals.file_appeal(
        session,
        actor=floor1,
        event=event,
        incident=warning.incident,
        data=appeals.AppealInput(
            key="demo-sample-appeal-000001",
            appellant=f"player:{code['DEMO-006'].id}",
            contest="The opponent says the player should have discarded at random, not chosen the card.",
            contests="remedy",  # an opponent contests only the remedy (Bushiroad Floor Rules 1.2.1)
        ),
        policy=policy,
    )
    dq = incidents.log_incident(
        session,
        policy,
        actor=floor2,
        roles=judge,
        event=event,
        data=incidents.IncidentInput(
            key="demo-sample-incident-0002",
            infraction_code="4.1",
            table_number=6,
            player_id=code["DEMO-011"].id,
            rank_id="disqualification",
            description="Seen arranging the top of the deck while shuffling.",
        ),
    )
    investigation = investigations.investigation_of_incident(session, dq.incident)
    assert investigation is not None  # logging a disqualification opens its investigation
    investigations.add_statement(
        session,
        actor=head,
        roles=frozenset({"head_judge"}),
        event=event,
        investigation=investigation,
        key="demo-sample-statement-01",
        author_name=code["DEMO-012"].name,
        author_role="opponent",
        text="While shuffling he looked at the bottom card and moved two cards to the top.",
    )


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
@click.option("--prior", multiple=True, metavar="CODE:RANK", help="An earlier standing penalty of the player.")
@click.option("--minutes-late", type=click.IntRange(min=0), help="For tardiness by minutes: how late the player was.")
def penalty_suggest(policy_id, level, infraction, prior, minutes_late):
    """Print the suggested penalty as one JSON object."""
    cat = current_catalog()
    try:
        pol = cat.policy(policy_id)
        priors = []
        for n, item in enumerate(prior, start=1):
            code, sep, rank = item.partition(":")
            if not sep:
                raise click.UsageError(f"--prior {item!r}: write CODE:RANK, for example 3.5.2:warning")
            pol.infraction(code)
            pol.rank(rank)
            priors.append(Prior(code, rank, ref=n))
        result = suggest(pol, pol.level(level).number, infraction, priors, minutes_late=minutes_late)
    except UnknownChoice as err:
        click.echo(f"Error: {err}", err=True)
        sys.exit(2)
    click.echo(json.dumps(result.as_dict(), ensure_ascii=False))
