"""An event of two divisions over HTTP (issue 34): the event page keeps a round clock per division and names a
top-cut round; a division's table link calls to that division's table and the judges' queue names it. The event is
the two-pod TOM Cup sample (invented names)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from judgeapp.extensions import db, limiter
from tests.conftest import PASSWORD, login, post_form

CUP = Path(__file__).resolve().parent.parent / "data" / "imports" / "tom-cup-two-divisions.tdf"


@pytest.fixture
def cup(app, make_user, make_event):
    """The Cup imported at a new event with a head judge; its ids and the divisions' ids by name."""
    from judgeapp.events import imports
    from judgeapp.events.staff_services import assign_staff
    from judgeapp.models import Division, Event, Role

    head = make_user(name="Head Judge")
    organizer = make_user(organizer=True, name="Organizer")
    event_id = make_event(organizer[0], name="Sampleton Spring Cup", rounds=3)
    with app.app_context():
        event = db.session.get(Event, event_id)
        assign_staff(db.session, actor=event.organizer, event=event, email=head[1], name="", role=Role.HEAD_JUDGE)
        upload = imports.receive(db.session, actor=event.organizer, event=event, data=CUP.read_bytes())
        imports.apply(db.session, actor=event.organizer, event=event, upload=upload)
        divisions = {d.name: d.id for d in db.session.scalars(select(Division).where(Division.event_id == event_id))}
        db.session.commit()
    limiter.reset()
    client = app.test_client()
    assert login(client, head[1], PASSWORD).status_code == 302
    return {"event_id": event_id, "divisions": divisions, "head": client, "organizer_email": organizer[1]}


def start(cup, division: str):
    page = f"/events/{cup['event_id']}"
    return post_form(cup["head"], f"{page}/rounds", {"division": str(cup["divisions"][division])}, form_page=page)


def test_the_head_judge_starts_each_divisions_rounds_on_its_own_clock_and_a_top_cut_round_is_named(app, cup):
    for _ in range(6):
        assert start(cup, "Masters").status_code == 302
    assert start(cup, "Juniors+Seniors").status_code == 302
    page = cup["head"].get(f"/events/{cup['event_id']}").get_data(as_text=True)
    masters = page[page.index(f'id="division-{cup["divisions"]["Masters"]}"') :]
    juniors = page[page.index(f'id="division-{cup["divisions"]["Juniors+Seniors"]}"') : page.index(masters[:40])]
    assert "Round 1 of 8" in juniors and "Top" not in juniors
    assert "Round 6 of 8 · Top 8, quarterfinal" in masters


def test_a_divisions_table_link_calls_to_that_divisions_table_and_the_queue_names_the_division(app, cup):
    from judgeapp.calls import services as calls
    from judgeapp.models import Event, JudgeCall

    for division in ("Masters", "Juniors+Seniors"):
        start(cup, division)
    with app.app_context(), app.test_request_context():
        event = db.session.get(Event, cup["event_id"])
        [(_, link)] = calls.table_links(db.session, event, event.organizer, 2, 2, cup["divisions"]["Masters"])
        db.session.commit()
    path = link.split("://", 1)[1].split("/", 1)[1]
    player = app.test_client()
    page = player.get(f"/{path}").get_data(as_text=True)
    assert "Sampleton Spring Cup · Masters" in page
    assert post_form(player, f"/{path}", {"reason": "rules_question"}).status_code == 303
    with app.app_context():
        call = db.session.scalar(select(JudgeCall).where(JudgeCall.event_id == cup["event_id"]))
        assert (call.division_id, call.table_number, call.round.division_id) == (
            cup["divisions"]["Masters"], 2, cup["divisions"]["Masters"],
        )  # fmt: skip
    queue = cup["head"].get(f"/events/{cup['event_id']}/calls").get_data(as_text=True)
    assert "Masters · Table 2" in queue


def test_the_pairings_page_shows_and_seats_the_chosen_divisions_round(app, cup):
    from io import BytesIO

    start(cup, "Masters")
    start(cup, "Juniors+Seniors")
    page = f"/events/{cup['event_id']}/pairings?division={cup['divisions']['Masters']}"
    shown = cup["head"].get(page).get_data(as_text=True)
    assert "Juno Juniper" in shown and "Kestrel Kettleby" in shown  # Masters' table 2 of round 1
    assert "Arlo Ambleforth" not in shown  # a Juniors+Seniors player of round 1
    answer = post_form(
        cup["head"], page, {"file": (BytesIO(b"2,9342000,9342001\n"), "seats.csv")}, content_type="multipart/form-data"
    )
    assert answer.status_code == 200  # round 1 runs in both divisions: the chosen one's is seated, no error
    assert "already seated this round" in answer.get_data(as_text=True)


def round_options(html: str) -> list[str]:
    """The round select's option texts, in order."""
    import re

    select = html[html.index('id="round"') :]
    select = select[: select.index("</select>")]
    return [re.sub(r"\s+", " ", text).strip() for text in re.findall(r"<option[^>]*>([^<]*)</option>", select)]


@pytest.mark.parametrize(
    "form", ["/incidents/new", "/deck-checks/new", "/extensions/new"], ids=["incident", "deck check", "time"]
)
def test_the_forms_round_choice_names_each_division_playing_it_and_a_top_cut_round_as_such(app, cup, form):
    for _ in range(6):
        start(cup, "Masters")
    for _ in range(5):
        start(cup, "Juniors+Seniors")
    html = cup["head"].get(f"/events/{cup['event_id']}{form}").get_data(as_text=True)
    options = round_options(html)
    assert options[:3] == [
        "Round 6 · Masters: Top 8, quarterfinal",
        "Round 5 · Juniors+Seniors: Top 4, semifinal · Masters",
        "Round 4 · Juniors+Seniors · Masters",
    ]
    assert options[-1] == "Round 1 · Juniors+Seniors · Masters"


def log_at_table_2(cup, division: str, player: str, rank: str = "warning"):
    """The head judge logs an incident at table 2 of round 1 of a division through the form, as a judge does."""
    from tests.conftest import KEY_RE

    url = f"/events/{cup['event_id']}/incidents/new"
    key = KEY_RE.search(cup["head"].get(url).get_data(as_text=True)).group(1)
    fields = {
        "key": key, "round": "1", "division": str(cup["divisions"][division]), "table": "2",
        "subject_kind": "player", "player": player, "infraction": "3.5.2", "infraction_query": "3.5.2",
        "penalty": rank, "description": "", "deviation_reason": "Tested",
    }  # fmt: skip
    answer = post_form(cup["head"], url, fields)
    assert answer.status_code == 302, answer.get_data(as_text=True)[-3000:]


def sections(html: str, headings: list[str]) -> list[str]:
    """The page cut at each division heading, in the order given (each must be there, in that order)."""
    at = [html.index(f'<h2 class="division" id="division-{h}">') for h in headings]
    return [html[a:b] for a, b in zip(at, [*at[1:], len(html)], strict=True)]


def test_the_incidents_deck_checks_and_players_lists_group_by_division_in_the_events_order(app, cup):
    from uuid import uuid4

    from judgeapp.deckchecks.services import DeckCheckInput, start_deck_check
    from judgeapp.models import Event, User

    for division in ("Juniors+Seniors", "Masters"):
        start(cup, division)
    log_at_table_2(cup, "Masters", "9342000")  # Juno Juniper (Masters)
    log_at_table_2(cup, "Juniors+Seniors", "9341002")  # Cato Coldharbour (Juniors+Seniors)
    ids = cup["divisions"]
    with app.app_context():
        event = db.session.get(Event, cup["event_id"])
        judge = db.session.scalar(select(User).where(User.name == "Head Judge"))
        for division in ("Masters", "Juniors+Seniors"):
            data = DeckCheckInput(key=uuid4().hex, round_number=1, table_number=2, division_id=ids[division])
            start_deck_check(db.session, actor=judge, event=event, data=data)
        db.session.commit()
    base = f"/events/{cup['event_id']}"
    order = [ids["Juniors+Seniors"], ids["Masters"]]

    juniors, masters = sections(cup["head"].get(f"{base}/incidents").get_data(as_text=True), order)
    assert "Juniors+Seniors</h2>" in juniors and "Cato Coldharbour" in juniors and "Juno Juniper" not in juniors
    assert "Masters</h2>" in masters and "Juno Juniper" in masters and "Cato Coldharbour" not in masters

    juniors, masters = sections(cup["head"].get(f"{base}/deck-checks").get_data(as_text=True), order)
    assert "Cato Coldharbour" in juniors and "Juno Juniper" not in juniors  # table 2 of each division's round 1
    assert "Juno Juniper" in masters and "Cato Coldharbour" not in masters

    juniors, masters = sections(cup["head"].get(f"{base}/players").get_data(as_text=True), order)
    assert "Arlo Ambleforth" in juniors and "Juno Juniper" not in juniors
    assert "Juno Juniper" in masters and "Arlo Ambleforth" not in masters


def test_the_judge_call_queue_groups_the_waiting_calls_by_division(app, cup):
    from judgeapp.calls import services as calls
    from judgeapp.models import Event

    for division in ("Juniors+Seniors", "Masters"):
        start(cup, division)
    with app.app_context():
        event = db.session.get(Event, cup["event_id"])
        for division, table in (("Masters", 3), ("Juniors+Seniors", 4), ("Masters", 5)):
            calls.raise_call(
                db.session,
                event=event,
                table=table,
                reason="rules_question",
                note="",
                division_id=cup["divisions"][division],
            )
        db.session.commit()
    queue = cup["head"].get(f"/events/{cup['event_id']}/calls?partial=1").get_data(as_text=True)
    juniors = queue.index(f'<h3 id="division-{cup["divisions"]["Juniors+Seniors"]}">Juniors+Seniors</h3>')
    masters = queue.index(f'<h3 id="division-{cup["divisions"]["Masters"]}">Masters</h3>')
    assert juniors < queue.index("Juniors+Seniors · Table 4") < masters
    assert masters < queue.index("Masters · Table 3") < queue.index("Masters · Table 5")


def test_an_event_of_one_division_lists_without_any_division_heading_as_before(app, make_user, make_event):
    """A single-division event looks exactly as before divisions: one list per page, no division heading, nothing
    named after its (unnamed) division."""
    from uuid import uuid4

    from judgeapp.calls import services as calls
    from judgeapp.deckchecks.services import DeckCheckInput, start_deck_check
    from judgeapp.events import imports
    from judgeapp.events.round_services import start_round
    from judgeapp.events.staff_services import assign_staff
    from judgeapp.models import Event, Role, User

    head = make_user(name="Head Judge")
    event_id = make_event(make_user(organizer=True, name="Organizer")[0], name="Sampleton League Challenge")
    with app.app_context():
        event = db.session.get(Event, event_id)
        assign_staff(db.session, actor=event.organizer, event=event, email=head[1], name="", role=Role.HEAD_JUDGE)
        upload = imports.receive(
            db.session, actor=event.organizer, event=event, data=(CUP.parent / "tom-sample.tdf").read_bytes()
        )
        imports.apply(db.session, actor=event.organizer, event=event, upload=upload)
        start_round(db.session, actor=event.organizer, event=event)
        judge = db.session.get(User, head[0])
        start_deck_check(
            db.session, actor=judge, event=event, data=DeckCheckInput(key=uuid4().hex, round_number=1, table_number=1)
        )
        calls.raise_call(db.session, event=event, table=1, reason="rules_question", note="")
        db.session.commit()
    limiter.reset()
    client = app.test_client()
    assert login(client, head[1], PASSWORD).status_code == 302
    log_at_table_2({"head": client, "event_id": event_id, "divisions": {"": ""}}, "", "9100011")
    pages = {
        page: client.get(f"/events/{event_id}/{page}").get_data(as_text=True)
        for page in ("incidents", "deck-checks", "players", "calls")
    }
    assert "#1 · Maren Okafor" in pages["incidents"] and pages["incidents"].count('<ul class="list">') == 1
    assert "Table 1</a>:" in pages["deck-checks"] and pages["deck-checks"].count("<h2>") == 1  # its one round
    assert "Maren Okafor" in pages["players"] and pages["players"].count('<ul class="list"') == 1
    assert "<strong>Table 1</strong>" in pages["calls"]
    for page, html in pages.items():
        assert 'id="division-' not in html and 'class="division"' not in html and "row division" not in html, page


def player_id_of(app, event_id: int, code: str) -> int:
    from judgeapp.models import Player

    with app.app_context():
        return db.session.scalar(select(Player.id).where(Player.event_id == event_id, Player.player_code == code))


@pytest.fixture
def organizer(app, cup):
    """The organizer signed in: they correct players' records (with the scorekeeper)."""
    client = app.test_client()
    assert login(client, cup["organizer_email"], PASSWORD).status_code == 302
    return client


def record_fields(**fields) -> dict:
    return {"name": "", "reading": "", "handle": "", "player_code": "", "platform_ids": "", **fields}


def test_the_organizer_moves_an_unseated_registrant_to_another_division_on_the_record_page_and_it_is_audited(
    app, cup, organizer
):
    from judgeapp.models import AuditEntry, Player

    url = f"/events/{cup['event_id']}/players/{player_id_of(app, cup['event_id'], '9341099')}/record"
    page = organizer.get(url).get_data(as_text=True)
    assert 'id="division"' in page  # the event's divisions to choose from, the player's own chosen
    assert f'<option selected value="{cup["divisions"]["Juniors+Seniors"]}">' in page
    fields = record_fields(
        name="Ivo Inchmore",
        player_code="9341099",
        platform_ids="pokemon: 9341099",
        division=str(cup["divisions"]["Masters"]),
    )
    assert post_form(organizer, url, fields).status_code == 302
    with app.app_context():
        ivo = db.session.scalar(select(Player).where(Player.player_code == "9341099"))
        assert ivo.division_id == cup["divisions"]["Masters"]
        entry = db.session.scalar(select(AuditEntry).where(AuditEntry.action == "player.correct"))
        assert entry.details["changes"] == {"division": ["Juniors+Seniors", "Masters"]}


def test_a_player_seated_in_their_divisions_pairings_is_not_moved_and_the_form_says_why_at_the_field(
    app, cup, organizer
):
    from judgeapp.models import Player

    url = f"/events/{cup['event_id']}/players/{player_id_of(app, cup['event_id'], '9341000')}/record"
    fields = record_fields(name="Arlo Ambleforth", player_code="9341000", division=str(cup["divisions"]["Masters"]))
    answer = post_form(organizer, url, fields)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and 'id="division-error"' in page
    assert "seated in the pairings of Juniors+Seniors" in page
    assert f'<option selected value="{cup["divisions"]["Masters"]}">' in page, "the choice is kept"
    with app.app_context():
        arlo = db.session.scalar(select(Player).where(Player.player_code == "9341000"))
        assert arlo.division_id == cup["divisions"]["Juniors+Seniors"]


def test_a_division_not_the_events_is_refused_at_the_field(app, cup, organizer):
    url = f"/events/{cup['event_id']}/players/{player_id_of(app, cup['event_id'], '9341099')}/record"
    answer = post_form(organizer, url, record_fields(name="Ivo Inchmore", player_code="9341099", division="999999"))
    assert answer.status_code == 400 and "Choose one of this event&#39;s divisions." in answer.get_data(as_text=True)
