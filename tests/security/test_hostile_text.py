"""Hostile text typed into the free-text fields is stored as typed (printable characters) and stays inert text in
every page, the event report PDF and the CSV exports. (Statements and the DQ report: test_investigations.)"""

import csv
import io
import re
import subprocess

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import Appeal, DeckCheck, Event, Incident, JudgeCall, Player, TimeExtension, User
from tests.conftest import CSRF_RE, KEY_RE, login
from tests.renders import report_pdf

MARKUP = '<script>alert("x")</script><img src=x onerror=alert(1)><b onmouseover=alert(2)>bold</b>'
RTL = "\u202eevil\u202c \u200f"  # right-to-left override and mark: kept, they are printable text
CONTROL = "\x00\x07\x1b"  # invisible, and PostgreSQL cannot store NUL: taken out
HOSTILE = f"{MARKUP} \"quoted\" & 'apos' {RTL}{CONTROL}end"
STORED = HOSTILE.replace(CONTROL, "")
FORMULA = '=HYPERLINK("http://evil.example/","click")'
RAW = ["<script>alert", "<img src=x", "<b onmouseover", "onerror=alert(1)>"]


def send(client, url, form_page=None, **fields):
    """Post like a browser: the form page's CSRF token and one-time key, then the fields."""
    page = client.get(form_page or url).get_data(as_text=True)
    data = {"csrf_token": CSRF_RE.search(page).group(1), **fields}
    if "key" not in data and KEY_RE.search(page):
        data["key"] = KEY_RE.search(page).group(1)
    response = client.post(url, data=data)
    errors = re.findall(r'id="([a-z_0-9-]+)-error" class="error" role="alert">([^<]+)', response.get_data(as_text=True))
    assert response.status_code in (200, 302, 303), (url, response.status_code, errors)
    return response


def assert_inert(html: str, where: str):
    for raw in RAW:
        assert raw not in html, f"{where}: unescaped {raw!r}"
    for c in "\x00\x07\x1b":
        assert c not in html, f"{where}: control character {c!r}"


@pytest.mark.db
def test_hostile_text_in_every_free_text_field_is_stored_as_typed_and_inert_in_pages_pdf_and_csv(
    app, make_user, tmp_path, audit_watch, job_worker
):
    _, organizer_email = make_user(organizer=True, name=STORED[:150])
    _, head_email = make_user(name="Head")
    _, floor_email = make_user(name="Floor")
    org = app.test_client()
    login(org, organizer_email)
    send(
        org,
        "/events/new",
        name=HOSTILE[:200],
        date="2026-11-28",
        venue=HOSTILE[:200],
        policy_id="bushiroad-afr",
        level="2",
        rounds="5",
        round_minutes="50",
        statement_days="7",
    )
    with app.app_context():
        event_id = db.session.scalar(select(Event.id))
    base = f"/events/{event_id}"
    send(org, f"{base}/staff", email=head_email, name="", role="head_judge")
    send(org, f"{base}/staff", email="new.scorekeeper@example.test", name=HOSTILE[:150], role="scorekeeper")
    send(org, f"{base}/staff", email=floor_email, name="", role="floor_judge")
    send(org, f"{base}/players", name=FORMULA + HOSTILE[:100], player_code="P<1>&\u202e", team=HOSTILE[:100])
    send(org, f"{base}/players", name="Opponent", player_code="P-2", team="")

    head, floor = app.test_client(), app.test_client()
    login(head, head_email)
    login(floor, floor_email)
    for judge in (head, floor):  # each accepts the organizer's invitation (issue 32): only then is the role theirs
        for accept in re.findall(r'action="(/invitations/\d+/accept)"', judge.get("/").get_data(as_text=True)):
            send(judge, accept, form_page="/")
    send(head, f"{base}/rounds", form_page=base)
    with app.app_context():
        player = db.session.scalars(select(Player).where(Player.player_code != "P-2")).one()
        player_id, code = player.id, player.player_code
    send(
        floor,
        f"{base}/incidents/new",
        round="1",
        table="1",
        subject_kind="player",
        player=code,
        infraction="3.5.2",
        penalty="caution",
        deviation_reason=HOSTILE[:400],
        description=(HOSTILE + "\n") * 20,
    )
    send(
        floor,
        f"{base}/incidents/new",
        round="1",
        table="1",
        subject_kind="spectator",
        spectator=HOSTILE[:150],
        infraction="4.1",
        penalty="disqualification",
        description=HOSTILE,
    )
    send(
        floor,
        f"{base}/incidents/new",
        round="1",
        table="1",
        subject_kind="player",
        player=code,
        infraction="3.2.1",
        penalty="warning",
        description="to be voided",
    )
    send(floor, f"{base}/incidents/3/void", form_page=f"{base}/incidents/3", reason=HOSTILE[:400])
    page = floor.get(f"{base}/incidents/1/appeal").get_data(as_text=True)
    appellant = re.search(r'name="appellant" value="([^"]+)"', page).group(1)
    send(floor, f"{base}/incidents/1/appeal", appellant=appellant, contest=HOSTILE)
    send(head, f"{base}/appeals/1", outcome="overturned", reason=HOSTILE[:400], count_challenge="y")
    send(
        floor, f"{base}/extensions/new", round="1", table="1", reason="other", minutes="3", adjust_reason=HOSTILE[:400]
    )
    send(floor, f"{base}/deck-checks/new", round="1", table="1", player_1=code)
    with app.app_context():
        deck_check_id = db.session.scalar(select(DeckCheck.id))
    send(floor, f"{base}/deck-checks/{deck_check_id}", result="problems", notes=HOSTILE, minutes="")
    links = org.get(f"{base}/calls/links").get_data(as_text=True)  # the first look makes them (on JUDGEAPP_BASE_URL)
    table_link = re.search(r'href="http://127\.0\.0\.1:5000(/call/\d+/1/[a-z2-7]+)"', links).group(1)
    player_phone = app.test_client()  # a player's call from table 1's link: no account
    call_page = send(player_phone, table_link, reason="dispute", note=HOSTILE[:120]).headers["Location"]
    assert_inert(player_phone.get(call_page).get_data(as_text=True), "the player's call page")

    with app.app_context():
        event = db.session.get(Event, event_id)
        incidents = db.session.scalars(select(Incident).order_by(Incident.number)).all()
        stored = {
            "event name": event.name,
            "venue": event.venue,
            "staff name": db.session.scalar(select(User.name).where(User.email == "new.scorekeeper@example.test")),
            "player name": db.session.get(Player, player_id).name,
            "team": db.session.get(Player, player_id).team,
            "deviation reason": incidents[0].deviation_reason,
            "description": incidents[1].description,
            "spectator": incidents[1].subject_name,
            "void reason": incidents[2].status_reason,
            "appeal": db.session.scalar(select(Appeal.contest)),
            "decision": db.session.scalar(select(Appeal.decision_reason)),
            "extension reason": db.session.scalar(select(TimeExtension.adjust_reason)),
            "deck check notes": db.session.scalar(select(DeckCheck.notes)),
            "judge call note": db.session.scalar(select(JudgeCall.note)),
        }
    expected = {"player name": FORMULA + STORED[:97], "judge call note": STORED[:118]}
    for field, value in stored.items():
        want = expected.get(field, STORED)
        assert value is not None and want[:90] in value, f"{field} stored as {value!r}"
        assert not re.search(r"[\x00\x07\x1b]", value), field

    pages = [
        base,
        f"{base}/incidents",
        f"{base}/incidents/1",
        f"{base}/incidents/2",
        f"{base}/incidents/3",
        f"{base}/players",
        f"{base}/players/{player_id}",
        f"{base}/staff",
        f"{base}/appeals",
        f"{base}/appeals/1",
        f"{base}/clock",
        f"{base}/deck-checks",
        f"{base}/deck-checks/{deck_check_id}",
        f"{base}/feed",
        f"{base}/report",
        f"{base}/investigations",
        f"{base}/calls",
        f"{base}/calls/1",
        "/",
    ]
    for url in pages:
        html = (org if url in (f"{base}/staff", "/") else head).get(url).get_data(as_text=True)
        assert_inert(html, url)
    shown = head.get(f"{base}/incidents/2").get_data(as_text=True)
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in shown and "\u202eevil\u202c" in shown

    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(report_pdf(head, job_worker, event_id).data)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert '<script>alert("x")</script>' in " ".join(text.split()), "the PDF shows the text as typed, not as markup"

    for kind in ("incidents", "time-extensions", "deck-checks", "judge-calls"):
        body = head.get(f"{base}/export/{kind}.csv").get_data(as_text=True).lstrip("\ufeff")
        rows = list(csv.reader(io.StringIO(body)))
        cells = [c for row in rows[1:] for c in row]
        assert cells, kind
        assert not any(c[:1] in ("=", "+", "-", "@") and c != "-" and not c[1:2].isdigit() for c in cells), (
            f"{kind}: a cell would run as a spreadsheet formula"
        )
        if kind == "incidents":
            assert any(c.startswith("'" + FORMULA) for c in cells)
            assert any(STORED[:90] in c for c in cells), "the CSV keeps the text as typed"
        if kind == "judge-calls":
            assert any(STORED[:90] in c for c in cells), "the player's note as typed"
    assert audit_watch == [] and audit_watch.audited >= 15, "\n".join(
        audit_watch
    )  # and each of those changes has exactly one audit entry
