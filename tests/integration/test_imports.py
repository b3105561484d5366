"""Players and pairings imports: batches that leave other events working, exact reports, bad rows never a 500."""

from __future__ import annotations

import io
import re
import threading

import pytest
from sqlalchemy import func, select
from werkzeug.datastructures import FileStorage
from werkzeug.test import stream_encode_multipart

from judgeapp.extensions import db
from judgeapp.models import AuditEntry, DeckCheck, Incident, Player, TimeExtension
from tests.conftest import KEY_RE, csrf_token, follow_job, login
from tests.integration.test_incidents import log, signed_in
from tests.security.conftest import audit_watch  # noqa: F401  (the fixture: every change has its audit entry)

pytestmark = pytest.mark.db


def multipart(token: str, body: bytes | str, name="file.csv") -> dict:
    """A file upload as keyword arguments of client.post, encoded in memory (werkzeug's test client spools a large
    upload to a temporary file that it never closes)."""
    body = body.encode() if isinstance(body, str) else body
    stream, _, boundary = stream_encode_multipart(
        {"csrf_token": token, "file": FileStorage(io.BytesIO(body), name)}, use_tempfile=False
    )
    return {"data": stream.getvalue(), "content_type": f"multipart/form-data; boundary={boundary}"}


def upload(client, url, body: bytes | str, name="file.csv", form_page=None):
    return client.post(url, **multipart(csrf_token(client, form_page or url), body, name))


def import_players(client, event_id, body, worker):
    """Upload a players file; the answer is its job's page once the worker has run it."""
    response = upload(client, f"/events/{event_id}/players/import", body, form_page=f"/events/{event_id}/players")
    return follow_job(client, response, worker)


def players_at(app, event_id) -> list[tuple[str, str | None]]:
    with app.app_context():
        return list(
            db.session.execute(
                select(Player.name, Player.player_code).where(Player.event_id == event_id).order_by(Player.id)
            )
        )


def page(response) -> str:
    return response.get_data(as_text=True)


@pytest.fixture
def organizer_at(app, make_user, make_event):
    """An organizer signed in, with an event of their own: (client, event id)."""
    uid, email = make_user(organizer=True, name="Olivia Organizer")
    client = app.test_client()
    assert login(client, email).status_code == 302
    return client, make_event(uid)


# ---- players: batches ------------------------------------------------------------------------------------------------


def test_a_large_players_import_commits_in_batches_so_saves_at_another_event_finish_before_it_does(
    app, floor, make_event, job_worker
):
    """SQLite holds one write lock for the whole database: an import in one transaction made every judge of every
    event wait for it. In batches (now in the job worker), another event's judge saves incidents while the import is
    still running."""
    rows = 10_000
    big_event = make_event(floor["organizer"][0], name="Big Open")
    organizer = signed_in(app, floor["organizer"][1])
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    judge.get(f"/events/{floor['event_id']}/incidents/new")  # warm: the first page render compiles templates
    body = "name,player id,team\n" + "".join(f"Player {n},BIG-{n:06d},Team {n % 500}\n" for n in range(rows))
    token = csrf_token(organizer, f"/events/{big_event}/players")
    finished, answer = threading.Event(), {}

    job_worker.start()

    def run_import():
        try:
            posted = organizer.post(f"/events/{big_event}/players/import", **multipart(token, body))
            answer["response"] = follow_job(organizer, posted, job_worker)
        finally:
            finished.set()

    importer = threading.Thread(target=run_import)
    importer.start()
    try:
        with app.app_context():  # wait until the import's first batch is committed (or the import ends)
            while not finished.wait(0.02) and not db.session.scalar(
                select(func.count()).select_from(Player).where(Player.event_id == big_event)
            ):
                db.session.rollback()
        saves = [
            log(judge, floor["event_id"], player=f"P-00{n}", infraction="3.5.2", penalty="warning")
            for n in (1, 2, 3, 4)
        ]
        with app.app_context():
            imported_by_then = db.session.scalar(
                select(func.count()).select_from(Player).where(Player.event_id == big_event)
            )
    finally:
        importer.join()
    assert [s.status_code for s in saves] == [302] * 4
    assert imported_by_then < rows, "the other event's saves waited for the whole import"
    assert counts(page(answer["response"]))["players"] == rows
    assert len(players_at(app, big_event)) == rows


def counts(html: str) -> dict[str, int]:
    """The import summary's counts as the page shows them."""
    return {k: int(v) for k, v in re.findall(r'data-count="(\w+)">(\d+)<', html)}


def rejected_rows(html: str) -> list[tuple[str, str]]:
    """(where, problem) of each entry the import report lists as not imported."""
    table = html.split('id="import-rejected"', 1)[1] if 'id="import-rejected"' in html else ""
    return re.findall(r"<tr><td>((?:line|entry) \d+|\d+(?:行目|件目))</td><td>(.*?)</td></tr>", table, re.S)


def test_the_players_report_is_exact_across_batches_duplicates_included(app, organizer_at, audit_watch, job_worker):
    client, event_id = organizer_at
    app.config["JUDGEAPP_IMPORT_BATCH_ROWS"] = 3
    csv_text = (
        "name,player id\n"  # 1: header
        "A One,P-1\n"  # 2
        "B Two,P-2\n"  # 3
        ",P-3\n"  # 4: no name
        "C Three,P-9\n"  # 5
        "D Four,P-4\n"  # 6
        "E Five,P-5\n"  # 7: (second batch)
        "A Again,P-1\n"  # 8: duplicate of line 2
        "\n"  # 9: blank, skipped
        "G Seven,P-7\n"  # 10
        "No Id,\n"  # 11: a blank ID where the others have one
        "E Again,P-5\n"  # 12: duplicate of line 7
    )
    response = import_players(client, event_id, csv_text, job_worker)
    html = page(response)
    assert response.status_code == 200
    assert counts(html) == {"players": 6, "rounds": 0, "pairings": 0, "byes": 0, "rejected": 4}
    assert [where for where, _ in rejected_rows(html)] == ["line 4", "line 8", "line 11", "line 12"]
    assert [name for name, _ in players_at(app, event_id)] == [
        "A One",
        "B Two",
        "C Three",
        "D Four",
        "E Five",
        "G Seven",
    ]
    with app.app_context():
        added = db.session.scalar(
            select(func.count())
            .select_from(AuditEntry)
            .where(AuditEntry.action == "player.add", AuditEntry.object_type == "Player")
        )
        applied = db.session.scalars(select(AuditEntry.details).where(AuditEntry.action == "import.apply")).all()
    assert added == 6  # each player has its own entry
    assert [(a["players"], a["rejected"], a["new_players"]) for a in applied] == [(6, 4, 6)]
    assert audit_watch == [], "\n".join(audit_watch)


def test_uploading_the_same_players_file_again_adds_no_one_twice(app, organizer_at, job_worker):
    client, event_id = organizer_at
    app.config["JUDGEAPP_IMPORT_BATCH_ROWS"] = 2
    csv_text = "name,player id\nYui Suzuki,P-1\nHaruto Sato,P-2\nMei Ito,P-3\n"
    first = page(import_players(client, event_id, csv_text, job_worker))
    assert counts(first)["players"] == 3 and "3 new players" in first
    again = page(import_players(client, event_id, csv_text, job_worker))
    assert counts(again) == {"players": 3, "rounds": 0, "pairings": 0, "byes": 0, "rejected": 0}
    assert "0 new players" in again
    assert len(players_at(app, event_id)) == 3


def test_a_players_file_of_130000_rows_is_within_the_import_upload_limit(app, organizer_at, job_worker):
    """A 130,000-row file is about 4-5 MB: over the 2 MB every other form gets, under the import routes' own limit."""
    client, event_id = organizer_at
    row = "Alexandra Yamamoto-Fernández,JP-2026-0012345,Blue Lions of the North\n"
    size = 130_000 * len(row.encode())
    padded = "name,player id\nYui Suzuki,P-1\n" + "\n" * (size - 30)  # blank lines are skipped: no import time
    response = import_players(client, event_id, padded, job_worker)
    assert response.status_code == 200 and counts(page(response))["players"] == 1


def test_a_players_file_over_the_import_limit_gets_413_and_other_forms_keep_their_2_mb(app, organizer_at):
    client, event_id = organizer_at
    url, form_page = f"/events/{event_id}/players/import", f"/events/{event_id}/players"
    too_big = upload(client, url, "\n" * (app.config["JUDGEAPP_IMPORT_MAX_BYTES"] + 1), form_page=form_page)
    assert too_big.status_code == 413
    form_post = client.post(f"/events/{event_id}/players", data={"name": "x" * (3 * 1024 * 1024)})
    assert form_post.status_code == 413, "the larger limit is for the import routes only"


# Pairings files (a table that is not a table number, a player named or seated twice): tests/services/
# test_event_services.py; their report on the page: tests/integration/test_time_and_deck_checks.py.


# ---- table numbers wherever a table is typed -------------------------------------------------------------------------

FLOOR_FORMS = {
    "incident": (
        "incidents/new",
        {
            "round": "1",
            "subject_kind": "player",
            "player": "P-001",
            "infraction": "3.5.2",
            "penalty": "warning",
            "description": "",
        },
    ),
    "time extension": ("extensions/new", {"round": "1", "reason": "ruling", "minutes": "3"}),
    "deck check": ("deck-checks/new", {"round": "1", "player_1": "P-001"}),
}


@pytest.mark.parametrize("table", ["1" + "0" * 30, "99999999999999999999", "10000", "²", "1e3", "NaN", "-1", "0"])
@pytest.mark.parametrize("form", FLOOR_FORMS)
def test_a_table_number_out_of_range_is_a_field_error_and_stores_nothing(app, floor, form, table):
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    path, fields = FLOOR_FORMS[form]
    url = f"/events/{floor['event_id']}/{path}"
    form_page = judge.get(url).get_data(as_text=True)
    data = {"csrf_token": csrf_token(judge, url), "key": KEY_RE.search(form_page).group(1), "table": table, **fields}
    response = judge.post(url, data=data)
    assert response.status_code == 400 and 'id="table-error"' in page(response), page(response)[:3000]
    prefilled = judge.get(f"{url}?table={table}")
    assert prefilled.status_code == 200
    with app.app_context():
        assert [
            db.session.scalar(select(func.count()).select_from(model)) for model in (Incident, TimeExtension, DeckCheck)
        ] == [0, 0, 0]


# ---- the steps after an upload: naming columns, confirming a changed round -------------------------------------------


def test_a_spreadsheet_with_unknown_headers_shows_a_preview_and_imports_once_its_columns_are_named(
    app, organizer_at, job_worker
):
    client, event_id = organizer_at
    body = "Teilnehmer;Kennung;Verein\r\nLena Pike;K-1;Nord\r\nOle Brandt;K-2;Süd\r\n"
    response = import_players(client, event_id, body, job_worker)
    html = page(response)
    assert response.status_code == 200 and 'id="column-mapping"' in html
    assert "<td>Lena Pike</td>" in html and '<th scope="col">Teilnehmer</th>' in html, "a preview of the rows"
    assert players_at(app, event_id) == [], "nothing is imported before the columns are named"
    step = re.search(r'action="(/events/\d+/imports/\d+)"', html).group(1)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)

    mapped = client.post(
        step, data={"csrf_token": token, "column-0": "name", "column-1": "code", "column-2": "team", "apply": "1"}
    )
    mapped = follow_job(client, mapped, job_worker)

    assert mapped.status_code == 200 and counts(page(mapped))["players"] == 2
    assert players_at(app, event_id) == [("Lena Pike", "K-1"), ("Ole Brandt", "K-2")]


def test_an_id_column_with_an_unknown_header_is_offered_as_the_player_id_and_namesakes_are_kept_apart(
    app, organizer_at, job_worker
):
    """A Weiß Schwarz organizer's file heads its IDs `WSCode`: the page asks, WSCode preselected as the player ID,
    and the five pairs of namesakes are all imported (issue 34: they were rejected as duplicates)."""
    from pathlib import Path

    client, event_id = organizer_at
    body = (Path(__file__).resolve().parents[1] / "data" / "imports" / "players-wscode.csv").read_bytes()
    response = import_players(client, event_id, body, job_worker)
    html = page(response)
    assert 'id="column-mapping"' in html and "WSCode" in html
    assert re.search(r'<select name="column-1"[^>]*>.*?<option value="code" selected>', html, re.DOTALL)
    assert players_at(app, event_id) == [], "nothing is imported before the organizer checks the columns"
    step = re.search(r'action="(/events/\d+/imports/\d+)"', html).group(1)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    mapped = client.post(
        step, data={"csrf_token": token, "column-0": "name", "column-1": "code", "column-2": "country", "apply": "1"}
    )
    mapped = follow_job(client, mapped, job_worker)
    assert counts(page(mapped))["players"] == 11 and counts(page(mapped))["rejected"] == 0
    with app.app_context():
        countries = db.session.scalars(select(Player.country).where(Player.event_id == event_id)).all()
    assert "No Country Set" not in countries and "N/A" not in countries and "JP" in countries


def test_a_round_whose_pairings_changed_is_replaced_only_after_the_organizer_ticks_it(app, floor, job_worker):
    organizer = signed_in(app, floor["organizer"][1])
    event_id = floor["event_id"]
    first = "round,table,player id,opponent id\n1,1,P-001,P-002\n1,2,P-003,P-004\n"
    import_players(organizer, event_id, first, job_worker)
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    assert log(judge, event_id, player="P-003", infraction="3.5.2", penalty="warning").status_code == 302

    changed = page(
        import_players(
            organizer, event_id, "round,table,player id,opponent id\n1,1,P-001,P-003\n1,2,P-002,P-004\n", job_worker
        )
    )

    assert 'id="confirm-rounds"' in changed and "Round 1: 2 tables differ (table 1, table 2)" in changed
    assert re.search(r'href="/events/\d+/incidents/1">#1</a>', changed), "the incident already logged is named"
    with app.app_context():
        from judgeapp.events.pairing_services import seating_of

        before = {t: [p.player_code for p in ps] for t, ps in seating_of(db.session, event_id, 1).items()}
    assert before == {1: ["P-001", "P-002"], 2: ["P-003", "P-004"]}
    step = re.search(r'<form method="post" action="(/events/\d+/imports/\d+)" id="confirm-rounds"', changed).group(1)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', changed).group(1)

    replaced = follow_job(
        organizer, organizer.post(step, data={"csrf_token": token, "replace_rounds": "1", "replace": "1"}), job_worker
    )

    assert replaced.status_code == 200 and "Round 1: pairings replaced" in page(replaced)
    with app.app_context():
        after = {t: sorted(p.player_code for p in ps) for t, ps in seating_of(db.session, event_id, 1).items()}
    assert after == {1: ["P-001", "P-003"], 2: ["P-002", "P-004"]}
    again = organizer.post(step, data={"csrf_token": token, "replace_rounds": "1", "replace": "1"})
    assert again.status_code == 409 and "This file was already applied" in page(again), "a resent form changes nothing"


def test_an_xml_bomb_is_refused_with_its_reason_on_the_job_page_and_nothing_is_imported(app, organizer_at, job_worker):
    client, event_id = organizer_at
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>'
        "<tournament><players><player userid='1'><firstname>&lol2;</firstname></player></players></tournament>"
    )
    response = import_players(client, event_id, bomb, job_worker)
    html = page(response)
    assert response.status_code == 200 and 'id="job-error"' in html and "entit" in html.lower()
    assert players_at(app, event_id) == []


def test_a_newer_file_discards_the_older_ones_still_waiting_so_old_pairings_cannot_come_back(
    app, organizer_at, job_worker
):
    """Found in review: confirming round 1 of an older pending file after a newer one put the older pairings back."""
    client, event_id = organizer_at
    head = "round,table,player id,opponent id\n"
    import_players(client, event_id, head + "1,1,P1,P2\n1,2,P3,P4\n", job_worker)
    older = page(import_players(client, event_id, head + "1,1,P1,P3\n1,2,P2,P4\n", job_worker))
    assert 'id="confirm-rounds"' in older
    import_players(client, event_id, head + "1,1,P1,P4\n1,2,P2,P3\n", job_worker)  # newer, also waiting
    step = re.search(r'<form method="post" action="(/events/\d+/imports/\d+)" id="confirm-rounds"', older).group(1)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', older).group(1)

    late = client.post(step, data={"csrf_token": token, "replace_rounds": "1", "replace": "1"})

    assert late.status_code == 409 and "This file was already discarded" in page(late)


def test_odd_mapping_fields_and_record_numbers_too_large_for_the_database_get_answers_not_500s(
    app, organizer_at, job_worker
):
    client, event_id = organizer_at
    mapping = page(import_players(client, event_id, "Wer;Nummer\nLena Pike;K-1\n", job_worker))
    step = re.search(r'action="(/events/\d+/imports/\d+)"', mapping).group(1)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', mapping).group(1)
    odd = client.post(
        step, data={"csrf_token": token, "column-²": "name", "column-" + "9" * 5000: "code", "apply": "1"}
    )
    odd = follow_job(client, odd, job_worker)
    assert odd.status_code == 200 and 'id="column-mapping"' in page(odd), "asked again, nothing imported"
    assert client.get(f"/events/{event_id}/imports/99999999999999999999").status_code == 404
    assert client.get("/events/99999999999999999999").status_code == 404


def test_a_file_name_with_control_characters_is_kept_without_them(app, organizer_at):
    """PostgreSQL refuses a NUL in text: the upload's name is stored without control characters."""
    from judgeapp.models import TournamentImport

    client, event_id = organizer_at
    response = client.post(
        f"/events/{event_id}/players/import",
        **multipart(csrf_token(client, f"/events/{event_id}/players"), "name,player id\nAnna,A1\n", "a\x00b\x07.csv"),
    )
    assert response.status_code == 303  # its job's page
    with app.app_context():
        assert db.session.scalar(select(TournamentImport.filename)) == "ab.csv"


def test_a_players_page_lists_their_tables_and_opponents_round_by_round(app, floor, job_worker):
    organizer = signed_in(app, floor["organizer"][1])
    body = "round,table,player id,opponent id\n1,4,P-001,P-003\n2,,P-001,\n"
    import_players(organizer, floor["event_id"], body, job_worker)
    html = page(organizer.get(f"/events/{floor['event_id']}/players/{floor['players']['P-001']}"))
    rounds = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.split('id="player-rounds"', 1)[1].split("</section>")[0]))
    assert "Round 1: table 4 against Chen Yu P-003" in rounds
    assert "Round 2 (not started): bye" in rounds
