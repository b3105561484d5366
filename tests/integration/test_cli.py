"""Command line: catalog check, penalty suggest, users create, init-db, demo."""

import json
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select

from judgeapp.extensions import db
from judgeapp.models import Division, Event, Player, Round, User
from tests.conftest import login

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "catalogs"


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


def test_catalog_check_passes_on_the_shipped_file_with_a_line_per_policy(cli):
    result = cli("catalog", "check")
    assert result.exit_code == 0
    lines = result.output.strip().splitlines()
    assert [line.split()[0] for line in lines] == [
        "bushiroad-afr",
        "transformers-tcg",
        "wot-ccg",
        "wars-tcg",
        "mtg-ipg",
        "fab-ppg",
        "riftbound",
        "pokemon",
        "lorcana",
        "yugioh",
    ]
    assert "57 infractions" in lines[0] and "levels 1, 2, 3" in lines[0]  # Penalty Guide §3-4 and Floor Rules 4.4
    assert "levels 1, 2, 3, 4" in lines[3]


def test_catalog_check_fails_with_the_problem_named(cli):
    result = cli("catalog", "check", str(FIX / "unknown_rank.yaml"))
    assert result.exit_code == 1
    assert (
        "unknown_rank.yaml:30: policies.house-rules.infractions[0].defaults.level_2.max: 'loss of gme'" in result.output
    )


def test_penalty_suggest_prints_one_json_object(cli):
    result = cli(
        "penalty",
        "suggest",
        "--policy",
        "bushiroad-afr",
        "--level",
        "2",
        "--infraction",
        "3.5.3.2",
        "--prior",
        "3.5.1.1:warning",
    )
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert out["policy"] == "bushiroad-afr" and out["level"] == 2
    assert out["infraction"] == {"code": "3.5.3.2", "name": "Looking at Extra Cards — After a Match Begins"}
    assert out["default"] == {"min": "warning", "max": "warning"}
    assert (out["suggested"], out["upgraded"], out["head_judge_only"]) == ("loss_of_game", True, False)
    assert out["because"][0]["infraction"] == "3.5.1.1"


def test_penalty_suggest_flags_head_judge_only_ranks(cli):
    out = json.loads(
        cli("penalty", "suggest", "--policy", "bushiroad-afr", "--level", "1", "--infraction", "4.1").output
    )
    assert out["suggested"] == "disqualification" and out["head_judge_only"] is True


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--policy", "nope", "--level", "1", "--infraction", "3.4"],
            "unknown policy 'nope'; valid choices: bushiroad-afr, transformers-tcg, wot-ccg, wars-tcg, mtg-ipg, "
            "fab-ppg, riftbound, pokemon, lorcana, yugioh",
        ),
        (
            ["--policy", "bushiroad-afr", "--level", "4", "--infraction", "3.4"],
            "unknown level '4'; valid choices: 1, 2, 3",
        ),
        (
            ["--policy", "bushiroad-afr", "--level", "1", "--infraction", "9.9"],
            "unknown infraction '9.9'; valid choices: 3.1.1, 3.1.2",
        ),
        (
            ["--policy", "bushiroad-afr", "--level", "1", "--infraction", "3.4", "--prior", "3.4:yellow_card"],
            "unknown rank 'yellow_card'; valid choices: "
            "caution, warning, loss_of_game, loss_of_match, disqualification",
        ),
    ],
)
def test_penalty_suggest_rejects_unknown_choices_with_exit_2_and_lists_valid_ones(cli, args, message):
    result = cli("penalty", "suggest", *args)
    assert result.exit_code == 2
    assert message in result.output


def test_users_create_makes_an_organizer_account(app, cli):
    result = cli(
        "users", "create", "--email", "Org@Example.test", "--name", "Org", "--password", "long-enough-pw", "--organizer"
    )
    assert result.exit_code == 0
    with app.app_context():
        user = db.session.scalar(select(User))
        assert (user.email, user.is_organizer) == ("org@example.test", True)
    again = cli("users", "create", "--email", "org@example.test", "--name", "Org", "--password", "long-enough-pw")
    assert again.exit_code == 1 and "already exists" in again.output


@pytest.mark.db
def test_demo_creates_the_demo_open_once(app, cli):
    first = cli("demo", "--password", "demo-password-1")
    assert first.exit_code == 0 and "head@demo.test" in first.output and "demo-password-1" in first.output
    assert cli("demo").exit_code == 0
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Event)) == 2  # and the Japanese デモ大会
        event = db.session.scalar(select(Event).order_by(Event.id))
        assert (event.id, event.name, event.policy_id, event.level) == (1, "Demo Open", "bushiroad-afr", 2)
        codes = sorted(db.session.scalars(select(Player.player_code).where(Player.event_id == event.id)))
        assert codes == [f"DEMO-{n:03d}" for n in range(1, 33)]
        assert db.session.scalar(select(func.count()).select_from(Round).where(Round.event_id == event.id)) == 1
        staff = {a.user.email for a in event.staff} | {event.organizer.email}
    assert staff == {"organizer@demo.test", "head@demo.test", "floor1@demo.test", "floor2@demo.test"}


@pytest.mark.db
def test_the_demo_also_creates_a_japanese_event_run_by_japanese_speaking_accounts(app, cli):
    from judgeapp.models import Role

    shown = cli("demo", "--password", "demo-password-1")
    assert shown.exit_code == 0 and "floor-ja@demo.test" in shown.output
    with app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "デモ大会"))
        assert (event.language, event.policy_id, event.level) == ("ja", "bushiroad-afr", 2)
        players = db.session.scalars(select(Player).where(Player.event_id == event.id)).all()
        assert ("山田 太郎", "やまだ たろう") in [(p.name, p.reading) for p in players]
        assert all(p.reading for p in players)
        roles = {(a.user.email, a.role) for a in event.staff if a.ended_at is None}
        assert ("floor-ja@demo.test", Role.FLOOR_JUDGE) in roles
        assert {("head-ja@demo.test", Role.HEAD_JUDGE), ("head-ja@demo.test", Role.SCOREKEEPER)} <= roles
        floor = db.session.scalar(select(User).where(User.email == "floor-ja@demo.test"))
        assert floor.locale == "ja"
        event_id = event.id
    judge = app.test_client()
    assert login(judge, "floor-ja@demo.test", "demo-password-1").status_code == 302
    html = judge.get(f"/events/{event_id}").get_data(as_text=True)
    assert '<html lang="ja">' in html and "第1ラウンド（全4ラウンド）" in html and "違反を記録" in html


@pytest.mark.db
def test_the_demo_of_make_run_has_an_appeal_waiting_and_a_disqualification_under_investigation(app, cli):
    from judgeapp.models import Appeal, AppealStatus, Incident, IncidentStatus, Investigation, Statement

    assert cli("demo", "--sample-cases").exit_code == 0
    with app.app_context():
        [appeal] = db.session.scalars(select(Appeal)).all()
        assert appeal.status is AppealStatus.OPEN and appeal.appellant_name == "Sakura Ito"
        [investigation] = db.session.scalars(select(Investigation)).all()
        assert investigation.incident.status is IncidentStatus.RECOMMENDED
        assert db.session.scalar(select(func.count()).select_from(Statement)) == 1
        assert db.session.scalar(select(func.count()).select_from(Incident)) == 2


def test_the_demo_prints_a_working_call_link_for_table_12(app, cli):
    import re

    shown = cli("demo")
    link = re.search(r"http://127\.0\.0\.1:5000(/call/\S+)", shown.output)
    assert link, shown.output
    page = app.test_client().get(link.group(1)).get_data(as_text=True)
    assert "Call a judge to table 12" in page


def empty_database(app):
    """No tables at all, as on a fresh machine."""
    with app.app_context():
        db.drop_all()
        db.session.execute(db.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()


def test_migrating_inside_the_app_leaves_its_loggers_working(app, cli):
    """Alembic's env.py configures logging from alembic.ini; by default that disables every logger already made, so
    after an in-process migration the console mail backend's `judgeapp.mail` logger wrote nothing (a mail without
    MAIL_SERVER lost from the log; seen as an order-dependent test failure on 27 Nov)."""
    import logging

    mail_log = logging.getLogger("judgeapp.mail")
    empty_database(app)
    assert cli("init-db").exit_code == 0
    assert not mail_log.disabled


@pytest.mark.db
def test_init_db_builds_the_schema_from_migrations_and_is_idempotent(app, cli):
    empty_database(app)
    assert cli("init-db").exit_code == 0
    assert cli("init-db").exit_code == 0
    with app.app_context():
        tables = set(inspect(db.engine).get_table_names())
    assert {"users", "user_sessions", "events", "staff_assignments", "players", "rounds", "audit_entries"} <= tables


@pytest.mark.db
def test_migrations_match_the_models_and_downgrade_cleanly(app, cli):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from flask_migrate import downgrade

    empty_database(app)
    assert cli("init-db").exit_code == 0
    with app.app_context():
        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        assert diff == [], diff
        downgrade(revision="base")
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}


@pytest.mark.db
def test_every_migration_downgrades_and_upgrades_again_step_by_step_keeping_the_data(app, cli, make_user):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from flask_migrate import downgrade, upgrade

    empty_database(app)
    assert cli("init-db").exit_code == 0
    with app.app_context():
        revisions = []
        while True:
            with db.engine.connect() as conn:
                current = MigrationContext.configure(conn).get_current_revision()
            if current is None:
                break
            revisions.append(current)
            downgrade(revision="-1")
        assert len(revisions) >= 4
        for _ in revisions:
            upgrade(revision="+1")
            with db.engine.connect() as conn:
                assert MigrationContext.configure(conn).get_current_revision() is not None
            downgrade(revision="-1")
            upgrade(revision="+1")  # each step down and up again
        with db.engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == revisions[0]
            assert compare_metadata(MigrationContext.configure(conn), db.metadata) == []
    _, email = make_user(name="Kept Across Migrations")  # the latest migration's round trip keeps existing rows
    with app.app_context():
        downgrade(revision="-1")
        upgrade(revision="+1")
        assert db.session.scalar(select(User.name).where(User.email == email)) == "Kept Across Migrations"


# ---- flask import-tournament -----------------------------------------------------------------------------------------

IMPORTS = Path(__file__).resolve().parent.parent / "data" / "imports"


@pytest.mark.db
def test_import_tournament_creates_the_event_for_the_first_organizer_and_prints_the_summary(app, cli, make_user):
    make_user(organizer=True, name="First Organizer")
    make_user(organizer=True, name="Second Organizer")
    result = cli("import-tournament", str(IMPORTS / "tom-sample.tdf"), "--event", "League Cup Test")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["format"] == "tom" and summary["rejected"] == []
    assert summary["players"] > 0 and summary["rounds"] > 0 and summary["pairings"] > 0
    with app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "League Cup Test"))
        assert event.organizer.name == "First Organizer"
        assert (
            db.session.scalar(select(func.count()).select_from(Player).where(Player.event_id == event.id))
            == (summary["players"])
        )
    again = cli("import-tournament", str(IMPORTS / "tom-sample.tdf"), "--event", "League Cup Test")
    assert json.loads(again.stdout)["event"]["new_players"] == 0, "the same file twice adds no one"


@pytest.mark.parametrize(
    ("sample", "totals", "divisions"),
    [
        (
            "tom-cup-two-divisions.tdf",
            (23, 8, 56, 5),
            [("Juniors+Seniors", 9, 6, 19, 0), ("Masters", 14, 8, 37, 5)],
        ),
        ("tom-cup-before-pairing.tdf", (21, 0, 0, 0), [("", 21, 0, 0, 0)]),
        ("tom-cup-mid-round.tdf", (21, 2, 20, 2), [("Juniors+Seniors", 8, 2, 8, 0), ("Masters", 13, 2, 12, 2)]),
        ("tom-sample.tdf", (9, 1, 4, 1), [("", 9, 1, 4, 1)]),
    ],
)
def test_import_tournament_prints_each_divisions_counts_beside_the_totals(app, cli, make_user, sample, totals,
                                                                           divisions):  # fmt: skip
    make_user(organizer=True, name="First Organizer")
    result = cli("import-tournament", str(IMPORTS / sample), "--event", "Division Cup")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["players"], summary["rounds"], summary["pairings"], summary["byes"]) == totals
    assert [(d["name"], d["players"], d["rounds"], d["pairings"], d["byes"]) for d in summary["divisions"]] == divisions
    with app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "Division Cup"))
        stored = db.session.execute(
            select(Division.id, Division.name).where(Division.event_id == event.id).order_by(Division.position)
        ).all()
    assert [(d["id"], d["name"]) for d in summary["divisions"]] == [tuple(row) for row in stored]


def test_import_tournament_replaces_one_divisions_changed_round_named_by_division(app, cli, make_user, tmp_path):
    make_user(organizer=True, name="First Organizer")
    cup = (IMPORTS / "tom-cup-mid-round.tdf").read_text()
    assert cli("import-tournament", str(IMPORTS / "tom-cup-mid-round.tdf"), "--event", "Division Cup").exit_code == 0
    pod = cup.index('<pod category="2"')
    start, end = cup.index('<round number="2"', pod), cup.index("</round>", cup.index('<round number="2"', pod))
    changed = cup[:start] + cup[start:end].replace('userid="9342001"', 'userid="X"').replace(
        'userid="9342003"', 'userid="9342001"').replace('userid="X"', 'userid="9342003"') + cup[end:]  # fmt: skip
    assert changed != cup
    path = tmp_path / "mid-round-changed.tdf"
    path.write_text(changed)
    waiting = json.loads(cli("import-tournament", str(path), "--event", "Division Cup").stdout)
    assert [(c["division"], c["round"]) for c in waiting["event"]["rounds_to_confirm"]] == [("Masters", 2)]
    done = json.loads(
        cli("import-tournament", str(path), "--event", "Division Cup", "--replace-round", "Masters:2").stdout
    )
    assert done["event"]["rounds_replaced"] == [2] and done["event"]["rounds_to_confirm"] == []


def test_import_tournament_refuses_a_file_it_cannot_read_with_one_line_and_no_traceback(app, tmp_path, make_user):
    """Run as an organizer would run it: a real process, its exit status and what it prints."""
    import os
    import subprocess
    import sys

    make_user(organizer=True)
    bomb = tmp_path / "bomb.tdf"
    bomb.write_text(
        '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        "<tournament><players>&b;</players></tournament>"
    )
    env = {**os.environ, "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "SECRET_KEY": "cli-test-secret"}
    run = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "wsgi", "import-tournament", str(bomb), "--event", "Bombed Open"],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        timeout=600,  # a guard against a hang only: at load ~15 the fresh interpreter's imports alone took over 60 s
    )
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.startswith("import-tournament: ") and "entit" in run.stderr.lower()
    with app.app_context():
        assert db.session.scalar(select(Event).where(Event.name == "Bombed Open")) is None


def test_an_organizer_who_asks_for_japanese_gets_the_commands_messages_in_japanese(cli, monkeypatch):
    monkeypatch.setenv("JUDGEAPP_LANGUAGE", "ja")
    result = cli("catalog", "check", str(FIX / "unknown_rank.yaml"))
    assert result.exit_code == 1
    assert "問題が1件あります。このカタログは使えません。" in result.output
    monkeypatch.setenv("JUDGEAPP_LANGUAGE", "ja_JP.UTF-8")  # written the way LANG is
    assert "問題が1件あります。" in cli("catalog", "check", str(FIX / "unknown_rank.yaml")).output
    monkeypatch.setenv("JUDGEAPP_LANGUAGE", "xx")  # a language judgeapp does not have: English
    assert ": 1 problem; the catalog cannot be used." in cli("catalog", "check", str(FIX / "unknown_rank.yaml")).output


def test_catalog_search_prints_the_infractions_best_first_as_json_with_code_name_and_score(cli):
    result = cli("catalog", "search", "--policy", "bushiroad-afr", "drew extra card")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found[0]["code"] == "3.5.4" and found[0]["name"] == "Drawing Extra Cards" and found[0]["whole"] is True
    assert [f["score"] for f in found] == sorted((f["score"] for f in found), reverse=True)
    assert {"code", "name", "score", "kind"} <= set(found[0])


def test_catalog_search_names_in_the_language_asked_and_gives_the_default_at_the_level(cli):
    result = cli("catalog", "search", "--policy", "bushiroad-afr", "--lang", "ja", "--level", "2", "スマホ")
    assert result.exit_code == 0, result.output
    first = json.loads(result.output)[0]
    assert (first["code"], first["name"], first["penalty"]) == ("3.17", "対戦中の不要な電子機器の使用", "警告")


def test_catalog_search_finds_nothing_for_an_unknown_word_as_an_empty_list(cli):
    result = cli("catalog", "search", "--policy", "mtg-ipg", "zzzzqx")
    assert result.exit_code == 0 and json.loads(result.output) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policy", "nope"], "Error: unknown policy 'nope'"),
        (["--policy", "mtg-ipg", "--lang", "ja"], "Error: unknown language 'ja'; valid choices: en"),
        (["--policy", "bushiroad-afr", "--lang", "fr"], "Error: unknown language 'fr'; valid choices: en, ja"),
        (["--policy", "bushiroad-afr", "--level", "9"], "Error: unknown level '9'"),
    ],
)
def test_catalog_search_exits_2_with_one_line_for_an_unknown_policy_language_or_level(cli, args, message):
    result = cli("catalog", "search", *args, "drew")
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith(message)


# ---- the files real software writes (issue 34) -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "extra", "totals"),
    [
        ("melee-standings-2023.csv", (), {"format": "melee", "players": 7, "rounds": 0, "pairings": 0, "byes": 0}),
        ("kts-table-offset.Tournament", (), {"format": "kts", "players": 6, "rounds": 2, "pairings": 5, "byes": 1}),
        ("kts-team.Tournament", (), {"format": "kts", "players": 9, "rounds": 2, "pairings": 2, "byes": 2}),
        (
            "players-wscode.csv",
            ("--column", "code=WSCode"),
            {"format": "csv", "players": 11, "rounds": 0, "pairings": 0, "byes": 0},
        ),
    ],
)
def test_import_tournament_gives_each_real_software_samples_totals(app, cli, make_user, name, extra, totals):
    make_user(organizer=True)
    result = cli("import-tournament", str(IMPORTS / name), "--event", "Sample Open", *extra)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert {k: summary[k] for k in totals} == totals and summary["rejected"] == []
    with app.app_context():
        event = db.session.scalar(select(Event).where(Event.name == "Sample Open"))
        players = db.session.scalars(select(Player).where(Player.event_id == event.id)).all()
        assert len(players) == totals["players"]
        assert "No Country Set" not in {p.country for p in players}


def test_import_tournament_asks_for_column_when_an_unknown_header_holds_ids_and_names_a_missing_header(
    app, cli, make_user
):
    make_user(organizer=True)
    asked = cli("import-tournament", str(IMPORTS / "players-wscode.csv"), "--event", "Weiss Open")
    assert asked.exit_code == 1 and "'WSCode'" in asked.output and "--column ROLE=HEADER" in asked.output
    missing = cli(
        "import-tournament", str(IMPORTS / "players-wscode.csv"), "--event", "Weiss Open", "--column", "code=KCGN"
    )
    assert missing.exit_code == 1 and "--column" in missing.output and "WSCode" in missing.output
    malformed = cli(
        "import-tournament", str(IMPORTS / "players-wscode.csv"), "--event", "Weiss Open", "--column", "code"
    )
    assert malformed.exit_code == 1 and "ROLE=HEADER" in malformed.output
    with app.app_context():
        assert db.session.scalar(select(Event).where(Event.name == "Weiss Open")) is None


def test_a_kts_team_events_members_are_seated_at_their_offset_table_in_the_database(app, cli, make_user):
    from judgeapp.models import Pairing

    make_user(organizer=True)
    assert cli("import-tournament", str(IMPORTS / "kts-team.Tournament"), "--event", "Trios").exit_code == 0
    with app.app_context():
        seated = db.session.execute(
            select(Pairing.table_number, Player.name, Player.team)
            .join(Player, Pairing.player_id == Player.id)
            .where(Pairing.round_number == 1, Pairing.table_number.is_not(None))
        ).all()
        assert {t for t, _, _ in seated} == {21} and len(seated) == 6
        assert {team for _, _, team in seated} == {"Lantern Crew", "Tidewatch"}
