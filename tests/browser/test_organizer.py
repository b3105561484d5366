"""The organizer in real Chromium at 390x844: the post-event report, its PDF and CSV downloads, and closing the event
once the last round is over."""

import csv
import io
import subprocess
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from tests.browser.conftest import ARTIFACTS, log_in, refresh_until, shot
from tests.browser.test_floor_judge import no_horizontal_scroll
from tests.conftest import Worker

pytestmark = pytest.mark.browser


def a_round_of_rulings(app):
    """What floor judges logged in round 1 of the demo: two warnings (the second an upgrade), a loss of game, time
    given back, and a deck check with a problem."""
    from judgeapp import history
    from judgeapp.clock import services as timekeeping
    from judgeapp.deckchecks import services as deckchecks
    from judgeapp.extensions import CATALOG_KEY, db
    from judgeapp.incidents import services
    from judgeapp.infractions import suggest
    from judgeapp.models import Event, Player, User

    with app.app_context():
        event = db.session.scalar(select(Event))
        policy = app.extensions[CATALOG_KEY].policy(event.policy_id)
        judge = db.session.scalar(select(User).where(User.email == "floor1@demo.test"))
        code = {p.player_code: p for p in db.session.scalars(select(Player))}
        roles = frozenset({"floor_judge"})
        for n, (player, table, infraction) in enumerate(
            [("DEMO-003", 2, "3.5.2"), ("DEMO-003", 2, "3.5.2"), ("DEMO-009", 5, "3.2.1")]
        ):
            priors = history.priors_of_players(db.session, event, [code[player].id])
            rank = suggest(policy, event.level, policy.infraction(infraction), priors).suggested.id  # as suggested
            services.log_incident(
                db.session,
                policy,
                actor=judge,
                roles=roles,
                event=event,
                data=services.IncidentInput(
                    key=f"browser-organizer-{n:06d}",
                    infraction_code=infraction,
                    table_number=table,
                    player_id=code[player].id,
                    rank_id=rank,
                ),
            )
        timekeeping.add_extension(
            db.session,
            policy,
            actor=judge,
            event=event,
            data=timekeeping.ExtensionInput(key="browser-organizer-ext-1", reason="ruling", table_number=2, minutes=4),
        )
        dc, _ = deckchecks.start_deck_check(
            db.session,
            actor=judge,
            event=event,
            data=deckchecks.DeckCheckInput(key="browser-organizer-dc-01", table_number=5, player_texts=["DEMO-009"]),
        )
        deckchecks.end_deck_check(
            db.session,
            policy,
            actor=judge,
            event=event,
            dc=dc,
            result="problems",
            notes="Three copies of a card registered as four.",
            minutes=None,
            adjust_reason=None,
        )
        db.session.commit()


def end_the_round(app):
    from judgeapp.extensions import db
    from judgeapp.models import Round, utcnow

    with app.app_context():
        db.session.execute(update(Round).values(started_at=utcnow() - timedelta(hours=2)))
        db.session.commit()


def test_the_organizer_downloads_the_report_as_pdf_and_csv_and_closes_the_event(live_server, phone, tmp_path):
    a_round_of_rulings(live_server.app)
    log_in(phone, live_server, "organizer@demo.test")
    phone.get_by_role("link", name="Demo Open").click()
    phone.get_by_role("link", name="Report").click()
    phone.get_by_text("Draft: the event is not closed yet").wait_for()
    assert "Loss of Game" in phone.locator("#penalties").inner_text()
    assert phone.locator("svg.chart rect").count() >= 2  # the bar chart is drawn in the page
    assert no_horizontal_scroll(phone)
    shot(phone, "30-post-event-report")

    phone.get_by_role("button", name="Prepare the PDF (A4)").click()  # a job (issue 32), made by the worker
    phone.get_by_text("The report's PDF is being prepared").wait_for()
    worker = Worker(live_server.app).start()
    try:
        refresh_until(phone, "#report-pdf-download")
    finally:
        worker.stop()
    assert phone.locator("#report-pdf-state").inner_text().startswith("The PDF is ready (A4, prepared ")
    assert no_horizontal_scroll(phone)
    shot(phone, "30-post-event-report-pdf-ready")
    with phone.expect_download() as download:
        phone.get_by_role("link", name="Download the PDF").click()
    assert download.value.suggested_filename.startswith("event-report_Demo-Open_")
    pdf = ARTIFACTS / "31-post-event-report.pdf"
    download.value.save_as(pdf)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "Post-event report: Demo Open" in text and "Three copies of a card registered as four." in text
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "70",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(ARTIFACTS / "31-post-event-report-page-1"),
        ],
        check=True,
    )

    with phone.expect_download() as download:
        phone.get_by_role("link", name="Incidents (CSV)").click()
    assert download.value.suggested_filename.startswith("incidents_Demo-Open_")
    path = tmp_path / "incidents.csv"
    download.value.save_as(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    assert [(r["player_id"], r["rank"], r["upgraded"]) for r in rows[:2]] == [
        ("DEMO-003", "Warning", "no"),
        ("DEMO-003", "Loss of Game", "yes"),
    ]

    phone.get_by_role("link", name="Close the event…").click()
    phone.get_by_text("Round 1 is still being played").wait_for()
    assert phone.get_by_role("button", name="Close the event").is_disabled()
    shot(phone, "32-close-blocked")
    end_the_round(live_server.app)
    phone.reload()
    phone.get_by_text("Ready to close").wait_for()
    asked = []  # closing asks first, naming the event and what closing does
    phone.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    phone.get_by_role("button", name="Close the event").click()
    phone.get_by_text("Event closed: its records are now read-only.").wait_for()
    assert asked == [
        "Close Demo Open? Its incidents, appeals and investigations become read-only until it is reopened."
    ]
    assert no_horizontal_scroll(phone)
    shot(phone, "33-event-closed")
    phone.get_by_role("link", name="Event", exact=True).click()
    assert phone.get_by_role("link", name="New incident").count() == 0  # nothing to log at a closed event
    assert "records are read-only" in phone.locator(".closed-banner").inner_text()


def test_the_organizer_uploads_the_pairing_softwares_file_sees_the_summary_and_confirms_the_changed_round(
    live_server_with_worker, phone
):
    """The demo's round 1 was seated from judgeapp's own CSV; the pairing software's file pairs it again with its
    own players: the summary shows the counts at once, and round 1 changes only once the organizer ticks it."""
    live_server = live_server_with_worker
    sample = ARTIFACTS.parent / "data" / "imports" / "melee-pairings.csv"
    log_in(phone, live_server, "organizer@demo.test")
    phone.get_by_role("link", name="Demo Open").click()
    phone.get_by_role("link", name="Players").click()
    phone.locator("#import summary").click()
    phone.get_by_label("Tournament file").set_input_files(str(sample))
    phone.get_by_role("button", name="Import", exact=True).click()

    report = phone.locator("#import-report")
    report.wait_for(timeout=120_000)  # the job's page shows it once the worker has imported the file
    counts = {k: phone.locator(f'#import-counts [data-count="{k}"]').inner_text() for k in ("players", "rejected")}
    assert report.get_by_role("heading").first.inner_text() == "Imported: Melee export (CSV)"
    assert counts["rejected"] == "0" and int(counts["players"]) > 0
    confirm = phone.locator("#confirm-rounds")
    assert "Round 1:" in confirm.inner_text(), "round 1 differs from the demo's seating and waits"
    assert no_horizontal_scroll(phone)
    shot(phone, "34-import-summary")

    confirm.get_by_role("checkbox").first.check()
    confirm.get_by_role("button", name="Replace the ticked rounds").click()
    phone.locator("#import-changes").get_by_text("pairings replaced").wait_for(timeout=120_000)
    shot(phone, "35-import-round-replaced")


def test_the_organizer_sees_each_policys_own_levels_and_puts_a_house_policy_in_force_for_the_event(live_server, phone):
    log_in(phone, live_server, "organizer@demo.test")
    phone.goto(f"{live_server}/events/1/settings")
    policy, level = phone.get_by_label("Policy"), phone.get_by_label("Enforcement level")
    assert level.locator("option").all_inner_texts() == ["Level 1", "Level 2", "Level 3"]  # Bushiroad's, only
    assert level.input_value() == "2"
    wot = live_server.app.extensions["judgeapp.catalog"].policy("wot-ccg")
    policy.select_option("wot-ccg")
    assert level.locator("option").all_inner_texts() == [lv.name for lv in wot.levels]
    shot(phone, "90-settings-levels-of-the-chosen-policy")

    phone.get_by_role("link", name="Use your own policy file (house rules, a newer version)").click()
    house = ARTIFACTS.parent / "fixtures" / "catalogs" / "valid.yaml"
    phone.get_by_label("Policy file (YAML)").set_input_files(str(house))
    phone.get_by_role("button", name="Use this policy for the event").click()
    phone.get_by_text("The event now enforces Shop House Rules 2026.1, uploaded.").wait_for()
    phone.goto(f"{live_server}/events/1/policy")
    assert "Uploaded for this event" in phone.locator("#policy-now").inner_text()
    assert "in force" in phone.locator("#uploads").inner_text()
    shot(phone, "91-policy-uploaded-for-the-event")
    phone.locator("#rules-link").click()
    phone.get_by_role("heading", name="Shop House Rules").wait_for()
    assert no_horizontal_scroll(phone)
