"""After the event: closing (and what keeps it open), read-only records, reopening, the post-event report as page,
PDF and CSV (and that they agree), spreadsheet-safe exports, and a player's history across the organizer's events."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from judgeapp.extensions import CATALOG_KEY, db
from judgeapp.models import (
    Appeal,
    AuditEntry,
    DeckCheck,
    Event,
    Incident,
    Round,
    Statement,
    TimeExtension,
    User,
    utcnow,
)
from tests.integration.test_incidents import KEY_RE, log, signed_in, text
from tests.integration.test_investigations import WRITE_UP, dq, pdf_text, post, statement  # noqa: F401  (fixture)
from tests.renders import post_form, report_pdf


def base(world):
    return f"/events/{world['event_id']}"


def finish_rounds(app, event_id):
    """Every round of the event started long enough ago to be over."""
    with app.app_context():
        db.session.execute(
            update(Round).where(Round.event_id == event_id).values(started_at=utcnow() - timedelta(hours=3))
        )
        db.session.commit()


def count(app, model, **where):
    with app.app_context():
        query = select(func.count()).select_from(model)
        for k, v in where.items():
            query = query.where(getattr(model, k) == v)
        return db.session.scalar(query)


def audit_actions(app, event_id, *actions):
    with app.app_context():
        return db.session.scalars(
            select(AuditEntry)
            .where(AuditEntry.event_id == event_id, AuditEntry.action.in_(actions))
            .order_by(AuditEntry.id)
        ).all()


@pytest.fixture
def organizer(app, floor):
    return signed_in(app, floor["organizer"][1])


def close(client, world):
    return post(client, f"{base(world)}/close", form_page=f"{base(world)}/close")


@pytest.fixture
def finished(app, dq, organizer):
    """The disqualification finalized, a warning logged, and the round over: ready to close."""
    assert (
        post(
            dq["head"], f"{base(dq)}/investigations/1/write-up", finalize="y", without_statement="y", **WRITE_UP
        ).status_code
        == 302
    )
    assert (
        log(dq["judge"], dq["event_id"], player="P-001", table=2, infraction="3.5.2", penalty="warning").status_code
        == 302
    )
    finish_rounds(app, dq["event_id"])
    return {**dq, "organizer_client": organizer}


def closed_at(app, event_id):
    with app.app_context():
        return db.session.get(Event, event_id).closed_at


# ---- closing ------------------------------------------------------------------------------------------------------


def test_open_appeals_unfinished_investigations_and_a_running_round_keep_the_event_open_and_are_listed(
    app, dq, organizer
):
    assert (
        log(dq["judge"], dq["event_id"], player="P-001", table=2, infraction="3.5.2", penalty="warning").status_code
        == 302
    )
    page = dq["judge"].get(f"{base(dq)}/incidents/2/appeal").get_data(as_text=True)
    assert (
        post(
            dq["judge"],
            f"{base(dq)}/incidents/2/appeal",
            key=KEY_RE.search(page).group(1),
            appellant=f"player:{dq['players']['P-001']}",
            contest="Not me",
        ).status_code
        == 302
    )

    listing = text(organizer.get(f"{base(dq)}/close"))
    assert "Appeal #1 of incident #2 (Aiko Mori) is waiting for a decision." in listing
    assert f"Disqualification investigation DQ-{dq['event_id']}-1 (Chen Yu) is not finalized." in listing
    assert "Round 1 is still being played" in listing
    assert "Only 1 of the 5 planned rounds was started" in listing

    response = close(organizer, dq)
    assert response.status_code == 409
    assert "Appeal #1 of incident #2" in text(response)
    assert closed_at(app, dq["event_id"]) is None
    assert audit_actions(app, dq["event_id"], "event.close") == []


def test_the_organizer_closes_a_finished_event_once_and_it_is_audited(app, finished):
    organizer = finished["organizer_client"]
    assert "Ready to close" in text(organizer.get(f"{base(finished)}/close"))
    response = close(organizer, finished)
    assert response.status_code == 302
    assert closed_at(app, finished["event_id"]) is not None
    again = close(organizer, finished)  # a second tap, or a retried request
    assert "The event was already closed." in text(organizer.get(again.headers["Location"]))
    entries = audit_actions(app, finished["event_id"], "event.close")
    assert len(entries) == 1 and entries[0].details["incidents"] == 2
    assert "read-only" in text(finished["judge"].get(f"{base(finished)}/incidents"))


def test_only_the_events_organizer_closes_it(app, finished):
    for client in (finished["head"], finished["judge"]):
        assert close(client, finished).status_code == 403
    assert closed_at(app, finished["event_id"]) is None


def test_after_closing_incidents_appeals_investigations_and_the_clock_refuse_changes(app, finished):
    close(finished["organizer_client"], finished)
    event, judge, head = base(finished), finished["judge"], finished["head"]
    incidents_before = count(app, Incident)

    response = post(
        judge,
        f"{event}/incidents/new",
        key="sent-after-closing-01",
        round="1",
        subject_kind="player",
        player="P-004",
        table="2",
        infraction="3.5.2",
        penalty="warning",
    )  # a form opened before closing
    assert response.status_code == 409 and "This event is closed" in text(response)
    assert count(app, Incident) == incidents_before
    attempts = [
        (judge, f"{event}/incidents/2/edit", {"penalty": "caution"}),
        (judge, f"{event}/incidents/2/void", {"reason": "wrong player"}),
        (
            judge,
            f"{event}/incidents/2/appeal",
            {"appellant": f"player:{finished['players']['P-001']}", "contest": "late"},
        ),
        (head, f"{event}/investigations/1/write-up", {"summary": "changed after closing"}),
        (judge, f"{event}/extensions/new", {"table": "2", "minutes": "3", "reason": "other"}),
        (judge, f"{event}/deck-checks/new", {"table": "2"}),
        (head, f"{event}/rounds", {}),
        (finished["organizer_client"], f"{event}/settings", {"name": "Renamed"}),
    ]
    for client, url, data in attempts:
        assert post(client, url, **data).status_code == 409, url
    assert count(app, Appeal) == 0 and count(app, TimeExtension) == 0 and count(app, DeckCheck) == 0
    assert count(app, Round) == 1
    with app.app_context():
        assert db.session.scalar(select(Incident.rank_id).where(Incident.number == 2)) == "warning"
    for url in ("incidents/new", "incidents/call", "extensions/new", "deck-checks/new", "incidents/2/appeal"):
        page = judge.get(f"{event}/{url}")  # a form for new records says so when it is opened
        assert page.status_code == 409 and "This event is closed" in text(page), url
    assert "Correct this incident" not in text(judge.get(f"{event}/incidents/2"))
    # Reading goes on as before.
    assert "Aiko Mori" in text(judge.get(f"{event}/incidents/2"))


def test_the_head_judge_still_adds_a_dated_addendum_after_closing(app, finished, tmp_path):
    close(finished["organizer_client"], finished)
    response = statement(
        finished["head"],
        finished,
        name="Dana Roy",
        role="witness",
        body="Remembered later: he also looked at the bottom card.",
    )
    assert response.status_code == 302
    with app.app_context():
        added = db.session.scalar(select(Statement).where(Statement.author_name == "Dana Roy"))
        assert added.addendum is True
    report = pdf_text(finished["head"].get(f"{base(finished)}/investigations/1/report.pdf").data, tmp_path)
    assert "Addendum: Dana Roy" in report


def test_reopening_needs_a_reason_and_both_moves_are_recorded(app, finished):
    organizer = finished["organizer_client"]
    close(organizer, finished)
    response = post(organizer, f"{base(finished)}/reopen", form_page=f"{base(finished)}/close", reason="  ")
    assert response.status_code == 400 and "Say why the event is reopened." in text(response)
    assert closed_at(app, finished["event_id"]) is not None
    assert post(finished["head"], f"{base(finished)}/reopen", reason="I want to").status_code == 403

    response = post(
        organizer,
        f"{base(finished)}/reopen",
        form_page=f"{base(finished)}/close",
        reason="Head judge found a mistyped table number.",
    )
    assert response.status_code == 302
    assert closed_at(app, finished["event_id"]) is None
    reopened = audit_actions(app, finished["event_id"], "event.reopen")
    assert [e.note for e in reopened] == ["Head judge found a mistyped table number."]
    history = text(organizer.get(f"{base(finished)}/close"))
    assert re.search(
        r"Closed by Organizer.*Reopened by Organizer: “Head judge found a mistyped table number.”", history
    )
    # Open again: changes are accepted.
    assert (
        log(
            finished["judge"], finished["event_id"], player="P-004", table=2, infraction="3.5.2", penalty="warning"
        ).status_code
        == 302
    )


# ---- the report and its exports ----------------------------------------------------------------------------------


def test_only_the_organizer_and_the_head_judge_read_the_report_and_exports(app, finished, make_user, make_event):
    urls = ["report", "export/incidents.csv", "export/time-extensions.csv", "export/deck-checks.csv"]
    other_org = make_user(organizer=True)
    make_event(other_org[0], name="Another event")
    outsiders = [finished["judge"], signed_in(app, finished["people"]["scorekeeper"][1]), signed_in(app, other_org[1])]
    for url in urls:
        for client in outsiders:
            assert client.get(f"{base(finished)}/{url}").status_code == 403, url
        for client in (finished["organizer_client"], finished["head"]):
            assert client.get(f"{base(finished)}/{url}").status_code == 200, url
    assert finished["head"].get(f"{base(finished)}/export/players.csv").status_code == 404


def rows_of(response):
    body = response.data
    assert body.startswith("\ufeff".encode())  # UTF-8 with a byte-order mark: spreadsheets read names right
    return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))


def test_the_incident_csv_has_one_row_per_incident_with_what_the_publisher_asks(app, finished):
    head = finished["head"]
    # An upgrade, an overturned appeal and a void incident, so every column has something to say.
    assert (
        log(
            finished["judge"],
            finished["event_id"],
            player="P-001",
            table=2,
            infraction="3.5.2",
            penalty="loss_of_game",
            deviation_reason="Second failure to discard in the event.",
        ).status_code
        == 302
    )
    page = finished["judge"].get(f"{base(finished)}/incidents/2/appeal").get_data(as_text=True)
    post(
        finished["judge"],
        f"{base(finished)}/incidents/2/appeal",
        key=KEY_RE.search(page).group(1),
        appellant=f"player:{finished['players']['P-001']}",
        contest="I did discard",
    )
    assert (
        post(
            head,
            f"{base(finished)}/appeals/1",
            form_page=f"{base(finished)}/appeals/1",
            outcome="overturned",
            reason="Video showed the discard.",
        ).status_code
        == 302
    )
    post(head, f"{base(finished)}/incidents/3/void", reason="Logged twice.")

    response = head.get(f"{base(finished)}/export/incidents.csv")
    assert response.mimetype == "text/csv"
    assert "incidents_Regional-Qualifier_2026-11-28.csv" in response.headers["Content-Disposition"]
    rows = rows_of(response)
    assert [r["incident"] for r in rows] == ["1", "2", "3"]
    dq_row, overturned, void = rows
    assert dq_row == {
        **dq_row,
        "event": "Regional Qualifier",
        "round": "1",
        "table": "2",
        "player": "Chen Yu",
        "player_id": "P-003",
        "infraction_code": "4.1",
        "infraction": "Cheating",
        "rank": "Disqualification",
        "suggested_rank": "Disqualification",
        "upgraded": "no",
        "judge": "Floor Judge",
        "appeal_outcome": "",
        "status": "standing",
        "void": "no",
    }
    assert overturned["appeal_outcome"] == "overturned" and overturned["status"] == "overturned"
    assert void["upgraded"] == "yes" and void["void"] == "yes" and void["status_reason"] == "Logged twice."
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", dq_row["time"])


def test_the_incident_csv_carries_each_incidents_description_with_its_lines_kept(app, floor, organizer):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    said = "Drew an extra card after the draw step.\n=SUM(A1) was written on the slip"
    saved = log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning", description=said)
    assert saved.status_code == 302
    [row] = rows_of(organizer.get(f"/events/{floor['event_id']}/export/incidents.csv"))
    assert row["description"] == "Drew an extra card after the draw step.\n=SUM(A1) was written on the slip"


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_neutralised(app, floor, organizer):
    from judgeapp.deckchecks import services as deckchecks
    from judgeapp.events.player_services import add_player

    hostile = [
        '=HYPERLINK("http://evil.test","click")',
        "+1+1",
        "-2+3",
        "@SUM(A1:A2)",
        " =1+1",
        "<script>alert(1)</script>",
        "佐藤 陽翔",
    ]
    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        for n, name in enumerate(hostile):
            add_player(db.session, actor=event.organizer, event=event, name=f"{name}", player_code=f"H-{n}")
        db.session.commit()
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    for n in range(len(hostile)):
        assert (
            log(judge, floor["event_id"], player=f"H-{n}", table=3, infraction="3.5.2", penalty="warning").status_code
            == 302
        )
    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        actor = db.session.scalar(select(User).where(User.email == floor["people"]["floor_judge"][1]))
        dc, _ = deckchecks.start_deck_check(
            db.session,
            actor=actor,
            event=event,
            data=deckchecks.DeckCheckInput(key="hostile-deck-check-key-1", table_number=3, player_texts=["H-0", "H-5"]),
        )
        policy = app.extensions[CATALOG_KEY].policy(event.policy_id)
        deckchecks.end_deck_check(
            db.session,
            policy,
            actor=actor,
            event=event,
            dc=dc,
            result="problems",
            notes="=cmd|' /C calc'!A0",
            minutes=None,
            adjust_reason=None,
        )
        db.session.commit()

    rows = rows_of(organizer.get(f"/events/{floor['event_id']}/export/incidents.csv"))
    players = [r["player"] for r in rows]
    assert players[:5] == ["'" + h.strip() for h in hostile[:5]]  # shown as typed (names are trimmed), never run
    assert players[5:] == ["<script>alert(1)</script>", "佐藤 陽翔"]  # CSV is data, not HTML: kept as typed
    by_player = rows_of(organizer.get(f"/events/{floor['event_id']}/export/player-penalties.csv"))
    assert [r["player"] for r in by_player] == players  # the same names, neutralised the same way (H-0 … H-6)
    checks = rows_of(organizer.get(f"/events/{floor['event_id']}/export/deck-checks.csv"))
    assert checks[0]["notes"].startswith("'=cmd")
    assert checks[0]["players"] == '<script>alert(1)</script>; =HYPERLINK("http://evil.test","click")'
    # A cell padded before its formula character is caught too (spreadsheets skip the padding).
    from judgeapp.postevent.services import to_csv

    padded = to_csv(["a"], [[" =1+1"], ["\t@SUM(A1)"], ["plain - text"], [-3]]).decode("utf-8-sig").splitlines()
    assert padded[1:] == ["' =1+1", "'\t@SUM(A1)", "plain - text", "-3"]
    page = organizer.get(f"/events/{floor['event_id']}/report").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page  # inert in the page


def test_the_pdf_reads_back_with_the_event_and_appends_each_disqualification_report(
    app, finished, tmp_path, job_worker
):
    close(finished["organizer_client"], finished)
    response = report_pdf(finished["organizer_client"], job_worker, finished["event_id"])
    assert response.mimetype == "application/pdf"
    assert "event-report_Regional-Qualifier_2026-11-28.pdf" in response.headers["Content-Disposition"]
    body = " ".join(pdf_text(response.data, tmp_path).split())
    assert "Post-event report: Regional Qualifier" in body
    assert "closed" in body and "DRAFT" not in body
    assert "Penalties of Loss of Game and above (1)" in body
    assert "Disqualifications (1)" in body and f"DQ-{finished['event_id']}-1" in body
    assert "Disqualification report" in body and "Two people saw cards being arranged" in body  # the appendix
    letter = report_pdf(finished["organizer_client"], job_worker, finished["event_id"], "letter")
    assert letter.status_code == 200 and letter.data.startswith(b"%PDF")
    page = f"{base(finished)}/report"
    a3 = post_form(finished["organizer_client"], f"{page}/pdf", {"paper": "a3"}, form_page=page)
    assert a3.status_code == 400  # no such paper: no job


def test_the_page_the_pdf_and_the_csv_agree_on_a_generated_event(app, make_user, tmp_path, job_worker):
    from bench.generate import Size, generate_event
    from judgeapp.postevent import services

    org_id, org_email = make_user(organizer=True, name="Org")
    head_id, _ = make_user(name="Head")
    judge_ids = [make_user(name=f"Judge {n}")[0] for n in range(4)]
    with app.app_context():
        users = {u.id: u for u in db.session.scalars(select(User))}
        policy = app.extensions[CATALOG_KEY].policy("bushiroad-afr")
        event = generate_event(
            db.session,
            policy,
            users[org_id],
            users[head_id],
            [users[j] for j in judge_ids],
            Size(
                players=60,
                rounds=4,
                incidents=90,
                deck_checks=12,
                extensions=20,
                appeals=8,
                disqualifications=2,
                judges=4,
            ),
            seed=11,
        )
        db.session.commit()
        event_id = event.id
        report = services.report_of(db.session, policy, event, local=lambda t: t, tz_name="UTC")
    client = signed_in(app, org_email)

    # CSV: count the standing penalties by infraction and rank, the extensions and the deck checks.
    incidents = rows_of(client.get(f"/events/{event_id}/export/incidents.csv"))
    assert len(incidents) == 90
    grid = {}
    for r in incidents:
        if r["status"] == "standing":
            grid[(r["infraction_code"], r["rank"])] = grid.get((r["infraction_code"], r["rank"]), 0) + 1
    from_report = {
        (row.code, rank): n for row in report.penalties for rank, n in zip(report.ranks, row.counts, strict=True) if n
    }
    assert grid == from_report and sum(grid.values()) == report.penalties_total
    extensions = [r for r in rows_of(client.get(f"/events/{event_id}/export/time-extensions.csv")) if r["void"] == "no"]
    assert (len(extensions), sum(int(r["minutes"]) for r in extensions)) == (
        report.extensions,
        report.extension_minutes,
    )
    checks = rows_of(client.get(f"/events/{event_id}/export/deck-checks.csv"))
    assert (len(checks), sum(r["result"] == "problems" for r in checks)) == (
        report.deck_checks,
        report.deck_checks_with_problems,
    )
    assert report.appeal_totals.overturned == sum(r["appeal_outcome"] == "overturned" for r in incidents)

    # Page: every row of the penalty table, and the totals.
    page = client.get(f"/events/{event_id}/report").get_data(as_text=True)
    for row in report.penalties:
        cells = re.search(rf'<tr data-code="{re.escape(row.code)}">(.*?)</tr>', page, re.S).group(1)
        assert [int(n) for n in re.findall(r'class="num">(?:<strong>)?(\d+)', cells)] == [*row.counts, row.total]
    assert f"{report.deck_checks} deck checks, {report.deck_checks_with_problems} with problems found" in page
    assert f"Standing penalties: {report.penalties_total} of 90 incidents logged" in page
    assert f"<dd>{report.extension_minutes} min</dd>" in page

    # PDF: the same rows, read back from the text layer.
    body = pdf_text(report_pdf(client, job_worker, event_id).data, tmp_path, "-layout")
    for row in report.penalties:  # the table's line for the infraction (a long name wraps onto the next line)
        line = next(line for line in body.splitlines() if line.strip().startswith(f"{row.code} "))
        assert [int(n) for n in line.split()[-len(row.counts) - 1 :]] == [*row.counts, row.total], line
    flat = " ".join(body.split())
    assert f"{report.deck_checks} deck checks, {report.deck_checks_with_problems} with problems found" in flat
    assert f"Total {report.extension_minutes} min" in flat
    assert f"Penalties of Loss of Game and above ({len(report.serious)})" in flat


# ---- a player's history -----------------------------------------------------------------------------------------


def test_an_organizer_sees_a_players_penalties_across_their_own_events_only(app, finished, make_user, make_event):
    from judgeapp.events.player_services import add_player
    from judgeapp.events.round_services import start_round
    from judgeapp.incidents import services

    org_id = finished["organizer"][0]
    stranger_id, _ = make_user(organizer=True)
    with app.app_context():
        catalog = app.extensions[CATALOG_KEY]
    for owner, name in ((org_id, "Spring Cup"), (stranger_id, "Someone else's cup")):
        event_id = make_event(owner, name=name)
        with app.app_context():
            event = db.session.get(Event, event_id)
            start_round(db.session, actor=event.organizer, event=event)
            player = add_player(db.session, actor=event.organizer, event=event, name="Chen Yu", player_code="P-003")
            db.session.flush()
            services.log_incident(
                db.session,
                catalog.policy(event.policy_id),
                actor=event.organizer,
                roles=frozenset({"head_judge"}),
                event=event,
                data=services.IncidentInput(
                    key=f"history-key-{event_id:08d}",
                    infraction_code="4.1",
                    table_number=1,
                    player_id=player.id,
                    rank_id="disqualification",
                ),
            )
            db.session.commit()
    organizer = finished["organizer_client"]
    page = " ".join(re.sub(r"<[^>]+>", " ", text(organizer.get("/players/history?code=P-003"))).split())
    assert "2 incidents at 2 events; 2 disqualifications" in page
    assert "Spring Cup" in page and "Regional Qualifier" in page and "Someone else" not in page
    assert "3 incidents" not in page
    assert organizer.get("/players/history?code=").status_code == 400
    assert finished["head"].get("/players/history?code=P-003").status_code == 403  # not an organizer account


def test_the_penalties_by_player_csv_gives_each_players_penalties_with_the_ids_as_imported(app, floor, organizer):
    """For matching penalties back into the pairing software: one row per player and penalty, a team penalty on
    each member, the player IDs and other platforms' IDs as the tournament file gave them."""
    from judgeapp.models import Player

    with app.app_context():
        db.session.get(Player, floor["players"]["P-003"]).platform_ids = {"pokemon": "1234567"}
        db.session.commit()
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert log(judge, floor["event_id"], player="P-003", infraction="3.5.2", penalty="warning").status_code == 302
    assert log(judge, floor["event_id"], subject_kind="team", team="Blue Lions", infraction="3.5.2", penalty="warning")

    response = organizer.get(f"/events/{floor['event_id']}/export/player-penalties.csv")

    assert "player-penalties_" in response.headers["Content-Disposition"]
    rows = [
        (r["player_id"], r["player"], r["platform_ids"], r["incident"], r["rank"], r["team_penalty"])
        for r in rows_of(response)
    ]
    assert rows == [
        ("P-001", "Aiko Mori", "", "2", "Warning", "yes"),
        ("P-002", "Ben Ode", "", "2", "Warning", "yes"),
        ("P-003", "Chen Yu", "pokemon:1234567", "1", "Warning", "no"),
    ]  # P-004 has no penalty: no row


def test_the_time_extension_csv_has_the_extra_turns_given(app, finished):
    from tests.integration.test_time_and_deck_checks import add_time

    with app.app_context():
        db.session.execute(update(Round).values(started_at=utcnow()))  # the round running again, to give time in it
        db.session.commit()
    assert add_time(finished["judge"], finished["event_id"], table=2, extra_turns=2, minutes=0, adjust_reason="Turns")
    rows = rows_of(finished["head"].get(f"{base(finished)}/export/time-extensions.csv"))
    assert [(r["table"], r["minutes"], r["extra_turns"]) for r in rows if r["extra_turns"]] == [("2", "0", "2")]


# ---- the reason for a penalty other than the suggestion (issue 33, guard 13) -----------------------------------------


@pytest.fixture
def deviated(app, floor):
    """Aiko Mori's second 3.5 (a Loss of Game suggested, as a repeat) given as a Warning, with the judge's reason."""
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert log(judge, floor["event_id"], player="P-001", infraction="3.5.2", penalty="warning").status_code == 302
    response = log(
        judge,
        floor["event_id"],
        player="P-001",
        infraction="3.5.3.2",
        penalty="warning",
        deviation_reason="Opponent's shuffle <b>caused</b> it",
    )
    assert response.status_code == 302, text(response)
    return floor


def test_the_incident_csv_gives_the_reason_for_a_penalty_other_than_the_suggestion(app, deviated, organizer):
    first, second = rows_of(organizer.get(f"/events/{deviated['event_id']}/export/incidents.csv"))
    assert (second["rank"], second["suggested_rank"]) == ("Warning", "Loss of Game")
    assert second["penalty_reason"] == "Opponent's shuffle <b>caused</b> it"
    assert first["penalty_reason"] == ""


def test_the_report_page_and_pdf_list_each_penalty_other_than_the_suggestion_with_its_reason(
    app, deviated, organizer, tmp_path, job_worker
):
    page = text(organizer.get(f"/events/{deviated['event_id']}/report"))
    assert "Penalties other than the suggestion (1)" in page
    assert "Opponent&#39;s shuffle &lt;b&gt;caused&lt;/b&gt; it" in page  # the judge's words, inert
    assert "Warning instead of Loss of Game" in page
    body = " ".join(pdf_text(report_pdf(organizer, job_worker, deviated["event_id"]).data, tmp_path).split())
    assert "Penalties other than the suggestion (1)" in body
    assert "Opponent's shuffle <b>caused</b> it" in body and "Warning instead of Loss of Game" in body


def test_a_csv_export_names_its_charset_once(app, deviated, organizer):
    response = organizer.get(f"/events/{deviated['event_id']}/export/incidents.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"


# ---- every blocker links to the action that resolves it (issue 33, guard 11) -----------------------------------------


def test_each_thing_that_keeps_the_event_open_links_to_the_button_that_finishes_it(app, dq, organizer):
    assert (
        log(dq["judge"], dq["event_id"], player="P-001", table=2, infraction="3.5.2", penalty="warning").status_code
        == 302
    )
    page = dq["judge"].get(f"{base(dq)}/incidents/2/appeal").get_data(as_text=True)
    appealed = post(
        dq["judge"],
        f"{base(dq)}/incidents/2/appeal",
        key=KEY_RE.search(page).group(1),
        appellant=f"player:{dq['players']['P-001']}",
        contest="Not me",
    )
    assert appealed.status_code == 302
    listing = dq["head"].get(f"{base(dq)}/close").get_data(as_text=True)
    assert f'href="{base(dq)}/appeals/1#decide">Decide appeal #1</a>' in listing
    assert f'href="{base(dq)}/investigations/1#write-up">Write up and finalize DQ-{dq["event_id"]}-1</a>' in listing
    assert f'href="{base(dq)}#end-round">End round 1 now</a>' in listing
    # each target is there for the head judge, where the link lands
    assert 'id="decide"' in dq["head"].get(f"{base(dq)}/appeals/1").get_data(as_text=True)
    assert 'id="write-up"' in dq["head"].get(f"{base(dq)}/investigations/1").get_data(as_text=True)
    assert 'id="end-round"' in dq["head"].get(base(dq)).get_data(as_text=True)
    # the organizer may not do these: they are told who can, not sent to a page without the button
    theirs = text(organizer.get(f"{base(dq)}/close"))
    assert "#end-round" not in theirs and "Only the head judge and the scorekeeper end rounds." in theirs
    assert (
        "#decide" not in theirs
        and "Only the head judge, or the judge they handed this appeal to, decides it." in theirs
    )
