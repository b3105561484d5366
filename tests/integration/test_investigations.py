"""Disqualifications: only the head judge gives them, investigations gather statements, one-time links, the lock,
and the PDF report read back as text."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from datetime import timedelta

import pytest
from sqlalchemy import select

from judgeapp.extensions import db
from judgeapp.models import (
    AuditEntry,
    Incident,
    IncidentStatus,
    Investigation,
    InvestigationStatus,
    Statement,
    StatementRequest,
    utcnow,
)
from tests.conftest import csrf_token
from tests.integration.test_incidents import KEY_RE, log, signed_in, text


@pytest.fixture
def dq(app, floor):
    """The floor judge recommended disqualifying Chen Yu (P-003) for cheating at table 2, against Aiko Mori."""
    from judgeapp.events.pairing_services import import_pairings
    from judgeapp.models import Event

    with app.app_context():
        event = db.session.get(Event, floor["event_id"])
        import_pairings(db.session, actor=event.organizer, event=event, round_number=1, text="2,P-003,P-001\n")
        db.session.commit()
    judge = signed_in(app, floor["people"]["floor_judge"][1])
    response = log(
        judge,
        floor["event_id"],
        player="P-003",
        table=2,
        infraction="4.1",
        penalty="disqualification",
        description="Saw the player stack the deck while shuffling.",
    )
    assert response.status_code == 302
    return {**floor, "judge": judge, "head": signed_in(app, floor["people"]["head_judge"][1])}


def post(client, url, *, form_page="/account/password", **data):
    return client.post(url, data={"csrf_token": csrf_token(client, form_page), **data})


def send_statement(visitor, token, body):
    """What a person without an account does on the link: open the page, type, send."""
    page = visitor.get(f"/statement/{token}").get_data(as_text=True)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    return visitor.post(f"/statement/{token}", data={"csrf_token": match.group(1) if match else "", "text": body})


def investigation(app):
    with app.app_context():
        return db.session.scalar(select(Investigation))


def base(dq):
    return f"/events/{dq['event_id']}"


def statement(client, dq, *, name="Aiko Mori", role="opponent", body="I saw the top cards being arranged.", key=None):
    page = client.get(f"{base(dq)}/investigations/1").get_data(as_text=True)
    return post(
        client,
        f"{base(dq)}/investigations/1/statements",
        key=key or KEY_RE.search(page).group(1),
        author_name=name,
        author_role=role,
        text=body,
    )


def make_link(client, dq, name="Eve Witness", role="witness"):
    response = post(
        client, f"{base(dq)}/investigations/1/links", **{"link-author_name": name, "link-author_role": role}
    )
    assert response.status_code == 302, text(response)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    return re.search(r'href="http://127.0.0.1:5000/statement/([^"]+)"', page).group(1)


WRITE_UP = dict(
    hj_infraction="Cheating: arranging the deck while shuffling (4.1).",
    hj_facts="Two people saw cards being arranged; the player admitted it.",
    hj_assumptions="That the player knew the order of the cards he moved.",
    hj_reasoning="Deliberate, for advantage: cheating.",
    decision_infraction_code="4.1",
    revoke_prizes="y",
    summary="Disqualified; told the player, organizer informed.",
)


# ---- who gives a disqualification ---------------------------------------------------------------------------------


def test_a_floor_judges_disqualification_waits_for_the_head_judge_who_accepts_it(app, dq):
    with app.app_context():
        incident = db.session.scalar(select(Incident))
        assert incident.status is IncidentStatus.RECOMMENDED
    page = text(dq["head"].get(f"{base(dq)}/incidents/1"))
    assert "Recommended: Disqualification — your decision" in page
    response = post(dq["head"], f"{base(dq)}/incidents/1/accept")
    assert response.status_code == 302 and response.headers["Location"].endswith("/investigations/1")
    with app.app_context():
        assert db.session.scalar(select(Incident)).status is IncidentStatus.STANDING
    assert "Recommended: Disqualification" not in text(dq["head"].get(f"{base(dq)}/incidents/1"))


def test_the_head_judge_declines_a_recommendation_with_a_reason_and_another_penalty(app, dq):
    response = post(dq["head"], f"{base(dq)}/incidents/1/decline", reason="Could not establish intent", rank="warning")
    assert response.status_code == 302
    with app.app_context():
        incident = db.session.scalar(select(Incident))
        assert (incident.status, incident.rank_id) == (IncidentStatus.STANDING, "warning")
        assert incident.deviation_reason == (
            "Head judge declined the recommended Disqualification: Could not establish intent"
        )
        assert db.session.scalar(select(Investigation)).status is InvestigationStatus.DECLINED
        entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "incident.decline"))
        assert entry.details["changed"]["rank_id"] == ["disqualification", "warning"]


def test_declining_needs_a_reason_and_cannot_keep_the_disqualification(app, dq):
    response = post(dq["head"], f"{base(dq)}/incidents/1/decline", reason="", rank="warning")
    assert "Say why you decline." in text(dq["head"].get(response.headers["Location"]))
    response = post(dq["head"], f"{base(dq)}/incidents/1/decline", reason="no", rank="disqualification")
    assert "Choose the penalty you give instead" in text(dq["head"].get(response.headers["Location"]))
    with app.app_context():
        assert db.session.scalar(select(Incident)).status is IncidentStatus.RECOMMENDED


def test_a_floor_judge_cannot_accept_their_own_recommendation(app, dq):
    assert post(dq["judge"], f"{base(dq)}/incidents/1/accept").status_code == 403
    assert post(dq["judge"], f"{base(dq)}/investigations/1/write-up", finalize="y", **WRITE_UP).status_code == 403
    with app.app_context():
        assert db.session.scalar(select(Incident)).status is IncidentStatus.RECOMMENDED


# ---- statements ----------------------------------------------------------------------------------------------------


def test_the_head_judge_types_statements_with_author_role_time_and_taker(app, dq):
    assert statement(dq["head"], dq).status_code == 302
    assert statement(dq["head"], dq, name="Chen Yu", role="player", body="I was only shuffling.").status_code == 302
    page = text(dq["head"].get(f"{base(dq)}/investigations/1"))
    assert "Statements (2)" in page
    assert 'Aiko Mori <span class="muted">(opponent)</span>' in page and "taken by Head Judge" in page
    assert "I was only shuffling." in page


def test_an_empty_statement_comes_back_with_the_name_kept_and_a_message(app, dq):
    response = statement(dq["head"], dq, name="Aiko Mori", body="")
    assert response.status_code == 400
    page = text(response)
    assert 'value="Aiko Mori"' in page and "The statement is empty." in page


def test_a_one_time_link_takes_one_statement_without_an_account_and_then_stops_working(app, dq):
    token = make_link(dq["head"], dq)
    visitor = app.test_client()  # no account
    page = text(visitor.get(f"/statement/{token}"))
    assert "Eve Witness" in page and "Regional Qualifier" in page
    token_field = re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"', visitor.get(f"/statement/{token}").get_data(as_text=True)
    ).group(1)
    response = send_statement(visitor, token, "I saw him look at the bottom card and move it to the top.")
    assert response.status_code == 200 and "Your statement was received" in text(response)
    again = visitor.post(f"/statement/{token}", data={"csrf_token": token_field, "text": "A second statement"})
    assert again.status_code == 410 and "already been used" in text(again)
    assert visitor.get(f"/statement/{token}").status_code == 410
    with app.app_context():
        [saved] = db.session.scalars(select(Statement)).all()
        assert (saved.author_name, saved.author_role.value, saved.taken_by_id) == ("Eve Witness", "witness", None)
        assert saved.text.startswith("I saw him look")
    assert "written on a one-time link" in text(dq["head"].get(f"{base(dq)}/investigations/1"))


def test_a_link_cannot_be_guessed_and_only_its_hash_is_stored(app, dq):
    token = make_link(dq["head"], dq)
    assert "/statement/" not in dq["head"].get(f"{base(dq)}/investigations/1").get_data(as_text=True)  # shown once
    assert len(token) >= 40
    visitor = app.test_client()
    assert visitor.get(f"/statement/{token[:-1]}x").status_code == 404
    assert visitor.get("/statement/1").status_code == 404
    with app.app_context():
        stored = db.session.scalar(select(StatementRequest))
        assert token not in stored.token_hash and len(stored.token_hash) == 64


def test_a_link_expires_after_the_events_statement_deadline(app, dq):
    token = make_link(dq["head"], dq)
    with app.app_context():
        request = db.session.scalar(select(StatementRequest))
        assert abs(request.expires_at - (request.created_at + timedelta(days=7))) < timedelta(seconds=1)
        request.expires_at = utcnow() - timedelta(minutes=1)
        db.session.commit()
    response = app.test_client().get(f"/statement/{token}")
    assert response.status_code == 410 and "This link has expired" in text(response)
    page = text(dq["head"].get(f"{base(dq)}/investigations/1"))
    assert "Still missing" in page and "Eve Witness (witness): link expired" in page


def test_the_investigation_shows_which_statements_are_missing_and_until_when_their_links_work(app, dq):
    make_link(dq["head"], dq, name="Eve Witness")
    make_link(dq["head"], dq, name="Floor Judge", role="judge")
    page = text(dq["head"].get(f"{base(dq)}/investigations/1"))
    assert "Eve Witness (witness): link open until" in page and "Floor Judge (judge): link open until" in page


def test_a_withdrawn_link_stops_working(app, dq):
    token = make_link(dq["head"], dq)
    with app.app_context():
        request_id = db.session.scalar(select(StatementRequest.id))
    post(dq["head"], f"{base(dq)}/investigations/1/links/{request_id}/revoke")
    response = app.test_client().get(f"/statement/{token}")
    assert response.status_code == 410 and "withdrawn" in text(response)


# ---- the write-up and the lock ---------------------------------------------------------------------------------------


def test_finalizing_needs_facts_reasoning_infraction_and_summary(app, dq):
    response = post(dq["head"], f"{base(dq)}/investigations/1/write-up", finalize="y", **{**WRITE_UP, "hj_facts": ""})
    assert response.status_code == 400
    page = text(response)
    assert "State the facts you consider established" in page and "Deliberate, for advantage" in page  # input kept
    assert investigation(app).status is InvestigationStatus.OPEN


def test_finalizing_gives_the_recommended_disqualification_and_locks_the_investigation(app, dq):
    statement(dq["head"], dq)
    assert post(dq["head"], f"{base(dq)}/investigations/1/write-up", finalize="y", **WRITE_UP).status_code == 302
    inv = investigation(app)
    assert inv.status is InvestigationStatus.FINALIZED and inv.revoke_prizes and not inv.ejected
    with app.app_context():
        assert db.session.scalar(select(Incident)).status is IncidentStatus.STANDING
    response = post(dq["head"], f"{base(dq)}/investigations/1/write-up", save="y", **{**WRITE_UP, "summary": "edited"})
    assert response.status_code == 409 and "finalized and locked: nothing was changed" in text(response)
    assert investigation(app).summary == WRITE_UP["summary"]


def test_finalizing_with_no_statement_on_file_answers_with_the_confirmation_step_and_locks_nothing(app, dq):
    """Without the phone's dialog (no JavaScript), the server asks: the form again, the input kept, the missing
    statements named at the confirmation field; nothing is locked and no disqualification is given."""
    response = post(dq["head"], f"{base(dq)}/investigations/1/write-up", finalize="y", **WRITE_UP)
    assert response.status_code == 400
    page = html.unescape(text(response))
    assert "No statement is on file: not the player's, the opponent's nor a witness's." in page
    assert 'name="without_statement"' in page and "Finalize without any statement" in page
    assert "Deliberate, for advantage: cheating." in page  # the write-up typed is kept
    assert investigation(app).status is InvestigationStatus.OPEN
    with app.app_context():
        assert db.session.scalar(select(Incident)).status is IncidentStatus.RECOMMENDED
        assert not db.session.scalars(select(AuditEntry).where(AuditEntry.action == "investigation.finalize")).all()


def test_finalizing_with_no_statement_locks_only_when_the_post_carries_the_confirmation(app, dq):
    url = f"{base(dq)}/investigations/1/write-up"
    assert post(dq["head"], url, finalize="y", without_statement="y", **WRITE_UP).status_code == 302
    inv = investigation(app)
    assert inv.status is InvestigationStatus.FINALIZED and inv.finalized_at is not None
    with app.app_context():
        assert db.session.scalar(select(Incident)).status is IncidentStatus.STANDING


def test_saving_a_draft_with_no_statement_asks_nothing(app, dq):
    url = f"{base(dq)}/investigations/1/write-up"
    assert post(dq["head"], url, save="y", **WRITE_UP).status_code == 302
    assert investigation(app).status is InvestigationStatus.OPEN and investigation(app).summary == WRITE_UP["summary"]


def test_after_finalizing_new_statements_are_dated_addenda_and_earlier_ones_are_unchanged(app, dq):
    statement(dq["head"], dq, body="Original statement.")
    token = make_link(dq["head"], dq)
    post(dq["head"], f"{base(dq)}/investigations/1/write-up", finalize="y", **WRITE_UP)
    statement(dq["head"], dq, name="Head Judge", role="judge", body="Addendum: video reviewed.")
    assert send_statement(app.test_client(), token, "Late witness statement.").status_code == 200
    with app.app_context():
        rows = db.session.scalars(select(Statement).order_by(Statement.id)).all()
        assert [(s.text, s.addendum) for s in rows] == [
            ("Original statement.", False),
            ("Addendum: video reviewed.", True),
            ("Late witness statement.", True),
        ]
    page = text(dq["head"].get(f"{base(dq)}/investigations/1"))
    assert "Add a dated addendum" in page and page.count("Addendum — ") == 2


def test_every_change_to_an_investigation_is_audited(app, dq):
    post(dq["head"], f"{base(dq)}/investigations/1/write-up", save="y", **WRITE_UP)
    post(dq["head"], f"{base(dq)}/investigations/1/write-up", save="y", **{**WRITE_UP, "hj_reasoning": "Changed."})
    with app.app_context():
        entries = db.session.scalars(
            select(AuditEntry).where(AuditEntry.action == "investigation.write_up").order_by(AuditEntry.id)
        ).all()
    assert len(entries) == 2
    assert entries[1].details["changed"] == {"hj_reasoning": [WRITE_UP["hj_reasoning"], "Changed."]}


# ---- the PDF report -----------------------------------------------------------------------------------------------


def pdf_text(pdf: bytes, tmp_path, *args) -> str:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: run `make test`, which installs poppler-utils")
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", *args, str(path), "-"], capture_output=True, text=True, check=True).stdout


def pdf_info(pdf: bytes, tmp_path, tool="pdfinfo") -> str:
    path = tmp_path / "info.pdf"
    path.write_bytes(pdf)
    return subprocess.run([tool, str(path)], capture_output=True, text=True, check=True).stdout


def finalized_with_statements(app, dq, statements):
    for name, role, body in statements:
        assert statement(dq["head"], dq, name=name, role=role, body=body).status_code == 302
    assert post(dq["head"], f"{base(dq)}/investigations/1/write-up", finalize="y", **WRITE_UP).status_code == 302


def test_the_report_holds_every_field_and_every_statement_in_full(app, dq, tmp_path):
    long_text = " ".join(f"sentence{n} of a long witness account." for n in range(120))
    finalized_with_statements(
        app,
        dq,
        [
            ("Aiko Mori", "opponent", "I saw the top cards being arranged."),
            ("Chen Yu", "player", "I was only shuffling."),
            ("Eve Witness", "witness", long_text),
        ],
    )
    response = dq["head"].get(f"{base(dq)}/investigations/1/report.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert "dq-report_Regional-Qualifier_Chen-Yu_2026-11-28.pdf" in response.headers["Content-Disposition"]
    body = " ".join(pdf_text(response.data, tmp_path).split())
    for expected in (
        "Disqualification report",
        f"DQ-{dq['event_id']}-1",
        "Regional Qualifier",
        "2026-11-28",
        "Hall A",
        "Bushiroad",
        "Level 2",
        "Head Judge",
        "Organizer",
        "Chen Yu",
        "P-003",
        "Aiko Mori (P-001)",
        "4.1 Cheating",
        "Disqualification",
        "prizes",
        "Incident #1 logged by Floor Judge",
        "Investigation finalized",
        "Decision: disqualification",
        "I saw the top cards being arranged.",
        "I was only shuffling.",
        "sentence0 of",
        "sentence119 of",
        WRITE_UP["hj_facts"],
        WRITE_UP["hj_assumptions"],
        WRITE_UP["hj_reasoning"],
        WRITE_UP["summary"],
        "Saw the player stack the deck while shuffling.",
        "Page 1 of",
        "Signatures",
        "generated",
    ):
        assert expected in body, expected


def test_the_report_comes_in_a4_and_us_letter_and_embeds_every_font(app, dq, tmp_path):
    finalized_with_statements(
        app,
        dq,
        [
            ("佐藤 陽翔", "witness", "見ました。"),
            ("Chloé Dubois", "witness", "J'ai vu."),
            ("김지호", "judge", "확인했습니다."),
        ],
    )
    a4 = dq["head"].get(f"{base(dq)}/investigations/1/report.pdf").data
    letter = dq["head"].get(f"{base(dq)}/investigations/1/report.pdf?paper=letter").data
    assert "595.276 x 841.89 pts (A4)" in pdf_info(a4, tmp_path)
    assert "612 x 792 pts (letter)" in pdf_info(letter, tmp_path)
    body = pdf_text(a4, tmp_path)
    assert "佐藤 陽翔" in body and "見ました。" in body and "Chloé Dubois" in body and "김지호" in body
    fonts = pdf_info(a4, tmp_path, "pdffonts").splitlines()[2:]
    assert fonts and all(line.split()[-5] == "yes" for line in fonts), fonts  # the "emb" column


def test_a_draft_report_says_it_is_not_finalized(app, dq, tmp_path):
    body = pdf_text(dq["head"].get(f"{base(dq)}/investigations/1/report.pdf").data, tmp_path)
    assert "DRAFT: not finalized" in body


def test_the_organizer_downloads_the_report_and_a_floor_judge_cannot(app, dq):
    organizer = signed_in(app, dq["organizer"][1])
    assert organizer.get(f"{base(dq)}/investigations/1/report.pdf").data.startswith(b"%PDF")
    assert dq["judge"].get(f"{base(dq)}/investigations/1/report.pdf").status_code == 403


def test_hostile_text_in_statements_is_inert_in_the_page_and_the_pdf_and_fetches_nothing(
    app, dq, tmp_path, listening_server
):
    url, hits = listening_server
    hostile = (
        f'<img src="{url}/pixel.png"><link rel=stylesheet href="{url}/x.css">'
        f'<script>alert(1)</script><iframe src="file:///etc/passwd"></iframe> {{{{ 7*7 }}}}'
    )
    finalized_with_statements(app, dq, [("<b>Mallory</b>", "witness", hostile)])
    page = dq["head"].get(f"{base(dq)}/investigations/1").get_data(as_text=True)
    pdf = dq["head"].get(f"{base(dq)}/investigations/1/report.pdf").data
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;Mallory&lt;/b&gt;" in page
    body = " ".join(pdf_text(pdf, tmp_path).split())
    assert f'<img src="{url}/pixel.png">' in body and "file:///etc/passwd" in body and "{{ 7*7 }}" in body
    assert "<b>Mallory</b>" in body
    assert hits == []
